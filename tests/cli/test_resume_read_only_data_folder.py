"""``import --resume`` of a job in a data folder on a read-only file system says the file cannot
be written, not that it is damaged (black-box R5 #4: "…dncjob is not a DNC Desk job file, or it
is damaged (unable to open database file)").

The folder is made read-only as the tester's was, by a read-only bind mount, in a mount
namespace of the resuming process alone (``unshare``): tests run as root here, for whom a
chmod does not stop a write. Skipped where no such namespace can be made."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.cli.main import main
from app.core.job_store import JobStore
from tests.conftest import READ_ONLY_TOKEN, TOKEN

ROOT = Path(__file__).resolve().parents[2]
# Bind-mount "$1" read-only onto itself, then run the rest of the arguments.
READ_ONLY = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'


def read_only_runner(folder: Path) -> list[str]:
    if shutil.which("unshare") is None:
        pytest.skip("no unshare to make a read-only mount with")
    argv = ["unshare", "-rm", "sh", "-c", READ_ONLY, "sh", str(folder)]
    probe = subprocess.run(
        [*argv, "sh", "-c", f"! touch {folder}/probe"], capture_output=True, check=False
    )
    if probe.returncode != 0:
        pytest.skip(f"no read-only mount can be made here: {probe.stderr!r}")
    return argv


def test_resume_in_read_only_data_folder(
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = tmp_path / "data"
    runner = read_only_runner(tmp_path)
    src = tmp_path / "n.csv"
    with src.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone"], *([f"303-555-{i:04d}"] for i in range(5))])
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)  # refused: the job is left to resume
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 1
    job = json.loads(capsys.readouterr().out)["job"]
    job_file = JobStore.locate(data / "jobs", job)
    env = {**os.environ, "DNC_DESK_TOKEN": TOKEN, "DNC_DESK_DATA_DIR": str(data)}
    resume = [sys.executable, "-m", "app", "import", "--resume", job]
    done = subprocess.run(
        [*runner, *resume, "--base-url", sandbox.base_url, "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    error = json.loads(done.stdout)["error"]
    assert error.startswith(
        f"The job file {job_file} cannot be written: it is on a read-only file system; the "
        "file is not damaged, and nothing was sent."
    ), error
    assert "damaged (" not in error
    assert done.returncode == 1
    with ApiClient(sandbox.base_url, TOKEN) as api:
        assert api.search_dnc(DncQuery(), offset=0, limit=1).total == 0
    # The same file, writable again, resumes to its end.
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    assert main(["import", "--resume", job, "--base-url", sandbox.base_url, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["inserted"] == 5
