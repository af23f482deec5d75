"""Black-box finding S31 bb4 #6: two imports of one file started at once (one data folder) both
ran; rows one inserted through lost answers the other recorded as "already in DNC … not late",
crediting nobody, and the officer never learned the file was being sent twice.

Now a new import or removal of a file (the same path, or a file with the same SHA-256) into the
same list and scope as a job that runs now, was just started by a live process, or is left to
resume is refused in one sentence naming that job and what to do; the refused job's file is
removed (nothing of it was sent). A finished job of the file does not refuse a re-run, nor does
a job writing to another list.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.job_catalog import read_job
from app.core.paths import AppPaths
from tests.cli.test_jobs_cmd import STARTED, _csv, _done_rows, _spawn, _wait_for_line
from tests.conftest import READ_ONLY_TOKEN, TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _job_files() -> list[str]:
    return sorted(p.stem for p in AppPaths.default().jobs_dir.glob("*.dncjob"))


def _ended(proc: subprocess.Popen[bytes]) -> int:
    try:
        return proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise


def test_a_second_process_importing_a_file_being_imported_is_refused_naming_that_job(
    sandbox: Any, tmp_path: Path
) -> None:
    sandbox.set_faults(latency_ms=300)
    src = _csv(tmp_path / "big.csv", 200)
    copy = tmp_path / "copy.csv"
    copy.write_bytes(src.read_bytes())
    where = ["--into", "dnc", "--scope", "global", "--base-url", sandbox.base_url]
    first = _spawn(["import", str(src), *where, "--concurrency", "1"], tmp_path / "a.txt")
    try:
        job_id = _wait_for_line(tmp_path / "a.txt", first, STARTED)[1]
        job = AppPaths.default().jobs_dir / f"{job_id}.dncjob"
        deadline = time.monotonic() + 30
        while _done_rows(job) == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        # A second terminal: the same file, then a copy of it (same content, other name).
        for n, other in enumerate((src, copy)):
            out = tmp_path / f"b{n}.txt"
            second = _spawn(["import", str(other), *where], out)
            assert _ended(second) == 1, out.read_text()
            said = out.read_text()
            assert said.startswith(f"Import of {other.name} not started: job {job_id}"), said
            assert "made from big.csv on " in said and "the DNC list (scope global)" in said
            assert f"is running now (pid {first.pid}; " in said
            assert "wait for it to end" in said and said.count("\n") == 1, said
            # Nothing of the refused job was kept, nor sent: the first runs on alone.
            assert _job_files() == [job_id]
            assert first.poll() is None
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)


def test_two_imports_of_one_file_started_at_once_run_one(sandbox: Any, tmp_path: Path) -> None:
    sandbox.set_faults(latency_ms=100)
    src = _csv(tmp_path / "in.csv", 10)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    argv += ["--base-url", sandbox.base_url, "--concurrency", "1"]
    procs = [_spawn(argv, tmp_path / f"{n}.txt") for n in range(2)]
    codes = [_ended(p) for p in procs]
    outputs = [(tmp_path / f"{n}.txt").read_text() for n in range(2)]
    assert sorted(codes) == [0, 1], outputs
    ran, refused = (outputs[0], outputs[1]) if codes[0] == 0 else (outputs[1], outputs[0])
    (job_id,) = _job_files()
    assert f"Job {job_id} started" in ran and "inserted: 10" in ran
    assert refused.startswith(f"Import of in.csv not started: job {job_id}"), refused


def test_an_unfinished_job_of_the_file_refuses_a_new_one_and_a_finished_one_does_not(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = _csv(tmp_path / "in.csv", 3)
    base = ["import", str(src), "--into", "dnc", "--scope", "global"]
    base += ["--base-url", sandbox.base_url]
    # Paused by a token that may read but not write: 3 rows left to send.
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    assert main([*base, "--json", "--name", "Spring list"]) == 1
    paused = json.loads(capsys.readouterr().out)["job"]
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    resume = f"dnc-desk import --resume {paused} --base-url {sandbox.base_url}"
    assert main(base) == 1
    out, err = capsys.readouterr()
    job_file = AppPaths.default().jobs_dir / f"{paused}.dncjob"
    created = read_job(job_file).meta["created"]
    assert err == (
        f"Import of in.csv not started: job {paused} (Spring list), made from in.csv on "
        f"{created} UTC, sends the same rows to the DNC list (scope global) and is "
        f"not finished (paused, 0 of 3 rows done); finish it with {resume}, so that no row is "
        f"sent twice; to start anew instead, cancel it first: dnc-desk jobs cancel {paused}.\n"
    ), err
    assert out == "" and _job_files() == [paused]
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    # Into another list it is another job's work: not refused.
    sms = ["import", str(src), "--into", "sms-opt-out", "--scope", "global"]
    assert main([*sms, "--base-url", sandbox.base_url]) == 0
    assert "finished." in capsys.readouterr().out
    # Finished, the job no longer stands in the way: a re-run of the file is normal.
    assert main(resume.split()[1:]) == 0
    capsys.readouterr()
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 3
    assert main(base) == 0
    assert "finished." in capsys.readouterr().out


def test_a_removal_of_a_file_an_unfinished_removal_was_made_from_is_refused(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = _csv(tmp_path / "gone.csv", 2)
    where = ["--scope", "global", "--base-url", sandbox.base_url]
    assert main(["import", str(src), "--into", "dnc", *where]) == 0
    capsys.readouterr()
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    assert main(["remove", str(src), *where, "--json", "--note", "ticket 7"]) == 1
    paused = json.loads(capsys.readouterr().out)["job"]
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    assert main(["remove", str(src), *where, "--note", "ticket 7"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Removal of gone.csv not started: job {paused} "), err
    assert f"finish it with dnc-desk remove --resume {paused} " in err
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 2
