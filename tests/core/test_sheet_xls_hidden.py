"""Hidden rows and columns of an .xls (BIFF8) are read as in an xlsx or an .ods: rows hidden by
hand or by a filter (a ROW record's fDyZero) and hidden columns (a COLINFO record's fHidden or
zero width) are noted, the rows are all read all the same, a removal leaves hidden rows alone
instead of being refused, and one whose hidden rows cannot be read (a BIFF5 file, a damaged
sheet) is still refused."""

from __future__ import annotations

import struct
from pathlib import Path

import openpyxl
import pytest

from app.core import sheet_worker
from app.core.job_staging import MappingError
from app.core.sheet_reader import open_sheet
from tests.core import sheet_factory as f
from tests.core.test_sheet_hidden_rows import filtered_review, outcomes, stage_dry, warnings
from tests.core.test_sheet_ods_hidden import worker_messages
from tests.core.test_sheet_ods_xls_error_cells import biff, convert, needs_soffice

BOF = biff(0x0809, b"\x00\x06\x10\x00" + b"\x00" * 12)  # a worksheet's
CHART_BOF = biff(0x0809, b"\x00\x06\x20\x00" + b"\x00" * 12)
EOF = biff(0x000A, b"")


def row_record(row: int, hidden: bool = False, first: int = 0, last: int = 1) -> bytes:
    """A ROW (0x0208): 0-based ``row``, its cells' columns, a height, then the option flags
    (fDyZero, 0x20, when ``hidden``) and its format."""
    flags = 0x0100 | (0x20 if hidden else 0)
    return biff(0x0208, struct.pack("<HHHHHHHH", row, first, last, 300, 0, 0, flags, 15))


def number(row: int, column: int = 0) -> bytes:
    return biff(0x0203, struct.pack("<HHH", row, column, 15) + struct.pack("<d", 2025550100.0))


def colinfo(first: int, last: int, hidden: bool = False, width: int = 2000) -> bytes:
    """A COLINFO (0x007D) of 0-based columns ``first`` to ``last``; fHidden (0x1) if asked."""
    return biff(0x007D, struct.pack("<HHHHHH", first, last, width, 15, int(hidden), 0))


def walked(stream: bytes) -> sheet_worker.XlsScan:
    scan = sheet_worker.XlsScan("unused.xls", "Sheet1")
    scan._cells(stream, 0)
    return scan


def record_kinds(path: Path, sheet: str) -> set[int]:
    """The kinds of the records of ``sheet``'s substream in the .xls at ``path``."""
    scan = sheet_worker.XlsScan(str(path), sheet)
    stream = scan._workbook_stream()
    assert stream is not None
    at = scan._sheet_offset(stream)
    assert at is not None
    kinds: set[int] = set()
    while at + 4 <= len(stream):
        kind, size = struct.unpack_from("<HH", stream, at)
        kinds.add(kind)
        at += 4 + size
        if kind == 0x000A:
            return kinds
    return kinds


# -- the records ------------------------------------------------------------------------------


def test_hidden_rows_holding_cells_are_listed_as_excel_numbers_them() -> None:
    stream = (
        BOF
        + colinfo(0, 0)
        + row_record(0)
        + row_record(2, hidden=True)
        + row_record(3, hidden=True, first=0, last=0)  # empty: nothing to read in it
        + row_record(5, hidden=True)
        + number(0)
        + number(2)
        + biff(0x00BE, struct.pack("<HHHHH", 5, 0, 15, 15, 1))  # MULBLANK: cells all the same
        + CHART_BOF
        + row_record(7, hidden=True)  # the chart's, not the sheet's
        + number(7)
        + EOF
        + EOF
    )
    scan = walked(stream)
    assert not scan.failed
    assert scan.advance(0) == ([3, 6], [], [])
    assert scan.advance(10) == ([], [], [])  # handed out once
    assert scan.columns == []


def test_a_row_record_after_its_cells_still_hides_the_row() -> None:
    scan = walked(BOF + number(4) + row_record(4, hidden=True) + EOF)
    assert scan.advance(0) == ([5], [], [])


