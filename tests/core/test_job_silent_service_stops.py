"""A service that takes requests and answers none stops the job for a resume once it has
answered nothing for SILENT_STOP_AFTER seconds (black-box N2 #2: the client's retries and the
look-ups after them, each waiting its whole timeout, kept a 4-row job busy for 12 minutes
before it paused). The job's sentence says how long nothing was answered and which request
waited, names the rows left open, and the resume finishes them once the service answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core import job_runner
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_runner import JobAborted
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from tests.core.test_job_hung_service_stop import (
    PHONES,
    Gateway,
    Run,
    _csv,
    _session,
    gateway,
    journal,
)

__all__ = ["gateway", "journal"]  # fixtures, used by name


def test_a_silent_service_stops_the_job_for_a_resume(
    sandbox: Any,
    gateway: Gateway,
    journal: ChangeJournal,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gateway.hang = {"/v1/dnc/insert", "/v1/dnc/search"}
    session = _session(gateway, journal)
    store, _ = stage_import(
        JobSettings(_csv(tmp_path), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    monkeypatch.setattr(job_runner, "SILENT_STOP_AFTER", 1.5)  # not the app's 3 minutes
    run = Run(lambda control, progress: run_import(
        store, session, concurrency=2, control=control, progress=progress
    ))  # fmt: skip
    # Without the stop, each row waits out its retries' and look-ups' timeouts (minutes).
    assert run.ended.wait(60), "the job went on against a service that answered nothing"
    stopped = run.result
    assert isinstance(stopped, JobAborted), stopped
    text = str(stopped)
    assert text.startswith("The service stopped answering (nothing answered for "), text
    assert f"the oldest request unanswered was to {gateway.base_url}/v1/dnc/" in text
    assert "); the job was stopped and can be resumed. Not known whether inserted, as " in text
    assert store.status == JobStatus.PAUSED
    assert job_summary(store)["pending"] == len(PHONES)
    # Once the service answers, the resume finishes every row, each on the list once.
    gateway.hang = set()
    assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    s = job_summary(store)
    assert s["inserted"] + s["already_present"] == len(PHONES)
    assert s["failed"] == s["pending"] == 0
    listed = [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")]
    assert sorted(p for p in listed if p in PHONES) == sorted(PHONES)
    session.close()
