"""Black-box passes Q2 and Q3 on the CLI (``dnc-desk import|remove|export|jobs``):

- (Q3 #6) a folder made at ``--report`` while the job ran is said as a folder, not as another
  job's report;
- (Q3 #7) ``--scope purpose`` without ``--purpose`` says that ``--purpose`` is missing;
- (Q2 #5) an export stopped before it takes signals itself says no file was written;
- (Q2 #8) ``jobs`` shows each job's note and a dry run's rows as none sent, and gives a
  killed resume's command with the pace its started line gave.
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from tests.cli.test_cli_arguments_and_resume import (
    catches,
    numbers_csv,
    start_cli,
    wait_for_done_rows,
)
from tests.conftest import READ_ONLY_TOKEN, TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, Any, str]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, json.loads(captured.out), captured.err.strip()


# -- Q3 #6: a folder at the report path ----------------------------------------------------------


def test_a_folder_made_at_the_report_path_while_the_job_ran_is_said_as_a_folder(
    sandbox: Any, tmp_path: Path
) -> None:
    report = tmp_path / "out" / "race.xlsx"
    argv = ["import", str(numbers_csv(tmp_path / "race.csv", 5)), "--into", "dnc"]
    argv += ["--scope", "global", "--base-url", sandbox.base_url, "--report", str(report)]
    # One request every 0.5 s: the folder is made while the job runs.
    proc = start_cli([*argv, "--json", "--rate-limit", "120", "--concurrency", "1"])
    job = wait_for_done_rows(1, proc)
    report.mkdir()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    data = json.loads(out)
    moved = job.with_suffix(".xlsx")
    assert data["status"] == "finished" and data["report"] == str(moved) and moved.is_file()
    assert data["warnings"] == [
        f"The report could not be written to {report} (that path is now a folder, made there "
        f"after this job started); it was written to the jobs folder instead: {moved}."
    ]
    assert report.is_dir() and not any(report.iterdir())


# -- Q3 #7: --scope purpose without --purpose -----------------------------------------------------


@pytest.mark.parametrize("scope", ["purpose", "Purpose"])
def test_scope_purpose_without_purpose_says_purpose_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scope: str
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 2)
    code, data, err = run_json(
        capsys, ["import", str(src), "--into", "dnc", "--scope", scope, "--dry-run"]
    )
    said = (
        f"--purpose is missing: --scope {scope!r} alone is not a scope an import can write "
        "to; give the purpose with --purpose TEXT, or write --scope purpose:TEXT."
    )
    assert (code, err, data) == (2, said, {"error": said, "exit_status": 2})
    # With --purpose it is the README's form, and runs.
    code, data, err = run_json(
        capsys,
        [
            "import",
            str(src),
            "--into",
            "dnc",
            "--scope",
            scope,
            "--purpose",
            "Surveys",
            "--dry-run",
        ],
    )
    assert code == 0 and data["status"] == "dry_run", err


# -- Q2 #5: an export stopped before it handles signals ------------------------------------------


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_an_export_stopped_before_it_starts_says_no_file_was_written(
    sandbox: Any, tmp_path: Path
) -> None:
    campaign = sandbox.seed_campaign("Fall Drive")
    # The campaign's look-up, before the export takes signals itself, takes seconds.
    sandbox.set_faults(latency_ms=3000)
    out_path = tmp_path / "out" / "sms.xlsx"
    argv = ["export", "sms-opt-out", "--out", str(out_path), "--scope", f"campaign:{campaign}"]
    proc = start_cli([*argv, "--json", "--base-url", sandbox.base_url])
    deadline = time.monotonic() + 30
    while not catches(proc.pid, signal.SIGTERM):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.005)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    said = "Interrupted: the export was cancelled and no file was written."
    assert proc.returncode == 143, (out, err)
    assert err.strip() == said
    assert json.loads(out) == {"error": said, "exit_status": 143}
    assert not out_path.exists()


# -- Q2 #8: the jobs list ------------------------------------------------------------------------


def test_jobs_shows_each_jobs_note_and_a_dry_runs_rows_as_none_sent(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 3)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    code, done, err = run_json(
        capsys, [*argv, "--base-url", sandbox.base_url, "--note", "ticket 42\nfrom legal"]
    )
    assert code == 0, err
    long_note = "x" * 200
    code, dry, err = run_json(capsys, [*argv, "--dry-run", "--name", "trial", "--note", long_note])
    assert code == 0, err
    assert main(["jobs", "--all"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[2:]}
    finished, trial = rows[done["job"]], rows[dry["job"]]
    assert "  Import of in.csv (note: ticket 42 from legal)  " in finished
    assert "  3/3  " in finished
    assert f"  trial (note: {'x' * 79}…)  " in trial
    assert "  none sent (3 rows)  dry run (created " in trial
    assert "/3" not in trial


def test_jobs_gives_a_killed_resumes_command_with_the_pace_its_started_line_gave(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    numbers = [f"720555{i:04d}" for i in range(6)]
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in numbers])
    src = tmp_path / "remove.csv"
    src.write_text("Phone\n" + "\n".join(numbers) + "\n")
    # Paused at its first delete by a token that cannot write: every row left to send.
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    argv = ["remove", str(src), "--scope", "global", "--note", "asked"]
    code, paused, err = run_json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert code == 1 and paused["status"] == "paused", err
    job = paused["job"]
    sandbox.set_faults(latency_ms=3000)  # no row is answered before the kill
    proc = start_cli(["remove", "--resume", job, "--concurrency", "32"])
    try:
        assert proc.stderr is not None
        started = proc.stderr.readline().strip()
    finally:
        proc.kill()
        proc.wait(timeout=10)
    command = f"dnc-desk remove --resume {job} --base-url {sandbox.base_url} --concurrency 32"
    assert started == f"Job {job} resumed: if it stops before its end, resume it with: {command}"
    assert main(["jobs"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"  {command}" in out
    assert main(["jobs", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["jobs"]
    assert [j["resume"] for j in listed if j["job"] == job] == [command]
    assert AppPaths.default().jobs_dir.joinpath(f"{job}.dncjob").is_file()
