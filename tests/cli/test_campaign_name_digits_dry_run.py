"""A Campaign Name column of digits and codes in an offline dry run and with a connection
(FXH): the dry run without a connection no longer reads '12' as campaign 12 (a run takes the
campaign named '12'), and says that a '0' it reads as global was not checked (a run refuses
it beside a campaign named '0')."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_scope import UNRESOLVED_OFFLINE
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    return dict(json.loads(captured.out))


def _messages(report: str) -> dict[str, tuple[str, str]]:
    """Each row's (Scope, Message), by its original value."""
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        header, *rows = [tuple(r) for r in book["Rows"].iter_rows(values_only=True)]
    finally:
        book.close()
    cells = [dict(zip(header, r + (None,) * (len(header) - len(r)), strict=True)) for r in rows]
    return {str(c["Original value"]): (str(c["Scope"]), str(c["Message"] or "")) for c in cells}


def _file(tmp_path: Path) -> Path:
    src = tmp_path / "names.csv"
    src.write_text("Phone,Campaign Name\n7205550501,12\n7205550502,0\n")
    return src


ARGV = ["import", "--into", "dnc", "--scope", "global", "--dry-run"]


def test_offline_a_name_of_digits_is_not_taken_for_an_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _json(capsys, [*ARGV[:1], str(_file(tmp_path)), *ARGV[1:]])
    assert (data["valid"], data["invalid"]) == (1, 1)
    messages = _messages(data["report"])
    assert UNRESOLVED_OFFLINE in messages["7205550501"][1]
    assert messages["7205550502"][0] == "global"
    assert "not checked against the service's campaigns" in messages["7205550502"][1]


def test_with_a_connection_the_name_is_looked_up_and_a_code_named_so_refused(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = sandbox.seed_campaign("12", active=True)
    sandbox.seed_campaign("0", active=True)
    argv = [*ARGV[:1], str(_file(tmp_path)), *ARGV[1:], "--base-url", sandbox.base_url]
    data = _json(capsys, argv)
    assert (data["valid"], data["invalid"]) == (1, 1)
    messages = _messages(data["report"])
    assert messages["7205550501"] == (f"campaign:{named}", "")
    assert "could mean the global scope" in messages["7205550502"][1]
