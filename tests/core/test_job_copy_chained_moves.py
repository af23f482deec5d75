"""A copy of a job file taken under one data folder is refused after the original was moved
and run on under a second data folder, when the copy is resumed under a third (B25 F1's chain):
the copy names only the first folder, whose record the run under the second now keeps too."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from app.core.import_job import run_import
from app.core.job_lock import JobCopied
from app.core.job_store import JobStatus, JobStore
from app.core.session import Session
from tests.core.test_job_copy_paths import copy_job
from tests.core.test_stale_copy_other_folder import (
    ROWS,
    data_folder,
    inserts_sent,
    on_the_list,
    paused_after,
    staged,
)


def moved_to(store: JobStore, folder: Path) -> Path:
    store.close()
    folder.mkdir(parents=True)
    moved = folder / store.path.name
    shutil.move(store.path, moved)
    return moved


@pytest.mark.parametrize("end", ["finished", "paused"])
def test_a_copy_from_the_first_folder_is_refused_in_a_third_after_the_file_ran_on_in_a_second(
    sandbox: Any,
    session: Session,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    end: str,
) -> None:
    first = data_folder(monkeypatch, tmp_path / "data-a")
    store = staged(session, tmp_path, first.jobs_dir)
    job = str(store.meta()["job_id"])
    paused_after(store, session, 2)
    stale_path = copy_job(store.path, tmp_path / "backup" / "copy.dncjob")
    moved = moved_to(store, tmp_path / "moved")
    data_folder(monkeypatch, tmp_path / "data-b")
    store = JobStore(moved)
    if end == "finished":
        assert run_import(store, session) is JobStatus.FINISHED
        assert on_the_list(sandbox) == ROWS
    else:
        paused_after(store, session, 1)
    store.close()
    sent = inserts_sent(session, job)
    data_folder(monkeypatch, tmp_path / "data-c")
    stale = JobStore(stale_path)
    pending = stale.counts()["pending"]
    with pytest.raises(JobCopied) as refused:
        run_import(stale, session)
    where = re.escape(os.path.realpath(moved))
    expected = (
        rf"Job {re.escape(job)} was already finished on \S+ from {where}; this file is a copy .*"
        if end == "finished"
        else rf"Job {re.escape(job)} last ran from {where} \(.+\); resume that file instead: .*"
    )
    assert re.fullmatch(expected, str(refused.value)), str(refused.value)
    assert inserts_sent(session, job) == sent  # nothing sent again
    assert stale.counts()["pending"] == pending
    stale.close()


def test_the_moved_file_resumed_back_under_its_first_folder_still_runs(
    sandbox: Any, session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record kept for the first folder names the moved file: that file is not a copy."""
    first = data_folder(monkeypatch, tmp_path / "data-a")
    store = staged(session, tmp_path, first.jobs_dir)
    paused_after(store, session, 2)
    moved = moved_to(store, tmp_path / "moved")
    data_folder(monkeypatch, tmp_path / "data-b")
    store = JobStore(moved)
    paused_after(store, session, 1)
    store.close()
    data_folder(monkeypatch, tmp_path / "data-a")
    store = JobStore(moved)
    assert run_import(store, session) is JobStatus.FINISHED
    assert on_the_list(sandbox) == ROWS
    store.close()


def test_a_file_moved_twice_refuses_the_copy_taken_before_both_moves(
    sandbox: Any, session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A to B to D, then the copy from A's time under C: the records lead on from A to D."""
    first = data_folder(monkeypatch, tmp_path / "data-a")
    store = staged(session, tmp_path, first.jobs_dir)
    job = str(store.meta()["job_id"])
    paused_after(store, session, 1)
    stale_path = copy_job(store.path, tmp_path / "backup" / "copy.dncjob")
    moved = moved_to(store, tmp_path / "moved-1")
    data_folder(monkeypatch, tmp_path / "data-b")
    store = JobStore(moved)
    paused_after(store, session, 1)
    moved = moved_to(store, tmp_path / "moved-2")
    data_folder(monkeypatch, tmp_path / "data-d")
    store = JobStore(moved)
    assert run_import(store, session) is JobStatus.FINISHED
    store.close()
    sent = inserts_sent(session, job)
    data_folder(monkeypatch, tmp_path / "data-c")
    stale = JobStore(stale_path)
    with pytest.raises(
        JobCopied, match="was already finished on .* from " + re.escape(os.path.realpath(moved))
    ):
        run_import(stale, session)
    assert inserts_sent(session, job) == sent
    stale.close()
