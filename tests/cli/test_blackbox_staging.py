"""Black-box findings in staging: how an original number cell is shown, no lateness on a
removal, and a data sheet after an instructions sheet."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main


def dry_run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main([*argv, "--scope", "global", "--dry-run", "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def report_rows(path: str) -> list[tuple[Any, ...]]:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        return list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()


def test_original_value_of_a_number_cell_is_shown_as_the_cell_shows_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # job_staging._original: str(2025550143.0) -> "2025550143.0" in the report's
    # "Original value", which reads as if the cell held a decimal. The cell held 2025550143.
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone"])
    ws.append([2025550143])
    ws.append([2025550144.0])
    ws.append([2025550145.5])
    wb.save(tmp_path / "numbers.xlsx")
    data = dry_run(capsys, "import", str(tmp_path / "numbers.xlsx"), "--into", "dnc")
    originals = [r[1] for r in report_rows(data["report"])[1:]]
    assert originals == ["2025550143", "2025550144", "2025550145.5"]


def test_a_removal_says_nothing_about_late_insertions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The checker adds "request received ..., N business days before DATE, ... (limit 10)"
    # to every valid row with an old date, removals included (the report no longer counts
    # them late since f53a197, but the message column still says it).
    path = tmp_path / "remove.csv"
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone", "Date received"], ["2025550101", "2020-01-06"]])
    data = dry_run(capsys, "remove", str(path))
    messages = [r[6] if len(r) > 6 else None for r in report_rows(data["report"])[1:]]
    assert not any("business days" in (m or "") for m in messages), messages


def test_an_instructions_sheet_first_does_not_hide_the_data_sheet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # sheet_worker picks the first visible sheet with any content; a vendor workbook with an
    # "Instructions" sheet first is refused ("No column of phone numbers ... --sheet Numbers")
    # although exactly one sheet has phone numbers. Suggest: prefer the first sheet whose
    # preview has a phone column when no --sheet is given.
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "Instructions"
    first["A1"] = "Put the numbers on the next sheet."
    data_sheet = wb.create_sheet("Numbers")
    data_sheet.append(["Telephone"])
    for i in range(5):
        data_sheet.append([f"(202) 555-01{i:02d}"])
    wb.save(tmp_path / "vendor.xlsx")
    data = dry_run(capsys, "import", str(tmp_path / "vendor.xlsx"), "--into", "dnc")
    assert (data["rows"], data["valid"]) == (5, 5)
