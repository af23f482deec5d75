"""Black-box pass Q2 #8: a removal row invalid for its scope has that scope, as the file
writes it, in the report's Scope cell (it was empty, the scope only in the message)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def report_rows(path: Path) -> dict[int, tuple[Any, ...]]:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    header = rows[0]
    scope, outcome = header.index("Scope"), header.index("Outcome")
    return {int(r[0]): (r[scope], r[outcome]) for r in rows[1:]}


def test_a_removal_row_invalid_for_its_scope_shows_its_scope_in_the_report(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spring = sandbox.seed_campaign("Solar Savings Outreach")
    other = sandbox.seed_campaign("Medicare Enrollment 2026")
    src = tmp_path / "r4.csv"
    src.write_text(
        "Phone,Scope,Campaign\n"
        "3125550121,global,\n"
        f"3125550122,campaign:{spring},\n"
        "3125550123,,Solar Savings Outreach\n"
        f"3125550124,campaign:{spring},Medicare Enrollment 2026\n"
        f"3125550125,global,{spring}\n"
        f"3125550126,campaign:{other},{other}\n"
        "3125550127,campaign:99999,\n"
        "3125550128,purpose,\n"
    )
    argv = ["remove", str(src), "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["invalid"] == 7
    rows = report_rows(Path(data["report"]))
    assert rows.pop(2)[0] == "global"  # the one valid row, as before
    assert rows == {
        3: (f"campaign:{spring}", "invalid"),
        # Its campaign named, shown by id as its neighbours' (black-box bb5 W2).
        4: (f"campaign:{spring}", "invalid"),
        5: (f"campaign:{spring}", "invalid"),
        6: ("global", "invalid"),
        7: (f"campaign:{other}", "invalid"),
        8: ("campaign:99999", "invalid"),
        9: ("purpose", "invalid"),
    }
