"""Black-box B29 leftover: a removal with --lead-status stopped (Ctrl+C, SIGTERM, a failing
service) after a row's deletes and lead updates and before its "leads still listed" look-up
ended the row `removed` saying only "… not looked up: the job was stopped": its leads were
counted as neither still listed nor not checked (Summary, --json, warning, journal), and a
--resume never made the look-up. Now a stop leaves the row for the resume, which makes it; a
cancel ends the row counting and journaling the leads as not checked.

Against the sandbox over loopback HTTP; the transport stops the job when the delete is
answered, before the look-up after it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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
from app.core.lead_lookup import NOT_CHECKED, still_listed_in
from app.core.removal_job import STILL_LISTED_EVENT, run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.lead_wire import seed_leads

DELETE = "/v1/dnc/delete"


class Wire(httpx.BaseTransport):
    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.after_delete: Callable[[], None] | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
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


def _stage(session: Session, tmp_path: Path) -> JobStore:
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n3035550140\n")
    settings = JobSettings(path, Scope.global_(), note="consumer asked", lead_status="CALLBK")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    return store


def _seed(sandbox: Any, session: Session) -> tuple[str, str]:
    """A lead the global delete re-statuses (no lead update of its own follows), whose
    number stays listed through its campaign's entry."""
    campaign = session.api.campaigns()[0].id
    sandbox.bulk_seed_dnc(
        [("3035550140", "1", "0", "", ""), ("3035550140", "1", str(campaign), "", "")]
    )
    list_id = session.api.insert_list("Denver leads list", campaign)
    (lead,) = seed_leads(sandbox, list_id, [("3035550140", "1", "", "", "NEW")])
    return list_id, lead


def _events(session: Session, store: JobStore) -> list[dict[str, Any]]:
    job = str(store.meta()["job_id"])
    found = session.journal.query(operation=STILL_LISTED_EVENT, job=job)
    return [dict(e.after or {}) for e in found]


def test_a_stop_before_the_look_up_leaves_it_to_the_resume(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    list_id, lead = _seed(sandbox, session)
    store = _stage(session, tmp_path)
    control = JobControl()
    wire.after_delete = control.suspend

    assert run_removal(store, session, concurrency=1, control=control) is JobStatus.PAUSED

    (row,) = store.rows()
    assert (row.state, row.outcome) == ("sending", "")
    assert store.counts()["pending"] == 1
    wire.after_delete = None

    assert run_removal(store, session, concurrency=1, control=JobControl()) is JobStatus.FINISHED

    (row,) = store.rows()
    assert row.outcome == "removed"
    found = still_listed_in(row.message)
    assert found.leads == 1
    assert found.named == [f"lead {lead} (list {list_id})"]
    assert NOT_CHECKED not in found.scopes
    assert "not looked up" not in row.message
    (event,) = _events(session, store)
    assert [x["id"] for x in event["leads"]] == [lead]
    assert "not_checked" not in event


def test_a_cancel_before_the_look_up_counts_the_leads_not_checked(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    list_id, lead = _seed(sandbox, session)
    store = _stage(session, tmp_path)
    control = JobControl()
    wire.after_delete = control.cancel

    assert run_removal(store, session, concurrency=1, control=control) is JobStatus.CANCELLED

    (row,) = store.rows()
    assert row.outcome == "removed"
    found = still_listed_in(row.message)
    assert found.leads == 1
    assert found.named == [f"lead {lead} (list {list_id})"]
    assert found.scopes == [NOT_CHECKED]
    assert "the job was stopped" in row.message
    (event,) = _events(session, store)
    assert [x["id"] for x in event["leads"]] == [lead]
    assert event["not_checked"]
    assert [x["still_listed_by"] for x in event["leads"]] == [[NOT_CHECKED]]
