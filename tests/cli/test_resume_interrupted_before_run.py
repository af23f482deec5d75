"""K3 (black-box B14 F3): a ``--resume`` stopped before its run began said the job had sent
nothing, of a job that had sent hundreds of rows before: SIGTERM as its modules loaded gave
"Interrupted before the job started: nothing was sent." (no resume command), and SIGHUP once
the job was open "Interrupted before job … sent any row: resume it with: …".

Now it says this resume sent nothing and the job is as it was, with its counts so far and the
command that resumes it; under ``--json`` one object with the job's counts, ``resume``,
``error`` and ``exit_status``. Each stop comes at a set moment in a real ``dnc-desk`` process
(X1's :func:`run_cli`), on a job paused mid-run by a real SIGTERM.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.cli.import_cmd import resume_interrupted_named
from app.cli.main import resumed_job
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from tests.cli.test_cli_arguments_and_resume import cli_env, numbers_csv, paused_job
from tests.cli.test_signal_windows_module_import import NOTHING_SENT, run_cli

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

# The moments a resume is stopped at, each before any row of it is sent.
# As the command's modules load (app.cli.main's handling of a stop: no arguments parsed yet).
AS_LOADING = """
import signal
import app.cli.main as cli_main

real_build_parser = cli_main.build_parser


def build_parser(chosen=None):
    parser = real_build_parser(chosen)
    signal.raise_signal(signal.{sig})
    return parser


cli_main.build_parser = build_parser
"""

# Once the job file is open, as the service is checked (the job command's own handling).
AS_CHECKED = """
import signal
import app.cli.import_cmd as import_cmd

real_preflight = import_cmd.preflight


def preflight(*args, **kwargs):
    signal.raise_signal(signal.{sig})
    return real_preflight(*args, **kwargs)


import_cmd.preflight = preflight
"""

# Just before the run takes signals itself (app.cli.main's handling, arguments parsed).
BEFORE_THE_RUN = """
import signal
import app.cli.import_cmd as import_cmd

real_progress_printer = import_cmd.progress_printer


def progress_printer(*args, **kwargs):
    signal.raise_signal(signal.{sig})
    return real_progress_printer(*args, **kwargs)


