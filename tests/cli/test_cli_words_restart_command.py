"""Black-box B30 F9 (d): a job stopped while its file was being read cannot be resumed, and
`jobs` and `--resume` said to start it again with "(dnc-desk import big.csv …)", a command
nobody could paste. They now give it in full, from what the job file keeps, and name what
it does not keep; pasted, it runs."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.cli.test_job_killed_while_staging import _csv, _killed_while_reading
from tests.conftest import TOKEN

NOT_KEPT = (
    " (adding any other option it was started with, such as --phone-column or "
    "--ignore-column, which the job file does not keep)."
)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_an_import_stopped_while_reading_gives_the_whole_command_again(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = _csv(tmp_path / "in 12.csv")
    argv = ["import", str(src), "--into", "sms-opt-out", "--scope", "global"]
    argv += ["--reason", "texted STOP", "--name", "Spring list"]
    job = _killed_while_reading([*argv, "--base-url", sandbox.base_url], 0)
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    again = (
        f"dnc-desk import '{src}' --into sms-opt-out --scope global --phone-code 1 --reason "
        f"'texted STOP' --name 'Spring list' --base-url {sandbox.base_url}"
    )
    sentence = (
        f"Job {job.stem} stopped while reading {src}, before its rows were all stored, so "
        f"nothing of it was sent and it cannot be resumed: start the import again with: "
        f"{again}{NOT_KEPT}"
    )
    status, out, _ = _run(capsys, "jobs", "--all")
    assert status == 0
    assert out.splitlines()[-1] == f"  {sentence}"
    status, _, err = _run(capsys, "import", "--resume", job.stem, "--base-url", sandbox.base_url)
    assert status == 1
    assert err.strip() == sentence
    assert "…" not in err

    # Pasted, it runs.
    status, _, err = _run(capsys, *shlex.split(again)[1:])
    assert status == 0, err
    assert sandbox.store.scalar("SELECT count(*) FROM sms_opt_out") == 30


def test_a_removal_stopped_while_reading_keeps_its_note_and_lead_status(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = _csv(tmp_path / "out.csv")
    argv = ["remove", str(src), "--scope", "global", "--note", "ticket 9", "--lead-status", "DNC"]
    job = _killed_while_reading([*argv, "--base-url", sandbox.base_url], 5)
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    status, _, err = _run(capsys, "remove", "--resume", job.stem, "--base-url", sandbox.base_url)
    assert status == 1
    assert err.strip().endswith(
        f"start the removal again with: dnc-desk remove {src} --scope global --phone-code 1 "
        f"--note 'ticket 9' --lead-status DNC --base-url {sandbox.base_url}{NOT_KEPT}"
    )
