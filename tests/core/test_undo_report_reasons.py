"""Black-box B20 F6: undoing an import by removing with its own report read the report's
Reason column (why each number was put on the list: "Café request") as the removal's reason,
so the change journal's delete said "undo vendor B (row 7: global now (was 1001 only))", as if
the number came off for that. The removal now leaves that column unread and says so; a column
the officer adds for the removal's reasons is read; an import of the report reads it as
before."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore
from app.core.removal_job import delete_note, stage_removal
from tests.core.test_undo_report_rows_not_removed import import_report

NOTE = "undo vendor B"
LEFT = (
    "undoB.xlsx is read as a DNC Desk report: its column L ('Reason'), the reason each row "
    "was sent with by the report's job (an import's: why the number was put on the list), "
    "is not read as the removal's reason: "
)


def _removal(path: Path, jobs: Path) -> JobStore:
    settings = JobSettings(path, Scope.global_(), note=NOTE, scope_from_rows=True)
    store, _ = stage_removal(settings, jobs, connection=None)
    return store


def test_a_removal_does_not_take_the_reports_reasons_as_its_own(tmp_path: Path) -> None:
    store = _removal(import_report(tmp_path), tmp_path / "jobs")
    meta, rows = store.meta(), list(store.rows())
    store.close()
    assert "reason" not in meta["mapping"]
    assert [r.reason for r in rows] == [""] * 5
    assert [delete_note(NOTE, r) for r in rows] == [f"{NOTE} (row {r.row_number})" for r in rows]
    said = [w for w in meta["warnings"] if LEFT in w]
    assert len(said) == 1
    assert said[0].endswith(
        f"{LEFT}each delete's change journal note is the job's --note alone. To give rows a "
        "reason for their removal, write it in a column with another header (such as "
        "'Removal reason')."
    )


def test_a_column_added_for_the_removals_reasons_is_read(tmp_path: Path) -> None:
    path = import_report(tmp_path)
    book = openpyxl.load_workbook(path)
    sheet = book["Rows"]
    sheet.cell(1, 13).value = "Removal reason"
    sheet.cell(6, 13).value = "vendor sent it by mistake"
    book.save(path)
    store = _removal(path, tmp_path / "jobs")
    meta, rows = store.meta(), {r.row_number: r for r in store.rows()}
    store.close()
    assert meta["mapping"]["reason"] == "Removal reason (column M)"
    assert delete_note(NOTE, rows[6]) == f"{NOTE} (row 6: vendor sent it by mistake)"
    assert delete_note(NOTE, rows[2]) == f"{NOTE} (row {rows[2].row_number})"
    assert any(
        f"{LEFT}column M ('Removal reason') is read as the removal's reason instead." in w
        for w in meta["warnings"]
    )


def test_an_import_of_the_report_still_reads_its_reasons(tmp_path: Path) -> None:
    settings = JobSettings(import_report(tmp_path), Scope.global_(), scope_from_rows=True)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    meta, rows = store.meta(), {r.row_number: r for r in store.rows()}
    store.close()
    assert meta["mapping"]["reason"] == "Reason (column L)"
    assert rows[3].reason == "Café request"
    assert not any(LEFT in w for w in meta["warnings"])
