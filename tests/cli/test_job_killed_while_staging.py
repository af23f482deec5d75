"""A job killed while its file was being read (black-box B14 F1): never run, never "finished".

A real ``dnc-desk import`` (or ``remove``) is SIGKILLed at a fixed point of its staging: after
its job file was made and none, or some, of its rows were stored, before staging's last write.
A kill by timing lands there only sometimes; here the process kills itself at that point (the
real JobStore.add_rows stores the first rows, then SIGKILL). The real CLI then lists and
resumes the job: the resume sent the rows stored (or none) and called the job finished.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.job_catalog import list_jobs
from app.core.job_store import JobStore
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = [f"303555{i:04d}" for i in range(30)]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the child kills itself: SIGKILL")

# Run in the child: the real add_rows stores the first KEEP rows, then the process is killed
# as a SIGKILL kills it (no exception handler, no cleanup runs).
_KILLED_STAGING = """
import os, signal, sys
from app.core.job_store import JobStore

keep = int(sys.argv[1])
real = JobStore.add_rows

def add_rows(self, rows, batch=5000):
    if keep:
        real(self, (r for _, r in zip(range(keep), rows)), batch=batch)
    os.kill(os.getpid(), signal.SIGKILL)

JobStore.add_rows = add_rows
from app.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def _csv(path: Path) -> Path:
    path.write_text("Phone\n" + "".join(f"{n}\n" for n in NUMBERS))
    return path


def _killed_while_reading(command: list[str], keep: int) -> Path:
    """Run ``dnc-desk COMMAND`` until it has stored ``keep`` rows, killed there; its job file."""
    env = {**os.environ, "DNC_DESK_TOKEN": TOKEN}
    proc = subprocess.run(
        [sys.executable, "-c", _KILLED_STAGING, str(keep), *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    (job,) = AppPaths.default().jobs_dir.glob("*.dncjob")
    with sqlite3.connect(job) as db:
        assert db.execute("SELECT count(*) FROM rows").fetchone()[0] == keep
    return job


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def _journaled(job_id: str) -> list[Any]:
    journal = ChangeJournal(AppPaths.default().journal_db)
    try:
        return list(journal.query(job=job_id, limit=1000))
    finally:
        journal.close()


@pytest.mark.parametrize("keep", [0, 10])
def test_an_import_killed_while_reading_its_file_is_never_resumed_nor_finished(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    keep: int,
) -> None:
    src = _csv(tmp_path / "in12.csv")
    base = ["--into", "dnc", "--scope", "global", "--base-url", sandbox.base_url, "--json"]
    job = _killed_while_reading(["import", str(src), *base], keep)
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)

    status, out, _ = _run(capsys, "jobs", "--all", "--json")
    (entry,) = json.loads(out)["jobs"]
    assert entry["job"] == job.stem
    assert entry["state"] == "stopped while reading its file (nothing sent)"
    assert (entry["resumable"], entry["resume"]) == (False, None)
    # Its rows read so far are never sent: not pending (black-box bb2 F9), and the command that
    # starts it again, which the text prints, is a key of its own.
    assert (entry["rows"], entry["done"], entry["pending"]) == (keep, 0, 0)
    assert entry["restart"] == (
        f"dnc-desk import {src} --into dnc --scope global --phone-code 1 --base-url "
        f"{sandbox.base_url}"
    )

    status, out, _ = _run(capsys, "jobs", "--all")
    assert status == 0
    assert "stopped while reading its file (nothing sent)" in out
    assert "To resume:" not in out
    assert out.splitlines()[-2:] == [
        "Not to be resumed:",
        f"  Job {job.stem} stopped while reading {src}, before its rows were all stored, so "
        "nothing of it was sent and it cannot be resumed: start the import again with: "
        f"dnc-desk import {src} --into dnc --scope global --phone-code 1 --base-url "
        f"{sandbox.base_url} (adding any other option it was started with, such as "
        "--phone-column or --ignore-column, which the job file does not keep).",
    ]
    status, out, _ = _run(capsys, "jobs")
    assert job.stem not in out
    assert "1 job stopped while reading its file, so nothing of it was sent" in out

    status, out, err = _run(capsys, "import", "--resume", job.stem, "--json")
    sentence = (
        f"Job {job.stem} stopped while reading {src}, before its rows were all stored, so "
        "nothing of it was sent and it cannot be resumed: start the import again with: "
        f"dnc-desk import {src} --into dnc --scope global --phone-code 1 --base-url "
        f"{sandbox.base_url} (adding any other option it was started with, such as "
        "--phone-column or --ignore-column, which the job file does not keep)."
    )
    assert status != 0
    assert err.strip() == sentence
    assert json.loads(out) == {"error": sentence, "exit_status": status}
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    assert _journaled(job.stem) == []  # no job.start, no job.finish
    with JobStore(job) as store:
        meta = store.meta()
        assert meta["status"] == "ready" and not meta.get("started")
        assert meta["staged"] is False  # job_store.STAGED
        assert "finished" not in meta

    # The same file imported again is not held up by the leftover, which stays as it was.
    status, out, err = _run(capsys, "import", str(src), *base)
    assert status == 0, err
    result = json.loads(out)
    assert (result["status"], result["rows"], result["inserted"]) == ("finished", 30, 30)
    assert job.stem not in out + err
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 30
    states = {info.job_id: info.staging for info in list_jobs(AppPaths.default().jobs_dir)}
    assert states == {job.stem: "stopped", result["job"]: ""}


def test_a_removal_killed_while_reading_its_file_removes_nothing(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in NUMBERS])
    src = _csv(tmp_path / "out.csv")
    argv = ["remove", str(src), "--scope", "global", "--note", "ticket 9"]
    job = _killed_while_reading([*argv, "--base-url", sandbox.base_url], 5)
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    resume = ["remove", "--resume", job.stem, "--base-url", sandbox.base_url]
    status, _, err = _run(capsys, *resume)
    assert status != 0
    assert err.strip() == (
        f"Job {job.stem} stopped while reading {src}, before its rows were all stored, so "
        "nothing of it was sent and it cannot be resumed: start the removal again with: "
        f"dnc-desk remove {src} --scope global --phone-code 1 --note 'ticket 9' --base-url "
        f"{sandbox.base_url} (adding any other option it was started with, such as "
        "--phone-column or --ignore-column, which the job file does not keep)."
    )
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 30
    assert _journaled(job.stem) == []


