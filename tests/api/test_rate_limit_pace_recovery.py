"""Re-test U1 #8: once a storm of 429s without ``Retry-After`` ends, the job's pace recovers.

After a 2½-minute storm the job sent a row every 28 s, then every 54 s, while every request
got through: the pace it kept was the spacing of its probes during the storm (nothing got
through then, so it measured nothing the service accepts), raised by 2 % per answer, and each
waiting request had been given a slot that far apart, kept however fast the pace grew. Now each
answer after such a storm halves the interval, and a waiting request takes up the faster pace.

The sandbox's 429s carry ``Retry-After``, so a scripted transport in front of it answers the
storm; the policy's holds are tenths of a second.
"""

from __future__ import annotations

import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api import transport as transport_module
from app.api.client import ApiClient
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.api.transport import RateLimitHold, RetryPolicy
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN

STORM = 14  # inserts refused before the service accepts again
ROWS = 40
POLICY = RetryPolicy(
    attempts=4,
    base_delay=0.001,
    max_delay=0.002,
    rate_limit_base=0.02,
    rate_limit_max=0.3,
    rate_limit_patience=60.0,
)


class Storm(httpx.BaseTransport):
    """Answers the first ``STORM`` inserts 429 without ``Retry-After``, then forwards every
    request to the sandbox; notes the hold's interval as each later insert goes out."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self._lock = threading.Lock()
        self.hold: RateLimitHold | None = None
        self.refused = 0
        self.after: list[int] = []  # statuses of the inserts after the storm
        self.intervals: list[float] = []  # the hold's interval as each of them went out

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        insert = request.url.path.endswith("/dnc/insert")
        with self._lock:
            if insert and self.refused < STORM:
                self.refused += 1
                body = {"success": False, "error": "Too many requests"}
                return httpx.Response(429, json=body, request=request)
            if insert and self.hold is not None:
                rate = self.hold.per_second
                self.intervals.append(0.0 if rate is None else 1.0 / rate)
        response = self._http.handle_request(request)
        if insert:
            with self._lock:
                self.after.append(response.status_code)
        return response

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def session(make_sandbox: Any, tmp_path: Path) -> Iterator[tuple[Session, Storm]]:
    server = make_sandbox()
    wire = Storm()
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    api = ApiClient(server.base_url, TOKEN, http_transport=wire, retry=POLICY)
    wire.hold = api._t.hold  # type: ignore[attr-defined]
    s = Session(Connection("Storm", server.base_url), api, journal)
    yield s, wire
    s.close()
    journal.close()


def test_after_a_429_storm_ends_the_jobs_pace_recovers(
    session: tuple[Session, Storm], tmp_path: Path
) -> None:
    s, wire = session
    src = tmp_path / "in.csv"
    src.write_text("phone\n" + "".join(f"202555{i + 1:04d}\n" for i in range(ROWS)))
    store, _ = stage_import(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=s.connection
    )
    assert run_import(store, s, concurrency=8) is JobStatus.FINISHED
    summary = job_summary(store)
    assert (summary["inserted"], summary["failed"], summary["pending"]) == (ROWS, 0, 0)
    assert wire.refused == STORM and len(wire.after) == ROWS and set(wire.after) == {200}
    # The storm left a pace (its probes' spacing); every answer after it sped it up, never
    # slowed it, and well within the 40 rows the pacing ended: the old 2 % per answer left
    # it at nearly half its storm-time interval.
    paced = [i for i in wire.intervals if i]
    assert paced, "the storm left the job paced"
    assert paced == sorted(paced, reverse=True)
    hold = s.api._t.hold  # type: ignore[attr-defined]
    assert hold.per_second is None and not hold.active


class _Clock:
    """The transport's monotonic clock, moved forward by the test (time passing in a hold)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.ahead


def test_a_request_waiting_for_a_slow_pace_goes_once_the_pace_has_grown_fast(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = _Clock()
    monkeypatch.setattr(
        transport_module,
        "time",
        types.SimpleNamespace(monotonic=clock.monotonic, sleep=time.sleep),
    )
    hold = RateLimitHold()
    hold.refused(None, lambda n: 20.0)  # a hold of 20 s: nothing gets through
    clock.ahead += 30.0
    hold.refused(None, lambda n: 20.0)  # the next: a request every 30 s, measuring nothing
    clock.ahead += 20.0
    assert hold.per_second is not None and 1 / hold.per_second == pytest.approx(30.0, rel=0.01)
    hold.wait()  # the first request after the hold goes at once
    cancel = threading.Event()
    went: list[bool] = []

    def second() -> None:
        try:
            hold.wait(cancel)
            went.append(True)
        except Cancelled:
            went.append(False)

    waiting = threading.Thread(target=second)
    waiting.start()
    time.sleep(0.2)  # it waits for its turn, 30 s after the first
    assert not went
    for _ in range(20):  # the service accepts again: answers get through
        hold.answered()
    assert not hold.active  # the pace grew fast enough to end
    waiting.join(10.0)  # it was given no slot 30 s away
    cancel.set()
    waiting.join()
    assert went == [True]
