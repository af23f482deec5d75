"""``jobs --json`` gives each job a ``state_code``: one word of a fixed set
(:data:`~app.core.job_catalog.STATE_CODES`) that scripts test, beside ``state``, worded for a
person ("stopped while reading its file (nothing sent)", "dry run") and free to be reworded.

Each word is produced by a real job in that state, listed by the real CLI: jobs run through
``main`` against a sandbox over loopback, killed by SIGKILL mid-run or while reading their
file, run now by another process, paused by a refused token, cancelled, never started.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from app.core.connections import Connection
from app.core.job_catalog import STATE_CODES
from app.core.job_runner import JobControl
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.cli.test_job_killed_while_staging import _killed_while_reading
from tests.cli.test_jobs_cmd import (
    STARTED,
    _csv,
    _done_rows,
    _killed_import,
    _paused_removal,
    _spawn,
    _wait_for_line,
)
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
# The child reads its file as the CLI does, but holds still after storing its first rows, as a
# big file's staging is seen midway by another process listing the jobs.
_HELD_STAGING = """
import sys, time
from app.core.job_store import JobStore

real = JobStore.add_rows

def add_rows(self, rows, batch=5000):
    real(self, (r for _, r in zip(range(3), rows)), batch=batch)
    print("held", flush=True)
    time.sleep(120)

JobStore.add_rows = add_rows
from app.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _listed(capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    assert main(["jobs", "--all", "--json"]) == 0
    jobs = json.loads(capsys.readouterr().out)["jobs"]
    return {job["job"]: job for job in jobs}


def _codes(capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    return {job_id: job["state_code"] for job_id, job in _listed(capsys).items()}


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    main([*argv, "--json"])
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_every_settled_state_has_its_word(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = ["--base-url", sandbox.base_url]
    jobs_dir = AppPaths.default().jobs_dir
    done = _csv(tmp_path / "done.csv", 2, "202555")
    base = ["import", str(done), "--into", "dnc", "--scope", "global"]
    finished = _json(capsys, [*base, *url])["job"]
    dry = _json(capsys, [*base, "--dry-run"])["job"]
    paused = _paused_removal(sandbox, tmp_path, capsys, monkeypatch)
    sandbox.set_faults(latency_ms=3000)
    interrupted, _, _ = _killed_import(sandbox, _csv(tmp_path / "big.csv", 20), tmp_path)
    sandbox.set_faults(latency_ms=0)
    # A removal staged and never run, and one cancelled before its first row.
    src = _csv(tmp_path / "later.csv", 3, "415555")
    ready_store, _ = stage_removal(
        JobSettings(src, Scope.global_(), note="later"), jobs_dir, connection=None
    )
    ready = str(ready_store.meta()["job_id"])
    ready_store.close()
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    connection = Connection("Sandbox", sandbox.base_url)
    session = Session(connection, ApiClient(sandbox.base_url, TOKEN), journal)
    store, _ = stage_removal(
        JobSettings(src, Scope.global_(), note="no"), jobs_dir, connection=connection
    )
    control = JobControl()
    control.cancel()
    try:
        assert run_removal(store, session, concurrency=1, control=control) is (JobStatus.CANCELLED)
        cancelled = str(store.meta()["job_id"])
    finally:
        store.close()
        session.close()
        journal.close()
    # A job file that cannot be read.
    (jobs_dir / "import-broken.dncjob").write_bytes(b"not a job file\n" * 10)

    listed = _listed(capsys)
    codes = {job_id: job["state_code"] for job_id, job in listed.items()}
    assert codes == {
        finished: "finished",
        dry: "dry_run",
        paused: "paused",
        interrupted: "interrupted",
        ready: "ready",
        cancelled: "cancelled",
        "import-broken": "unreadable",
    }
    # The phrase stays as documented beside it.
    assert listed[dry]["state"] == "dry run" and listed[interrupted]["state"] == "interrupted"


def test_a_job_another_process_runs_now_is_running(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.set_faults(latency_ms=300)
    output = tmp_path / "out.txt"
    src = _csv(tmp_path / "big.csv", 200)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--concurrency", "1"]
    proc = _spawn([*argv, "--base-url", sandbox.base_url], output)
    try:
        job_id = _wait_for_line(output, proc, STARTED)[1]
        job = AppPaths.default().jobs_dir / f"{job_id}.dncjob"
        deadline = time.monotonic() + 30
        while _done_rows(job) == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _codes(capsys) == {job_id: "running"}
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert _codes(capsys) == {job_id: "interrupted"}


def test_a_job_reading_its_file_then_killed_there(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _csv(tmp_path / "in.csv", 30)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    argv += ["--base-url", sandbox.base_url]
    paths = AppPaths.default()
    env = {
        **os.environ,
        "DNC_DESK_TOKEN": TOKEN,
        "DNC_DESK_DATA_DIR": str(paths.data_dir),
        "DNC_DESK_CONFIG_DIR": str(paths.config_dir),
    }
    proc = subprocess.Popen(
        [sys.executable, "-c", _HELD_STAGING, *argv],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        (job,) = paths.jobs_dir.glob("*.dncjob")
        listed = _listed(capsys)
        assert listed[job.stem]["state_code"] == "reading"
        assert listed[job.stem]["state"] == "reading its file"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert _codes(capsys) == {job.stem: "stopped_reading"}


def test_a_job_killed_while_reading_its_file_is_stopped_reading(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _csv(tmp_path / "in.csv", 30)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    job = _killed_while_reading([*argv, "--base-url", sandbox.base_url], 10)
    listed = _listed(capsys)
    assert listed[job.stem]["state_code"] == "stopped_reading"
    assert listed[job.stem]["state"] == "stopped while reading its file (nothing sent)"


def test_the_words_are_the_documented_set() -> None:
    # Every word above, and no other: a new state needs a word, a test and a line in the docs.
    assert set(STATE_CODES) == {
        "ready",
        "running",
        "interrupted",
        "paused",
        "finished",
        "cancelled",
        "dry_run",
        "reading",
        "stopped_reading",
        "unreadable",
    }
