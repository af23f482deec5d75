"""Re-test S24 U4 of the day's request-date fixes: F2, a weekday was not weighed between a
dashed date's year-month-day reading and its others ("Tue 26-11-10" read Nov 26, 2010, a
Friday, 4,007 business days late; "Fri 26-11-10" beside 2026-11-10 read Nov 10, a Tuesday, in
time); F3, "26-10-26" was said to have a year-month-day reading, the same date; F7, a weekday
chose a reading after the day checked ("Fri 12/11/2026": Dec 11, not Nov 12)."""

from __future__ import annotations

import datetime as dt

from app.core.sheet_check import CheckedRow, CheckSummary
from app.core.sheet_dates import DAY_FIRST_ONLY, EITHER, parse_request_date
from tests.core.date_column import check_dates

CHECKED = dt.date(2026, 11, 24)


def _checked(cells: list[str]) -> tuple[list[CheckedRow], CheckSummary]:
    column = check_dates(cells, CHECKED)
    return column.rows, column.summary


def test_a_weekday_fitting_the_year_month_day_reading_only_decides_it() -> None:
    found = parse_request_date("Tue 26-11-10", CHECKED)
    assert found.date == dt.date(2026, 11, 10)
    assert found.note == (
        "'Tue 26-11-10' read as year-month-day: Nov 10, 2026, the Tuesday it names (day/month "
        "it would be Nov 26, 2010, a Friday)"
    )
    checked, summary = _checked(["Tue 26-11-10", "20-11-26"])
    assert [r.late for r in checked] == [False, False]
    assert not summary.year_first_rows.count


def test_a_weekday_fitting_the_day_first_reading_only_beats_the_columns_order() -> None:
    checked, summary = _checked(["2026-11-10", "Fri 26-11-10", "26-11-12"])
    assert [r.request_date for r in checked] == [
        dt.date(2026, 11, 10),
        dt.date(2010, 11, 26),  # was Nov 10, 2026, a Tuesday, in time
        dt.date(2026, 11, 12),  # year-month-day, as the column's ISO date
    ]
    assert [r.late for r in checked] == [False, True, False]
    assert checked[1].date_note == (
        "'Fri 26-11-10' read as day/month: Nov 26, 2010, the Friday it names (year-month-day "
        "it would be Nov 10, 2026, a Tuesday)"
    )
    assert summary.year_first_rows.first == [4]


def test_a_year_month_day_reading_that_is_the_same_date_is_not_named() -> None:
    found = parse_request_date("26-10-26", CHECKED)
    assert (found.date, found.order) == (dt.date(2026, 10, 26), DAY_FIRST_ONLY)
    assert found.note == "'26-10-26' read as day/month: Oct 26, 2026"
    _, summary = _checked(["26-10-26", "24-11-26", "20-11-26"])
    assert not summary.year_first_rows.count


def test_a_weekday_does_not_choose_a_reading_after_the_day_checked() -> None:
    # Dec 11, 2026 is a Friday, after Nov 24; Nov 12, 2026 a Thursday.
    found = parse_request_date("Fri 12/11/2026", CHECKED)
    assert (found.date, found.order) == (dt.date(2026, 12, 11), EITHER)
    assert found.note.startswith("'Fri 12/11/2026' is ambiguous: read as Dec 11, 2026")
