"""Black-box B13 #2, #3: an .xlsb's layout was not read (no scan, as for an xlsx, .xls or .ods).

#2: a number cell formatted ``0000000000`` (an Italian 06 number kept as 612345678) was read
as 612345678 and the row refused as damaged, where its xlsx twin reads 0612345678.
#3: a phone cell merged over A3:A4 was read on row 3 only (row 4: "the phone number is
empty"), and a hidden row got no word, so a removal of any .xlsb was refused. The worker now
scans the worksheet part's records (:class:`app.core.sheet_worker.XlsbScan`): padded number
formats, merged ranges, hidden rows and columns, and error cells, so that an .xlsb reads as
its xlsx twin.

``data/s21_g2_sheetjs_layout.xlsb`` and its twin ``.xlsx`` were written by SheetJS 0.18.5
(npm ``xlsx``) from one workbook, with this script (``node make.js tests/core/data``)::

    const X = require('xlsx');
    const ws = X.utils.aoa_to_sheet([
      ['Phone', 'Country Code', 'Reason', 'Notes'],
      [612345678, '39', 'Revoca consenso', 'padded 0000000000'],
      ['303-555-0103', '1', 'merged over next row', ''],
      [null, '1', 'second row of merge', ''],
      ['303-555-0105', '1', 'hidden row', ''],
      [7911123456, '44', 'padded 0##########', ''],
      [null, '1', 'error phone', ''],
      ['303-555-0108', '1', 'last', 'x'],
    ]);
    ws['A2'].z = '0000000000'; ws['A2'].w = '0612345678';
    ws['A6'].z = '0##########'; ws['A6'].w = '07911123456';
    ws['A7'] = {t: 'e', v: 0x2A};
    ws['!merges'] = [{s: {r: 2, c: 0}, e: {r: 3, c: 0}}];
    ws['!rows'] = []; ws['!rows'][4] = {hidden: true};
    ws['!cols'] = [{}, {}, {}, {hidden: true}];
    const wb = X.utils.book_new(); X.utils.book_append_sheet(wb, ws, 'Opt-outs');
    X.writeFile(wb, out + '/s21_g2_sheetjs_layout.xlsb');
    X.writeFile(wb, out + '/s21_g2_sheetjs_layout.xlsx');
"""

from __future__ import annotations

import io
import shutil
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any

import pytest
import python_calamine

from app.api.scope import Scope
from app.core import sheet_worker
from app.core.job_staging import JobSettings, MappingError, stage
from app.core.job_store import JobStore
from app.core.sheet_check import Target
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetNotes
from tests.core import sheet_factory as f

DATA = Path(__file__).parent / "data"
XLSB = DATA / "s21_g2_sheetjs_layout.xlsb"
XLSX = DATA / "s21_g2_sheetjs_layout.xlsx"
SHEET_PART = "xl/worksheets/sheet1.bin"
BEGIN_SHEET_DATA = bytes([145 & 0x7F | 0x80, 145 >> 7, 0])  # the record, with its size 0
END_SHEET_DATA = bytes([146 & 0x7F | 0x80, 146 >> 7, 0])


def stage_dry(path: Path, tmp_path: Path, kind: str = "import", **settings: Any) -> JobStore:
    job = JobSettings(path, Scope.global_(), target=Target.DNC, **settings)
    store, _ = stage(job, tmp_path / "jobs", kind=kind, connection=None)
    return store


def outcomes(store: JobStore) -> dict[int, tuple[str, str, str]]:
    return {r.row_number: (r.outcome or "pending", r.message, r.national) for r in store.rows()}


def warnings(store: JobStore) -> list[str]:
    return list(store.meta().get("warnings") or [])


def read(path: Path) -> tuple[list[tuple[int, list[Any]]], SheetNotes]:
    with open_sheet(path) as source:
        rows = [(n, list(cells)) for n, cells in source.iter_rows()]
        return rows, source.notes


def copy_as(tmp_path: Path, source: Path, name: str) -> Path:
    path = tmp_path / name
    shutil.copyfile(source, path)
    return path


def with_sheet_part(tmp_path: Path, change: Any) -> Path:
    """The SheetJS .xlsb with its worksheet part's bytes given to ``change``."""
    path = tmp_path / "changed.xlsb"
    with zipfile.ZipFile(XLSB) as zf, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in zf.infolist():
            data = zf.read(info)
            out.writestr(info.filename, change(data) if info.filename == SHEET_PART else data)
    return path