import_cmd.progress_printer = progress_printer
"""

MOMENTS = {"load": AS_LOADING, "checked": AS_CHECKED, "before-run": BEFORE_THE_RUN}

# (moment, signal, --json): every moment, every stop signal, text and JSON.
CASES = [
    ("load", signal.SIGTERM, False),
    ("load", signal.SIGHUP, True),
    ("checked", signal.SIGHUP, True),
    ("checked", signal.SIGINT, False),
    ("before-run", signal.SIGTERM, True),
    ("before-run", signal.SIGINT, False),
]


def rows(n: int, what: str) -> str:
    return f"{n:,} row{'' if n == 1 else 's'} {what}"


def dnc_desk(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=cli_env(),
    )


def job_state(job: str) -> tuple[str, list[tuple[str, str, int]]]:
    path = AppPaths.default().jobs_dir / f"{job}.dncjob"
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        status = db.execute("SELECT value FROM meta WHERE key = 'status'").fetchone()[0]
        states = db.execute(
            "SELECT state, coalesce(outcome, ''), count(*) FROM rows GROUP BY 1, 2 ORDER BY 1, 2"
        ).fetchall()
    return str(status), [tuple(s) for s in states]


def interrupted_resumes(
    tmp_path: Path, paused: dict[str, Any], command: str, done: str, listed: Any
) -> None:
    """Each of CASES on the ``paused`` job: the sentence, the JSON, and the job untouched."""
    assert paused["status"] == "paused" and paused["pending"] > 0, paused
    job, resume = paused["job"], paused["resume"]
    before = job_state(job)
    on_list = listed()
    said = (
        f"Interrupted before this resume sent anything: job {job} is still paused ({done}, "
        f"{paused['pending']:,} left); resume it with: {resume}"
    )
    keys = ("status", "pending", "inserted", "removed", "already_present", "job", "resume")
    expected: list[tuple[Any, ...]] = []
    seen: list[tuple[Any, ...]] = []
    # Every case is run before any is compared: each one's words are shown.
    for moment, sig, json_output in CASES:
        argv = [command, "--resume", job] + (["--json"] if json_output else [])
        ran = run_cli(MOMENTS[moment].format(sig=sig.name), argv, tmp_path)
        status = 128 + sig
        if json_output:
            fields = {key: paused.get(key) for key in keys}
            want: Any = [{**fields, "error": said, "exit_status": status}]
            objects = [json.loads(line) for line in ran.stdout.splitlines()]
            got: Any = [
                {key: one.get(key) for key in (*keys, "error", "exit_status")} for one in objects
            ]
        else:
            want, got = "", ran.stdout
        case = (moment, sig.name, json_output)
        # The job is as it was, and nothing more reached the service.
        expected.append((case, status, said, want, before, on_list))
        seen.append((case, ran.returncode, ran.stderr.strip(), got, job_state(job), listed()))
    assert seen == expected


def test_an_interrupted_import_resume_says_the_job_is_still_paused_with_its_counts(
    sandbox: Any, tmp_path: Path
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 6)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    paused = paused_job([*argv, "--base-url", sandbox.base_url])
    inserted = paused["inserted"]

    def listed() -> int:
        return int(sandbox.store.scalar("SELECT count(*) FROM dnc"))

    assert listed() == inserted > 0
    interrupted_resumes(tmp_path, paused, "import", rows(inserted, "inserted"), listed)
    # The command said resumes the job to its end.
    argv = paused["resume"].split()[1:]
    finished = dnc_desk([*argv, "--json"])
    assert finished.returncode == 0, finished.stderr
    assert json.loads(finished.stdout)["inserted"] == 6 and listed() == 6


def test_an_interrupted_removal_resume_says_the_job_is_still_paused_with_its_counts(
    sandbox: Any, tmp_path: Path
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 6)
    on = ["import", str(src), "--into", "dnc", "--scope", "global", "--base-url", sandbox.base_url]
    put = dnc_desk([*on, "--json"])
    assert put.returncode == 0, put.stderr
    # Out of the jobs folder: paused_job waits for the first job there with a row done.
    for made in AppPaths.default().jobs_dir.iterdir():
        made.rename(tmp_path / made.name)

    def listed() -> int:
        return int(sandbox.store.scalar("SELECT count(*) FROM dnc"))

    argv = ["remove", str(src), "--scope", "global", "--note", "asked"]
    paused = paused_job([*argv, "--base-url", sandbox.base_url])
    removed = paused["removed"]
    assert removed > 0 and listed() == 6 - removed
    interrupted_resumes(tmp_path, paused, "remove", rows(removed, "removed"), listed)


def test_a_new_import_interrupted_as_it_loads_still_says_nothing_was_sent(
    sandbox: Any, tmp_path: Path
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 3)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    ran = run_cli(
        AS_LOADING.format(sig="SIGTERM"), [*argv, "--base-url", sandbox.base_url], tmp_path
    )
    assert ran.returncode == 143, ran.stderr
    assert ran.stderr.strip() == NOTHING_SENT
    assert json.loads(ran.stdout) == {"error": NOTHING_SENT, "exit_status": 143}


@pytest.mark.parametrize(
    ("argv", "job"),
    [
        (["import", "--resume", "import-1", "--json"], "import-1"),
        (["import", "--json", "--resume=import-2"], "import-2"),
        (["remove", "--res", "removal-3"], "removal-3"),
        (["import", "--report", "r.xlsx", "in.csv"], None),
        (["import", "--", "--resume"], None),
    ],
)
def test_the_job_a_resume_names_is_read_as_argparse_reads_it(
    argv: list[str], job: str | None
) -> None:
    assert resumed_job(argv) == job


def _held_job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **meta: Any) -> JobStore:
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    jobs = AppPaths.default().jobs_dir
    jobs.mkdir(parents=True, exist_ok=True)
    store = JobStore.create(jobs, "import-20261124-000000-rv2rv2", {"kind": "import", **meta})
    store.close()
    return store


def test_a_resume_interrupted_names_a_job_stopped_while_reading_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Review RV2 #1: it said "job … is still not started (0 rows inserted, 0 left); resume it
    # with: …" for a job that can never be resumed (its staging was killed).
    store = _held_job(tmp_path, monkeypatch, file=str(tmp_path / "in.csv"))
    with JobStore(store.path) as job:
        job.set_meta({"staging_by": {"pid": 2**22 + 7, "host": socket.gethostname()}})
    sentence, fields = resume_interrupted_named("import", "import-20261124-000000-rv2rv2")
    assert sentence.startswith("Interrupted before this resume sent anything. Job ")
    assert "stopped while reading" in sentence and "start the import again" in sentence
    assert "resume it with" not in sentence and "resume" not in fields


def test_a_resume_interrupted_names_the_process_that_runs_the_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Review RV2 #1: while another process ran the job, the interrupted resume said "resume it
    # with: …", which would be refused as "being run by another process".
    store = _held_job(tmp_path, monkeypatch)
    with JobStore(store.path) as job:
        job.set_meta({"staged": True})
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from app.core import job_lock; "
            "lock = job_lock.acquire(Path(sys.argv[1]), sys.argv[2]); print('held', flush=True); "
            "time.sleep(60)",
            str(store.path),
            "import-20261124-000000-rv2rv2",
        ],
        cwd=ROOT,
        env={**os.environ},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        sentence, fields = resume_interrupted_named("import", "import-20261124-000000-rv2rv2")
    finally:
        holder.kill()
        holder.wait()
    assert sentence == (
        "Interrupted before this resume sent anything: job import-20261124-000000-rv2rv2 is "
        f"being run by another process (pid {holder.pid}); wait for it to finish or stop it "
        "first."
    )
    assert "resume" not in fields
