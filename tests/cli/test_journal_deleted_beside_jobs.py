"""Black-box bb16 F2: a deleted journal file verified "no change journal yet … no change was
sent from this data folder", exit 0 (``intact`` true), though that data folder's jobs folder
held imports whose rows the service answered. Now verify names the journal missing, and the
jobs that show it was there, exit 3 (export's refusal says the same); a data folder whose jobs
sent nothing stays "no journal yet", exit 0. Real imports against the sandbox over loopback HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _import(sandbox: Any, src: Path, capsys: Any, *more: str) -> str:
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", *more]
    assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 0
    return str(json.loads(capsys.readouterr().out)["job"])


def _delete_journal() -> Path:
    journal = AppPaths.default().journal_db
    for part in journal.parent.glob(journal.name + "*"):
        part.unlink()
    return journal


def test_a_deleted_journal_beside_jobs_that_sent_rows_is_named_missing(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "a.csv"
    src.write_text("Phone\n3035550121\n3035550122\n")
    job = _import(sandbox, src, capsys)
    journal = _delete_journal()

    assert main(["journal", "verify"]) == 3
    out = capsys.readouterr().out
    assert out.startswith(f"The change journal is missing: there is no file at {journal}"), out
    assert f"holds 1 job whose rows the service answered ({job}: 2 rows)" in out
    assert "it was deleted or moved. Put it back if it was moved" in out
    assert "no change was sent" not in out

    assert main(["journal", "verify", "--json"]) == 3
    said = json.loads(capsys.readouterr().out)
    assert said["journal_exists"] is False and said["intact"] is False
    assert said["exit_status"] == 3 and said["message"] == out.rstrip("\n")
    # Export refuses (no file to export from), saying the same, not "no change was sent".
    assert main(["journal", "export", "--out", str(tmp_path / "j.csv")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("The change journal is missing: ") and "Nothing was exported." in err
    assert not journal.exists()  # neither made one


def test_a_data_folder_whose_jobs_sent_nothing_has_no_journal_yet(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "a.csv"
    src.write_text("Phone\n3035550121\n")
    _import(sandbox, src, capsys, "--dry-run")
    _delete_journal()

    assert main(["journal", "verify", "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["intact"] is True and said["message"].startswith("There is no change journal yet")
