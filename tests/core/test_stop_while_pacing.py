"""Ctrl+C or SIGTERM under ``--rate-limit`` stops a job's writes at once (black-box finding:
an interrupted paced removal went on sending deletes for 23 s).

Each worker takes a row and then waits in the transport's pacer for its slot; the job's stop
event now cuts that wait (and nothing after the first attempt was sent): the row is pending
again, its journal intent ``not_attempted``, and a resume sends it once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.api.transport import RetryPolicy, Transport
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_runner import JobControl
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore, Outcome, RowState
from app.core.journal import ChangeJournal
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN

ROWS = 12
PER_MINUTE = 60  # one request a second
INTERVAL = 60 / PER_MINUTE
# A stopped job returns within this of its stop; a job that waited for its next pacing slot
# (INTERVAL after the last send, which the stop follows at once) would take about INTERVAL.
PROMPT = INTERVAL / 2
PHONES = [f"202555{i + 1:04d}" for i in range(ROWS)]


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _session(sandbox: Any, journal: ChangeJournal, per_minute: int | None) -> Session:
    api = ApiClient(sandbox.base_url, TOKEN, requests_per_minute=per_minute)
    return Session(Connection("Sandbox", sandbox.base_url), api, journal)


def _dnc_count(sandbox: Any) -> int:
    return int(sandbox.store.one("SELECT COUNT(*) AS n FROM dnc")["n"])


def _stop_when(sandbox: Any, control: JobControl, reached: Callable[[int], bool]) -> dict[str, Any]:
    """Suspend the job (as Ctrl+C does) once the sandbox's DNC count says 2 rows were done."""
    seen: dict[str, Any] = {}

    def watch() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            count = _dnc_count(sandbox)
            if reached(count):
                seen["count"], seen["at"] = count, time.monotonic()
                control.suspend()
                return
            time.sleep(0.01)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    seen["thread"] = thread
    return seen


def _check_cut_rows(store: JobStore, journal: ChangeJournal, done: Outcome) -> list[str]:
    """The rows not sent are pending with no outcome, and their intents ``not_attempted``."""
    rows = list(store.rows())
    sent = [r for r in rows if r.state == RowState.DONE]
    unsent = [r for r in rows if r.state != RowState.DONE]
    assert {r.outcome for r in sent} == {done.value}
    assert {(r.state, r.outcome) for r in unsent} == {(RowState.PENDING.value, "")}
    job = str(store.meta()["job_id"])
    outcomes = [e for e in journal.query(job=job) if e.phase == "outcome"]
    cut = [e for e in outcomes if e.outcome == "not_attempted"]
    assert cut, "no worker was waiting for its slot when the job stopped"
    assert {e.error for e in cut} == {"cancelled before the request was sent"}
    unsent_phones = {f"+1{r.national}" for r in unsent}
    assert {e.phone for e in cut} <= unsent_phones
    assert len([e for e in outcomes if e.outcome != "not_attempted"]) == len(sent)
    return sorted(r.national for r in unsent)


