"""A --report or --out whose folder cannot be made (a file stands where a folder should be)
exits 1, a command that could not run; one refused for what it names (a folder) exits 2
(docs/cli.md "Exit statuses"; black-box B30 F4 found the difference undocumented)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli.main import main


@pytest.fixture
def sheet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    path = tmp_path / "n.csv"
    path.write_text("Phone\n7025550133\n")
    return path


def test_report_under_a_file_exits_1(
    sheet: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("")
    argv = ["import", str(sheet), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--report", str(blocker / "r.xlsx")]) == 1
    assert f"{blocker} is a file, not a folder" in capsys.readouterr().err
    assert main([*argv, "--report", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_export_out_under_a_file_exits_1(
    sheet: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("")
    argv = ["export", "dnc", "--base-url", "http://127.0.0.1:9", "--out"]
    assert main([*argv, str(blocker / "e.xlsx")]) == 1
    assert f"{blocker} is a file, not a folder" in capsys.readouterr().err
