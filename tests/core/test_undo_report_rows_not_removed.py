"""Black-box B20 F5: undoing an import by removing with its own report (--per-row-scope). The
rows left invalid, as their import did not insert them, showed in the removal's report with
no number and the Scope ``global`` (--scope's), though their cells name 4803480935 under
``purpose:Debt Collection``: the report misstated which entry the row was about."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.api.scope import Scope
from app.core.job_report import REASON_COLUMN, ROW_COLUMNS
from app.core.job_staging import JobSettings
from app.core.removal_job import stage_removal

# Vendor B's import report as B20 had it (its file's row 4 left out; the Reason column
# last). Each Source row is the report's own sheet row, as the staged rows are numbered so.
ROWS = (
    (2, "3035550111", "3035550111", "1", "global", "inserted", "Demande écrite"),
    (3, "303.555.0116", "3035550116", "1", "campaign:1002", "inserted", "Café request"),
    (4, "4803480935", "4803480935", "1", "purpose:Debt Collection", "already_present", "déjà"),
    (5, "3035550112", "3035550112", "1", "campaign:1001", "already_present", "dup"),
    (6, "6157898822", "6157898822", "1", "global", "inserted", "global now (was 1001 only)"),
)


def import_report(folder: Path) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Rows"
    sheet.append([*ROW_COLUMNS, REASON_COLUMN])
    for row, original, national, code, scope, outcome, reason in ROWS:
        message = "Phone number already in DNC" if outcome == "already_present" else None
        cells = [row, original, national, code, scope, outcome, message, None, None, None, None]
        sheet.append([*cells, reason])
    path = folder / "undoB.xlsx"
    book.save(path)
    return path


def test_rows_not_removed_keep_the_number_and_scope_they_name(tmp_path: Path) -> None:
    settings = JobSettings(
        import_report(tmp_path), Scope.global_(), note="undo vendor B", scope_from_rows=True
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    rows = {r.row_number: r for r in store.rows()}
    store.close()
    assert {n: r.outcome for n, r in rows.items() if r.outcome == "invalid"} == {
        4: "invalid",
        5: "invalid",
    }
    shown = {n: (r.national, r.phone_code, r.scope) for n, r in rows.items()}
    assert shown[4] == ("4803480935", "1", "purpose:Debt Collection")
    assert shown[5] == ("3035550112", "1", "campaign:1001")
    assert rows[4].message.startswith(
        "row 4: the report says this number was already on the list before its job "
        "(already_present)"
    )
    # The rows removed are as before.
    assert shown[3] == ("3035550116", "1", "campaign:1002")
    assert shown[6] == ("6157898822", "1", "global")


def test_one_row_not_removed_is_said_in_the_singular(tmp_path: Path) -> None:
    path = import_report(tmp_path)
    book = openpyxl.load_workbook(path)
    book["Rows"].cell(5, 6).value = "inserted"  # row 5: only row 4 is left invalid
    book.save(path)
    settings = JobSettings(path, Scope.global_(), note="undo vendor B", scope_from_rows=True)
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    warnings = store.meta()["warnings"]
    store.close()
    assert any(
        "(4 rows) are removed, the numbers its job put on the list. 1 row whose Outcome is not "
        "'inserted' is left invalid, saying why: 1 already_present (row 4). Its number was not "
        "put on the list by that job (an already_present one was there before it, at another "
        "request): to remove it all the same, put it in a file of its own." in w
        for w in warnings
    )
