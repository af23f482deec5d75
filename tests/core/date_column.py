"""A request-date column checked as staging checks it: once, and again in the column's order
when :func:`~app.core.staging_notes.column_order` finds one (shared by the date tests)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, check_rows
from app.core.sheet_dates import DayFirst
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import column_order

# Column A a phone number, column B its request date, under a header row.
MAPPING = ColumnMapping(phone=0, request_date=1, header_row=1)


@dataclass(frozen=True)
class DateColumn:
    rows: list[CheckedRow]
    summary: CheckSummary
    order: DayFirst


def check_dates(
    dates: list[str], checked_on: dt.date, mapping: ColumnMapping = MAPPING
) -> DateColumn:
    """Rows of a US phone number each and ``dates``, checked on ``checked_on``."""
    rows = [(1, ["Phone", "Request Date"])]
    rows += [(n + 2, [f"303-555-{1301 + n}", d]) for n, d in enumerate(dates)]

    def check(day_first: DayFirst) -> tuple[list[CheckedRow], CheckSummary]:
        summary = CheckSummary()
        options = CheckOptions(insertion_date=checked_on, day_first=day_first)
        return list(check_rows(rows, mapping, options, summary)), summary

    checked, summary = check(None)
    order = column_order(summary)
    if order is not None:
        checked, summary = check(order)
    return DateColumn(checked, summary, order)
