"""S20 F6 (review of Z1): a large workbook with a zero-padding number format is read, not
refused as crafted, and a styles part of tags never closed is read once, not once per tag.

Excel writes an empty styled cell (``<c r="B2" s="1"/>``) for every cell of a formatted range:
only cells holding a number can show a padded number, so only they count toward
``MAX_PLACEHOLDERS``, and past it the rest are read as their numbers instead of the file being
refused. The worker is run in this process so that the limit can be lowered."""

from __future__ import annotations

import io
import marshal
import pickle
import struct
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from app.core import sheet_worker
from app.core.sheet_reader import open_sheet
from app.core.sheet_worker import XlsScan
from tests.core.test_sheet_ods_xls_error_cells import biff
from tests.core.test_zero_padded_number_formats import _float, _ods, _string

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/'
    'sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
    'worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>'
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
    'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://'
    'schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="xl/workbook.xml"/></Relationships>'
)
_WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/'
    'spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
    'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://'
    'schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/'
    'sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/'
    'officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>'
)
# Cell format 1 pads to 11 digits ("00000000000"), as a UK list keeps its leading 0.
_STYLES = (
    '<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="http://schemas.openxmlformats.'
    'org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode='
    '"00000000000"/></numFmts><fonts count="1"><font/></fonts><fills count="1"><fill/></fills>'
    '<borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0"/>'
    '</cellStyleXfs><cellXfs count="2"><xf numFmtId="0" xfId="0"/><xf numFmtId="164" xfId="0"'
    ' applyNumberFormat="1"/></cellXfs></styleSheet>'
)
_LETTERS = "ABCDEFGHIJ"


