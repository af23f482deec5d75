"""A number cell whose number format pads it with zeros ("0000000000", "0##########",
"\\"0\\"##########") reads as the text the sheet shows (0351234568), not as the bare number
the cell holds (351234568), in an xlsx and an .xls (S20 Z1, black-box B10 #1). Files are
real: openpyxl's, and Gnumeric's (ssconvert) .xls of them. What each format shows is what
Gnumeric, which formats as Excel does, exports as the cells' shown text."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.core import sheet_worker
from app.core.sheet_reader import open_sheet
from app.core.sheet_worker import (
    BATCH_ROWS,
    XlsScan,
    padded_shape,
    padded_styles,
    shown_number,
)
from tests.core.test_sheet_ods_xls_error_cells import biff

# Format -> what it shows for 351234568, 5 and 2079460011 (ssconvert -O format=preserve).
SHOWN = {
    "0000000000": ("0351234568", "0000000005", "2079460011"),
    "00000000000": ("00351234568", "00000000005", "02079460011"),
    "0##########": ("0351234568", "05", "02079460011"),
    '"0"##########': ("0351234568", "05", "02079460011"),
    "\\0#########": ("0351234568", "05", "02079460011"),
    "0#0": ("351234568", "05", "2079460011"),
    "0000 000 0000": ("0035 123 4568", "0000 000 0005", "0207 946 0011"),
    "[Red]0000000000": ("0351234568", "0000000005", "2079460011"),
    "0000000000;[Red]-0000000000": ("0351234568", "0000000005", "2079460011"),
    "0000000000;;;@": ("0351234568", "0000000005", "2079460011"),
}
# Formats that never show digits a number does not have, or are not read here: their cells
# stay numbers.
NOT_PADDED = [
    "General",
    "0",
    "#",
    "@",
    "0.00",
    "0000000000.00",
    "#,##0",
    "0%",
    "0.00E+00",
    "yyyy-mm-dd",
    "(###) ###-####",
    "[>1000]0000000000",
    "0000000000/0",
]


@pytest.mark.parametrize("code", sorted(SHOWN))
def test_a_padding_format_shows_what_excel_shows(code: str) -> None:
    shape = padded_shape(code)
    assert shape is not None
    assert tuple(shown_number(n, shape) for n in (351234568, 5, 2079460011)) == SHOWN[code]


@pytest.mark.parametrize("code", NOT_PADDED)
def test_other_formats_are_not_read(code: str) -> None:
    assert padded_shape(code) is None


def _workbook(path: Path, rows: list[list[Any]], formats: dict[int, str]) -> Path:
    """Rows under a header; column ``k`` of every data row formatted ``formats[k]``."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Opt-outs"
    ws.append(["Phone", "Code", "Notes"])
    for row in rows:
        ws.append(row)
        for column, code in formats.items():
            ws.cell(ws.max_row, column + 1).number_format = code
    wb.save(path)
    return path


def _read(path: Path) -> list[list[Any]]:
    with open_sheet(path) as source:
        return [list(cells) for _, cells in source.iter_rows()]


# (the cell's value, what it reads as), under "00000000000" in column A.
CELLS: list[tuple[Any, Any]] = [
    (2079460011, "02079460011"),  # a UK landline without its 0: as shown
    (351234568.0, "00351234568"),
    (79460011, "00079460011"),
    (12345678901, 12345678901),  # as many digits as the format: no zero shown, a number
    (-2079460011, -2079460011),  # negative: not a phone number, left as it is
    (2079460011.5, 2079460011.5),  # not whole: left as it is
    ("2079460011", "2079460011"),  # text: the format does not apply
    (True, True),
    (None, None),
]


def test_xlsx_cells_read_as_shown(tmp_path: Path) -> None:
    rows = [[value, 44, "row"] for value, _ in CELLS]
    path = _workbook(tmp_path / "padded.xlsx", rows, {0: "00000000000"})
    read = _read(path)
    assert read[0] == ["Phone", "Code", "Notes"]
    assert [cells[0] for cells in read[1:]] == [shown for _, shown in CELLS]
    # The other columns, unformatted, read as before.
    assert {cells[1] for cells in read[1:]} == {44}


