"""A row's insertion day is this computer's day, as its request date is (black-box B28 F1).

The job file and the change journal keep UTC times; a request date is read in this computer's
time zone. West of UTC a row inserted in the evening was counted to the next day (10 business
days said 11, late); east of UTC, one inserted in the morning to the day before (11 said 10,
in time). The instants are fixed strings; the zone is set with ``time.tzset`` and restored.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable, Iterator

import pytest

from app.core.import_job import _Answered
from app.core.job_report import lateness

pytestmark = pytest.mark.skipif(not hasattr(time, "tzset"), reason="needs time.tzset")
Zone = Callable[[str], None]
# business_days_between skips Veterans Day (Nov 11): Nov 6 to Nov 23 is 10 business days.


@pytest.fixture
def zone() -> Iterator[Zone]:
    before = os.environ.get("TZ")

    def set_zone(name: str) -> None:
        os.environ["TZ"] = name
        time.tzset()

    yield set_zone
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


def test_west_of_utc_an_evening_insertion_counts_to_its_own_day(zone: Zone) -> None:
    zone("America/Los_Angeles")
    # 2026-11-24 03:00 UTC is 2026-11-23 19:00 in Los Angeles: 10 business days after Nov 6.
    assert lateness("2026-11-06", "2026-11-24 03:00:00", "inserted") == (10, False)


def test_east_of_utc_a_morning_insertion_counts_to_its_own_day(zone: Zone) -> None:
    zone("Pacific/Kiritimati")
    # 2026-11-23 12:00 UTC is 2026-11-24 02:00 at UTC+14: 11 business days after Nov 6.
    assert lateness("2026-11-06", "2026-11-23 12:00:00", "inserted") == (11, True)


def test_a_journal_answer_kept_from_a_killed_run_counts_to_its_local_day(zone: Zone) -> None:
    zone("America/Los_Angeles")
    stamp = "2026-11-24T03:00:00.000000Z"  # journal.utc_now()
    when = dt.datetime.fromisoformat("2026-11-24T03:00:00")
    answered = _Answered("ok", "7", when, stamp, echo=False)
    assert answered.done_on == dt.date(2026, 11, 23)
    assert answered.inserted().done_on == dt.date(2026, 11, 23)


def test_utc_keeps_the_stored_day(zone: Zone) -> None:
    zone("UTC")
    assert lateness("2026-11-06", "2026-11-24 03:00:00", "inserted") == (11, True)
