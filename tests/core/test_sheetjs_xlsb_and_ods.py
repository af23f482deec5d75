"""Black-box B6 #4 and #5: files SheetJS writes that calamine misreads.

#4: a SheetJS .xlsb writes every cell of a row after its first as a short cell record of
MS-XLSB (BrtShortSt 17, BrtShortReal 16, …: no column, the one after the previous cell's),
which calamine skips: only column A was read, reasons and dates silently lost, and a file with
its phone in column B was refused as having no phone column. They are now read (the worker
gives calamine a copy with each written as its full record).

#5: a SheetJS .ods indents its content.xml (whitespace between a row's cells), and calamine
failed on it: the file was refused as damaged, quoting the parser. It now reads as LibreOffice
reads it.

The files are built record by record and tag by tag as SheetJS 0.18.5 writes them.
"""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import pytest
import python_calamine

from app.api.scope import Scope
from app.core import sheet_worker
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStore
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError

REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

# -- .xlsb --------------------------------------------------------------------------------------


def record(kind: int, body: bytes = b"") -> bytes:
    """An MS-XLSB record: its type (7 bits a byte, high bit: more), its size likewise."""
    head = bytes([kind & 0x7F | 0x80, kind >> 7]) if kind >= 0x80 else bytes([kind])
    size, out = len(body), bytearray()
    while True:
        out.append((size & 0x7F) | (0x80 if size >> 7 else 0))
        size >>= 7
        if not size:
            return head + bytes(out) + body


def wide(text: str) -> bytes:
    return struct.pack("<I", len(text)) + text.encode("utf-16-le")


STYLE = b"\x00\x00\x00\x00"  # iStyleRef 0 and no flags, as SheetJS writes each cell's


def row_header(row: int) -> bytes:
    # BrtRowHdr as SheetJS writes it: the row (0-based), then its height and spans.
    return record(
        0, struct.pack("<I", row) + bytes.fromhex("000000004001000000010000000000000002000000")
    )


def full_text(column: int, text: str) -> bytes:
    return record(6, struct.pack("<I", column) + STYLE + wide(text))  # BrtCellSt


def full_number(column: int, value: float) -> bytes:
    return record(5, struct.pack("<I", column) + STYLE + struct.pack("<d", value))  # BrtCellReal


def short_text(text: str) -> bytes:
    return record(17, STYLE + wide(text))  # BrtShortSt


def short_number(value: float) -> bytes:
    return record(16, STYLE + struct.pack("<d", value))  # BrtShortReal


def short_rk(value: int) -> bytes:
    return record(13, STYLE + struct.pack("<I", value << 2 | 0x2))  # BrtShortRk, an integer


def short_blank() -> bytes:
    return record(12, STYLE)  # BrtShortBlank


def xlsb(path: Path, rows: list[bytes], cut: int = 0) -> Path:
    """An .xlsb of ``rows``; ``cut``: its sheet's part that many bytes short."""
    sheet = (
        record(129)  # BrtBeginSheet
        + record(148, struct.pack("<IIII", 0, len(rows) - 1, 0, 3))  # BrtWsDim
        + record(133)
        + record(137, bytes.fromhex("9c03" + "00" * 16 + "64" + "00" * 11))
        + record(138)
        + record(134)
        + record(145)  # BrtBeginSheetData
        + b"".join(row_header(n) + cells for n, cells in enumerate(rows))
        + record(146)  # BrtEndSheetData
        + record(130)  # BrtEndSheet
    )
    sheet = sheet[: len(sheet) - cut]
    workbook = (
        record(131)  # BrtBeginBook
        + record(153, bytes(8) + wide("ThisWorkbook"))  # BrtWbProp
        + record(143)  # BrtBeginBundleShs
        + record(156, struct.pack("<II", 0, 1) + wide("rId1") + wide("Sheet1"))  # BrtBundleSh
        + record(144)
        + record(132)
    )
    types = (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Override PartName="/xl/workbook.bin" ContentType="application/'
        'vnd.ms-excel.sheet.binary.macroEnabled.main"/><Override PartName="/xl/worksheets/'
        'sheet1.bin" ContentType="application/vnd.ms-excel.worksheet"/></Types>'
    )
    with zipfile.ZipFile(path, "w") as zf:  # stored, as SheetJS writes it
        zf.writestr(
            "xl/_rels/workbook.bin.rels",
            f'{HEAD}<Relationships xmlns="{PKG}"><Relationship Id="rId1" '
            f'Type="{REL}/worksheet" Target="worksheets/sheet1.bin"/></Relationships>',
        )
        zf.writestr("xl/worksheets/sheet1.bin", sheet)
        zf.writestr("xl/workbook.bin", workbook)
        zf.writestr(
            "_rels/.rels",
            f'{HEAD}<Relationships xmlns="{PKG}"><Relationship Id="rId1" '
            f'Type="{REL}/officeDocument" Target="xl/workbook.bin"/></Relationships>',
        )
        zf.writestr("[Content_Types].xml", HEAD + types)
    return path


