"""``dnc-desk import --dry-run`` of files whose table starts below row 50: under 69 blank rows
(header at B70) and under 60 rows of notes (header at A62). Both used to be refused with "No
column of phone numbers was found"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main


def dry_run(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict[str, Any], str]:
    code = main(["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"])
    captured = capsys.readouterr()
    out = captured.out.strip()
    return code, (json.loads(out) if out else {}), captured.err.strip()


def test_a_table_under_blank_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws["B70"], ws["C70"] = "Phone", "Reason"
    for i in range(30):
        ws.cell(row=71 + i, column=2, value=2025550140 + i)
        ws.cell(row=71 + i, column=3, value="asked")
    ws.cell(row=101, column=2, value="12345")  # one invalid, so the column is really read
    wb.save(tmp_path / "blank-rows.xlsx")
    code, data, err = dry_run(capsys, tmp_path / "blank-rows.xlsx")
    assert code == 0, err
    assert (data["rows"], data["valid"], data["invalid"]) == (31, 30, 1)


def test_a_table_under_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for i in range(1, 61):
        ws.cell(row=i, column=1, value=f"Note line {i}: please read")
    ws["A62"] = "Phone"
    for i in range(45):
        ws.cell(row=63 + i, column=1, value=f"(202) 555-{140 + i:04d}")
    wb.save(tmp_path / "notes.xlsx")
    code, data, err = dry_run(capsys, tmp_path / "notes.xlsx")
    assert code == 0, err
    assert (data["rows"], data["valid"], data["invalid"]) == (45, 45, 0)
