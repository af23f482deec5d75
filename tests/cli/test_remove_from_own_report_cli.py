"""Black-box B12 #1 through the command line, as the tester ran it: ``remove vend_rep.xlsx
--scope global --per-row-scope --note …`` (and its ``--dry-run --json``) against a sandbox, the
report being that of importing vendor.csv after pre.csv. The pre-existing entries its rows said
were ``already_present`` came off the list, no word said."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.test_remove_from_own_report import ALREADY, WARNING, listed, vendor_report


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _remove(
    capsys: pytest.CaptureFixture[str], sandbox: Any, path: Path, *more: str
) -> tuple[dict[str, Any], dict[int, tuple[Any, ...]]]:
    argv = ["remove", str(path), "--scope", "global", "--per-row-scope", "--json"]
    note = ["--note", "undo vendor import job af693b", "--base-url", sandbox.base_url]
    code = main([*argv, *note, *more])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    book = openpyxl.load_workbook(data["report"], read_only=True)
    rows = {r[0]: r for r in list(book["Rows"].iter_rows(values_only=True))[1:]}
    book.close()
    return data, rows


def test_removing_the_report_leaves_the_entries_other_requests_put_there(
    sandbox: Any, api: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = vendor_report(sandbox, tmp_path, capsys).rename(tmp_path / "vend_rep.xlsx")
    data, rows = _remove(capsys, sandbox, path)
    assert listed(api) == {"3035550201", "3035550202", "3035550203"}
    outcome, message = 5, 6  # the Rows sheet's columns
    assert rows[2][outcome] == rows[3][outcome] == "invalid"
    assert rows[2][message] == ALREADY.format(row=2)
    assert [n for n, r in rows.items() if r[outcome] == "removed"] == [4, 6, 9]
    assert (data["removed"], data["invalid"], data["rows"]) == (3, 5, 8)
    assert WARNING in data["warnings"]


def test_a_dry_run_says_the_same(
    sandbox: Any, api: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = vendor_report(sandbox, tmp_path, capsys).rename(tmp_path / "vend_rep.xlsx")
    data, rows = _remove(capsys, sandbox, path, "--dry-run")
    assert [n for n, r in rows.items() if r[5] == "valid (dry run)"] == [4, 6, 9]
    assert rows[3][6] == ALREADY.format(row=3)
    assert (data["valid"], data["invalid"], data["duplicates_in_file"]) == (3, 5, 0)
    assert WARNING in data["warnings"]
    assert len(listed(api)) == 6  # nothing sent


def test_a_removal_file_with_an_outcome_column_of_its_own_is_read_as_before(
    sandbox: Any, api: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vendor_report(sandbox, tmp_path, capsys)
    path = tmp_path / "calls.csv"
    path.write_text("Phone,Outcome\n303-555-0201,already_present\n303-555-0210,called\n")
    data, rows = _remove(capsys, sandbox, path)
    assert [rows[n][5] for n in (2, 3)] == ["removed", "removed"]
    assert not any("report" in w for w in data.get("warnings", []))
    assert "3035550201" not in listed(api)
