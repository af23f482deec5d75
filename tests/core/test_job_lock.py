"""The run lock of a job: a second runner, in this process or another, is refused in one
sentence and sends nothing; the lock goes with its holder (normal end, SIGKILL); reading a
job, a dry run and rewriting the report do not need it."""

from __future__ import annotations

import csv
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core import job_lock
from app.core.import_job import run_import, stage_import
from app.core.job_exec import execute, finish_dry_run, job_summary
from app.core.job_lock import JobBusy
from app.core.job_report import write_report
from app.core.job_runner import JobAborted, JobRunner, RowResult
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStatus, JobStore, Outcome
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.sheet_check import Target
from app.core.sheet_scope import CampaignDirectory

ROOT = Path(__file__).resolve().parents[2]
ROWS = 120
BUSY = re.compile(
    r"^Job (?P<job>\S+) is being run by another process \(pid (?P<pid>\d+), "
    r"since \d\d:\d\d UTC\); wait for it to finish or stop it first\.$"
)


def staged(session: Session, tmp_path: Path, rows: int = ROWS) -> JobStore:
    src = tmp_path / "in.csv"
    with src.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["phone"])
        writer.writerows([[f"(202) 555-{i:04d}"] for i in range(rows)])
    settings = JobSettings(file=src, scope=Scope.parse("global"), target=Target.DNC)
    lookup = CampaignDirectory(session.api.campaigns())
    store, _ = stage_import(
        settings, tmp_path / "jobs", connection=session.connection, campaign_lookup=lookup
    )
    return store


def intents(session: Session, job: str) -> Counter[str]:
    found = session.journal.query(job=job, limit=10_000)
    return Counter(e.phone for e in found if e.phase == "intent")


def operations(session: Session, job: str) -> Counter[str]:
    return Counter(e.operation for e in session.journal.query(job=job, limit=10_000))


