"""Black-box pass H2: ``--phone-column`` is resolved against the sheet that is read, and a
headerless file of area codes beside 7-digit numbers says how to join them.

A workbook of "Contacts" and "Opt Outs" reads "Opt Outs" (the opt-out sheet is preferred), yet
a ``--phone-column`` it lacks was refused naming the Contacts sheet and its headers; a column
only "Contacts" has silently moved the import to the contacts. A file of lines as
``202,5551901`` read column B alone, every row "too short", with nothing said of column A.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError

OPT_OUTS = [
    ["Name", "Phone", "Date Received"],
    ["Ann", "(202) 555-0601", "2026-11-16"],
    ["Bob", "(202) 555-0602", "2026-11-17"],
]


def _workbook(path: Path, contacts_headers: list[str]) -> Path:
    """A "Contacts" sheet first (one row under ``contacts_headers``), then "Opt Outs"."""
    wb = openpyxl.Workbook()
    contacts = wb.active
    assert contacts is not None
    contacts.title = "Contacts"
    contacts.append(contacts_headers)
    contacts.append(["Helpdesk", "303-555-1000", "303-555-1001"][: len(contacts_headers)])
    opt_outs = wb.create_sheet("Opt Outs")
    for row in OPT_OUTS:
        opt_outs.append(row)
    wb.save(path)
    return path


def _dry_run(tmp_path: Path, path: Path, *options: str) -> tuple[int, dict[str, Any]]:
    """``dnc-desk import --dry-run --json`` in a process of its own, with its own folders."""
    env = {
        **os.environ,
        "DNC_DESK_CONFIG_DIR": str(tmp_path / "config"),
        "DNC_DESK_DATA_DIR": str(tmp_path / "data"),
        "QT_QPA_PLATFORM": "offscreen",
    }
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "app.cli.main", *argv, *options],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


def _stage(tmp_path: Path, path: Path, phone_column: str | None = None) -> Any:
    settings = JobSettings(path, Scope.global_(), phone_column=phone_column)
    store, _summary = stage_import(settings, tmp_path / "jobs", connection=None)
    return store


def test_a_missing_phone_column_is_refused_naming_the_sheet_that_is_read(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "lo_base.xlsx", ["Name", "Phone"])
    code, data = _dry_run(tmp_path, path, "--phone-column", "Telefon")
    assert code == 2, data
    assert data["error"] == (
        "sheet 'Opt Outs' of lo_base.xlsx has no column headed 'Telefon'; its headers are "
        "'Name' (A), 'Phone' (B), 'Date Received' (C) (a column can also be given by "
        "position, as column:A or #1)."
    )


def test_a_column_only_another_sheet_has_does_not_move_the_import_there(tmp_path: Path) -> None:
    # Without the option "Opt Outs" is read; naming a column of "Contacts" used to read the
    # contacts into the do-not-call list. It is refused, saying which sheet has it.
    path = _workbook(tmp_path / "book.xlsx", ["Name", "Phone", "Telefon"])
    code, data = _dry_run(tmp_path, path, "--phone-column", "telefon")
    assert code == 2, data
    assert data["error"].startswith("sheet 'Opt Outs' of book.xlsx has no column headed")
    assert data["error"].endswith(
        "Sheet 'Contacts' has it (column C, 'Telefon'), but only sheet 'Opt Outs' is read: to "
        "read sheet 'Contacts' instead, run the file again with --sheet 'Contacts'."
    )
    with pytest.raises(MappingError) as caught:
        _stage(tmp_path, path, "Telefon")
    assert str(caught.value).endswith("choose sheet 'Contacts' to read it.")
    # Named, that sheet is read with that column.
    code, data = _dry_run(tmp_path, path, "--phone-column", "Telefon", "--sheet", "Contacts")
    assert (code, data["rows"], data["mapping"]["phone"]) == (0, 1, "Telefon (column C)")


def test_a_column_the_read_sheet_has_is_read_there(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "book.xlsx", ["Name", "Phone"])
    store = _stage(tmp_path, path, "Phone")
    try:
        assert store.meta()["sheet"] == "Opt Outs"
        assert store.meta()["mapping"]["phone"] == "Phone (column B)"
    finally:
        store.close()


def test_with_no_phone_column_to_find_the_named_column_still_picks_the_sheet(
    tmp_path: Path,
) -> None:
    # Numbers the mapping does not take for phone numbers anywhere: naming the column is the
    # only way to say which sheet, as before.
    wb = openpyxl.Workbook()
    notes = wb.active
    assert notes is not None
    notes.title = "Notes"
    notes.append(["Read me first"])
    data = wb.create_sheet("Data")
    data.append(["Who", "Tel"])
    data.append(["Ann", "x"])
    path = tmp_path / "odd.xlsx"
    wb.save(path)
    store = _stage(tmp_path, path, "Tel")
    try:
        assert store.meta()["sheet"] == "Data"
    finally:
        store.close()


AREA_HINT = (
    "Column A, which has no header, looks like area codes and is not read: only column B is, "
    "and 3 of its first 3 numbers are whole only with column A's value in front (as row 1: "
    "202 and 5551901 make 2025551901), so those rows are invalid. Put each whole number in one "
    "column (a new column holding =A1&B1, filled down, then copied and pasted as values) and "
    "run the file again."
)


def test_a_headerless_file_of_area_codes_and_numbers_says_how_to_join_them(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ftc.txt"
    path.write_bytes(b"202,5551901\r\n202,5551902\r\n303,5551903\r\n")
    code, data = _dry_run(tmp_path, path)
    assert (code, data["rows"], data["invalid"]) == (0, 3, 3), data
    assert data["mapping"] == {"phone": "column B"}
    assert data["warnings"] == [AREA_HINT]


def test_an_unheaded_area_code_column_beside_a_headed_phone_column(tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_text(",Phone\n(720),555-2001\n(720),555-2002\n,3035550101\n", encoding="utf-8")
    store = _stage(tmp_path, path)
    try:
        warnings = store.meta()["warnings"]
    finally:
        store.close()
    assert warnings == [
        "Column A, which has no header, looks like area codes and is not read: only column B "
        "('Phone') is, and 2 of its first 3 numbers are whole only with column A's value in "
        "front (as row 2: (720) and 555-2001 make 7205552001), so those rows are invalid. Put "
        "each whole number in one column (a new column holding =A2&B2, filled down, then copied "
        "and pasted as values) and run the file again."
    ]


@pytest.mark.parametrize(
    "text",
    [
        # Whole numbers beside a column of codes: nothing is missing.
        "202,2025551901\n303,3035551902\n",
        # Seven digits beside values that make no number (not area codes).
        "12,5551901\n14,5551902\n",
        # Fewer than half the numbers are made whole.
        "202,5551901\n,5551902\n,5551903\n",
        # A headed column is not a guess of area codes ("Area Code" has its own sentence).
        "Store,Phone\n202,5551901\n303,5551902\n",
    ],
)
def test_no_hint_where_no_area_code_column_makes_the_numbers_whole(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "other.csv"
    path.write_text(text, encoding="utf-8")
    store = _stage(tmp_path, path)
    try:
        warnings = store.meta().get("warnings", [])
    finally:
        store.close()
    assert not [w for w in warnings if "looks like area codes" in w], warnings


def test_a_refusal_names_a_column_of_phone_numbers_headed_as_other_numbers(
    tmp_path: Path,
) -> None:
    # Black-box pass H4: a "Customer Number" column of phone numbers (never read as the phone
    # column unless chosen) got "No column of phone numbers was found", naming nothing.
    path = tmp_path / "custnum.csv"
    path.write_text("Customer Number,Name\n2025550181,Al\n2025550182,Bo\n3035550183,Cy\n")
    with pytest.raises(MappingError) as refused:
        stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    assert str(refused.value).endswith(
        "'Customer Number' (column A) holds phone numbers, but its header names other numbers "
        "(an account, customer or member number), so it is read only when chosen as the phone "
        "column."
    ), str(refused.value)
    # With it chosen, it is read.
    store, summary = stage_import(
        JobSettings(path, Scope.global_(), phone_column="Customer Number"),
        tmp_path / "jobs2",
        connection=None,
    )
    store.close()
    assert summary.valid == 3
