"""A long run of blank rows is one line of the report's Rows sheet (a stray value far below a
sheet's data made a million of them); a short run is listed row by row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import python_calamine

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_report import BLANK_RUN_LINE, ReportWriter, write_report
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore


def _sheets(path: Path) -> dict[str, list[list[Any]]]:
    book = python_calamine.CalamineWorkbook.from_path(str(path))
    try:
        return {name: book.get_sheet_by_name(name).to_python() for name in book.sheet_names}
    finally:
        book.close()


def _stage(tmp_path: Path, long_run: int) -> JobStore:
    """Rows 2-4 numbers, 5-9 blank, 10 a number, then ``long_run`` blank rows and a stray
    value below them."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Phone"])
    for n in (1301, 1302, 1303):
        ws.append([f"202555{n}"])
    for _ in range(5):
        ws.append([None])
    ws.append(["2025551304"])
    ws.cell(row=11 + long_run, column=1, value="x")
    src = tmp_path / "in.xlsx"
    wb.save(src)
    store, _ = stage_import(JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=None)
    return store


def _rows(path: Path) -> list[list[Any]]:
    return _sheets(path)["Rows"][1:]


def _summary(path: Path) -> dict[str, Any]:
    return {row[0]: row[1] for row in _sheets(path)["Summary"]}


def test_a_long_run_of_blank_rows_is_one_line_and_a_short_one_row_by_row(tmp_path: Path) -> None:
    store = _stage(tmp_path, 5000)
    try:
        report = write_report(store, tmp_path / "report.xlsx")
    finally:
        store.close()
    rows = _rows(report)
    numbers = [r[0] for r in rows]
    assert numbers == [2, 3, 4, 5, 6, 7, 8, 9, 10, "11–5010", 5011]
    run = rows[9]
    assert run[5] == "blank"
    assert run[6] == "rows 11 to 5,010: 5,000 blank rows"
    assert [r[5] for r in rows[3:8]] == ["blank"] * 5
    assert rows[10][1] == "x" and rows[10][5] == "invalid"
    # The Summary still counts every blank row.
    summary = _summary(report)
    blank = next(v for k, v in summary.items() if str(k).casefold().startswith("blank"))
    assert int(blank) == 5005


def test_a_run_one_short_of_the_line_is_listed_row_by_row(tmp_path: Path) -> None:
    store = _stage(tmp_path, BLANK_RUN_LINE - 1)
    try:
        report = write_report(store, tmp_path / "report.xlsx")
    finally:
        store.close()
    rows = _rows(report)
    assert len(rows) == 9 + (BLANK_RUN_LINE - 1) + 1
    assert all(isinstance(r[0], float) for r in rows)


def test_a_report_written_a_few_rows_at_a_time_comes_out_the_same(tmp_path: Path) -> None:
    store = _stage(tmp_path, 700)
    try:
        whole = write_report(store, tmp_path / "whole.xlsx")
        writer = ReportWriter(store, tmp_path / "stepped.xlsx")
        while writer.advance(limit=7):
            pass
        stepped = writer.finish()
    finally:
        store.close()
    assert _rows(stepped) == _rows(whole)
    assert [r[0] for r in _rows(whole)][-2:] == ["11–710", 711]
