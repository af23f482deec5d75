"""A full disk is said to be full, not damage (black-box pass L4 #5: "A file of the app's could
not be read (database or disk is full): it is damaged or not a DNC Desk file")."""

from __future__ import annotations

import csv
import errno
import gc
import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.job_store import JobStore
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def sqlite_full(tmp_path: Path) -> sqlite3.Error:
    """SQLite's own "database or disk is full", from a database not allowed to grow."""
    db = sqlite3.connect(tmp_path / "small.sqlite3")
    db.execute("CREATE TABLE t (x BLOB)")
    db.execute("PRAGMA max_page_count = 3")
    try:
        for _ in range(10):
            db.execute("INSERT INTO t VALUES (zeroblob(4000))")
    except sqlite3.Error as exc:
        return exc
    finally:
        db.close()
    raise AssertionError("the database grew past its limit")


def failing(monkeypatch: pytest.MonkeyPatch, module: str, error: BaseException) -> None:
    import importlib

    def run(_args: Any) -> int:
        raise error

    monkeypatch.setattr(importlib.import_module(module), "run", run)


def test_sqlites_full_disk_names_the_data_folder_and_says_nothing_is_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    error = sqlite_full(tmp_path)
    assert error.sqlite_errorcode == sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
    failing(monkeypatch, "app.cli.snapshot_cmd", error)
    assert main(["snapshot", "dnc", "--json"]) == 1
    captured = capsys.readouterr()
    expected = (
        f"The disk holding the data folder ({tmp_path / 'data'}) is full (database or disk is "
        "full), so the command stopped; nothing that was saved before is lost. Free some "
        "space and run it again."
    )
    assert captured.err.strip() == expected
    assert json.loads(captured.out) == {"error": expected, "exit_status": 1}
    assert "damaged" not in captured.err


def test_an_import_stopped_by_a_full_disk_says_how_its_job_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    failing(monkeypatch, "app.cli.import_cmd", sqlite_full(tmp_path))
    assert main(["import", "x.csv", "--into", "dnc", "--scope", "global"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"The disk holding the data folder ({tmp_path / 'data'}) is full")
    assert "so the import stopped; what was saved before it is kept. Free some space, then " in err
    assert "resume its job if it had started one (dnc-desk jobs lists it" in err


def test_no_space_left_names_the_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    error = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "/data/jobs/x.dncjob")
    failing(monkeypatch, "app.cli.snapshot_cmd", error)
    assert main(["snapshot", "dnc"]) == 1
    assert capsys.readouterr().err.startswith(
        "The disk holding /data/jobs/x.dncjob is full (No space left on device), so the "
        "command stopped"
    )


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB file system (tmpfs): only where the test may mount one (root, privileged)."""
    folder = tmp_path / "small"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1200k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("no tmpfs can be mounted here")
    try:
        yield folder
    finally:
        gc.collect()  # the failed run's files held open
        if subprocess.run(["umount", str(folder)], check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_job_stopped_by_a_full_disk_is_resumed_once_there_is_room(
    sandbox: Any,
    tmp_path: Path,
    small_disk: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(small_disk))
    sheet = tmp_path / "n.csv"
    with sheet.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[f"303-556-{i:04d}"] for i in range(3000)])
    argv = ["import", str(sheet), "--into", "dnc", "--scope", "global"]
    code = main([*argv, "--base-url", sandbox.base_url, "--json"])
    captured = capsys.readouterr()
    assert code == 1
    last = captured.err.strip().splitlines()[-1]
    assert last.startswith(f"The disk holding the data folder ({small_disk}) is full"), last
    assert "damaged" not in captured.err
    jobs = list((small_disk / "jobs").glob("*.dncjob"))
    if not jobs:
        return  # the disk filled while the job was being made: nothing was sent
    # Mid-run, --json gives the counts and the command that resumes the job, as any stop does.
    result = json.loads(captured.out)
    assert result["rows"] == 3000
    assert result["status"] == "interrupted"  # as `dnc-desk jobs` lists it
    assert result["inserted"] + result["already_present"] + result["not_attempted"] > 0
    assert result["resume"].startswith("dnc-desk import --resume import-")
    assert result["error"].startswith(f"The disk holding the data folder ({small_disk}) is full")
    assert result["error"].endswith(f"free some space first. Resume with: {result['resume']}")
    assert result["exit_status"] == 1
    subprocess.run(["mount", "-o", "remount,size=50M", str(small_disk)], check=True)
    store = JobStore(jobs[0])
    job_id = store.meta()["job_id"]
    store.close()
    assert main(["import", "--resume", job_id, "--base-url", sandbox.base_url, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "finished"
