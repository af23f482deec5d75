"""A write whose first attempt was sent and its answer lost, then retried: what its row, the
report and the change journal say.

The sandbox cannot lose one chosen answer on cue, so a forwarding transport passes every
request to it and, for the first ``/v1/dnc/delete`` (or ``/v1/dnc/insert``) of a chosen number,
forwards it (the write really happens) and then raises ``httpx.ReadTimeout`` instead of
returning the answer. For the contrast (a retry after a 5xx, no answer lost) it answers that
first request 503 itself without forwarding it.

A removal job looks each number up just before its delete: a number found on the list whose
delete then answers "not found" after a lost answer was removed by this job's own earlier
attempt, and ends ``removed`` (its leads named when it re-statuses them).
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import openpyxl
import pytest

from app.api.models import WriteStatus
from app.api.scope import Scope
from app.core.dnc_removal import Outcome, RemovalTarget, remove_dnc_entries
from app.core.evidence import gather_evidence, write_evidence_xlsx
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_report import RETRIED_PRESENT
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal, JournalEntry
from app.core.removal_job import REMOVED_BY_LOST_ATTEMPT, run_removal, stage_removal
from app.core.session import EARLIER_ATTEMPT_MAY_HAVE_DONE, Session
from tests.conftest import without_entry_found
from tests.core.lead_wire import seed_leads, wired_session

DELETE, INSERT = "/v1/dnc/delete", "/v1/dnc/insert"
LOST = "lost"


class Losing(httpx.BaseTransport):
    """Forwards every request to the sandbox, except the first request to ``path`` for each
    number in ``numbers``: with ``mode`` ``"lost"`` it is forwarded and its answer replaced by a
    ReadTimeout; else ``mode`` is a function run instead of forwarding it (its response is
    returned)."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.path = DELETE
        self.numbers: set[str] = set()
        self.mode: str | Callable[[httpx.Request], httpx.Response] = LOST
        self.sent: list[tuple[str, str]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        number = ""
        if path in (DELETE, INSERT):
            form = parse_qs(request.content.decode("utf-8"))
            number = form.get("phone_number", [""])[0]
        first = (path, number) not in self.sent
        self.sent.append((path, number))
        if path != self.path or number not in self.numbers or not first:
            return self._http.handle_request(request)
        if callable(self.mode):
            return self.mode(request)
        response = self._http.handle_request(request)
        response.read()
        response.close()
        raise httpx.ReadTimeout("timed out reading the answer", request=request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def wire() -> Losing:
    return Losing()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Losing) -> Iterator[Session]:
    # A session through ``wire``, retrying once (2 attempts), quickly.
    yield from wired_session(sandbox, tmp_path, wire)  # type: ignore[arg-type]


def _answer_503(request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        503, text="<html><body>Service Unavailable</body></html>", request=request
    )


def _csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone", "Scope"], *rows])
    return path


def _removal(session: Session, tmp_path: Path, numbers: list[str], lead_status: str) -> JobStore:
    settings = JobSettings(
        _csv(tmp_path / "remove.csv", [[n, ""] for n in numbers]),
        Scope.global_(),
        lead_status=lead_status,
        note="consumer asked",
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    return store


def _outcomes(journal: ChangeJournal, job: str) -> dict[str, JournalEntry]:
    """The job's write outcomes by phone (E.164 of their intent)."""
    entries = journal.query(job=job)
    intents = {e.id: e for e in entries if e.phase == "intent"}
    return {intents[e.ref].phone: e for e in entries if e.phase == "outcome" and e.ref in intents}


def _reported(report: str) -> dict[str, tuple[str, str]]:
    """The report's rows: number -> (outcome, message)."""
    wb = openpyxl.load_workbook(report, read_only=True)
    sheet = [list(r) for r in wb["Rows"].iter_rows(values_only=True)]
    wb.close()
    head = sheet[0]
    number, outcome, message = (
        head.index("Normalized number"),
        head.index("Outcome"),
        head.index("Message"),
    )
    # (Read-only rows stop at their last cell with a value: pad them to the header's width.)
    rows = [r + [None] * (len(head) - len(r)) for r in sheet[1:]]
    return {str(r[number]): (str(r[outcome]), str(r[message] or "")) for r in rows}


def _listed(sandbox: Any) -> set[str]:
    return {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}


# ---------------------------------------------------------------------- the client


def test_the_client_says_whether_an_earlier_answer_was_lost(
    sandbox: Any, session: Session, wire: Losing
) -> None:
    sandbox.bulk_seed_dnc([("2025550301", "1", "0", "", ""), ("2025550302", "1", "0", "", "")])
    wire.numbers = {"2025550301"}
    lost = session.api.delete_dnc("2025550301", "1", Scope.global_(), not_found_ok=True)
    assert (lost.status, lost.attempts, lost.earlier_attempt_lost) == (
        WriteStatus.NOT_FOUND,
        2,
        True,
    )
    wire.numbers, wire.mode = {"2025550302"}, _answer_503
    sandbox.store.execute("DELETE FROM dnc WHERE phone_number = ?", ("2025550302",))
    plain = session.api.delete_dnc("2025550302", "1", Scope.global_(), not_found_ok=True)
    # A 503 does not say whether the delete was done either (black-box R1 #3): flagged too.
    assert (plain.status, plain.attempts, plain.earlier_attempt_lost) == (
        WriteStatus.NOT_FOUND,
        2,
        True,
    )
    wire.path, wire.numbers, wire.mode = INSERT, {"2025550303"}, LOST
    present = session.api.insert_dnc("2025550303", "1", Scope.global_())
    assert (present.status, present.earlier_attempt_lost) == (WriteStatus.ALREADY_PRESENT, True)


# ---------------------------------------------------------------------- removal job


def test_a_delete_whose_answer_was_lost_then_not_found_is_removed_with_its_leads(
    sandbox: Any, session: Session, wire: Losing, tmp_path: Path
) -> None:
    numbers = ["2025550310", "2025550311", "2025550312"]
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in numbers])
    list_id = session.api.insert_list("Lost answer list", session.api.campaigns()[0].id)
    (lead,) = seed_leads(sandbox, list_id, [("2025550311", "1", "", "", "CALLBK")])
    wire.numbers = {"2025550311"}
    store = _removal(session, tmp_path, numbers, "DNC")
    s = job_summary(store)
    assert (s["removed"], s["not_found"], s["failed"]) == (3, 0, 0)
    assert _listed(sandbox) == set()  # the first attempt removed it: the service agrees
    statuses = {str(r["id"]): r["status"] for r in sandbox.store.all("SELECT * FROM leads")}
    assert statuses[lead] == "DNC"

    rows = {r.national: r for r in store.rows()}
    row = rows["2025550311"]
    assert row.outcome == "removed"
    assert row.message == (
        f"{REMOVED_BY_LOST_ATTEMPT}; re-statused 1 lead: lead {lead} (list {list_id}) "
        "CALLBK→DNC; answered after 2 attempts"
    ), row.message
    # Most likely, not surely: another party deleting it in that moment looks the same (J2).
    assert row.message.startswith("removed, most likely by this job's earlier attempt: the")
    assert _reported(s["report"])["2025550311"] == ("removed", row.message)

    outcome = _outcomes(session.journal, s["job"])["+12025550311"]
    assert outcome.outcome == "not_found"  # what the service answered
    assert outcome.error.endswith(
        f"; {EARLIER_ATTEMPT_MAY_HAVE_DONE} (answered after 2 attempts)"
    ), outcome.error
    # What the job concluded goes beside it, so the number's evidence says removed too.
    settled = [
        e for e in session.journal.query(operation="dnc.delete.settled") if e.job == s["job"]
    ]
    assert [(e.phone, e.after) for e in settled] == [
        ("+12025550311", {"settled": REMOVED_BY_LOST_ATTEMPT})
    ]
    # The number's evidence pack shows it, in the Journal sheet's Details.
    pack = gather_evidence(session.api, session.journal, None, "2025550311")
    write_evidence_xlsx(pack, tmp_path / "evidence.xlsx")
    book = openpyxl.load_workbook(tmp_path / "evidence.xlsx", read_only=True)
    sheet = list(book["Journal"].iter_rows(values_only=True))
    book.close()
    header = list(sheet[0])
    at = header.index("Details")
    details = {r[header.index("Operation")]: r[at] if len(r) > at else None for r in sheet[1:]}
    assert REMOVED_BY_LOST_ATTEMPT in details["dnc.delete.settled"]
    # The other rows are untouched by the change.
    for number in ("2025550310", "2025550312"):
        assert rows[number].outcome == "removed"
        assert "attempt" not in rows[number].message


