"""A spreadsheet's day number written with a decimal comma, and the date system a plain number
is read in (black-box B28 F5, F6)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_dates import parse_request_date
from app.core.sheet_mapping import ColumnMapping

CHECKED = dt.date(2026, 11, 25)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("46335,75", dt.date(2026, 11, 9)),
        ("46335,99999", dt.date(2026, 11, 9)),
        ("46336,0", dt.date(2026, 11, 10)),
    ],
)
def test_a_day_number_with_a_decimal_comma_is_read_as_with_a_point(
    text: str, expected: dt.date
) -> None:
    # F6: "46335,75" in a European CSV was "not a date" while "46335.99999" was read.
    parsed = parse_request_date(text, CHECKED)
    pointed = parse_request_date(text.replace(",", "."), CHECKED)
    assert parsed.date == pointed.date == expected
    assert parsed.note.startswith(f"the number {text} is read as a spreadsheet's day number")


@pytest.mark.parametrize(
    "text",
    [
        "46,335",  # a thousands separator, not a decimal comma
        "46.335,75",  # thousands and decimals both
        "4633,75",  # too small to be a day number
        "96335,75",  # too large
        "46335,",  # no digits after the comma
        "46335,75,1",
    ],
)
def test_other_numbers_with_a_comma_are_still_no_date(text: str) -> None:
    assert parse_request_date(text, CHECKED).date is None


def test_a_plain_number_s_note_names_the_1900_system_and_the_1904_reading() -> None:
    # F5: in a 1904-system workbook a plain 46336 is Nov 11, 2030 there; a number cell does not
    # say its workbook's system, so the note says which was used and what the other gives.
    parsed = parse_request_date(46336, CHECKED)
    assert parsed.date == dt.date(2026, 11, 10)
    assert parsed.note == (
        "the number 46336 is read as a spreadsheet's day number, 2026-11-10 (the 1900 date "
        "system; in a workbook set to the 1904 date system it is 2030-11-11)"
    )


def test_a_european_csv_s_decimal_comma_day_number_is_measured() -> None:
    rows = [
        (1, ["Telefon", "Datum"]),
        (2, ["3036199500", "46335,75"]),
        (3, ["3036199501", "46335.75"]),
    ]
    mapping = ColumnMapping(header_row=1, phone=0, request_date=1, default_phone_code="1")
    checked, _ = check_all(rows, mapping, CheckOptions(insertion_date=CHECKED))
    assert [r.request_date for r in checked] == [dt.date(2026, 11, 9)] * 2
    assert checked[0].business_days == checked[1].business_days == 11
    assert checked[0].late and checked[1].late
