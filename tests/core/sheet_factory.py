"""Writers of test spreadsheets of many shapes (xlsx via openpyxl or raw zip parts, CSV)."""

from __future__ import annotations

import csv
import io
import struct
import zipfile
import zlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import openpyxl

CORPUS = Path(__file__).parents[2].parent / "shared" / "corpus"

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    "{extra}</Types>"
)
_SST_TYPE = (
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
)
_ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
_WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/worksheet" Target="worksheets/sheet1.xml"/>{extra}</Relationships>'
)
_SST_REL = (
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/sharedStrings" Target="sharedStrings.xml"/>'
)
SHEET_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
)


def write_xlsx(
    path: Path,
    rows: Iterable[Sequence[object]],
    *,
    title: str = "Sheet1",
    more_sheets: dict[str, list[list[object]]] | None = None,
    merged: Sequence[str] = (),
    hidden_first: list[list[object]] | None = None,
) -> Path:
    """An xlsx written by openpyxl: ``rows`` on the first (or second, after a hidden) sheet."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    if hidden_first is not None:
        ws.title = "Hidden"
        for row in hidden_first:
            ws.append(row)
        ws.sheet_state = "hidden"
        ws = wb.create_sheet(title)
    else:
        ws.title = title
    for row in rows:
        ws.append(list(row))
    for cell_range in merged:
        ws.merge_cells(cell_range)
    for name, sheet_rows in (more_sheets or {}).items():
        extra = wb.create_sheet(name)
        for row in sheet_rows:
            extra.append(row)
    wb.save(path)
    return path


def write_sheets(path: Path, sheets: Mapping[str, Sequence[Sequence[object]]]) -> Path:
    """An xlsx written by openpyxl holding ``sheets`` (name → rows), in that order."""
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    wb.remove(first)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(list(row))
    wb.save(path)
    return path


def write_raw_xlsx(
    path: Path, sheet_xml: str | bytes, shared_strings: str | bytes | None = None
) -> Path:
    """A minimal xlsx assembled part by part, for shapes openpyxl will not write."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT_TYPES.format(extra=_SST_TYPE))
        zf.writestr("_rels/.rels", _ROOT_RELS)
        zf.writestr("xl/workbook.xml", _WORKBOOK)
        extra = _SST_REL if shared_strings is not None else ""
        zf.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS.format(extra=extra))
        zf.writestr("xl/worksheets/sheet1.xml", sheet_xml)
        if shared_strings is not None:
            zf.writestr("xl/sharedStrings.xml", shared_strings)
    return path


def cell(ref: str, value: object) -> str:
    if isinstance(value, str):
        return f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>'
    return f'<c r="{ref}"><v>{value}</v></c>'


def huge_dimension_xlsx(path: Path) -> Path:
    """Declares A1:XFD1048576 but holds a header and three numbers."""
    body = "".join(
        f'<row r="{r}">{cell(f"A{r}", v)}</row>'
        for r, v in enumerate(["Phone", 2025550123, 2025550124, 2025550125], 1)
    )
    xml = f'{SHEET_HEAD}<dimension ref="A1:XFD1048576"/><sheetData>{body}</sheetData></worksheet>'
    return write_raw_xlsx(path, xml)


def sparse_xlsx(path: Path) -> Path:
    """Two cells at A1 and XFD1048576: a dense grid of them would need hundreds of GB."""
    xml = (
        f'{SHEET_HEAD}<sheetData><row r="1">{cell("A1", 1)}</row>'
        f'<row r="1048576">{cell("XFD1048576", 2)}</row></sheetData></worksheet>'
    )
    return write_raw_xlsx(path, xml)


def xml_bomb_xlsx(path: Path) -> Path:
    """Billion laughs in sharedStrings.xml."""
    entities = '<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'
        for i in range(1, 10)
    )
    sst = (
        f'<?xml version="1.0"?><!DOCTYPE sst [{entities}]>'
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" '
        'uniqueCount="1"><si><t>&lol9;</t></si></sst>'
    )
    xml = f'{SHEET_HEAD}<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData>'
    return write_raw_xlsx(path, xml + "</worksheet>", shared_strings=sst)


