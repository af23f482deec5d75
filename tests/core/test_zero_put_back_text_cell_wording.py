"""Black-box B20 F1: an xlsx text cell "7976707506" (a UK mobile without its 0) was said to be
one "where a spreadsheet dropped it from a number cell": the app cannot know the cell was ever
a number. The warning now says what it knows: the cell lacks the 0 a number cell drops."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN


def test_a_text_cell_without_its_zero_is_not_called_a_number_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone"])
    sheet.append(["7976707506"])  # text, as the B20 vendor file held it
    sheet["A2"].number_format = "@"
    sheet.append(["2025550147"])
    path = tmp_path / "vendor.xlsx"
    book.save(path)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    main(argv)
    warnings = json.loads(capsys.readouterr()[0])["warnings"]
    said = [w for w in warnings if "leading 0" in w]
    assert len(said) == 1, warnings
    assert "number cell)" not in said[0].replace("number cell drops it)", "")
    assert (
        "(row 2; the 0 put back where the cell lacks it, as a spreadsheet's number cell drops it)"
        in said[0]
    )
