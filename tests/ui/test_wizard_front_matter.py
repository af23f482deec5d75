"""The import wizard shows the sheet staging reads: a vendor's "Cover" sheet with its own
contact phones first is passed over for the sheet of opt-outs (black-box Q1 #3), for an import
and a removal alike; a cover sheet named, or the only sheet with numbers, is still shown."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.ui.import_wizard_engine import probe_file


def _workbook(path: Path, *, data: bool = True) -> Path:
    wb = openpyxl.Workbook()
    cover = wb.active
    cover.title = "Cover"
    cover.append(["Vendor opt-out delivery"])
    cover.append(["Contact", "Phone"])
    cover.append(["Dana (account manager)", "303-555-0191"])
    cover.append(["Lee (support)", "303-555-0192"])
    if data:
        sheet = wb.create_sheet("Sheet2")
        sheet.append(["Phone", "Reason"])
        for n in range(25):
            sheet.append([f"720555{1101 + n}", "STOP"])
    wb.save(path)
    return path


@pytest.mark.parametrize("prefer_opt_outs", [True, False])
def test_the_sheet_of_data_is_shown_rather_than_the_cover(
    tmp_path: Path, prefer_opt_outs: bool
) -> None:
    probe = probe_file(_workbook(tmp_path / "vendor.xlsx"), prefer_opt_outs=prefer_opt_outs)
    assert probe.sheet == "Sheet2"
    assert probe.sheet_names == ("Cover", "Sheet2")


def test_a_named_cover_or_the_only_sheet_with_numbers_is_shown(tmp_path: Path) -> None:
    assert probe_file(_workbook(tmp_path / "a.xlsx"), "Cover").sheet == "Cover"
    assert probe_file(_workbook(tmp_path / "b.xlsx", data=False), prefer_opt_outs=True).sheet == (
        "Cover"
    )
