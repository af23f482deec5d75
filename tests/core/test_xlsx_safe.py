"""Formula-injection neutralising and text phone numbers in the xlsx and CSV writers."""

from __future__ import annotations

import csv
import datetime as dt
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from app.core.xlsx_safe import SafeCsvWriter, SafeWorkbook, csv_cell, neutralise, xlsx_cell

HOSTILE = [
    "=1+2",
    "+12025550123",
    "-1+2",
    "-A1",
    "@SUM(A1)",
    "\tx",
    "\rx",
    "\nx",
    "=cmd|' /C calc'!A0",
    '="2025550157"',
]
# Plain negative numbers are numbers to every spreadsheet, never formulas: no quote.
PLAIN_NUMBERS = ["-1", "-12.5", "-0", "-2025550123"]


@pytest.mark.parametrize("text", HOSTILE)
def test_triggers_get_a_quote(text: str) -> None:
    assert neutralise(text) == "'" + text
    assert xlsx_cell(text) == "'" + text
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize(
    "text", ["2025550123", "07700900123", "Collections", "", "a=b", *PLAIN_NUMBERS]
)
def test_harmless_text_unchanged(text: str) -> None:
    assert neutralise(text) == text
    assert csv_cell(text) == text
    assert xlsx_cell(text) == (text or None)


def test_xlsx_cells_are_text_and_never_formulas(tmp_path: Path) -> None:
    book = SafeWorkbook()
    sheet = book.add_sheet("S")
    sheet.append_text(["2025550123", "07700900123", *HOSTILE, *PLAIN_NUMBERS])
    sheet.append([5, 2.5, None, dt.date(2026, 1, 2), "x\x01y", "=A1", "-1"])
    book.save(tmp_path / "s.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "s.xlsx")["S"]
    first = [c for c in ws[1]]
    assert all(c.data_type == "s" for c in first)
    assert first[0].value == "2025550123" and first[1].value == "07700900123"
    # openpyxl's lxml writer keeps a lone CR (the stdlib one turned it into LF); the quote in
    # front is what matters.
    assert [c.value for c in first[2:]] == ["'" + t for t in HOSTILE] + PLAIN_NUMBERS
    second = [c.value for c in ws[2]]
    assert second[:2] == [5, 2.5] and second[4] == "x\ufffdy" and second[5] == "'=A1"
    assert second[6] == "-1"


def test_csv_round_trip(tmp_path: Path) -> None:
    with SafeCsvWriter(tmp_path / "s.csv") as out:
        out.append_text(["2025550123", "07700900123", *HOSTILE, *PLAIN_NUMBERS])
        out.append([1, None, dt.datetime(2026, 1, 2, 3, 4, 5), "-1", "-1+2"])
    with (tmp_path / "s.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["2025550123", "07700900123", *("'" + t for t in HOSTILE), *PLAIN_NUMBERS]
    assert rows[1] == ["1", "", "2026-01-02 03:04:05", "-1", "'-1+2"]
    assert not (tmp_path / "s.csv.part").exists()


def test_failed_csv_leaves_no_file(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), SafeCsvWriter(tmp_path / "s.csv") as out:
        out.append(["a"])
        raise RuntimeError
    assert list(tmp_path.iterdir()) == []


def _quote_prefixed_book(path: Path) -> None:
    book = SafeWorkbook(quote_prefix=True)
    sheet = book.add_sheet("S")
    sheet.append_text(["2025550123", *HOSTILE, *PLAIN_NUMBERS])
    sheet.append([5, None, "'+44 7700 900124", "+44 7700 900124", "-1", "-1+2", "x\x01y"])
    sheet.append_text(["=" + "x" * 40_000, "ok"])  # the slow path: over the cell limit
    book.save(path)


def test_quote_prefix_keeps_the_exact_text_in_a_text_cell(tmp_path: Path) -> None:
    out = tmp_path / "q.xlsx"
    _quote_prefixed_book(out)
    ws = openpyxl.load_workbook(out)["S"]
    first = list(ws[1])
    assert [c.value for c in first] == ["2025550123", *HOSTILE, *PLAIN_NUMBERS]
    assert all(c.data_type == "s" for c in first)
    assert [bool(c.quotePrefix) for c in first] == [False] + [True] * len(HOSTILE) + [False] * 4
    second = list(ws[2])[:7]
    assert [c.value for c in second] == [
        5,
        None,
        "'+44 7700 900124",  # a quote the file itself had stays, as plain text
        "+44 7700 900124",
        "-1",
        "-1+2",
        "x\ufffdy",
    ]
    assert [bool(c.quotePrefix) for c in second] == [False, False, False, True, False, True, False]
    long, ok = list(ws[3])[:2]
    assert long.quotePrefix and len(long.value) == 32_767 and long.value.startswith("=x")
    assert ok.value == "ok"
    calamine = CalamineWorkbook.from_path(str(out)).get_sheet_by_name("S").to_python()
    assert calamine[0] == ["2025550123", *HOSTILE, *PLAIN_NUMBERS]
    assert calamine[1][2:7] == ["'+44 7700 900124", "+44 7700 900124", "-1", "-1+2", "x\ufffdy"]


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) not installed")
def test_libreoffice_shows_the_exact_text_and_computes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "q.xlsx"
    _quote_prefixed_book(out)
    subprocess.run(
        [
            "soffice",
            "--headless",
            "--norestore",
            f"-env:UserInstallation=file://{tmp_path / 'profile'}",
            "--convert-to",
            "csv:Text - txt - csv (StarCalc):44,34,76,1",
            "--outdir",
            str(tmp_path / "lo"),
            str(out),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    with (tmp_path / "lo" / "q.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["2025550123", *HOSTILE, *PLAIN_NUMBERS]
    assert rows[1][2:6] == ["'+44 7700 900124", "+44 7700 900124", "-1", "-1+2"]
