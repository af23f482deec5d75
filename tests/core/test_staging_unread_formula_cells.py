"""Black-box L1 #3 and L3 #9: cells that read as empty though they are not, and the dates
warning's claim about the Damage note column.

A VLOOKUP giving #N/A in the reason column, or a DATEVALUE giving #VALUE! in the request-date
column, made the row invalid, withholding a real do-not-call request over a column that
decides neither the number nor where it goes (the text "N/A" there kept the row valid). Such a
row is now taken as the check decides: its message names the cell, a warning counts such rows,
and an unread request date counts among the dates that could not be read. In a column that
decides the number or its scope (campaign here) the row stays invalid.

L3 #9: the unchecked-dates warning said each row's note in the Damage note column says why,
but an empty request-date cell has no note.
"""

from __future__ import annotations

import csv
from pathlib import Path
from xml.sax.saxutils import escape

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStore
from app.core.removal_job import stage_removal
from tests.core import sheet_factory as f

# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"


def error(ref: str, text: str, formula: str = "") -> str:
    f_part = f"<f>{escape(formula)}</f>" if formula else ""
    return f'<c r="{ref}" t="e">{f_part}<v>{text}</v></c>'


def uncalculated(ref: str, formula: str) -> str:
    """A formula with no saved result, as a script (openpyxl) writes it."""
    return f'<c r="{ref}"><f>{escape(formula)}</f></c>'


def raw_sheet(rows: list[str]) -> str:
    body = "".join(f'<row r="{n}">{cells}</row>' for n, cells in enumerate(rows, 1))
    return f"{f.SHEET_HEAD}<sheetData>{body}</sheetData></worksheet>"


HEADER = (
    f.cell("A1", "Phone")
    + f.cell("B1", "Notes")
    + f.cell("C1", "Date Received")
    + f.cell("D1", "Campaign")
)


def vlookup_xlsx(path: Path) -> Path:
    rows = [
        HEADER,
        f.cell("A2", "3035559920") + f.cell("B2", "called back") + f.cell("C2", "2026-11-17"),
        f.cell("A3", "3035559922")
        + error("B3", "#N/A", "VLOOKUP(E3,Lookup!A:B,2,FALSE())")
        + f.cell("C3", "2026-11-19"),
        f.cell("A4", "3035559923")
        + f.cell("B4", "asked stop")
        + error("C4", "#VALUE!", 'DATEVALUE("not a date")'),
        f.cell("A5", "3035559924")
        + uncalculated("B5", "E5&F5")
        + uncalculated("C5", "DATE(2026,11,21)"),
        # A cell deciding where the row goes: invalid as before, whatever else is unread.
        f.cell("A6", "3035559925") + error("B6", "#N/A") + error("D6", "#REF!"),
    ]
    return f.write_raw_xlsx(path, raw_sheet(rows))


def _rows(store: JobStore) -> dict[int, JobRow]:
    return {r.row_number: r for r in store.rows()}


def test_unread_reason_and_date_cells_leave_the_row_valid_and_say_so(tmp_path: Path) -> None:
    path = vlookup_xlsx(tmp_path / "r1_vlookup_na.xlsx")
    settings = JobSettings(path, Scope.global_(), reason="Consumer request")
    store, summary = stage_import(settings, tmp_path / "jobs", connection=None)
    with store:
        rows = _rows(store)
        warnings = store.meta()["warnings"]
    assert (summary.valid, summary.invalid) == (4, 1)
    assert rows[3].outcome == "" and rows[3].reason == "Consumer request"
    assert rows[3].message == (
        "row 3: reason: cell B3 holds the error value #N/A, so no reason was read from it: the "
        "default reason 'Consumer request' applies"
    )
    assert rows[4].outcome == "" and rows[4].reason == "asked stop"
    assert rows[4].request_date == ""
    assert rows[4].message == (
        "row 4: request_date: cell C4 holds the error value #VALUE!, not a "
        f"date{READ_AS_DATES}, so the 10-business-day limit was not checked for it"
    )
    assert rows[4].damage == ""  # black-box B2 #4: said once, in the message (above)
    assert rows[5].outcome == ""
    assert rows[5].message == (
        "row 5: reason: cell B5 holds a formula (=E5&F5) with no saved result, so no reason "
        "was read from it: the default reason 'Consumer request' applies; request_date: cell "
        "C5 holds a formula (=DATE(2026,11,21)) with no saved result, so the request date "
        "could not be read and the 10-business-day limit was not checked for it"
    )
    assert rows[6].outcome == "invalid"
    assert rows[6].message.startswith("row 6: campaign: cell D6 holds the error value #REF!")
    # Counted with the dates that could not be read (as "N/A" is), not as empty cells.
    assert (summary.unread_dates.count, summary.unread_dates.first) == (2, [4, 5])
    assert summary.undated.count == 0
    assert warnings == [
        "3 rows have a reason or request-date cell holding an error value (as #N/A) or a "
        "formula with no saved result (rows 3, 4 and 5): they are imported all the same, as "
        "that cell decides neither the number nor where it goes, but a reason not read takes "
        "the default reason (if any) and a request date not read leaves the row's "
        "10-business-day limit unchecked; each row's message names the cell. Correct those "
        "cells in the file (a formula is calculated by opening and saving the file in Excel or "
        "LibreOffice) and run it again if they matter.",
        "2 rows' request dates could not be read (rows 4 and 5): their 10-business-day limit "
        "was not checked (each row's message in the report says why).",
    ]


