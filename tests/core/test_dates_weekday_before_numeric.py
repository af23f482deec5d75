"""Black-box B16 #8: a weekday before a numeric date ("Mon, 11/23/2026 10:15:32", "Mon
11/23/2026") was "not a date", while "Mon, 23 Nov 2026" was read. It is read; a weekday the date
does not fall on is said in the row's note, the date read all the same."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core import phones
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow
from app.core.sheet_dates import parse_request_date

# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"

CHECKED = dt.date(2026, 11, 24)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    phones.clear_cache()


def _staged(tmp_path: Path, path: Path) -> dict[int, JobRow]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        return {r.row_number: r for r in store.rows()}


# ---- #8: a weekday before a numeric date ----------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "day"),
    [
        ("Mon, 11/23/2026 10:15:32", dt.date(2026, 11, 23)),
        ("Mon 11/23/2026", dt.date(2026, 11, 23)),
        ("Monday, 11/23/2026", dt.date(2026, 11, 23)),
        ("Thurs. 11/19/2026", dt.date(2026, 11, 19)),
        ("MON 11/23/26", dt.date(2026, 11, 23)),
        ("Fri, 2026-11-20", dt.date(2026, 11, 20)),
        ("Mon 23.11.2026", dt.date(2026, 11, 23)),
        # Joined by a no-break space or a line break (review RV2 #2: "is not a date").
        ("Mon,\xa011/23/2026", dt.date(2026, 11, 23)),
        ("Mon \xa011/23/2026", dt.date(2026, 11, 23)),
        ("Mon\n11/23/2026", dt.date(2026, 11, 23)),
    ],
)
def test_a_weekday_before_a_numeric_date_is_read(cell: str, day: dt.date) -> None:
    found = parse_request_date(cell, CHECKED)
    assert (found.date, found.note) == (day, "")


def test_a_weekday_the_date_is_not_on_is_said_and_the_date_read() -> None:
    found = parse_request_date("Mon, 11/24/2026", CHECKED)
    assert found.date == dt.date(2026, 11, 24)
    assert found.note == (
        "'Mon, 11/24/2026' names the wrong weekday: Nov 24, 2026 is a Tuesday; read as that date"
    )
    found = parse_request_date("Mon,\xa011/24/2026", CHECKED)
    assert found.date == dt.date(2026, 11, 24)
    assert "names the wrong weekday: Nov 24, 2026 is a Tuesday" in found.note


def test_a_wrong_weekday_on_an_ambiguous_date_follows_its_note_and_names_the_other_reading() -> (
    None
):
    # Nov 01, 2026 is a Sunday; its other reading, Jan 11, 2026, a Sunday too.
    found = parse_request_date("Mon, 11/01/2026", CHECKED)
    assert found.date == dt.date(2026, 11, 1)
    assert found.note == (
        "'Mon, 11/01/2026' is ambiguous: read as Nov 01, 2026 (month/day); it could be "
        "Jan 11, 2026; it names the wrong weekday: Nov 01, 2026 is a Sunday; read as that date"
    )
    # Oct 11, 2026 is a Sunday: the weekday fits the other reading only, which it decides
    # (re-test S24 U1 F5; it was read Nov 10, its note naming Oct 11 as the Sunday).
    other = parse_request_date("Sun, 11/10/2026", CHECKED)
    assert other.date == dt.date(2026, 10, 11)
    assert other.note == (
        "'Sun, 11/10/2026' read as day/month: Oct 11, 2026, the Sunday it names (month/day it "
        "would be Nov 10, 2026, a Tuesday)"
    )


def test_a_weekday_date_with_a_zone_quotes_the_whole_cell_once() -> None:
    found = parse_request_date("Mon, 11/24/2026 10:15 EST", CHECKED)
    assert found.date is not None
    assert found.note.startswith(
        "'Mon, 11/24/2026 10:15 EST' names the wrong weekday: Nov 24, 2026 is a Tuesday"
    )


@pytest.mark.parametrize("cell", ["Monster 11/23/2026", "Mon, 13/23/2026", "Mon, 2/30/2026"])
def test_no_weekday_or_no_date_is_still_not_a_date(cell: str) -> None:
    found = parse_request_date(cell, CHECKED)
    assert (found.date, found.note) == (None, f"{cell!r} is not a date{READ_AS_DATES}")


def test_five9_timestamps_are_read_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "five9.csv"
    path.write_text(
        "TIMESTAMP,NUMBER,DISPOSITION\n"
        '"Mon, 11/24/2025 10:15:32",3035550900,Do Not Call\n'
        '"Mon, 11/18/2025 09:00:00",3035550901,Do Not Call\n'
        "Summary,,\n"
        "Total,2\n",
        encoding="utf-8",
    )
    rows = _staged(tmp_path, path)
    assert rows[2].request_date == "2025-11-24"
    assert rows[3].request_date == "2025-11-18"
    assert "names the wrong weekday: Nov 18, 2025 is a Tuesday; read as that date" in (
        rows[3].message
    )
    assert "is not a date" not in rows[2].message + rows[3].message
    # #7: the Summary line is the report's, not a row with its phone number missing.
    assert rows[4].outcome == "invalid"
    assert rows[4].message == (
        "row 4: phone: the row holds only 'Summary' (column A): a report's title or footer "
        "line, not a row of the table"
    )
