"""A cancel that comes after a write's attempts were sent says what they did: a row refused
for the rate limit (HTTP 429) is not "cancelled before it was sent", and a write whose
answer was lost is "unknown" in the change journal, not "not attempted"."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx

from app.api.client import ApiClient
from app.api.errors import RateLimitedError
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.import_job import stage_import
from app.core.job_runner import RESUMED_SENT, JobControl, JobRunner, RowResult
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStatus, Outcome
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN


def _staged(tmp_path: Path, rows: int) -> Any:
    src = tmp_path / "in.csv"
    src.write_text("phone\n" + "".join(f"202555{i + 1:04d}\n" for i in range(rows)))
    store, _ = stage_import(JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=None)
    return store


def _refused(attempts: int) -> RateLimitedError:
    error = RateLimitedError("/dnc/insert", "Rate limit exceeded", retry_after=1.0)
    error.attempts = attempts
    return error


def test_a_row_refused_for_the_rate_limit_then_cancelled_says_so(tmp_path: Path) -> None:
    store = _staged(tmp_path, 5)
    control = JobControl()

    def send(row: JobRow, resent: bool) -> RowResult:
        if row.row_number == 2:
            raise _refused(3)  # the client's three attempts, each answered 429
        if row.row_number == 3:
            control.cancel()  # while row 2 waits to be sent again
        return RowResult(Outcome.INSERTED, "")

    assert JobRunner(store, send, concurrency=1, control=control).run() is JobStatus.CANCELLED
    messages = {r.row_number: (r.outcome, r.message) for r in store.rows()}
    assert messages[2] == (
        "not_attempted",
        "cancelled: refused 3 times for the service's rate limit (HTTP 429), then cancelled "
        "before it was sent again; not done",
    )
    assert messages[3] == ("inserted", "")
    # Rows never sent keep the plain wording.
    assert messages[4] == messages[5] == ("not_attempted", "cancelled before it was sent")
    store.close()


def test_a_row_sent_again_after_an_interruption_does_not_claim_nothing_was_done(
    tmp_path: Path,
) -> None:
    store = _staged(tmp_path, 3)
    for row in store.unfinished():
        if row.row_number == 2:
            store.mark_sending(row.seq)  # in flight when the process was killed
    store.flush()
    control = JobControl()

    def send(row: JobRow, resent: bool) -> RowResult:
        if row.row_number == 2:
            assert resent
            raise _refused(1)
        control.cancel()
        return RowResult(Outcome.INSERTED, "")

    JobRunner(store, send, concurrency=1, control=control).run()
    message = next(r.message for r in store.rows() if r.row_number == 2)
    assert message == (
        # A plain send function cannot tell whether its earlier send left (S21 K2).
        f"{RESUMED_SENT}; cancelled: refused once for the service's rate limit (HTTP 429), then "
        "cancelled before it was sent again"
    )
    store.close()


def test_a_row_answered_after_a_429_in_a_later_pass_keeps_its_answer(tmp_path: Path) -> None:
    store = _staged(tmp_path, 3)
    control = JobControl()
    calls: dict[int, int] = {}

    def send(row: JobRow, resent: bool) -> RowResult:
        calls[row.row_number] = calls.get(row.row_number, 0) + 1
        if row.row_number == 2 and calls[2] == 1:
            raise _refused(2)
        if row.row_number == 2:
            control.cancel()  # the second pass: row 2 went through
        return RowResult(Outcome.INSERTED, "")

    JobRunner(store, send, concurrency=1, control=control).run()
    assert [r.outcome for r in store.rows()] == ["inserted"] * 3
    store.close()


class LosesFirstAnswer(httpx.BaseTransport):
    """Passes the first request to the sandbox (so the write is done), then loses its answer
    as a dropped connection would, and asks the caller to stop while the client waits to
    send it again: a fault the sandbox cannot time."""

    def __init__(self, stop: threading.Event, path: str = "") -> None:
        self._http = httpx.HTTPTransport()
        self._stop = stop
        self._path = path  # only requests to this path count (all when empty)
        self.calls = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self._path not in request.url.path:
            return self._http.handle_request(request)
        self.calls += 1
        response = self._http.handle_request(request)
        if self.calls == 1:
            response.read()
            self._stop.set()
            raise httpx.ReadError("connection reset by peer", request=request)
        return response

    def close(self) -> None:
        self._http.close()


def test_a_write_cancelled_after_its_answer_was_lost_is_unknown_in_the_journal(
    sandbox: Any, tmp_path: Path
) -> None:
    cancel = threading.Event()
    wire = LosesFirstAnswer(cancel)
    # A retry waits long enough for the cancel to be seen during the wait.
    retry = RetryPolicy(attempts=3, base_delay=5.0, max_delay=5.0)
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=retry)
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    try:
        try:
            session.insert_dnc("2025550142", "1", Scope.global_(), cancel=cancel)
        except Cancelled as stopped:
            assert stopped.maybe_done
        else:
            raise AssertionError("the insert was not cancelled")
        assert wire.calls == 1
        outcome = journal.query(phone="+12025550142")[0]
        assert outcome.phase == "outcome"
        assert outcome.outcome == "unknown"
        assert "its answer lost, so it may have been done" in outcome.error
        # And it was done: "not attempted" would have been false.
        listed = sandbox.store.all("SELECT phone_number FROM dnc")
        assert [r["phone_number"] for r in listed] == ["2025550142"]
    finally:
        session.close()
        journal.close()


class Refuses(httpx.BaseTransport):
    """Answers 429 (as the sandbox's limiter does) and asks the caller to stop."""

    def __init__(self, stop: threading.Event) -> None:
        self._stop = stop

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self._stop.set()
        return httpx.Response(
            429,
            headers={"Retry-After": "5"},
            json={"success": False, "message": "Rate limit exceeded"},
            request=request,
        )


def test_a_write_cancelled_after_429s_is_not_done_in_the_journal(tmp_path: Path) -> None:
    cancel = threading.Event()
    retry = RetryPolicy(attempts=3, base_delay=5.0, max_delay=5.0)
    api = ApiClient("http://127.0.0.1:9", TOKEN, http_transport=Refuses(cancel), retry=retry)
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(Connection("X", "http://127.0.0.1:9"), api, journal)
    try:
        try:
            session.insert_dnc("2025550142", "1", Scope.global_(), cancel=cancel)
        except Cancelled as stopped:
            assert (stopped.maybe_done, stopped.refused) == (False, 1)
        else:
            raise AssertionError("the insert was not cancelled")
        outcome = journal.query(phone="+12025550142")[0]
        assert (outcome.outcome, outcome.error) == (
            "not_attempted",
            "refused once for the service's rate limit (HTTP 429), then cancelled before it "
            "was sent again; not done",
        )
    finally:
        session.close()
        journal.close()


def test_a_lead_status_cancelled_after_its_answer_was_lost_is_not_called_not_attempted(
    sandbox: Any, tmp_path: Path
) -> None:
    from app.core.audit_run import run_audit
    from app.core.lead_restatus import restatus_leads
    from tests.core.test_audit import seed_campaign_with_conflicts

    cancel = threading.Event()
    wire = LosesFirstAnswer(cancel, "/leads/update")
    retry = RetryPolicy(attempts=3, base_delay=5.0, max_delay=5.0)
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=retry)
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    try:
        leads = run_audit(api, seed_campaign_with_conflicts(api).campaign).conflicting_leads
        outcome = restatus_leads(session, leads, "DNC", concurrency=1, cancel=cancel)
        first = outcome.rows[0]
        assert (first.outcome, first.error) == (
            "failed",
            "cancelled while waiting to send it again: an earlier attempt was sent and its "
            "answer lost, so it may have been done",
        )
        # It was done; the leads never sent are not attempted.
        assert api.search_leads({"lead_id": first.lead_id}).items[0].status == "DNC"
        assert {r.outcome for r in outcome.rows[1:]} == {"not_attempted"}
        unknown = [e for e in journal.query(job=outcome.job) if e.outcome == "unknown"]
        assert len(unknown) == 1
    finally:
        session.close()
        journal.close()
