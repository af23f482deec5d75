"""A resumed import that finds its killed run's insert done journals what it concluded.

Black-box L2 #3 found it for removals: the killed run's write got the outcome ``unknown`` when
the job was resumed, and nothing recorded the look-up that settled it. For an insert, the
resumed job's "already present" is most likely the killed run's own doing; the journal now
keeps that conclusion (and the entry found) as an ``insert.settled`` event, as it kept one for
an entry older than the job.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core.import_job import run_import, stage_import
from app.core.job_report import RESUMED_PRESENT
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, utc_now
from app.core.session import Session

NUMBER = "6517093245"


def test_an_insert_of_a_killed_run_found_on_resume_is_journaled_settled(
    session: Session, tmp_path: Path
) -> None:
    path = tmp_path / "import.csv"
    path.write_text(f"Phone\n{NUMBER}\n", encoding="utf-8")
    settings = JobSettings(path, Scope.global_(), note="vendor file")
    store, _ = stage_import(settings, tmp_path / "jobs", connection=session.connection)
    job = str(store.meta()["job_id"])
    # The killed run: the insert's intent was journaled, the insert was done and the process
    # died before its answer was recorded.
    store.set_meta({"started": utc_now()})
    store.mark_sending(1)
    session.journal.record_intent(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation="dnc.insert",
        target=f"dnc:+1{NUMBER} scope=global",
        phone=f"+1{NUMBER}",
        job=job,
        note="vendor file",
    )
    session.api.insert_dnc(NUMBER, "1", Scope.global_())

    assert run_import(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    # Its earlier insert was journaled with no outcome: it may never have left (S21 K2).
    assert row.outcome == "already_present" and RESUMED_PRESENT in row.message
    settled = session.journal.query(phone=f"+1{NUMBER}", operation="dnc.insert.settled")
    assert len(settled) == 1
    assert settled[0].job == job
    said = settled[0].after["settled"]
    assert said.startswith(RESUMED_PRESENT) and "entry " in said, said


def test_an_insert_answered_plainly_already_present_journals_nothing_more(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # Listed before, and no attempt of this job lost: the insert's own outcome says it all.
    sandbox.bulk_seed_dnc([(NUMBER, "1", "0", "asked on call", "")])
    path = tmp_path / "import.csv"
    path.write_text(f"Phone\n{NUMBER}\n", encoding="utf-8")
    store, _ = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    assert run_import(store, session) is JobStatus.FINISHED
    assert session.journal.query(phone=f"+1{NUMBER}", operation="dnc.insert.settled") == []
