"""A service whose writes hang while its look-ups answer stops the job for a resume once no
write has been answered for SILENT_STOP_AFTER seconds (black-box R2 #2: a 20-row import whose
inserts hung kept busy for 7.6 minutes, 122 inserts sent, as each answered search restarted the
wait of the rule for a service answering nothing at all; its stop named no duration). The
sentence says for how long no write was answered, since when, and the oldest write waiting,
names the rows left open, and the resume finishes every row once.

The service is the sandbox behind the loopback Gateway of test_job_hung_service_stop, which
reads the requests to the paths it is told to hang and never answers them.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from app.api import concurrency
from app.api.client import ApiClient
from app.api.concurrency import InFlightGate
from app.api.scope import Scope
from app.core import job_runner
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_runner import JobAborted
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.test_job_hung_service_stop import (
    PHONES,
    Gateway,
    Run,
    _csv,
    _session,
    gateway,
    journal,
)

__all__ = ["gateway", "journal"]  # fixtures, used by name

# The client's timeout here: each row's 4 insert attempts end within about 3.5 s and its
# look-up is answered, so answers keep coming well inside STOP_AFTER and the rule for a service
# answering nothing at all does not fire; only the one for writes can.
QUICK_TIMEOUT = 0.5
STOP_AFTER = 8.0


def _quick_session(gateway: Gateway, journal: ChangeJournal) -> Session:
    api = ApiClient(gateway.base_url, TOKEN, timeout=QUICK_TIMEOUT)
    return Session(Connection("Gateway", gateway.base_url), api, journal)


def _stopped(run: Run) -> str:
    # Without the rule, each row goes on with its sends and look-ups until it ends failed.
    assert run.ended.wait(60), "the job went on against a service that answered no write"
    stopped = run.result
    assert isinstance(stopped, JobAborted), stopped
    return str(stopped)


def test_an_import_whose_inserts_hang_while_look_ups_answer_stops_for_a_resume(
    sandbox: Any,
    gateway: Gateway,
    journal: ChangeJournal,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gateway.hang = {"/v1/dnc/insert"}  # the searches after each insert are answered
    session = _quick_session(gateway, journal)
    store, _ = stage_import(
        JobSettings(_csv(tmp_path), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    monkeypatch.setattr(job_runner, "SILENT_STOP_AFTER", STOP_AFTER)  # not the app's 3 minutes
    run = Run(lambda control, progress: run_import(
        store, session, concurrency=2, control=control, progress=progress
    ))  # fmt: skip
    text = _stopped(run)
    assert "/v1/dnc/search" in gateway.received  # look-ups were answered meanwhile
    assert text.startswith("The service stopped answering writes (no write answered for "), text
    assert (
        " s, since " in text
        and (
            f" UTC, while look-ups were; the oldest write unanswered was to "
            f"{gateway.base_url}/v1/dnc/insert); the job was stopped and can be resumed. "
            "Not known whether inserted, as the insert was sent"
        )
        in text
    ), text
    assert "(+120255501" in text  # the rows left open are named
    assert store.status == JobStatus.PAUSED
    assert job_summary(store)["pending"] == len(PHONES)
    session.close()

    # Once the service answers, the resume finishes every row, each on the list once.
    gateway.hang = set()
    session = _session(gateway, journal)
    assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    s = job_summary(store)
    assert s["inserted"] + s["already_present"] == len(PHONES), s
    assert s["failed"] == s["pending"] == 0, s
    listed = [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")]
    assert sorted(listed) == sorted(PHONES)
    session.close()


def test_a_removal_whose_deletes_hang_while_look_ups_answer_stops_for_a_resume(
    sandbox: Any,
    gateway: Gateway,
    journal: ChangeJournal,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as direct:
        for phone in PHONES:
            direct.insert_dnc(phone, "1", Scope.global_())
    gateway.hang = {"/v1/dnc/delete"}  # the look-ups before and after the deletes answer
    session = _quick_session(gateway, journal)
    store, _ = stage_removal(
        JobSettings(_csv(tmp_path), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    monkeypatch.setattr(job_runner, "SILENT_STOP_AFTER", STOP_AFTER)
    run = Run(lambda control, progress: run_removal(
        store, session, concurrency=2, control=control, progress=progress
    ))  # fmt: skip
    text = _stopped(run)
    assert text.startswith("The service stopped answering writes (no write answered for "), text
    assert f"the oldest write unanswered was to {gateway.base_url}/v1/dnc/delete); " in text
    assert "Not known whether removed, as the delete was sent" in text, text
    assert store.status == JobStatus.PAUSED
    session.close()

    gateway.hang = set()
    session = _session(gateway, journal)
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    s = job_summary(store)
    assert s["removed"] + s["not_found"] == len(PHONES), s
    assert s["failed"] == s["pending"] == 0, s
    assert sandbox.store.all("SELECT phone_number FROM dnc") == []
    session.close()


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    """The gate's clock, moved by hand."""
    fake = _Clock()
    monkeypatch.setattr(concurrency, "time", SimpleNamespace(monotonic=fake.monotonic))
    return fake


def _request(gate: InFlightGate, url: str, answered: bool) -> None:
    assert gate.enter()
    gate.sent(url)
    gate.leave(answered)


WRITE = "http://svc/v1/dnc/insert"
READ = "http://svc/v1/dnc/search"


def test_answered_look_ups_do_not_hide_writes_left_unanswered(clock: _Clock) -> None:
    gate = InFlightGate(2)
    _request(gate, WRITE, answered=False)
    for _ in range(10):
        clock.now += 20
        _request(gate, READ, answered=True)
        _request(gate, WRITE, answered=False)
    assert gate.waiting(60) is None  # answers kept coming
    assert gate.waiting_writes(60) == (1000.0, WRITE)  # but to no write since the first
    _request(gate, WRITE, answered=True)
    assert gate.waiting_writes(60) is None


def test_a_stretch_of_look_ups_alone_ends_a_run_of_unanswered_writes(clock: _Clock) -> None:
    # A removal's rows not on the list send look-ups only: a delete left unanswered before
    # them does not make the next delete, sent minutes later, look unanswered for minutes.
    gate = InFlightGate(2)
    _request(gate, WRITE, answered=False)
    for _ in range(10):
        clock.now += 20
        _request(gate, READ, answered=True)
    assert gate.waiting_writes(60) is None  # no write waiting any more
    assert gate.enter()
    gate.sent(WRITE)  # on the wire, not yet answered
    assert gate.waiting_writes(60) is None
    clock.now += 61
    assert gate.waiting_writes(60) == (1200.0, WRITE)
    gate.leave(True)
    assert gate.waiting_writes(60) is None
