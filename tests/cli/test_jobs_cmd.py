"""Black-box finding D6: a job killed by SIGKILL left no trace of its id in its output, the CLI
could not list jobs, and importing the file again said nothing of the interrupted job.

Now a job that starts sending says its id and resume command on stderr before any row is
sent (flushed, so a SIGKILL leaves it in a redirected output); ``dnc-desk jobs`` lists the
jobs that can be resumed (``--all`` every job, newest first), saying which one another process
runs now; and a dry run of a file an unfinished job of the same kind was made from names that
job and its ``--resume`` command (a real run of it into the same list and scope is refused:
tests/cli/test_same_file_jobs.py).
"""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.job_catalog import read_job
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from tests.conftest import READ_ONLY_TOKEN, TOKEN

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _csv(path: Path, n: int, prefix: str = "303555") -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[f"{prefix}{i:04d}"] for i in range(n)])
    return path


def _spawn(argv: list[str], output: Path) -> subprocess.Popen[bytes]:
    """``python -m app ARGV`` with stdout and stderr both going to the file ``output``, as
    ``dnc-desk … > out.txt 2>&1 &`` runs it."""
    paths = AppPaths.default()
    env = {
        **os.environ,
        "DNC_DESK_TOKEN": TOKEN,
        "DNC_DESK_DATA_DIR": str(paths.data_dir),
        "DNC_DESK_CONFIG_DIR": str(paths.config_dir),
    }
    with output.open("wb") as fh:
        return subprocess.Popen(
            [sys.executable, "-m", "app", *argv], cwd=ROOT, env=env, stdout=fh, stderr=fh
        )


def _wait_for_line(output: Path, proc: subprocess.Popen[bytes], pattern: str) -> re.Match[str]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = re.search(pattern, output.read_text())
        if found:
            return found
        assert proc.poll() is None, output.read_text()
        time.sleep(0.05)
    raise AssertionError(f"no line matching {pattern!r}: {output.read_text()!r}")


def _done_rows(job: Path) -> int:
    with JobStore(job) as store:
        counts = store.counts()
    return sum(counts.values()) - counts["pending"]


STARTED = r"Job (import-\S+) started: if it stops before its end, resume it with: (dnc-desk .*)\n"


def _killed_import(
    sandbox: Any, src: Path, tmp_path: Path, *, running: bool = True
) -> tuple[str, str, str]:
    """An import killed by SIGKILL with its output in a file: (job id, resume command, output).
    Killed once its file says it runs (``running``), else as soon as it says its id."""
    output = tmp_path / "out.txt"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    proc = _spawn([*argv, "--base-url", sandbox.base_url, "--concurrency", "2"], output)
    try:
        found = _wait_for_line(output, proc, STARTED)
        job = AppPaths.default().jobs_dir / f"{found[1]}.dncjob"
        deadline = time.monotonic() + 30
        while running and read_job(job).status != "running":
            assert time.monotonic() < deadline and proc.poll() is None, output.read_text()
            time.sleep(0.02)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    return found[1], found[2], output.read_text()


