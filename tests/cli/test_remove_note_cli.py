"""A removal says why: ``dnc-desk remove`` refuses a real run without a non-blank ``--note``
(black-box finding: a removal ran with ``"note": ""`` in its JSON, report and journal, with no
warning). A dry run sends nothing and needs none; ``--resume`` keeps the job's own note."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from app.cli.remove_cmd import NOTE_REQUIRED
from app.core.connections import Connection
from app.core.job_staging import JobSettings
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.removal_job import stage_removal
from tests.conftest import TOKEN

NUMBER = "2025558301"
NOTE = "Consumer asked to be called again, ticket 4471 (J. Doe, compliance)"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.fixture
def listed(sandbox: Any, tmp_path: Path) -> Path:
    """A one-number file whose number is on the DNC list."""
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc(NUMBER, "1", Scope.global_())
    src = tmp_path / "rm.csv"
    src.write_text(f"Phone\n{NUMBER}\n")
    return src


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out.strip(), captured.err.strip()


def _dnc_count(sandbox: Any) -> int:
    return int(sandbox.store.scalar("SELECT count(*) FROM dnc"))


def _job_files() -> list[Path]:
    jobs = AppPaths.default().jobs_dir
    return sorted(jobs.iterdir()) if jobs.exists() else []


@pytest.mark.parametrize(
    "note",
    [None, "", "   ", "\u200b \u200e"],
    ids=["no --note", "empty", "spaces", "invisible characters"],
)
def test_a_removal_without_a_note_is_refused_before_anything_is_read_or_sent(
    sandbox: Any, listed: Path, capsys: pytest.CaptureFixture[str], note: str | None
) -> None:
    argv = ["remove", str(listed), "--scope", "global", "--lead-status", "dncreq"]
    argv += ["--base-url", sandbox.base_url]
    if note is not None:
        argv += ["--note", note]
    code, out, err = _run(capsys, argv)
    assert code == 2
    assert err == NOTE_REQUIRED and out == ""
    assert _dnc_count(sandbox) == 1 and _job_files() == []


def test_the_refusal_is_one_json_object_under_json(
    sandbox: Any, listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["remove", str(listed), "--scope", "global", "--base-url", sandbox.base_url, "--json"]
    for extra in ([], ["--note", "   "]):
        code, out, err = _run(capsys, [*argv, *extra])
        assert code == 2
        assert json.loads(out) == {"error": NOTE_REQUIRED, "exit_status": 2}
        assert err == NOTE_REQUIRED
    assert _dnc_count(sandbox) == 1 and _job_files() == []


def test_no_connection_is_opened_for_a_removal_refused_for_its_note(
    listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Nothing listens on port 9: a connection tried would end in another sentence (status 1).
    argv = ["remove", str(listed), "--scope", "global", "--base-url", "http://127.0.0.1:9"]
    assert _run(capsys, argv) == (2, "", NOTE_REQUIRED)


def test_a_dry_run_needs_no_note(
    sandbox: Any, listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["remove", str(listed), "--scope", "global", "--dry-run", "--json"]
    for extra in ([], ["--base-url", sandbox.base_url]):
        code, out, err = _run(capsys, [*argv, *extra])
        assert code == 0, err
        data = json.loads(out)
        assert (data["status"], data["valid"], data["note"]) == ("dry_run", 1, "")
    assert _dnc_count(sandbox) == 1


def test_the_note_is_kept_in_the_result_report_and_journal(
    sandbox: Any, listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["remove", str(listed), "--scope", "global", "--base-url", sandbox.base_url]
    code, out, err = _run(capsys, [*argv, "--note", f"  {NOTE} ", "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert (data["removed"], data["note"]) == (1, NOTE)
    assert _dnc_count(sandbox) == 0
    book = openpyxl.load_workbook(data["report"], read_only=True)
    try:
        cells = {str(c) for ws in book.worksheets for row in ws.values for c in row if c}
    finally:
        book.close()
    assert NOTE in cells
    journal = ChangeJournal(AppPaths.default().journal_db)
    try:
        intents = [e for e in journal.query(job=data["job"]) if e.phase == "intent"]
    finally:
        journal.close()
    # Each delete's intent (what was asked, and why) carries the note, then its file row.
    assert [e.operation for e in intents if e.note.startswith(f"{NOTE} (row ")] == ["dnc.delete"]


def test_resume_runs_on_with_the_jobs_own_note(
    sandbox: Any, listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A job staged and not yet run (as the GUI or an interrupted CLI leaves one): it has its
    # note, and --resume refuses a new one (the job keeps the settings it was created with).
    store, _ = stage_removal(
        JobSettings(listed, Scope.global_(), note=NOTE),
        AppPaths.default().jobs_dir,
        connection=Connection("Sandbox", sandbox.base_url),
    )
    store.close()
    argv = ["remove", "--resume", store.path.stem, "--base-url", sandbox.base_url, "--json"]
    code, out, err = _run(capsys, argv)
    assert code == 0, err
    data = json.loads(out)
    assert (data["removed"], data["note"]) == (1, NOTE)
