"""Black-box bb9 F5: a printed report's title block ("ACME Collections LLC", "Tel: | (800)
555-0199") above a header naming Phone, the Tel number in the header's phone column. The sheet
was read as headerless: the company's own numbers went onto the DNC list and the real rows
lost their reason. The header is the row naming the columns; the letterhead's number gets the
note on rows above the header and is not imported."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_header import detect_header

TITLE_BLOCK = [
    ["ACME Collections LLC", None, None],
    ["Tel:", "(800) 555-0199", None],
    ["Fax:", "800-555-0198", None],
    [None, None, None],
    [None, None, None],
    [None, None, None],
    ["Name", "Phone", "Reason"],
    ["Kim", "201-555-0310", "stop"],
    ["Lee", "201-555-0311", "stop"],
    ["Ray", "201-555-0312", "stop calling"],
]
ABOVE = (
    "Above the header (row 7), row 2 holds '(800) 555-0199' and row 3 holds '800-555-0198': "
    "rows above the header are not read, so they are not imported. If a number there is one "
    "to send, move it below the header."
)


def _xlsx(path: Path) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in TITLE_BLOCK:
        sheet.append(row)
    book.save(path)
    return path


def _csv(path: Path) -> Path:
    lines = [
        ",".join("" if v is None else f'"{v}"' if "," in v else v for v in r) for r in TITLE_BLOCK
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _staged(path: Path, jobs: Path) -> tuple[dict[int, tuple[str, str, str]], list[str]]:
    store, summary = stage_import(JobSettings(path, Scope.global_()), jobs, connection=None)
    rows = {r.row_number: (r.state, r.national, r.reason or "") for r in store.rows()}
    warnings = list(store.meta().get("warnings") or [])
    store.close()
    assert (summary.rows, summary.valid) == (3, 3)
    return rows, warnings


def test_the_header_under_a_letterhead_is_found() -> None:
    rows = [(n, cells) for n, cells in enumerate(TITLE_BLOCK, start=1) if any(cells)]
    assert detect_header(rows) == 7


def test_a_letterhead_xlsx_imports_the_rows_under_the_header_with_reasons(tmp_path: Path) -> None:
    rows, warnings = _staged(_xlsx(tmp_path / "letterhead.xlsx"), tmp_path / "jobs")
    assert sorted(rows) == [8, 9, 10]
    assert {r[1] for r in rows.values()} == {"2015550310", "2015550311", "2015550312"}
    assert rows[10][2] == "stop calling"
    assert ABOVE in warnings
    assert not [w for w in warnings if "not read" in w and "right of" in w]


def test_a_letterhead_csv_imports_the_rows_under_the_header_with_reasons(tmp_path: Path) -> None:
    rows, warnings = _staged(_csv(tmp_path / "letterhead.csv"), tmp_path / "jobs")
    assert {r[1] for r in rows.values()} == {"2015550310", "2015550311", "2015550312"}
    assert rows[8][2] == "stop"
    assert ABOVE in warnings
    assert not [w for w in warnings if "comma in an unquoted value" in w]


def test_a_persons_labelled_numbers_above_a_header_still_keep_it_headerless() -> None:
    # "Cell | 303…" rows are a headerless list of a person's numbers, no letterhead: rows above
    # a header are skipped, so a header under them would lose them.
    rows = [
        (1, ["Cell", "303-555-0101", None]),
        (2, ["Home", "303-555-0102", None]),
        (3, ["Name", "Phone", "Reason"]),
        (4, ["Kim", "303-555-0103", "stop"]),
    ]
    assert detect_header(rows) != 3


def test_the_note_on_unread_cells_never_counts_the_phone_column_read(tmp_path: Path) -> None:
    # A title taken for the header (column A) over rows read with phone = column B: the note
    # named column B's numbers "not imported" while every one of them was imported. (Over rows
    # each wider than it, a title is no header since fxD, session 33; row 3's lone number in B
    # leaves it one here.)
    path = tmp_path / "title.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in (["ACME Collections LLC"], ["Kim", "201-555-0310", "stop"], [None, "201-555-0311"]):
        sheet.append(row)
    book.save(path)
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    warnings = list(store.meta().get("warnings") or [])
    messages = {r.row_number: r.message for r in store.rows()}
    store.close()
    assert summary.valid == 2
    assert (
        "1 row holds values in columns right of the header's last named column (column B, "
        "read as phone), which nothing reads (first: row 2; each row's message names them): a "
        "phone number there is not imported; put each number on its own row in the phone "
        "column and run the file again."
    ) in warnings
    assert "'stop' (column C)" in messages[2]
    assert "right of" not in messages[3]


def test_a_letterhead_number_in_one_cell_above_a_one_column_header(tmp_path: Path) -> None:
    path = tmp_path / "one_column.csv"
    path.write_text(
        "ACME Collections LLC\nTel: (800) 555-0199\n\nPhone\n201-555-0310\n201-555-0311\n"
    )
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    numbers = {r.national for r in store.rows()}
    warnings = list(store.meta().get("warnings") or [])
    store.close()
    assert numbers == {"2015550310", "2015550311"}
    assert (summary.rows, summary.valid) == (2, 2)
    assert (
        "Above the header (row 4), row 2 holds 'Tel: (800) 555-0199': rows above the header are "
        "not read, so it is not imported. If a number there is one to send, move it below the "
        "header."
    ) in warnings
