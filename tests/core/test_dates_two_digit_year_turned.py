"""An ambiguous date with a two-digit year, in a column whose order is not known, whose usual
reading is after the day checked while the other is not, is read the other way (regression
check V4: on Nov 24, 2026 ``12/11/26`` was Dec 11, 2026 month/day, so a century back, Dec 11,
1926, 25,222 business days late and counted among the late requests, while day/month it is
Nov 12, 2026). Dotted dates so too (``11.12.26``). A column whose order is known keeps it."""

from __future__ import annotations

import datetime as dt

import pytest

from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_dates import (
    DAY_FIRST_ONLY,
    EITHER,
    EITHER_DOTTED,
    EITHER_DOTTED_TURNED,
    EITHER_TURNED,
    MONTH_FIRST_ONLY,
    YEAR_FIRST,
    parse_request_date,
)
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import column_order

CHECKED = dt.date(2026, 11, 24)


@pytest.mark.parametrize(
    ("text", "expected", "note", "order"),
    [
        (
            "12/11/26",
            dt.date(2026, 11, 12),
            "'12/11/26' is ambiguous: read as Nov 12, 2026 (day/month), since month/day would "
            "be Dec 11, 2026, after Nov 24, 2026",
            EITHER_TURNED,
        ),
        (
            "12-11-26",
            dt.date(2026, 11, 12),
            "'12-11-26' is ambiguous: read as Nov 12, 2026 (day/month), since month/day would "
            "be Dec 11, 2026, after Nov 24, 2026",
            EITHER_TURNED,
        ),
        (
            "12/01/26",
            dt.date(2026, 1, 12),
            "'12/01/26' is ambiguous: read as Jan 12, 2026 (day/month), since month/day would "
            "be Dec 01, 2026, after Nov 24, 2026",
            EITHER_TURNED,
        ),
        (
            "11.12.26",
            dt.date(2026, 11, 12),
            "'11.12.26' is ambiguous: read as Nov 12, 2026 (month.day), since day.month would "
            "be Dec 11, 2026, after Nov 24, 2026",
            EITHER_DOTTED_TURNED,
        ),
    ],
)
def test_the_reading_after_the_day_checked_gives_way_to_the_other(
    text: str, expected: dt.date, note: str, order: str
) -> None:
    parsed = parse_request_date(text, CHECKED)
    assert (parsed.date, parsed.note, parsed.order) == (expected, note, order)


def test_a_time_after_the_date_keeps_the_reading() -> None:
    parsed = parse_request_date("12/11/26 10:30", CHECKED)
    assert parsed.date == dt.date(2026, 11, 12)
    assert parsed.note.startswith("'12/11/26 10:30' is ambiguous: read as Nov 12, 2026 (day/")
    assert parsed.order == EITHER_TURNED


def test_four_digit_years_are_read_as_ever() -> None:
    # No century to go back: month/day, after the day checked (the check says so).
    slashed = parse_request_date("12/11/2026", CHECKED)
    assert (slashed.date, slashed.order) == (dt.date(2026, 12, 11), EITHER)
    assert "(month/day); it could be Nov 12, 2026" in slashed.note
    dotted = parse_request_date("11.12.2026", CHECKED)
    assert (dotted.date, dotted.order) == (dt.date(2026, 12, 11), EITHER_DOTTED)


@pytest.mark.parametrize(
    ("text", "checked", "expected", "order"),
    [
        # Both readings before the day checked: the usual order.
        ("11/10/26", CHECKED, dt.date(2026, 11, 10), EITHER),
        ("10.11.26", CHECKED, dt.date(2026, 11, 10), EITHER_DOTTED),
        ("12/11/25", CHECKED, dt.date(2025, 12, 11), EITHER),
        ("11.12.25", CHECKED, dt.date(2025, 12, 11), EITHER_DOTTED),
        # The usual reading is not after the day, the other is: the usual one, as before.
        ("11/12/26", CHECKED, dt.date(2026, 11, 12), EITHER),
        ("12.11.26", CHECKED, dt.date(2026, 11, 12), EITHER_DOTTED),
        # Both after the day checked, near (Dec 11 and Nov 12, 2026 on Nov 1): both are read
        # in 2026 (once both went a century back), so the usual order, as before.
        ("12/11/26", dt.date(2026, 11, 1), dt.date(2026, 12, 11), EITHER),
        ("11.12.26", dt.date(2026, 11, 1), dt.date(2026, 12, 11), EITHER_DOTTED),
        # One a week ahead, the other eleven months: both within a year, both in 2027.
        ("01/12/27", dt.date(2027, 1, 5), dt.date(2027, 1, 12), EITHER),
        # Both years ahead: far, both go back, as before.
        ("12/11/28", CHECKED, dt.date(1928, 12, 11), EITHER),
        ("11.12.28", CHECKED, dt.date(1928, 12, 11), EITHER_DOTTED),
    ],
)
def test_otherwise_the_usual_order(
    text: str, checked: dt.date, expected: dt.date, order: str
) -> None:
    parsed = parse_request_date(text, checked)
    assert (parsed.date, parsed.order) == (expected, order)
    assert "ambiguous" in parsed.note and "since month/day would be" not in parsed.note