def test_a_removal_without_lead_status_says_the_earlier_attempt_removed_it(
    sandbox: Any, session: Session, wire: Losing, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([("2025550320", "1", "0", "", "")])
    wire.numbers = {"2025550320"}
    store = _removal(session, tmp_path, ["2025550320"], "")
    (row,) = store.rows()
    assert (row.outcome, row.message) == (
        "removed",
        f"{REMOVED_BY_LOST_ATTEMPT}; answered after 2 attempts",
    )
    s = job_summary(store)
    assert (s["removed"], s["not_found"]) == (1, 0)


def test_a_retry_after_a_503_then_not_found_is_removed_without_a_lost_claim(
    sandbox: Any, session: Session, wire: Losing, tmp_path: Path
) -> None:
    # Listed when looked up; the entry goes just as our first delete is answered 503; the
    # retry answers "not found". A 503 does not say whether the delete was done (a service can
    # fail after deleting: black-box R1 #3), so that attempt most likely removed it, as after a
    # lost answer; but no answer was lost, so nothing may say one was.
    sandbox.bulk_seed_dnc([("2025550330", "1", "0", "", "")])

    def gone_then_503(request: httpx.Request) -> httpx.Response:
        sandbox.store.execute("DELETE FROM dnc WHERE phone_number = ?", ("2025550330",))
        return _answer_503(request)

    wire.numbers, wire.mode = {"2025550330"}, gone_then_503
    store = _removal(session, tmp_path, ["2025550330"], "DNC")
    (row,) = store.rows()
    assert row.outcome == "removed", row.message
    assert row.message.startswith(REMOVED_BY_LOST_ATTEMPT), row.message
    assert "lost" not in row.message, row.message
    assert row.message.endswith("; answered after 2 attempts"), row.message
    s = job_summary(store)
    assert (s["removed"], s["not_found"]) == (1, 0)
    outcome = _outcomes(session.journal, s["job"])["+12025550330"]
    assert outcome.outcome == "not_found"
    assert "lost" not in outcome.error
    assert outcome.error.endswith(f"{EARLIER_ATTEMPT_MAY_HAVE_DONE} (answered after 2 attempts)")


# ---------------------------------------------------------------------- import job


def _import(session: Session, tmp_path: Path, numbers: list[str]) -> JobStore:
    path = tmp_path / "in.csv"
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows([["phone"], *[[n] for n in numbers]])
    store, _ = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    return store


def test_an_insert_whose_answer_was_lost_then_already_present_says_so_in_the_journal(
    sandbox: Any, session: Session, wire: Losing, tmp_path: Path
) -> None:
    wire.path, wire.numbers = INSERT, {"2025550340"}
    store = _import(session, tmp_path, ["2025550340", "2025550341"])
    rows = {r.national: r for r in store.rows()}
    row = rows["2025550340"]
    assert row.outcome == "already_present"
    assert without_entry_found(row.message) == f"{RETRIED_PRESENT}; answered after 2 attempts"
    assert rows["2025550341"].outcome == "inserted"
    s = job_summary(store)
    assert _reported(s["report"])["2025550340"] == ("already_present", row.message)
    outcome = _outcomes(session.journal, s["job"])["+12025550340"]
    assert outcome.outcome == "already_present"
    assert f"; {EARLIER_ATTEMPT_MAY_HAVE_DONE} (answered after 2 attempts)" in outcome.error
    assert _listed(sandbox) == {"2025550340", "2025550341"}


def test_an_insert_retried_after_a_503_then_already_present_claims_no_lost_answer(
    sandbox: Any, session: Session, wire: Losing, tmp_path: Path
) -> None:
    # A 503 does not say whether the insert was done (black-box R1 #2): the retry's "already
    # present" may be that attempt's, and is looked up, as after a lost answer; no answer was
    # lost, so nothing says one was.
    sandbox.bulk_seed_dnc([("2025550350", "1", "0", "", "")])  # listed before the job
    wire.path, wire.numbers, wire.mode = INSERT, {"2025550350"}, _answer_503
    store = _import(session, tmp_path, ["2025550350"])
    (row,) = store.rows()
    assert row.outcome == "already_present"
    assert "lost" not in row.message, row.message
    assert row.message.startswith(RETRIED_PRESENT), row.message
    assert row.message.endswith("; answered after 2 attempts")
    outcome = _outcomes(session.journal, job_summary(store)["job"])["+12025550350"]
    assert "lost" not in outcome.error, outcome.error
    assert EARLIER_ATTEMPT_MAY_HAVE_DONE in outcome.error


# ---------------------------------------------------------------------- list-view removal


def test_list_view_purpose_removal_whose_answer_was_lost_is_removed(
    session: Session, wire: Losing
) -> None:
    api = session.api
    api.insert_dnc("2025550360", "1", Scope.purpose("Surveys"), reason="survey opt-out")
    api.insert_dnc("2025550360", "1", Scope.purpose("Marketing"), reason="asked on call")
    wire.numbers = {"2025550360"}
    target = RemovalTarget("2025550360", "1", Scope.purpose(""))
    result = remove_dnc_entries(session, [target], reason="consent re-obtained")
    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.REMOVED, outcome.message
    assert outcome.message == (
        "removed by this removal's earlier attempt: the number was on the list when looked up "
        "just before the delete, that attempt got no answer saying whether it was done and the "
        "retry found it gone; answered after 2 attempts; removed for purposes 'Marketing' and "
        "'Surveys'"
    )
    assert result.count(Outcome.REMOVED) == 1 and result.count(Outcome.NOT_FOUND) == 0
    (journaled,) = [
        e for e in session.journal.query(operation="dnc.delete") if e.phase == "outcome"
    ]
    assert EARLIER_ATTEMPT_MAY_HAVE_DONE in journaled.error


def test_list_view_global_removal_whose_answer_was_lost_may_have_removed_it(
    sandbox: Any, session: Session, wire: Losing
) -> None:
    # A global entry is not looked up again before its delete (the list showed it): not found
    # stays not found, and the look-up after it says the lost attempt most likely removed it.
    sandbox.bulk_seed_dnc([("2025550370", "1", "0", "", "")])
    wire.numbers = {"2025550370"}
    target = RemovalTarget("2025550370", "1", Scope.global_())
    (outcome,) = remove_dnc_entries(session, [target], reason="entered by mistake").outcomes
    assert outcome.outcome is Outcome.NOT_FOUND and outcome.earlier_attempt_lost
    assert (
        "a look-up right after found it gone: this delete's first attempt, which got no answer "
        "saying whether it was done, most likely removed it" in outcome.message
    )


def test_list_view_removal_retried_after_a_503_may_have_removed_it_claiming_no_lost_answer(
    sandbox: Any, session: Session, wire: Losing
) -> None:
    sandbox.bulk_seed_dnc([("2025550380", "1", "0", "", "")])

    def gone_then_503(request: httpx.Request) -> httpx.Response:
        sandbox.store.execute("DELETE FROM dnc WHERE phone_number = ?", ("2025550380",))
        return _answer_503(request)

    wire.numbers, wire.mode = {"2025550380"}, gone_then_503
    target = RemovalTarget("2025550380", "1", Scope.global_())
    (outcome,) = remove_dnc_entries(session, [target], reason="entered by mistake").outcomes
    # Not looked up just before (the list showed it): not found, saying the attempt answered
    # 503 most likely removed it, as the look-up after it found (black-box R1 #3), without
    # saying an answer was lost.
    assert outcome.outcome is Outcome.NOT_FOUND
    assert "lost" not in outcome.message and "most likely removed it" in outcome.message
