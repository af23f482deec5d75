"""The preview header detection and mapping are proposed from (``sheet_header.read_preview``):
a table under 69 blank rows or 60 rows of notes is found, in a workbook and in a CSV, with the
sheet's own row numbers; a sheet with no phone numbers is still refused after a bounded read."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.job_staging import JobSettings, MappingError, map_sheet, open_mapped
from app.core.sheet_header import (
    DATA_ROWS,
    MAX_READ_ROWS,
    PREVIEW_ROWS,
    SEARCH_ROWS,
    detect_header,
    read_preview,
)
from app.core.sheet_mapping import propose_from_preview
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import CellValue, Row

NUMBERS = [2025550140 + i for i in range(40)]


def blank_rows_above(path: Path) -> Path:
    """Case (a): header "Phone", "Reason" at B70, rows 1-69 blank, numbers below."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws["B70"], ws["C70"] = "Phone", "Reason"
    for i, number in enumerate(NUMBERS):
        ws.cell(row=71 + i, column=2, value=number)
        ws.cell(row=71 + i, column=3, value="asked")
    wb.save(path)
    return path


def notes_above(path: Path) -> Path:
    """Case (b): 60 rows of notes in column A, row 61 blank, header "Phone" at A62."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for i in range(1, 61):
        ws.cell(row=i, column=1, value=f"Note line {i}: please read")
    ws["A62"] = "Phone"
    for i, number in enumerate(NUMBERS):
        ws.cell(row=63 + i, column=1, value=str(number))
    wb.save(path)
    return path


def csv_file(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def settings_for(path: Path) -> JobSettings:
    return JobSettings(file=path, scope=Scope.global_())


def test_a_table_under_69_blank_rows_of_a_workbook_is_found(tmp_path: Path) -> None:
    path = blank_rows_above(tmp_path / "blank.xlsx")
    with open_sheet(path) as source:
        preview = read_preview(source)
        rows = list(source.iter_rows())
    # Blank rows are left out and do not count; numbers are the sheet's.
    assert preview[0] == (70, [None, "Phone", "Reason"])
    assert [n for n, _ in preview] == list(range(70, 71 + len(NUMBERS)))
    mapping = propose_from_preview(preview)
    assert (mapping.header_row, mapping.phone) == (70, 1)
    # The preview did not swallow rows: the full read still starts at row 1.
    assert rows[0][0] == 1 and rows[69] == (70, [None, "Phone", "Reason"])


def test_a_table_under_60_rows_of_notes_of_a_workbook_is_found(tmp_path: Path) -> None:
    path = notes_above(tmp_path / "notes.xlsx")
    with open_sheet(path) as source:
        preview = read_preview(source)
    assert 61 not in [n for n, _ in preview]  # the blank row between notes and header
    assert preview[60] == (62, ["Phone"])
    # Reading went on to DATA_ROWS rows from the first number (row 63), no further.
    assert preview[-1][0] == 63 + DATA_ROWS - 1
    mapping = propose_from_preview(preview)
    assert (mapping.header_row, mapping.phone) == (62, 0)


@pytest.mark.parametrize("case", ["blank", "notes"])
def test_csv_sources_take_the_same_path(tmp_path: Path, case: str) -> None:
    if case == "blank":
        lines = [""] * 69 + [",Phone,Reason"] + [f",{n},asked" for n in NUMBERS]
        header, phone = 70, 1
    else:
        lines = [f"Note line {i}: please read" for i in range(1, 61)] + [""] + ["Phone"]
        lines += [str(n) for n in NUMBERS]
        header, phone = 62, 0
    path = csv_file(tmp_path / f"{case}.csv", lines)
    source, mapping = open_mapped(path, settings_for(path))
    with source:
        assert (mapping.header_row, mapping.phone) == (header, phone)
        assert read_preview(source)[0][0] == (70 if case == "blank" else 1)


def test_detect_header_looks_at_the_whole_preview_it_is_given() -> None:
    rows: list[Row] = [(i, [f"Note line {i}: please read"]) for i in range(1, 61)]
    rows += [(62, ["Phone"]), (63, ["2025550140"]), (64, ["2025550141"])]
    assert detect_header(rows) == 62


def test_a_sheet_without_phone_numbers_is_refused_after_a_bounded_read(tmp_path: Path) -> None:
    # Numbers after SEARCH_ROWS rows of words are beyond the search: the file reads as one
    # with no phone column, and the preview is the first rows (as a person sees the file).
    lines = [f"word {i},other {i}" for i in range(SEARCH_ROWS + 10)] + ["2025550140,x"]
    path = csv_file(tmp_path / "words.csv", lines)
    with open_sheet(path) as source:
        preview = read_preview(source)
        assert [n for n, _ in preview] == list(range(1, PREVIEW_ROWS + 1))
        with pytest.raises(MappingError, match=r"^No column of phone numbers was found in "):
            map_sheet(preview, settings_for(path), path.name)


def test_blank_rows_are_read_only_up_to_a_bound(tmp_path: Path) -> None:
    # Blank rows cost memory in the reader's buffer, so they are not read without end.
    below = csv_file(tmp_path / "far.csv", [""] * MAX_READ_ROWS + ["Phone", "2025550140"])
    with open_sheet(below) as source:
        assert read_preview(source) == []
    within = csv_file(tmp_path / "near.csv", [""] * 5000 + ["Phone", "2025550140"])
    with open_sheet(within) as source:
        preview = read_preview(source)
    expected: list[tuple[int, list[CellValue]]] = [(5001, ["Phone"]), (5002, ["2025550140"])]
    assert preview == expected


def test_an_ordinary_sheet_previews_its_first_rows(tmp_path: Path) -> None:
    lines = ["Phone,Reason"] + [f"{2025550000 + i},asked" for i in range(200)]
    path = csv_file(tmp_path / "plain.csv", lines)
    with open_sheet(path) as source:
        preview = read_preview(source)
    assert [n for n, _ in preview] == list(range(1, PREVIEW_ROWS + 1))
