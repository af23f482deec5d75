"""Black-box pass P3 #9: a reason column of free text is no status column.

A "Reason" column of "“stop”", "ok" and "x" was said to mix opt-outs and others ("Keep only the
rows that say do not call"), and a "Reason" of notes ("date in phone", "ok num") flagged its
"ok" row as "no opt-out": "ok" was read as a scrub's verdict. A "Reason" or "Description" column
is a scrub's verdicts only when it holds one no person writes as a reason ("Clean", "Invalid
Number") and as many verdicts as other text.

Through stage_import, as an import of the file is staged (no service: nothing is sent).
"""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings


def _staged(tmp_path: Path, path: Path) -> tuple[list[str], dict[int, str]]:
    """The staged import's warnings, and each row's message."""
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    try:
        warnings = [str(w) for w in store.meta().get("warnings") or []]
        messages = {r.row_number: r.message for r in store.rows()}
    finally:
        store.close()
    return warnings, messages


def test_a_reasons_ok_and_x_beside_stop_are_no_status_column(tmp_path: Path) -> None:
    path = tmp_path / "mixed.csv"
    path.write_bytes(
        "Name,Phone,Reason\nJosé,303-555-1701,“stop”\nRené,303-555-1702,ok\n".encode()
        + "Zoë,303-555-1703,x\n".encode("cp1252")
    )
    warnings, messages = _staged(tmp_path, path)
    assert not [w for w in warnings if "Keep only the rows" in w], warnings
    assert not [m for m in messages.values() if "no opt-out" in m], messages


def test_a_reason_of_notes_does_not_call_its_ok_row_no_opt_out(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for row in [
        ("Phone", "Reason"),
        ("303-555-0500", "date in phone"),
        ("303-555-0503", "time in phone"),
        ("303-555-0501", "ok"),
        (3035550502, "ok num"),
    ]:
        ws.append(row)
    wb.save(tmp_path / "odd.xlsx")
    warnings, messages = _staged(tmp_path, tmp_path / "odd.xlsx")
    assert messages[4] == "", messages
    assert not [w for w in warnings if "something else" in w], warnings


def test_a_few_verdicts_among_free_text_are_no_scrub(tmp_path: Path) -> None:
    path = tmp_path / "notes.csv"
    notes = ["Customer asked", "Rude on the phone", "Clean", "Said he would sue", "Wrong name"]
    path.write_text(
        "Phone,Reason\n3035550600,DNC\n"
        + "".join(f"30355506{n:02},{note}\n" for n, note in enumerate(notes, 1)),
        encoding="utf-8",
    )
    warnings, messages = _staged(tmp_path, path)
    assert not [w for w in warnings if "something else" in w], warnings
    assert not [m for m in messages.values() if "no opt-out" in m], messages


def test_a_scrub_sorted_by_result_is_judged_on_its_other_rows(tmp_path: Path) -> None:
    # Sixty do-not-call rows first: the column is judged on the rows after them, a scrub's.
    lines = [f"303555{n:04},Federal DNC" for n in range(60)]
    lines += [f"303556{n:04},Clean" for n in range(1, 4)]
    path = tmp_path / "scrub.csv"
    path.write_text("Phone,Reason\n" + "\n".join(lines) + "\n", encoding="utf-8")
    warnings, messages = _staged(tmp_path, path)
    assert [w for w in warnings if "60 of the 63 rows say do not call" in w], warnings
    assert messages[62] == "row 62: column B ('Reason') says 'Clean', which is no opt-out"


def test_ok_counts_as_a_verdict_beside_another(tmp_path: Path) -> None:
    path = tmp_path / "scrub.csv"
    path.write_text(
        "Phone,Reason\n3035550701,Clean\n3035550702,DNC\n3035550703,OK\n", encoding="utf-8"
    )
    warnings, messages = _staged(tmp_path, path)
    assert [w for w in warnings if "1 of the 3 rows says do not call ('DNC')" in w], warnings
    assert messages[4] == "row 4: column B ('Reason') says 'OK', which is no opt-out"
