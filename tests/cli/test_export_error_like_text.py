"""Black-box B12 #4: an export wrote a reason or purpose reading like an Excel error value
("#N/A", "#REF!") as that error cell (openpyxl types such text as an error), so the export did
not hold the value the service has: read back, those cells were errors (empty to calamine).
Exported, such text is a string cell holding it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from tests.conftest import TOKEN

REASONS = {"2025550171": "#N/A", "2025550172": "#REF!", "2025550173": "#DIV/0!"}


def test_error_like_text_is_exported_as_the_text_it_is(
    make_sandbox: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    source = make_sandbox()
    with ApiClient(source.base_url, TOKEN) as api:
        for number, reason in REASONS.items():
            api.insert_dnc(number, "1", Scope.global_(), reason=reason)
        api.insert_dnc("2025550174", "1", Scope.purpose("#N/A"), reason="asked")
    out = tmp_path / "dnc.xlsx"
    assert main(["export", "dnc", "--out", str(out), "--base-url", source.base_url]) == 0
    sheet = openpyxl.load_workbook(out).worksheets[0]
    header = [c.value for c in sheet[1]]
    rows = {r[header.index("phone_number")].value: r for r in sheet.iter_rows(min_row=2)}
    for number, reason in REASONS.items():
        cell = rows[number][header.index("reason")]
        assert (cell.value, cell.data_type) == (reason, "s")
    purpose = rows["2025550174"][header.index("purpose")]
    assert (purpose.value, purpose.data_type) == ("#N/A", "s")
    # Another reader sees the text too, not an error value (which calamine reads as empty).
    book = CalamineWorkbook.from_path(str(out))
    values = [v for row in book.get_sheet_by_index(0).iter_rows() for v in row]
    assert {"#N/A", "#REF!", "#DIV/0!"} <= set(values)
