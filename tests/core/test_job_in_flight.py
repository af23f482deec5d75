"""A job runs a few more worker threads than its concurrency, and the service still never has
more than ``concurrency`` of its requests at once (the transport's in-flight gate).

The sandbox counts the requests it is answering; its high-water mark is the bound as the
service sees it. A stop while workers wait for a slot sends nothing more: those rows are
pending again and their journal intents ``not_attempted``.
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
from app.api.concurrency import InFlightGate, bounded_map, in_flight_gate
from app.api.scope import Scope
from app.core import job_runner
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_runner import JobControl, workers_for
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, Outcome, RowState
from app.core.journal import ChangeJournal
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN

PHONES = [f"202555{i + 1:04d}" for i in range(60)]
# How long the test waits for what it holds the job for: only a broken job takes this long.
WAIT = 30.0


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _session(sandbox: Any, journal: ChangeJournal) -> Session:
    return Session(
        Connection("Sandbox", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal
    )


def _csv(path: Path, phones: list[str]) -> Path:
    path.write_text("phone\n" + "".join(f"{p}\n" for p in phones))
    return path


def test_workers_exceed_concurrency_only_from_four_requests_up() -> None:
    assert [workers_for(n) for n in (1, 2, 3)] == [1, 2, 3]
    assert workers_for(4) == 5 and workers_for(16) == 20 and workers_for(32) == 40


@pytest.mark.parametrize("concurrency", [4, 8])
def test_an_import_never_has_more_requests_at_the_service_than_its_concurrency(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path, concurrency: int
) -> None:
    sandbox.set_faults(latency_ms=30)
    session = _session(sandbox, journal)
    store, _ = stage_import(
        JobSettings(_csv(tmp_path / "in.csv", PHONES), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    sandbox.faults.most_in_flight = 0
    assert run_import(store, session, concurrency=concurrency) is JobStatus.FINISHED
    session.close()
    # More threads than slots ran (a gate without a bound would show workers_for here), and
    # every slot was used.
    assert workers_for(concurrency) > concurrency
    assert sandbox.faults.most_in_flight == concurrency
    assert store.counts()["inserted"] == len(PHONES)


def test_a_removal_with_its_look_ups_keeps_the_same_bound(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([(p, "1", "0", "", "") for p in PHONES])
    sandbox.set_faults(latency_ms=30)
    session = _session(sandbox, journal)
    store, _ = stage_removal(
        JobSettings(_csv(tmp_path / "out.csv", PHONES), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    sandbox.faults.most_in_flight = 0
    assert run_removal(store, session, concurrency=4) is JobStatus.FINISHED
    session.close()
    assert sandbox.faults.most_in_flight == 4
    assert store.counts()["removed"] == len(PHONES)


class _HoldingWire(httpx.HTTPTransport):
    """A real transport that holds each insert until the test releases them, and says when
    ``holding`` of them are held (each on a thread that has taken a slot of the gate)."""

    def __init__(self, holding: int) -> None:
        super().__init__()
        self.inserts = 0  # inserts that reached the wire
        self.held = threading.Event()
        self.release = threading.Event()
        self._holding = holding
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/insert"):
            with self._lock:
                self.inserts += 1
                if self.inserts == self._holding:
                    self.held.set()
            self.release.wait(WAIT)
        return super().handle_request(request)


def _until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def test_a_stop_while_workers_wait_for_a_slot_sends_nothing_more(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The test lets the held requests be answered right after the stop; cutting them off is
    # another test's (on a loaded machine the 2 s can pass before the test gets to run).
    monkeypatch.setattr(job_runner, "ABANDON_AFTER", 10 * WAIT)
    wire = _HoldingWire(holding=4)
    session = Session(
        Connection("Sandbox", sandbox.base_url),
        ApiClient(sandbox.base_url, TOKEN, http_transport=wire),
        journal,
    )
    store, _ = stage_import(
        JobSettings(_csv(tmp_path / "in.csv", PHONES[:12]), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    job = str(store.meta()["job_id"])
    control = JobControl()
    ended: list[JobStatus] = []
    run = threading.Thread(
        target=lambda: ended.append(run_import(store, session, concurrency=4, control=control))
    )
    run.start()
    try:
        # Four slots, five workers: four inserts on the wire, held, and the fifth worker has
        # taken a row and waits for a slot (its intent is journaled only when its request
        # goes to the wire, so the row's state shows it).
        assert wire.held.wait(WAIT), "four inserts never reached the service"
        _until(
            lambda: sum(r.state == RowState.SENDING.value for r in store.rows()) == 5,
            "no fifth worker took a row",
        )
        assert sum(e.phase == "intent" for e in journal.query(job=job)) == 4
    finally:
        control.suspend()
        wire.release.set()  # after the stop: no slot is free before it
        run.join(WAIT)
    assert ended == [JobStatus.PAUSED]
    rows = list(store.rows())
    done = [r for r in rows if r.state == RowState.DONE.value]
    waiting = [r for r in rows if r.state != RowState.DONE.value]
    # The requests in flight finished; nothing else was sent (the run's threads have all
    # ended), and nothing is left "sending".
    assert wire.inserts == 4
    assert len(done) == 4 and {r.outcome for r in done} == {Outcome.INSERTED.value}
    assert {(r.state, r.outcome) for r in waiting} == {(RowState.PENDING.value, "")}
    assert int(sandbox.store.one("SELECT COUNT(*) AS n FROM dnc")["n"]) == 4
    cut = [e for e in journal.query(job=job) if e.outcome == "not_attempted"]
    # The worker that had taken a fifth row and waited for a slot gave it back unsent.
    assert len(cut) == 1 and cut[0].phone == f"+1{waiting[0].national}"

    assert run_import(store, session, concurrency=4) is JobStatus.FINISHED
    session.close()
    assert store.counts()["inserted"] == 12 and wire.inserts == 12
    assert not any("when the job was resumed" in r.message for r in store.rows())


def test_the_gate_is_handed_to_the_workers_and_waits_can_be_cut() -> None:
    seen: list[InFlightGate | None] = []

    def work(n: int) -> int:
        seen.append(in_flight_gate())
        return n

    assert len(list(bounded_map(work, range(20), concurrency=2, workers=5))) == 20
    gates = set(map(id, seen))
    assert len(gates) == 1 and seen[0] is not None and seen[0].size == 2
    seen.clear()
    list(bounded_map(work, range(5), concurrency=2))
    assert seen == [None] * 5  # no spare workers, no gate: requests go straight out
    assert in_flight_gate() is None  # the calling thread never gets one

    gate = InFlightGate(1)
    stop = threading.Event()
    assert gate.enter(None, stop)
    threading.Timer(0.1, stop.set).start()
    started = time.monotonic()
    assert not gate.enter(None, stop)  # full: waits until stopped, takes nothing
    assert time.monotonic() - started < 1.0
    gate.leave()
    assert gate.enter(None, None) and gate.most_in_flight == 1