def test_a_job_killed_by_sigkill_left_its_id_and_resume_command_in_its_output(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every request takes long enough that no row can have been answered when the line is out.
    sandbox.set_faults(latency_ms=3000)
    src = _csv(tmp_path / "big.csv", 50)
    job_id, command, output = _killed_import(sandbox, src, tmp_path, running=False)
    assert output.startswith(f"Job {job_id} started: ")
    assert command == f"dnc-desk import --resume {job_id} --base-url {sandbox.base_url} " + (
        "--concurrency 2"
    )
    job = AppPaths.default().jobs_dir / f"{job_id}.dncjob"
    assert _done_rows(job) == 0  # said before any row was answered
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    # The command printed is the way on.
    sandbox.set_faults(latency_ms=0)
    assert main(command.split()[1:]) == 0
    out = capsys.readouterr().out
    assert "finished." in out and "pending: 0" in out
    # The rows in flight at the kill may have been inserted meanwhile: sent again, they are
    # "already present"; every number is on the list once.
    assert sandbox.store.scalar("SELECT count(DISTINCT phone_number) FROM dnc") == 50


def test_json_stdout_stays_one_object_with_the_started_line_on_stderr(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _csv(tmp_path / "in.csv", 3)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)  # one object, nothing else
    assert data["inserted"] == 3
    started = (
        f"Job {data['job']} started: if it stops before its end, resume it with: "
        f"dnc-desk import --resume {data['job']} --base-url {sandbox.base_url}\n"
    )
    # Then the job's warnings (3035550000 may be a number cut short), before a row is sent.
    assert data["warnings"]
    assert err == started + "".join(f"note: {w}\n" for w in data["warnings"])
    # A dry run sends nothing and starts no job: no such line.
    assert main([*argv, "--base-url", sandbox.base_url, "--dry-run"]) == 0
    assert "started" not in capsys.readouterr().err


def _paused_removal(sandbox: Any, tmp_path: Path, capsys: Any, monkeypatch: Any) -> str:
    """A removal paused by the service refusing its token (a read-only one) at the first
    delete: resumable, with every row left to send."""
    numbers = [f"720555{i:04d}" for i in range(4)]
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in numbers])
    src = tmp_path / "remove.csv"
    src.write_text("Phone\n" + "\n".join(numbers) + "\n")
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    argv = ["remove", str(src), "--scope", "global", "--note", "asked", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "paused" and data["pending"] > 0
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    return str(data["job"])


def test_jobs_lists_the_resumable_jobs_newest_first_and_all_of_them_with_all(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    jobs_dir = AppPaths.default().jobs_dir
    assert main(["jobs"]) == 0
    assert capsys.readouterr().out == f"No job can be resumed ({jobs_dir}).\n"
    # A finished import and a dry run: nothing to resume.
    done = _csv(tmp_path / "done.csv", 2, "202555")
    base = ["import", str(done), "--into", "dnc", "--scope", "global", "--json"]
    assert main([*base, "--base-url", sandbox.base_url]) == 0
    finished = json.loads(capsys.readouterr().out)["job"]
    assert main([*base, "--dry-run"]) == 0
    dry = json.loads(capsys.readouterr().out)["job"]
    time.sleep(1.1)  # jobs are ordered by their creation, to the second
    # An import killed mid-run, then a removal paused by its refused token.
    sandbox.set_faults(latency_ms=3000)
    killed, command, _ = _killed_import(sandbox, _csv(tmp_path / "big.csv", 20), tmp_path)
    sandbox.set_faults(latency_ms=0)
    time.sleep(1.1)
    removal = _paused_removal(sandbox, tmp_path, capsys, monkeypatch)

    before = sorted(jobs_dir.iterdir())
    assert main(["jobs"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"Jobs that can be resumed, newest first ({jobs_dir}):"
    assert out[1].split() == ["JOB", "KIND", "STATUS", "DONE", "STARTED", "(UTC)", "NAME", "FILE"]
    assert out[2].split()[:3] == [removal, "removal", "paused"]
    assert out[2].split()[3].endswith("/4")
    assert out[2].rstrip().endswith(str(tmp_path / "remove.csv"))
    assert out[3].split()[:4] == [killed, "import", "interrupted", "0/20"]
    assert out[3].rstrip().endswith(str(tmp_path / "big.csv"))
    assert out[4:] == [
        "To resume:",
        f"  dnc-desk remove --resume {removal} --base-url {sandbox.base_url}",
        f"  {command}",
        "2 other jobs cannot be resumed (finished, cancelled, dry runs, nothing left to send); "
        "--all lists every job.",
    ]

    assert main(["jobs", "--all"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"Every job, newest first ({jobs_dir}):"
    listed = [line.split()[:3] for line in out[2:6]]
    assert [row[0] for row in listed] == [removal, killed, dry, finished] or [
        row[0] for row in listed
    ] == [removal, killed, finished, dry]  # the two first ones made in the same second
    states = {row[0]: row[2] for row in listed}
    assert states[finished] == "finished" and states[dry] == "dry"  # "dry run"

    assert main(["jobs", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["all"] is False and data["not_listed"] == 2
    assert data["jobs_folder"] == str(jobs_dir)
    first, second = data["jobs"]
    assert first["job"] == removal and first["kind"] == "removal"
    assert (first["status"], first["state"], first["rows"]) == ("paused", "paused", 4)
    assert first["pending"] > 0 and first["done"] + first["pending"] == 4
    assert second["job"] == killed and second["status"] == "running"
    assert second["state"] == "interrupted" and second["running"] is None
    assert second["resumable"] is True and second["resume"] == command
    assert second["file"] == str(tmp_path / "big.csv") and second["name"] == "Import of big.csv"
    assert second["started"] and second["created"]
    assert main(["jobs", "--json", "--all"]) == 0
    every = json.loads(capsys.readouterr().out)["jobs"]
    by_id = {j["job"]: j for j in every}
    assert by_id[finished]["state"] == "finished" and by_id[finished]["resume"] is None
    assert by_id[dry]["status"] == "dry_run" and by_id[dry]["state"] == "dry run"
    # Listing wrote nothing beside the job files (no -wal or -shm of a file only looked at;
    # the killed runner's own are still there).
    assert sorted(jobs_dir.iterdir()) == before


def test_a_job_another_process_runs_now_says_so(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.set_faults(latency_ms=300)
    src = _csv(tmp_path / "big.csv", 400)
    output = tmp_path / "out.txt"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--concurrency", "1"]
    proc = _spawn([*argv, "--base-url", sandbox.base_url], output)
    try:
        job_id = _wait_for_line(output, proc, STARTED)[1]
        job = AppPaths.default().jobs_dir / f"{job_id}.dncjob"
        deadline = time.monotonic() + 30
        while _done_rows(job) == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert main(["jobs", "--json"]) == 0
        (listed,) = json.loads(capsys.readouterr().out)["jobs"]
        assert listed["job"] == job_id and listed["state"] == "running"
        assert listed["running"]["pid"] == proc.pid
        assert listed["resumable"] is False and listed["resume"] is None
        assert main(["jobs"]) == 0
        out = capsys.readouterr().out
        assert f"running now (pid {proc.pid}, since " in out
        assert f"  {job_id} is being run now by pid {proc.pid}, since " in out
        # A new import of the same file says that job runs now, and runs.
        assert main([*argv, "--base-url", sandbox.base_url, "--dry-run"]) == 0
        err = capsys.readouterr().err
        assert re.search(
            rf"note: Job {job_id}, made from big\.csv on \S+ \S+ UTC, is being run now "
            rf"\(pid {proc.pid}; [\d,]+ of 400 rows done\); this dry run sends nothing and "
            r"leaves it as it is\.\n",
            err,
        ), err
        # Listing took nothing from the runner: it still runs, and still holds its job.
        assert proc.poll() is None
        assert main(["import", "--resume", job_id]) == 1
        assert "is being run by another process" in capsys.readouterr().err
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert main(["jobs", "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)["jobs"]
    assert listed["state"] == "interrupted" and listed["running"] is None


def test_a_new_job_from_a_file_an_unfinished_job_was_made_from_names_that_job(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = _csv(tmp_path / "in.csv", 3)
    base = [
        "import",
        str(src),
        "--into",
        "dnc",
        "--scope",
        "global",
        "--base-url",
        sandbox.base_url,
    ]
    # An import paused by a token that may read but not write: resumable, 3 rows to send.
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    assert main([*base, "--json"]) == 1
    paused = json.loads(capsys.readouterr().out)["job"]
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    resume = f"dnc-desk import --resume {paused} --base-url {sandbox.base_url}"
    note = re.compile(
        rf"Job {paused}, made from in\.csv on \S+ \S+ UTC, can still be resumed \(paused, 0 of 3 "
        rf"rows done\): to finish it instead, run {re.escape(resume)}; (?P<this>[^.]*)\."
    )
    # A dry run says so, on stderr and among the JSON's warnings.
    assert main([*base, "--dry-run", "--json"]) == 0
    out, err = capsys.readouterr()
    (said,) = [line for line in err.splitlines() if line.startswith("note: ")]
    found = note.fullmatch(said.removeprefix("note: "))
    assert found and found["this"] == "this dry run sends nothing and leaves it as it is", said
    assert said.removeprefix("note: ") in json.loads(out)["warnings"]
    # A real import would send the same rows beside it: refused, naming it (S31 bb4 #6).
    assert main(base) == 1
    err = capsys.readouterr().err
    assert f"job {paused} (Import of in.csv), made from in.csv on " in err
    assert f"finish it with {resume}" in err
    # The same file by another path, and a copy of it: the same file, the same content.
    copy = tmp_path / "sub" / "copy.csv"
    copy.parent.mkdir()
    copy.write_bytes(src.read_bytes())
    for other in (tmp_path / "sub" / ".." / "in.csv", copy):
        argv = ["import", str(other), "--into", "dnc", "--scope", "global", "--dry-run"]
        assert main(argv) == 0
        assert f"note: Job {paused}, made from" in capsys.readouterr().err, other
    # A removal of that file: no unfinished removal was made from it.
    argv = ["remove", str(src), "--scope", "global", "--dry-run"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    assert "note:" not in capsys.readouterr().err
    # Once the paused job is finished, nothing is said.
    assert main(resume.split()[1:]) == 0
    capsys.readouterr()
    assert main([*base, "--dry-run"]) == 0
    assert "note:" not in capsys.readouterr().err


def test_a_killed_job_is_named_when_its_file_is_imported_again(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.set_faults(latency_ms=3000)
    src = _csv(tmp_path / "big.csv", 20)
    killed, command, _ = _killed_import(sandbox, src, tmp_path)
    sandbox.set_faults(latency_ms=0)
    assert main(["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert f"note: Job {killed}, made from big.csv on " in err
    assert (
        "can still be resumed (interrupted, 0 of 20 rows done): to finish it instead, run "
        f"{command}; this dry run sends nothing and leaves it as it is."
    ) in err
