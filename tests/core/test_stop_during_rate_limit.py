"""Ctrl+C while the service rate-limits (HTTP 429) pauses the job at once, not when the 429's
``Retry-After`` has passed (black-box P1 #1: an interrupted 65,000-row import under 429s took
28-64 s to exit).

The job's sending stopped within a tenth of a second in that case; the exit waited for the
report's rows not yet sent to be written. This test keeps the sending side honest: a real job
at 16 requests in flight, mid-run, meets a service that refuses everything with
``Retry-After: 60`` (every worker then waits in the transport's rate-limit hold or for its
retry); the stop must end that wait, so the run returns while the hold still has most of its
minute left, no request is sent after the stop, and the resume inserts every row once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_runner import JobControl
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, RowState
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN

ROWS = 400
CONCURRENCY = 16
# Inserts answered before the service starts refusing: the stop comes mid-run.
ANSWERED_FIRST = 60
# A sandbox limited to one request a minute answers 429 with Retry-After: 60; with this
# policy the client holds for all of it (it caps a hold at 4 * max_delay).
LONG = RetryPolicy(attempts=4, base_delay=0.05, max_delay=30.0)
HOLD = 60.0


class Wire(httpx.BaseTransport):
    """Forwards to the sandbox; throttles it once ``ANSWERED_FIRST`` inserts got through, and
    counts the requests started after the job's stop."""

    def __init__(self, sandbox: Any) -> None:
        self._http = httpx.HTTPTransport()
        self._sandbox = sandbox
        self._lock = threading.Lock()
        self.stop: threading.Event | None = None
        self.ok = 0
        self.refused = 0
        self.after_stop: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self.stop is not None and self.stop.is_set():
            with self._lock:
                self.after_stop.append(request.url.path)
        response = self._http.handle_request(request)
        with self._lock:
            if response.status_code == 429:
                self.refused += 1
            elif response.status_code == 200:
                self.ok += 1
                if self.ok == ANSWERED_FIRST:
                    self._sandbox.set_faults(rate_limit=1)
        return response

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _phones() -> list[str]:
    # From 0001: a number whose digits after the sixth are all 0 is read flagged (as a
    # scientific display may have cut it), which is no business of this test.
    return [f"202555{i:04d}" for i in range(1, ROWS + 1)]


def test_a_stop_during_long_429_waits_pauses_at_once_and_the_resume_inserts_every_row_once(
    make_sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    sandbox = make_sandbox(latency_ms=10)
    wire = Wire(sandbox)
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=LONG)
    session = Session(Connection("Limited", sandbox.base_url), api, journal)
    src = tmp_path / "in.csv"
    src.write_text("phone\n" + "".join(f"{p}\n" for p in _phones()))
    store, _ = stage_import(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    hold = api._t.hold  # type: ignore[attr-defined]
    control = JobControl()
    wire.stop = control.stop
    seen: dict[str, Any] = {}

    def stop_in_the_hold() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            # Refused, and a hold of the whole Retry-After begun: the workers wait in it.
            if wire.refused and hold.active and hold._until - time.monotonic() > HOLD - 5:
                time.sleep(0.3)
                seen["ok"], seen["until"] = wire.ok, hold._until
                control.suspend()
                return
            time.sleep(0.01)

    watcher = threading.Thread(target=stop_in_the_hold, daemon=True)
    watcher.start()
    status = run_import(store, session, concurrency=CONCURRENCY, control=control)
    returned = time.monotonic()
    watcher.join()
    session.close()
    assert "ok" in seen, "the service never refused the job"
    assert status is JobStatus.PAUSED
    # Returned while the hold the stop found had most of its minute to go: no wait (the hold,
    # a retry's) outlived the stop.
    assert seen["until"] - returned > HOLD / 2, seen["until"] - returned
    assert wire.after_stop == []
    inserted = int(sandbox.store.one("SELECT COUNT(*) AS n FROM dnc")["n"])
    counts = store.counts()
    assert ANSWERED_FIRST <= counts["inserted"] == inserted < ROWS
    assert (counts["failed"], counts["not_attempted"]) == (0, 0)
    assert counts["pending"] == ROWS - inserted
    # The refused rows were not done: pending again, as the rows never sent.
    assert {r.state for r in store.rows() if not r.outcome} == {RowState.PENDING.value}

    sandbox.set_faults(rate_limit=0)
    again = Session(
        Connection("Limited", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal
    )
    assert run_import(store, again, concurrency=CONCURRENCY) is JobStatus.FINISHED
    again.close()
    numbers = [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")]
    assert sorted(numbers) == _phones()
    counts = store.counts()
    assert (counts["inserted"], counts["already_present"], counts["pending"]) == (ROWS, 0, 0)