def test_formats_in_other_columns_and_forms(tmp_path: Path) -> None:
    rows = [[351234568, 2079460011, 7911123460, 351234568]]
    formats = {0: "0##########", 1: '"0"##########', 2: "\\0##########", 3: "#,##0"}
    path = _workbook(tmp_path / "forms.xlsx", rows, formats)
    assert _read(path)[1] == ["0351234568", "02079460011", "07911123460", 351234568]


def test_every_batch_is_read_as_shown(tmp_path: Path) -> None:
    """Rows past the first batches: each cell is found in its own batch."""
    count = 2 * BATCH_ROWS + 500
    rows = [[300000000 + n, 39, f"r{n}"] for n in range(count)]
    path = _workbook(tmp_path / "long.xlsx", rows, {0: "0000000000"})
    read = _read(path)
    assert [cells[0] for cells in read[1:]] == [f"0{300000000 + n}" for n in range(count)]


def test_a_workbook_without_such_formats_reads_no_cell_formats(tmp_path: Path) -> None:
    """The scan does not search the sheet for styled cells unless a format pads numbers."""
    plain = _workbook(tmp_path / "plain.xlsx", [[2079460011, 44, "x"]], {0: "0.00", 1: "0"})
    with zipfile.ZipFile(plain) as zf:
        assert padded_styles(zf) == ({}, [])
    assert _read(plain)[1] == [2079460011, 44, "x"]
    padded = _workbook(tmp_path / "padded.xlsx", [[2079460011, 44, "x"]], {0: "00000000000"})
    with zipfile.ZipFile(padded) as zf:
        styles, shapes = padded_styles(zf)
    assert len(shapes) == 1
    assert list(styles.values()) == [0]


