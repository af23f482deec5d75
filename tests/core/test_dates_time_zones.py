"""A request date written as a moment with its zone (an SMS platform's UTC export) is dated by
the day that moment was in this computer's time zone, the zone the insertion date is taken in
(black-box N3 #2: ``2026-11-06T03:30:00Z``, the evening of Nov 5 in New York, was read as
Nov 6, and a late request was missed)."""

from __future__ import annotations

import csv
import datetime as dt
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_dates import EITHER, parse_request_date
from app.core.sheet_mapping import ColumnMapping

# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"

CHECKED_ON = dt.date(2026, 11, 23)
# What an SMS platform's export holds (black-box file sms_platform.csv, rows 2-4 and 7-9).
LATE_EVENING_UTC = "2026-11-06T03:30:00Z"
MILLISECONDS_UTC = "2026-11-06T04:59:59.000Z"
NEW_YORK_OFFSET = "2026-11-05T23:30:00-05:00"


@pytest.fixture
def zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Sets this computer's time zone (``TZ``) for the test, and puts it back after."""

    def set_zone(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield set_zone
    monkeypatch.undo()
    time.tzset()


def test_in_new_york_a_utc_moment_is_dated_by_new_yorks_day(zone: Any) -> None:
    zone("America/New_York")
    for text in (LATE_EVENING_UTC, MILLISECONDS_UTC, "2026-11-06T03:30:00+00:00"):
        read = parse_request_date(text, CHECKED_ON)
        assert read.date == dt.date(2026, 11, 5), text
        assert read.note == (
            f"{text!r} read as 2026-11-05, the day it was in this computer's time zone (EST)"
        )
    # Written in New York's own offset: its day, with nothing to say.
    assert parse_request_date(NEW_YORK_OFFSET, CHECKED_ON) == parse_request_date("2026-11-05")
    # Afternoon in UTC is the same day in New York.
    assert parse_request_date("2026-11-03T14:22:00Z").date == dt.date(2026, 11, 3)


def test_in_utc_the_offset_moment_is_dated_by_the_utc_day(zone: Any) -> None:
    zone("UTC")
    assert parse_request_date(LATE_EVENING_UTC, CHECKED_ON).date == dt.date(2026, 11, 6)
    assert parse_request_date(LATE_EVENING_UTC, CHECKED_ON).note == ""
    read = parse_request_date(NEW_YORK_OFFSET, CHECKED_ON)
    assert read.date == dt.date(2026, 11, 6)
    assert read.note == (
        f"{NEW_YORK_OFFSET!r} read as 2026-11-06, the day it was in this computer's time zone (UTC)"
    )


def test_the_zones_written_other_ways(zone: Any) -> None:
    zone("America/New_York")
    for text in (
        "2026-11-06 03:30:00 UTC",
        "2026-11-06T03:30:00+0000",
        "Nov 6, 2026 3:30 AM GMT",
        "2026-11-06 12:30 AM UTC",  # 00:30
        "Fri Nov 06 2026 03:30:00 GMT+0000 (Coordinated Universal Time)",
        "2026-11-05 22:30:00 CST",  # 04:30 UTC
    ):
        assert parse_request_date(text, CHECKED_ON).date == dt.date(2026, 11, 5), text
    zone("UTC")
    # JavaScript's Date text, refused before as not a date.
    js = parse_request_date("Thu Nov 05 2026 22:30:00 GMT-0500 (Eastern Standard Time)")
    assert js.date == dt.date(2026, 11, 6) and "(UTC)" in js.note
    # A time without a zone is the day written.
    assert parse_request_date("2026-11-05 23:30:00").date == dt.date(2026, 11, 5)
    assert parse_request_date("11/5/2026 11:30 PM").date == dt.date(2026, 11, 5)


def test_an_ambiguous_moment_keeps_its_note_and_its_evidence(zone: Any) -> None:
    zone("America/New_York")
    read = parse_request_date("11/06/2026 03:30 UTC", CHECKED_ON)
    assert read.date == dt.date(2026, 11, 5) and read.order == EITHER
    assert read.note == (
        "'11/06/2026 03:30 UTC' is ambiguous: read as Nov 06, 2026 (month/day); it could be "
        "Jun 11, 2026; read as 2026-11-05, the day it was in this computer's time zone (EST)"
    )
    assert parse_request_date("13/25/2026 01:00Z").note == (
        f"'13/25/2026 01:00Z' is not a date{READ_AS_DATES}"
    )


def _rows() -> list[tuple[int, list[Any]]]:
    return [
        (1, ["Phone", "received_at"]),
        (2, ["+17205550422", LATE_EVENING_UTC]),
        (3, ["+17205550424", NEW_YORK_OFFSET]),
    ]


def test_the_check_counts_from_the_local_day(zone: Any) -> None:
    mapping = ColumnMapping(phone=0, request_date=1, header_row=1)
    options = CheckOptions(insertion_date=CHECKED_ON)
    zone("America/New_York")
    checked, summary = check_all(_rows(), mapping, options)
    # Nov 5 to Nov 23 is 11 business days (Veterans Day off): both late.
    assert [(c.request_date, c.business_days, c.late) for c in checked] == [
        (dt.date(2026, 11, 5), 11, True),
        (dt.date(2026, 11, 5), 11, True),
    ]
    assert summary.late_requests == 2
    zone("UTC")
    checked, summary = check_all(_rows(), mapping, options)
    assert [(c.request_date, c.business_days, c.late) for c in checked] == [
        (dt.date(2026, 11, 6), 10, False),
        (dt.date(2026, 11, 6), 10, False),
    ]
    assert "(UTC)" in checked[1].date_note


def test_the_report_shows_the_day_used(
    tmp_path: Path, zone: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    zone("America/New_York")
    path = tmp_path / "sms_platform.csv"
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["phone_number", "keyword", "received_at"])
        writer.writerow(["+17205550422", "STOP", "2020-11-06T03:30:00Z"])
        writer.writerow(["+17205550424", "STOP", "2020-11-05T23:30:00-05:00"])
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    rows = list(openpyxl.load_workbook(data["report"])["Rows"].iter_rows(values_only=True))
    header = rows[0]
    date = header.index(next(h for h in header if h and "request date" in str(h).lower()))
    by_phone = {str(r[1]): r for r in rows[1:]}
    assert [r[date] for r in by_phone.values()] == ["2020-11-05", "2020-11-05"]
    notes = [str(v) for r in by_phone.values() for v in r if v and "time zone" in str(v)]
    # In the Message, before the sentence counting the late request from that day.
    assert len(notes) == 1
    assert notes[0].startswith(
        "row 2: request date: '2020-11-06T03:30:00Z' read as 2020-11-05, the day it was in "
        "this computer's time zone (EST); request received 2020-11-05, "
    )
