"""Black-box B32 F3: ``jobs`` said "running now (pid 9293, since 18:35)" and a refused resume
"(pid 23069, since 08:13)": local time with no zone or date, beside STARTED (UTC)."""

from __future__ import annotations

import datetime as dt
import os
import re
import socket
import time
from collections.abc import Iterator

import pytest

from app.cli.jobs_cmd import _who
from app.core.job_lock import Holder, _busy_sentence


def _holder(started: dt.datetime) -> Holder:
    return Holder(4242, socket.gethostname(), started.isoformat(timespec="seconds"))


@pytest.fixture(autouse=True)
def _far_from_utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A local zone 10 hours behind UTC, so local time and UTC differ by hour and mostly day."""
    monkeypatch.setenv("TZ", "Pacific/Honolulu")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_since_today_is_said_in_utc() -> None:
    now = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
    started = now - dt.timedelta(minutes=1) if now.hour or now.minute else now
    assert _holder(started).since() == f"{started:%H:%M} UTC"
    assert _who(_holder(started)) == f"pid 4242, since {started:%H:%M} UTC"
    sentence = _busy_sentence("J", _holder(started))
    assert re.search(rf"\(pid 4242, since {started:%H:%M} UTC\); wait", sentence), sentence


def test_since_another_day_has_its_date() -> None:
    started = dt.datetime.now(dt.UTC) - dt.timedelta(days=1, hours=1)
    assert _holder(started).since() == f"{started:%Y-%m-%d %H:%M} UTC"
    # A lock written with another offset is said in UTC all the same.
    aware = started.astimezone(dt.timezone(dt.timedelta(hours=-5)))
    assert _holder(aware).since() == f"{started:%Y-%m-%d %H:%M} UTC"
    assert os.environ["TZ"] == "Pacific/Honolulu"
