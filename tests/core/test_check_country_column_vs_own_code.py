"""Black-box findings (pass F) in checking rows: a Country column naming where a consumer lives
no longer overrides the +code a number is written with (a dialling code contradicting it still
makes the row invalid, naming its cell); a request-date cell holding a time of day, a length of
time or TRUE is refused in the words the sheet shows, not Python's; a date before 1900 (an .ods
date cell holding -5 is Dec 25, 1899) is refused as a request date in every format."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, Outcome, check_all
from app.core.sheet_dates import parse_request_date
from app.core.sheet_mapping import propose_from_preview
from app.core.sheet_reader import open_sheet
from tests.core import sheet_factory as f
from tests.core.test_sheet_hidden_rows import ods_row, write_ods_xml
from tests.core.test_sheet_ods_xls_error_cells import ods_cell_xml

# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"

CHECKED_ON = dt.date(2026, 11, 20)


def check_file(path: Path) -> tuple[dict[int, CheckedRow], CheckSummary]:
    """Every row's verdict as an import checks it: the columns proposed from the file."""
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
        rows, summary = check_all(
            source.iter_rows(), mapping, CheckOptions(insertion_date=CHECKED_ON)
        )
    return {r.row: r for r in rows}, summary


# -- a Country column against the number's own +code ------------------------------------------


@pytest.mark.parametrize("dated", [False, True], ids=["plain rows", "with a request date"])
def test_a_country_named_in_its_column_does_not_override_the_numbers_own_code(
    tmp_path: Path, dated: bool
) -> None:
    # The finding's file: expats whose address country is not their line's country.
    rows = [
        ["Name", "Phone", "Country"],
        ["expat", "+1 303 555 5601", "GB"],
        ["expat2", "+44 7911 123510", "US"],
        ["expat3", "0044 7911 123511", "United States"],
        ["home", "3035555602", "US"],
    ]
    if dated:
        rows = [[*row, "Date received" if n == 0 else "11/19/2026"] for n, row in enumerate(rows)]
    checked, summary = check_file(f.write_csv(tmp_path / "expats.csv", rows))
    assert (summary.valid, summary.invalid) == (4, 0)
    assert [(checked[n].phone_code, checked[n].national) for n in (2, 3, 4, 5)] == [
        ("1", "3035555601"),
        ("44", "7911123510"),
        ("44", "7911123511"),
        ("1", "3035555602"),
    ]
    assert checked[2].message == (
        "row 2: read under its own +1 (United States / Canada), not the 'Country' cell's 'GB' "
        "(United Kingdom, column C): where a consumer lives need not be where the line is"
    )
    assert "'United States' (United States / Canada, column C)" in checked[4].message
    assert "+44 (United Kingdom)" in checked[4].message
    assert checked[5].message == ""  # agreeing, or no code of its own: nothing to say


def test_a_dialling_code_in_the_country_column_contradicting_the_number_names_its_cell(
    tmp_path: Path,
) -> None:
    path = f.write_csv(
        tmp_path / "codes.csv",
        [
            ["Name", "Phone", "Country"],
            ["a", "+1 303 555 5601", "44"],
            ["b", "+44 7911 123510", "+1"],
        ],
    )
    checked, summary = check_file(path)
    assert (summary.valid, summary.invalid) == (0, 2)
    assert checked[2].outcome is Outcome.INVALID
    assert checked[2].message == (
        "row 2: phone: the number starts with +1 (United States / Canada) but the 'Country' "
        "cell (column C) is '44' (United Kingdom): make them agree, or empty the cell to use "
        "the number's own code"
    )
    assert "the 'Country' cell (column C) is '+1' (United States / Canada)" in checked[3].message


def test_a_numeric_code_cell_in_a_workbook_is_a_dialling_code(tmp_path: Path) -> None:
    path = f.write_xlsx(
        tmp_path / "codes.xlsx",
        [["Phone", "Country Code"], ["+1 303 555 5601", 44], ["+44 7911 123510", 44]],
    )
    checked, _ = check_file(path)
    assert checked[2].outcome is Outcome.INVALID
    assert "the 'Country Code' cell (column B) is '44' (United Kingdom)" in checked[2].message
    assert (checked[3].outcome, checked[3].message) == (Outcome.VALID, "")


