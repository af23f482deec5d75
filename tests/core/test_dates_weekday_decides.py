"""Re-test S24 U1 F5: "Tue 10/11/2026" was read Oct 11 (month/day, as nothing decided), a
Sunday, and flagged 30 business days late, its note saying Nov 10, the other reading, is the
Tuesday it names. A weekday that fits one reading only is evidence: the date is read that way,
as a date that reads one way only, and so decides its form's other ambiguous dates."""

from __future__ import annotations

import datetime as dt
from typing import Any

from app.core.sheet_check import CheckedRow, CheckSummary
from app.core.sheet_dates import DAY_FIRST_ONLY, MONTH_FIRST_ONLY, parse_request_date
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import date_order_sentence
from tests.core.date_column import check_dates

CHECKED = dt.date(2026, 11, 24)
MAPPING = ColumnMapping(phone=0, request_date=1, header_row=1)


def _checked(dates: list[str]) -> tuple[list[CheckedRow], CheckSummary, str]:
    """The rows, summary and date-order warning, read as staging reads them."""
    column = check_dates(dates, CHECKED, MAPPING)
    return column.rows, column.summary, date_order_sentence(MAPPING, column.summary, column.order)


def test_a_weekday_fitting_only_the_other_reading_decides_it() -> None:
    found = parse_request_date("Tue 10/11/2026", CHECKED)
    assert found.date == dt.date(2026, 11, 10)  # was Oct 11, a Sunday
    assert found.order == DAY_FIRST_ONLY
    assert found.other is None
    assert found.note == (
        "'Tue 10/11/2026' read as day/month: Nov 10, 2026, the Tuesday it names "
        "(month/day it would be Oct 11, 2026, a Sunday)"
    )
    assert "ambiguous" not in found.note


def test_a_weekday_fitting_the_usual_reading_only_makes_it_one_way() -> None:
    found = parse_request_date("Sun 10/11/2026", CHECKED)
    assert (found.date, found.order) == (dt.date(2026, 10, 11), MONTH_FIRST_ONLY)
    assert found.note == (
        "'Sun 10/11/2026' read as month/day: Oct 11, 2026, the Sunday it names "
        "(day/month it would be Nov 10, 2026, a Tuesday)"
    )
    dotted = parse_request_date("Sun 11.10.2026", CHECKED)
    assert dotted.date == dt.date(2026, 10, 11)
    assert dotted.note.startswith("'Sun 11.10.2026' read as day.month: Oct 11, 2026, the Sunday")
    dashed = parse_request_date("Tue 10-11-2026", CHECKED)
    assert (dashed.date, dashed.order) == (dt.date(2026, 11, 10), DAY_FIRST_ONLY)


def test_a_weekday_fitting_neither_or_both_readings_changes_nothing() -> None:
    # Oct 11, 2026 is a Sunday, Nov 10 a Tuesday: Friday is neither.
    found = parse_request_date("Fri 10/11/2026", CHECKED)
    assert found.date == dt.date(2026, 10, 11)
    assert "is ambiguous" in found.note
    assert found.note.endswith(
        "it names the wrong weekday: Oct 11, 2026 is a Sunday; read as that date"
    )
    # Nov 01, 2026 and Jan 11, 2026 are both Sundays.
    both = parse_request_date("Sun 11/01/2026", CHECKED)
    assert both.date == dt.date(2026, 11, 1)
    assert "is ambiguous" in both.note


def test_a_weekday_decided_date_decides_its_column(tmp_path: Any) -> None:
    checked, summary, sentence = _checked(["Tue 10/11/2026", "03/11/2026", "Mon 09/11/2026"])
    assert [r.request_date for r in checked] == [
        dt.date(2026, 11, 10),
        dt.date(2026, 11, 3),  # day/month, as the column's weekday says
        dt.date(2026, 11, 9),
    ]
    assert [r.late for r in checked] == [False, True, False]
    assert summary.ambiguous_dates == 1
    assert sentence == (
        "The request dates in column B are written day/month (row 2: 'Tue 10/11/2026'), so the "
        "1 date that reads either way (row 3) was read day/month too."
    )


def test_weekday_evidence_against_a_date_reading_one_way_is_a_column_written_both_ways() -> None:
    # As 23/11/2026 beside 10/25/2026: each reads its only way, and the date reading either
    # way keeps its form's usual order, the warning saying the column is written both ways.
    checked, _, sentence = _checked(["Tue 10/11/2026", "03/11/2026", "10/25/2026"])
    assert [r.request_date for r in checked] == [
        dt.date(2026, 11, 10),
        dt.date(2026, 3, 11),
        dt.date(2026, 10, 25),
    ]
    assert "written both day/month (row 2: 'Tue 10/11/2026') and month/day" in sentence


def test_a_two_digit_year_s_weekday_is_weighed_in_the_year_it_is_read_in() -> None:
    # Month/day is Dec 11, 2026, after the day checked, no request date; day/month, Nov 12,
    # 2026, is the Thursday named.
    found = parse_request_date("Thu 12/11/26", CHECKED)
    assert (found.date, found.order) == (dt.date(2026, 11, 12), DAY_FIRST_ONLY)
    # Dec 11, 1926 (a Saturday) is no reading of it any more (black-box B28 F3).
    found = parse_request_date("Sat 12/11/26", CHECKED)
    assert found.date == dt.date(2026, 11, 12) and "names the wrong weekday" in found.note
    # Over a year ahead both readings go a century back, and the weekday picks between them:
    # Dec 11, 1928 is a Tuesday, Nov 12, 1928 a Monday.
    found = parse_request_date("Tue 12/11/28", CHECKED)
    assert (found.date, found.order) == (dt.date(1928, 12, 11), MONTH_FIRST_ONLY)
    found = parse_request_date("Mon 12/11/28", CHECKED)
    assert (found.date, found.order) == (dt.date(1928, 11, 12), DAY_FIRST_ONLY)
