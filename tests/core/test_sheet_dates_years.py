"""Two-digit years: ``12/31/99`` is Dec 31, 1999 (not 2099): a two-digit year is read in the
century of the day it is checked when that date is at most a year after it (a date after the
insertion date, as the same date with a four-digit year is: black-box B28 F3), and a century
back when it is further ahead."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_dates import parse_request_date
from app.core.sheet_mapping import ColumnMapping

# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"

TODAY = dt.date(2026, 11, 22)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12/31/99", dt.date(1999, 12, 31)),
        ("12-31-99", dt.date(1999, 12, 31)),
        ("12/31/25", dt.date(2025, 12, 31)),
        ("1/13/26", dt.date(2026, 1, 13)),
        ("11/22/26", dt.date(2026, 11, 22)),  # the day itself
        ("01/01/00", dt.date(2000, 1, 1)),
        ("02/29/00", dt.date(2000, 2, 29)),
        ("12/31/27", dt.date(1927, 12, 31)),
        ("31-Dec-99", dt.date(1999, 12, 31)),
        ("5-Jan-68", dt.date(1968, 1, 5)),  # strptime's own pivot says 2068
        ("2-Nov-26", dt.date(2026, 11, 2)),
        ("22 Nov 26", dt.date(2026, 11, 22)),
    ],
)
def test_two_digit_years_are_never_after_the_day_checked(text: str, expected: dt.date) -> None:
    parsed = parse_request_date(text, TODAY)
    assert (parsed.date, parsed.note) == (expected, "")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("11/23/26", dt.date(2026, 11, 23)),  # the day after
        ("12/31/26", dt.date(2026, 12, 31)),
        ("13/12/26", dt.date(2026, 12, 13)),  # read day/month, as before
        ("23-Nov-26", dt.date(2026, 11, 23)),
        ("11/01/27", dt.date(2027, 11, 1)),
        ("11/23/27", dt.date(2027, 11, 23)),  # a year (366 days) after
    ],
)
def test_a_near_future_date_is_read_in_the_century_of_the_day(text: str, expected: dt.date) -> None:
    # Once read a century back (Nov 23, 1926), a request some 25,000 business days late.
    parsed = parse_request_date(text, TODAY)
    assert parsed.date == expected
    assert "two-digit year" not in parsed.note and "192" not in parsed.note


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("11/24/27", dt.date(1927, 11, 24)),  # a year and a day after
        ("12/31/28", dt.date(1928, 12, 31)),
        ("23-Nov-30", dt.date(1930, 11, 23)),
        ("23.11.30", dt.date(1930, 11, 23)),
    ],
)
def test_a_far_future_date_is_read_a_century_back_without_a_note(
    text: str, expected: dt.date
) -> None:
    parsed = parse_request_date(text, TODAY)
    assert (parsed.date, parsed.note) == (expected, "")


def test_ambiguity_notes_still_say_both_readings() -> None:
    parsed = parse_request_date("11/02/26", TODAY)
    assert parsed.date == dt.date(2026, 11, 2)
    assert parsed.note == (
        "'11/02/26' is ambiguous: read as Nov 02, 2026 (month/day); it could be Feb 11, 2026"
    )
    # Month first would be Dec 1, 2026, after the day checked: read day/month, Jan 12, 2026,
    # which is not (regression check V4), and said so.
    parsed = parse_request_date("12/01/26", TODAY)
    assert parsed.date == dt.date(2026, 1, 12)
    assert parsed.note == (
        "'12/01/26' is ambiguous: read as Jan 12, 2026 (day/month), since month/day would be "
        "Dec 01, 2026, after Nov 22, 2026"
    )


def test_around_a_century_boundary() -> None:
    day = dt.date(2100, 1, 5)
    assert parse_request_date("12/31/99", day).date == dt.date(2099, 12, 31)
    assert parse_request_date("01/05/00", day).date == dt.date(2100, 1, 5)
    assert parse_request_date("01/06/00", day).date == dt.date(2100, 1, 6)  # the day after
    assert parse_request_date("01/06/01", day).date == dt.date(2101, 1, 6)  # 366 days after
    assert parse_request_date("01/07/01", day).date == dt.date(2001, 1, 7)
    # Feb 29, 2100 is no date: the latest Feb 29 of a year ending 00 is in 2000.
    assert parse_request_date("02/29/00", dt.date(2100, 3, 1)).date == dt.date(2000, 2, 29)
    assert parse_request_date("02/29/25", TODAY).note == f"'02/29/25' is not a date{READ_AS_DATES}"


def test_four_digit_years_are_read_as_written() -> None:
    assert parse_request_date("12/31/2099", TODAY).date == dt.date(2099, 12, 31)
    assert parse_request_date("2099-12-31", TODAY).date == dt.date(2099, 12, 31)


def test_the_day_checked_is_today_by_default() -> None:
    today = dt.date.today()
    far = dt.date(today.year + 2, 1, 1)
    for day, expected in (
        (today, today),
        (today + dt.timedelta(days=1), today + dt.timedelta(days=1)),
        (dt.date(1999, 12, 31), dt.date(1999, 12, 31)),
        (far, far.replace(year=far.year - 100)),
    ):
        # A named month, as "%m/%d/%y" may read either way and be read the other way.
        assert parse_request_date(f"{day:%d-%b-%y}").date == expected


@settings(max_examples=300, deadline=None)
@given(
    checked=st.dates(dt.date(1950, 1, 1), dt.date(2150, 12, 31)),
    back=st.integers(min_value=0, max_value=36_000),
)
def test_a_date_of_the_last_century_is_read_back_as_written(checked: dt.date, back: int) -> None:
    written = checked - dt.timedelta(days=back)  # never after the day checked, under 100 years
    for text in (f"{written.month}/{written.day}/{written:%y}", f"{written:%d-%b-%y}"):
        parsed = parse_request_date(text, checked)
        assert parsed.date == written, text


def test_a_late_request_with_a_two_digit_year_is_late() -> None:
    rows = [(1, ["Phone", "Date received"]), (2, ["2025550123", "12/31/99"])]
    mapping = ColumnMapping(header_row=1, phone=0, request_date=1)
    checked, summary = check_all(rows, mapping, CheckOptions(insertion_date=TODAY))
    assert checked[0].request_date == dt.date(1999, 12, 31)
    assert checked[0].late and summary.late_requests == 1
    assert "after the insertion date" not in checked[0].message
