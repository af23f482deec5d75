"""Black-box bb13 F1, staged: a phone cell whose number format shows nothing (``;;;``) goes in as
its number, as a hidden row does, but its row says so and one warning counts such rows, in xlsx,
xls and ods alike (fixtures: see tests/core/test_sheet_unshown_numbers.py)."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.mark.parametrize("ext", ["xlsx", "xls", "ods"])
def test_a_phone_its_format_hides_is_imported_with_a_row_note_and_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str
) -> None:
    report = tmp_path / "report.xlsx"
    argv = ["import", str(DATA / f"s33_lo_unshown.{ext}"), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--dry-run", "--json", "--report", str(report)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["rows"], data["valid"]) == (4, 3)
    said = [w for w in data["warnings"] if "shows as nothing" in w]
    assert said == [
        "1 row's phone cell (row 3) holds a number that the cell's number format (as ';;;') "
        "shows as nothing: the sheet shows an empty cell, yet the number goes on the list as "
        "read. Give those cells a number format that shows them (Format Cells > General) to see "
        "what is imported, or delete the numbers that were hidden on purpose, and run the file "
        "again."
    ]
    rows = openpyxl.load_workbook(report)["Rows"].iter_rows(min_row=2, values_only=True)
    messages = {r[0]: (r[5], r[6] or "") for r in rows}
    assert messages[3] == (
        "valid (dry run)",
        "row 3: cell B3 holds 2025550113 but its number format (as ';;;') shows nothing, so "
        "the sheet shows an empty cell there; the number was read",
    )
    assert "number format" not in messages[2][1] + messages[5][1]
