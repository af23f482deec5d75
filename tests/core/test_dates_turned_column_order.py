"""A request-date column whose ambiguous two-digit-year dates were read against their form's
usual order (as that reading was after the day checked, regression check V4) is read again the
way its one-way dates say, and its warning says truly how each date was read (fixer Y1: on
Nov 24, 2026 ``12/11/26`` beside ``10/25/26`` stayed Nov 12, day/month, while the warning said
the column's ambiguous dates were read month/day too; dotted ``11.12.26`` beside ``25.10.26``
so, said read day/month). In a column with no one-way date, the warning no longer says the
turned dates were read the usual way."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, check_all
from app.core.sheet_dates import EITHER, EITHER_DOTTED, EITHER_DOTTED_TURNED, EITHER_TURNED
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import column_order, date_order_sentence

CHECKED = dt.date(2026, 11, 24)
MAPPING = ColumnMapping(header_row=1, phone=0, request_date=1, headers=("Phone", "Opt-out date"))


def _check(dates: list[str], day_first: bool | None) -> tuple[list[CheckedRow], CheckSummary]:
    rows = [(1, ["Phone", "Opt-out date"])]
    rows += [(n + 2, [f"30327010{n:02d}", d]) for n, d in enumerate(dates)]
    options = CheckOptions(insertion_date=CHECKED, day_first=day_first)
    return check_all(rows, MAPPING, options)


def _staged(dates: list[str]) -> tuple[list[CheckedRow], CheckSummary, str]:
    """As staging does: checked, checked again in the column's order if it has one to read
    again in, and the warning on the order."""
    checked, summary = _check(dates, None)
    order = column_order(summary)
    if order is not None:
        checked, summary = _check(dates, order)
    return checked, summary, date_order_sentence(MAPPING, summary, order)


def test_a_month_day_column_reads_its_turned_slashed_date_month_day() -> None:
    _, first = _check(["12/11/26", "10/25/26"], None)
    assert column_order(first) is False  # was None: nothing read again
    checked, summary, sentence = _staged(["12/11/26", "10/25/26"])
    # As a column known to be month/day reads it: Dec 11, 2026, after the insertion date, as
    # 12/11/2026 would be (once a century back, Dec 11, 1926: black-box B28 F3).
    assert checked[0].request_date == dt.date(2026, 12, 11)
    assert (checked[0].business_days, checked[0].late) == (None, False)
    assert checked[0].date_note == (
        "'12/11/26' is ambiguous: read as Dec 11, 2026 (month/day); it could be Nov 12, 2026; "
        "the request date is after the insertion date"
    )
    assert EITHER_TURNED not in summary.date_orders and EITHER in summary.date_orders
    assert sentence == (
        "The request dates in column B ('Opt-out date') are written month/day (row 3: "
        "'10/25/26'), so the 1 date that reads either way (row 2) was read month/day too."
    )


def test_a_day_month_column_reads_its_turned_dotted_date_day_month() -> None:
    _, first = _check(["11.12.26", "25.10.26"], None)
    assert column_order(first) is True
    checked, summary, sentence = _staged(["11.12.26", "25.10.26"])
    assert checked[0].request_date == dt.date(2026, 12, 11)
    assert "(day.month, as dotted dates are usually written)" in checked[0].date_note
    assert EITHER_DOTTED_TURNED not in summary.date_orders
    assert EITHER_DOTTED in summary.date_orders
    assert sentence == (
        "The request dates in column B ('Opt-out date') are written day.month (row 3: "
        "'25.10.26'), so the 1 date that reads either way (row 2) was read day.month too."
    )


@pytest.mark.parametrize(
    "dates",
    [
        # Turned the column's own way: nothing to read again, and the warning is true.
        ["12/11/26", "25/10/26"],
        ["11.12.26", "10/25/26"],
        # One-way dates both ways: the column's order is not known.
        ["12/11/26", "25/10/26", "10/25/26"],
    ],
)
def test_otherwise_nothing_is_read_again(dates: list[str]) -> None:
    _, summary = _check(dates, None)
    assert column_order(summary) is None


def test_the_turned_slashed_date_of_a_day_month_column_is_said_read_day_month() -> None:
    checked, _, sentence = _staged(["12/11/26", "25/10/26"])
    assert checked[0].request_date == dt.date(2026, 11, 12)
    assert sentence.endswith("the 1 date that reads either way (row 2) was read day/month too.")


def test_a_column_of_no_one_way_date_names_its_turned_dates_apart() -> None:
    checked, _, sentence = _staged(["11/10/26", "12/11/26", "12/01/26", "11.12.26"])
    assert [c.request_date for c in checked] == [
        dt.date(2026, 11, 10),
        dt.date(2026, 11, 12),
        dt.date(2026, 1, 12),
        dt.date(2026, 11, 12),
    ]
    assert sentence == (
        "4 dates in column B ('Opt-out date') read two ways, day/month or month/day (rows 2, "
        "3, 4 and 5), and no date there reads one way only to tell which: 1 was read "
        "month/day, as US files write dates (row 2: '11/10/26'); 2 were read day/month, as "
        "month/day would be after the insertion date (the first row 3: '12/11/26'); 1 was "
        "read month.day, as day.month would be after the insertion date (row 5: '11.12.26'). "
        "If the dates are written the other way round (day/month), write them as "
        "year-month-day (2026-11-02) and run the file again; each row's message in the report "
        "gives both readings."
    )


def test_a_column_of_turned_dates_only_says_how_they_were_read() -> None:
    _, _, sentence = _staged(["12/11/26"])
    assert "no date there reads one way only to tell which: 1 was read day/month, as " in sentence
    assert "month/day would be after the insertion date (row 2: '12/11/26'). If" in sentence
    assert "each row's note says how" not in sentence


def test_ordinary_ambiguous_dates_are_said_as_before() -> None:
    _, _, sentence = _staged(["11/10/26", "11/02/26"])
    assert "to tell which: they were read month/day, as US files write dates (row 2:" in sentence


def test_a_column_written_both_ways_says_its_turned_dates_were_not_read_the_usual_way() -> None:
    _, _, sentence = _staged(["25/10/26", "10/25/26", "11/10/26", "12/11/26"])
    assert sentence == (
        "The request dates in column B ('Opt-out date') are written both day/month (row 2: "
        "'25/10/26') and month/day (row 3: '10/25/26'); the 2 dates that read either way "
        "(rows 4 and 5) were read as their form is usually written (1/2/2026 month/day, "
        "1.2.2026 day.month); 1 of them was read day/month instead, as month/day would be "
        "after the insertion date (row 5: '12/11/26'): check them in the report's Message "
        "column."
    )


def _turned_pair(today: dt.date) -> tuple[dt.date, dt.date] | None:
    """(month/day reading, day/month reading) of an ambiguous day and month of this year whose
    month/day reading is after today and day/month reading is not."""
    for month in range(1, 13):
        for day in range(1, 13):
            usual, other = dt.date(today.year, month, day), dt.date(today.year, day, month)
            if month != day and usual > today >= other:
                return usual, other
    return None


def test_staging_reads_a_month_day_column_s_turned_date_month_day(tmp_path: Path) -> None:
    # Staging checks the file today, so the date is made from today's.
    today = dt.date.today()
    pair = _turned_pair(today)
    if pair is None:
        pytest.skip("on Jan 1 no day/month reading of this year is before today")
    usual, _ = pair
    text = f"{usual.month}/{usual.day}/{usual:%y}"
    src = tmp_path / "us.csv"
    src.write_text(f"Phone,Opt-out date\n3032701000,{text}\n3032701001,10/25/{usual:%y}\n")
    store, _ = stage_import(JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=None)
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    first = next(store.rows())
    store.close()
    # Read as the column says (after today, in the year written), not day/month against the
    # warning.
    assert first.request_date == usual.isoformat()
    assert f"'{text}' is ambiguous: read as {usual:%b %d}, {usual.year} (month/day)" in (
        first.message
    )
    assert (
        "The request dates in column B ('Opt-out date') are written month/day (row 3: "
        f"'10/25/{usual:%y}'), so the 1 date that reads either way (row 2) was read month/day "
        "too."
    ) in warnings
