"""Black-box B10 #2 through the command line, as the tester ran it: ``import FILE --into dnc
--scope global --dry-run --json`` (and ``remove … --dry-run``) against a sandbox, on
Gnumeric's "Text (configurable)" export whose second table ("Name,Phone,Notes" at row 24) was
read under the first table's columns."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.test_second_table_header import GNUMERIC, HEADER_24, UNDER, WARNING


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _dry_run(
    capsys: pytest.CaptureFixture[str], sandbox: Any, *argv: str
) -> tuple[dict[str, Any], dict[int, tuple[Any, ...]]]:
    code = main([*argv, "--scope", "global", "--dry-run", "--json", "--base-url", sandbox.base_url])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    book = openpyxl.load_workbook(data["report"], read_only=True)
    rows = {r[0]: r for r in list(book["Rows"].iter_rows(values_only=True))[1:]}
    book.close()
    return data, rows


def test_a_dry_run_import_names_the_second_table_and_its_numbers(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g_utf8.csv"
    path.write_text(GNUMERIC, encoding="utf-8")
    data, rows = _dry_run(capsys, sandbox, "import", str(path), "--into", "dnc")
    # Rows 4 to 26 (row 3 is the header): every one staged, in one outcome.
    assert sorted(rows) == list(range(4, 27))
    assert data["rows"] == 23
    assert (
        data["rows"]
        == data["valid"] + data["invalid"] + data["duplicates_in_file"] + (data["blank"])
    )
    outcome, message = 5, 6  # the Rows sheet's columns
    assert rows[24][outcome] == rows[25][outcome] == rows[26][outcome] == "invalid"
    assert rows[24][message] == HEADER_24.format(verb="import")
    assert rows[25][message] == UNDER.format(row=25, number="303-555-0199", verb="import")
    assert rows[26][message] == UNDER.format(row=26, number="303-555-0198", verb="import")
    assert rows[25][1] == "303-555-0199"  # Original value: the number the row holds
    assert WARNING.format(verb="import it") in data["warnings"]
    # Rows of the first table keep their own outcomes: none is said to be another table's.
    assert not any("table" in str(rows[n][message] or "") for n in range(4, 24))
    assert rows[4][outcome] == "valid (dry run)"
    assert rows[13][outcome] == "blank"
    assert rows[17][outcome] == "duplicate_in_file"


def test_a_dry_run_removal_says_it_too(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g_utf8.csv"
    path.write_text(GNUMERIC, encoding="utf-8")
    data, rows = _dry_run(capsys, sandbox, "remove", str(path))
    verb = "run the removal on"
    assert rows[24][6] == HEADER_24.format(verb=verb)
    assert rows[25][6] == UNDER.format(row=25, number="303-555-0199", verb=verb)
    assert rows[26][6] == UNDER.format(row=26, number="303-555-0198", verb=verb)
    assert WARNING.format(verb="run the removal on it") in data["warnings"]
    assert data["rows"] == 23
