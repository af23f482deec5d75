"""A copy of a job file is refused whatever data folder runs it: the job file says which file it
last ran from (meta ``ran_from`` / ``ran_at``, written under the run lock at the start of each
run), and a runner of another file of the same job, while that one is still there, is refused
in one sentence (:class:`~app.core.job_lock.JobCopied`). A moved file runs and records its
new path. A copy never writes its report over the report of another job file.

The black-box finding: a paused removal's file was copied, the original resumed to its end, a
number added again, then the copy resumed with another data folder: it removed that number
again and wrote its report over the original's."""

from __future__ import annotations

import csv
import os
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core import job_lock
from app.core.job_exec import execute, job_summary
from app.core.job_lock import JobCopied
from app.core.job_report import write_report
from app.core.job_runner import JobControl, RowResult
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStatus, JobStore
from app.core.paths import DATA_ENV, AppPaths
from app.core.removal_job import delete_sender, run_removal, stage_removal
from app.core.session import Session

ROWS = 6
NUMBERS = [f"20255501{i:02d}" for i in range(ROWS)]
COPIED = (
    r"Job {job} last ran from {path} \(\d{{4}}-\d\d-\d\d \d\d:\d\d:\d\d UTC\); resume that file "
    r"instead: this one is a copy, and resuming it would send again the rows that one has sent "
    r"since\."
)


def data_folder(monkeypatch: pytest.MonkeyPatch, path: Path) -> AppPaths:
    """Use ``path`` as the app's data folder from now on (as another user or XDG_DATA_HOME)."""
    monkeypatch.setenv(DATA_ENV, str(path))
    return AppPaths.default()


def on_the_list(sandbox: Any) -> set[str]:
    return {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}


def seed(sandbox: Any, numbers: list[str]) -> None:
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in numbers])


def staged_removal(session: Session, tmp_path: Path, jobs_dir: Path) -> JobStore:
    src = tmp_path / "remove.csv"
    with src.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone"], *[[n] for n in NUMBERS]])
    store, _ = stage_removal(
        JobSettings(src, Scope.global_()), jobs_dir, connection=session.connection
    )
    return store


def paused_after(store: JobStore, session: Session, rows: int) -> None:
    """Run the removal one row at a time and suspend it once ``rows`` were sent."""
    control = JobControl()
    remove = delete_sender(session, str(store.meta()["job_id"]), "", "")
    sent: list[int] = []

    def send(row: JobRow, resent: bool) -> RowResult:
        result = remove(row, resent)
        sent.append(row.seq)
        if len(sent) >= rows:
            control.suspend()
        return result

    status = execute(store, session, send, concurrency=1, control=control)
    assert status is JobStatus.PAUSED
    assert 0 < store.counts()["pending"] < ROWS


def copy_job(path: Path, to: Path) -> Path:
    """A consistent copy of a job file (SQLite's backup), as a person's ``cp`` would be."""
    to.parent.mkdir(parents=True, exist_ok=True)
    source, target = sqlite3.connect(path), sqlite3.connect(to)
    with target:
        source.backup(target)
    source.close()
    target.close()
    return to


