"""fxD (session 33): a title alone above headerless rows ("ACME Corp opt-outs, March" over
"Kim,201-555-0310,stop") was taken for the header: the rows' reasons, right of it, were not
read ("right of the header's columns"), and the entries went on the list without them. The
title is now the row the data starts below (not imported), the columns are read as a
headerless sheet's, and a column asking to stop is read as the reason."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_header import detect_header
from app.core.sheet_mapping import propose_from_preview
from app.core.sheet_reader import open_sheet

TITLE = "ACME Corp opt-outs, March"
ROWS = [
    ["Kim", "201-555-0310", "stop"],
    ["Lee", "201-555-0311", "STOP please"],
    ["Pat", "201-555-0312", "unsubscribe"],
]
READ = {
    2: ("pending", "2015550310", "stop"),
    3: ("pending", "2015550311", "STOP please"),
    4: ("pending", "2015550312", "unsubscribe"),
}


def _xlsx(path: Path, rows: list[list[str | None]]) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def _staged(path: Path, jobs: Path) -> tuple[dict[int, tuple[str, str, str]], list[str]]:
    store, summary = stage_import(JobSettings(path, Scope.global_()), jobs, connection=None)
    rows = {r.row_number: (r.state, r.national, r.reason or "") for r in store.rows()}
    warnings = list(store.meta().get("warnings") or [])
    store.close()
    assert summary.rows == len(rows)
    return rows, warnings


def test_a_csv_title_split_by_its_comma_is_no_header(tmp_path: Path) -> None:
    path = tmp_path / "optouts.csv"
    path.write_text(TITLE + "\n" + "".join(",".join(r) + "\n" for r in ROWS), encoding="utf-8")
    rows, warnings = _staged(path, tmp_path / "jobs")
    assert rows == READ
    assert not [w for w in warnings if "right of the header" in w]


def test_a_workbook_title_in_one_cell_is_no_header(tmp_path: Path) -> None:
    path = _xlsx(tmp_path / "optouts.xlsx", [[TITLE, None, None], *ROWS])
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
    assert (mapping.header_row, mapping.phone, mapping.reason) == (1, 1, 2)
    assert mapping.headers == ("", "", "")
    rows, warnings = _staged(path, tmp_path / "jobs")
    assert rows == READ
    assert not [w for w in warnings if "right of the header" in w]


def test_a_header_below_a_title_is_still_the_header(tmp_path: Path) -> None:
    path = _xlsx(tmp_path / "headed.xlsx", [[TITLE, None, None], ["Name", "Phone", "Note"], *ROWS])
    with open_sheet(path) as source:
        preview = source.preview(50)
    assert detect_header(preview) == 2
    mapping = propose_from_preview(preview)
    assert mapping.headers == ("Name", "Phone", "Note")
    rows, _ = _staged(path, tmp_path / "jobs")
    assert {n - 1: v for n, v in rows.items()} == READ


def test_a_one_column_list_under_its_title_keeps_it(tmp_path: Path) -> None:
    path = _xlsx(tmp_path / "one.xlsx", [["Numbers to block"], ["201-555-0310"], ["201-555-0311"]])
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
    assert (mapping.header_row, mapping.phone, mapping.headers) == (1, 0, ("Numbers to block",))


def test_headerless_rows_asking_to_stop_give_their_reasons(tmp_path: Path) -> None:
    path = tmp_path / "plain.csv"
    path.write_text("".join(",".join(r) + "\n" for r in ROWS), encoding="utf-8")
    rows, _ = _staged(path, tmp_path / "jobs")
    assert {n + 1: v for n, v in rows.items()} == READ


def test_a_column_of_names_is_no_reason(tmp_path: Path) -> None:
    path = tmp_path / "names.csv"
    path.write_text("Kim,201-555-0310,Denver\nLee,201-555-0311,Boulder\n", encoding="utf-8")
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
    assert (mapping.header_row, mapping.phone, mapping.reason) == (None, 1, None)


def test_the_letterhead_title_over_wider_rows_gives_no_note(tmp_path: Path) -> None:
    # The file test_letterhead_above_header pinned as a title taken for the header: its 'stop'
    # was "right of the header's last named column", not read; it is row 2's reason now.
    path = _xlsx(
        tmp_path / "title.xlsx",
        [["ACME Collections LLC"], ["Kim", "201-555-0310", "stop"], ["Lee", "201-555-0311"]],
    )
    rows, warnings = _staged(path, tmp_path / "jobs")
    assert rows == {2: ("pending", "2015550310", "stop"), 3: ("pending", "2015550311", "")}
    assert not [w for w in warnings if "right of the header" in w]