def test_styles_found_through_the_workbooks_relationships(tmp_path: Path) -> None:
    """A package whose styles part is not xl/styles.xml (valid: the relationship names it)."""
    source = _workbook(tmp_path / "a.xlsx", [[351234568, 39, "x"]], {0: "0000000000"})
    moved = tmp_path / "moved.xlsx"
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(moved, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            name = item.filename
            if name == "xl/styles.xml":
                name = "xl/theme/format.xml"
            elif name == "xl/_rels/workbook.xml.rels":
                data = data.replace(b'Target="styles.xml"', b'Target="theme/format.xml"')
                data = data.replace(b'Target="/xl/styles.xml"', b'Target="/xl/theme/format.xml"')
            elif name == "[Content_Types].xml":
                data = data.replace(b"/xl/styles.xml", b"/xl/theme/format.xml")
            zout.writestr(name, data)
    assert _read(moved)[1] == ["0351234568", 39, "x"]


@pytest.mark.skipif(shutil.which("ssconvert") is None, reason="Gnumeric's ssconvert is needed")
def test_xls_cells_read_as_shown(tmp_path: Path) -> None:
    rows = [
        [2079460010, 44, "00000000000"],
        [668850102, 39, "0000000000"],
        [351234568, 39, "0000000000"],
        [3035550190, 1, "0000000000"],
        [2079460011, None, "00000000000"],
    ]
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Code", "Notes"])
    for row in rows:
        ws.append(row)
        ws.cell(ws.max_row, 1).number_format = str(row[2])
    # Numbers in a run of cells (MULRK) too: columns D and E.
    ws.append([79460012, 44, "00000000000", 79460013, 79460014])
    for column in (1, 4, 5):
        ws.cell(ws.max_row, column).number_format = "00000000000"
    source = tmp_path / "padded.xlsx"
    wb.save(source)
    xls = tmp_path / "padded.xls"
    subprocess.run(
        ["ssconvert", "-T", "Gnumeric_Excel:excel_biff8", str(source), str(xls)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    read = _read(xls)
    assert [cells[0] for cells in read[1:]] == [
        "02079460010",
        "0668850102",
        "0351234568",
        3035550190,
        "02079460011",
        "00079460012",
    ]
    assert read[-1][3:5] == ["00079460013", "00079460014"]


def test_xls_records_formats_and_runs_of_numbers() -> None:
    """BIFF8 records as Excel writes them: the globals' FORMAT and XF records give the cell
    format 16 a padding format; a MULRK's cells each have their own (Gnumeric writes none)."""
    code = "00000000000".encode("latin-1")
    head = biff(0x0809, struct.pack("<HH", 0x0600, 0x0005) + bytes(12))
    formats = biff(0x041E, struct.pack("<HHB", 164, len(code), 0) + code)
    xfs = b"".join(biff(0x00E0, struct.pack("<HH", 0, 0) + bytes(16)) for _ in range(16))
    xfs += biff(0x00E0, struct.pack("<HH", 0, 164) + bytes(16))
    name = b"Sheet1"

    def globals_at(offset: int) -> bytes:
        sheet = biff(0x0085, struct.pack("<IBBBB", offset, 0, 0, len(name), 0) + name)
        return head + formats + xfs + sheet + biff(0x000A, b"")

    offset = len(globals_at(0))
    rk = struct.pack("<I", (79460012 << 2) | 2)  # an integer RK
    mulrk = struct.pack("<HH", 2, 0) + b"".join(
        struct.pack("<H", ixfe) + rk for ixfe in (16, 15, 16)
    )
    stream = (
        globals_at(offset)
        + biff(0x0809, struct.pack("<HH", 0x0600, 0x0010) + bytes(12))
        + biff(0x00BD, mulrk + struct.pack("<H", 2))
        + biff(0x0203, struct.pack("<HHH", 3, 1, 16) + struct.pack("<d", 351234568.0))
        + biff(0x0203, struct.pack("<HHH", 4, 1, 15) + struct.pack("<d", 351234568.0))
        + biff(0x000A, b"")
    )
    scan = XlsScan("unused.xls", "Sheet1")
    assert scan._sheet_offset(stream) == offset
    scan._cells(stream, offset)
    assert not scan.failed
    assert list(scan.padded) == [3 << 14 | 0, 3 << 14 | 2, 4 << 14 | 1]
    assert list(scan.padded_shapes) == [0, 0, 0]
    assert [shown_number(79460012, shape) for shape in scan.shapes] == ["00079460012"]


# -- .ods ---------------------------------------------------------------------------------------

_ODS_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
    ' xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"'
    ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
    ' xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
    ' xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"'
    ' office:version="1.2">'
)
# As LibreOffice writes them: N1 "0000000000", N2 "\"0\"#" (a literal 0, then the number),
# N3 "0000000000;[RED]-0000000000" (the negative one, mapping a positive number to N3P0),
# N4 "0.00" (not read).
_ODS_STYLES = (
    "<office:automatic-styles>"
    '<number:number-style style:name="N1"><number:number number:decimal-places="0"'
    ' number:min-decimal-places="0" number:min-integer-digits="10"/></number:number-style>'
    '<number:number-style style:name="N2"><number:text>0</number:text><number:number'
    ' number:decimal-places="0" number:min-integer-digits="1"/></number:number-style>'
    '<number:number-style style:name="N3P0"><number:number number:decimal-places="0"'
    ' number:min-integer-digits="10"/></number:number-style>'
    '<number:number-style style:name="N3"><style:text-properties fo:color="#ff0000"'
    ' xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"/>'
    '<number:text>-</number:text><number:number number:decimal-places="0"'
    ' number:min-integer-digits="10"/><style:map style:condition="value()&gt;=0"'
    ' style:apply-style-name="N3P0"/></number:number-style>'
    '<number:number-style style:name="N4"><number:number number:decimal-places="2"'
    ' number:min-integer-digits="10"/></number:number-style>'
    '<style:style style:name="ce1" style:family="table-cell" style:data-style-name="N1"/>'
    '<style:style style:name="ce2" style:family="table-cell" style:data-style-name="N2"/>'
    '<style:style style:name="ce3" style:family="table-cell" style:data-style-name="N3"/>'
    '<style:style style:name="ce4" style:family="table-cell" style:data-style-name="N4"/>'
    '<style:style style:name="ce5" style:family="table-cell" style:parent-style-name="ce1"/>'
    '<style:style style:name="ce6" style:family="table-cell"/>'
    "</office:automatic-styles>"
)


def _float(value: int, style: str | None = None, repeat: int = 1) -> str:
    attrs = f' table:style-name="{style}"' if style else ""
    if repeat > 1:
        attrs += f' table:number-columns-repeated="{repeat}"'
    return (
        f'<table:table-cell{attrs} office:value-type="float" office:value="{value}">'
        f"<text:p>{value}</text:p></table:table-cell>"
    )


def _string(text: str) -> str:
    return (
        f'<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>'
    )


def _ods(path: Path, rows: list[str], styles: str = _ODS_STYLES) -> Path:
    """An .ods of one sheet whose columns A and D take the padding styles ce1 and ce2 by
    default (a cell without a style of its own: as LibreOffice writes a formatted column)."""
    content = (
        _ODS_HEAD
        + styles
        + '<office:body><office:spreadsheet><table:table table:name="Opt-outs">'
        + '<table:table-column table:default-cell-style-name="ce1"/>'
        + '<table:table-column table:number-columns-repeated="2"/>'
        + '<table:table-column table:default-cell-style-name="ce2"/>'
        + "".join(rows)
        + "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("content.xml", content)
        zf.writestr(
            "META-INF/manifest.xml",
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
            '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
            '<manifest:file-entry manifest:full-path="/" manifest:media-type='
            '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry'
            ' manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            "</manifest:manifest>",
        )
    return path


def test_ods_cells_read_as_shown(tmp_path: Path) -> None:
    row = "<table:table-row>{}</table:table-row>"
    rows = [
        row.format(_string("Phone") + _string("Code") + _string("Notes") + _string("Other")),
        # A and D: no style of their own, their column's; B: a style with a data style's.
        row.format(_float(351234568) + _float(39) + _string("x") + _float(2079460011)),
        # A: a style of its own that pads nothing; B: its parent's data style.
        '<table:table-row table:number-rows-repeated="2">'
        + _float(668850102, "ce6")
        + _float(668850102, "ce5")
        + _string("y")
        + _float(7911123460)
        + "</table:table-row>",
        # A and B, one repeated cell; C a two-section format; D "0.00".
        row.format(_float(12345, "ce1", 2) + _float(612345679, "ce3") + _float(5, "ce4")),
    ]
    read = _read(_ods(tmp_path / "padded.ods", rows))
    assert read == [
        ["Phone", "Code", "Notes", "Other"],
        ["0351234568", 39, "x", "02079460011"],
        [668850102, "0668850102", "y", "07911123460"],
        [668850102, "0668850102", "y", "07911123460"],
        ["0000012345", "0000012345", "0612345679", 5],
    ]


def test_an_ods_without_padding_styles_is_read_as_before(tmp_path: Path) -> None:
    styles = _ODS_STYLES.replace('min-integer-digits="10"', 'min-integer-digits="1"').replace(
        "<number:text>0</number:text>", ""
    )
    row = "<table:table-row>{}</table:table-row>"
    rows = [row.format(_float(351234568) + _float(39, "ce3") + _string("x") + _float(5))]
    path = _ods(tmp_path / "plain.ods", rows, styles)
    with zipfile.ZipFile(path) as zf:
        assert sheet_worker.ods_padded_styles(zf) == ({}, [])
    assert _read(path) == [[351234568, 39, "x", 5]]


@pytest.mark.skipif(shutil.which("ssconvert") is None, reason="Gnumeric's ssconvert is needed")
def test_an_ods_saved_by_gnumeric_reads_as_shown(tmp_path: Path) -> None:
    rows = [[n, 39, "x"] for n in (351234568, 668850102, 3035550190)]
    source = _workbook(tmp_path / "padded.xlsx", rows, {0: "0000000000"})
    ods = tmp_path / "padded.ods"
    subprocess.run(
        ["ssconvert", "-T", "Gnumeric_OpenCalc:odf", str(source), str(ods)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    read = _read(ods)
    assert [cells[0] for cells in read[1:]] == ["0351234568", "0668850102", 3035550190]
