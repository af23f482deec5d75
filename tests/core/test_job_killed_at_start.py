"""Black-box B19 F1: a job killed right after the CLI said "Job … started" was listed as
``ready`` (as if it never ran), and its journal got no ``job.start``: the resume's first event
of the job was a ``job.resume``. The job is now marked running (and started) before the front
end says so, and a resume records ``job.start`` when the journal has none for the job."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core.import_job import run_import
from app.core.job_catalog import job_state, read_job, run_by
from app.core.job_exec import on_start
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.session import Session
from tests.core.test_import_job import numbers, stage, write_csv


class _Killed(BaseException):
    """The process dying right after the front end said the job started."""


def _die() -> None:
    raise _Killed


def test_a_job_killed_as_it_starts_is_interrupted_and_its_journal_starts_it(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    path = write_csv(tmp_path / "in.csv", ["Phone"], [[n] for n in numbers(5)])
    store = stage(JobSettings(path, Scope.global_()), session, tmp_path / "jobs")
    job_id = str(store.meta()["job_id"])
    with on_start(_die), pytest.raises(_Killed):
        run_import(store, session, concurrency=2)
    info = read_job(store.path)
    assert job_state(info, run_by(info)) == "interrupted"
    assert session.journal.query(job=job_id) == []  # nothing was sent, nothing journaled
    assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    events = [
        e.operation for e in reversed(session.journal.query(job=job_id)) if e.phase == "event"
    ]
    assert events == ["job.start", "job.finish"]
    assert len(sandbox.store.all("SELECT phone_number FROM dnc")) == 5


def test_a_resumed_job_that_had_started_records_a_resume(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    path = write_csv(tmp_path / "in.csv", ["Phone"], [[n] for n in numbers(3)])
    store = stage(JobSettings(path, Scope.global_()), session, tmp_path / "jobs")
    assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    store.set_status(JobStatus.PAUSED)  # as a pause leaves it, rows all done
    run_import(store, session, concurrency=2)
    job_id = str(store.meta()["job_id"])
    events = [
        e.operation for e in reversed(session.journal.query(job=job_id)) if e.phase == "event"
    ]
    assert events[:3] == ["job.start", "job.finish", "job.resume"]


def test_a_job_marked_started_with_no_start_event_records_its_start(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # Killed after the job file said it started, before the journal's start was committed.
    path = write_csv(tmp_path / "in.csv", ["Phone"], [[n] for n in numbers(3)])
    store = stage(JobSettings(path, Scope.global_()), session, tmp_path / "jobs")
    store.set_meta({"started": "2026-11-24T14:40:28Z", "status": JobStatus.RUNNING.value})
    assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    job_id = str(store.meta()["job_id"])
    events = [e for e in reversed(session.journal.query(job=job_id)) if e.phase == "event"]
    assert [e.operation for e in events] == ["job.start", "job.finish"]
    # Re-test U3 F4: the start says it is a resume, and when the job was started.
    assert events[0].after is not None
    assert events[0].after["started"] == "2026-11-24T14:40:28Z"
    assert events[0].after["resumed"] is True
