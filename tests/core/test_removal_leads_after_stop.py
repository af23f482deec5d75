"""S18 H1 #1 (issue 4, README "Remove"): a removal with --lead-status stopped between a
row's delete and
its lead updates. The row ended `removed` with the number's other leads unset ("the job was
stopped"), and a --resume never went back for them. Now a stop (Ctrl+C, a failing service)
leaves the row for the resume, which sets them, each update journaled once; a cancel ends it
`removed` naming each lead not set and how to set it.

Against the sandbox over loopback HTTP; the transport stops the job when the delete is
answered, before any lead update is sent."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.job_runner import JobControl
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.lead_wire import seed_leads

GLOBAL = Scope.global_()
DELETE = "/v1/dnc/delete"
UPDATE = "/v1/leads/update"


class Wire(httpx.BaseTransport):
    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.sent: list[tuple[str, dict[str, str]]] = []
        self.after_delete: Callable[[], None] | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        params = dict(parse_qsl(request.content.decode("utf-8")))
        params.pop("auth_token", None)
        self.sent.append((request.url.path, params))
        response = self._http.handle_request(request)
        if request.url.path == DELETE and self.after_delete is not None:
            self.after_delete()
        return response

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def wire() -> Wire:
    return Wire()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Wire) -> Iterator[Session]:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    retry = RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01)
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=retry)
    s = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    yield s
    s.close()
    journal.close()


def _stage(session: Session, tmp_path: Path, lines: list[str], lead_status: str) -> JobStore:
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n" + "".join(f"{line}\n" for line in lines))
    settings = JobSettings(path, GLOBAL, note="consumer asked", lead_status=lead_status)
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    return store


def _statuses(sandbox: Any) -> dict[str, str]:
    return {str(r["id"]): str(r["status"]) for r in sandbox.store.all("SELECT * FROM leads")}


def _seed(sandbox: Any, session: Session) -> tuple[str, str, str, str]:
    # Listed only as 13035550140: its delete re-statuses the lead holding those digits, the
    # number's other two leads are set by their own /leads/update after it.
    sandbox.bulk_seed_dnc([("13035550140", "1", "0", "another tool", "")])
    list_id = session.api.insert_list("Denver leads list", session.api.campaigns()[0].id)
    plain, code, spaced = seed_leads(
        sandbox,
        list_id,
        [
            ("3035550140", "1", "", "", "NEW"),
            ("13035550140", "1", "", "", "NEW"),
            ("(303) 555-0140", "1", "", "", "NEW"),
        ],
    )
    return list_id, plain, code, spaced


def _updates(session: Session, job: str) -> list[tuple[str, str]]:
    """(lead id, outcome) of each lead update the journal has of the job, in order."""
    entries = list(reversed(session.journal.query(job=job, operation="lead.update")))
    ids = {e.id: (e.before or {}).get("id", "") for e in entries if e.phase == "intent"}
    return [(str(ids[e.ref]), str(e.outcome)) for e in entries if e.phase == "outcome"]


def test_a_stop_after_the_delete_leaves_the_leads_to_the_resume(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    list_id, plain, code, spaced = _seed(sandbox, session)
    store = _stage(session, tmp_path, ["3035550140"], "CALLBK")
    control = JobControl()
    # Ctrl+C (a suspend) the moment the delete is answered, before the lead updates.
    wire.after_delete = control.suspend

    assert run_removal(store, session, concurrency=1, control=control) is JobStatus.PAUSED

    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    assert _statuses(sandbox) == {plain: "NEW", code: "CALLBK", spaced: "NEW"}
    # Not ended "removed" with two leads unset: left for the resume.
    (row,) = store.rows()
    assert (row.state, row.outcome) == ("sending", "")
    assert store.counts()["pending"] == 1
    wire.after_delete = None

    assert run_removal(store, session, concurrency=1, control=JobControl()) is JobStatus.FINISHED

    assert _statuses(sandbox) == {plain: "CALLBK", code: "CALLBK", spaced: "CALLBK"}
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert row.message.endswith(
        f"re-statused 2 leads: lead {plain} (list {list_id}) NEW→CALLBK, lead {spaced} (list "
        f"{list_id}) NEW→CALLBK"
    )
    assert f"lead {code} (list {list_id}) NEW→CALLBK" in row.message
    assert "not set" not in row.message
    # Each lead written once: the stopped update was never sent (one not_attempted, no
    # request), and no update of the lead the delete set.
    job = str(store.meta()["job_id"])
    assert [p["lead_id"] for path, p in wire.sent if path == UPDATE] == [plain, spaced]
    assert _updates(session, job) == [(plain, "not_attempted"), (plain, "ok"), (spaced, "ok")]
    assert [path for path, _ in wire.sent].count(DELETE) == 1


def test_a_cancel_after_the_delete_names_each_lead_not_set_and_how_to_set_it(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    list_id, plain, code, spaced = _seed(sandbox, session)
    store = _stage(session, tmp_path, ["3035550140"], "CALLBK")
    control = JobControl()
    wire.after_delete = control.cancel

    assert run_removal(store, session, concurrency=1, control=control) is JobStatus.CANCELLED

    assert _statuses(sandbox) == {plain: "NEW", code: "CALLBK", spaced: "NEW"}
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert row.message.endswith(
        f"re-statused 1 lead: lead {code} (list {list_id}) NEW→CALLBK; whether the number's "
        "other entries still list this lead could not be looked up (the job was stopped "
        f"first), so it is counted as not checked: lead {code} (list {list_id}) may stay on "
        "the DNC list through the number's other entries (not checked), yet the service set "
        "it to CALLBK too: check its status; not "
        "set to CALLBK, as the job was cancelled before their updates were sent, so each keeps "
        f"its status: lead {plain} (list {list_id}, NEW) and lead {spaced} (list {list_id}, "
        "NEW); set each to CALLBK on the service (its lead update)"
    )
    assert [path for path, _ in wire.sent].count(UPDATE) == 0
