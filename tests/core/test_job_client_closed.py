"""A job whose session's client is closed while it runs (the window opened another connection)
stops for a resume: every row after it failed "the API client is closed" for good, none sent,
and could not be resumed. The resume, on a new session, sends each row not sent once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.import_job import run_import, stage_import
from app.core.job_runner import JobAborted, JobProgress
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.session import Session
from tests.conftest import TOKEN

ROWS = 12


def test_a_closed_client_stops_the_job_for_a_resume(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    file = tmp_path / "numbers.csv"
    file.write_text("Phone\n" + "".join(f"202555{i:04d}\n" for i in range(ROWS)))
    settings = JobSettings(file, Scope.global_(), note="closed client")
    store, _ = stage_import(settings, tmp_path / "jobs", connection=session.connection)
    job = str(store.meta()["job_id"])
    sandbox.set_faults(latency_ms=100)  # progress is told four times a second

    def close_after_three(progress: JobProgress) -> None:
        if progress.done >= 3:
            session.api.close()

    with pytest.raises(JobAborted) as stopped:
        run_import(store, session, concurrency=1, progress=close_after_three)
    assert str(stopped.value).startswith("The job stopped at row "), stopped.value
    assert "resume it from the Jobs tab" in str(stopped.value)
    assert store.status == JobStatus.PAUSED.value
    sent = sandbox.store.scalar("SELECT count(*) FROM dnc")
    assert 3 <= sent < ROWS
    assert store.counts()["failed"] == 0, [r.message for r in store.rows()]

    sandbox.set_faults(latency_ms=0)
    fresh = Session(session.connection, ApiClient(sandbox.base_url, TOKEN), session.journal)
    try:
        assert run_import(store, fresh, concurrency=1) is JobStatus.FINISHED
    finally:
        fresh.close()
    assert store.counts()["inserted"] == ROWS
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == ROWS
    writes = session.journal.query(operation="dnc.insert", job=job, limit=1000)
    assert sorted(e.outcome for e in writes if e.phase == "outcome") == ["ok"] * ROWS
    assert not any("closed" in e.error for e in writes)