# -- the reader -------------------------------------------------------------------------------


def test_an_xlsb_reads_as_its_xlsx_twin_padded_merged_hidden_and_errors() -> None:
    xlsb_rows, xlsb = read(XLSB)
    xlsx_rows, xlsx = read(XLSX)
    assert xlsb_rows == xlsx_rows
    # The cells as Excel shows them: the padded numbers with their 0, the merged cell on
    # both of its rows.
    by_row = dict(xlsb_rows)
    assert by_row[2][0] == "0612345678"
    assert by_row[6][0] == "07911123456"
    assert by_row[4][0] == by_row[3][0] == "303-555-0103"
    assert xlsb.hidden_known and xlsx.hidden_known
    assert xlsb.hidden_rows == xlsx.hidden_rows == {5}
    assert xlsb.hidden_columns == xlsx.hidden_columns == {3}
    assert xlsb.merged == xlsx.merged == [(3, 0, 4, 0)]
    assert xlsb.errors == xlsx.errors == {(7, 0): "#N/A"}
    assert xlsb.formulas == xlsx.formulas


def test_an_import_of_the_xlsb_ends_as_the_xlsx_one(tmp_path: Path) -> None:
    xlsb = stage_dry(copy_as(tmp_path, XLSB, "list.xlsb"), tmp_path / "b")
    xlsx = stage_dry(copy_as(tmp_path, XLSX, "list.xlsx"), tmp_path / "x")
    assert outcomes(xlsb) == outcomes(xlsx)
    rows = outcomes(xlsb)
    assert rows[2] == ("pending", "", "0612345678")  # no longer "may have lost a leading 0"
    assert rows[4][0] == "duplicate_in_file" and "merged cells A3:A4" in rows[4][1]
    assert "hidden in the file" in rows[5][1]
    assert rows[7][0] == "invalid" and "#N/A" in rows[7][1]
    assert [w.replace("list.xlsx", "list.xlsb") for w in warnings(xlsx)] == warnings(xlsb)
    assert not any("could not be read" in w for w in warnings(xlsb))


def test_a_removal_of_an_xlsb_leaves_its_hidden_row_alone(tmp_path: Path) -> None:
    # It was refused: "cannot tell which rows are hidden (this format does not show it)".
    store = stage_dry(copy_as(tmp_path, XLSB, "list.xlsb"), tmp_path, kind="removal")
    rows = outcomes(store)
    assert rows[5][0] == "not_attempted"
    assert rows[2] == ("pending", "", "0612345678")
    assert rows[8][0] == "pending"
    assert any("hidden in sheet" in w and "not removed" in w for w in warnings(store))


# -- Excel's own .xlsb files: read as before --------------------------------------------------


@pytest.mark.parametrize("name", ["issues.xlsb", "date.xlsb", "any_sheets.xlsb", "issue_186.xlsb"])
def test_excel_xlsb_files_read_as_calamine_reads_them_and_their_scan_holds(name: str) -> None:
    corpus = f.CORPUS / "calamine" / name
    if not corpus.is_file():
        pytest.skip("the shared corpus is not here")
    rows, notes = read(corpus)
    assert notes.hidden_known  # the scan read the sheet to its end
    assert not notes.hidden_rows and not notes.merged
    sheet = python_calamine.CalamineWorkbook.from_path(str(corpus)).get_sheet_by_index(0)
    grid = [[None if v == "" else v for v in r] for r in sheet.to_python(skip_empty_area=False)]
    read_cells = {(n, c): v for n, cells in rows for c, v in enumerate(cells) if v is not None}
    calamine_cells = {
        (n + 1, c): v for n, cells in enumerate(grid) for c, v in enumerate(cells) if v is not None
    }
    assert read_cells == calamine_cells


# -- damaged or hostile parts -----------------------------------------------------------------


