"""Staging through the CLI for the third black-box pass (findings 1, 4, 5, 6 and smaller ones):
a Country column with an unknown value, removals from formats whose hidden rows cannot be seen,
formulas with no saved result in other columns than the phone, hidden sheets, hidden counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main


@pytest.fixture(autouse=True)
def _dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def dry_run(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> dict[str, Any]:
    assert main([*argv, "--scope", "global", "--dry-run", "--json"]) == status
    return dict(json.loads(capsys.readouterr().out))


def report_rows(data: dict[str, Any]) -> dict[int, tuple[Any, ...]]:
    book = openpyxl.load_workbook(data["report"], read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))
    book.close()
    return {r[0]: r for r in rows[1:]}


def test_a_country_column_with_an_unknown_value_is_still_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c6.csv"
    path.write_text("Phone,Country\n2079460123,United Kingdom\n2025554012,Narnia\n2025554013,\n")
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert (data["valid"], data["invalid"], data["warnings"]) == (2, 1, [])
    rows = report_rows(data)
    assert rows[2][1:4] == ("2079460123", "2079460123", "44")  # London, not Maine
    assert "row 3: phone_code: 'Narnia' is not a country code" in rows[3]
    assert rows[4][3] == "1"  # an empty cell takes the default code


def test_a_country_column_left_out_is_named_in_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c7.csv"
    path.write_text("Phone,Country\n2079460123,Narnia\n2025554012,Oz\n2025554013,US\n")
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert data["warnings"] == [
        "Column B ('Country') was not read as country codes: only 1 of its 3 values is a "
        "country code, so every row used the default code +1 (unless its number starts with "
        "its own, as +44). Correct the column's values to country codes or names (as 44 or "
        "United Kingdom) and run the file again."
    ]


def test_a_removal_from_an_ods_file_is_refused_unless_hidden_rows_are_included(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.core.test_sheet_hidden_rows import write_ods

    rows = [["Phone"], ["2025550101"], ["2025550102"], ["2025550103"]]
    path = write_ods(tmp_path / "h.ods", rows, frozenset({3}))
    data = dry_run(capsys, "remove", str(path), status=1)
    assert data["error"] == (
        "A removal from h.ods cannot tell which rows are hidden or filtered out (this format "
        "does not show it), so it could remove rows someone filtered out; save the file as "
        ".xlsx, or include hidden rows (--include-hidden) to remove every row."
    )
    data = dry_run(capsys, "remove", str(path), "--include-hidden")
    assert (data["rows"], data["pending"]) == (3, 3)
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert (data["rows"], data["pending"]) == (3, 3)
