"""Black-box pass R1: answers that do not say whether a write was done.

* #2, #3: an insert or a delete the service did, answered HTTP 500 (an HTML page), 200 "OK" or
  200 with an empty body, then retried and answered "already present" / "not found", is this
  job's likely doing: counted among the rows the job may have inserted (an import), ``removed``
  with the lead re-status named (a removal), and the change journal says so beside the retry's
  answer, as after a lost answer.
* #4: a delete answered "not found" for a number the look-up just before listed is looked up
  again: still listed, the row does not say "not on the list", and ends ``failed`` after its
  sends; gone, it says what happened.
* #5: a row the service fails each time says how many requests it was sent, as the service's
  log counts them (the client's attempts summed over the job's sends).
* #7: a row answered by the service refusing the token says so (nothing was done), and is
  pending for the resume, not "sent and not settled".

The sandbox cannot fail a write after doing it, nor answer "OK", so a transport on the client's
side forwards each request to the sandbox over loopback and answers the scripted ones itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_report import (
    MAYBE_INSERTED,
    RETRIED_PRESENT,
    SENT_NO_ANSWER,
    write_report,
)
from app.core.job_runner import JobStatus, TokenRefused
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore
from app.core.journal import ChangeJournal
from app.core.removal_job import REMOVED_BY_LOST_ATTEMPT, run_removal, stage_removal
from app.core.session import EARLIER_ATTEMPT_MAY_HAVE_DONE, Session
from tests.conftest import TOKEN

TWO_TRIES = RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.002)
# What the first attempt of a scripted number's write gets, after (``done``) or without the
# sandbox doing the write.
HTML_500, TEXT_OK, EMPTY_200 = "500 done", "OK done", "empty done"
ALWAYS_500 = "500 always"
NOT_FOUND_KEPT = "6001 kept"
TOKEN_401 = "401"
ONCE = (HTML_500, TEXT_OK, EMPTY_200)


class Scripted(httpx.BaseTransport):
    """Forwards every request to the sandbox, except the writes (insert, delete) of the
    numbers in ``script``: the first attempt of each gets its step (``500 done``, ``OK done``,
    ``empty done``: forwarded, so done, and answered HTTP 500 with an HTML page, 200 "OK", 200
    with nothing), every attempt of ``500 always`` and ``6001 kept`` gets HTTP 500 or a "not
    found" answer without being forwarded, and of ``401`` the token refused."""

    def __init__(self, script: dict[str, str]) -> None:
        self._http = httpx.HTTPTransport()
        self.script = script
        self.writes: list[str] = []  # the number of each write request, in order

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if not path.endswith(("/insert", "/delete")):
            return self._http.handle_request(request)
        number = parse_qs(request.content.decode("utf-8")).get("phone_number", [""])[0]
        first = number not in self.writes
        self.writes.append(number)
        step = self.script.get(number, "")
        if step == ALWAYS_500 or (step in ONCE and first):
            if step != ALWAYS_500:
                self._http.handle_request(request).read()
            if step == TEXT_OK:
                return httpx.Response(200, text="OK", request=request)
            if step == EMPTY_200:
                return httpx.Response(200, content=b"", request=request)
            page = "<html><body><h1>Internal Server Error</h1></body></html>"
            return httpx.Response(500, text=page, request=request)
        if step == NOT_FOUND_KEPT:
            body = {"success": False, "error": "phone not found in DNC", "code": 6001}
            return httpx.Response(200, json=body, request=request)
        if step == TOKEN_401:
            body = {"success": False, "error": "Invalid or expired authentication token"}
            return httpx.Response(401, json=body, request=request)
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _session(sandbox: Any, journal: ChangeJournal, wire: Scripted) -> Session:
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=TWO_TRIES)
    return Session(Connection("Sandbox", sandbox.base_url), api, journal)


def _file(tmp_path: Path, numbers: list[str]) -> Path:
    path = tmp_path / "numbers.csv"
    path.write_text("Phone\n" + "".join(f"{n}\n" for n in numbers))
    return path


