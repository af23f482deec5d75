"""The import wizard's check words a value right of the header as staging does: in a CSV it
blames a comma in an unquoted value, in a workbook it does not (no comma to blame there)."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.core.sheet_check import CheckOptions
from app.core.sheet_mapping import ColumnMapping
from app.ui.import_wizard_engine import check_file, probe_file

ROWS = [["Name", "Phone"], ["Ann", "303-555-0410"], ["Smith", "John", "303-555-0411"]]


def _problem(path: Path) -> str:
    probe = probe_file(path)
    mapping = ColumnMapping(header_row=1, headers=("Name", "Phone"), phone=1)
    result = check_file(probe, mapping, CheckOptions(), {})
    (problem,) = result.problems
    return problem.message


def test_a_csv_row_split_by_a_comma_blames_the_comma(tmp_path: Path) -> None:
    path = tmp_path / "split.csv"
    path.write_text("\n".join(",".join(row) for row in ROWS) + "\n")
    assert "in a CSV file, a comma in an unquoted value does this" in _problem(path)


def test_a_workbook_row_does_not_blame_a_comma(tmp_path: Path) -> None:
    path = tmp_path / "split.xlsx"
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    for row in ROWS:
        sheet.append(row)
    wb.save(path)
    message = _problem(path)
    assert "right of the header's last named column" in message and "comma" not in message
