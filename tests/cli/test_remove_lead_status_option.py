"""``dnc-desk remove --lead-status`` given empty is refused, and a dry run without a connection
says the status was not checked (black-box N3 #5).

N3 #5: ``remove FILE --scope global --note x --lead-status ""`` removed the numbers and left
their leads as they were, without a word; ``--lead-status ZZZZ --dry-run`` with no connection
ran (exit 0) saying nothing of a status it could not check.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from app.cli.remove_cmd import LEAD_STATUS_EMPTY
from app.core.paths import AppPaths
from app.core.removal_job import status_unchecked
from tests.conftest import TOKEN

NUMBER = "2025558311"


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


def _job_files() -> list[Path]:
    jobs = AppPaths.default().jobs_dir
    return sorted(jobs.iterdir()) if jobs.exists() else []


@pytest.mark.parametrize("status", ["", "   ", "\u200b"], ids=["empty", "spaces", "invisible"])
def test_an_empty_lead_status_is_refused_before_anything_is_read_or_sent(
    sandbox: Any, listed: Path, capsys: pytest.CaptureFixture[str], status: str
) -> None:
    argv = ["remove", str(listed), "--scope", "global", "--note", "x", "--lead-status", status]
    code, out, err = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (code, out, err) == (2, "", LEAD_STATUS_EMPTY)
    assert int(sandbox.store.scalar("SELECT count(*) FROM dnc")) == 1
    assert _job_files() == []
    # Under --json too, and with no connection opened (nothing listens on port 9), and for a
    # dry run as well.
    code, out, _ = _run(capsys, [*argv, "--base-url", "http://127.0.0.1:9", "--json"])
    assert (code, json.loads(out)) == (2, {"error": LEAD_STATUS_EMPTY, "exit_status": 2})
    assert _run(capsys, [*argv, "--dry-run"]) == (2, "", LEAD_STATUS_EMPTY)


def test_a_dry_run_without_a_connection_says_the_status_was_not_checked(
    listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["remove", str(listed), "--scope", "global", "--lead-status", "ZZZZ", "--dry-run"]
    code, out, err = _run(capsys, argv)
    assert code == 0, err
    assert f"  note: {status_unchecked('ZZZZ')}" in out.splitlines(), out
    code, out, err = _run(capsys, [*argv, "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert status_unchecked("ZZZZ") in data["warnings"], data["warnings"]
    book = openpyxl.load_workbook(data["report"], read_only=True)
    try:
        cells = {str(c) for row in book["Summary"].values for c in row if c}
    finally:
        book.close()
    assert status_unchecked("ZZZZ") in cells


def test_a_dry_run_with_a_connection_checks_the_status_and_says_nothing_of_it(
    sandbox: Any, listed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["remove", str(listed), "--scope", "global", "--dry-run", "--json"]
    argv += ["--base-url", sandbox.base_url]
    code, out, _ = _run(capsys, [*argv, "--lead-status", "ZZZZ"])
    assert code == 2 and "no lead status 'ZZZZ'" in json.loads(out)["error"]
    code, out, err = _run(capsys, [*argv, "--lead-status", "dnc"])
    assert code == 0, err
    assert not any("was not checked" in w for w in json.loads(out)["warnings"])
