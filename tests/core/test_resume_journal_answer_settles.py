"""A resumed row whose insert's answer the change journal already holds ends as it says
(black-box N5 #3).

N5 #3: job import-20261123-062428-7aa0b4 was killed (SIGKILL) just after the service's "ok"
(``{"id": "2599"}``) for +442079460018 was journaled and before the job file committed the
row's outcome. The resume sent the row again, was answered "already present" and counted it
among the rows the job may have inserted: the journal said 4,385 inserts done, the report 4,382
inserted. Now a row in flight when the job stopped whose insert (this job's, this number, this
scope) has an "ok" in the journal ends ``inserted`` naming the entry, and is not sent again.

Run through the real import job against a sandbox over loopback, with a real journal; the
killed run is played by marking the row ``sending`` and making its insert through the session
(which journals the answer) without recording the row's outcome.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core import journal as journal_module
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_report import RESENT_PRESENT, lateness
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore, utc_now
from app.core.session import Session

IN_FLIGHT, OTHER = "2025550501", "2025550502"
NOTE = "vendor file"


def _stage(session: Session, tmp_path: Path, text: str) -> tuple[JobStore, str]:
    path = tmp_path / "import.csv"
    path.write_text(text, encoding="utf-8")
    settings = JobSettings(path, Scope.global_(), note=NOTE)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=session.connection)
    return store, str(store.meta()["job_id"])


def _killed_after_answer(store: JobStore, seq: int) -> None:
    """The killed run had started and marked row ``seq`` sending (committed)."""
    store.set_meta({"started": utc_now()})
    store.mark_sending(seq)
    store.flush()


def _listed_ids(sandbox: Any, number: str) -> list[str]:
    rows = sandbox.store.all("SELECT id FROM dnc WHERE phone_number = ?", (number,))
    return [str(r["id"]) for r in rows]


def test_a_row_whose_insert_the_journal_has_answered_ends_inserted_unsent(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    store, job = _stage(session, tmp_path, f"Phone\n{IN_FLIGHT}\n{OTHER}\n")
    _killed_after_answer(store, 1)
    session.insert_dnc(IN_FLIGHT, "1", Scope.global_(), job=job, note=NOTE)
    (entry,) = _listed_ids(sandbox, IN_FLIGHT)

    assert run_import(store, session) is JobStatus.FINISHED
    rows = {r.national: r for r in store.rows()}
    row = rows[IN_FLIGHT]
    assert row.outcome == "inserted", row.message
    head, _, tail = row.message.partition(" UTC)")
    assert head.startswith(f"inserted as entry {entry}: the service's answer ("), row.message
    assert tail == (
        " was recorded in the change journal before the job stopped, so the row was not sent again"
    ), row.message
    assert RESENT_PRESENT not in row.message
    # Not sent again: the journal holds the one insert, and the list the one entry.
    intents = [
        e for e in session.journal.query(phone=f"+1{IN_FLIGHT}", job=job) if e.phase == "intent"
    ]
    assert len(intents) == 1
    assert _listed_ids(sandbox, IN_FLIGHT) == [entry]
    assert rows[OTHER].outcome == "inserted" and rows[OTHER].message == ""
    summary = job_summary(store)
    assert (summary["inserted"], summary["already_present"]) == (2, 0)
    assert summary["already_present_maybe_inserted"] == 0


def test_an_ok_of_another_scope_or_another_job_does_not_settle_the_row(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaign = session.api.campaigns()[0].id
    store, job = _stage(session, tmp_path, f"Phone\n{IN_FLIGHT}\n")
    _killed_after_answer(store, 1)
    # This job's insert of the number, but in a campaign; and another job's, in the row's scope.
    session.insert_dnc(IN_FLIGHT, "1", Scope.campaign(campaign), job=job, note=NOTE)
    session.insert_dnc(IN_FLIGHT, "1", Scope.global_(), job="import-another", note=NOTE)

    assert run_import(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    # Sent, and found listed (another job's entry): its first insert in its scope, as the
    # journal has none of this job before the resume, so not said "sent again".
    assert row.outcome == "already_present", row.message
    assert "sent again" not in row.message
    global_inserts = [
        e
        for e in session.journal.query(phone=f"+1{IN_FLIGHT}", job=job)
        if e.phase == "intent" and e.target.endswith("scope=global")
    ]
    assert len(global_inserts) == 1


def test_the_row_counts_to_the_day_the_journal_answered_not_the_resume(
    sandbox: Any, session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Killed 30 days ago, resumed today: the number has been on the list since then.
    answered = dt.datetime.now(dt.UTC) - dt.timedelta(days=30)
    requested = (answered - dt.timedelta(days=1)).date()
    store, job = _stage(
        session, tmp_path, f"Phone,Date received\n{IN_FLIGHT},{requested.isoformat()}\n"
    )
    (staged,) = store.rows()
    assert "business days" in staged.message  # the check counts it late, to its own day
    _killed_after_answer(store, 1)
    stamp = answered.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    monkeypatch.setattr(journal_module, "utc_now", lambda: stamp)
    session.insert_dnc(IN_FLIGHT, "1", Scope.global_(), job=job, note=NOTE)
    monkeypatch.undo()

    assert run_import(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    assert row.outcome == "inserted", row.message
    assert f"answer ({answered:%Y-%m-%d %H:%M:%S} UTC)" in row.message, row.message
    assert row.honoured_on == answered.date().isoformat()
    days, late = lateness(row.request_date, row.done_at, row.outcome, row.honoured_on)
    assert days is not None and days <= 1 and not late
    assert "business days" not in row.message, row.message  # no late sentence to the resume
