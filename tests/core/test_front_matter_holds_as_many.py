"""A sheet named like front matter ("Summary", "Notes", "Legend") that holds more phone numbers
than the sheet it would be passed over for is the list after all (regression check T1: a
"Summary" sheet of 200 opt-outs was passed over for a "Sheet2" of 2, and the 198 others left
off the list); a cover sheet's few contact phones are still passed over for the data."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.ui.import_wizard_engine import probe_file


def _workbook(path: Path, first: str, first_rows: int, second_rows: int) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = first
    ws.append(["Name", "Phone"])
    for n in range(first_rows):
        ws.append([f"Person {n}", f"303555{1301 + n}"])
    other = wb.create_sheet("Sheet2")
    other.append(["Name", "Phone"])
    for n in range(second_rows):
        other.append([f"Other {n}", f"720555{1401 + n}"])
    wb.save(path)
    return path


def _dry_run(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, "--report", str(tmp_path / "r.xlsx"), "--overwrite"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


@pytest.mark.parametrize(
    ("first", "first_rows", "second_rows", "read", "valid"),
    [
        ("Summary", 200, 2, "Summary", 200),
        ("Notes", 20, 8, "Notes", 20),
        ("Legend", 20, 8, "Legend", 20),
        ("Cover", 2, 25, "Sheet2", 25),
        ("Instructions", 8, 8, "Sheet2", 8),  # as many: the data sheet is preferred
    ],
)
def test_the_sheet_with_the_numbers_is_read_whatever_its_name(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    first: str,
    first_rows: int,
    second_rows: int,
    read: str,
    valid: int,
) -> None:
    path = _workbook(tmp_path / "book.xlsx", first, first_rows, second_rows)
    out = _dry_run(path, tmp_path, capsys)
    assert (out["sheet"], out["valid"]) == (read, valid)
    assert probe_file(path, prefer_opt_outs=True).sheet == read
    assert probe_file(path).sheet == read
