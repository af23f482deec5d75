"""A job paused by its user is not stopped for a silent service (SILENT_STOP_AFTER): while
paused it asks nothing, so a request left unanswered before the pause must not make the job
stop during the pause or the moment it goes on (found reading the all-silent rule after
re-test R2 #2)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core import job_runner
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.test_job_hung_service_stop import (
    PHONES,
    Gateway,
    Run,
    _csv,
    _wait_for,
    gateway,
    journal,
)

__all__ = ["gateway", "journal"]  # fixtures, used by name


def test_a_pause_longer_than_the_silence_limit_does_not_stop_the_job(
    sandbox: Any,
    gateway: Gateway,
    journal: ChangeJournal,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gateway.hang = {"/v1/dnc/insert"}
    # A client timeout shorter than the pause: the insert on the wire times out during it, and
    # its retry waits for the pause to end, when the service answers it.
    api = ApiClient(gateway.base_url, TOKEN, timeout=2.0)
    session = Session(Connection("Gateway", gateway.base_url), api, journal)
    store, _ = stage_import(
        JobSettings(_csv(tmp_path), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    monkeypatch.setattr(job_runner, "SILENT_STOP_AFTER", 1.0)
    run = Run(lambda control, progress: run_import(
        store, session, concurrency=1, control=control, progress=progress
    ))  # fmt: skip
    _wait_for(lambda: gateway.hung >= 1, 20)  # an insert is on the wire, unanswered
    run.control.pause()
    time.sleep(3.0)  # three times the limit, paused
    assert not run.ended.is_set() and not run.control.stop.is_set()
    gateway.hang = set()  # the service answers again
    run.control.resume()
    assert run.ended.wait(60)
    assert run.result is JobStatus.FINISHED, run.result
    s = job_summary(store)
    assert s["inserted"] + s["already_present"] == len(PHONES)
    session.close()