def test_rows_hidden_by_default_are_those_holding_cells_without_a_row_record() -> None:
    stream = (
        BOF
        + biff(0x0225, struct.pack("<HH", 0x0002, 300))  # DEFAULTROWHEIGHT, fDyZero
        + row_record(0)
        + row_record(2, hidden=True)
        + number(0)
        + number(1)  # no ROW record: hidden
        + number(2)
        + EOF
    )
    assert walked(stream).advance(0) == ([2, 3], [], [])
    shown = stream.replace(struct.pack("<HH", 0x0002, 300), struct.pack("<HH", 0, 300))
    assert walked(shown).advance(0) == ([3], [], [])


def test_hidden_columns_are_ranges_as_in_an_xlsx_capped_at_the_last_xls_column() -> None:
    stream = (
        BOF
        + colinfo(0, 0)
        + colinfo(1, 1, hidden=True)
        + colinfo(2, 3, hidden=True)  # joins the range before it
        + colinfo(4, 4)
        + colinfo(6, 6, width=0)  # no width: hidden, as an xlsx's width="0"
        + colinfo(9, 0xFFFF, hidden=True)  # "to the end": no further than IV
        + colinfo(300, 400, hidden=True)  # past BIFF8's columns: nothing
        + EOF
    )
    scan = walked(stream)
    assert not scan.failed
    assert scan.columns == [(2, 4), (7, 7), (10, 256)]


@pytest.mark.parametrize(
    "stream",
    [
        pytest.param(BOF + row_record(1, hidden=True) + number(1), id="no EOF"),
        pytest.param(BOF + biff(0x0208, b"\x01\x00\x00\x00") + EOF, id="short ROW"),
        pytest.param(BOF + biff(0x007D, b"\x01\x00\x01\x00") + EOF, id="short COLINFO"),
        pytest.param(BOF + biff(0x0203, b"\x01\x00") + EOF, id="short cell"),
        pytest.param(BOF + struct.pack("<HH", 0x0208, 16) + b"\x00" * 6, id="past the end"),
        pytest.param(number(1) + EOF, id="no BOF"),
        pytest.param(b"", id="nothing"),
    ],
)
def test_a_damaged_sheet_leaves_the_scan_failed_without_raising(stream: bytes) -> None:
    assert walked(stream).failed


def test_records_of_no_length_end_with_the_stream() -> None:
    scan = walked(BOF + biff(0x0000, b"") * 50_000)  # each moves on 4 bytes; no EOF
    assert scan.failed


def test_an_xls_holding_a_zip_end_record_is_scanned_as_an_xls(tmp_path: Path) -> None:
    # Some of the corpus's .xls files end with bytes zipfile.is_zipfile takes for a zip's end
    # record: the compound file's signature decides.
    path = tmp_path / "z.xls"
    path.write_bytes(sheet_worker._OLE_MAGIC + b"\x00" * 1000 + b"PK\x05\x06" + b"\x00" * 18)
    assert isinstance(sheet_worker.open_scan(str(path), "Sheet1"), sheet_worker.XlsScan)


# -- files saved by LibreOffice ---------------------------------------------------------------


