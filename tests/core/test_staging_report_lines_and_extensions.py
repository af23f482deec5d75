"""The staged job says what the P2/P3 wording helpers find, end to end (black-box P3 #6, #7 and
P2 #8): a row repeating the header or holding only a report's footer says so, an unread Ext
column is named in the job's warnings, and a 16-digit number cell's Original value is as a
spreadsheet shows it, not Python's float text."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow


def _staged(tmp_path: Path, path: Path) -> tuple[dict[int, JobRow], list[str]]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        rows = {r.row_number: r for r in store.rows()}
        return rows, list(store.meta().get("warnings", []))


def test_a_repeated_header_and_a_footer_line_say_what_they_are(tmp_path: Path) -> None:
    path = tmp_path / "paged.csv"
    path.write_text(
        "Name,Phone,Reason\nAcme,303-555-1601,stop\nName,Phone,Reason\nBeta,303-555-1602,stop\n"
        "Page 2 of 2,,\n",
        encoding="utf-8",
    )
    rows, _ = _staged(tmp_path, path)
    assert rows[3].outcome == "invalid"
    assert "the row repeats the header (row 1)" in rows[3].message
    assert rows[5].outcome == "invalid"
    assert "a report's title or footer line" in rows[5].message
    assert rows[2].outcome == rows[4].outcome == ""


def test_an_extension_column_is_named_in_the_job_warnings(tmp_path: Path) -> None:
    path = tmp_path / "ext_col.csv"
    path.write_text(
        "Name,Phone,Ext\nAcme Corp,303-555-1501,204\nBeta LLC,303-555-1502,\n", encoding="utf-8"
    )
    _, warnings = _staged(tmp_path, path)
    assert any(w.startswith("Column C ('Ext') holds extensions (row 2: '204')") for w in warnings)


def test_a_sixteen_digit_number_cell_keeps_the_digits_a_spreadsheet_shows(tmp_path: Path) -> None:
    path = tmp_path / "long.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone"])
    ws.append([4915123456789012.0])
    ws.append([49151234567890123456.0])
    wb.save(path)
    rows, _ = _staged(tmp_path, path)
    assert rows[2].original == "4915123456789010"
    assert rows[3].original == "49151234567890100000"
