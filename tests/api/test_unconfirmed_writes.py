"""A write is done only when the service says ``success: true`` (black-box finding: answers
``{}``, ``{"status": "ok"}`` and ``{"success": "N"}`` to /dnc/insert were counted inserted, with
nothing on any list; a base URL pointing at some other JSON service "inserted" a whole file).

Mock transports: the sandbox always answers as the spec says, so these answers need one.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api import errors
from app.api.client import ApiClient
from app.api.models import WriteStatus
from app.api.scope import Scope
from app.api.transport import NO_RETRY, RetryPolicy
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_runner import JobAborted
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN

QUICK = RetryPolicy(attempts=3, base_delay=0.001, max_delay=0.002)
URL = "http://127.0.0.1:9"


class Answers(httpx.BaseTransport):
    """Answers each request with the next body (the last one repeats) and counts them."""

    def __init__(self, *bodies: object) -> None:
        self.bodies = list(bodies)
        self.sent: list[str] = []
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        with self._lock:
            self.sent.append(request.url.path)
            body = self.bodies.pop(0) if len(self.bodies) > 1 else self.bodies[0]
        return httpx.Response(200, content=json.dumps(body).encode())


@pytest.mark.parametrize("body", [{}, {"status": "ok"}, {"ok": 1}, {"success": "maybe"}, []])
def test_an_answer_not_saying_success_is_not_taken_for_done(body: object) -> None:
    wire = Answers(body)
    with ApiClient(URL, TOKEN, http_transport=wire, retry=QUICK) as api:
        with pytest.raises(errors.UnconfirmedError) as info:
            api.insert_dnc("3035550101", "1", Scope.global_())
    text = str(info.value)
    assert text.startswith("/dnc/insert: the answer did not say the write was done")
    assert "whether it was done is not known" in text and TOKEN not in text
    # Retried, as a lost answer is, and each retry knows the one before may have been done.
    assert len(wire.sent) == QUICK.attempts
    assert info.value.earlier_attempt_lost


@pytest.mark.parametrize("flag", ["N", "false", "no", 0, "0"])
def test_success_saying_no_is_a_refusal_not_retried(flag: object) -> None:
    wire = Answers({"success": flag})
    with ApiClient(URL, TOKEN, http_transport=wire, retry=QUICK) as api:
        with pytest.raises(errors.ApiError) as info:
            api.delete_dnc("3035550101", "1", Scope.global_())
    assert not isinstance(info.value, errors.UnconfirmedError | errors.ServerError)
    assert len(wire.sent) == 1


@pytest.mark.parametrize("flag", [True, "Y", "true", 1, "1"])
def test_success_in_the_forms_services_send_is_done(flag: object) -> None:
    wire = Answers({"success": flag, "id": 7})
    with ApiClient(URL, TOKEN, http_transport=wire, retry=NO_RETRY) as api:
        result = api.insert_dnc("3035550101", "1", Scope.global_())
    assert (result.status, result.id) == (WriteStatus.DONE, "7")


def test_an_unconfirmed_answer_then_already_present_may_be_the_first_attempts_doing() -> None:
    wire = Answers({}, {"success": False, "error": "Already exists", "code": 100})
    with ApiClient(URL, TOKEN, http_transport=wire, retry=QUICK) as api:
        result = api.insert_dnc("3035550101", "1", Scope.global_())
    assert result.status is WriteStatus.ALREADY_PRESENT, result
    assert result.earlier_attempt_lost


def test_reads_need_no_success_field() -> None:
    wire = Answers({"data": {"offset": 0, "limit": 10, "total": 0, "entries": []}})
    with ApiClient(URL, TOKEN, http_transport=wire, retry=NO_RETRY) as api:
        assert api.search_dnc().items == []


def test_an_import_to_a_service_never_confirming_inserts_nothing(tmp_path: Path) -> None:
    src = tmp_path / "two.csv"
    src.write_text("Phone\n3035550101\n3035550102\n")
    wire = Answers({"status": "ok"})
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    api = ApiClient(URL, TOKEN, http_transport=wire, retry=QUICK)
    session = Session(Connection("Other JSON service", URL), api, journal)
    store, _ = stage_import(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    try:
        status: Any = run_import(store, session, concurrency=2)
    except JobAborted as stopped:
        status = stopped
    summary = job_summary(store)
    assert summary["inserted"] == 0 and summary["already_present"] == 0, (status, summary)
    assert store.status != JobStatus.FINISHED or summary["failed"] == 2
    # The journal never calls such a write done.
    outcomes = {e.outcome for e in journal.query(limit=100) if e.phase == "outcome"}
    assert outcomes and "ok" not in outcomes
    session.close()
    journal.close()