def zip_bomb_xlsx(path: Path, gib: int = 2) -> Path:
    """A zip bomb: an xlsx whose sheet part inflates to ``gib`` GiB of zeros (about 2 MB on disk).

    Built from one deflate block of 16 MiB of zeros, flushed to a byte boundary and repeated, so
    it takes milliseconds to write. Its CRC is left at 0: a reader that gets far enough to check
    it has already lost.
    """
    body = io.BytesIO()
    with zipfile.ZipFile(body, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT_TYPES.format(extra=""))
        zf.writestr("_rels/.rels", _ROOT_RELS)
        zf.writestr("xl/workbook.xml", _WORKBOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS.format(extra=""))
    prefix = body.getvalue()
    block_size = 16 << 20
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = compressor.compress(b"\0" * block_size) + compressor.flush(zlib.Z_FULL_FLUSH)
    count = gib * (1 << 30) // block_size
    data = block * count + b"\x03\x00"  # an empty final fixed-Huffman block ends the stream
    size = block_size * count
    name = b"xl/worksheets/sheet1.xml"
    out = io.BytesIO()
    central = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(prefix)) as zf:
        infos = zf.infolist()
        for info in infos:
            raw = zf.read(info)
            packed = zlib.compressobj(6, zlib.DEFLATED, -15)
            comp = packed.compress(raw) + packed.flush()
            _entry(out, central, info.filename.encode(), comp, len(raw), zlib.crc32(raw))
    _entry(out, central, name, data, size, 0)
    cd_offset = out.tell()
    out.write(central.getvalue())
    count_entries = len(infos) + 1
    out.write(
        struct.pack(
            "<IHHHHIIH",
            0x06054B50,
            0,
            0,
            count_entries,
            count_entries,
            len(central.getvalue()),
            cd_offset,
            0,
        )
    )
    path.write_bytes(out.getvalue())
    return path


def _entry(
    out: io.BytesIO, central: io.BytesIO, name: bytes, data: bytes, size: int, crc: int
) -> None:
    offset = out.tell()
    out.write(
        struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(data), size, len(name), 0)
    )
    out.write(name)
    out.write(data)
    central.write(
        struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            20,
            20,
            0,
            8,
            0,
            0,
            crc,
            len(data),
            size,
            len(name),
            0,
            0,
            0,
            0,
            0,
            offset,
        )
    )
    central.write(name)


def ratio_bomb_xlsx(path: Path) -> Path:
    """A smaller bomb: 64 MiB of spaces in one part, far beyond any real compression ratio."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT_TYPES.format(extra=""))
        zf.writestr("_rels/.rels", _ROOT_RELS)
        zf.writestr("xl/workbook.xml", _WORKBOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS.format(extra=""))
        zf.writestr("xl/worksheets/sheet1.xml", SHEET_HEAD + " " * (64 << 20) + "</worksheet>")
    return path


def fake_encrypted_ole2(path: Path) -> Path:
    """The shape of an Excel file saved with a password: OLE2 holding an EncryptedPackage."""
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504
    directory = "EncryptedPackage".encode("utf-16-le") + b"\0" * 64
    path.write_bytes(header + directory + b"\0" * 1024)
    return path


def truncated_copy(source: Path, path: Path, keep: float = 0.5) -> Path:
    data = source.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    return path


def write_csv(
    path: Path,
    rows: Iterable[Sequence[object]],
    *,
    encoding: str = "utf-8",
    delimiter: str = ",",
    lineterminator: str = "\r\n",
) -> Path:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=lineterminator)
    for row in rows:
        writer.writerow(row)
    path.write_bytes(buffer.getvalue().encode(encoding))
    return path
