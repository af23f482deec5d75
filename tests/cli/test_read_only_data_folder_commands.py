"""Every command that writes to the data folder refuses one that exists but cannot be written
(a read-only file system), before it sends anything, in one sentence naming the folder, what it
had to write there and what to do (black-box B35 F5/F6: each said "The change journal … cannot be
opened (unable to open database file); check the disk and the file's permissions", SQLite's words
and advice a read-only disk cannot take).

The folder is made read-only by a read-only bind mount in a mount namespace of the command's
process alone (``unshare``), as tests run as root here, for whom a chmod does not stop a write."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.cli.main import main
from tests.cli.test_resume_read_only_data_folder import ROOT, read_only_runner
from tests.conftest import TOKEN

NUMBERS = [f"303-555-{i:04d}" for i in range(3)]


def run_read_only(
    runner: list[str], data: Path, argv: list[str]
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DNC_DESK_TOKEN": TOKEN, "DNC_DESK_DATA_DIR": str(data)}
    return subprocess.run(
        [*runner, sys.executable, "-m", "app", *argv, "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_each_writing_command_refuses_a_read_only_data_folder(
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = tmp_path / "data"
    src = tmp_path / "n.csv"
    with src.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone"], *([n] for n in NUMBERS)])
    # A data folder in use: its journal, job files and subfolders are all there already.
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    url = ["--base-url", sandbox.base_url]
    assert main(["import", str(src), "--into", "dnc", "--scope", "global", *url, "--json"]) == 0
    capsys.readouterr()
    assert (data / "journal.sqlite3").is_file() and (data / "jobs").is_dir()
    runner = read_only_runner(data)  # the data folder alone: the --out folder stays writable
    out = tmp_path / "out"
    out.mkdir()
    other = tmp_path / "other.csv"
    other.write_text("Phone\n303-555-0999\n")
    commands = {
        "import --dry-run": [
            "import",
            str(other),
            "--into",
            "dnc",
            "--scope",
            "global",
            "--dry-run",
        ],
        "import": ["import", str(other), "--into", "dnc", "--scope", "global"],
        "remove": ["remove", str(src), "--scope", "global", "--note", "asked"],
        "audit": ["audit", "campaign", "1", "--out", str(out / "a.xlsx")],
        "evidence": ["evidence", NUMBERS[0], "--out", str(out / "e.xlsx")],
        "snapshot": ["snapshot", "dnc"],
        "health": ["health"],
    }
    expected = (
        f"The data folder {data} (DNC_DESK_DATA_DIR) cannot be used to write the change "
        "journal: it is on a read-only file system; nothing was sent. Point DNC_DESK_DATA_DIR "
        "at a folder that can be written, or mount its disk read-write."
    )
    for name, argv in commands.items():
        done = run_read_only(runner, data, [*argv, *url])
        assert "Traceback" not in done.stderr, (name, done.stderr)
        assert json.loads(done.stdout) == {"error": expected, "exit_status": 1}, name
        assert "unable to open" not in done.stderr, name
        assert done.returncode == 1, name
    with ApiClient(sandbox.base_url, TOKEN) as api:
        # The import's three are still listed (the removal sent nothing), and no fourth.
        assert api.search_dnc(DncQuery(), offset=0, limit=10).total == len(NUMBERS)
    assert not list(out.iterdir())


def test_a_missing_data_folder_on_a_read_only_disk(sandbox: Any, tmp_path: Path) -> None:
    """A data folder that is not there, on a disk that is read-only: not "mount its disk
    read-write" of a folder that does not exist, nor a bare "it is on a read-only file
    system" as if it did."""
    disk = tmp_path / "disk"
    disk.mkdir()
    runner = read_only_runner(disk)
    data = disk / "dnc-desk"
    src = tmp_path / "n.csv"
    src.write_text("Phone\n303-555-0100\n")
    expected = (
        f"The data folder {data} (DNC_DESK_DATA_DIR) cannot be used: it does not exist and "
        "cannot be created on a read-only file system; nothing was sent. Point "
        "DNC_DESK_DATA_DIR at a folder that can be written."
    )
    for argv in (
        ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"],
        ["snapshot", "dnc"],
    ):
        done = run_read_only(runner, data, [*argv, "--base-url", sandbox.base_url])
        assert "Traceback" not in done.stderr, done.stderr
        assert json.loads(done.stdout) == {"error": expected, "exit_status": 1}, argv
    with ApiClient(sandbox.base_url, TOKEN) as api:
        assert api.search_dnc(DncQuery(), offset=0, limit=1).total == 0