def test_an_invalid_number_read_under_its_own_code_says_why_and_which_code(
    tmp_path: Path,
) -> None:
    path = f.write_csv(
        tmp_path / "short.csv", [["Phone", "Country"], ["+44 7911 12", "United States"]]
    )
    checked, _ = check_file(path)
    message = checked[2].message
    assert checked[2].outcome is Outcome.INVALID
    assert message.startswith("row 2: phone: too short for a United Kingdom number")
    assert "not the 'Country' cell's 'United States'" in message


# -- request-date cells that are not dates ----------------------------------------------------


@pytest.mark.parametrize(
    ("value", "note"),
    [
        (dt.time(10, 30), "10:30 is a time of day, not a date"),
        (dt.time(10, 30, 15), "10:30:15 is a time of day, not a date"),
        (
            dt.time(0, 0),
            "00:00 is a time of day, not a date (a date-formatted cell holding 0 or a negative "
            "number shows as 00:00)",
        ),
        (dt.timedelta(hours=30, minutes=15), "30:15 is a length of time, not a date"),
        (True, f"TRUE is not a date{READ_AS_DATES}"),
        (-5, f"-5 is not a date{READ_AS_DATES}"),
        (12.5, f"12.5 is not a date{READ_AS_DATES}"),
        (dt.date(1899, 12, 25), "1899-12-25 is before 1900, so it is not a plausible request date"),
        (
            dt.datetime(1899, 12, 30, 0, 0),
            "1899-12-30 is before 1900, so it is not a plausible request date",
        ),
        ("1899-12-25", "'1899-12-25' is before 1900, so it is not a plausible request date"),
    ],
)
def test_cells_that_are_not_request_dates_say_so_as_the_sheet_shows_them(
    value: object, note: str
) -> None:
    parsed = parse_request_date(value, CHECKED_ON)  # type: ignore[arg-type]
    assert (parsed.date, parsed.note) == (None, note)


def test_the_first_days_of_1900_are_still_dates() -> None:
    assert parse_request_date(dt.date(1900, 1, 1)).date == dt.date(1900, 1, 1)
    assert parse_request_date("1900-01-01").date == dt.date(1900, 1, 1)


def test_a_time_cell_in_an_xlsx_request_date_column_is_named_as_a_time(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Date received"])
    ws.append(["3035553411", dt.time(10, 30)])
    ws.append(["3035553412", -5])
    ws["B3"].number_format = "mm/dd/yyyy"  # Excel cannot show it: read as 00:00
    wb.save(tmp_path / "times.xlsx")
    checked, summary = check_file(tmp_path / "times.xlsx")
    assert checked[2].date_note == "10:30 is a time of day, not a date"
    assert checked[3].request_date is None and checked[3].date_note.startswith("00:00 is a time")
    assert summary.unread_dates.first == [2, 3]


def test_a_date_before_1900_is_no_request_date_in_an_ods_an_xlsx_or_a_csv(
    tmp_path: Path,
) -> None:
    # The finding: -5 in a date-formatted cell of an .ods is Dec 25, 1899, which was counted
    # 32102 business days late; the same cell in an xlsx was refused.
    date_cell = ods_cell_xml(
        'office:value-type="date" office:date-value="1899-12-25"', "12/25/1899"
    )
    ods = write_ods_xml(
        tmp_path / "dates.ods",
        {
            "Sheet1": ods_row(["Phone", "Date received"])
            + "<table:table-row>"
            + ods_cell_xml('office:value-type="string"', "3035557955")
            + date_cell
            + "</table:table-row>"
        },
    )
    csv = f.write_csv(tmp_path / "dates.csv", [["Phone", "Date received"], ["3035557955", "-5"]])
    iso = f.write_csv(
        tmp_path / "iso.csv", [["Phone", "Date received"], ["3035557955", "1899-12-25"]]
    )
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Date received"])
    ws.append(["3035557955", -5])
    ws["B2"].number_format = "mm/dd/yyyy"
    wb.save(tmp_path / "dates.xlsx")
    for path in (ods, csv, iso, tmp_path / "dates.xlsx"):
        checked, summary = check_file(path)
        row = checked[2]
        assert row.outcome is Outcome.VALID, path.name
        assert (row.request_date, row.business_days, row.late) == (None, None, False), path.name
        assert row.date_note, path.name
        assert (summary.late_requests, summary.unread_dates.first) == (0, [2]), path.name
    assert check_file(ods)[0][2].date_note == (
        "1899-12-25 is before 1900, so it is not a plausible request date"
    )
