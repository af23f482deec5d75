"""Three row messages a dry run of a workbook gives, through the command line against a
sandbox over loopback HTTP (session 32): a letter O typed for a zero (bb6 F4) is named as a
letter where a digit belongs, not "words around the number"; a phone cell holding a formula
with no saved value names the formula (bb6 F5); an opt-out file's toll-free numbers are
imported with a counted warning (bb7 #3).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from app.cli.main import main
from tests.conftest import TOKEN


def test_a_dry_run_names_the_letter_the_formula_and_the_toll_free_rows(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    src = tmp_path / "optouts.xlsx"
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    for row in (
        ["Phone", "Name"],
        ["303-555-0014", "Ann"],
        ["3O3-555-0015", "Bo"],
        ["=1/0", "Cy"],  # openpyxl saves no value for it, as scripts' files do
        ["(800) 555-0017", "Di"],
        ["888-555-0018", "Ed"],
    ):
        sheet.append(row)
    wb.save(src)
    report = tmp_path / "dry.xlsx"
    args = ["import", str(src), "--into", "sms-opt-out", "--scope", "global", "--dry-run"]
    status = main([*args, "--report", str(report), "--base-url", sandbox.base_url])
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert status == 0
    assert "valid: 3, invalid: 2" in said
    assert "2 rows hold toll-free numbers (rows 5 and 6), yet they are imported" in said
    rows = CalamineWorkbook.from_path(str(report)).get_sheet_by_name("Rows").to_python()
    messages = {int(r[0]): str(r[6]) for r in rows[1:] if r and r[0] != ""}
    assert messages[3] == (
        "row 3: phone: '3O3-555-0015' has the letter 'O' in the number where a digit "
        "belongs (as O for 0, I or l for 1); retype the number with digits only"
    )
    assert "cell A4 holds a formula (=1/0) with no saved result" in messages[4]
    assert "toll-free number" in messages[5] and "toll-free number" in messages[6]
    assert "toll-free" not in messages[2]