@pytest.mark.parametrize("where", ["beside", "elsewhere"])
def test_a_copy_resumed_with_another_data_folder_is_refused_and_sends_nothing(
    sandbox: Any, session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    seed(sandbox, NUMBERS)
    first = data_folder(monkeypatch, tmp_path / "data-a")
    store = staged_removal(session, tmp_path, first.jobs_dir)
    job = str(store.meta()["job_id"])
    paused_after(store, session, 2)
    assert store.meta()["ran_from"] == os.path.realpath(store.path)
    # cp job.dncjob stale.dncjob (beside it, or in another folder).
    folder = store.path.parent if where == "beside" else tmp_path / "backup"
    stale_path = copy_job(store.path, folder / "stale.dncjob")
    assert run_removal(store, session) is JobStatus.FINISHED
    report = Path(job_summary(store)["report"])
    assert report.parent == store.path.parent
    written = report.read_bytes()
    assert on_the_list(sandbox) == set()
    seed(sandbox, [NUMBERS[0]])  # asked for again since
    # Another data folder: its locks folder has no record of this job.
    other = data_folder(monkeypatch, tmp_path / "data-b")
    assert not list(other.locks_dir.iterdir())
    stale = JobStore(stale_path)
    pending = stale.counts()["pending"]
    with pytest.raises(JobCopied) as refused:
        run_removal(stale, session)
    text = str(refused.value)
    assert re.fullmatch(
        COPIED.format(job=re.escape(job), path=re.escape(os.path.realpath(store.path))), text
    ), text
    assert on_the_list(sandbox) == {NUMBERS[0]}  # not removed again
    assert report.read_bytes() == written  # the original's report is untouched
    assert stale.counts()["pending"] == pending
    assert stale.meta()["ran_from"] == os.path.realpath(store.path)  # nothing recorded
    assert not job_lock.lock_path(stale_path).exists()
    assert not list(other.locks_dir.iterdir())  # refused holding nothing, recording nothing
    stale.close()
    # The original is not a copy, in either data folder.
    assert run_removal(store, session) is JobStatus.FINISHED
    store.close()


def test_a_moved_job_file_runs_with_another_data_folder_and_records_its_new_path(
    sandbox: Any, session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(sandbox, NUMBERS)
    first = data_folder(monkeypatch, tmp_path / "data-a")
    store = staged_removal(session, tmp_path, first.jobs_dir)
    paused_after(store, session, 2)
    report = Path(job_summary(store)["report"])
    old = store.path
    store.close()
    moved = tmp_path / "moved" / old.name
    moved.parent.mkdir()
    old.rename(moved)
    data_folder(monkeypatch, tmp_path / "data-b")
    store = JobStore(moved)
    assert run_removal(store, session) is JobStatus.FINISHED
    assert on_the_list(sandbox) == set()
    meta = store.meta()
    assert meta["ran_from"] == os.path.realpath(moved)
    # No job file beside the stored report any more: it is this job's, and written there.
    assert Path(meta["report"]) == report and report.is_file()
    assert "report_moved" not in meta
    store.close()
    # Back at its old name, a copy of the moved file is now the stale one (in a third data
    # folder too, where no record of the job is kept).
    copy_job(moved, old)
    data_folder(monkeypatch, tmp_path / "data-c")
    back = JobStore(old)
    with pytest.raises(JobCopied, match=rf"last ran from {re.escape(os.path.realpath(moved))} "):
        run_removal(back, session)
    back.close()


def test_a_copy_whose_original_now_holds_another_job_runs(
    sandbox: Any, session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recorded path holds another job's file now: this one was moved, not copied. Its
    report, named after that file, belongs to it: this run's report goes beside this file."""
    seed(sandbox, NUMBERS)
    first = data_folder(monkeypatch, tmp_path / "data-a")
    store = staged_removal(session, tmp_path, first.jobs_dir)
    paused_after(store, session, 2)
    report = Path(job_summary(store)["report"])
    original = store.path
    store.close()
    moved = copy_job(original, tmp_path / "moved" / "mine.dncjob")
    original.unlink()
    other = JobStore.create(original.parent, "removal-another", {"kind": "removal"})
    other.close()
    os.replace(other.path, original)
    report.write_bytes(b"the other job's report")
    data_folder(monkeypatch, tmp_path / "data-b")
    store = JobStore(moved)
    assert run_removal(store, session) is JobStatus.FINISHED
    meta = store.meta()
    assert meta["ran_from"] == os.path.realpath(moved)
    assert report.read_bytes() == b"the other job's report"
    assert Path(meta["report"]) == moved.with_suffix(".xlsx").resolve()
    assert Path(meta["report"]).is_file()
    assert meta["report_moved"] == {
        "from": str(report),
        "reason": f"it belongs to the job file {original}",
    }
    store.close()


def test_a_copy_never_writes_over_the_report_of_the_file_it_was_copied_from(
    sandbox: Any, session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy made before the job ever ran says nothing of the original, and another data
    folder has no record of it: it runs, but not over the original's report."""
    from app.cli.import_cmd import result_summary

    seed(sandbox, NUMBERS)
    first = data_folder(monkeypatch, tmp_path / "data-a")
    store = staged_removal(session, tmp_path, first.jobs_dir)
    report = write_report(store, Path(job_summary(store)["report"]))  # an earlier report
    written = report.read_bytes()
    copy = copy_job(store.path, tmp_path / "backup" / "copy.dncjob")
    data_folder(monkeypatch, tmp_path / "data-b")
    stale = JobStore(copy)
    assert run_removal(stale, session) is JobStatus.FINISHED
    assert report.read_bytes() == written
    own = copy.with_suffix(".xlsx").resolve()
    assert Path(job_summary(stale)["report"]) == own and own.is_file()
    warnings = result_summary(stale)["warnings"]
    assert warnings == [
        f"The report could not be written to {report} (it belongs to the job file "
        f"{store.path}); it was written to the jobs folder instead: {own}."
    ]
    stale.close()
    store.close()


def test_acquire_compares_the_recorded_file_by_its_job_id_without_touching_it(
    tmp_path: Path,
) -> None:
    original = JobStore.create(tmp_path / "jobs", "import-1", {"kind": "import"})
    original.close()
    copy = copy_job(original.path, tmp_path / "copy" / "import-1.dncjob")
    recorded = str(original.path)
    with pytest.raises(
        JobCopied, match=r"^Job import-1 last ran from .*import-1\.dncjob \(x UTC\)"
    ):
        job_lock.acquire(copy, "import-1", ran_from=recorded, ran_at="x")
    assert not job_lock.lock_path(copy).exists()
    assert not job_lock.id_lock_path("import-1").exists()
    # Read without a lock of its own and without leaving SQLite's -wal or -shm beside it.
    assert sorted(p.name for p in original.path.parent.iterdir()) == ["import-1.dncjob"]
    # Another job's file, a file that is not a job, no file: this one runs.
    job_lock.acquire(copy, "import-2", ran_from=recorded).release()
    garbage = tmp_path / "garbage.dncjob"
    garbage.write_bytes(b"not a job")
    job_lock.acquire(copy, "import-1", ran_from=str(garbage)).release()
    job_lock.acquire(copy, "import-1", ran_from=str(tmp_path / "gone.dncjob")).release()
    # The same file by another name (a hard link, or the path as recorded) is not a copy.
    os.link(copy, tmp_path / "link.dncjob")
    job_lock.acquire(copy, "import-1", ran_from=str(tmp_path / "link.dncjob")).release()
    job_lock.acquire(copy, "import-1", ran_from=str(copy)).release()
    # A recorded file open elsewhere (its -wal there) is read through its WAL.
    live = JobStore(original.path)
    with pytest.raises(JobCopied):
        job_lock.acquire(copy, "import-1", ran_from=recorded)
    live.close()
    assert job_lock.read_job_id(original.path) == "import-1"
    assert job_lock.read_job_id(garbage) is None
    assert job_lock.read_job_id(tmp_path / "gone.dncjob") is None
