"""The black-box finding through the command line: a paused removal's job file copied with
``cp``, the original resumed to its end, a number added to the list again, then the copy
resumed with another data folder (``XDG_DATA_HOME`` elsewhere). The copy is refused in one
sentence: it removes nothing and leaves the original's report as it was."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from app.core.paths import CONFIG_ENV, DATA_ENV, AppPaths
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
ROWS = 40
NUMBERS = [f"30355501{i:02d}" for i in range(ROWS)]


def _cli(*argv: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "app", *argv],
        cwd=ROOT,
        env={**(env or os.environ), "DNC_DESK_TOKEN": TOKEN},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _done(job: Path) -> int:
    db = sqlite3.connect(f"file:{job}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT count(*) FROM rows WHERE state = 'done'").fetchone()[0])
    finally:
        db.close()


def _paused_removal(sandbox: Any, paths: AppPaths, src: Path) -> Path:
    """A removal run by the CLI and interrupted (SIGINT) once a few rows are done."""
    sandbox.set_faults(latency_ms=60)
    proc = _cli(
        *("remove", str(src), "--scope", "global", "--base-url", sandbox.base_url),
        *("--concurrency", "1", "--json", "--note", "Vendor file sent in error, ticket 7"),
    )
    deadline = time.monotonic() + 60
    job: Path | None = None
    while job is None:
        assert time.monotonic() < deadline, "the removal made no progress"
        assert proc.poll() is None, proc.communicate()
        for found in paths.jobs_dir.glob("removal-*.dncjob"):
            try:
                if _done(found) >= 3:
                    job = found
            except sqlite3.Error:
                continue
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert json.loads(out)["status"] == "paused"
    sandbox.set_faults(latency_ms=0)
    return job


def _on_the_list(sandbox: Any) -> set[str]:
    return {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}


@pytest.mark.slow
def test_a_copy_resumed_with_another_data_folder_is_refused(sandbox: Any, tmp_path: Path) -> None:
    paths = AppPaths.default()
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in NUMBERS])
    src = tmp_path / "remove.csv"
    with src.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone"], *[[n] for n in NUMBERS]])
    job = _paused_removal(sandbox, paths, src)
    # cp job.dncjob stale.dncjob. The polling above read the job through a WAL it could not
    # remove: the last connection to close puts every commit in the file itself.
    db = sqlite3.connect(job)
    db.execute("SELECT count(*) FROM meta").fetchone()
    db.close()
    assert not job.with_name(job.name + "-wal").exists()
    stale = shutil.copyfile(job, job.with_name("stale.dncjob"))
    resumed = _cli("remove", "--resume", job.stem, "--base-url", sandbox.base_url, "--json")
    out, err = resumed.communicate(timeout=60)
    assert resumed.returncode == 0, err
    data = json.loads(out)
    assert (data["status"], data["pending"]) == ("finished", 0)
    assert _on_the_list(sandbox) == set()
    report = Path(data["report"])
    written = report.read_bytes()
    sandbox.bulk_seed_dnc([(NUMBERS[0], "1", "0", "", "")])  # asked for again since
    # Another data folder, as another user's or another XDG_DATA_HOME gives.
    env = {k: v for k, v in os.environ.items() if k != DATA_ENV}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    env[CONFIG_ENV] = str(paths.config_dir)
    copy = _cli("remove", "--resume", str(stale), "--base-url", sandbox.base_url, env=env)
    out, err = copy.communicate(timeout=60)
    assert copy.returncode != 0, f"the copy ran: {out} {err}"
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert re.fullmatch(
        rf"Job {re.escape(job.stem)} last ran from {re.escape(os.path.realpath(job))} "
        r"\(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\); resume that file instead: this one is a copy, "
        r"and resuming it would send again the rows that one has sent since\.",
        err.strip(),
    ), err
    assert (tmp_path / "xdg" / "dnc-desk" / "locks").is_dir()  # that data folder was used
    assert _on_the_list(sandbox) == {NUMBERS[0]}  # not removed again
    assert report.read_bytes() == written
