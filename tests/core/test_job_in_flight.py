"""A job runs a few more worker threads than its concurrency, and the service still never has
more than ``concurrency`` of its requests at once (the transport's in-flight gate).

The sandbox counts the requests it is answering; its high-water mark is the bound as the
service sees it. A stop while workers wait for a slot sends nothing more: those rows are
pending again and their journal intents ``not_attempted``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.concurrency import InFlightGate, bounded_map, in_flight_gate
from app.api.scope import Scope
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


def test_a_stop_while_workers_wait_for_a_slot_sends_nothing_more(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    # Four slots, five workers, answers slow enough that the fifth always waits at the gate.
    sandbox.set_faults(latency_ms=400)
    session = _session(sandbox, journal)
    store, _ = stage_import(
        JobSettings(_csv(tmp_path / "in.csv", PHONES[:12]), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    control = JobControl()
    timer = threading.Timer(0.2, control.suspend)  # the first four are in flight by then
    timer.start()
    assert run_import(store, session, concurrency=4, control=control) is JobStatus.PAUSED
    timer.join()
    rows = list(store.rows())
    done = [r for r in rows if r.state == RowState.DONE.value]
    waiting = [r for r in rows if r.state != RowState.DONE.value]
    # The requests in flight finished; nothing else was sent, and nothing is left "sending".
    assert len(done) == 4 and {r.outcome for r in done} == {Outcome.INSERTED.value}
    assert {(r.state, r.outcome) for r in waiting} == {(RowState.PENDING.value, "")}
    time.sleep(0.5)
    assert int(sandbox.store.one("SELECT COUNT(*) AS n FROM dnc")["n"]) == 4
    job = str(store.meta()["job_id"])
    cut = [e for e in journal.query(job=job) if e.outcome == "not_attempted"]
    # The worker that had taken a fifth row and waited for a slot gave it back unsent.
    assert len(cut) == 1 and cut[0].phone == f"+1{waiting[0].national}"

    sandbox.set_faults(latency_ms=0)
    assert run_import(store, session, concurrency=4) is JobStatus.FINISHED
    session.close()
    assert store.counts()["inserted"] == 12
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
