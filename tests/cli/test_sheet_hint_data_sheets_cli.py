"""A workbook whose first sheet has no phone column was refused with a hint that offered every
other sheet ("choose another sheet with --sheet ('Hidden', 'VeryHidden', 'Chart')"): a chart
sheet, which has no cells, and empty hidden sheets, which have nothing to read. The hint now
offers the sheets that hold data, a hidden one said to be hidden, a chart sheet never. The sheet
reader's child process says which sheets are not worksheets (calamine's sheet metadata)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference

from app.cli.main import main
from app.core.sheet_reader import open_sheet
from tests.conftest import CORPUS, TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _refusal(capsys: pytest.CaptureFixture[str], sandbox: Any, path: Path) -> str:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    code = main([*argv, "--base-url", sandbox.base_url])
    captured = capsys.readouterr()
    assert code == 1, captured.out
    return captured.err


def _workbook(tmp_path: Path) -> Path:
    """'Codes' (no phone column), 'Archive' hidden with data, 'Spare' very hidden and empty,
    'Totals' a visible sheet with data, and a chart sheet 'Chart'."""
    book = openpyxl.Workbook()
    codes = book.active
    assert codes is not None
    codes.title = "Codes"
    for row in (["Code", "Count"], [1, 2], [3, 4]):
        codes.append(row)
    archive = book.create_sheet("Archive")
    for row in (["Note", "Agent"], ["asked", "Ana"]):
        archive.append(row)
    archive.sheet_state = "hidden"
    book.create_sheet("Spare").sheet_state = "veryHidden"
    totals = book.create_sheet("Totals")
    totals.append(["Month", "Total"])
    totals.append(["November", 12])
    chart = BarChart()
    chart.add_data(Reference(codes, min_col=2, min_row=1, max_row=3), titles_from_data=True)
    book.create_chartsheet("Chart").add_chart(chart)
    path = tmp_path / "workbook.xlsx"
    book.save(path)
    return path


def test_the_hint_offers_data_sheets_and_says_which_are_hidden(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _refusal(capsys, sandbox, _workbook(tmp_path))
    assert "No column of phone numbers was found in sheet 'Codes' of workbook.xlsx" in err
    assert "choose another sheet with --sheet ('Archive' (hidden), 'Totals')." in err
    assert "Chart" not in err and "Spare" not in err


@pytest.mark.parametrize("suffix", ["xlsx", "xlsb", "xls"])
def test_the_corpus_chart_and_empty_hidden_sheets_are_not_offered(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    path = tmp_path / f"any_sheets.{suffix}"
    if not (CORPUS / "calamine" / path.name).exists():
        pytest.skip("the shared corpus is not here")  # a checkout outside the workplace
    shutil.copy(CORPUS / "calamine" / path.name, path)
    err = _refusal(capsys, sandbox, path)
    assert f"in sheet 'Visible' of any_sheets.{suffix}" in err
    assert "--sheet" not in err
    assert "Chart" not in err and "Hidden" not in err


def test_the_reader_lists_no_chart_sheet(tmp_path: Path) -> None:
    source = open_sheet(_workbook(tmp_path), None)
    try:
        assert source.sheet_names == ("Codes", "Archive", "Spare", "Totals")
        assert source.notes.hidden_sheets == {"Archive", "Spare"}
    finally:
        source.close()
