"""A removal's report has no Request date column (a removal reads no request date, so the column
was always empty), and a removal of that report still reads it as a removal's report: its rows
its job did not remove are said as such, not as rows its job "did not insert".

Run through ``main`` against a real sandbox over loopback; the report is read back with openpyxl.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN

REMOVAL_COLUMNS = (
    "Source row",
    "Original value",
    "Normalized number",
    "Country code",
    "Scope",
    "Outcome",
    "Message",
    "Damage note",
)


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def _rows(report: str) -> tuple[tuple[Any, ...], dict[int, tuple[Any, ...]]]:
    book = openpyxl.load_workbook(report)
    try:
        header, *rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    return header, {int(r[0]): r for r in rows}


def test_a_removal_report_has_no_request_date_and_reads_back_as_a_removals(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([("7183852483", "1", "0", "listed", "")])
    source = tmp_path / "remove.csv"
    # A request date column too: a removal reads none, so its report shows none.
    source.write_text(
        "Phone Number,Date received\n7183852483,2026-11-02\n555,2026-11-03\n", encoding="utf-8"
    )
    first = tmp_path / "first.xlsx"
    argv = ["remove", str(source), "--scope", "global", "--note", "undo", "--report", str(first)]
    data = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    assert data["removed"] == 1, data
    header, rows = _rows(data["report"])
    assert header == REMOVAL_COLUMNS
    assert all(len(r) == len(REMOVAL_COLUMNS) for r in rows.values())
    outcome = header.index("Outcome")
    assert (rows[2][outcome], rows[3][outcome]) == ("removed", "invalid")

    # The report removed in its turn (a dry run): read as a removal's report.
    second = tmp_path / "second.xlsx"
    argv = ["remove", str(first), "--scope", "global", "--dry-run", "--report", str(second)]
    again = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    header, rows = _rows(again["report"])
    message = rows[3][header.index("Message")]
    assert "its job found this row invalid and did not remove it" in message, message
    assert "insert" not in message