def test_one_unread_reason_is_worded_alone(tmp_path: Path) -> None:
    rows = [
        f.cell("A1", "Phone") + f.cell("B1", "Reason"),
        f.cell("A2", "3035559920") + error("B2", "#N/A"),
    ]
    path = f.write_raw_xlsx(tmp_path / "one.xlsx", raw_sheet(rows))
    store, summary = stage_removal(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        row = _rows(store)[2]
        warnings = store.meta()["warnings"]
    assert summary.valid == 1 and row.outcome == ""
    assert row.message == (
        "row 2: reason: cell B2 holds the error value #N/A, so no reason was read from it: the "
        "row has no reason"
    )
    assert warnings[0].startswith(
        "1 row has a reason cell holding an error value (as #N/A) or a formula with no saved "
        "result (row 2): it is removed all the same, as that cell decides neither the number "
        "nor where it goes, but a reason not read takes the default reason (if any); "
    )


def _dated_csv(path: Path, dates: list[str]) -> Path:
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["Phone", "Date Received"])
        for n, date in enumerate(dates):
            writer.writerow([f"303555{1300 + n:04d}", date])
    return path


def test_the_dates_warning_claims_notes_only_for_rows_that_have_one(tmp_path: Path) -> None:
    path = _dated_csv(tmp_path / "d.csv", ["N/A", ""])
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        rows = _rows(store)
        warnings = store.meta()["warnings"]
    assert (
        rows[2].message == f"row 2: request date: 'N/A' is not a date{READ_AS_DATES}"
        and not rows[3].message
    )
    assert warnings == [
        "1 row's request date could not be read (row 2); 1 row has no request date (row 3): "
        "their 10-business-day limit was not checked (the report's Message column says why "
        "for each row with a date; the others' date cells are empty)."
    ]
    path = _dated_csv(tmp_path / "e.csv", ["", ""])
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        assert store.meta()["warnings"] == [
            "2 rows have no request date (rows 2 and 3): their 10-business-day limit was not "
            "checked."
        ]


def test_an_unread_country_cell_hides_the_code_when_the_code_cell_is_empty(
    tmp_path: Path,
) -> None:
    """The Country column beside a Country Code column gives the code of a row whose code
    cell is empty: read as empty, its #N/A made a London number a US one without a word
    (found after black-box L1 #3). With the code cell filled, the Country cell is not read."""
    header = f.cell("A1", "Phone") + f.cell("B1", "Country Code") + f.cell("C1", "Country")
    rows = [
        header,
        f.cell("A2", "2079460012") + error("C2", "#N/A", "VLOOKUP(D2,Lookup!A:B,2,FALSE())"),
        f.cell("A3", "2079460013") + f.cell("B3", "44") + error("C3", "#N/A"),
        f.cell("A4", "2079460014") + f.cell("C4", "United Kingdom"),
    ]
    path = f.write_raw_xlsx(tmp_path / "country_na.xlsx", raw_sheet(rows))
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        got = _rows(store)
    assert (summary.valid, summary.invalid) == (2, 1)
    assert got[2].outcome == "invalid" and got[2].phone_code != "1"
    assert got[2].message.startswith("row 2: phone_code: cell C2 holds the error value #N/A")
    assert (got[3].phone_code, got[3].national) == ("44", "2079460013")
    assert (got[4].phone_code, got[4].national) == ("44", "2079460014")