def _import(
    tmp_path: Path, session: Session, numbers: list[str], status: JobStatus = JobStatus.FINISHED
) -> JobStore:
    settings = JobSettings(_file(tmp_path, numbers), Scope.global_())
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    assert run_import(store, session, concurrency=1) is status
    return store


def _removal(tmp_path: Path, session: Session, numbers: list[str], lead_status: str) -> JobStore:
    settings = JobSettings(
        _file(tmp_path, numbers), Scope.global_(), note="court order", lead_status=lead_status
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    return store


def _outcomes(journal: ChangeJournal, operation: str) -> dict[str, tuple[str, str]]:
    return {
        e.phone: (e.outcome, e.error)
        for e in journal.query(operation=operation)
        if e.phase == "outcome"
    }


def _events(journal: ChangeJournal, operation: str) -> dict[str, str]:
    return {
        e.phone: str((e.after or {}).get("settled", ""))
        for e in journal.query(operation=operation)
        if e.phase == "event"
    }


def _listed(sandbox: Any) -> set[str]:
    return {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}


def test_an_insert_done_then_answered_500_or_unreadable_is_counted_as_maybe_inserted(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    # R1 #2: these rows ended "phone already in DNC; answered after 2 attempts", counted as on
    # the list before the job, the journal's outcome with no note.
    numbers = ["2025550112", "2025550118", "2025550119", "2025550100"]
    wire = Scripted(dict(zip(numbers, ONCE, strict=False)))
    session = _session(sandbox, journal, wire)
    try:
        store = _import(tmp_path, session, numbers)
    finally:
        session.close()
    s = job_summary(store)
    assert (s["inserted"], s["already_present"], s[MAYBE_INSERTED]) == (1, 3, 3), s
    assert _listed(sandbox) == set(numbers)
    outcomes = _outcomes(journal, "dnc.insert")
    settled = _events(journal, "dnc.insert.settled")
    for row in store.rows():
        if row.national == "2025550100":
            continue
        assert row.outcome == "already_present"
        assert row.message.startswith(RETRIED_PRESENT), row.message
        assert "answer was lost" not in row.message
        outcome, error = outcomes[f"+1{row.national}"]
        assert outcome == "already_present"
        assert error.endswith(f"{EARLIER_ATTEMPT_MAY_HAVE_DONE} (answered after 2 attempts)")
        assert settled[f"+1{row.national}"].startswith(RETRIED_PRESENT)
    assert wire.writes.count("2025550112") == 2


def test_a_delete_done_then_answered_500_or_unreadable_is_removed_and_its_leads_named(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    # R1 #3: these rows ended not_found, the removed count short, no "settled" event, and
    # their leads re-statused unsaid.
    numbers = ["2025550112", "2025550118", "2025550119"]
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in numbers])
    wire = Scripted(dict(zip(numbers, ONCE, strict=True)))
    session = _session(sandbox, journal, wire)
    try:
        list_id = session.api.insert_list("Removal test leads", session.api.campaigns()[0].id)
        sandbox.bulk_seed_leads(list_id, [(n, "1", "", "") for n in numbers])
        store = _removal(tmp_path, session, numbers, "DNC")
    finally:
        session.close()
    s = job_summary(store)
    assert (s["removed"], s["not_found"], s["failed"]) == (3, 0, 0), s
    assert _listed(sandbox) == set()
    outcomes = _outcomes(journal, "dnc.delete")
    settled = _events(journal, "dnc.delete.settled")
    for row in store.rows():
        assert row.outcome == "removed"
        assert row.message.startswith(REMOVED_BY_LOST_ATTEMPT), row.message
        assert "DNC" in row.message and "1 lead" in row.message, row.message
        outcome, error = outcomes[f"+1{row.national}"]
        assert outcome == "not_found" and EARLIER_ATTEMPT_MAY_HAVE_DONE in error
        assert settled[f"+1{row.national}"] == REMOVED_BY_LOST_ATTEMPT


def test_a_not_found_answer_for_a_number_listed_just_before_is_not_said_not_on_the_list(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    # R1 #4: the service answered "not found" and kept the entry; the row said "not on the
    # list in this scope".
    number = "2025550128"
    sandbox.bulk_seed_dnc([(number, "1", "0", "", "")])
    wire = Scripted({number: NOT_FOUND_KEPT})
    session = _session(sandbox, journal, wire)
    try:
        store = _removal(tmp_path, session, [number], "")
    finally:
        session.close()
    (row,) = store.rows()
    assert row.outcome == "failed", row.message
    assert "not on the list in this scope" not in row.message
    assert row.message.startswith(
        'not removed: the service answered the delete "not found" (phone not found in DNC) '
        "although a look-up just before listed the number in this scope, and a look-up right "
        "after it still lists it"
    ), row.message
    assert row.message.endswith(
        "sent 3 times in this run, each time failed by the service and not done"
    )
    assert number in _listed(sandbox)
    checked = journal.query(operation="dnc.delete.checked")
    assert len(checked) == 3
    assert all(c.after is not None and c.after["listed_after"] for c in checked)


def test_a_not_found_answer_after_which_the_number_is_gone_says_so(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    number = "2025550129"
    sandbox.bulk_seed_dnc([(number, "1", "0", "", "")])

    class Gone(Scripted):
        # Takes the entry off (another party, or the service itself) and answers "not found".
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.path.endswith("/delete"):
                self._http.handle_request(request).read()
            return super().handle_request(request)

    session = _session(sandbox, journal, Gone({number: NOT_FOUND_KEPT}))
    try:
        store = _removal(tmp_path, session, [number], "")
    finally:
        session.close()
    (row,) = store.rows()
    assert row.outcome == "not_found"
    assert row.message.startswith(
        'no longer on the list: the service answered the delete "not found"'
    ), row.message
    assert "a look-up right after it found it gone" in row.message


def test_a_row_the_service_fails_each_time_counts_every_request_sent(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    # R1 #5: "sent 3 times in this run" of a row the service got 12 requests for.
    number = "2025550120"
    sandbox.bulk_seed_dnc([(number, "1", "0", "", "")])
    wire = Scripted({number: ALWAYS_500})
    session = _session(sandbox, journal, wire)
    try:
        store = _removal(tmp_path, session, [number], "")
    finally:
        session.close()
    (row,) = store.rows()
    assert row.outcome == "failed"
    assert wire.writes.count(number) == 6  # three sends of two attempts each
    assert row.message.endswith(
        "sent 6 times in this run (3 sends of the row by the job, with the client's retries), "
        "each time failed by the service and not done"
    ), row.message


def test_rows_answered_by_a_refused_token_say_so_and_are_pending(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    # R1 #7: such rows said "sent before the job stopped and not settled (no answer came, or
    # the service failed it...)", though the service had answered: the token was refused.
    numbers = ["2025550140", "2025550141", "2025550142"]
    wire = Scripted({"2025550141": TOKEN_401})
    session = _session(sandbox, journal, wire)
    try:
        with pytest.raises(TokenRefused):
            _import(tmp_path, session, numbers)
    finally:
        session.close()
    store = JobStore(next((tmp_path / "jobs").glob("*.dncjob")))
    try:
        rows = {r.national: r for r in store.rows()}
        assert rows["2025550141"].state == "pending"
        report = write_report(store, tmp_path / "report.xlsx")
    finally:
        store.close()
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        lines = {r[2]: r for r in book["Rows"].iter_rows(min_row=2, values_only=True)}
    finally:
        book.close()
    outcome, message = lines["2025550141"][5], str(lines["2025550141"][6])
    assert outcome == "pending"
    assert SENT_NO_ANSWER not in message
    assert message == (
        "sent, and the service refused the token (/dnc/insert: Invalid or expired "
        "authentication token), so nothing was inserted; the resume sends it again"
    ), message
    assert "2025550141" not in _listed(sandbox)
