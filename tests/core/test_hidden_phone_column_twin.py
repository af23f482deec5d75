"""Of two phone columns under the same header, one hidden in the file, the visible one is read:
its numbers are the ones a person looking at the file sees (black-box bb13 F6: the hidden
column B of old numbers was read, and the updated numbers in the visible column C were "not
imported"). The hidden one is named, and each row's message quotes its number as the sheet
shows it, not as the float it is stored as ('6505550201.0')."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from app.api.scope import Scope
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session


def _workbook(tmp_path: Path, second: str, hide: str = "B") -> Path:
    """Name | Phone | ``second``: column B the old numbers, column C two of them updated."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Opt-outs"
    ws.append(["Name", "Phone", second])
    for i in range(5):
        ws.append([f"N{i}", 6505550100 + i, 6505550200 + i if i % 2 else 6505550100 + i])
    ws.column_dimensions[hide].hidden = True
    path = tmp_path / "optouts.xlsx"
    wb.save(path)
    return path


def _import(session: Session, path: Path, tmp_path: Path) -> tuple[list[str], dict[str, Any]]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    assert run_import(store, session) is JobStatus.FINISHED
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    summary = job_summary(store)
    summary["messages"] = {r.row_number: r.message for r in store.rows()}
    store.close()
    return warnings, summary


def _listed(sandbox: Any) -> list[str]:
    return sorted(r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc"))


def test_the_visible_column_of_two_equal_ones_is_read(
    session: Session, sandbox: Any, tmp_path: Path
) -> None:
    warnings, summary = _import(session, _workbook(tmp_path, "Phone"), tmp_path)
    assert summary["inserted"] == 5
    assert _listed(sandbox) == [
        "6505550100", "6505550102", "6505550104", "6505550201", "6505550203"
    ]  # fmt: skip
    assert (
        "Column B ('Phone') is hidden in sheet 'Opt-outs' of optouts.xlsx, and column C "
        "('Phone') has the same header and is not: column C ('Phone') is read, as the numbers "
        "a person looking at the file sees, and the hidden column is not imported. Unhide it "
        "to see its numbers."
    ) in warnings, warnings
    assert any(
        w.startswith("Column B ('Phone') also holds phone numbers")
        and "run the file again with --phone-column column:B" in w
        for w in warnings
    ), warnings
    assert summary["messages"][3] == (
        "row 3: column B on this row holds '6505550101' (+16505550101), not imported: only "
        "column C ('Phone') is read"
    )


def test_a_hidden_column_with_no_visible_twin_is_still_read_and_said(
    session: Session, sandbox: Any, tmp_path: Path
) -> None:
    """ "Mobile" is another line, not the same column: the hidden "Phone" stays read, and said."""
    warnings, summary = _import(session, _workbook(tmp_path, "Mobile"), tmp_path)
    assert "6505550101" in _listed(sandbox)
    assert any(
        w.startswith(
            "Column B ('Phone') is hidden in sheet 'Opt-outs' of optouts.xlsx: its "
            "values were read all the same"
        )
        for w in warnings
    ), warnings
    assert summary["messages"][3] == (
        "row 3: column C on this row holds '6505550201' (+16505550201), not imported: only "
        "column B ('Phone') is read"
    )


def test_a_hidden_second_column_changes_nothing(
    session: Session, sandbox: Any, tmp_path: Path
) -> None:
    warnings, _ = _import(session, _workbook(tmp_path, "Phone", hide="C"), tmp_path)
    assert "6505550101" in _listed(sandbox)
    assert not any("has the same header and is not" in w for w in warnings), warnings


def test_a_removal_takes_off_the_visible_columns_numbers(
    session: Session, sandbox: Any, tmp_path: Path
) -> None:
    """A removal was refused on the hidden column found; with a visible twin it removes the
    numbers the person sees, and leaves the hidden column's old ones on the list."""
    listed = ["6505550100", "6505550101", "6505550102", "6505550103", "6505550104"]
    listed += ["6505550201", "6505550203"]
    sandbox.bulk_seed_dnc([(n, "1", "0", "asked", "") for n in listed])
    settings = JobSettings(_workbook(tmp_path, "Phone"), Scope.global_(), reason="consent given")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    assert run_removal(store, session) is JobStatus.FINISHED
    store.close()
    assert any("the hidden column is not removed" in w for w in warnings), warnings
    assert _listed(sandbox) == ["6505550101", "6505550103"]
