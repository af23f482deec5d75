"""Values right of the header's columns are never dropped without a word: the row says what
it holds there and staging counts such rows (black-box finding: a CSV line "3035551702,
3035551703" under a one-column header imported the first number and lost the second with no
note); a row whose phone cell is empty names another cell of the row holding a number."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import Outcome, check_all
from app.core.sheet_mapping import ColumnMapping


def test_a_line_split_by_a_comma_says_what_was_not_read(tmp_path: Path) -> None:
    path = tmp_path / "ragged.csv"
    path.write_text("Phone\n3035551701\n3035551702,3035551703\n3035551704,\n303-555-1014, ext 2\n")
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    rows = {r.row_number: r for r in store.rows()}
    assert summary.valid == 4
    assert rows[3].message == (
        "row 3: '3035551703' (column B) right of the header's columns, not read (in a CSV "
        "file, a comma in an unquoted value does this): check the row; put each number on "
        "its own row"
    )
    assert rows[5].message.startswith("row 5: 'ext 2' (column B) right of the header's")
    # A trailing delimiter leaves an empty field: nothing to say.
    assert rows[2].message == rows[4].message == ""
    warnings = store.meta()["warnings"]
    assert (
        "2 rows hold values right of the header's columns, which are not read (first: row 3; "
        "each row's message names them). In a CSV file a comma in an unquoted value does "
        "this: fix those lines and run the file again."
    ) in warnings
    store.close()


def test_a_file_without_stray_values_has_no_such_note(tmp_path: Path) -> None:
    path = tmp_path / "clean.csv"
    path.write_text("Phone,Reason\n3035551701,asked\n3035551702,\n")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    assert all(r.message == "" for r in store.rows())
    assert not [w for w in store.meta().get("warnings") or [] if "header's columns" in w]
    store.close()


def test_an_empty_phone_cell_names_another_cell_holding_a_number() -> None:
    mapping = ColumnMapping(header_row=1, headers=("Name", "Phone", "Mobile"), phone=1)
    checked, _ = check_all(
        [(1, ["Name", "Phone", "Mobile"]), (2, ["Ann", None, "303-555-1312"]), (3, ["Bo", None])],
        mapping,
    )
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].message == (
        "row 2: phone: the phone number is empty; column C on this row holds '303-555-1312' "
        "(not read: only the phone column is)"
    )
    assert checked[1].message == "row 3: phone: the phone number is empty"


def test_a_name_split_by_a_comma_names_the_number_it_pushed_right(tmp_path: Path) -> None:
    # "Smith, John" unquoted: the phone cell holds "John", the number is right of the header.
    path = tmp_path / "split.csv"
    path.write_text("Name,Phone\nSmith, John,303-555-0411\nAnn,303-555-0412\n")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    row = next(r for r in store.rows() if r.row_number == 2)
    assert row.outcome == "invalid"
    assert "'303-555-0411' (column C) right of the header's columns, not read" in row.message
    warnings = store.meta().get("warnings") or []
    assert any(w.startswith("1 row holds values right of the header's columns") for w in warnings)
    # Not offered as another column of phone numbers: nobody named a column there.
    assert not [w for w in warnings if "also holds phone numbers" in w]
    store.close()


def test_an_empty_phone_cell_names_a_number_written_in_text() -> None:
    mapping = ColumnMapping(header_row=1, headers=("Name", "Phone", "Notes"), phone=1, reason=2)
    checked, _ = check_all(
        [(1, ["Name", "Phone", "Notes"]), (2, ["Ann", None, "call 303-555-0502 instead"])],
        mapping,
    )
    assert checked[0].message == (
        "row 2: phone: the phone number is empty; column C on this row holds 'call "
        "303-555-0502 instead' (not read: only the phone column is)"
    )