def _xlsx(path: Path, rows: int, styles: str = _STYLES) -> Path:
    """Column A: numbers in the padding format; B: a text in it; C-J: empty cells in it, as
    Excel writes a formatted range (the reviewer's mkx.py, with text cells too)."""
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.'
        'org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>'
        'Phone</t></is></c><c r="B1" t="inlineStr"><is><t>Name</t></is></c></row>'
    ]
    for r in range(2, rows + 2):
        parts.append(
            f'<row r="{r}"><c r="A{r}" s="1"><v>{2079460000 + r}</v></c>'
            f'<c r="B{r}" s="1" t="inlineStr"><is><t>Ann</t></is></c>'
            + "".join(f'<c r="{c}{r}" s="1"/>' for c in _LETTERS[2:])
            + "</row>"
        )
    parts.append("</sheetData></worksheet>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT_TYPES)
        zf.writestr("_rels/.rels", _RELS)
        zf.writestr("xl/workbook.xml", _WORKBOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        zf.writestr("xl/styles.xml", styles)
        zf.writestr("xl/worksheets/sheet1.xml", "".join(parts))
    return path


def _messages(path: Path) -> list[tuple[Any, ...]]:
    """What the worker sends for ``path``, run in this process (the limit lowered here)."""
    out = io.BytesIO()
    sheet_worker.run(str(path), "", 0, out)
    data, messages = out.getvalue(), []
    while data:
        size = int.from_bytes(data[:4], "big")
        body = data[4 : 4 + size]
        messages.append(marshal.loads(body[1:]) if body[:1] == b"m" else pickle.loads(body[1:]))
        data = data[4 + size :]
    return messages


def _rows(messages: list[tuple[Any, ...]]) -> list[list[Any]]:
    assert [m for m in messages if m[0] == "error"] == []
    return [list(cells) for m in messages if m[0] == "rows" for _, cells in m[1]]


def test_empty_and_text_cells_of_a_padded_range_do_not_count(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """600 numbers in a range of 6,000 padded-format cells, the limit 1,000: the empty and
    text cells were counted and the file refused ('needs more memory'); every number reads
    padded now."""
    monkeypatch.setattr(sheet_worker, "MAX_PLACEHOLDERS", 1000)
    path = _xlsx(tmp_path / "range.xlsx", 600)
    rows = _rows(_messages(path))
    assert len(rows) == 601
    assert [row[0] for row in rows[1:]] == [f"0{2079460000 + r}" for r in range(2, 602)]
    assert {row[1] for row in rows[1:]} == {"Ann"}


def test_more_padded_numbers_than_the_limit_are_read_not_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Past the limit the rest read as the numbers they hold, as before Z1: the file is read."""
    monkeypatch.setattr(sheet_worker, "MAX_PLACEHOLDERS", 100)
    rows = _rows(_messages(_xlsx(tmp_path / "many.xlsx", 300)))
    phones = [row[0] for row in rows[1:]]
    assert len(phones) == 300
    assert phones[:100] == [f"0{2079460000 + r}" for r in range(2, 102)]
    assert all(isinstance(p, (int, float)) for p in phones[100:])
    assert [int(p) for p in phones[100:]] == [2079460000 + r for r in range(102, 302)]


def test_ods_with_more_padded_numbers_than_the_limit_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sheet_worker, "MAX_PLACEHOLDERS", 10)
    row = "<table:table-row>{}</table:table-row>"
    body = [row.format(_string("Phone"))]
    body += [row.format(_float(351234500 + n)) for n in range(30)]
    rows = _rows(_messages(_ods(tmp_path / "many.ods", body)))
    phones = [r[0] for r in rows[1:]]
    assert len(phones) == 30
    assert phones[0] == "0351234500"  # column A's default style pads to 10 digits
    assert int(phones[-1]) == 351234529


def test_xls_with_more_padded_numbers_than_the_limit_is_not_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The BIFF8 records of the Z1 test, more NUMBER cells in the padding format than the
    limit: the scan stops noting them instead of asking the worker to refuse the file."""
    monkeypatch.setattr(sheet_worker, "MAX_PLACEHOLDERS", 5)
    code = b"00000000000"
    head = biff(0x0809, struct.pack("<HH", 0x0600, 0x0005) + bytes(12))
    formats = biff(0x041E, struct.pack("<HHB", 164, len(code), 0) + code)
    xfs = b"".join(biff(0x00E0, struct.pack("<HH", 0, 0) + bytes(16)) for _ in range(16))
    xfs += biff(0x00E0, struct.pack("<HH", 0, 164) + bytes(16))
    name = b"Sheet1"

    def globals_at(offset: int) -> bytes:
        sheet = biff(0x0085, struct.pack("<IBBBB", offset, 0, 0, len(name), 0) + name)
        return head + formats + xfs + sheet + biff(0x000A, b"")

    offset = len(globals_at(0))
    cells = b"".join(
        biff(0x0203, struct.pack("<HHH", r, 0, 16) + struct.pack("<d", 351234568.0))
        for r in range(20)
    )
    stream = (
        globals_at(offset)
        + biff(0x0809, struct.pack("<HH", 0x0600, 0x0010) + bytes(12))
        + cells
        + biff(0x000A, b"")
    )
    scan = XlsScan("unused.xls", "Sheet1")
    assert scan._sheet_offset(stream) == offset
    scan._cells(stream, offset)
    assert not scan.failed
    assert not scan.too_many  # run() refuses a file whose scan says so
    assert list(scan.padded) == [(r + 1) << 14 for r in range(5)]


# -- styles parts of tags never closed: read once (a regression meets the 60 s watchdog) ------

_JUNK = 80_000


@pytest.mark.parametrize("junk", ["<numFmt ", "<cellXfs>"])
def test_xlsx_styles_part_of_unclosed_tags_is_read(tmp_path: Path, junk: str) -> None:
    """The reviewer's crafted.xlsx: 80,000 unclosed tags after the styles burnt a minute of
    CPU until the watchdog stopped the read; the file reads, padded, at once. With only
    cellXfs never closed, no cell has a format: the numbers read as they are."""
    styles = _STYLES
    if junk == "<cellXfs>":
        start = styles.index("<cellXfs ")
        styles = styles[:start] + styles[styles.index("</cellXfs>") + 10 :]
    styles = styles.replace("</styleSheet>", "</styleSheet>" + junk * _JUNK)
    path = _xlsx(tmp_path / "crafted.xlsx", 3, styles)
    with open_sheet(path) as source:
        rows = [list(cells) for _, cells in source.iter_rows()]
    assert len(rows) == 4
    if junk == "<cellXfs>":
        assert int(rows[1][0]) == 2079460002
    else:
        assert rows[1][0] == "02079460002"


@pytest.mark.parametrize("junk", ["<number:number-style ", "<number:number-style>"])
def test_ods_styles_of_unclosed_tags_are_read(tmp_path: Path, junk: str) -> None:
    """As the xlsx's: data styles and cell styles never closed, after the real ones; the
    sheet reads, padded by its column's style, through the reader (a minute before)."""
    styles = (
        "<office:automatic-styles>"
        '<number:number-style style:name="N1"><number:number number:decimal-places="0"'
        ' number:min-integer-digits="10"/></number:number-style>'
        '<style:style style:name="ce1" style:family="table-cell" style:data-style-name="N1"/>'
        + junk * _JUNK
        + "</office:automatic-styles>"
    )
    row = "<table:table-row>{}</table:table-row>"
    body = [row.format(_string("Phone")), row.format(_float(351234568))]
    path = _ods(tmp_path / "crafted.ods", body, styles)
    with open_sheet(path) as source:
        rows = [list(cells) for _, cells in source.iter_rows()]
    assert rows[1][0] == "0351234568"


def test_ods_cell_styles_never_closed_are_read_once(tmp_path: Path) -> None:
    """A styles.xml ending in 80,000 "<style:style " (no ">" after them, so each was scanned
    to the end: a minute), read with content.xml's styles as the worker reads them first."""
    content = (
        "<office:document-content><office:automatic-styles>"
        '<number:number-style style:name="N1"><number:number number:decimal-places="0"'
        ' number:min-integer-digits="10"/></number:number-style>'
        '<style:style style:name="ce1" style:family="table-cell" style:data-style-name="N1"/>'
        "</office:automatic-styles><office:body>"
    )
    with zipfile.ZipFile(tmp_path / "crafted.ods", "w") as zf:
        zf.writestr("content.xml", content)
        zf.writestr("styles.xml", "<office:document-styles>" + "<style:style " * _JUNK)
    # In a child process: a regex holds the GIL, so a thread could not be timed out.
    script = (
        "import sys, zipfile; from app.core import sheet_worker; "
        "print(sheet_worker.ods_padded_styles(zipfile.ZipFile(sys.argv[1]))[0])"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "crafted.ods")],
        capture_output=True,
        text=True,
        timeout=20,  # the minute it took is far past this
        cwd=Path(sheet_worker.__file__).parents[2],
        check=True,
    )
    assert done.stdout.strip() == "{'ce1': 0}"
