"""``dnc-desk jobs`` with a data folder that cannot be made or read says so in one sentence
naming it and why, exit status 1, as every other command does (black-box B23 F5: it listed no
job and exited 0). A folder that is only not made yet is still listed as empty, and made not."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main


def jobs(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any], str]:
    status = main(["jobs", *argv, "--json"])
    captured = capsys.readouterr()
    return status, json.loads(captured.out), captured.err


def test_a_data_folder_under_a_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    data = blocker / "data"
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(data))
    # `jobs` sends nothing, so it names what it cannot do instead (black-box bb2 F3).
    said = (
        f"The data folder {data} (DNC_DESK_DATA_DIR) cannot be used: {blocker} is a file, not "
        "a folder; no job can be listed."
    )
    for argv in ([], ["--all"]):
        status, answer, err = jobs(capsys, *argv)
        assert status == 1 and err.startswith(said), err
        assert len(err.strip().splitlines()) == 1
        assert answer["exit_status"] == 1 and answer["error"].startswith(said)
    assert main(["jobs"]) == 1
    assert "cannot be used" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_data_folder_that_cannot_be_made_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DNC_DESK_DATA_DIR", "/proc/dnc-desk-nowhere")
    status, answer, err = jobs(capsys, "--all")
    said = "The data folder /proc/dnc-desk-nowhere (DNC_DESK_DATA_DIR) cannot be used: "
    assert status == 1 and err.startswith(said), err
    assert answer["exit_status"] == 1 and answer["error"].startswith(said)


def test_a_jobs_folder_that_cannot_be_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    jobs_dir = tmp_path / "data" / "jobs"
    jobs_dir.mkdir(parents=True)
    real = os.scandir

    # chmod 000 is no refusal to root, which runs the tests in CI.
    def refusing(path: Any = ".") -> Any:
        if Path(path) == jobs_dir:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", refusing)
    status, answer, err = jobs(capsys)
    said = (
        f"The jobs folder {jobs_dir} cannot be read (Permission denied), so no job can be "
        "listed: make it readable, or point DNC_DESK_DATA_DIR at another data folder."
    )
    assert (status, err.strip(), answer) == (1, said, {"error": said, "exit_status": 1})


def test_a_data_folder_not_made_yet_is_listed_empty_and_not_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "later" / "data"
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(data))
    status, answer, _ = jobs(capsys, "--all")
    assert status == 0 and answer["jobs"] == []
    assert not (tmp_path / "later").exists()
