"""A resumed row whose insert's "already present" answer the change journal already holds is not
sent again (black-box P1 #2).

P1 #2: job import-20261123-090203-a6e3ac was killed (SIGKILL) about 2 s after the journal
recorded "already_present" for +17036201155; the next ``--resume`` sent a second insert of it
(three such rows), though "a row with an answer is never sent again". Rows whose "ok" was
journaled were already settled from the journal (N5 #3); now an "already present" answer
settles the row too: ``already_present``, measured as any such row is. When an attempt of
this job before that answer was left open (no answer recorded, a failure no look-up settled,
an answer lost before a retry), the answer may be that attempt's own doing: the row is then
counted among those the job may have inserted and its entry is looked up, as while the job
ran.

Run through the real import job against a sandbox over loopback, with a real journal. The
killed runs are played by marking the row ``sending`` and making its attempts through the
session (which journals them) without recording the row's outcome; an attempt the process was
killed in (its intent journaled, no outcome) is journaled as the session journals an intent,
its insert sent by the client.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.api.errors import ServerError
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_report import MAYBE_INSERTED, RESENT_PRESENT, RETRIED_PRESENT, maybe_inserted
from app.core.job_runner import RESENT
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStatus, JobStore, utc_now
from app.core.session import EARLIER_ATTEMPT_MAY_HAVE_DONE, Session, journal_target
from tests.conftest import TOKEN

IN_FLIGHT = "7036201155"
PHONE = f"+1{IN_FLIGHT}"
NOTE = "vendor file"
RECORDED = (
    "was recorded in the change journal before the job stopped, so the row was not sent again"
)
ONE_TRY = RetryPolicy(attempts=1, base_delay=0.001, max_delay=0.002)
TWO_TRIES = RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.002)


class Faulty(httpx.BaseTransport):
    """Forwards every request to the sandbox, except the inserts ``script`` names in turn:
    ``503`` answers one 503 without forwarding it; ``lost`` forwards it (the service does the
    write) and loses its answer."""

    def __init__(self, *script: str) -> None:
        self._http = httpx.HTTPTransport()
        self.script = list(script)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not request.url.path.endswith("/insert") or not self.script:
            return self._http.handle_request(request)
        step = self.script.pop(0)
        if step == "503":
            return httpx.Response(503, text="<html>Service Unavailable</html>", request=request)
        self._http.handle_request(request).read()
        raise httpx.ReadTimeout("timed out reading the answer", request=request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def faulty(sandbox: Any, session: Session) -> Iterator[Any]:
    """Makes a session on the same sandbox and journal whose inserts meet ``script``."""
    opened: list[Session] = []

    def make(*script: str, retry: RetryPolicy = ONE_TRY) -> Session:
        api = ApiClient(sandbox.base_url, TOKEN, http_transport=Faulty(*script), retry=retry)
        s = Session(Connection("Sandbox", sandbox.base_url), api, session.journal)
        opened.append(s)
        return s

    yield make
    for s in opened:
        s.close()


def _stage(session: Session, tmp_path: Path, text: str) -> tuple[JobStore, str]:
    path = tmp_path / "import.csv"
    path.write_text(text, encoding="utf-8")
    settings = JobSettings(path, Scope.global_(), note=NOTE)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=session.connection)
    store.set_meta({"started": utc_now()})  # the killed run had started...
    store.mark_sending(1)  # ...and marked the row sending (committed)
    store.flush()
    return store, str(store.meta()["job_id"])


def _seed(sandbox: Any, inserted: str = "") -> str:
    """Put the number on the global list (as inserted at ``inserted``); its entry id."""
    sandbox.bulk_seed_dnc([(IN_FLIGHT, "1", "0", "", "")])
    if inserted:
        sandbox.store.execute(
            "UPDATE dnc SET insert_date = ? WHERE phone_number = ?", (inserted, IN_FLIGHT)
        )
    (entry,) = _entry_ids(sandbox)
    return entry


def _entry_ids(sandbox: Any) -> list[str]:
    rows = sandbox.store.all("SELECT id FROM dnc WHERE phone_number = ?", (IN_FLIGHT,))
    return [str(r["id"]) for r in rows]


def _killed_in_flight(session: Session, job: str) -> None:
    """An attempt the process was killed in: its intent journaled, its insert done by the
    service, no outcome journaled."""
    session.journal.record_intent(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation="dnc.insert",
        target=journal_target("dnc", IN_FLIGHT, "1", Scope.global_()),
        phone=PHONE,
        job=job,
        note=NOTE,
    )
    session.api.insert_dnc(IN_FLIGHT, "1", Scope.global_())


def _insert(session: Session, job: str) -> None:
    session.insert_dnc(IN_FLIGHT, "1", Scope.global_(), job=job, note=NOTE)


def _intents(session: Session, job: str) -> int:
    entries = session.journal.query(phone=PHONE, job=job, operation="dnc.insert")
    return sum(1 for e in entries if e.phase == "intent")


def _resumed(store: JobStore, session: Session) -> JobRow:
    assert run_import(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    return row


def test_an_already_present_answer_in_the_journal_settles_the_row_unsent(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # On the list since 2023; requested in 2024: honoured at once, as any such row says.
    entry = _seed(sandbox, "2023-06-08 10:00:00")
    store, job = _stage(session, tmp_path, f"Phone,Date received\n{IN_FLIGHT},2024-01-15\n")
    _insert(session, job)  # answered "already present", journaled; then the kill

    row = _resumed(store, session)
    assert row.outcome == "already_present", row.message
    head, _, tail = row.message.partition(" UTC) ")
    assert head.startswith("already on the list: the service's answer ("), row.message
    assert tail.startswith(f"{RECORDED}; "), row.message
    assert tail.endswith(
        f"on the list since 2023-06-08 (entry {entry}), before the request was received: not late"
    ), row.message
    assert row.honoured_on == "2023-06-08"
    assert RESENT not in row.message and not maybe_inserted(row)
    # Not sent again: the journal holds the one insert, the list the one entry.
    assert _intents(session, job) == 1
    assert _entry_ids(sandbox) == [entry]
    summary = job_summary(store)
    assert (summary["already_present"], summary[MAYBE_INSERTED]) == (1, 0)


def test_the_echo_of_an_attempt_killed_in_flight_counts_as_maybe_inserted(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    store, job = _stage(session, tmp_path, f"Phone\n{IN_FLIGHT}\n")
    _killed_in_flight(session, job)  # the first kill: that attempt inserted the number
    (entry,) = _entry_ids(sandbox)
    _insert(session, job)  # the resume sent it again: "already present"; then a second kill

    row = _resumed(store, session)
    assert row.outcome == "already_present", row.message
    assert row.message.startswith(f"{RETRIED_PRESENT}; entry {entry} found, inserted "), row
    assert row.message.endswith(RECORDED), row.message
    assert maybe_inserted(row) and RESENT_PRESENT not in row.message
    assert _intents(session, job) == 2  # not sent a third time
    assert _entry_ids(sandbox) == [entry]
    assert job_summary(store)[MAYBE_INSERTED] == 1
    # The journal keeps what the look-up concluded, as for a row answered so while running.
    (settled,) = session.journal.query(phone=PHONE, operation="dnc.insert.settled")
    found, _, answer = row.message.partition("; the service's answer (")
    assert answer and settled.after == {"settled": found}


def test_an_answer_after_a_lost_answer_counts_as_maybe_inserted(
    sandbox: Any, session: Session, faulty: Any, tmp_path: Path
) -> None:
    store, job = _stage(session, tmp_path, f"Phone\n{IN_FLIGHT}\n")
    # The insert's first attempt is done and its answer lost; the retry is "already present".
    _insert(faulty("lost", retry=TWO_TRIES), job)
    (outcome,) = [e for e in session.journal.query(phone=PHONE, job=job) if e.phase == "outcome"]
    assert outcome.outcome == "already_present" and EARLIER_ATTEMPT_MAY_HAVE_DONE in outcome.error

    row = _resumed(store, session)
    assert row.outcome == "already_present", row.message
    assert row.message.startswith(RETRIED_PRESENT) and maybe_inserted(row), row.message
    assert _intents(session, job) == 1


@pytest.mark.parametrize("checked", [True, False], ids=["look-up-found-none", "no-look-up"])
def test_a_failed_attempt_is_open_unless_a_look_up_found_the_number_unlisted(
    sandbox: Any, session: Session, faulty: Any, tmp_path: Path, checked: bool
) -> None:
    store, job = _stage(session, tmp_path, f"Phone\n{IN_FLIGHT}\n")
    failing = faulty("503")
    with pytest.raises(ServerError) as failed:
        _insert(failing, job)
    if checked:
        # As the job does after such an error (import_job._checked_after_error).
        target = journal_target("dnc", IN_FLIGHT, "1", Scope.global_())
        session.record_look_up(
            "dnc.insert.checked", target, PHONE, failed.value, {"listed_after": []}, job=job
        )
    entry = _seed(sandbox)  # someone else lists the number
    _insert(session, job)  # sent again: "already present"; then the kill

    row = _resumed(store, session)
    assert row.outcome == "already_present", row.message
    assert _intents(session, job) == 2
    if checked:
        # That attempt did not insert it: on the list before this job sent it.
        assert row.message.startswith("already on the list: the service's answer ("), row
        assert not maybe_inserted(row)
    else:
        assert row.message.startswith(f"{RETRIED_PRESENT}; entry {entry} found"), row.message
        assert maybe_inserted(row)


def test_a_refused_attempt_before_the_answer_leaves_nothing_open(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    store, job = _stage(session, tmp_path, f"Phone\n{IN_FLIGHT}\n")
    intent = session.journal.record_intent(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation="dnc.insert",
        target=journal_target("dnc", IN_FLIGHT, "1", Scope.global_()),
        phone=PHONE,
        job=job,
    )
    session.journal.record_outcome(intent, outcome="refused", error="429, read: not done")
    _seed(sandbox)
    _insert(session, job)

    row = _resumed(store, session)
    assert row.message.startswith("already on the list: the service's answer ("), row.message
    assert not maybe_inserted(row)
    assert _intents(session, job) == 2