def wait_until(check: Any, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_a_second_run_in_this_process_is_refused_and_sends_nothing(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    """Two GUI resumes of one job: each opens its own JobStore and runs on its own thread."""
    sandbox.set_faults(latency_ms=30)
    first = staged(session, tmp_path)
    job = str(first.meta()["job_id"])
    statuses: list[JobStatus] = []
    thread = threading.Thread(
        target=lambda: statuses.append(run_import(first, session, concurrency=4)), daemon=True
    )
    thread.start()
    wait_until(lambda: job_summary(first)["inserted"] >= 10, "the first run made no progress")
    second = JobStore(first.path)
    with pytest.raises(JobBusy) as refused:
        run_import(second, session, concurrency=4)
    text = str(refused.value)
    assert re.fullmatch(
        rf"Job {job} is already being run by this program \(since \d\d:\d\d UTC\); "
        r"wait for it to finish or stop it first\.",
        text,
    ), text
    assert isinstance(refused.value, JobAborted)  # front ends print it as one sentence
    # The engine's lower level refuses too: a JobRunner on its own takes the lock.
    never = JobRunner(second, lambda row, resent: pytest.fail("a refused runner sent a row"))
    with pytest.raises(JobBusy):
        never.run()
    thread.join(60)
    assert statuses == [JobStatus.FINISHED]
    second.close()
    sandbox.set_faults(latency_ms=0)
    summary = job_summary(first)
    assert (summary["inserted"], summary["already_present"], summary["pending"]) == (ROWS, 0, 0)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == ROWS
    sent = intents(session, job)
    assert len(sent) == ROWS and set(sent.values()) == {1}
    ops = operations(session, job)
    assert (ops["job.start"], ops["job.resume"], ops["job.finish"]) == (1, 0, 1)
    # Released at the end, and the lock file is gone with it.
    assert not job_lock.lock_path(first.path).exists()
    job_lock.acquire(first.path).release()
    first.close()


def test_a_job_ended_by_another_runner_is_not_run_again(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    """The CLI looks at the status, then the other runner finishes, then this one gets the lock:
    it must not run (nor journal) the job a second time."""
    store = staged(session, tmp_path, rows=5)
    job = str(store.meta()["job_id"])
    assert run_import(store, session) is JobStatus.FINISHED
    report = Path(job_summary(store)["report"])
    written = report.stat().st_mtime_ns

    def send(row: JobRow, resent: bool) -> RowResult:
        raise AssertionError("an ended job was run again")

    again = JobStore(store.path)
    assert execute(again, session, send, concurrency=2) is JobStatus.FINISHED
    again.close()
    assert report.stat().st_mtime_ns == written
    ops = operations(session, job)
    assert (ops["job.start"], ops["job.resume"], ops["job.finish"]) == (1, 0, 1)
    store.close()


def _holder(job_path: Path) -> subprocess.Popen[str]:
    """Another process that takes the job's run lock, says so, and waits to be killed."""
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from app.core import job_lock\n"
        "lock = job_lock.acquire(Path(sys.argv[1]), 'the-job')\n"
        "print('held', flush=True)\n"
        "time.sleep(120)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(job_path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "held\n", proc.communicate()
    return proc


def test_another_process_holding_the_lock_and_its_sigkill(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    store = staged(session, tmp_path, rows=6)
    job = str(store.meta()["job_id"])
    holder = _holder(store.path)
    try:

        def send(row: JobRow, resent: bool) -> RowResult:
            raise AssertionError("a refused run sent a row")

        with pytest.raises(JobBusy) as refused:
            execute(store, session, send, concurrency=2)
        found = BUSY.match(str(refused.value))
        assert found, str(refused.value)
        assert (found["job"], int(found["pid"])) == (job, holder.pid)
        # Nothing was journaled or marked: the refused runner never started.
        assert operations(session, job) == Counter()
        assert store.status == JobStatus.READY.value
        assert job_summary(store)["pending"] == 6
        # Reading the job, a dry-run report and the report itself need no lock.
        assert write_report(store, tmp_path / "while-held.xlsx").is_file()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=10)
    # The OS let go with the process: the file it wrote is still there but locks nothing.
    assert job_lock.lock_path(store.path).exists()
    assert run_import(store, session) is JobStatus.FINISHED
    assert job_summary(store)["inserted"] == 6
    assert not job_lock.lock_path(store.path).exists()
    store.close()


def test_a_dry_run_needs_no_lock(session: Session, tmp_path: Path) -> None:
    store = staged(session, tmp_path, rows=3)
    with job_lock.acquire(store.path):
        assert finish_dry_run(store).is_file()
    assert store.status == JobStatus.DRY_RUN.value
    store.close()


def test_release_is_idempotent_and_a_runner_inside_execute_does_not_lock_itself(
    tmp_path: Path,
) -> None:
    path = tmp_path / "jobs" / "import-x.dncjob"
    store = JobStore.create(path.parent, "import-x", {"kind": "import"})
    lock = job_lock.acquire(store.path, "import-x")
    assert job_lock.held_by_this_thread(store.path)
    held_elsewhere: list[bool] = []
    t = threading.Thread(target=lambda: held_elsewhere.append(job_lock.held_by_this_thread(path)))
    t.start()
    t.join()
    assert held_elsewhere == [False]
    # A JobRunner called by the holder's thread (as execute does) runs under the held lock.
    assert JobRunner(store, lambda row, resent: RowResult(Outcome.INSERTED)).run() == (
        JobStatus.FINISHED
    )
    assert lock.held
    lock.release()
    lock.release()
    assert not lock.held and not job_lock.held_by_this_thread(store.path)
    store.close()


@pytest.mark.skipif(os.name != "posix", reason="the POSIX lock file is removed on release")
def test_a_runner_that_opened_the_lock_file_just_before_it_was_removed_takes_the_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Release removes the file while still locked. A runner that opened the old file just
    before gets its lock once released, but a lock on a removed file keeps no one out: it must
    see that and lock the file now at the path."""
    import fcntl

    path = tmp_path / "import-y.dncjob"
    first = job_lock.acquire(path)
    stale = os.open(job_lock.lock_path(path), os.O_RDWR)
    first.release()
    real_open = job_lock._open
    opened: list[int] = []

    def open_stale_first(p: Path) -> int:
        fd = stale if not opened else real_open(p)
        opened.append(fd)
        return fd

    monkeypatch.setattr(job_lock, "_open", open_stale_first)
    second = job_lock.acquire(path)
    assert len(opened) == 2  # the removed file was dropped, the new one taken
    fd = os.open(job_lock.lock_path(path), os.O_RDWR)
    try:
        with pytest.raises(BlockingIOError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(fd)
    second.release()


def test_a_copy_of_a_running_job_is_refused_by_its_id_until_the_holder_dies(
    tmp_path: Path,
) -> None:
    """Another process runs the job ``the-job`` from one file; the same job from a copy of that
    file (another path) is refused in the same sentence, holds nothing, and is let in once the
    holder is SIGKILLed."""
    original = tmp_path / "jobs" / "the-job.dncjob"
    original.parent.mkdir()
    copy = tmp_path / "elsewhere" / "copy.dncjob"
    copy.parent.mkdir()
    holder = _holder(original)
    try:
        assert job_lock.id_lock_path("the-job").exists()
        with pytest.raises(JobBusy) as refused:
            job_lock.acquire(copy, "the-job")
        found = BUSY.match(str(refused.value))
        assert found, str(refused.value)
        assert (found["job"], int(found["pid"])) == ("the-job", holder.pid)
        # Refused on the id after taking the copy's path lock: that one was let go again.
        assert not job_lock.lock_path(copy).exists()
        assert not job_lock.held_by_this_thread(copy)
        # Another job is not held up.
        job_lock.acquire(copy, "another-job").release()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=10)
    lock = job_lock.acquire(copy, "the-job")
    assert lock.id_path == job_lock.id_lock_path("the-job")
    assert lock.id_path.parent == AppPaths.default().locks_dir
    lock.release()
    assert not job_lock.id_lock_path("the-job").exists()
    assert not job_lock.lock_path(copy).exists()


def test_a_copy_in_this_process_is_refused_and_odd_ids_stay_in_the_locks_folder(
    tmp_path: Path,
) -> None:
    first = job_lock.acquire(tmp_path / "a.dncjob", "import-1")
    with pytest.raises(JobBusy, match=r"^Job import-1 is already being run by this program"):
        job_lock.acquire(tmp_path / "b.dncjob", "import-1")
    assert not job_lock.lock_path(tmp_path / "b.dncjob").exists()
    first.release()
    job_lock.acquire(tmp_path / "b.dncjob", "import-1").release()
    # An id from a hand-edited job file never names a path outside the locks folder.
    odd = job_lock.acquire(tmp_path / "c.dncjob", "../../x/..")
    assert odd.id_path is not None and odd.id_path.parent == AppPaths.default().locks_dir
    assert odd.id_path.is_file()
    odd.release()


def _copy_job(store: JobStore, to: Path) -> Path:
    """A consistent copy of a job file (SQLite's backup), as a person's copy would be."""
    import sqlite3

    to.parent.mkdir(parents=True, exist_ok=True)
    source, target = sqlite3.connect(store.path), sqlite3.connect(to)
    with target:
        source.backup(target)
    source.close()
    target.close()
    return to


def test_a_copy_made_before_the_job_finished_is_refused_and_sends_nothing(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    """A copy taken before the run holds every row as pending: resuming it after the original
    finished would insert nothing new and call each of this job's inserts "already present"."""
    store = staged(session, tmp_path, rows=6)
    job = str(store.meta()["job_id"])
    copy = _copy_job(store, tmp_path / "backup" / "copy.dncjob")
    assert run_import(store, session) is JobStatus.FINISHED
    stale = JobStore(copy)
    with pytest.raises(job_lock.JobCopied) as refused:
        run_import(stale, session)
    assert re.fullmatch(
        rf"Job {re.escape(job)} was already finished on \d{{4}}-\d\d-\d\dT[\d:]+\+00:00 from "
        rf"{re.escape(os.path.realpath(store.path))}; this file is a copy made before that, "
        r"and resuming it would send its rows again\.",
        str(refused.value),
    ), str(refused.value)
    assert stale.counts()["pending"] == 6  # untouched
    stale.close()
    assert sum(intents(session, job).values()) == 6  # nothing was sent twice
    # The original itself is not a copy: asking it again is answered from its own status.
    assert run_import(store, session) is JobStatus.FINISHED
    store.close()


def test_a_copy_of_a_job_that_ran_on_is_refused_while_that_file_is_there(
    tmp_path: Path,
) -> None:
    original, copy = tmp_path / "jobs" / "a.dncjob", tmp_path / "b.dncjob"
    original.parent.mkdir()
    original.write_bytes(b"job")
    copy.write_bytes(b"job")
    lock = job_lock.acquire(original, "job-7")
    lock.ended = "paused"
    lock.release()
    with pytest.raises(job_lock.JobCopied, match=r"^Job job-7 last ran from .*a\.dncjob \("):
        job_lock.acquire(copy, "job-7")
    assert not job_lock.held_by_this_thread(copy)
    # The original resumes (same file), a stop that is not an end keeps the copy out.
    job_lock.acquire(original, "job-7").release()
    with pytest.raises(job_lock.JobCopied):
        job_lock.acquire(copy, "job-7")
    # A job file that was moved: the old path is gone, so the moved file runs, and the
    # record follows it (the old name, put back, is now the stale one).
    original.rename(tmp_path / "moved.dncjob")
    job_lock.acquire(copy, "job-7").release()
    original.write_bytes(b"job")
    with pytest.raises(job_lock.JobCopied, match=r"last ran from .*b\.dncjob"):
        job_lock.acquire(original, "job-7")
