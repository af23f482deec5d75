"""``dnc-desk diff`` of a snapshot that is missing, or of a file that is not one, exits 1, as a
missing input file does for every command; copies that cannot be compared (other lists or
services) stay a bad argument, 2 (black-box B23 F6: a missing snapshot exited 2, a missing
spreadsheet 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main


def diff(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["diff", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_missing_snapshot_could_not_be_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.sqlite3"
    said = f"There is no snapshot file {missing}."
    status, out, err = diff(capsys, str(missing), "--json")
    assert (status, err.strip()) == (1, f"dnc-desk diff: {said}")
    assert json.loads(out) == {"error": said, "exit_status": 1}
    # As a missing spreadsheet is (the status the contract gives a missing input file).
    assert main(["import", str(missing), "--into", "dnc", "--scope", "global", "--dry-run"]) == 1


def test_a_file_that_is_no_snapshot_could_not_be_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "numbers.csv"
    other.write_text("phone\n3035550101\n")
    status, _, err = diff(capsys, str(other), str(other))
    assert (status, err.strip()) == (1, f"dnc-desk diff: {other} is not a DNC Desk snapshot.")


def test_three_snapshots_are_still_a_bad_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = [str(tmp_path / f"{n}.sqlite3") for n in "abc"]
    status, _, err = diff(capsys, *names)
    assert status == 2 and "Give one snapshot" in err
