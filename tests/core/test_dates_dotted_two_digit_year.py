"""A dotted date with a two-digit year (``5.11.26``, as German and Swiss exports write it) is
read as the dotted form is, day.month, with the two-digit-year rule the slashed form has
(black-box N3 #4: refused as "'5.11.26' is not a date" while ``5/11/26`` was read)."""

from __future__ import annotations

import datetime as dt

from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_dates import DAY_FIRST_ONLY, EITHER_DOTTED, parse_request_date
from app.core.sheet_mapping import ColumnMapping

# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"

CHECKED_ON = dt.date(2026, 11, 23)


def test_a_two_digit_year_dotted_date_is_read_day_month() -> None:
    for text in ("5.11.26", "05.11.26"):
        read = parse_request_date(text, CHECKED_ON)
        assert read.date == dt.date(2026, 11, 5), text
        assert read.order == EITHER_DOTTED
        assert read.note == (
            f"{text!r} is ambiguous: read as Nov 05, 2026 (day.month, as dotted dates are "
            "usually written); it could be May 11, 2026"
        )
    # The slashed form with the column's order day/month reads the same day.
    assert parse_request_date("5/11/26", CHECKED_ON, day_first=True).date == dt.date(2026, 11, 5)
    only = parse_request_date("13.11.26", CHECKED_ON)
    assert (only.date, only.note, only.order) == (dt.date(2026, 11, 13), "", DAY_FIRST_ONLY)
    # A month/day column reads it month.day, as it does a four-digit year's.
    us = parse_request_date("5.11.26", CHECKED_ON, day_first=False)
    assert us.date == dt.date(2026, 5, 11) and "(month.day, as the column's" in us.note


def test_its_century_is_the_slashed_forms() -> None:
    # A month after the day checked: that date, as a slashed one is (not Dec 25, 1926).
    near = parse_request_date("25.12.26", CHECKED_ON)
    assert (near.date, near.note) == (dt.date(2026, 12, 25), "")
    assert parse_request_date("12/25/26", CHECKED_ON).date == near.date
    # Over a year after it: a century back, as a slashed one is.
    back = parse_request_date("25.12.28", CHECKED_ON)
    assert (back.date, back.note) == (dt.date(1928, 12, 25), "")
    assert parse_request_date("12/25/28", CHECKED_ON).date == back.date
    assert parse_request_date("31.12.99", CHECKED_ON).date == dt.date(1999, 12, 31)
    assert parse_request_date("31.12.99", CHECKED_ON).note == ""
    assert (
        parse_request_date("31.02.26", CHECKED_ON).note
        == f"'31.02.26' is not a date{READ_AS_DATES}"
    )


def test_the_check_counts_its_business_days() -> None:
    rows = [(1, ["Telefon", "Eingangsdatum"]), (2, ["7205550314", "5.11.26"])]
    mapping = ColumnMapping(phone=0, request_date=1, header_row=1)
    checked, _ = check_all(rows, mapping, CheckOptions(insertion_date=CHECKED_ON))
    assert (checked[0].request_date, checked[0].business_days, checked[0].late) == (
        dt.date(2026, 11, 5),
        11,
        True,
    )
    assert checked[0].date_issue == ""
