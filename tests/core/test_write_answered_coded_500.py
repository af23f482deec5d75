"""Re-test U1 #4, #7: a write done and then answered HTTP 500 with an API-shaped failure
(``{"success": false, "code": 6056}``) may have been done, as after any 5xx: it is looked up,
not ended failed; and a ``Retry-After`` given as an HTTP date is waited out.

The sandbox cannot fail a write after doing it, so a client-side transport forwards each
request to the sandbox over loopback and answers the scripted ones itself."""

from __future__ import annotations

import datetime as dt
import email.utils
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from app.api.client import ApiClient
from app.api.errors import ServerError
from app.api.scope import Scope
from app.api.transport import RetryPolicy, _retry_after, decode_response
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_report import MAYBE_INSERTED
from app.core.job_runner import JobStatus
from app.core.job_staging import JobSettings
from app.core.journal import ChangeJournal
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN

TWO_TRIES = RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.002)


class DoneThen500(httpx.BaseTransport):
    """Forwards every request; the first write of each number in ``numbers`` is done by the
    sandbox and answered HTTP 500 with an API-shaped failure."""

    def __init__(self, numbers: set[str], code: int) -> None:
        self._http = httpx.HTTPTransport()
        self.numbers, self.code = numbers, code
        self.seen: set[str] = set()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith(("/insert", "/delete")):
            number = parse_qs(request.content.decode()).get("phone_number", [""])[0]
            if number in self.numbers and number not in self.seen:
                self.seen.add(number)
                self._http.handle_request(request).read()
                body = {"success": False, "error": "insert failed", "code": self.code}
                return httpx.Response(500, json=body, request=request)
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


def _session(sandbox: Any, journal: ChangeJournal, wire: httpx.BaseTransport) -> Session:
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=TWO_TRIES)
    return Session(Connection("Sandbox", sandbox.base_url), api, journal)


def _file(tmp_path: Path, numbers: list[str]) -> Path:
    path = tmp_path / "numbers.csv"
    path.write_text("Phone\n" + "".join(f"{n}\n" for n in numbers))
    return path


def _listed(sandbox: Any) -> set[str]:
    return {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}


def test_an_insert_done_then_answered_500_with_a_code_is_not_failed(
    sandbox: Any, tmp_path: Path
) -> None:
    numbers = ["2025558047", "2025558048"]
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = _session(sandbox, journal, DoneThen500({numbers[0]}, 6056))
    try:
        settings = JobSettings(_file(tmp_path, numbers), Scope.global_())
        store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
        assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
        summary = job_summary(store)
        outcomes = {r.national: r.outcome for r in store.rows()}
    finally:
        session.close()
        journal.close()
    assert _listed(sandbox) == set(numbers)
    assert outcomes == {"2025558047": "already_present", "2025558048": "inserted"}
    assert (summary["failed"], summary[MAYBE_INSERTED]) == (0, 1), summary


def test_a_delete_done_then_answered_500_with_a_code_is_removed(
    sandbox: Any, tmp_path: Path
) -> None:
    numbers = ["3035558047", "3035558147"]
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in numbers])
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = _session(sandbox, journal, DoneThen500(set(numbers), 6004))
    try:
        settings = JobSettings(_file(tmp_path, numbers), Scope.global_(), note="U1 #4")
        store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
        assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
        outcomes = {r.national: r.outcome for r in store.rows()}
    finally:
        session.close()
        journal.close()
    assert _listed(sandbox) == set()
    assert set(outcomes.values()) == {"removed"}, outcomes


def test_a_coded_500_is_a_server_error_keeping_its_code() -> None:
    request = httpx.Request("POST", "http://x/v1/dnc/insert")
    body = {"success": False, "error": "insert failed", "code": 6056}
    with pytest.raises(ServerError) as caught:
        decode_response("/dnc/insert", httpx.Response(500, json=body, request=request))
    assert caught.value.code == 6056 and caught.value.http_status == 500
    assert "HTTP 500" in str(caught.value) and "insert failed" in str(caught.value)


def test_retry_after_as_an_http_date() -> None:
    when = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=20)
    header = {"Retry-After": email.utils.format_datetime(when, usegmt=True)}
    wait = _retry_after(httpx.Response(429, headers=header))
    assert wait is not None and 15 <= wait <= 20
    past = {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}
    assert _retry_after(httpx.Response(429, headers=past)) == 0.0
    assert _retry_after(httpx.Response(429, headers={"Retry-After": "soon"})) is None
    assert _retry_after(httpx.Response(429, headers={"Retry-After": "7"})) == 7.0
