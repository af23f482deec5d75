"""Black-box Q3 #2 and #4: a time whose zone is named by an abbreviation other than the US
ones (``CET``, ``AEDT``) or by an IANA name (``Europe/Berlin``) is dated as the same time
with its numeric offset is; an abbreviation naming several zones (IST, CST) is not silently
used; a Unix time in a date column is read as the moment it is."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from typing import Any

import pytest

from app.core.sheet_dates import parse_request_date
from app.core.sheet_mapping import propose_mapping


@pytest.fixture
def zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Sets this computer's time zone (``TZ``) for the test, and puts it back after."""

    def set_zone(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield set_zone
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize("here", ["UTC", "America/New_York", "America/Los_Angeles"])
@pytest.mark.parametrize(
    ("named", "offset"),
    [
        ("2026-11-06 00:30 CET", "2026-11-06T00:30:00+01:00"),
        ("11/6/2026 12:30 AM CET", "2026-11-06T00:30:00+01:00"),
        ("2026-11-06 00:30 AEDT", "2026-11-06T00:30:00+11:00"),
        ("2026-11-06 00:30 JST", "2026-11-06T00:30:00+09:00"),
        ("2026-11-06 00:30:00 Europe/Berlin", "2026-11-06T00:30:00+01:00"),
        ("2026-11-06 00:30 europe/berlin", "2026-11-06T00:30:00+01:00"),
        # Summer time, which an IANA name knows: Berlin is UTC+2 in July.
        ("2026-07-06 01:30 Europe/Berlin", "2026-07-06T01:30:00+02:00"),
        ("2026-11-06 00:30 HST", "2026-11-06T00:30:00-10:00"),
        ("2026-11-05 23:30 PST", "2026-11-05T23:30:00-08:00"),
    ],
)
def test_a_zone_named_is_read_as_its_offset_is(
    zone: Any, here: str, named: str, offset: str
) -> None:
    zone(here)
    expected = parse_request_date(offset).date
    found = parse_request_date(named)
    assert found.date == expected
    if found.date != dt.date.fromisoformat(offset[:10]):
        assert "the day it was in this computer's time zone" in found.note


def test_cet_is_not_the_date_written_when_that_day_differs(zone: Any) -> None:
    """The tester's case: ``… 00:30 CET`` is the evening before in UTC, as ``+01:00`` is."""
    zone("UTC")
    found = parse_request_date("2026-11-06 00:30 CET")
    assert found.date == dt.date(2026, 11, 5)
    assert "read as 2026-11-05" in found.note


def test_an_abbreviation_of_several_zones_on_different_days_leaves_the_date_written(
    zone: Any,
) -> None:
    zone("UTC")
    # India's 04:00 is the day before in UTC; Ireland's and Israel's are the same day.
    found = parse_request_date("2026-11-06 04:00 IST")
    assert found.date == dt.date(2026, 11, 6)
    assert "its time zone IST could be India Standard Time (UTC+05:30)" in found.note
    assert "so the date written, 2026-11-06, was read" in found.note


def test_an_abbreviation_of_several_zones_on_one_day_is_dated_so(zone: Any) -> None:
    zone("UTC")
    # 00:30 in India, Ireland or Israel is Nov 5 in UTC whichever is meant.
    assert parse_request_date("2026-11-06 00:30 IST").date == dt.date(2026, 11, 5)


def test_cst_is_us_central_and_the_note_gives_chinas_day(zone: Any) -> None:
    zone("America/New_York")
    found = parse_request_date("2026-11-06 00:30 CST")
    assert found.date == dt.date(2026, 11, 6)  # 01:30 in New York
    assert "CST is read as US Central Standard Time (UTC-06:00), as US files mean it" in (
        found.note
    )
    assert "as China Standard Time it would be 2026-11-05" in found.note
    # A daytime CST is the same day either way: nothing to say.
    assert parse_request_date("2026-11-06 14:00 CST") == parse_request_date("2026-11-06")


@pytest.mark.parametrize("written", ["2026-11-06 00:30 XYZ", "2026-11-06 00:30 Mars/Olympus"])
def test_a_zone_not_understood_is_said(zone: Any, written: str) -> None:
    zone("UTC")
    found = parse_request_date(written)
    assert found.date == dt.date(2026, 11, 6)
    assert "was not understood: read as the date written, 2026-11-06" in found.note


@pytest.mark.parametrize("written", ["2026-11-06 10:30 AM", "2026-11-06 10:30 am"])
def test_am_is_no_zone(zone: Any, written: str) -> None:
    zone("UTC")
    assert parse_request_date(written) == parse_request_date("2026-11-06")


@pytest.mark.parametrize(
    "value", ["1762387200", 1762387200, "1762387200000", 1762387200000.0, "1762387200.5"]
)
def test_a_unix_time_is_read_as_its_moment(zone: Any, value: str | int | float) -> None:
    zone("UTC")
    found = parse_request_date(value)
    assert found.date == dt.date(2025, 11, 6)
    assert "is read as a Unix time in" in found.note
    assert "2025-11-06 00:00:00 UTC" in found.note
    zone("America/New_York")
    found = parse_request_date(value)
    assert found.date == dt.date(2025, 11, 5)
    assert "dated 2025-11-05, the day it was in this computer's time zone (EST)" in found.note


@pytest.mark.parametrize("value", ["2025550123", 3036191101, "9999999999", "123456789"])
def test_a_phone_number_is_not_a_unix_time(value: str | int) -> None:
    assert parse_request_date(value).date is None


def test_a_column_of_ten_digit_numbers_is_not_a_date_column() -> None:
    """A column whose header names no day is not read for dates, whatever its values."""
    mapping = propose_mapping(
        ["Phone", "Alt phone", "Opted Out"],
        [(2, ["3036191101", "1762387200", "1762387200"]), (3, ["3036191102", "1762387201", ""])],
    )
    assert mapping.phone == 0
    assert mapping.request_date == 2
