"""``--resume`` of a job another process is running: refused in one sentence, non-zero exit,
and the job still sends every row exactly once (the service and the journal agree)."""

from __future__ import annotations

import csv
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app.core import job_lock
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
ROWS = 300
CONCURRENCY = 4


def _csv(path: Path) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["phone"])
        writer.writerows([[f"(303) 555-{i:04d}"] for i in range(ROWS)])
    return path


def _cli(*argv: str) -> subprocess.Popen[str]:
    env = {**os.environ, "DNC_DESK_TOKEN": TOKEN}  # the test's data and config dirs too
    return subprocess.Popen(
        [sys.executable, "-m", "app", *argv],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _running_job(paths: AppPaths, proc: subprocess.Popen[str], kind: str) -> Path:
    """The job file of ``proc`` once it has some rows done and many still to send."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        for job in paths.jobs_dir.glob(f"{kind}-*.dncjob"):
            try:
                with sqlite3.connect(f"file:{job}?mode=ro", uri=True) as db:
                    n = db.execute("SELECT count(*) FROM rows WHERE state = 'done'").fetchone()[0]
            except sqlite3.Error:
                continue
            if n >= 10:
                assert n < ROWS // 2, "the first run is too fast for this test"
                return job
        time.sleep(0.02)
    raise AssertionError("the job made no progress")


def _sent_once(paths: AppPaths, job: str, operation: str) -> None:
    journal = ChangeJournal(paths.journal_db)
    events = journal.query(job=job, limit=10_000)
    journal.close()
    per_phone = Counter(e.phone for e in events if e.phase == "intent" and e.operation == operation)
    assert set(per_phone) == {f"+1303555{i:04d}" for i in range(ROWS)}
    assert set(per_phone.values()) == {1}, "a row was sent twice"
    ops = Counter(e.operation for e in events)
    assert (ops["job.start"], ops["job.resume"], ops["job.finish"]) == (1, 0, 1)


def _refused(
    command: str, job: Path, first: subprocess.Popen[str], base_url: str, resume: str = ""
) -> None:
    # With a pace of its own: a refused resume must not change the running job's stored pace.
    second = _cli(
        command, "--resume", resume or job.stem, "--base-url", base_url, "--concurrency", "7"
    )
    out, err = second.communicate(timeout=60)
    assert second.returncode != 0, f"the second run was not refused: {out} {err}"
    assert first.poll() is None, "the first run ended before the second was refused"
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    sentence = (
        rf"Job {job.stem} is being run by another process \(pid {first.pid}, since \d\d:\d\d\); "
        r"wait for it to finish or stop it first\."
    )
    assert re.fullmatch(sentence, err.strip()), err  # no "Resume with:" hint: nothing ran here


@pytest.mark.slow
def test_import_resume_while_another_process_runs_it_is_refused(
    sandbox: Any, tmp_path: Path
) -> None:
    paths = AppPaths.default()
    sandbox.set_faults(latency_ms=60)
    first = _cli(
        *("import", str(_csv(tmp_path / "in.csv")), "--into", "dnc", "--scope", "global"),
        *("--base-url", sandbox.base_url, "--concurrency", str(CONCURRENCY), "--json"),
    )
    job = _running_job(paths, first, "import")
    _refused("import", job, first, sandbox.base_url)
    # Refused while the first run was still going: the latency that kept it going has done its
    # job, and the rest of the run (every row sent once, checked below) needs none.
    sandbox.set_faults(latency_ms=0)
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    with sqlite3.connect(f"file:{job}?mode=ro", uri=True) as db:
        stored = dict(db.execute("SELECT key, value FROM meta WHERE key = 'concurrency'"))
    assert json.loads(stored["concurrency"]) == CONCURRENCY, "the refused resume changed it"
    data = json.loads(out)
    assert data["status"] == "finished"
    assert (data["inserted"], data["already_present"], data["pending"]) == (ROWS, 0, 0)
    numbers = [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")]
    assert len(numbers) == len(set(numbers)) == ROWS
    _sent_once(paths, data["job"], "dnc.insert")
    assert not job_lock.lock_path(job).exists()  # released with the run


@pytest.mark.slow
def test_remove_resume_while_another_process_runs_it_is_refused(
    sandbox: Any, tmp_path: Path
) -> None:
    paths = AppPaths.default()
    src = _csv(tmp_path / "in.csv")
    # The numbers the file lists, on the list as an import of it leaves them (put straight in
    # the sandbox: a CLI import first cost a process start and its own run).
    added = sandbox.bulk_seed_dnc([(f"303555{i:04d}", "1", "0", "", "") for i in range(ROWS)])
    assert added == ROWS
    sandbox.set_faults(latency_ms=60)
    first = _cli(
        *("remove", str(src), "--scope", "global", "--base-url", sandbox.base_url),
        *("--concurrency", str(CONCURRENCY), "--json", "--note", "Consumer asked"),
    )
    job = _running_job(paths, first, "removal")
    _refused("remove", job, first, sandbox.base_url)
    # Refused while the first run was still going: the latency that kept it going has done its
    # job, and the rest of the run (every row sent once, checked below) needs none.
    sandbox.set_faults(latency_ms=0)
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    data = json.loads(out)
    assert (data["status"], data["removed"], data["not_found"]) == ("finished", ROWS, 0)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    _sent_once(paths, data["job"], "dnc.delete")


@pytest.mark.slow
def test_a_copy_of_the_job_file_is_refused_while_the_original_runs(
    sandbox: Any, tmp_path: Path
) -> None:
    """The lock is on the job's id too: a copy of the job file (elsewhere, under another name)
    carries the id, and running it beside the original would send the same rows twice."""
    paths = AppPaths.default()
    sandbox.set_faults(latency_ms=60)
    first = _cli(
        *("import", str(_csv(tmp_path / "in.csv")), "--into", "dnc", "--scope", "global"),
        *("--base-url", sandbox.base_url, "--concurrency", str(CONCURRENCY), "--json"),
    )
    job = _running_job(paths, first, "import")
    copy = tmp_path / "elsewhere" / "copy.dncjob"
    copy.parent.mkdir()
    # A consistent copy of the running job (its WAL included), as a backup tool would make.
    with sqlite3.connect(f"file:{job}?mode=ro", uri=True) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    src.close()
    dst.close()
    _refused("import", job, first, sandbox.base_url, resume=str(copy))
    # Refused while the first run was still going: the latency that kept it going has done its
    # job, and the rest of the run (every row sent once, checked below) needs none.
    sandbox.set_faults(latency_ms=0)
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    data = json.loads(out)
    assert (data["status"], data["inserted"], data["already_present"]) == ("finished", ROWS, 0)
    _sent_once(paths, data["job"], "dnc.insert")
    # Both lock files went with the run.
    assert not job_lock.lock_path(job).exists()
    assert not job_lock.id_lock_path(job.stem).exists()
    assert not job_lock.lock_path(copy).exists()
    # Once the original has finished, the copy (its rows pending as when it was made) is
    # still refused: resuming it would send them again and call them "already present".
    late = _cli("import", "--resume", str(copy), "--base-url", sandbox.base_url)
    out, err = late.communicate(timeout=60)
    assert late.returncode != 0, f"the stale copy ran: {out} {err}"
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert re.fullmatch(
        rf"Job {job.stem} was already finished on \S+ from {re.escape(os.path.realpath(job))}; "
        r"this file is a copy made before that, and resuming it would send its rows again\.",
        err.strip(),
    ), err
    _sent_once(paths, data["job"], "dnc.insert")
