"""A real import or removal says staging's warnings on stderr before its first row reaches the
service, after the job's id line; the result still lists each once (black-box F3, session 19:
"the rows spell one purpose 2 ways" or a hidden row imported too was said only in the result,
once every row had been sent)."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.connections import Connection
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.paths import AppPaths
from tests.conftest import TOKEN

# One purpose spelled two ways the list has in neither, and row 4 hidden in the workbook.
SPELLINGS = (
    "The rows spell one purpose 2 ways, which the service keeps as different purposes: "
    "'Surveys' (rows 2, 4 and 5) and 'surveys' (row 3)."
)


def _workbook(tmp_path: Path, *, hidden: bool = True, purposes: bool = True) -> Path:
    path = tmp_path / "optouts.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Scope", "Purpose", "Reason"])
    cells = ["Surveys", "surveys", "Surveys", "Surveys"] if purposes else ["Surveys"] * 4
    for i, cell in enumerate(cells):
        sheet.append([f"602-555-{5001 + i}", "purpose", cell, "asked"])
    if hidden:
        sheet.row_dimensions[4].hidden = True
    book.save(path)
    return path


class FirstWrite:
    """The CLI's stderr as it stood when the first write (an insert, a delete) reached the
    sandbox: the sandbox's store opens a transaction for each write, and for nothing else."""

    def __init__(self, sandbox: Any, err: io.StringIO, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: str | None = None
        self.writes = 0
        real: Callable[[], AbstractContextManager[Any]] = sandbox.store.transaction

        def spy() -> AbstractContextManager[Any]:
            if self.seen is None:
                self.seen = err.getvalue()
            self.writes += 1
            return real()

        monkeypatch.setattr(sandbox.store, "transaction", spy)


def _stderr(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """The CLI's stderr, readable from the sandbox's thread while the run goes on. Set in the
    test's body: capsys sets its own again as the test's call begins."""
    buffer = io.StringIO()
    monkeypatch.setattr(sys, "stderr", buffer)
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    return buffer


def _notes(text: str) -> list[str]:
    return [line.removeprefix("note: ") for line in text.splitlines() if line.startswith("note:")]


def test_a_real_import_says_its_warnings_before_the_first_row_is_sent(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = _stderr(monkeypatch)
    path = _workbook(tmp_path)
    first = FirstWrite(sandbox, err, monkeypatch)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--concurrency", "1"]
    status = main([*argv, "--base-url", sandbox.base_url, "--json"])
    assert status == 0, err.getvalue()
    result = json.loads(capsys.readouterr().out)
    assert first.writes == 4 and first.seen is not None
    early = _notes(first.seen)
    spelled = [w for w in early if w.startswith(SPELLINGS)]
    hidden = [w for w in early if "hidden" in w]
    assert len(spelled) == 1 and len(hidden) == 1, first.seen
    # After the job's id line, which stays the first thing a run says of itself.
    started = first.seen.index("started: if it stops before its end, resume it with:")
    assert first.seen.index(spelled[0]) > started
    assert first.seen.index(hidden[0]) > started
    # The result is the record kept: each warning in it once, none added by the early print.
    assert result["warnings"].count(spelled[0]) == 1
    assert result["warnings"].count(hidden[0]) == 1
    assert len(result["warnings"]) == len(set(result["warnings"]))
    # Said once on stderr, before the run.
    assert _notes(err.getvalue()).count(spelled[0]) == 1


def test_the_text_result_still_lists_them(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = _stderr(monkeypatch)
    path = _workbook(tmp_path, hidden=False)
    first = FirstWrite(sandbox, err, monkeypatch)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    out = capsys.readouterr().out
    assert first.seen is not None
    [early] = _notes(first.seen)
    assert early.startswith(SPELLINGS)
    assert out.count(f"  note: {early}\n") == 1


def test_a_dry_run_says_them_once_in_its_result(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = _stderr(monkeypatch)
    path = _workbook(tmp_path)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    out = capsys.readouterr().out
    assert _notes(err.getvalue()) == []
    assert sum(line.startswith(f"  note: {SPELLINGS}") for line in out.splitlines()) == 1


def test_a_job_with_no_warnings_says_no_note(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = _stderr(monkeypatch)
    path = _workbook(tmp_path, hidden=False, purposes=False)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    assert "note:" not in capsys.readouterr().out
    said = err.getvalue()
    assert "started: if it stops before its end" in said and "note:" not in said


def test_a_resume_says_the_jobs_warnings_again_before_it_sends(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = _stderr(monkeypatch)
    # A job staged and never run, as one the first run of which stopped before a row went.
    paths = AppPaths.default()
    settings = JobSettings(_workbook(tmp_path, hidden=False), Scope.global_())
    connection = Connection("sandbox", sandbox.base_url)
    store, _ = stage_import(settings, paths.jobs_dir, connection=connection)
    job_id = str(store.meta()["job_id"])
    store.close()
    first = FirstWrite(sandbox, err, monkeypatch)
    assert main(["import", "--resume", job_id, "--base-url", sandbox.base_url]) == 0, err.getvalue()
    capsys.readouterr()
    assert first.seen is not None
    [early] = _notes(first.seen)
    assert early.startswith(SPELLINGS)
    assert first.seen.index(early) > first.seen.index(f"Job {job_id} resumed:")


def test_a_real_removal_says_its_warnings_before_the_first_row_is_sent(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = _stderr(monkeypatch)
    # Row 4 hidden: a removal leaves it on the list, and says so.
    path = _workbook(tmp_path, purposes=False)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    capsys.readouterr()
    err.seek(0)
    err.truncate()
    first = FirstWrite(sandbox, err, monkeypatch)
    argv = ["remove", str(path), "--scope", "global", "--per-row-scope"]
    argv += ["--note", "asked by the client"]
    assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 0, err.getvalue()
    result = json.loads(capsys.readouterr().out)
    assert first.seen is not None
    assert first.writes == 3  # not the hidden row
    [early] = [w for w in _notes(first.seen) if "hidden" in w]
    assert first.seen.index(early) > first.seen.index("started: if it stops before its end")
    assert result["warnings"].count(early) == 1
