"""A merged range's covered cells hold nothing of their own (black-box B26 F5): a phone number
merged across columns B:C (and its header) made column C "also hold phone numbers", offered for
import with --phone-column column:C, though it only shows B's numbers again.
"""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main

NUMBERS = [3035550101, 3035550102, 2025550143, 3035550104, 3035550105]


def _warnings(capsys: pytest.CaptureFixture[str], src: Path) -> list[str]:
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    assert (data["valid"], data["invalid"]) == (5, 0)
    warnings: list[str] = data["warnings"]
    return warnings


def _book(path: Path, header_c: str | None, merged_rows: range, own: dict[int, int]) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Name", "Phone", header_c, "Reason"])
    if header_c is None:
        sheet.merge_cells("B1:C1")
    for i, number in enumerate(NUMBERS, start=2):
        sheet.append([f"P{i}", number, own.get(i), "asked"])
    for row in merged_rows:
        sheet.merge_cells(f"B{row}:C{row}")
    book.save(path)
    return path


def test_numbers_merged_across_two_columns_are_not_offered_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _book(tmp_path / "merged.xlsx", None, range(2, 7), {})
    assert not [w for w in _warnings(capsys, src) if "also holds phone numbers" in w]
    src = _book(tmp_path / "values.xlsx", "Other", range(2, 7), {})
    assert not [w for w in _warnings(capsys, src) if "also holds phone numbers" in w]


def test_a_column_with_numbers_of_its_own_is_still_offered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Rows 2-3 merged, rows 4-6 hold numbers of their own in C.
    own = {4: 7205550104, 5: 7205550105, 6: 7205550106}
    src = _book(tmp_path / "own.xlsx", "Other", range(2, 4), own)
    (said,) = [w for w in _warnings(capsys, src) if "also holds phone numbers" in w]
    assert "--phone-column column:C" in said
