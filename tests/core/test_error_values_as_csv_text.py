"""Black-box M1 #5: a spreadsheet's error value written out as text by a CSV export.

"#N/A" or "#REF!" in a CSV's reason column (a failed VLOOKUP, as Excel's and LibreOffice's
CSV write it) was stored as the entry's reason, even with a default reason given, with no word,
while the same sheet saved as xlsx takes the default reason with a note. Such a cell now reads
no reason (the default applies), its row's note names the cell and the job's warning counts
it; a request-date cell so is unreadable, saying it is an error value; a country-code or
purpose cell so makes the row invalid, saying it is an error value.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStore
from app.core.sheet_check import (
    CheckOptions,
    CheckSummary,
    Outcome,
    check_all,
    check_rows,
    error_value,
)
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import CellValue, Row

# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"

ERRORS = [
    "#N/A",
    "#N/A N/A",
    "#REF!",
    "#VALUE!",
    "#DIV/0!",
    "#NAME?",
    "#NULL!",
    "#NUM!",
    "#ERROR!",
    "#SPILL!",
    "#CALC!",
    "#GETTING_DATA",
    "#FIELD!",
    "#BLOCKED!",
    "#CONNECT!",
    "#BUSY!",
    "#UNKNOWN!",
    "Err:502",
]


def _rows(store: JobStore) -> dict[int, JobRow]:
    return {r.row_number: r for r in store.rows()}


@pytest.mark.parametrize("text", ERRORS)
def test_every_error_value_is_known(text: str) -> None:
    assert error_value(text)


@pytest.mark.parametrize("text", ["#1 request", "N/A", "#N/Apple", "Err:5", "asked #N/A"])
def test_text_that_only_looks_like_one_is_not(text: str) -> None:
    assert not error_value(text)


def test_error_values_as_text_in_a_csv_read_as_the_xlsx_ones_do(tmp_path: Path) -> None:
    # e3_text_errors.csv of the black-box pass, and LibreOffice's CSV of a VLOOKUP sheet.
    path = tmp_path / "e3_text_errors.csv"
    path.write_text(
        "Phone,Country,Notes,Date Received\n"
        "3035559950,#N/A,asked stop,2026-11-18\n"
        "3035559951,USA,#N/A,2026-11-18\n"
        "3035559952,USA,ok,#VALUE!\n"
        "3035559953,USA,#REF!,Err:502\n"
        "3035559955,USA,ok,2026-11-18\n",
        encoding="utf-8",
    )
    settings = JobSettings(path, Scope.global_(), reason="Consumer request")
    store, summary = stage_import(settings, tmp_path / "jobs", connection=None)
    with store:
        rows = _rows(store)
        warnings = store.meta()["warnings"]
    assert (summary.valid, summary.invalid) == (4, 1)
    assert rows[2].outcome == "invalid"
    assert rows[2].message == (
        "row 2: Country: '#N/A' is an error value from a spreadsheet, not a country code "
        "(cell B2): the formula that should have given it failed; correct it in the file and "
        "run the file again"
    )
    assert rows[3].outcome == "" and rows[3].reason == "Consumer request"
    assert rows[3].message == (
        "row 3: reason: cell C3 holds the error value #N/A (as text, as a spreadsheet's export "
        "writes a formula that failed), so no reason was read from it: the default reason "
        "'Consumer request' applies"
    )
    assert rows[4].outcome == "" and rows[4].request_date == ""
    assert rows[4].damage == ""  # the Message says it: no phone cell was damaged
    assert rows[4].message == (
        "row 4: request date: '#VALUE!' is an error value from a spreadsheet, not a date"
        f"{READ_AS_DATES}"
    )
    assert rows[5].reason == "Consumer request"
    assert rows[5].message.startswith("row 5: reason: cell C5 holds the error value #REF! (")
    assert rows[5].message.endswith(
        f"; request date: 'Err:502' is an error value from a spreadsheet, not a date{READ_AS_DATES}"
    )
    assert (summary.unread_dates.count, summary.unread_dates.first) == (2, [4, 5])
    assert warnings[0].startswith(
        "3 rows have a reason or request-date cell holding an error value (as #N/A) or a "
        "formula with no saved result (rows 3, 4 and 5): they are imported all the same"
    )


def test_without_a_default_reason_the_row_has_none() -> None:
    mapping = ColumnMapping(phone=0, reason=1, header_row=1, headers=("Phone", "Notes"))
    rows: list[Row] = [(1, ["Phone", "Notes"]), (2, ["3035559922", " #N/A "])]
    (row,), _ = check_all(rows, mapping, CheckOptions())
    assert row.outcome is Outcome.VALID and row.reason == ""
    assert row.message.endswith("so no reason was read from it: the row has no reason")
    assert row.marks is not None and row.marks.error_text == ("reason",)


def test_an_error_value_in_a_purpose_cell_makes_the_row_invalid() -> None:
    # The purpose names the entry's scope: as an xlsx's error value there, the row is invalid.
    mapping = ColumnMapping(
        phone=0,
        purpose=1,
        header_row=1,
        headers=("Phone", "Purpose"),
        default_scope=Scope.purpose(""),
        default_purpose="Surveys",
    )
    rows: list[Row] = [(1, ["Phone", "Purpose"]), (2, ["3035559922", "#N/A"])]
    (row,), summary = check_all(rows, mapping, CheckOptions())
    assert row.outcome is Outcome.INVALID and summary.invalid == 1
    assert row.message == (
        "row 2: purpose: '#N/A' is an error value from a spreadsheet, not a purpose (cell B2): "
        "correct it in the file and run the file again"
    )


def test_a_dialling_code_column_with_an_error_value_stays_invalid_beside_a_plus_number() -> None:
    mapping = ColumnMapping(phone=0, phone_code=1, header_row=1, headers=("Phone", "Country Code"))
    rows: list[Row] = [(1, ["Phone", "Country Code"]), (2, ["+44 20 7946 0013", "#N/A"])]
    (row,), _ = check_all(rows, mapping, CheckOptions())
    assert row.outcome is Outcome.INVALID
    assert row.message.startswith(
        "row 2: Country Code: '#N/A' is an error value from a spreadsheet, not a country code"
    )


def test_a_country_cell_with_an_error_value_decides_nothing_for_a_plus_number() -> None:
    # The CSV of black-box M1 #10's sheet: read under the number's own code, as the xlsx is.
    mapping = ColumnMapping(phone=0, phone_code=1, header_row=1, headers=("Phone", "Country"))
    rows: list[Row] = [
        (1, ["Phone", "Country"]),
        (2, ["+44 20 7946 0013", "#N/A"]),
        (3, ["2079460014", "#N/A"]),
    ]
    (own, bare), _ = check_all(rows, mapping, CheckOptions())
    assert own.outcome is Outcome.VALID
    assert (own.phone_code, own.national) == ("44", "2079460013")
    assert own.message == (
        "row 2: phone_code: cell B2 holds the error value #N/A (as text), which decides "
        "nothing here: the number is written with its own country code"
    )
    assert bare.outcome is Outcome.INVALID


# ---- the inline path for plain rows gives the same verdicts as the general one --------------

code_cells = st.sampled_from([None, "1", "44", "#N/A", "#REF!", "US"])
phone_cells = st.sampled_from(["3035559950", "+44 20 7946 0013", "0044 20 7946 0014", 3035559951])
reason_cells = st.sampled_from([None, "asked", *ERRORS, "#1 request", "Err:5", "err:502"])


@settings(max_examples=300, deadline=None)
@given(
    rows=st.lists(st.tuples(phone_cells, code_cells, reason_cells), max_size=20),
    code_header=st.sampled_from(["Country", "Country Code"]),
    default_reason=st.sampled_from(["", "Consumer request", "#N/A"]),
)
def test_plain_rows_with_error_values_get_the_general_verdict(
    rows: list[tuple[CellValue, CellValue, CellValue]], code_header: str, default_reason: str
) -> None:
    from app.core.sheet_check import _Checker

    mapping = ColumnMapping(
        phone=0,
        phone_code=1,
        reason=2,
        header_row=0,
        headers=("Phone", code_header, "Notes"),
        default_reason=default_reason,
    )
    options = CheckOptions()
    numbered: list[Row] = [(i, list(r)) for i, r in enumerate(rows, 1)]
    general = _Checker(mapping, options)
    assert general.plain_rows_possible()
    expected = [general.check(n, list(c)) for n, c in numbered]
    summary = CheckSummary()
    assert list(check_rows(numbered, mapping, options, summary)) == expected
