"""A copy of a job file made before the job ran on is refused from any data folder, also once
the original finished and its file was moved away (archived): the job file names the locks
folder each run used (meta ``ran_locks``), and that folder's record of the job says it ended.
The refusal names when the job last ran, not when the run the copy saw began.

The black-box finding (B25-1): a paused import's file was copied, the original resumed to its
end and archived, then the copy resumed with another data folder sent its inserts again and
called the job's own inserts "already present". B25-7: the sentence's time was the start of
the run the copy saw."""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core import job_lock
from app.core.import_job import insert_sender, run_import, stage_import
from app.core.job_exec import execute
from app.core.job_lock import JobCopied
from app.core.job_runner import JobControl, RowResult
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStatus, JobStore
from app.core.paths import DATA_ENV, AppPaths
from app.core.session import Session
from app.core.sheet_check import Target
from app.core.sheet_scope import CampaignDirectory
from tests.core.test_job_copy_paths import copy_job

ROWS = 6


def data_folder(monkeypatch: pytest.MonkeyPatch, path: Path) -> AppPaths:
    """Use ``path`` as the app's data folder from now on (as another user or XDG_DATA_HOME)."""
    monkeypatch.setenv(DATA_ENV, str(path))
    return AppPaths.default()


def staged(session: Session, tmp_path: Path, jobs_dir: Path) -> JobStore:
    src = tmp_path / "in.csv"
    with src.open("w", newline="") as fh:
        csv.writer(fh).writerows([["phone"], *[[f"(202) 555-{i:04d}"] for i in range(ROWS)]])
    settings = JobSettings(file=src, scope=Scope.parse("global"), target=Target.DNC)
    lookup = CampaignDirectory(session.api.campaigns())
    store, _ = stage_import(
        settings, jobs_dir, connection=session.connection, campaign_lookup=lookup
    )
    return store


def paused_after(store: JobStore, session: Session, rows: int) -> None:
    """Run the import one row at a time and suspend it once ``rows`` more were sent."""
    control = JobControl()
    meta = store.meta()
    insert = insert_sender(
        session, Target(meta["target"]), str(meta["job_id"]), "", control.stop, None, store
    )
    sent: list[int] = []

    def send(row: JobRow, resent: bool) -> RowResult:
        result = insert(row, resent)
        sent.append(row.seq)
        if len(sent) >= rows:
            control.suspend()
        return result

    status = execute(store, session, send, concurrency=1, control=control)
    assert status is JobStatus.PAUSED
    assert 0 < store.counts()["pending"] < ROWS


def on_the_list(sandbox: Any) -> int:
    return len(sandbox.store.all("SELECT phone_number FROM dnc"))


def inserts_sent(session: Session, job: str) -> int:
    found = session.journal.query(job=job, limit=10_000)
    return sum(1 for e in found if e.phase == "intent")


def archived(store: JobStore, tmp_path: Path) -> Path:
    """Move the job file out of its jobs folder, as archiving it does."""
    store.close()
    moved = tmp_path / "archive" / store.path.name
    moved.parent.mkdir()
    shutil.move(store.path, moved)
    return moved


def test_a_copy_of_a_finished_and_archived_job_is_refused_from_another_data_folder(
    sandbox: Any, session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = data_folder(monkeypatch, tmp_path / "data-a")
    store = staged(session, tmp_path, first.jobs_dir)
    job = str(store.meta()["job_id"])
    original = os.path.realpath(store.path)
    paused_after(store, session, 2)
    stale_path = copy_job(store.path, tmp_path / "backup" / "copy.dncjob")
    assert run_import(store, session) is JobStatus.FINISHED
    archived(store, tmp_path)
    assert on_the_list(sandbox) == ROWS and inserts_sent(session, job) == ROWS
    other = data_folder(monkeypatch, tmp_path / "data-b")
    stale = JobStore(stale_path)
    pending = stale.counts()["pending"]
    with pytest.raises(JobCopied) as refused:
        run_import(stale, session)
    assert re.fullmatch(
        rf"Job {re.escape(job)} was already finished on \d{{4}}-\d\d-\d\dT[\d:]+\+00:00 from "
        rf"{re.escape(original)}; this file is a copy made before that, and resuming it would "
        r"send its rows again\.",
        str(refused.value),
    ), str(refused.value)
    assert inserts_sent(session, job) == ROWS  # nothing sent again
    assert stale.counts()["pending"] == pending
    assert not other.locks_dir.exists() or not list(other.locks_dir.iterdir())
    # What it was refused by: the data folder the job ran under, named in the job file.
    assert stale.meta()["ran_locks"] == os.path.realpath(first.locks_dir)
    stale.close()


def test_a_moved_paused_job_and_a_copy_whose_data_folder_is_gone_still_run(
    sandbox: Any, session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The original's locks folder says the job paused at a file no longer there: the moved
    file runs. A copy whose recorded locks folder is not there (carried to another machine)
    is judged by its recorded file alone: gone, so it runs."""
    first = data_folder(monkeypatch, tmp_path / "data-a")
    store = staged(session, tmp_path, first.jobs_dir)
    paused_after(store, session, 2)
    carried = copy_job(store.path, tmp_path / "laptop" / "carried.dncjob")
    moved = archived(store, tmp_path)
    data_folder(monkeypatch, tmp_path / "data-b")
    store = JobStore(moved)
    assert run_import(store, session) is JobStatus.FINISHED
    store.close()
    moved.unlink()
    shutil.rmtree(first.locks_dir)  # the other machine has no such folder
    data_folder(monkeypatch, tmp_path / "data-c")
    copy = JobStore(carried)
    assert run_import(copy, session) is JobStatus.FINISHED
    copy.close()


def test_the_refusal_names_when_the_original_last_ran_not_when_the_copy_s_run_began(
    sandbox: Any, session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = data_folder(monkeypatch, tmp_path / "data-a")
    store = staged(session, tmp_path, first.jobs_dir)
    paused_after(store, session, 2)
    began = str(store.meta()["ran_at"])
    stale_path = copy_job(store.path, tmp_path / "backup" / "copy.dncjob")
    time.sleep(1.1)  # the times are to the second
    paused_after(store, session, 1)  # the original ran on, and paused again
    record = json.loads(job_lock.ran_path(job_lock.id_lock_path(store.path.stem)).read_text())
    last = dt.datetime.fromisoformat(record["time"]).strftime("%Y-%m-%d %H:%M:%S")
    assert last > began
    data_folder(monkeypatch, tmp_path / "data-b")
    stale = JobStore(stale_path)
    with pytest.raises(JobCopied) as refused:
        run_import(stale, session)
    assert f"last ran from {os.path.realpath(store.path)} ({last} UTC); " in str(refused.value)
    stale.close()
    store.close()
