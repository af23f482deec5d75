"""A two-digit year whose date is a little after the day checked is that date, after the
insertion date, not a request a century old (black-box B28 F3: ``11/25/26 01:00`` checked on
Nov 25, 2026 in Los Angeles, still Nov 24 there, was read Nov 25, 1926, 25,233 business days
late and counted among the late requests, while ``11/25/2026 01:00`` beside it was after the
insertion date, no days counted)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_dates import DAY_FIRST_ONLY, EITHER, EITHER_TURNED, parse_request_date
from app.core.sheet_mapping import ColumnMapping

CHECKED = dt.date(2026, 11, 24)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("11/25/26 01:00", dt.date(2026, 11, 25)),
        ("11/30/26", dt.date(2026, 11, 30)),
        ("13/12/26", dt.date(2026, 12, 13)),
        ("25-Nov-26", dt.date(2026, 11, 25)),
        ("25.12.26", dt.date(2026, 12, 25)),
        ("10/31/27", dt.date(2027, 10, 31)),  # within a year
    ],
)
def test_a_near_future_two_digit_year_is_that_date(text: str, expected: dt.date) -> None:
    parsed = parse_request_date(text, CHECKED)
    assert parsed.date == expected
    assert "1926" not in parsed.note and "1927" not in parsed.note


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12/31/28", dt.date(1928, 12, 31)),  # two years ahead: a century back, as before
        ("01/02/99", dt.date(1999, 1, 2)),
        ("11/20/26", dt.date(2026, 11, 20)),
    ],
)
def test_other_two_digit_years_are_read_as_before(text: str, expected: dt.date) -> None:
    assert parse_request_date(text, CHECKED).date == expected


def test_an_ambiguous_one_is_still_read_the_way_that_is_not_after_the_day() -> None:
    turned = parse_request_date("12/11/26", CHECKED)
    assert (turned.date, turned.order) == (dt.date(2026, 11, 12), EITHER_TURNED)
    # In a column read month/day it is Dec 11, 2026, after the day, not Dec 11, 1926.
    month_day = parse_request_date("12/11/26", CHECKED, day_first=False)
    assert (month_day.date, month_day.order) == (dt.date(2026, 12, 11), EITHER)
    assert month_day.note == (
        "'12/11/26' is ambiguous: read as Dec 11, 2026 (month/day); it could be Nov 12, 2026"
    )


def test_the_other_reading_is_in_the_year_read() -> None:
    # Jan 11, 2027, as the date read is in 2027: not Jan 11, 1927.
    parsed = parse_request_date("11/01/27", CHECKED)
    assert parsed.date == dt.date(2027, 11, 1)
    assert "it could be Jan 11, 2027, though that is after Nov 24, 2026" in parsed.note
    assert parse_request_date("13/01/27", CHECKED).order == DAY_FIRST_ONLY


def test_the_check_counts_no_late_request_for_a_near_future_two_digit_year() -> None:
    rows = [
        (1, ["Phone", "Date received"]),
        (2, ["3036199200", "11/25/26 01:00"]),
        (3, ["3036199201", "11/25/2026 01:00"]),
        (4, ["3036199202", "11/30/26"]),
    ]
    mapping = ColumnMapping(header_row=1, phone=0, request_date=1, default_phone_code="1")
    checked, summary = check_all(rows, mapping, CheckOptions(insertion_date=CHECKED))
    assert [r.request_date for r in checked] == [
        dt.date(2026, 11, 25),
        dt.date(2026, 11, 25),
        dt.date(2026, 11, 30),
    ]
    assert [r.business_days for r in checked] == [None, None, None]
    assert not any(r.late for r in checked)
    assert summary.late_requests == 0
    for row in checked:
        assert row.date_note.endswith("the request date is after the insertion date")
