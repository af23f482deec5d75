"""An import's dry run names a phone number a row's Notes cell holds besides the row's own, in
a note and in the row's message in the report (black-box B7 #4: the dry run of Phone
"480-555-5503", Notes "also cell 480-555-5504" said nothing of the second number)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from app.cli.main import main
from tests.conftest import TOKEN

SAID = (
    "note: 1 row's reason cell, in column C ('Notes'), names a phone number besides the row's "
    "own: row 3 ((480) 555-5504). Only the phone column's number is imported from a row, so "
    "that number is not: if the consumer asked for it too, import it as a row of its own. The "
    "row's message names it."
)
MESSAGE = (
    "row 3: its Notes cell C3 names another number, (480) 555-5504: if the consumer asked for "
    "it too, add it as a row of its own"
)


def test_a_dry_run_names_the_second_number_in_a_notes_cell(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    path = tmp_path / "labels.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Name", "Phone", "Notes"])
    sheet.append(["a", "480-555-5501", None])
    sheet.append(["b", "480-555-5503", "also cell 480-555-5504"])
    book.save(path)
    report = tmp_path / "dry.xlsx"
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--base-url", sandbox.base_url, "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert SAID in out
    assert "would be sent: 2" in out  # the row still goes in, as before
    rows = CalamineWorkbook.from_path(str(report)).get_sheet_by_name("Rows").to_python()
    header = rows[0]
    by_row = {int(r[header.index("Source row")]): r for r in rows[1:] if r and r[0] != ""}
    assert by_row[3][header.index("Message")] == MESSAGE
    assert by_row[2][header.index("Message")] == ""