def test_a_paced_import_stops_sending_at_once_and_resumes_each_row_once(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    src = tmp_path / "in.csv"
    src.write_text("phone\n" + "".join(f"{p}\n" for p in PHONES))
    paced = _session(sandbox, journal, PER_MINUTE)
    store, _ = stage_import(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=paced.connection
    )
    control = JobControl()
    seen = _stop_when(sandbox, control, lambda n: n >= 2)
    status = run_import(store, paced, concurrency=4, control=control)
    returned = time.monotonic()
    seen["thread"].join()
    paced.close()
    assert status is JobStatus.PAUSED
    # Returned well before the next pacing slot (INTERVAL away) would have come.
    assert returned - seen["at"] < PROMPT, returned - seen["at"]
    sent = _dnc_count(sandbox)
    assert sent == seen["count"] == store.counts()["inserted"]
    time.sleep(0.3)
    assert _dnc_count(sandbox) == sent
    unsent = _check_cut_rows(store, journal, Outcome.INSERTED)
    assert len(unsent) == ROWS - sent

    fast = _session(sandbox, journal, None)
    assert run_import(store, fast, concurrency=4) is JobStatus.FINISHED
    fast.close()
    numbers = [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")]
    assert sorted(numbers) == PHONES
    counts = store.counts()
    assert (counts["inserted"], counts["pending"], counts["failed"]) == (ROWS, 0, 0)
    # The resume sent the cut rows as first sends, not as rows that may have been done.
    assert not any("when the job was resumed" in r.message for r in store.rows())


def test_a_paced_removal_stops_sending_at_once_and_resumes_each_row_once(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([(p, "1", "0", "", "") for p in PHONES])
    src = tmp_path / "remove.csv"
    src.write_text("phone\n" + "".join(f"{p}\n" for p in PHONES))
    paced = _session(sandbox, journal, PER_MINUTE)
    store, _ = stage_removal(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=paced.connection
    )
    control = JobControl()
    seen = _stop_when(sandbox, control, lambda n: n <= ROWS - 2)
    status = run_removal(store, paced, concurrency=4, control=control)
    returned = time.monotonic()
    seen["thread"].join()
    paced.close()
    assert status is JobStatus.PAUSED
    assert returned - seen["at"] < PROMPT, returned - seen["at"]
    left = _dnc_count(sandbox)
    assert left == seen["count"] == ROWS - store.counts()["removed"]
    time.sleep(0.3)
    assert _dnc_count(sandbox) == left
    unsent = _check_cut_rows(store, journal, Outcome.REMOVED)
    assert unsent == sorted(r["phone_number"] for r in sandbox.store.all("SELECT * FROM dnc"))

    fast = _session(sandbox, journal, None)
    assert run_removal(store, fast, concurrency=4) is JobStatus.FINISHED
    fast.close()
    assert _dnc_count(sandbox) == 0
    counts = store.counts()
    assert (counts["removed"], counts["not_found"], counts["pending"]) == (ROWS, 0, 0)
    assert not any("when the job was resumed" in r.message for r in store.rows())


# ---------------------------------------------------------------------- the transport


def _ok() -> httpx.Response:
    return httpx.Response(200, json={"success": True, "id": 7})


def test_a_stop_during_the_pacing_wait_cancels_at_once_and_sends_nothing() -> None:
    sent: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request.url.path)
        return _ok()

    t = Transport(
        "http://dnc.test", TOKEN, requests_per_minute=6, http_transport=httpx.MockTransport(handler)
    )
    stop = threading.Event()
    t.call("/dnc/insert", {}, idempotent=True, stop_before_send=stop)  # takes the first slot
    assert len(sent) == 1
    outcome: dict[str, Any] = {}

    def second() -> None:
        started = time.monotonic()
        try:
            t.call("/dnc/insert", {}, idempotent=True, stop_before_send=stop)
        except Cancelled:
            outcome["cancelled"] = True
        outcome["took"] = time.monotonic() - started

    thread = threading.Thread(target=second)
    thread.start()
    time.sleep(0.2)  # waiting for its slot, 10 s away
    stop.set()
    thread.join(5)
    assert outcome.get("cancelled") is True
    assert outcome["took"] < 1.0
    assert len(sent) == 1
    # Already set: not even a first attempt.
    with pytest.raises(Cancelled):
        t.call("/dnc/insert", {}, idempotent=True, stop_before_send=stop)
    assert len(sent) == 1
    t.close()


def test_a_stop_after_the_first_attempt_was_sent_does_not_cut_its_retries() -> None:
    stop = threading.Event()
    attempts: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        attempts.append(len(attempts) + 1)
        if len(attempts) == 1:
            stop.set()  # Ctrl+C while the first attempt is at the service
            return httpx.Response(503)
        return _ok()

    t = Transport(
        "http://dnc.test",
        TOKEN,
        retry=RetryPolicy(attempts=3, base_delay=0.01, max_delay=0.02),
        requests_per_minute=120,  # the retry waits 0.5 s for its slot, stop set all along
        http_transport=httpx.MockTransport(handler),
    )
    body, used = t.call("/dnc/insert", {}, idempotent=True, stop_before_send=stop)
    assert (body["id"], used, attempts) == (7, 2, [1, 2])
    t.close()
