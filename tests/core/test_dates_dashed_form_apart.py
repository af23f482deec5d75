"""Dashed request dates (23-11-2026, 11-10-2026) are a form of their own (re-test S22 U1 F1): a
dashed date that reads one way only decides the order of the column's other dashed dates only,
and a slashed one's decides nothing of them. Parsed by the slashed pattern, they were weighed
with the slashed dates: beside 23-11-2026, 10/11/2026 was Nov 10 (in time) where alone it is
Oct 11 (late by 30 business days on Nov 24, 2026), and no warning said the column mixed forms.
Read through the check and :func:`column_order`, as staging reads a column."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, check_rows
from app.core.sheet_dates import (
    DASHED_DAY_FIRST_ONLY,
    DAY_FIRST_ONLY,
    EITHER,
    EITHER_DASHED,
    DateForm,
    FormOrders,
    parse_request_date,
)
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import column_order, date_order_sentence

CHECKED = dt.date(2026, 11, 24)
MAPPING = ColumnMapping(phone=0, request_date=1, header_row=1)
OCT_11, NOV_10, NOV_23 = dt.date(2026, 10, 11), dt.date(2026, 11, 10), dt.date(2026, 11, 23)


def _checked(dates: list[str]) -> tuple[list[dt.date | None], list[bool], str, Any]:
    """Request dates, lateness, the date-order warning and the column's order, read as staging
    reads them: again in the column's order when :func:`column_order` gives one."""
    rows = [(1, ["Phone", "Request Date"])]
    rows += [(n + 2, [f"303-555-{1301 + n}", d]) for n, d in enumerate(dates)]

    def check(day_first: Any) -> tuple[list[CheckedRow], CheckSummary]:
        summary = CheckSummary()
        options = CheckOptions(insertion_date=CHECKED, day_first=day_first)
        return list(check_rows(rows, MAPPING, options, summary)), summary

    checked, summary = check(None)
    order = column_order(summary)
    if order is not None:
        checked, summary = check(order)
    sentence = date_order_sentence(MAPPING, summary, order)
    return [r.request_date for r in checked], [r.late for r in checked], sentence, order


def test_a_dashed_date_does_not_decide_how_a_slashed_one_is_read() -> None:
    dates, late, sentence, _ = _checked(["23-11-2026", "10/11/2026"])
    assert dates == [NOV_23, OCT_11]  # was Nov 10
    assert late == [False, True]  # 30 business days: was 9, in time
    assert "written day/month" not in sentence
    assert "holds both slashed and dashed dates, read apart" in sentence
    assert (
        "1 slashed one was read month/day, as slashed dates are usually written (row 3: "
        "'10/11/2026'), no slashed date there reading one way only to tell which"
    ) in sentence


def test_a_slashed_date_does_not_decide_how_a_dashed_one_is_read() -> None:
    dates, late, sentence, _ = _checked(["23/11/2026", "11-10-2026"])
    assert dates == [NOV_23, NOV_10]  # was Oct 11, and late
    assert late == [False, False]
    assert (
        "1 dashed one was read month/day, as dashed dates are usually written (row 3: "
        "'11-10-2026'), no dashed date there reading one way only to tell which"
    ) in sentence
    # Alone it reads so too.
    assert _checked(["11-10-2026"])[0] == [NOV_10]


def test_dashed_dates_are_read_by_their_own_evidence() -> None:
    dates, late, sentence, order = _checked(["23-11-2026", "11-10-2026", "10/11/2026"])
    assert order == FormOrders(slashed=None, dotted=None, dashed=True)
    assert dates == [NOV_23, OCT_11, OCT_11]
    assert late == [False, True, True]
    assert (
        "1 slashed one was read month/day, as slashed dates are usually written (row 4: "
        "'10/11/2026'), no slashed date there reading one way only to tell which; 1 dashed one "
        "was read day/month, as the column's dashed dates that read one way only are (row 2: "
        "'23-11-2026')"
    ) in sentence
    assert "'11-10-2026' is ambiguous: read as Oct 11, 2026 (day/month, as the column's" in (
        parse_request_date("11-10-2026", CHECKED, day_first=order).note
    )


def test_three_forms_are_each_read_by_their_own_evidence() -> None:
    column = ["23-11-2026", "11-10-2026", "11/23/2026", "10/11/2026", "11.10.2026", "11.23.2026"]
    dates, _, sentence, order = _checked(column)
    assert order == FormOrders(slashed=False, dotted=False, dashed=True)
    assert dates == [NOV_23, OCT_11, NOV_23, OCT_11, NOV_10, NOV_23]
    assert (
        "The column holds slashed, dotted and dashed dates, read apart, as the order of one form "
        "says nothing of another's: 1 slashed one was read month/day, as the column's slashed "
        "dates that read one way only are (row 4: '11/23/2026'); 1 dotted one was read "
        "month.day, as the column's dotted dates that read one way only are (row 7: "
        "'11.23.2026'); 1 dashed one was read day/month, as the column's dashed dates that read "
        "one way only are (row 2: '23-11-2026')."
    ) in sentence


