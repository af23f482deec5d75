"""Each form's order, when a column's slashed and dotted dates are written differently
(black-box B18 F1): a :class:`FormOrders` reads each form in its own order."""

from __future__ import annotations

import datetime as dt

from app.core.sheet_check import CheckOptions, CheckSummary, check_rows
from app.core.sheet_dates import (
    DAY_FIRST_ONLY,
    DOTTED_DAY_FIRST_ONLY,
    DOTTED_MONTH_FIRST_ONLY,
    EITHER,
    FormOrders,
    parse_request_date,
)
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import column_order

CHECKED = dt.date(2026, 11, 24)
MAPPING = ColumnMapping(phone=0, request_date=1, header_row=1)


def _check(
    dates: list[str], day_first: bool | FormOrders | None
) -> tuple[list[dt.date | None], CheckSummary]:
    rows = [(1, ["Phone", "Request Date"])]
    rows += [(n + 2, [f"303-555-{1301 + n}", d]) for n, d in enumerate(dates)]
    summary = CheckSummary()
    options = CheckOptions(insertion_date=CHECKED, day_first=day_first)
    return [r.request_date for r in check_rows(rows, MAPPING, options, summary)], summary


def test_a_dotted_dates_evidence_is_counted_apart() -> None:
    _, summary = _check(["23.11.2026", "25/10/2026", "11/10/2026", "11.23.2026"], None)
    assert summary.date_orders == {
        DOTTED_DAY_FIRST_ONLY: (1, 2, "23.11.2026"),
        DAY_FIRST_ONLY: (1, 3, "25/10/2026"),
        EITHER: (1, 4, "11/10/2026"),
        DOTTED_MONTH_FIRST_ONLY: (1, 5, "11.23.2026"),
    }
    # The value itself says what it always said, and that it is dotted.
    read = parse_request_date("23.11.2026")
    assert (read.order, read.dotted) == (DAY_FIRST_ONLY, True)
    assert parse_request_date("Mon 23.11.2026").dotted
    assert not parse_request_date("25/10/2026").dotted


def test_each_form_is_read_in_its_own_order() -> None:
    dates = ["25/10/2026", "11/10/2026", "11.05.2026", "11.23.2026"]
    _, summary = _check(dates, None)
    order = column_order(summary)
    assert order == FormOrders(slashed=True, dotted=False)
    read, _ = _check(dates, order)
    assert read == [
        dt.date(2026, 10, 25),
        dt.date(2026, 10, 11),  # day/month, as 25/10/2026
        dt.date(2026, 11, 5),  # month.day, as 11.23.2026
        dt.date(2026, 11, 23),
    ]


def test_one_order_is_given_when_it_reads_both_forms_as_their_own() -> None:
    # The dotted date of unknown order is day.month either way.
    _, summary = _check(["25/10/2026", "11/10/2026", "11.05.2026"], None)
    assert column_order(summary) is True
    # Not so here: True would read the slashed one day/month, which nothing says it is.
    _, summary = _check(["23.11.2026", "11.12.26", "11/10/2026"], None)
    assert column_order(summary) == FormOrders(slashed=None, dotted=True)
    read, _ = _check(["23.11.2026", "11.12.26", "11/10/2026"], column_order(summary))
    assert read[2] == dt.date(2026, 11, 10)


def test_a_form_order_reads_only_its_form() -> None:
    order = FormOrders(slashed=None, dotted=False)
    assert parse_request_date("11.05.2026", day_first=order).date == dt.date(2026, 11, 5)
    assert parse_request_date("11/05/2026", day_first=order).date == dt.date(2026, 11, 5)
    order = FormOrders(slashed=True, dotted=None)
    assert parse_request_date("11.05.2026", day_first=order).date == dt.date(2026, 5, 11)
    assert parse_request_date("11/05/2026", day_first=order).date == dt.date(2026, 5, 11)
