"""A request-date column's slashed and dotted dates are read apart (black-box B18 F1): a date
that reads one way only decides the order of the ambiguous dates written in its own form only.
23.11.2026 made 11/9/2026 Sep 11 (late by 50 business days, not 10), and 11/23/2026 made
11.10.2026 Nov 10 (in time, where alone it is Oct 11 and late)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, check_rows
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import column_order, date_order_sentence

CHECKED = dt.date(2026, 11, 24)
MAPPING = ColumnMapping(phone=0, request_date=1, header_row=1)


def _checked(dates: list[str]) -> tuple[list[dt.date | None], list[bool], str]:
    """Request dates, lateness and the date-order warning, read as staging reads them: again
    in the column's order when :func:`column_order` gives one."""
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
    return [r.request_date for r in checked], [r.late for r in checked], sentence


def _staged(tmp_path: Path, dates: list[str]) -> tuple[list[str], list[str], list[str]]:
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "dates.csv"
    lines = ["Phone,Request Date"] + [f"303-555-{1301 + i},{d}" for i, d in enumerate(dates)]
    path.write_text("\n".join(lines) + "\n")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    rows = list(store.rows())
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return [r.request_date for r in rows], [r.message for r in rows], warnings


def test_a_dotted_date_does_not_decide_how_a_slashed_one_is_read() -> None:
    dates, late, sentence = _checked(["23.11.2026", "11/9/2026"])
    assert dates == [dt.date(2026, 11, 23), dt.date(2026, 11, 9)]  # was Sep 11
    assert late == [False, False]  # 10 business days: was 50, and late
    assert "written day/month" not in sentence
    assert "1 slashed one was read month/day, as slashed dates are usually written" in sentence
    assert "no slashed date there reading one way only to tell which" in sentence


def test_a_slashed_date_does_not_decide_how_a_dotted_one_is_read() -> None:
    dates, late, sentence = _checked(["11/23/2026", "11.10.2026"])
    assert dates == [dt.date(2026, 11, 23), dt.date(2026, 10, 11)]  # was Nov 10
    assert late == [False, True]  # 30 business days: was 9, in time
    # Was "written month/day (row 2: '11/23/2026'), so the 1 date … was read month/day too".
    assert "written month/day" not in sentence
    assert "1 dotted one was read day.month, as dotted dates are usually written" in sentence
    assert "(row 3: '11.10.2026'), no dotted date there reading one way only" in sentence


def test_the_same_dotted_date_reads_alike_alone_and_beside_a_slashed_one() -> None:
    alone, _, _ = _checked(["11.10.2026"])
    beside, _, _ = _checked(["11/23/2026", "11.10.2026"])
    assert alone[0] == beside[1] == dt.date(2026, 10, 11)


def test_a_slashed_column_read_day_month_leaves_its_dotted_dates_day_month() -> None:
    dates, _, sentence = _checked(["25/10/2026", "11/10/2026", "11.05.2026"])
    assert dates == [dt.date(2026, 10, 25), dt.date(2026, 10, 11), dt.date(2026, 5, 11)]
    assert (
        "1 slashed one was read day/month, as the column's slashed dates that read one way only "
        "are (row 2: '25/10/2026'); 1 dotted one was read day.month, as dotted dates are "
        "usually written (row 4: '11.05.2026')"
    ) in sentence


def test_a_month_day_slashed_column_leaves_its_dotted_dates_day_month(tmp_path: Path) -> None:
    # The order the pooled reading gave these was month.day (11.05.2026 Nov 5): the slashed
    # 10/25/2026 says nothing of how the dotted date was written.
    dates, notes, warnings = _staged(tmp_path, ["10/25/2026", "11.05.2026", "11/10/2026"])
    assert dates == ["2026-10-25", "2026-05-11", "2026-11-10"]
    assert "(day.month, as dotted dates are usually written)" in notes[1]
    said = [w for w in warnings if "read two ways" in w]
    assert len(said) == 1, warnings
    assert not any("written month/day" in w for w in warnings), warnings
    assert "1 slashed one was read month/day, as the column's slashed dates" in said[0]
    assert "1 dotted one was read day.month" in said[0]


def test_an_import_reads_each_form_by_its_own_dates(tmp_path: Path) -> None:
    dates, notes, _ = _staged(tmp_path, ["23.11.2026", "11/9/2026"])
    assert dates == ["2026-11-23", "2026-11-09"]
    assert "(month/day)" in notes[1]
    dates, notes, _ = _staged(tmp_path / "b", ["11/23/2026", "11.10.2026"])
    assert dates == ["2026-11-23", "2026-10-11"]


def test_a_column_of_one_form_is_still_read_in_its_own_order() -> None:
    dates, _, sentence = _checked(["11.23.2026", "11.05.2026"])
    assert dates == [dt.date(2026, 11, 23), dt.date(2026, 11, 5)]
    assert sentence == (
        "The request dates in column B are written month.day (row 2: "
        "'11.23.2026'), so the 1 date that reads either way (row 3) was read month.day too."
    )
    dates, _, sentence = _checked(["23.11.2026", "11.05.2026", "11/10/2026"])
    # A slashed one beside: the dotted evidence reads the dotted one only.
    assert dates == [dt.date(2026, 11, 23), dt.date(2026, 5, 11), dt.date(2026, 11, 10)]
