"""``--resume`` of a job that has ended says when it ended and that nothing was sent, exit 0;
under ``--json`` the key ``already_ended`` says it (B25-8: only a warning said so)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_cli_arguments_and_resume import numbers_csv, run, token_env  # noqa: F401


def test_resume_of_a_finished_job_says_when_it_finished_and_that_nothing_was_sent(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 3)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    code, data, err = run(capsys, [*argv, "--base-url", sandbox.base_url, "--json"])
    assert code == 0 and data["status"] == "finished", err
    listed = run(capsys, ["jobs", "--all", "--json"])[1]["jobs"]
    job = listed[0]["job"]
    finished = listed[0]["finished"]
    code, again, err = run(capsys, ["import", "--resume", job, "--json"])
    sentence = f"Job {job} had already finished at {finished} UTC; nothing was sent."
    assert code == 0, err
    assert again["already_ended"] is True
    assert again["warnings"] == [sentence]
    assert (again["inserted"], again["pending"], again["status"]) == (3, 0, "finished")
    code, out, err = run(capsys, ["import", "--resume", job])
    assert code == 0, err
    assert out.splitlines()[0] == sentence
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", finished)
    assert len(sandbox.store.all("SELECT phone_number FROM dnc")) == 3
