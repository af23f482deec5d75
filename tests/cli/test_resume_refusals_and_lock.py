"""Edges of import and remove the docs-literal pass found (black-box B30 F1, F2, F10).

- F1: ``remove --resume JOB --per-row-scope`` is refused as every other job setting is;
- F2: a ``--resume`` of a job another process runs is refused before the service is asked,
  naming that process, and the run holds the lock from then on;
- F10: an empty ``--scope`` is said to be given empty, with the forms the command takes.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.cli import import_cmd, remove_cmd
from app.cli.connection_args import CliError
from app.cli.main import main
from app.core.connections import Connection
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _csv(path: Path, rows: int = 3) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[f"303-555-{i:04d}"] for i in range(rows)])
    return path


def _staged(path: Path, base_url: str) -> JobStore:
    """An import job staged and not yet run (as an interrupted run or the window leaves one)."""
    store, _ = stage_import(
        JobSettings(path, Scope.global_()),
        AppPaths.default().jobs_dir,
        connection=Connection("Sandbox", base_url),
    )
    store.close()
    return store


# ---- F1: every job setting is refused with --resume ----------------------------------------


@pytest.mark.parametrize(
    "given",
    [["--per-row-scope"], ["--scope", ""], ["--sheet", ""], ["--include-hidden"]],
)
def test_a_job_setting_with_resume_is_refused(
    given: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["remove", "--resume", "removal-20260101-000000-abcdef", *given])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err == (
        f"{given[0]} does not apply to --resume: the job keeps the settings it was created with."
    )


def test_every_option_of_a_new_job_is_in_the_refusal_list() -> None:
    # The options a resume takes as well; every other one shapes a new job and is refused.
    applies = {"resume", "concurrency", "rate_limit", "json", "connection", "base_url", "help"}
    listed = {dest for dest, _ in import_cmd._NEW_JOB_OPTIONS}
    for add_arguments in (import_cmd.add_arguments, remove_cmd.add_arguments):
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        dests = {action.dest for action in parser._actions}
        assert dests - applies - listed == set(), add_arguments.__module__


# ---- F2: a job another process runs is refused before the service is asked -----------------


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[Any]:
    """Runs a process that takes a job's run lock and holds it until told to let go."""
    procs: list[subprocess.Popen[str]] = []

    def hold(job: Path, job_id: str) -> subprocess.Popen[str]:
        code = (
            "import sys; from pathlib import Path; from app.core import job_lock; "
            "lock = job_lock.acquire(Path(sys.argv[1]), sys.argv[2]); "
            "print('held', flush=True); sys.stdin.read(); lock.release()"
        )
        proc = subprocess.Popen(
            [sys.executable, "-c", code, str(job), job_id],
            cwd=ROOT,
            env=dict(os.environ),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        procs.append(proc)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        return proc

    yield hold
    for proc in procs:
        if proc.poll() is None:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(timeout=30)


def _try_lock(job: Path, job_id: str) -> str:
    """What another process taking the job's run lock meets: "took" or its refusal."""
    code = (
        "import sys; from pathlib import Path; from app.core import job_lock\n"
        "try:\n"
        "    job_lock.acquire(Path(sys.argv[1]), sys.argv[2]).release(); print('took')\n"
        "except job_lock.JobBusy as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(job), job_id],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.stdout.strip()


def test_resume_of_a_job_another_process_runs_is_refused_before_the_service(
    sandbox: Any,
    tmp_path: Path,
    holder: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = _staged(_csv(tmp_path / "n.csv"), sandbox.base_url)
    job_id = store.path.stem
    proc = holder(store.path, job_id)
    asked: list[str] = []

    def no_service(*args: Any, **kwargs: Any) -> Any:
        asked.append("open_session")
        raise CliError("the service was asked")

    monkeypatch.setattr(import_cmd, "open_session", no_service)
    code = main(["import", "--resume", job_id, "--base-url", sandbox.base_url])
    err = capsys.readouterr().err.strip()
    assert code == 1
    assert asked == []
    assert err.startswith(f"Job {job_id} is being run by another process (pid {proc.pid}"), err
    assert err.endswith("wait for it to finish or stop it first."), err


def test_a_resume_holds_the_lock_from_its_checks_to_its_end(
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = _staged(_csv(tmp_path / "n.csv"), sandbox.base_url)
    job_id = store.path.stem
    met: list[str] = []
    real_preflight = import_cmd.preflight

    def preflight(*args: Any, **kwargs: Any) -> Any:
        # While the resume asks the service, another runner is already refused.
        met.append(_try_lock(store.path, job_id))
        return real_preflight(*args, **kwargs)

    monkeypatch.setattr(import_cmd, "preflight", preflight)
    code = main(["import", "--resume", job_id, "--base-url", sandbox.base_url, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (data["status"], data["inserted"]) == ("finished", 3)
    assert len(met) == 1 and met[0].startswith(f"Job {job_id} is being run by another process")
    # And let go of at the end, the record of the run written (before another takes it).
    ran = AppPaths.default().locks_dir / f"{job_id}.ran"
    assert json.loads(ran.read_text(encoding="utf-8"))["ended"] == "finished"
    assert _try_lock(store.path, job_id) == "took"


def test_a_resume_refused_by_the_service_lets_go_of_the_lock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = _staged(_csv(tmp_path / "n.csv"), "http://127.0.0.1:9")
    job_id = store.path.stem
    code = main(["import", "--resume", job_id, "--base-url", "http://127.0.0.1:9"])
    capsys.readouterr()
    assert code == 1
    # No run began: no record says one ran; and the lock is free.
    assert not (AppPaths.default().locks_dir / f"{job_id}.ran").exists()
    assert _try_lock(store.path, job_id) == "took"


# ---- F10: an empty --scope is said to be given empty ----------------------------------------


@pytest.mark.parametrize(
    ("command", "forms"),
    [
        ("import", "global, campaign:ID, campaign:NAME or purpose:TEXT"),
        ("remove", "global, campaign:ID, campaign:NAME, purpose:TEXT or purpose (every purpose)"),
    ],
)
def test_an_empty_scope_is_said_to_be_given_empty(
    command: str, forms: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _csv(tmp_path / "n.csv")
    into = ["--into", "dnc"] if command == "import" else []
    code = main([command, str(path), *into, "--scope", "", "--dry-run"])
    assert code == 2
    assert capsys.readouterr().err.strip() == f"--scope was given without a scope: give {forms}."
    code = main([command, str(path), *into, "--dry-run"])
    assert code == 2
    assert capsys.readouterr().err.strip() == f"--scope is required: {forms}."
