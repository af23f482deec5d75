"""A resumed job closes the journal intents a killed run left without an outcome: each gets the
outcome ``unknown`` (the write may or may not have been done) before its row is sent again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core.import_job import run_import, stage_import
from app.core.job_exec import UNANSWERED, UNANSWERED_TEXT
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session


def _intent(journal: ChangeJournal, job: str, phone: str) -> int:
    return journal.record_intent(
        connection="Sandbox",
        base_url="http://127.0.0.1",
        operation="dnc.insert",
        target=f"dnc {phone}",
        phone=phone,
        job=job,
    )


def test_unanswered_intents_are_the_jobs_intents_without_an_outcome(tmp_path: Path) -> None:
    with ChangeJournal(tmp_path / "j.sqlite3") as journal:
        first = _intent(journal, "job-a", "+12025550101")
        answered = _intent(journal, "job-a", "+12025550102")
        journal.record_outcome(answered, outcome="ok")
        third = _intent(journal, "job-a", "+12025550103")
        _intent(journal, "job-b", "+12025550104")
        assert [e.id for e in journal.unanswered_intents("job-a")] == [first, third]
        assert journal.unanswered_intents("") == []
        assert journal.unanswered_intents("job-c") == []


def test_a_resumed_job_closes_the_intents_its_killed_run_left_open(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    src = tmp_path / "in.csv"
    src.write_text("phone\n2025550101\n2025550102\n2025550103\n")
    store, _ = stage_import(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    job = str(store.meta()["job_id"])
    # As a run killed mid-request leaves it: started, one row sending, its intent open.
    store.set_meta({"started": "2026-11-22 10:00:00"})
    (row, *_) = store.unfinished()
    store.mark_sending(row.seq)
    orphan = _intent(session.journal, job, f"+1{row.national}")
    assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    outcomes = {e.ref: e for e in session.journal.query(job=job) if e.phase == "outcome"}
    assert outcomes[orphan].outcome == UNANSWERED and outcomes[orphan].error == UNANSWERED_TEXT
    assert session.journal.unanswered_intents(job) == []
    # The row was sent again, under an intent of its own that got the answer.
    sent = [e for e in outcomes.values() if e.phone == f"+1{row.national}" and e.ref != orphan]
    assert [e.outcome for e in sent] == ["ok"]
    assert store.counts()["inserted"] == 3
    store.close()


def test_a_first_run_leaves_other_jobs_open_intents_alone(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    other = _intent(session.journal, "import-other", "+12025550199")
    src = tmp_path / "in.csv"
    src.write_text("phone\n2025550101\n")
    store, _ = stage_import(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    assert run_import(store, session) is JobStatus.FINISHED
    assert [e.id for e in session.journal.unanswered_intents("import-other")] == [other]
    store.close()
