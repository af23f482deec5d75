"""A file whose name is not valid UTF-8 (``bad\\xf1name.csv`` from an old zip or a Samba share)
imports like any other, and is named ``bad\\xf1name.csv`` in the report, the journal, the job's
name and the JSON answers (black-box R5 #1: a dry run crashed in openpyxl writing the report, a
real run in the journal's hash after "Job … started", and its resume the same way each time)."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import READ_ONLY_TOKEN, TOKEN

ROWS = 10
SHOWN = "bad\\xf1name.csv"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def bad_name(folder: Path) -> Path:
    path = folder / os.fsdecode(b"bad\xf1name.csv")
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[f"303-555-{i:04d}"] for i in range(ROWS)])
    return path


def summary(report: str) -> dict[str, Any]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        return {str(r[0]): r[1] for r in book["Summary"].iter_rows(values_only=True) if r[0]}
    finally:
        book.close()


def answer(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_dry_run_report_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = bad_name(tmp_path)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data = answer(capsys)
    assert data["name"] == f"Import of {SHOWN}" and data["valid"] == ROWS
    rows = summary(data["report"])
    assert rows["Name"] == f"Import of {SHOWN}"
    assert rows["File"] == str(tmp_path / SHOWN)


def test_import_sends_every_row_and_journals_the_name(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = bad_name(tmp_path)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 0
    data = answer(capsys)
    assert data["inserted"] == ROWS and data["pending"] == 0
    assert summary(data["report"])["File"] == str(tmp_path / SHOWN)
    journal = ChangeJournal(AppPaths.locate().journal_db)
    try:
        assert journal.verify().ok
        started = [e for e in journal.query(job=data["job"]) if e.after and "file" in e.after]
    finally:
        journal.close()
    assert started and started[-1].after is not None
    assert started[-1].after["file"] == str(tmp_path / SHOWN)
    assert started[-1].after["name"] == f"Import of {SHOWN}"
    assert main(["jobs", "--all", "--json"]) == 0
    (listed,) = answer(capsys)["jobs"]
    assert listed["file"] == str(tmp_path / SHOWN) and listed["name"] == f"Import of {SHOWN}"


def test_job_made_before_resumes(
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A job whose meta holds the name as Python read it (as jobs staged before this fix do,
    left ``ready`` by the crash) resumes to its end."""
    src = bad_name(tmp_path)
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 1  # refused: resumable
    job = answer(capsys)["job"]
    job_file = AppPaths.locate().jobs_dir / f"{job}.dncjob"
    with sqlite3.connect(job_file) as db:
        db.execute("DELETE FROM meta WHERE key = 'source_path_bytes'")
        db.executemany(
            "UPDATE meta SET value = ? WHERE key = ?",
            [(json.dumps(str(src)), "file"), (json.dumps(f"Import of {src.name}"), "name")],
        )
    db.close()
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    assert main(["import", "--resume", job, "--base-url", sandbox.base_url, "--json"]) == 0
    data = answer(capsys)
    assert data["inserted"] == ROWS and data["pending"] == 0
    assert data["name"] == f"Import of {SHOWN}"
    rows = summary(data["report"])
    assert rows["File"] == str(tmp_path / SHOWN) and rows["Name"] == f"Import of {SHOWN}"
    journal = ChangeJournal(AppPaths.locate().journal_db)
    try:
        assert journal.verify().ok
    finally:
        journal.close()


def test_the_dry_runs_headline_names_the_file_as_the_report_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Printed as it was, the name's undecodable byte crashed a strict UTF-8 console (or came
    # out as a raw byte) after the job was saved.
    path = bad_name(tmp_path)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--report", str(tmp_path / "r.xlsx")]) == 0
    out = capsys.readouterr().out
    assert f"Dry run of {SHOWN}: nothing was sent." in out
    assert "\udcf1" not in out