def hidden_workbook(path: Path) -> Path:
    """Row 3 hidden by hand, row 9 hidden and empty, column B ('Phone') hidden."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Numbers"
    ws.append(["Name", "Phone", "Other"])
    for i in range(5):
        ws.append([f"n{i}", f"202555{1100 + i}", f"202555{1200 + i}"])
    ws.row_dimensions[3].hidden = True
    ws.row_dimensions[9].hidden = True
    ws.column_dimensions["B"].hidden = True
    wb.save(path)
    return path


@needs_soffice
@pytest.mark.slow
def test_a_hidden_row_and_column_of_an_xls_are_noted_as_in_the_xlsx(tmp_path: Path) -> None:
    source = hidden_workbook(tmp_path / "hid.xlsx")
    path = convert(source, "xls")
    with open_sheet(path) as xls:
        rows = list(xls.iter_rows())
        assert xls.notes.hidden_known
        assert xls.notes.hidden_rows == {3}
        assert xls.notes.hidden_columns == {1}
    assert [n for n, _ in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[2] == (3, ["n1", "2025551101", "2025551201"])  # read all the same
    # The worker says it in the same words as for the xlsx it came from.
    scans = [m for m in worker_messages(path) if m[0] == "scan"]
    assert scans == [m for m in worker_messages(source) if m[0] == "scan"]
    assert scans == [("scan", [], []), ("scan", [3], [], [], [(2, 2)])]


@needs_soffice
@pytest.mark.slow
def test_rows_hidden_by_a_filter_in_an_xls_are_noted(tmp_path: Path) -> None:
    path = convert(filtered_review(tmp_path / "review.xlsx"), "xls")
    assert {0x009D, 0x009E} <= record_kinds(path, "Review")  # AUTOFILTERINFO, AUTOFILTER
    with open_sheet(path) as source:
        rows = list(source.iter_rows())
        assert source.notes.hidden_known
        assert source.notes.hidden_rows == {4, 5, 6, 7}
        assert source.notes.hidden_columns == set()
    assert [n for n, _ in rows] == [1, 2, 3, 4, 5, 6, 7]


@needs_soffice
@pytest.mark.slow
def test_an_xls_with_nothing_hidden_says_so(tmp_path: Path) -> None:
    source = f.write_xlsx(tmp_path / "plain.xlsx", [["Phone"], ["2025550101"], ["2025550102"]])
    with open_sheet(convert(source, "xls")) as xls:
        assert [n for n, _ in xls.iter_rows()] == [1, 2, 3]
        assert xls.notes.hidden_known
        assert xls.notes.hidden_rows == set() and xls.notes.hidden_columns == set()


@needs_soffice
@pytest.mark.slow
def test_a_removal_from_an_xls_leaves_hidden_rows_alone_as_from_an_xlsx(tmp_path: Path) -> None:
    path = convert(filtered_review(tmp_path / "review.xlsx"), "xls")
    store = stage_dry(path, tmp_path, kind="removal")
    rows = outcomes(store)
    assert [rows[n][0] for n in (2, 3)] == ["pending", "pending"]
    for n in (4, 5, 6, 7):
        assert rows[n] == (
            "not_attempted",
            f"row {n}: hidden in the file (hidden or filtered out); not removed unless hidden "
            "rows are included (--include-hidden)",
        )
    assert warnings(store) == [
        "Rows 4–7 (4 rows) are hidden in sheet 'Review' of review.xls (hidden or filtered "
        "out); they are not removed. To remove hidden rows too, run the removal again "
        "including hidden rows (--include-hidden)."
    ]


@needs_soffice
@pytest.mark.slow
def test_a_removal_from_a_hidden_xls_phone_column_is_refused(tmp_path: Path) -> None:
    path = convert(hidden_workbook(tmp_path / "hid.xlsx"), "xls")
    with pytest.raises(MappingError, match=r"^Column B \('Phone'\) of sheet 'Numbers'"):
        stage_dry(path, tmp_path, kind="removal")


def test_a_removal_from_an_xls_whose_hidden_rows_cannot_be_read_is_refused(
    tmp_path: Path,
) -> None:
    # BIFF5 (Excel 95): calamine reads its cells, the scan does not know its records.
    corpus = f.CORPUS / "calamine" / "biff5_write.xls"
    if not corpus.is_file():
        pytest.skip("the shared corpus is not here")
    path = tmp_path / "b.xls"
    path.write_bytes(corpus.read_bytes())
    with open_sheet(path) as source:
        assert len(list(source.iter_rows())) == 4
        assert not source.notes.hidden_known
    with pytest.raises(MappingError) as refused:
        stage_dry(path, tmp_path, kind="removal", phone_column="column:A")
    assert str(refused.value) == (
        "A removal from b.xls cannot tell which rows are hidden or filtered out (its sheet's "
        "layout could not be read; it may be from Excel 95 or older), so it could remove rows "
        "someone filtered out; save the file as .xlsx, or include hidden rows "
        "(--include-hidden) to remove every row."
    )
