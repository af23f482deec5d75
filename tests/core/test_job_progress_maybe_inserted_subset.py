"""A run's progress showed "already on the list: 1; of which this job may have inserted: 2"
(bb14 W4): a worker counted a row among those the job may have inserted when it ended it, the
loop counted its outcome later, and a progress report in between showed a subset bigger than
its whole. Both now change together: every progress report has the maybe-inserted rows among
the rows already present.

A real import over loopback HTTP to the sandbox, its faults losing answers of the job's own
inserts; a progress report is made at the moment the race left open (a row ended, its outcome
not counted yet), as the run's watch could make it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core.import_job import run_import
from app.core.job_exec import job_summary
from app.core.job_report import MAYBE_INSERTED
from app.core.job_runner import JobProgress, JobRunner
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from tests.core.test_import_lost_answer_counts import (
    EXACT_NUMBERS,
    EXACT_SEED,
    FAST,
    _session,
    _stage,
)


def test_progress_never_shows_more_maybe_inserted_than_already_present(
    make_sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = make_sandbox(seed=EXACT_SEED)
    store = _stage(tmp_path, EXACT_NUMBERS, Scope.global_())
    counting = JobRunner._count

    def report_then_count(runner: JobRunner, *args: Any) -> None:
        if runner._report_args is not None:
            runner._report(*runner._report_args, time.monotonic())
        counting(runner, *args)

    monkeypatch.setattr(JobRunner, "_count", report_then_count)
    shown: list[JobProgress] = []
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = _session(server.base_url, journal, retry=FAST)
    server.set_faults(drop_rate=0.3)
    try:
        status = run_import(store, session, concurrency=1, progress=shown.append)
    finally:
        server.set_faults(drop_rate=0.0)
        session.close()
        journal.close()
    assert status is JobStatus.FINISHED
    summary = job_summary(store)
    assert summary[MAYBE_INSERTED], "the seed no longer loses the job's own answers"
    over = [
        (p.maybe_inserted, p.counts.get("already_present", 0))
        for p in shown
        if p.maybe_inserted > p.counts.get("already_present", 0)
    ]
    assert not over, over
    assert shown[-1].maybe_inserted == summary[MAYBE_INSERTED]
    assert shown[-1].counts["already_present"] == summary["already_present"]
