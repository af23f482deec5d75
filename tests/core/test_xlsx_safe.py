"""Formula-injection neutralising and text phone numbers in the xlsx and CSV writers."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from app.core.xlsx_safe import SafeCsvWriter, SafeWorkbook, csv_cell, neutralise, xlsx_cell

HOSTILE = ["=1+2", "+12025550123", "-3", "@SUM(A1)", "\tx", "\rx", "\nx", "=cmd|' /C calc'!A0"]


@pytest.mark.parametrize("text", HOSTILE)
def test_triggers_get_a_quote(text: str) -> None:
    assert neutralise(text) == "'" + text
    assert xlsx_cell(text) == "'" + text
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("text", ["2025550123", "07700900123", "Collections", "", "a=b"])
def test_harmless_text_unchanged(text: str) -> None:
    assert neutralise(text) == text


def test_xlsx_cells_are_text_and_never_formulas(tmp_path: Path) -> None:
    book = SafeWorkbook()
    sheet = book.add_sheet("S")
    sheet.append_text(["2025550123", "07700900123", *HOSTILE])
    sheet.append([5, 2.5, None, dt.date(2026, 1, 2), "x\x01y", "=A1"])
    book.save(tmp_path / "s.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "s.xlsx")["S"]
    first = [c for c in ws[1]]
    assert all(c.data_type == "s" for c in first)
    assert first[0].value == "2025550123" and first[1].value == "07700900123"
    # openpyxl's lxml writer keeps a lone CR (the stdlib one turned it into LF); the quote in
    # front is what matters.
    assert [c.value for c in first[2:]] == ["'" + t for t in HOSTILE]
    second = [c.value for c in ws[2]]
    assert second[:2] == [5, 2.5] and second[4] == "x\ufffdy" and second[5] == "'=A1"


def test_csv_round_trip(tmp_path: Path) -> None:
    with SafeCsvWriter(tmp_path / "s.csv") as out:
        out.append_text(["2025550123", "07700900123", *HOSTILE])
        out.append([1, None, dt.datetime(2026, 1, 2, 3, 4, 5)])
    with (tmp_path / "s.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["2025550123", "07700900123", *("'" + t for t in HOSTILE)]
    assert rows[1] == ["1", "", "2026-01-02 03:04:05"]
    assert not (tmp_path / "s.csv.part").exists()


def test_failed_csv_leaves_no_file(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), SafeCsvWriter(tmp_path / "s.csv") as out:
        out.append(["a"])
        raise RuntimeError
    assert list(tmp_path.iterdir()) == []
