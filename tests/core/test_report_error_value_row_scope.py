"""Re-test U1 F2: a row made invalid because its phone cell holds an error value (#N/A) had an
empty Scope cell in the report, where a row invalid for its number keeps the scope its file
named; corrected there and imported again, it took whatever --scope said then. A blank row
still shows no scope."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.job_report import ROW_COLUMNS
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def test_an_error_value_rows_scope_is_the_jobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for value in ("Phone", "3035550201", "#N/A", "12345", None, "3035550202"):
        sheet.append([value])
    sheet["A3"].data_type = "e"  # an error value, as Excel saves a failed lookup
    path = tmp_path / "errors.xlsx"
    book.save(path)
    report = tmp_path / "report.xlsx"
    argv = ["import", str(path), "--into", "dnc", "--scope", "campaign:7", "--dry-run"]
    assert main([*argv, "--report", str(report), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["invalid"], data["blank"]) == (2, 1)
    book = openpyxl.load_workbook(report, read_only=True)
    scope, outcome = ROW_COLUMNS.index("Scope"), ROW_COLUMNS.index("Outcome")
    try:
        rows = book["Rows"].iter_rows(min_row=2, values_only=True)
        cells = {r[0]: (r[outcome], r[scope]) for r in rows}
    finally:
        book.close()  # a read-only workbook keeps its file open until closed
    assert cells[3] == ("invalid", "campaign:7")  # the error value
    assert cells[4] == ("invalid", "campaign:7")  # too short
    assert cells[5] == ("blank", None)