def stage(path: Path, tmp_path: Path) -> dict[int, JobRow]:
    settings = JobSettings(path, Scope.global_(), reason="Consumer request")
    store: JobStore
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    with store:
        return {r.row_number: r for r in store.rows()}


def test_calamine_alone_reads_only_the_first_cell_of_each_row(tmp_path: Path) -> None:
    """What the worker makes up for (if calamine learns short records, the copy is moot)."""
    path = xlsb(
        tmp_path / "plain.xlsb",
        [
            full_text(0, "Phone") + short_text("Reason"),
            full_number(0, 3032800001) + short_text("stop"),
        ],
    )
    sheet = python_calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Sheet1")
    assert sheet.to_python() == [["Phone"], [3032800001.0]]


def test_every_column_of_a_sheetjs_xlsb_is_read(tmp_path: Path) -> None:
    path = xlsb(
        tmp_path / "sjs_plain.xlsb",
        [
            full_text(0, "Phone")
            + short_text("Request Date")
            + short_text("Reason")
            + short_text("Count"),
            full_number(0, 3032800001)
            + short_text("2026-11-20")
            + short_text("stop 1")
            + short_rk(7),
            # A blank cell keeps the ones after it in their columns; each row starts again.
            full_number(0, 3032800002) + short_blank() + short_text("stop 2") + short_number(2.5),
            full_text(1, "2026-11-21") + full_text(2, "no phone"),
        ],
    )
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
    assert rows == {
        1: ["Phone", "Request Date", "Reason", "Count"],
        2: [3032800001.0, "2026-11-20", "stop 1", 7],
        3: [3032800002.0, None, "stop 2", 2.5],
        4: [None, "2026-11-21", "no phone", None],
    }


def test_a_sheetjs_xlsb_with_its_phone_in_column_b_is_imported(tmp_path: Path) -> None:
    path = xlsb(
        tmp_path / "sjs_phoneB.xlsb",
        [
            full_text(0, "Name") + short_text("Phone") + short_text("Reason"),
            full_text(0, "Person 1") + short_text("3032900001") + short_text("stop 1"),
            full_text(0, "Person 2") + short_text("3032900002") + short_text("stop 2"),
        ],
    )
    rows = stage(path, tmp_path)
    assert [(r.outcome, r.reason) for r in rows.values()] == [("", "stop 1"), ("", "stop 2")]


def test_an_xlsb_of_full_records_is_read_as_it_is(tmp_path: Path) -> None:
    path = xlsb(
        tmp_path / "excel.xlsb",
        [
            full_text(0, "Phone") + full_text(1, "Reason"),
            full_number(0, 3032800001) + full_text(1, "x"),
        ],
    )
    assert sheet_worker.xlsb_full_cells(str(path)) is None
    with open_sheet(path) as source:
        assert dict(source.iter_rows()) == {1: ["Phone", "Reason"], 2: [3032800001.0, "x"]}


# -- .ods ---------------------------------------------------------------------------------------

ODS_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"'
)


def ods_cell(value: object) -> str:
    if isinstance(value, str):
        return (
            '<table:table-cell office:value-type="string">'
            f"<text:p>{value}</text:p></table:table-cell>"
        )
    return (
        f'<table:table-cell office:value-type="float" office:value="{value}">'
        f"<text:p>{value}</text:p></table:table-cell>"
    )


