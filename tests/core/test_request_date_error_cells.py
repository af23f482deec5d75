"""A request-date cell holding a spreadsheet's error value (#VALUE!, #N/A, #REF!) is told the
forms of a date that are read, as every other cell that is not a date is: before, its row's
message said only that it held an error value, leaving the officer to guess what to write."""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow

# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"


def _staged(tmp_path: Path, dates: list[tuple[str, str]]) -> dict[int, JobRow]:
    """Stage an xlsx of numbers beside ``dates``: (value, openpyxl data type) each, "e" an
    error cell as Excel saves a failed formula's result, "s" the same characters as text."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Date Received"])
    for row, (value, kind) in enumerate(dates, start=2):
        sheet.cell(row, 1, f"30355599{row:02d}")
        cell = sheet.cell(row, 2, value)
        cell.data_type = kind
    path = tmp_path / "requests.xlsx"
    book.save(path)
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        return {r.row_number: r for r in store.rows()}


def test_error_cells_name_the_forms_read(tmp_path: Path) -> None:
    rows = _staged(tmp_path, [("#VALUE!", "e"), ("#N/A", "e"), ("#REF!", "e"), ("N/A", "s")])

    for number, error in ((2, "#VALUE!"), (3, "#N/A"), (4, "#REF!")):
        assert rows[number].outcome == "" and rows[number].request_date == ""
        assert rows[number].message == (
            f"row {number}: request_date: cell B{number} holds the error value {error}, not a "
            f"date{READ_AS_DATES}, so the 10-business-day limit was not checked for it"
        )
    # The wording they now match: any other cell that is not a date.
    assert rows[5].message == f"row 5: request date: 'N/A' is not a date{READ_AS_DATES}"


def test_error_values_kept_as_text_name_the_forms_read(tmp_path: Path) -> None:
    # The characters of an error value in a text cell (a CSV's export, pasted into a sheet).
    rows = _staged(tmp_path, [("#VALUE!", "s"), ("#N/A", "s")])

    assert rows[2].message == (
        f"row 2: request date: '#VALUE!' is an error value from a spreadsheet, not a "
        f"date{READ_AS_DATES}"
    )
    assert rows[3].message == (
        f"row 3: request date: '#N/A' is an error value from a spreadsheet, not a "
        f"date{READ_AS_DATES}"
    )
