"""A covered cell of a merged phone range that holds a number of its own (black-box B1 #5):
read with it, and its message says so, instead of "it shows the number of A3 (it holds no
number of its own)"."""

from __future__ import annotations

from pathlib import Path

from tests.core.sheet_factory import cell, write_raw_xlsx
from tests.core.test_sheet_hidden_rows import outcomes, stage_dry

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def _sheet(rows: list[tuple[str, str]], merge: str) -> str:
    body = "".join(
        f'<row r="{n}">{cell(f"A{n}", phone)}{cell(f"B{n}", name)}</row>'
        for n, (phone, name) in enumerate(rows, start=1)
    )
    return (
        f'<worksheet xmlns="{NS}"><sheetData>{body}</sheetData>'
        f'<mergeCells count="1"><mergeCell ref="{merge}"/></mergeCells></worksheet>'
    )


def test_a_covered_cell_with_its_own_number_is_named_as_hidden_under_the_merge(
    tmp_path: Path,
) -> None:
    rows = [
        ("Phone", "Name"),
        ("303-555-1101", "a"),
        ("303-555-1102", "b"),
        ("303-555-1103", "c"),  # covered by A3:A5, its own number
        ("", "d"),  # covered, empty: shows A3's number
        ("303-555-1106", "e"),
    ]
    path = write_raw_xlsx(tmp_path / "m.xlsx", _sheet(rows, "A3:A5"))
    got = outcomes(stage_dry(path, tmp_path))
    assert got[4] == (
        "pending",
        "row 4: its phone cell is covered by the merged cells A3:A5: it holds a number of its "
        "own, read here, which a spreadsheet program does not show (it shows A3's number over "
        "the whole merge), so check it against the source",
    )
    assert got[5] == (
        "duplicate_in_file",
        "row 5: duplicate of row 3; its phone cell is part of the merged cells A3:A5, so it "
        "shows the number of A3 (it holds no number of its own)",
    )
    assert {got[n][0] for n in (2, 3, 6)} == {"pending"}
