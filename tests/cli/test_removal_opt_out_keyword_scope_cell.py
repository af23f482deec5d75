"""Black-box B29 F5: a removal's row refused for an opt-out keyword in its phone cell ("STOP
3125550135") keeps in the report's Scope cell the scope its file named, as every row invalid
for its phone number does (docs: "A row that was invalid for its phone number keeps in its
Scope cell the scope its file named"); its Scope cell was empty."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main


def _scopes(report: Path) -> dict[int, tuple[Any, Any]]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    header = rows[0]
    scope, outcome = header.index("Scope"), header.index("Outcome")
    return {int(r[0]): (r[scope], r[outcome]) for r in rows[1:]}


@pytest.mark.parametrize("per_row", [False, True])
def test_a_row_refused_for_an_opt_out_keyword_keeps_its_scope(
    per_row: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "stopkw.csv"
    src.write_text(
        "Phone,Scope\n"
        "STOP 3125550135,\n"
        "3125550136 STOP,\n"
        "12345,\n"  # invalid for its number: its Scope cell was kept already
        "STOP 3125550137,global\n"
    )
    argv = ["remove", str(src), "--scope", "campaign:1003", "--dry-run", "--json"]
    assert main([*argv, *(["--per-row-scope"] if per_row else [])]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["invalid"] == 4
    assert _scopes(Path(data["report"])) == {
        2: ("campaign:1003", "invalid"),
        3: ("campaign:1003", "invalid"),
        4: ("campaign:1003", "invalid"),
        5: ("global", "invalid"),
    }
