"""``dnc-desk jobs`` only lists: run with a data folder that does not exist yet it says there
are no jobs and creates nothing (black-box R5 #13: it created the jobs, locks, reports and
snapshots folders)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main


def test_listing_jobs_in_a_data_folder_not_made_yet_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "not-yet"
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(data))
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    assert main(["jobs", "--all", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["jobs"] == [] and out["jobs_folder"] == str(data / "jobs")
    assert main(["jobs"]) == 0
    assert "No job can be resumed" in capsys.readouterr().out
    assert not data.exists()