def test_the_refusal_comes_before_the_service_is_asked(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With the service down, the resume of such a job said the service could not be reached
    # (the connection was opened and checked first): what the person must do is start it again.
    src = _csv(tmp_path / "in12.csv")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    job = _killed_while_reading([*argv, "--base-url", sandbox.base_url], 0)
    sandbox.stop()
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    status, _, err = _run(capsys, "import", "--resume", job.stem, "--base-url", sandbox.base_url)
    assert status == 1
    assert err.strip() == (
        f"Job {job.stem} stopped while reading {src}, before its rows were all stored, so "
        "nothing of it was sent and it cannot be resumed: start the import again with: "
        f"dnc-desk import {src} --into dnc --scope global --phone-code 1 --base-url "
        f"{sandbox.base_url} (adding any other option it was started with, such as "
        "--phone-column or --ignore-column, which the job file does not keep)."
    )


def test_a_job_file_of_an_earlier_version_still_resumes(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A job staged before staging was marked (no ``staged`` key) runs as it did."""
    src = _csv(tmp_path / "old.csv")
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    status, out, err = _run(
        capsys, "import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"
    )
    assert status == 0, err
    job = Path(json.loads(out)["job_file"])
    with sqlite3.connect(job) as db:
        db.execute("DELETE FROM meta WHERE key IN ('staged', 'staging_by')")
        db.execute("UPDATE meta SET value = '\"ready\"' WHERE key = 'status'")
        db.execute("UPDATE rows SET state = 'pending' WHERE outcome = ''")
    (info,) = list_jobs(AppPaths.default().jobs_dir)
    assert info.resumable
    status, out, err = _run(
        capsys, "import", "--resume", job.stem, "--base-url", sandbox.base_url, "--json"
    )
    assert status == 0, err
    assert json.loads(out)["inserted"] == 30


def test_a_restart_command_names_a_file_with_control_characters_exactly(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file name with ESC and a newline (black-box bb2 F16) is printed escaped in the restart
    command, which pasted into bash still names that very file."""
    src = _csv(tmp_path / "evil\x1b[2J\nname's.csv")
    base = ["--into", "dnc", "--scope", "global", "--base-url", sandbox.base_url]
    _killed_while_reading(["import", str(src), *base, "--note", "a\x1bb"], 10)
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)

    status, out, _ = _run(capsys, "jobs", "--all")
    assert status == 0
    assert not any(c in out for c in "\x1b\r\t") and len(out.splitlines()) == 5
    restart = out.splitlines()[-1].split(" with: ", 1)[1].split(" (adding", 1)[0]
    status, out, _ = _run(capsys, "jobs", "--all", "--json")
    (entry,) = json.loads(out)["jobs"]
    assert entry["restart"] == restart
    words = subprocess.run(
        ["bash", "-c", "printf '%s\\0' " + restart.removeprefix("dnc-desk ")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")[:-1]
    assert words[:2] == ["import", str(src)]
    assert words[words.index("--note") + 1] == "a\x1bb"
