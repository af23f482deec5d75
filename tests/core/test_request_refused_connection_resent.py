"""Black-box pass L2 #1: a row whose request never reached the service stays to be sent.

A removal resumed after a kill sent its rows again; the service then shut down, refusing new
connections while still answering the requests it had. The resent rows whose delete met a
refused connection were held as unanswered and ended ``failed`` for good when those answers
came in ("no answer from the service: … Connection refused"), and the next resume never sent
them: the numbers stayed listed. A refused connection sends nothing, so such a row is sent
again (later in the run, or by the resume), in a removal and in an import alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_runner import JobAborted
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, utc_now
from app.core.journal import ChangeJournal
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.lead_wire import Forwarding, seed_leads, wired_session

# One attempt per request: the refused write is not retried by the client (which would reach
# the sandbox started again), so the row's send ends with the connection error.
ONE_ATTEMPT = RetryPolicy(attempts=1)


class ShutdownBeforeWrite(httpx.HTTPTransport):
    """A real HTTP transport that stops the sandbox just before the first ``endpoint`` request
    for ``number`` (which then meets a refused connection) and starts it again, on the same
    port and database, once that request has failed: the requests after it are answered."""

    def __init__(self, endpoint: str, number: str, restart: Callable[[], None]) -> None:
        super().__init__()
        self.endpoint = endpoint
        self.number = number
        self.restart = restart
        self.stop: Callable[[], None] = lambda: None
        self.refused: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        params = parse_qs(request.content.decode())
        if (
            not self.refused
            and request.url.path.endswith(self.endpoint)
            and params.get("phone_number") == [self.number]
        ):
            self.stop()
            try:
                return super().handle_request(request)
            except httpx.ConnectError:
                self.refused.append(self.number)
                raise
            finally:
                self.restart()
        return super().handle_request(request)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "sandbox.db"


@pytest.fixture
def outage(make_sandbox: Any, db: Path) -> Callable[[str, str], tuple[Session, list[Any]]]:
    """A session whose sandbox shuts down before the first ``endpoint`` request for a number
    and comes back at once; returns the session and the sandboxes (the last one serving)."""
    sessions: list[Session] = []

    def make(endpoint: str, number: str) -> tuple[Session, list[Any]]:
        servers = [make_sandbox(db_path=db)]

        def restart() -> None:
            servers.append(make_sandbox(db_path=db, port=servers[0].port))

        wire = ShutdownBeforeWrite(endpoint, number, restart)
        wire.stop = servers[0].stop
        api = ApiClient(servers[0].base_url, TOKEN, retry=ONE_ATTEMPT, http_transport=wire)
        journal = ChangeJournal(db.parent / "journal.sqlite3")
        session = Session(Connection("Sandbox", servers[0].base_url), api, journal)
        sessions.append(session)
        return session, servers

    yield make  # type: ignore[misc]
    for session in sessions:
        session.close()
        session.journal.close()


def _write(tmp_path: Path, numbers: list[str]) -> Path:
    path = tmp_path / "numbers.csv"
    path.write_text("Phone\n" + "\n".join(numbers) + "\n", encoding="utf-8")
    return path


def _listed(server: Any, number: str) -> bool:
    with ApiClient(server.base_url, TOKEN) as api:
        return bool(list(api.iter_dnc(DncQuery(scope=Scope.global_(), phone_number=number))))


NUMBERS = ["3035550301", "3035550302", "3035550303"]


def test_a_resent_rows_delete_refused_a_connection_is_sent_again(
    outage: Callable[[str, str], tuple[Session, list[Any]]], make_sandbox: Any, tmp_path: Path
) -> None:
    session, servers = outage("/dnc/delete", NUMBERS[0])
    servers[0].bulk_seed_dnc([(n, "1", "0", "asked", "") for n in NUMBERS])
    settings = JobSettings(_write(tmp_path, NUMBERS), Scope.global_(), note="repro")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    # As after a kill: the job had started, its first row in flight ("sending").
    store.set_meta({"started": utc_now()})
    store.mark_sending(1)
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    assert len(servers) == 2  # the delete of the first row did meet a stopped service
    rows = {r.national: r for r in store.rows()}
    assert {n: r.outcome for n, r in rows.items()} == dict.fromkeys(NUMBERS, "removed")
    assert "cannot connect" not in rows[NUMBERS[0]].message
    assert not any(_listed(servers[-1], n) for n in NUMBERS)
    s = job_summary(store)
    assert (s["removed"], s["failed"], s["pending"]) == (3, 0, 0)
    outcomes = [
        e.outcome
        for e in session.journal.query(phone=f"+1{NUMBERS[0]}", operation="dnc.delete")
        if e.phase == "outcome"
    ]
    assert sorted(outcomes) == ["failed", "ok"]  # refused, then done when sent again


def test_an_insert_refused_a_connection_is_sent_again(
    outage: Callable[[str, str], tuple[Session, list[Any]]], tmp_path: Path
) -> None:
    session, servers = outage("/dnc/insert", NUMBERS[0])
    settings = JobSettings(_write(tmp_path, NUMBERS), Scope.global_(), note="repro")
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    assert len(servers) == 2
    rows = {r.national: r for r in store.rows()}
    assert {n: r.outcome for n, r in rows.items()} == dict.fromkeys(NUMBERS, "inserted")
    assert all(_listed(servers[-1], n) for n in NUMBERS)


@pytest.fixture
def gone_session(make_sandbox: Any, tmp_path: Path) -> Iterator[tuple[Session, Any]]:
    server = make_sandbox()
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    api = ApiClient(server.base_url, TOKEN, retry=ONE_ATTEMPT)
    session = Session(Connection("Sandbox", server.base_url), api, journal)
    yield session, server
    session.close()
    journal.close()


def test_a_removal_whose_service_is_gone_pauses_with_nothing_failed_and_resumes(
    gone_session: tuple[Session, Any], make_sandbox: Any, tmp_path: Path
) -> None:
    session, server = gone_session
    numbers = [f"30355504{i:02d}" for i in range(30)]
    server.bulk_seed_dnc([(n, "1", "0", "asked", "") for n in numbers])
    settings = JobSettings(_write(tmp_path, numbers), Scope.global_(), note="repro")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    store.set_meta({"started": utc_now()})
    for seq in (1, 2, 3):
        store.mark_sending(seq)  # in flight when an earlier run was killed
    server.stop()
    with pytest.raises(JobAborted, match=r"^The service could not be reached \(connection refused"):
        run_removal(store, session, concurrency=2)
    s = job_summary(store)
    assert (s["status"], s["failed"], s["removed"], s["pending"]) == ("paused", 0, 0, 30)


@pytest.fixture
def wire() -> Forwarding:
    return Forwarding()


@pytest.fixture
def wired(sandbox: Any, tmp_path: Path, wire: Forwarding) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, wire)


def test_a_lead_look_up_refused_a_connection_keeps_the_row_for_a_resume(
    sandbox: Any, wired: Session, wire: Forwarding, tmp_path: Path
) -> None:
    # It ended failed ("no answer from the service: /leads/search: … (nothing was deleted)")
    # after two more tries in the run, the job finishing without it.
    list_id = wired.api.insert_list("Refused list", wired.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("2025550140", "1", "0", "", "")])
    seed_leads(sandbox, list_id, [("2025550140", "1", "", "", "NEW")])

    def refused(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    path = _write(tmp_path, ["2025550140"])
    settings = JobSettings(path, Scope.global_(), note="repro", lead_status="DNC")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=wired.connection)
    wire.fail = refused
    with pytest.raises(JobAborted, match=r"^The service could not be reached \(connection refused"):
        run_removal(store, wired)
    (row,) = store.rows()
    assert (row.state, row.outcome) == ("pending", "")
    assert "/v1/dnc/delete" not in wire.paths
    wire.fail = None
    assert run_removal(store, wired) is JobStatus.FINISHED
    (row,) = store.rows()
    assert row.outcome == "removed", row.message
    assert sandbox.store.one("SELECT status FROM leads")["status"] == "DNC"
