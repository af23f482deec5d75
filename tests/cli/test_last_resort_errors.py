"""Failures of the app's own files end in one sentence, never a traceback (black-box pass 4,
finding 7): a job file that is not one, a damaged journal, a data folder that cannot be
written. Anything else stays a traceback: it is a bug to report."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.cli import main as cli_main
from app.cli.main import main
from app.core.journal import JournalError
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.mark.parametrize("content", [b"just some text\n", b"phone\n2025550101\n", b""])
def test_resuming_a_file_that_is_not_a_job_is_one_sentence(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    bad = tmp_path / "bad.dncjob"
    bad.write_bytes(content or b"\x00" * 100)
    code = main(["import", "--resume", str(bad), "--base-url", sandbox.base_url, "--json"])
    out, err = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"{bad} is not a DNC Desk job file, or it is damaged (")
    assert json.loads(out)["exit_status"] == 2


@pytest.mark.parametrize(
    ("error", "start"),
    [
        (JournalError("The change journal is closed; restart the app."), "The change journal"),
        (sqlite3.DatabaseError("database disk image is malformed"), "A file of the app's"),
        (PermissionError(13, "Permission denied", "/data/dnc-desk"), "Permission denied"),
    ],
)
def test_the_apps_own_file_failures_end_in_one_sentence(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: Exception,
    start: str,
) -> None:
    import app.cli.export_cmd as export_cmd

    def broken(_args: Any) -> int:
        raise error

    monkeypatch.setattr(export_cmd, "run", broken)
    assert main(["export", "dnc", "--out", "x.csv", "--json"]) == 1
    out, err = capsys.readouterr()
    assert err.startswith(start) and len(err.strip().splitlines()) == 1, err
    assert json.loads(out)["exit_status"] == 1
    if isinstance(error, PermissionError):
        assert "(/data/dnc-desk)" in err


def test_other_failures_stay_tracebacks() -> None:
    assert cli_main._last_resort(ValueError("a bug")) is None
    assert cli_main._last_resort(FileNotFoundError("x")) is None
