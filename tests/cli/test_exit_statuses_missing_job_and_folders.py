"""Exit statuses and sentences at a job's edges (FXG leftovers, B25-8): ``--resume`` of a job
file that is not there is a missing input file (1), naming the path; ``jobs`` stopped by a
signal says what was cancelled; ``diff`` given a folder says it is one; ``--resume`` of an
ended job says when it ended and that nothing was sent, with a JSON key saying so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import jobs_cmd
from app.cli.main import main
from tests.cli.test_cli_arguments_and_resume import numbers_csv, run, token_env  # noqa: F401


@pytest.mark.parametrize("command", ["import", "remove"])
def test_resume_of_a_job_file_not_there_is_a_missing_input_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    missing = tmp_path / "gone" / "job.dncjob"
    code, data, err = run(capsys, [command, "--resume", str(missing), "--json"])
    sentence = f"There is no job file {missing}; nothing was sent."
    assert (code, err, data) == (1, sentence, {"error": sentence, "exit_status": 1})
    code, _, err = run(capsys, [command, "--resume", str(tmp_path)])
    assert (code, err) == (1, f"{tmp_path} is a folder, not a job file; nothing was sent.")
    other = tmp_path / "notes.txt"
    other.write_text("x")
    code, _, err = run(capsys, [command, "--resume", str(other)])
    assert code == 1 and err == (
        f"{other} is not a job file (its name does not end in .dncjob); nothing was sent."
    )
    # An id that names no job stays a bad argument, as an unknown --sheet is.
    code, _, err = run(capsys, [command, "--resume", "nope"])
    assert (code, err) == (
        2,
        "There is no job 'nope' to resume; dnc-desk jobs lists the jobs that can be resumed, "
        "each with the command that resumes it (--all lists every job).",
    )


@pytest.mark.parametrize("json_output", [False, True])
def test_jobs_interrupted_says_the_listing_was_cancelled_and_nothing_changed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, json_output: bool
) -> None:
    def stopped(args: Any) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(jobs_cmd, "run", stopped)
    code = main(["jobs", *(["--json"] if json_output else [])])
    captured = capsys.readouterr()
    sentence = (
        "Interrupted: the listing of jobs was cancelled; it only reads the job files, so "
        "nothing was changed."
    )
    assert code == 130
    assert captured.err.strip() == sentence
    if json_output:
        assert json.loads(captured.out) == {"error": sentence, "exit_status": 130}


@pytest.mark.parametrize("json_output", [False, True])
def test_diff_of_a_folder_says_it_is_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], json_output: bool
) -> None:
    code, data, err = run(capsys, ["diff", str(tmp_path), *(["--json"] if json_output else [])])
    sentence = f"{tmp_path} is a folder, not a snapshot file."
    assert code == 1
    assert err == f"dnc-desk diff: {sentence}"
    if json_output:
        assert data == {"error": sentence, "exit_status": 1}
