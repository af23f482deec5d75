"""An "already present" row after a lost answer names its entry even when the service fails
the first look-up for it, and says why when it cannot (black-box N5 #2).

N5 #2: rows 797 of job import-20261123-064346-79fc53 (+12162348094, mid-run, against a service
limiting its rate) and 249 of import-20261123-063217-450246 (+17202341668, right at a SIGTERM)
had their insert's first answer lost and the retry answered "already present"; the look-up for
the entry that follows failed (refused for the rate limit after the client's retries; cut by
the job's stop), and the row said "on the list when the request was retried; … may have
inserted it" with no entry, no date and no word of the look-up, and the journal had no
``dnc.insert.settled`` event. A row with no request date is not looked up again for its
lateness, so nothing made up for it. Now the look-up is made again while the service fails it
(:data:`LOOK_UP_ROUNDS` times in all), and a row whose look-up still fails, or is stopped with
the job, says so.

A forwarding transport passes every request to a sandbox over loopback; it loses the answer to
the first insert of the number (forwarded, so done, then a ReadTimeout) and answers the
number's first searches itself (429 or 503).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from app.api.scope import Scope
from app.core.import_job import LOOK_UP_ROUNDS, run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_report import RETRIED_PRESENT
from app.core.job_runner import JobControl
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.session import Session
from tests.core.lead_wire import wired_session

NUMBER = "2165550794"
INSERT, SEARCH = "/v1/dnc/insert", "/v1/dnc/search"


def _refused(request: httpx.Request) -> httpx.Response:
    body = {"success": False, "error": "Rate limit exceeded; retry later"}
    return httpx.Response(429, json=body, headers={"Retry-After": "1"}, request=request)


def _failed(request: httpx.Request) -> httpx.Response:
    page = "<html><body>Service Unavailable</body></html>"
    return httpx.Response(503, text=page, request=request)


class Wire(httpx.BaseTransport):
    """Forwards every request to the sandbox; loses the answer to the first insert of
    :data:`NUMBER`, and answers its first ``searches_failed`` searches with ``answer``.
    ``on_retry`` runs when the insert's second attempt has been answered."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.inserts = 0
        self.searches = 0
        self.searches_failed = 0
        self.answer: Callable[[httpx.Request], httpx.Response] = _refused
        self.on_retry: Callable[[], None] | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        params = dict(request.url.params)
        params.update({k: v[0] for k, v in parse_qs(request.content.decode()).items()})
        if params.get("phone_number") != NUMBER:
            return self._http.handle_request(request)
        if request.url.path == INSERT:
            self.inserts += 1
            response = self._http.handle_request(request)
            response.read()
            if self.inserts == 1:
                response.close()
                raise httpx.ReadTimeout("timed out reading the answer", request=request)
            if self.on_retry is not None:
                self.on_retry()
            return response
        if request.url.path == SEARCH:
            self.searches += 1
            if self.searches <= self.searches_failed:
                return self.answer(request)
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def wire() -> Wire:
    return Wire()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Wire) -> Iterator[Session]:
    # Through ``wire``, two attempts a request (so two refusals fail a look-up's round).
    yield from wired_session(sandbox, tmp_path, wire)  # type: ignore[arg-type]


def _import(session: Session, tmp_path: Path, control: JobControl | None = None) -> JobStore:
    path = tmp_path / "import.csv"
    path.write_text(f"Phone\n{NUMBER}\n", encoding="utf-8")
    store, _ = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    run_import(store, session, concurrency=1, control=control)
    return store


def _settled(session: Session) -> list[str]:
    events = session.journal.query(phone=f"+1{NUMBER}", operation="dnc.insert.settled")
    return [str((e.after or {}).get("settled", "")) for e in events]


@pytest.mark.parametrize("answer", [_refused, _failed], ids=["429", "503"])
def test_a_look_up_the_service_fails_once_is_made_again_and_names_the_entry(
    sandbox: Any,
    session: Session,
    wire: Wire,
    tmp_path: Path,
    answer: Callable[[httpx.Request], httpx.Response],
) -> None:
    wire.answer, wire.searches_failed = answer, 2  # both attempts of the first look-up
    store = _import(session, tmp_path)
    (row,) = store.rows()
    sql = "SELECT id, insert_date FROM dnc WHERE phone_number = ?"
    (entry,) = sandbox.store.all(sql, (NUMBER,))
    assert row.outcome == "already_present"
    found = f"entry {entry['id']} found, inserted {entry['insert_date']} by the service's clock"
    assert row.message == f"{RETRIED_PRESENT}; {found}; answered after 2 attempts", row.message
    assert wire.searches == 3  # one round refused twice, then answered
    (settled,) = _settled(session)
    assert settled == f"{RETRIED_PRESENT}; {found}"
    assert job_summary(store)["already_present_maybe_inserted"] == 1


def test_a_look_up_failing_every_time_is_said_on_the_row(
    session: Session, wire: Wire, tmp_path: Path
) -> None:
    wire.answer, wire.searches_failed = _failed, 100
    store = _import(session, tmp_path)
    (row,) = store.rows()
    assert row.outcome == "already_present"
    assert row.message.startswith(
        f"{RETRIED_PRESENT}; its entry could not be looked up (the look-up failed: "
    ), row.message
    assert "503" in row.message and row.message.endswith("; answered after 2 attempts")
    assert wire.searches == 2 * LOOK_UP_ROUNDS  # each round with the client's two attempts
    assert _settled(session) == []  # nothing was found to settle it
    assert job_summary(store)["already_present_maybe_inserted"] == 1


def test_a_look_up_the_job_stop_cuts_short_is_said_on_the_row(
    session: Session, wire: Wire, tmp_path: Path
) -> None:
    # A SIGTERM just as the retry is answered: a stopping job sends no look-up.
    control = JobControl()
    wire.on_retry = control.suspend
    store = _import(session, tmp_path, control)
    (row,) = store.rows()
    assert row.outcome == "already_present"
    assert row.message == (
        f"{RETRIED_PRESENT}; its entry could not be looked up (the look-up was stopped with "
        "the job); answered after 2 attempts"
    ), row.message
    assert wire.searches == 0
    assert store.meta()["status"] in (JobStatus.FINISHED.value, JobStatus.PAUSED.value)