def sheetjs_ods(path: Path, rows: list[list[object]], paragraph: str = "") -> Path:
    """An .ods as SheetJS writes it: content.xml indented, a row's cells a line each."""
    body = "".join(
        "        <table:table-row>\n"
        + "".join(f"          {ods_cell(v)}\n" for v in row)
        + "        </table:table-row>\n"
        for row in rows
    )
    content = (
        f"{HEAD}<office:document-content {ODS_NS}>\n  <office:body>\n    <office:spreadsheet>\n"
        '      <table:table table:name="Sheet1">\n'
        f"{body}{paragraph}      </table:table>\n    </office:spreadsheet>\n  </office:body>\n"
        "</office:document-content>"
    )
    manifest = (
        f'{HEAD}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:'
        'manifest:1.0" manifest:version="1.2">\n  <manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>\n  '
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "\n</manifest:manifest>"
    )
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("META-INF/manifest.xml", manifest)
        zf.writestr("content.xml", content)
    return path


def test_an_indented_sheetjs_ods_is_read(tmp_path: Path) -> None:
    path = sheetjs_ods(
        tmp_path / "sjs_plain.ods",
        [["Phone", "Request Date", "Reason"], [3032800001, "2026-11-20", "stop 1"]],
    )
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
    assert rows == {
        1: ["Phone", "Request Date", "Reason"],
        2: [3032800001.0, "2026-11-20", "stop 1"],
    }
    assert [(r.outcome, r.reason) for r in stage(path, tmp_path).values()] == [("", "stop 1")]


def test_the_space_between_words_of_a_paragraph_is_kept(tmp_path: Path) -> None:
    """Only whitespace outside paragraphs goes: a space between two spans is text."""
    cell = (
        '          <table:table-cell office:value-type="string">\n            <text:p>'
        "<text:span>stop</text:span> <text:span>texts</text:span></text:p>\n"
        "            <text:p>please</text:p>\n          </table:table-cell>\n"
    )
    path = sheetjs_ods(
        tmp_path / "spans.ods",
        [["Phone", "Reason"]],
        paragraph="        <table:table-row>\n          "
        + ods_cell(3032800001)
        + "\n"
        + cell
        + "        </table:table-row>\n",
    )
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
    assert rows[2] == [3032800001.0, "stop texts\nplease"]


def test_records_cut_by_the_reading_chunks_convert_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The part is read a chunk at a time: a record across two chunks (its header or its
    body cut) converts as one in a chunk, and a part cut short mid-record is refused."""
    rows = [
        full_text(0, "Phone") + short_text("Reason " + "x" * 200),  # a two-byte size
        full_number(0, 3032800001) + short_rk(5) + full_text(4, "E") + short_text("F"),
    ]
    stream = b"".join(row_header(n) + cells for n, cells in enumerate(rows))
    expected = io.BytesIO()
    assert sheet_worker._short_cells(io.BytesIO(stream), expected)
    assert struct.pack("<I", 5) + STYLE + wide("F") in expected.getvalue()  # after E, in F
    for chunk in (7, 8, 13, 64):
        monkeypatch.setattr(sheet_worker, "SCAN_CHUNK", chunk)
        out = io.BytesIO()
        assert sheet_worker._short_cells(io.BytesIO(stream), out)
        assert out.getvalue() == expected.getvalue()
        assert sheet_worker._short_cells(io.BytesIO(stream))
        with pytest.raises(ValueError, match="cut short"):
            sheet_worker._short_cells(io.BytesIO(stream[:-3]), io.BytesIO())


def test_an_xlsb_of_short_records_cut_short_is_refused_not_read_as_column_a(
    tmp_path: Path,
) -> None:
    rows = [
        full_text(0, "Phone") + short_text("Reason"),
        full_number(0, 3032800001) + short_text("stop"),
    ]
    # Cut in its last cell's record, and a record whose size runs past the rest: damaged,
    # not (black-box B6 #4 found its neighbour) "kept elsewhere than xl/workbook.xml".
    for name, path in (
        ("cut.xlsb", xlsb(tmp_path / "cut.xlsb", rows, cut=4 + 6)),
        ("misframed.xlsb", xlsb(tmp_path / "misframed.xlsb", [*rows, short_text("x")[:-4]])),
    ):
        with pytest.raises(SheetError) as refused, open_sheet(path) as source:
            list(source.iter_rows())
        assert str(refused.value).startswith(f"{name} is damaged or incomplete")
