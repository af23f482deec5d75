"""The import's dry run and real run say when the rows spell one purpose several ways that
the list has in none of them, in their notes and the report's Summary (black-box B7 #3: the
dry run said nothing, and the real run made five purposes of two)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient, DncQuery
from app.cli.main import main
from tests.conftest import TOKEN

CELLS = ["Marketing", "Marketing\u00a0", " marketing", "MARKETING", "Loan  Offers", "Loan Offers"]
SAID = (
    "note: The rows spell each of 2 purposes more than one way, which the service keeps as "
    "different purposes: 'Marketing' (rows 2 and 3), 'marketing' (row 4) and 'MARKETING' "
    "(row 5); 'Loan  Offers' (row 6) and 'Loan Offers' (row 7). The dialer's campaigns use "
    "one spelling, and an entry under another leaves the consumer callable: correct the file "
    "to one spelling of each purpose, the one the campaigns use, and import the rows so."
)


def _summary(report: Path) -> dict[str, Any]:
    rows = CalamineWorkbook.from_path(str(report)).get_sheet_by_name("Summary").to_python()
    return {row[0]: row[1] for row in rows if row}


def test_a_dry_run_and_a_real_run_say_the_rows_spell_a_purpose_several_ways(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    path = tmp_path / "purposes.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Scope", "Purpose", "Reason"])
    for i, cell in enumerate(CELLS):
        sheet.append([f"602-555-{5001 + i}", "purpose", cell, "r"])
    book.save(path)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global"]
    argv += ["--base-url", sandbox.base_url]

    dry = tmp_path / "dry.xlsx"
    assert main([*argv, "--dry-run", "--report", str(dry)]) == 0
    out = capsys.readouterr().out
    assert SAID in out
    assert _summary(dry)["Warning"] == SAID.removeprefix("note: ")

    real = tmp_path / "real.xlsx"
    assert main([*argv, "--report", str(real)]) == 0
    out = capsys.readouterr().out
    assert SAID in out
    assert _summary(real)["Warning"] == SAID.removeprefix("note: ")
    with ApiClient(sandbox.base_url, TOKEN) as api:
        purposes = sorted({e.purpose for e in api.search_dnc(DncQuery()).items})
    # Warned, not held: the rows are sent as the file spells them.
    assert purposes == ["Loan  Offers", "Loan Offers", "MARKETING", "Marketing", "marketing"]
