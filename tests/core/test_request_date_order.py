"""One request-date column is written one way: when its dates that read only one way are all
day/month, the ones that read either way are day/month too (black-box finding: 11/10/2026 was
read Nov 10 beside 25/10/2026, and a late request went uncounted)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import CheckOptions, CheckSummary, check_rows
from app.core.sheet_dates import (
    DAY_FIRST_ONLY,
    EITHER,
    EITHER_DOTTED,
    MONTH_FIRST_ONLY,
    YEAR_FIRST,
    parse_request_date,
)
from app.core.sheet_mapping import ColumnMapping

CHECKED_ON = dt.date(2026, 11, 22)


def test_each_value_says_what_it_proves_about_the_order() -> None:
    assert parse_request_date("25/10/2026").order == DAY_FIRST_ONLY
    assert parse_request_date("10/25/2026").order == MONTH_FIRST_ONLY
    assert parse_request_date("11/10/2026").order == EITHER
    assert parse_request_date("05/05/2026").order == ""  # the same date either way
    # ISO: no day/month doubt, but dashed with its year first (re-test S24 U2 F7: its
    # column's 26-11-10 is read so); slashed, it says nothing.
    assert parse_request_date("2026-10-11").order == YEAR_FIRST
    assert parse_request_date("2026/10/11").order == ""
    assert parse_request_date("11/10/26", CHECKED_ON).order == EITHER


def test_day_first_reads_the_ambiguous_ones_day_month_and_says_so() -> None:
    us = parse_request_date("11/10/2026")
    assert us.date == dt.date(2026, 11, 10) and "(month/day)" in us.note
    eu = parse_request_date("11/10/2026", day_first=True)
    assert eu.date == dt.date(2026, 10, 11)
    assert "read as Oct 11, 2026 (day/month" in eu.note and "could be Nov 10, 2026" in eu.note
    # Values that read one way only are read that way whatever the column's order.
    assert parse_request_date("25/10/2026", day_first=True).date == dt.date(2026, 10, 25)
    assert parse_request_date("10/25/2026", day_first=True).date == dt.date(2026, 10, 25)
    assert parse_request_date("11/10/26", CHECKED_ON, day_first=True).date == dt.date(2026, 10, 11)


ROWS = [
    (1, ["Phone", "Date Received"]),
    (2, ["303-555-1301", "25/10/2026"]),
    (3, ["303-555-1302", "11/10/2026"]),
    (4, ["303-555-1303", "03/11/2026"]),
    (5, ["303-555-1304", "20/11/2026"]),
]
MAPPING = ColumnMapping(phone=0, request_date=1, header_row=1)


def _check(day_first: bool | None) -> tuple[list[dt.date | None], list[bool], CheckSummary]:
    summary = CheckSummary()
    options = CheckOptions(insertion_date=CHECKED_ON, day_first=day_first)
    rows = list(check_rows(ROWS, MAPPING, options, summary))
    return [r.request_date for r in rows], [r.late for r in rows], summary


def test_the_check_collects_the_columns_evidence() -> None:
    dates, late, summary = _check(day_first=None)
    assert dates[1] == dt.date(2026, 11, 10)  # month/day: the check alone cannot know better
    assert summary.date_orders == {
        DAY_FIRST_ONLY: (2, 2, "25/10/2026"),
        EITHER: (2, 3, "11/10/2026"),
    }
    assert summary.ambiguous_dates == 2
    assert "date_orders" not in summary.as_dict()
    dates, late, summary = _check(day_first=True)
    assert dates == [
        dt.date(2026, 10, 25),
        dt.date(2026, 10, 11),
        dt.date(2026, 11, 3),
        dt.date(2026, 11, 20),
    ]
    # Nov 3 to Nov 22 is 12 business days (Veterans Day off): three requests late, not two.
    assert late == [True, True, True, False] and summary.late_requests == 3


def _csv(tmp_path: Path, name: str, dates: list[str]) -> Path:
    path = tmp_path / name
    lines = ["Phone,Date Received"] + [f"303-555-{1301 + i},{d}" for i, d in enumerate(dates)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _staged(tmp_path: Path, path: Path) -> tuple[list[str], list[str], list[str]]:
    """Request dates, messages (where date notes go) and warnings of a staged import."""
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    rows = list(store.rows())
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return [r.request_date for r in rows], [r.message for r in rows], warnings


def test_an_import_reads_a_day_month_column_day_month_throughout(tmp_path: Path) -> None:
    path = _csv(tmp_path, "ddmm.csv", ["25/10/2026", "11/10/2026", "03/11/2026", "20/11/2026"])
    dates, notes, warnings = _staged(tmp_path, path)
    assert dates == ["2026-10-25", "2026-10-11", "2026-11-03", "2026-11-20"]
    assert "read as Oct 11, 2026 (day/month" in notes[1]
    assert any(
        "day/month" in w and "'25/10/2026'" in w and "row 2" in w and "2 dates" in w
        for w in warnings
    ), warnings
    # Only one job file: the first reading was given up.
    assert len(list((tmp_path / "jobs").glob("*.dncjob"))) == 1


def test_a_month_day_column_stays_month_day(tmp_path: Path) -> None:
    path = _csv(tmp_path, "mmdd.csv", ["10/25/2026", "11/10/2026", "03/11/2026"])
    dates, _, warnings = _staged(tmp_path, path)
    assert dates == ["2026-10-25", "2026-11-10", "2026-03-11"]
    # Not counting the warning on dates whose other reading would be late (8702cff), which
    # depends on the day the test runs.
    assert not any("day/month" in w and "would be late if" not in w for w in warnings)


def test_a_column_written_both_ways_is_read_month_day_with_a_warning(tmp_path: Path) -> None:
    path = _csv(tmp_path, "mixed.csv", ["25/10/2026", "10/26/2026", "11/10/2026"])
    dates, _, warnings = _staged(tmp_path, path)
    assert dates == ["2026-10-25", "2026-10-26", "2026-11-10"]
    mixed = [w for w in warnings if "both" in w and "would be late if" not in w]
    assert len(mixed) == 1, warnings
    assert "'25/10/2026'" in mixed[0] and "'10/26/2026'" in mixed[0] and "1 date" in mixed[0]


def test_dotted_dates_are_day_month_and_say_when_they_could_be_the_other() -> None:
    either = parse_request_date("11.05.2026")
    assert either.date == dt.date(2026, 5, 11) and either.order == EITHER_DOTTED
    assert "ambiguous" in either.note and "(day.month" in either.note
    assert "could be Nov 05, 2026" in either.note
    assert parse_request_date("25.10.2026").order == DAY_FIRST_ONLY
    assert parse_request_date("25.10.2026").note == ""
    late = parse_request_date("11.13.2026")  # only month.day is a date: read so, and said
    assert late.date == dt.date(2026, 11, 13) and late.order == MONTH_FIRST_ONLY
    assert "read as month.day" in late.note
    us = parse_request_date("11.05.2026", day_first=False)
    assert us.date == dt.date(2026, 11, 5) and "(month.day, as the column's" in us.note
    assert parse_request_date("11.05.2026", day_first=True).date == dt.date(2026, 5, 11)


def test_a_month_day_column_keeps_its_dotted_dates_day_month(tmp_path: Path) -> None:
    # Black-box B18 F1: a slashed date that reads one way only decides the order of the
    # slashed dates alone; the dotted one keeps day.month (it was read month.day, Nov 5).
    path = _csv(tmp_path, "usdots.csv", ["10/25/2026", "11.05.2026", "11/10/2026"])
    dates, notes, warnings = _staged(tmp_path, path)
    assert dates == ["2026-10-25", "2026-05-11", "2026-11-10"]
    assert "(day.month, as dotted dates are usually written)" in notes[1]
    assert any(
        "1 slashed one was read month/day, as the column's slashed dates" in w for w in warnings
    ), warnings


def test_without_evidence_each_ambiguous_date_is_flagged(tmp_path: Path) -> None:
    path = _csv(tmp_path, "mixdots.csv", ["11/05/2026", "10/11/2026", "11.05.2026"])
    dates, notes, warnings = _staged(tmp_path, path)
    assert dates == ["2026-11-05", "2026-10-11", "2026-05-11"]
    assert all("ambiguous" in n for n in notes)
    # No date-order sentence, only the warning counting the dates that read two ways.
    assert not any("request dates" in w for w in warnings)
    assert [w for w in warnings if "read two ways" in w] == [
        "3 dates in column B ('Date Received') read two ways, day/month or month/day (rows 2, "
        "3 and 4), and no date there reads one way only to tell which: they were read "
        "month/day, as US files write dates (row 2: '11/05/2026') and day.month, as dotted "
        "dates are written (row 4: '11.05.2026'). If the dates are written the other way round "
        "(day/month or month.day), write them as year-month-day (2026-11-02) and run the file "
        "again; each row's message in the report gives both readings."
    ]
