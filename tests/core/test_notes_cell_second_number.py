"""A row's reason (Notes) cell naming a phone number besides the row's own: only the phone
column's number goes in, so the row's message and one warning name the other (black-box B7
#4, moderate: Phone "480-555-5503", Notes "also cell 480-555-5504" was valid with an empty
message, and the second number the consumer asked to block went nowhere, silently)."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow
from app.core.removal_job import stage_removal

WARNING = (
    "1 row's reason cell, in column C ('Notes'), names a phone number besides the row's own: "
    "row 3 ((480) 555-5504). Only the phone column's number is imported from a row, so that "
    "number is not: if the consumer asked for it too, import it as a row of its own. The "
    "row's message names it."
)


def _file(tmp_path: Path, header: list[str], rows: list[list[object]]) -> Path:
    path = tmp_path / "notes.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def _stage(
    path: Path, tmp_path: Path, *, removal: bool = False
) -> tuple[dict[int, JobRow], list[str]]:
    settings = JobSettings(path, Scope.global_(), scope_from_rows=removal)
    stager = stage_removal if removal else stage_import
    store, _ = stager(settings, tmp_path / "jobs", connection=None)
    staged = {r.row_number: r for r in store.rows()}
    warnings = list(store.meta().get("warnings") or [])
    store.close()
    return staged, warnings


def _about_reason_numbers(warnings: list[str]) -> list[str]:
    return [w for w in warnings if "besides the row" in w]


def test_a_second_number_in_the_notes_cell_is_named_and_the_row_still_goes_in(
    tmp_path: Path,
) -> None:
    # The black-box file's rows 3 and 4 (its row 2's two-number phone cell is another matter).
    path = _file(
        tmp_path,
        ["Name", "Phone", "Notes"],
        [["a", "480-555-5501", None], ["b", "480-555-5503", "also cell 480-555-5504"]],
    )
    staged, warnings = _stage(path, tmp_path)
    row = staged[3]
    # Still valid and sent as before: its own number, its Notes as the reason.
    assert (row.outcome, row.national, row.reason) == ("", "4805555503", "also cell 480-555-5504")
    assert row.message == (
        "row 3: its Notes cell C3 names another number, (480) 555-5504: if the consumer asked "
        "for it too, add it as a row of its own"
    )
    assert staged[2].message == ""
    assert _about_reason_numbers(warnings) == [WARNING]


def test_dates_ids_times_and_the_rows_own_number_are_not_named(tmp_path: Path) -> None:
    notes = [
        "Ticket #4805555599",
        "requested 2026-11-24 10:30",
        "same as 480-555-5513",  # this row's own number
        "order no. 1234567890",
        "called 11/20/2026, ref: 480-555-5598",
        "INC4805555597 escalated",
        "refund $4805555596",
        "called at 9:15 from +1 (480) 555-5518",  # its own number with its code
        "customer 48055555 asked",
    ]
    rows: list[list[object]] = [
        [f"r{i}", f"480-555-{5511 + i}", note] for i, note in enumerate(notes)
    ]
    staged, warnings = _stage(_file(tmp_path, ["Name", "Phone", "Notes"], rows), tmp_path)
    assert {r.outcome for r in staged.values()} == {""}
    assert [r.message for r in staged.values()] == [""] * len(notes)
    assert _about_reason_numbers(warnings) == []


def test_many_rows_are_counted_and_the_first_few_named_each_under_its_own_code(
    tmp_path: Path,
) -> None:
    path = _file(
        tmp_path,
        ["Phone", "Country Code", "Comments"],
        [
            ["480-555-5521", "1", "wife 480.555.5522 and (480) 555-5523, 10:30 call"],
            ["07911 123456", "44", "mobile 020 7946 0958"],  # a UK row: read under 44
            ["480-555-5525", "1", "work +44 20 7946 0959"],  # its own code, written so
            ["480-555-5526", "1", "4805555527"],
            ["480-555-5528", "1", "asked 2026-11-20 about 480-555-5529"],
            ["480-555-5530", "1", "nothing here"],
        ],
    )
    staged, warnings = _stage(path, tmp_path)
    assert {r.outcome for r in staged.values()} == {""}
    assert staged[2].message == (
        "row 2: its Comments cell C2 names other numbers, (480) 555-5522 and (480) 555-5523: "
        "if the consumer asked for them too, add each as a row of its own"
    )
    assert staged[3].message == (
        "row 3: its Comments cell C3 names another number, +44 20 7946 0958: if the consumer "
        "asked for it too, add it as a row of its own"
    )
    assert "+44 20 7946 0959" in staged[4].message
    assert "(480) 555-5527" in staged[5].message
    assert "(480) 555-5529" in staged[6].message
    assert staged[7].message == ""
    assert _about_reason_numbers(warnings) == [
        "5 rows' reason cells, in column C ('Comments'), name phone numbers besides the rows' "
        "own: row 2 ((480) 555-5522 and (480) 555-5523), row 3 (+44 20 7946 0958), row 4 "
        "(+44 20 7946 0959) and 2 more rows. Only the phone column's number is imported from "
        "a row, so those numbers are not: if the consumer asked for them too, import each as a "
        "row of its own. Each row's message names its numbers."
    ]


def test_a_removal_says_so_in_its_own_words(tmp_path: Path) -> None:
    path = _file(
        tmp_path,
        ["Phone", "Reason"],
        [["480-555-5541", "consent given, also for 480-555-5542"]],
    )
    staged, warnings = _stage(path, tmp_path, removal=True)
    assert staged[2].national == "4805555541"
    assert staged[2].message == (
        "row 2: its Reason cell B2 names another number, (480) 555-5542: if the consumer asked "
        "to remove it too, add it as a row of its own"
    )
    assert _about_reason_numbers(warnings) == [
        "1 row's reason cell, in column B ('Reason'), names a phone number besides the row's "
        "own: row 2 ((480) 555-5542). Only the phone column's number is removed from a row, so "
        "that number is not: if it is to come off the list too, remove it as a row of its own. "
        "The row's message names it."
    ]
