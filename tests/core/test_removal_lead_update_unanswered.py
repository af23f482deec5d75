"""S18 H1b #3 (README "Remove", --lead-status): a lead update the service failed (a 5xx) or
never answered, after the client's own retries, ended the row `removed` saying the lead "keeps
its status": after a timeout or a 5xx the update may have been done, and the row did not say
how to set it. Now it says the lead may not have been set, the service not answering whether
it was, and to set it on the service; an update the service refused (a 4xx) still says the
lead keeps its status, and how to set it too.

Against the sandbox over loopback HTTP; the transport answers the /leads/update requests."""

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
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.lead_wire import seed_leads

UPDATE = "/v1/leads/update"


class Wire(httpx.BaseTransport):
    """To the sandbox, but ``update`` (when set) answers each /leads/update request."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.update: Callable[[httpx.Request], httpx.Response] | None = None
        self.updates = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == UPDATE:
            self.updates += 1
            if self.update is not None:
                return self.update(request)
        return self._http.handle_request(request)

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


def _remove(session: Session, tmp_path: Path, sandbox: Any) -> tuple[JobStore, str, str, str]:
    # Listed only as 13035550150: its delete re-statuses the lead holding those digits; the
    # number's other lead is set by its own /leads/update after it.
    sandbox.bulk_seed_dnc([("13035550150", "1", "0", "another tool", "")])
    list_id = session.api.insert_list("Denver leads list", session.api.campaigns()[0].id)
    plain, code = seed_leads(
        sandbox, list_id, [("3035550150", "1", "", "", "NEW"), ("13035550150", "1", "", "", "NEW")]
    )
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n3035550150\n")
    settings = JobSettings(path, Scope.global_(), note="consumer asked", lead_status="CALLBK")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    status = run_removal(store, session, concurrency=1, control=JobControl())
    assert status is JobStatus.FINISHED
    return store, list_id, plain, code


def _failing(request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        503, json={"success": False, "error": {"code": 5000, "message": "try later"}}
    )


def _refused(request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        400, json={"success": False, "error": {"code": 6071, "message": "lead not found"}}
    )


def test_an_update_the_service_failed_may_have_been_done_and_says_how_to_set_it(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    wire.update = _failing

    store, list_id, plain, code = _remove(session, tmp_path, sandbox)

    (row,) = store.rows()
    assert row.outcome == "removed"
    assert wire.updates == 2  # the client's own retry: no answer said whether it was done
    assert f"lead {code} (list {list_id}) NEW→CALLBK" in row.message
    assert "keeps its status" not in row.message
    assert (
        "; may not have been set to CALLBK: the service did not answer whether the update was "
        f"done (the change journal has each attempt): lead {plain} (list {list_id}): "
    ) in row.message
    assert row.message.endswith("; set it to CALLBK on the service (its lead update)")


def test_an_update_the_service_refused_keeps_its_status_and_says_how_to_set_it(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    wire.update = _refused

    store, list_id, plain, _code = _remove(session, tmp_path, sandbox)

    (row,) = store.rows()
    assert row.outcome == "removed"
    assert (
        "; not set to CALLBK (the change journal has each attempt), so each keeps its status: "
        f"lead {plain} (list {list_id}): "
    ) in row.message
    assert "may not have been set" not in row.message
    assert row.message.endswith("; set it to CALLBK on the service (its lead update)")
