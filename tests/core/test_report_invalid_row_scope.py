"""A row invalid for its number keeps the scope its cells (or the job) name, in the job file and
the report's Scope cell: corrected in the report and imported again, it goes where the file
meant it to go. It used to be empty there, so the import took whatever --scope said then."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_report import ROW_COLUMNS, write_report
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore

PER_ROW = (
    "Phone,Scope\n"
    "303-555-0601,purpose:Marketing\n"  # row 2: valid
    "555-0602,purpose:Marketing\n"  # row 3: no area code
    "12345,global\n"  # row 4: too short
    "(303) 555-060,purpose:Marketing\n"  # row 5: cut short
)


def _stage(path: Path, jobs: Path, scope: Scope) -> JobStore:
    store, _ = stage_import(JobSettings(path, scope), jobs, connection=None)
    return store


def test_an_invalid_rows_scope_is_the_one_its_scope_cell_names(tmp_path: Path) -> None:
    path = tmp_path / "per_row.csv"
    path.write_text(PER_ROW, encoding="utf-8")
    store = _stage(path, tmp_path / "jobs", Scope.campaign(1001))
    rows = {r.row_number: r for r in store.rows()}
    assert {n: r.outcome for n, r in rows.items()} == {
        2: "",
        3: "invalid",
        4: "invalid",
        5: "invalid",
    }
    assert {n: r.scope for n, r in rows.items()} == {
        2: "purpose:Marketing",
        3: "purpose:Marketing",
        4: "global",
        5: "purpose:Marketing",
    }
    report = tmp_path / "report.xlsx"
    write_report(store, report)
    store.close()
    book = openpyxl.load_workbook(report, read_only=True)
    scope = ROW_COLUMNS.index("Scope")
    try:
        rows = book["Rows"].iter_rows(min_row=2, values_only=True)
        cells = {row[0]: row[scope] for row in rows}
    finally:
        book.close()  # a read-only workbook keeps its file open until closed
    assert cells == {
        2: "purpose:Marketing",
        3: "purpose:Marketing",
        4: "global",
        5: "purpose:Marketing",
    }


def test_an_invalid_rows_scope_is_the_jobs_when_the_file_names_none(tmp_path: Path) -> None:
    path = tmp_path / "plain.csv"
    path.write_text("Phone\n303-555-0701\n555-0702\n", encoding="utf-8")
    store = _stage(path, tmp_path / "jobs", Scope.campaign(1001))
    assert [(r.outcome, r.scope) for r in store.rows()] == [
        ("", "campaign:1001"),
        ("invalid", "campaign:1001"),
    ]
    store.close()