def test_a_dashed_date_with_a_two_digit_year_is_not_sent_a_century_back() -> None:
    # 12-11-26 reads month/day as Dec 11, 2026, after the day checked, so day/month (Nov 12):
    # a slashed month/day date beside it made it Dec 11, 1926, 25,222 business days late.
    dates, late, sentence, order = _checked(["11/23/2026", "12-11-26"])
    assert order is None
    assert dates == [NOV_23, dt.date(2026, 11, 12)]
    assert late == [False, False]
    assert (
        "1 dashed one was read day/month, as month/day would be after the insertion date "
        "(row 3: '12-11-26'), no dashed date there reading one way only to tell which"
    ) in sentence


@pytest.mark.parametrize(
    ("evidence", "ambiguous"),
    [
        ("23-11-26", "10/11/26"),
        ("23-11-2026 10:15", "10/11/2026 10:15"),
        # A weekday on the slashed date would decide it alone (test_dates_weekday_decides).
        ("Mon, 23-11-2026", "10/11/2026"),
        ("23-11-2026 10:15:32 AM", "10/11/2026 4:05 PM"),
    ],
)
def test_a_dashed_date_written_with_more_decides_no_slashed_one(
    evidence: str, ambiguous: str
) -> None:
    dates, late, sentence, _ = _checked([evidence, ambiguous])
    assert dates == [NOV_23, OCT_11]
    assert late == [False, True]
    assert "holds both slashed and dashed dates" in sentence


@pytest.mark.parametrize(
    ("evidence", "ambiguous"),
    [
        ("23-11-26", "11-10-26"),
        ("23-11-2026 10:15", "11-10-2026 10:15"),
        ("Mon, 23-11-2026", "Sun, 11-10-2026"),
    ],
)
def test_a_dashed_date_written_with_more_decides_a_dashed_one(
    evidence: str, ambiguous: str
) -> None:
    dates, late, _, _ = _checked([evidence, ambiguous, "11/9/2026"])
    assert dates == [NOV_23, OCT_11, dt.date(2026, 11, 9)]
    assert late == [False, True, False]


def test_a_column_of_dashed_dates_only_reads_and_is_worded_as_before() -> None:
    dates, _, sentence, order = _checked(["23-11-2026", "11-10-2026"])
    assert (dates, order) == ([NOV_23, OCT_11], True)
    assert sentence == (
        "The request dates in column B are written day/month (row 2: '23-11-2026'), so the 1 "
        "date that reads either way (row 3) was read day/month too."
    )
    dates, _, sentence, order = _checked(["11-10-2026"])
    assert (dates, order) == ([NOV_10], None)
    assert "it was read month/day, as US files write dates (row 2: '11-10-2026')" in sentence


def test_a_dashed_dates_evidence_is_counted_apart() -> None:
    summary = CheckSummary()
    rows = [(1, ["Phone", "Request Date"]), (2, ["303-555-1301", "23-11-2026"])]
    rows += [(3, ["303-555-1302", "11-10-2026"]), (4, ["303-555-1303", "25/10/2026"])]
    rows += [(5, ["303-555-1304", "10/11/2026"])]
    list(check_rows(rows, MAPPING, CheckOptions(insertion_date=CHECKED), summary))
    assert summary.date_orders == {
        DASHED_DAY_FIRST_ONLY: (1, 2, "23-11-2026"),
        EITHER_DASHED: (1, 3, "11-10-2026"),
        DAY_FIRST_ONLY: (1, 4, "25/10/2026"),
        EITHER: (1, 5, "10/11/2026"),
    }
    assert parse_request_date("Mon, 23-11-2026").form is DateForm.DASHED
    assert parse_request_date("23-11-26", CHECKED).form is DateForm.DASHED
    assert parse_request_date("25/10/2026").form is DateForm.SLASHED
    assert parse_request_date("2026-11-23").form is None  # ISO: never ambiguous


def test_a_form_order_reads_only_its_form() -> None:
    order = FormOrders(slashed=True, dotted=None, dashed=False)
    assert parse_request_date("11/05/2026", day_first=order).date == dt.date(2026, 5, 11)
    assert parse_request_date("11-05-2026", day_first=order).date == dt.date(2026, 11, 5)
    assert parse_request_date("11.05.2026", day_first=order).date == dt.date(2026, 5, 11)
    order = FormOrders(slashed=None, dotted=None, dashed=True)
    assert parse_request_date("11/05/2026", day_first=order).date == dt.date(2026, 11, 5)
    assert parse_request_date("11-05-2026", day_first=order).date == dt.date(2026, 5, 11)


def test_an_import_reads_a_slashed_date_beside_dashed_ones_alone(tmp_path: Path) -> None:
    path = tmp_path / "dates.csv"
    path.write_text("Phone,Request Date\n303-555-1301,23-11-2026\n303-555-1302,10/11/2026\n")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    rows = list(store.rows())
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    assert [r.request_date for r in rows] == ["2026-11-23", "2026-10-11"]
    assert "read as Oct 11, 2026 (month/day)" in rows[1].message
    said = [w for w in warnings if "two ways" in w]
    assert len(said) == 1, warnings
    assert "holds both slashed and dashed dates" in said[0]
