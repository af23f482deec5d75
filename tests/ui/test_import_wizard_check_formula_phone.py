"""Black-box bb6 F5 (session 32): on the window's check page, a row whose phone cell holds a
formula with no saved value (a file written by a script) said "the phone number is empty";
only a warning above the rows named the formula. The row now says so, as the job's report
row does, and what to do.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.core.sheet_check import CheckOptions, Outcome
from app.core.sheet_mapping import ColumnMapping
from app.ui.import_wizard_engine import check_file, probe_file


def test_the_check_page_row_names_the_formula(tmp_path: Path) -> None:
    path = tmp_path / "script.xlsx"
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.append(["Phone", "Name"])
    sheet.append(["303-555-0410", "Ann"])
    sheet.append(["=1/0", "Bo"])  # openpyxl saves no value for it, as scripts' files do
    sheet.append(["303-555-0412", "Cy"])
    wb.save(path)
    mapping = ColumnMapping(header_row=1, headers=("Phone", "Name"), phone=0)
    result = check_file(probe_file(path), mapping, CheckOptions(), {})
    (problem,) = result.problems
    assert problem.row == 3 and problem.outcome is Outcome.INVALID
    assert problem.message == (
        "row 3: phone: cell A3 holds a formula (=1/0) with no saved result, so it reads as "
        "empty; open and save the file in Excel (or LibreOffice) to calculate it"
    )
    assert (result.summary.valid, result.summary.invalid, result.summary.blank) == (2, 1, 0)
