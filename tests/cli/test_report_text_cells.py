"""The job report's Rows sheet keeps phone numbers as text when re-typed in Excel: its
"Original value" and "Normalized number" cells have the Text format,
as the export's and the other reports' phone cells do."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main


def test_the_rows_sheet_phone_cells_are_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "optouts.xlsx"
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    for row in (["Phone", "Country Code"], ["02079460000", 44], [3035550102, 1]):
        sheet.append(row)
    wb.save(path)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)["report"]
    rows = list(openpyxl.load_workbook(report)["Rows"].iter_rows())
    headers = [c.value for c in rows[0]]
    original, normalized = headers.index("Original value"), headers.index("Normalized number")
    uk, us = rows[1], rows[2]
    assert (uk[original].value, uk[normalized].value) == ("02079460000", "2079460000")
    assert uk[original].number_format == "@" and uk[normalized].number_format == "@"
    assert us[normalized].value == "3035550102" and us[normalized].number_format == "@"
    # The report keeps a number cell's value as text too (as the job file does).
    assert us[original].value == "3035550102" and us[original].number_format == "@"
    assert all(
        c.number_format == "General" for c in uk if c.column - 1 not in (original, normalized)
    )