def test_across_new_year() -> None:
    # On Jan 5, 2027 month/day Mar 1, 2027 is ahead; day/month Jan 3, 2027 is not.
    parsed = parse_request_date("03/01/27", dt.date(2027, 1, 5))
    assert (parsed.date, parsed.order) == (dt.date(2027, 1, 3), EITHER_TURNED)
    assert parsed.note == (
        "'03/01/27' is ambiguous: read as Jan 03, 2027 (day/month), since month/day would be "
        "Mar 01, 2027, after Jan 05, 2027"
    )
    assert parse_request_date("01/03/27", dt.date(2027, 1, 5)).date == dt.date(2027, 1, 3)


def test_a_column_of_known_order_keeps_it() -> None:
    # Read its column's way, after the day checked: that date, as with a four-digit year (once
    # Dec 11, 1926, a request some 25,000 business days late: black-box B28 F3).
    month_day = parse_request_date("12/11/26", CHECKED, day_first=False)
    assert (month_day.date, month_day.order) == (dt.date(2026, 12, 11), EITHER)
    assert "1926" not in month_day.note
    day_month = parse_request_date("11/12/26", CHECKED, day_first=True)
    assert (day_month.date, day_month.order) == (dt.date(2026, 12, 11), EITHER)
    dotted = parse_request_date("11.12.26", CHECKED, day_first=True)
    assert (dotted.date, dotted.order) == (dt.date(2026, 12, 11), EITHER_DOTTED)
    assert "1926" not in dotted.note
    # Over a year ahead its column's way: a century back, not turned either.
    far = parse_request_date("12/01/28", CHECKED, day_first=False)
    assert (far.date, far.order) == (dt.date(1928, 12, 1), EITHER)
    # Known to be day/month, a slashed 12/11/26 is Nov 12, 2026 as the column says.
    known = parse_request_date("12/11/26", CHECKED, day_first=True)
    assert known.date == dt.date(2026, 11, 12)
    assert "(day/month, as the column's dates that read only one way are)" in known.note


@pytest.mark.parametrize("text", ["11-Dec-26", "11 Dec 26", "Dec 11, 2026"])
def test_named_months_are_untouched(text: str) -> None:
    parsed = parse_request_date(text, CHECKED)
    assert parsed.date in (dt.date(1926, 12, 11), dt.date(2026, 12, 11))
    assert parsed.date.month == 12 and parsed.order == ""
    assert "ambiguous" not in parsed.note


def _check(dates: list[str]) -> tuple[list[dt.date | None], int, dict[str, int]]:
    rows = [(1, ["Phone", "Opt-out date"])]
    rows += [(n + 2, [f"30327010{n:02d}", d]) for n, d in enumerate(dates)]
    mapping = ColumnMapping(header_row=1, phone=0, request_date=1)
    checked, summary = check_all(rows, mapping, CheckOptions(insertion_date=CHECKED))
    orders = {k: v[0] for k, v in summary.date_orders.items()}
    assert summary.ambiguous_dates == sum(1 for r in checked if "ambiguous" in r.date_note)
    return [r.request_date for r in checked], summary.late_requests, orders


def test_the_check_counts_no_century_old_late_request() -> None:
    dates, late, orders = _check(["12/11/26", "11.12.26", "2026-11-20"])
    assert dates == [dt.date(2026, 11, 12), dt.date(2026, 11, 12), dt.date(2026, 11, 20)]
    assert late == 0
    # An ISO date says its column's dashed dates may be written year first (re-test S24 U2 F7).
    assert orders == {EITHER_TURNED: 1, EITHER_DOTTED_TURNED: 1, YEAR_FIRST: 1}


def test_a_turned_date_does_not_make_its_column_day_month() -> None:
    _, _, orders = _check(["12/11/26", "11/10/26"])
    assert DAY_FIRST_ONLY not in orders and orders == {EITHER_TURNED: 1, EITHER: 1}
    rows = [(1, ["Phone", "Opt-out date"]), (2, ["3032701000", "12/11/26"])]
    mapping = ColumnMapping(header_row=1, phone=0, request_date=1)
    _, summary = check_all(rows, mapping, CheckOptions(insertion_date=CHECKED))
    assert column_order(summary) is None  # nothing says the column is day/month
    # A column of day/month dates: its ambiguous slashed ones read month/day are read again.
    _, _, orders = _check(["12/11/26", "25/10/26", "11/10/26"])
    assert orders == {EITHER_TURNED: 1, DAY_FIRST_ONLY: 1, EITHER: 1}
    _, _, orders = _check(["12/11/26", "10/25/26"])
    assert orders == {EITHER_TURNED: 1, MONTH_FIRST_ONLY: 1}
