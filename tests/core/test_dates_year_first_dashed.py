"""Re-test S24 U2 F7: ``26-11-10`` beside ``2026-11-10`` was read Nov 26, 2010 (day-month-year),
"4007 business days … late", its note naming no other reading, though read year-month-day, as
the column's other dates are written, it is Nov 10, 2026. A column holding dashed dates with
a four-digit year first reads its dashed dates with a two-digit year year-month-day when they
are dates so; alone, such a date is read as before, its note naming the year-month-day reading
and a warning naming the rows. Slashed and dotted dates, and dashed ones with a four-digit
year, are read as before."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from app.cli.main import main
from app.core.sheet_check import CheckedRow, CheckSummary
from app.core.sheet_dates import (
    DAY_FIRST_ONLY,
    EITHER,
    YEAR_FIRST_READ,
    FormOrders,
    parse_request_date,
)
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import column_order, year_first_sentence
from tests.conftest import TOKEN
from tests.core.date_column import check_dates

CHECKED = dt.date(2026, 11, 24)
MAPPING = ColumnMapping(phone=0, request_date=1, header_row=1, headers=("Phone", "Received"))
YEAR_FIRST_COLUMN = FormOrders(slashed=None, dotted=None, dashed=None, year_first=True)


def _checked(cells: list[str]) -> tuple[list[CheckedRow], CheckSummary, str]:
    """The rows, summary and year-month-day warning, read as staging reads them."""
    column = check_dates(cells, CHECKED, MAPPING)
    return column.rows, column.summary, year_first_sentence(MAPPING, column.summary, column.order)


def test_alone_a_dashed_date_reading_one_way_but_for_year_month_day_names_both() -> None:
    found = parse_request_date("26-11-10", CHECKED)
    assert found.date == dt.date(2010, 11, 26)  # read as before
    assert found.other == dt.date(2026, 11, 10)
    assert found.order != DAY_FIRST_ONLY  # no evidence of day-first dashed dates
    assert (
        found.note
        == "'26-11-10' read as Nov 26, 2010 (day/month); it could be Nov 10, 2026 (year-month-day)"
    )


def test_a_dashed_date_reading_three_ways_names_the_third() -> None:
    found = parse_request_date("12-11-10", CHECKED)
    assert (found.date, found.order) == (dt.date(2010, 12, 11), EITHER)
    assert found.note == (
        "'12-11-10' is ambiguous: read as Dec 11, 2010 (month/day); it could be Nov 12, 2010; "
        "or it could be Nov 10, 2012 (year-month-day)"
    )


def test_a_dashed_date_that_is_a_date_only_year_month_day_is_read_so() -> None:
    found = parse_request_date("99-12-31", CHECKED)
    assert found.date == dt.date(1999, 12, 31)  # was "not a date"
    assert found.note == "'99-12-31' read as year-month-day: Dec 31, 1999"


@pytest.mark.parametrize("cell", ["26/11/10", "26.11.10", "26-11-2010", "5-11-10", "2026-11-10"])
def test_other_forms_are_read_as_before(cell: str) -> None:
    assert "year-month-day" not in parse_request_date(cell, CHECKED).note
    assert parse_request_date(cell, CHECKED, day_first=YEAR_FIRST_COLUMN) == parse_request_date(
        cell, CHECKED
    )


def test_beside_iso_dates_they_are_read_year_month_day() -> None:
    checked, summary, sentence = _checked(["2026-11-10", "26-11-10", "2026-11-12", "12-11-09"])
    assert [r.request_date for r in checked] == [
        dt.date(2026, 11, 10),
        dt.date(2026, 11, 10),  # was Nov 26, 2010, 4,007 business days late
        dt.date(2026, 11, 12),
        dt.date(2012, 11, 9),  # was Dec 11, 2009 (month/day)
    ]
    assert [r.late for r in checked] == [False, False, False, True]
    assert checked[1].date_note == (
        "'26-11-10' read as year-month-day: Nov 10, 2026, as the column's dates with a "
        "four-digit year are written; with the day or month first it would be Nov 26, 2010"
    )
    assert summary.date_orders[YEAR_FIRST_READ][:2] == (2, 3)
    assert (summary.ambiguous_dates, summary.late_requests) == (0, 1)
    assert sentence == (
        "2 dashed dates with a two-digit year in column B ('Received') were read "
        "year-month-day (rows 3 and 5), as the column's dates with a four-digit year are "
        "written (row 2: '2026-11-10'); each row's note gives the date with the day or month "
        "first. If any is written with its day or month first, write it with a four-digit "
        "year and run the file again."
    )


def test_alone_they_are_read_as_before_and_named() -> None:
    checked, summary, sentence = _checked(["26-11-10", "26-11-12", "11/03/2026"])
    assert [r.request_date for r in checked] == [
        dt.date(2010, 11, 26),
        dt.date(2012, 11, 26),
        dt.date(2026, 11, 3),
    ]
    assert list(summary.year_first_rows.first) == [2, 3]
    assert sentence == (
        "2 dashed dates with a two-digit year in column B ('Received') could also be read "
        "year-month-day (rows 2 and 3): they were read with the day or month first, as no "
        "dashed date there written as text has its four-digit year first (2026-11-10; a date "
        "cell's display format is not read); each row's note gives both readings. If any is "
        "written year-month-day, write it with a four-digit year "
        "(2026-11-10) and run the file again."
    )


def test_a_year_month_day_reading_years_before_the_others_is_not_named() -> None:
    # Every day-month-year date with a two-digit year up to 31 is a date year-month-day too:
    # 23-11-26 could be Nov 26, 2023, three years before its reading, Nov 23, 2026.
    found = parse_request_date("23-11-26", CHECKED)
    assert (found.date, found.order, found.note) == (
        dt.date(2026, 11, 23),
        DAY_FIRST_ONLY,
        "'23-11-26' read as day/month: Nov 23, 2026",
    )
    assert parse_request_date("23-11-26", CHECKED, day_first=YEAR_FIRST_COLUMN) == found
    checked, summary, sentence = _checked(["2026-11-10", "23-11-26", "12-11-13"])
    assert [r.request_date for r in checked] == [
        dt.date(2026, 11, 10),
        dt.date(2026, 11, 23),
        dt.date(2013, 11, 12),  # day-month, as 23-11-26; Nov 13, 2012 is before it
    ]
    assert (summary.year_first_rows.count, sentence) == (0, "")


def test_a_column_without_them_gets_no_warning_nor_a_second_reading() -> None:
    _, summary, sentence = _checked(["2026-11-10", "11-10-2026", "26-11-2026"])
    assert column_order(summary) is None or not getattr(column_order(summary), "year_first", False)
    assert sentence == ""
    assert not summary.year_first_rows.count


def test_a_dry_run_reads_them_so_and_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    path = tmp_path / "received.csv"
    # Dated relative to today, as a dry run counts business days to today.
    today = dt.date.today()
    iso = (today - dt.timedelta(days=3)).isoformat()
    short = iso[2:]  # 26-11-21: day-month-year it is Nov 26, 2021 or so, years late
    path.write_text(f"Phone,Received\n2025550147,{iso}\n2025550148,{short}\n", encoding="utf-8")
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr()[0])
    assert data["late_requests"] == 0
    assert any(
        "were read year-month-day" in w or "was read year-month-day" in w for w in data["warnings"]
    )