def test_an_xlsb_sheet_part_without_its_end_reads_its_rows_and_says_its_layout_is_unknown(
    tmp_path: Path,
) -> None:
    # The part without its last record (BrtEndSheet): calamine reads the cells all the same,
    # but what a sheet cut short may have lost (a hidden row, a merged range) is not known.
    end_sheet = bytes([130 & 0x7F | 0x80, 130 >> 7, 0])
    path = with_sheet_part(tmp_path, lambda data: data[: data.rindex(end_sheet)])
    scan = sheet_worker.open_scan(str(path), "Opt-outs")
    assert isinstance(scan, sheet_worker.XlsbScan)
    scan.read_to_end()
    assert scan.failed
    store = stage_dry(path, tmp_path)
    assert any(
        "could not be read (its sheet's layout could not be read)" in w for w in warnings(store)
    )
    with pytest.raises(MappingError) as refused:
        stage_dry(path, tmp_path / "r", kind="removal")
    assert "its sheet's layout could not be read" in str(refused.value)


def test_a_record_of_a_huge_size_is_passed_over_not_held(tmp_path: Path) -> None:
    # An unknown record (type 1000) of 64 MB, its body there: the scan passes over it
    # a chunk at a time, and reads on to the hidden row and the merged range after it.
    body = bytes(64 << 20)
    big = bytes([1000 & 0x7F | 0x80, 1000 >> 7]) + sheet_worker._record_size(len(body)) + body

    def insert(data: bytes) -> bytes:
        at = data.index(BEGIN_SHEET_DATA)
        return data[:at] + big + data[at:]

    path = with_sheet_part(tmp_path, insert)
    del body
    scan = sheet_worker.open_scan(str(path), "Opt-outs")
    assert isinstance(scan, sheet_worker.XlsbScan)
    tracemalloc.start()
    try:
        scan.read_to_end()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not scan.failed
    assert peak < 16 << 20
    assert scan.advance(0)[0] == [5]
    assert scan.merged == [((2, 0), (3, 0))]


def test_a_hidden_row_written_again_is_held_once(tmp_path: Path) -> None:
    # Review RV2: a crafted part repeating its rows (the hidden row 5 among them) grew the
    # scan's list of hidden rows by one per repeat; it is a set of rows.
    def repeat(data: bytes) -> bytes:
        start = data.index(BEGIN_SHEET_DATA) + len(BEGIN_SHEET_DATA)
        end = data.index(END_SHEET_DATA)
        return data[:start] + data[start:end] * 50 + data[end:]

    scan = sheet_worker.open_scan(str(with_sheet_part(tmp_path, repeat)), "Opt-outs")
    assert isinstance(scan, sheet_worker.XlsbScan)
    scan.read_to_end()
    assert not scan.failed
    assert scan.advance(0)[0] == [5]


def test_a_cut_record_header_or_a_row_past_the_last_fails_the_scan(tmp_path: Path) -> None:
    for change in (
        # a record type cut short at the part's end
        lambda data: data[: data.index(END_SHEET_DATA)] + b"\x80",
        # BrtRowHdr of row 2,000,000 (past Excel's 1,048,576) before the sheet's first row
        lambda data: data.replace(
            b"\x00\x19\x00\x00\x00\x00",
            b"\x00\x19" + (2_000_000).to_bytes(4, "little"),
            1,
        ),
    ):
        path = with_sheet_part(tmp_path, change)
        scan = sheet_worker.open_scan(str(path), "Opt-outs")
        assert isinstance(scan, sheet_worker.XlsbScan)
        scan.read_to_end()
        assert scan.failed


def test_a_styles_part_that_cannot_be_read_leaves_the_numbers_as_they_are(
    tmp_path: Path,
) -> None:
    path = tmp_path / "styles.xlsb"
    with zipfile.ZipFile(XLSB) as zf, zipfile.ZipFile(path, "w") as out:
        for info in zf.infolist():
            data = zf.read(info)
            out.writestr(info.filename, data[:-1] if info.filename == "xl/styles.bin" else data)
    with zipfile.ZipFile(path) as zf:
        assert sheet_worker.xlsb_padded_styles(zf) == ({}, [])
    rows, notes = read(path)
    assert dict(rows)[2][0] == 612345678
    assert notes.hidden_rows == {5}  # the rest of the scan stands


def test_the_sheet_part_is_found_by_the_workbook_s_relationships() -> None:
    with zipfile.ZipFile(XLSB) as zf:
        assert sheet_worker.xlsb_sheet_part(zf, "Opt-outs") == SHEET_PART
        assert sheet_worker.xlsb_sheet_part(zf, "Other") is None
    with zipfile.ZipFile(io.BytesIO(XLSX.read_bytes())) as zf:
        assert sheet_worker.xlsb_sheet_part(zf, "Opt-outs") is None
