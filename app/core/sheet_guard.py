"""Checks a file must pass before a spreadsheet library is allowed to open it.

Zip-based workbooks (xlsx, xlsm, xlsb, ods) are inspected through their zip directory only:
sizes and compression ratios are declared there, so a zip bomb is refused before a single byte
is inflated. XML parts are refused if they declare a DTD, which is how "billion laughs" entity
bombs are built; no spreadsheet program writes one.

A workbook saved with a password is known by its content, whatever its name (calamine tells it
only of a file named as what it is): an xlsx's EncryptedPackage stream, an .xls's FILEPASS
record, an .ods's manifest giving encryption data (:func:`sniff_kind`: ``password``).

:func:`sniff_kind` also says what a file that is no spreadsheet is (``FileKind.other``: a PDF, a
Word document, an image, an archive), and :func:`markup_kind` what markup text under a
workbook's name is (a web page, Excel 2003 XML), so the reader refuses each in one sentence
naming it, whatever the file's name says; text that is JSON data is named so too, so it is not
read as a table of one column (a Google Sheets shortcut, which is JSON, as what it is), and
:func:`text_format_kind` names the old exchange formats (SYLK, DIF) a spreadsheet program
can save and a Gnumeric workbook's XML, whatever the file's name (a gzipped one, as Gnumeric
saves it, is named by :func:`sniff_kind` from its start), :func:`old_excel_kind` Excel's own
formats before Excel 5 (BIFF2-4).
:func:`damaged_sentence` is the one way a workbook that is damaged or cut short is refused,
by this module and by the reader alike.

:func:`stray_cell` finds, in an xlsx whose sheet was too big to read, the cell far beyond
its data that made it so (a keystroke in XFD1048576 after Ctrl+End), for the reader to
name; :func:`zip_spreadsheets` names the spreadsheets a zip archive holds.
"""

from __future__ import annotations

import contextlib
import errno
import heapq
import html
import json
import posixpath
import re
import struct
import zipfile
import zlib
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import IO, BinaryIO, Final

from app.core.sheet_types import SheetError
from app.core.sheet_worker import sheet_part, workbook_part

MAX_TOTAL_UNCOMPRESSED: Final = 1 << 30
MAX_ENTRIES: Final = 10_000
# Real sheet XML compresses 5-30:1; deflate tops out near 1030:1 on runs of one byte.
MAX_RATIO: Final = 200
RATIO_CHECK_ABOVE: Final = 8 << 20
XML_SCAN_BYTES: Final = 64 << 10
# JSON text is parsed whole up to this size; beyond it, its start must show it.
JSON_SCAN_BYTES: Final = 1 << 20

_OLE2_MAGIC: Final = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP_MAGIC: Final = b"PK\x03\x04"
_DTD = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
# A document type that only names an external DTD, with no internal subset ("[...]"), where
# entities are declared: LibreOffice writes one in every Basic macro part of an .ods
# (``<!DOCTYPE library:library PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN"
# "library.dtd">``), and no reader here fetches an external DTD.
_QUOTED = rb"""(?:"[^"<>]*"|'[^'<>]*')"""
_PLAIN_DOCTYPE = re.compile(
    rb"<!DOCTYPE\s+[^\s\[\]<>\"']+(?:\s+(?:PUBLIC\s+"
    + _QUOTED
    + rb"\s+"
    + _QUOTED
    + rb"|SYSTEM\s+"
    + _QUOTED
    + rb"))?\s*>"
)
_FIRST_ELEMENT = re.compile(rb"<[A-Za-z_]")
# Office files embed other documents there; the readers never open them.
_EMBEDDED_PREFIXES: Final = ("xl/embeddings/", "Object ", "ObjectReplacements/")


# What a file that is no spreadsheet is, as :attr:`FileKind.other` names it.
WORD: Final = "a Word document"
POWERPOINT: Final = "a PowerPoint presentation"
ZIP_ARCHIVE: Final = "a zip archive"
NUMBERS: Final = "an Apple Numbers spreadsheet"
GZIP: Final = "a gzip-compressed file"
# Kinds that hold other files: the spreadsheet may be inside.
ARCHIVES: Final = frozenset(
    {
        ZIP_ARCHIVE,
        GZIP,
        "a bzip2-compressed file",
        "an xz-compressed file",
        "a zstd-compressed file",
        "a 7-Zip archive",
        "a RAR archive",
    }
)

# Signatures at the start of a file (after a BOM or blank lines for the text ones).
_MAGIC: Final = (
    (b"%PDF-", "a PDF document"),
    (b"%!PS-Adobe", "a PostScript document"),
    (b"{\\rtf", "an RTF (rich text) document"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG image"),  # the header chunk comes first
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"\x1f\x8b\x08", GZIP),
    (b"\xfd7zXZ\x00", "an xz-compressed file"),
    (b"\x28\xb5\x2f\xfd", "a zstd-compressed file"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
)
_BZIP2 = re.compile(rb"BZh[1-9]1AY&SY")
JSON_DATA: Final = "a JSON data file"
# What Google Drive for desktop leaves on the computer for a Google Sheet: a few lines of JSON
# naming the sheet online ({"doc_id": …, "url": …}), not the sheet.
SHEETS_SHORTCUT: Final = "a Google Sheets shortcut"
_JSON_STRING = r'"(?:[^"\\\n]|\\.)*"'
# A start no CSV writer produces (a field holding a quote is itself quoted in CSV, so '{"' or
# '["' cannot begin one): an object's first key, or an array's first string and another item.
_JSON_START = re.compile(
    rf"\[?\s*\{{\s*{_JSON_STRING}\s*:"
    rf"|\[\s*(?:\[\s*)?{_JSON_STRING}\s*,\s*(?:\"|-?\d|\[|\{{|true\b|false\b|null\b)"
)
# An ISO media file (a phone's HEIC photo): its box type at byte 4, its brand after it.
_IMAGE_BRANDS: Final = (b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1", b"avif")


@dataclass(frozen=True, slots=True)
class FileKind:
    """What the first bytes say a file is, whatever its extension claims."""

    container: str  # "zip", "ole2", "text", "other" (``other`` says what) or "empty"
    workbook: str  # "xlsx", "xlsb", "ods", "xls", "encrypted", "" (text / unknown / other)
    # What a file that is no spreadsheet is ("a PDF document", "a Word document", "a PNG
    # image", ZIP_ARCHIVE…), "" when it may be one (or is a zip or OLE2 file not known).
    other: str = ""
    # Saved with a password to open it: an encrypted xlsx (its workbook "encrypted": what it
    # holds is not known), an .xls or an .ods.
    password: bool = False


def sniff_kind(path: Path) -> FileKind:
    """Identify the file by its magic bytes (extensions lie: ``report.csv`` may be an xlsx)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(64)
    except OSError as exc:
        raise SheetError(f"{path.name} cannot be opened: {exc.strerror or exc}.") from exc
    if not head:
        return FileKind("empty", "")
    if head.startswith(_ZIP_MAGIC) or head.startswith(b"PK\x05\x06"):
        workbook, other = _zip_workbook_kind(path)
        return FileKind("zip", workbook, other, workbook == "ods" and _ods_encrypted(path))
    if head.startswith(_OLE2_MAGIC):
        workbook, other, password = _ole2_workbook_kind(path)
        return FileKind("ole2", workbook, other, password)
    other = _other_kind(head)
    if other == GZIP:
        other = _gzip_kind(path)  # Gnumeric's own files are gzipped XML (black-box B10 #4)
    if other:
        return FileKind("other", "", other)
    if _is_json(path, head):
        return FileKind("other", "", SHEETS_SHORTCUT if _sheets_shortcut(path) else JSON_DATA)
    return FileKind("text", "")


def _other_kind(head: bytes) -> str:
    """What a file starting with ``head`` is when a signature says it is no spreadsheet."""
    # A PDF or RTF is text to a CSV reader: 'BT /F1 12 Tf' would be read as a header.
    start = head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    for magic, kind in _MAGIC:
        if start.startswith(magic) or head.startswith(magic):
            return kind
    if _BZIP2.match(head):
        return "a bzip2-compressed file"
    if head[4:8] == b"ftyp" and head[8:12] in _IMAGE_BRANDS:
        return "a HEIC image"
    return ""


def _is_json(path: Path, head: bytes) -> bool:
    """Whether the text file starting with ``head`` is JSON data (an export from a web app or
    an API), which a CSV reader would take for a table of one column.

    Only when it is clearly JSON: it parses as JSON (one document, or one object a line), or,
    when too long to parse here, it begins as no CSV does. A CSV whose first cell starts with
    '[' or '{' (``[Phone],Name``) is read as before."""
    if head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")[:1] not in (b"{", b"["):
        return False
    try:
        with path.open("rb") as fh:
            sample = fh.read(JSON_SCAN_BYTES + 1)
    except OSError:
        return False
    whole = len(sample) <= JSON_SCAN_BYTES
    text = sample[:JSON_SCAN_BYTES].decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    if whole:
        try:
            json.loads(text)
        except ValueError:
            pass
        else:
            return True
    if _JSON_START.match(text):
        return True
    # JSON Lines: one object a line (the last line of a cut sample may be partial).
    lines = [line for line in text.splitlines() if line.strip()]
    if not whole:
        lines = lines[:-1]
    if not lines:
        return False
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            return False
        if not isinstance(value, dict):
            return False
    return True


def _sheets_shortcut(path: Path) -> bool:
    """Whether the JSON in ``path`` is a Google Sheets shortcut: an object naming a Google
    document (``doc_id``, or a docs.google.com ``url``) that is a spreadsheet by its url, its
    resource id or the ``.gsheet`` name Google Drive gives it."""
    try:
        with path.open("rb") as fh:
            value = json.loads(fh.read(64 << 10).decode("utf-8", "replace").lstrip("\ufeff"))
    except (OSError, ValueError):
        return False
    if not isinstance(value, dict):
        return False
    url = str(value.get("url", ""))
    if "doc_id" not in value and "docs.google.com" not in url:
        return False
    resource = str(value.get("resource_id", ""))
    return (
        path.suffix.lower() == ".gsheet"
        or "/spreadsheets/" in url
        or resource.startswith("spreadsheet:")
    )


WEB_PAGE: Final = "a web page (HTML)"
EXCEL_2003_XML: Final = "an Excel 2003 XML spreadsheet"
XML_OR_HTML: Final = "an XML or HTML document"
FLAT_ODS: Final = "a flat OpenDocument spreadsheet (.fods)"
FLAT_OPENDOCUMENT: Final = "a flat OpenDocument document"
# LibreOffice writes some 2 KB of namespaces before a flat file's office:mimetype.
_MARKUP_SCAN_BYTES: Final = 8 << 10
# The root of a flat file (not <office:document-content>, a part of a zipped one).
_FLAT_OPENDOCUMENT = re.compile(r"<office:document[\s>]")


def markup_kind(path: Path) -> str:
    """What markup text ``path`` holds ("a web page (HTML)", "an Excel 2003 XML spreadsheet",
    "a flat OpenDocument spreadsheet (.fods)", …), else "" (its first 8 KB are enough)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(_MARKUP_SCAN_BYTES)
    except OSError:
        return ""
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n").lower()
    if not text.startswith("<"):
        return ""
    if _FLAT_OPENDOCUMENT.search(text):
        if "opendocument.spreadsheet" in text or "<office:spreadsheet" in text:
            return FLAT_ODS
        return FLAT_OPENDOCUMENT
    start = text[:2048]
    if "urn:schemas-microsoft-com:office:spreadsheet" in start:
        return EXCEL_2003_XML
    if "<html" in start or "<table" in start or "<!doctype html" in start:
        return WEB_PAGE
    return XML_OR_HTML


SYLK: Final = "a SYLK file (.slk)"
DIF: Final = "a DIF file (.dif, Data Interchange Format)"
GNUMERIC: Final = "a Gnumeric workbook (.gnumeric)"
_TEXT_FORMAT_SCAN_BYTES: Final = 512
# SYLK is asked of every text file, whatever its name (black-box B10 #7: a SYLK file named .csv
# was read as a semicolon CSV), and a semicolon CSV may begin "ID;Phone" or "ID;P": so a file is
# SYLK only when its first record is "ID;P…" and every other whole record of its start is one
# SYLK writers write (Excel, LibreOffice, Gnumeric), in a shape no row of phone numbers has.
_SYLK_ID = re.compile(rb"ID;P[^\r\n]*")
# F (format) fields: P0 (a picture), DG0G8 / FG0L (default / cell format), SM1 / SDM4 (style and
# font), W1 1 20 (widths), X1 / Y1 / C1 / R1 / M300, and E K G H (flags).
_SYLK_F_FIELD = (
    rb"(?:P\d+|[DF][A-Z$*%]\d*[A-Z-]?\d*|S[IDTLBRS]*(?:M\d+)?|W\d+ \d+ \d+|[CRXYMN]\d+|[EKGH])"
)
_SYLK_RECORD = re.compile(
    rb"P;[PEF][^\r\n]*"  # a number format or a font
    rb"|F(?:;" + _SYLK_F_FIELD + rb")+"
    rb"|C;[XY]\d+(?:;[^\r\n]*)?"  # a cell: C;Y1;X1;K"Phone", C;X2;K42
    rb"|C;K(?:\"|-?[\d.]|TRUE|FALSE|#)[^\r\n]*"
    rb"|B;[XY]\d+;[XY]\d+(?:;D[\d ]*)?"  # the sheet's bounds
    rb"|O(?:;[A-Z][\d .]*)+"  # options: O;L;D;V0;K47;G100 0.001
    rb"|N[NEU];[A-Z][^\r\n]*"  # names and links
    rb"|W;N\d+;[^\r\n]*"  # window
    rb"|E"  # the end
)
# A file whose name is no text table's (.slk, .dif) may be told by its start alone.
_SYLK_START = re.compile(rb"ID;P[^\r\n]*\r?\n(?:[BCFOPW]|N[NLU]|E\b)")
_DIF_START = re.compile(rb"TABLE\r?\n0,1\r?\n")
# DIF: a header of TABLE / 0,1 / "title" records, then another header item or the data.
_DIF = re.compile(
    rb'TABLE\r?\n0,1\r?\n"[^"\r\n]*"\r?\n'
    rb"(?:VECTORS|TUPLES|DATA|LABEL|COMMENT|SIZE|PERIODICITY|MAJORSTART|MINORSTART"
    rb"|TRUELENGTH|UNITS|DISPLAYUNITS)\r?\n"
)
# Gnumeric's own file, unpacked (Gnumeric gzips it): XML whose root is gnm:Workbook (gmr: in
# files of Gnumeric before 1.0).
_GNUMERIC_ROOT = re.compile(
    rb"<(?:gnm|gmr):Workbook\b|xmlns:(?:gnm|gmr)=\"http://www\.gnumeric\.org/"
)
_GNUMERIC_SCAN_BYTES: Final = 4 << 10
# At most this much of a gzip file is inflated to see whether Gnumeric wrote it (it may be a
# bomb: no more of it is read or inflated).
_GZIP_PEEK_BYTES: Final = 64 << 10


def text_format_kind(path: Path, *, by_start: bool = False) -> str:
    """ "a SYLK file (.slk)", "a DIF file (…)" or "a Gnumeric workbook (.gnumeric)" when
    ``path`` is text in one of those formats a spreadsheet program can save and the reader
    does not read (SYLK and DIF: old exchange formats; a Gnumeric workbook unpacked), else "".
    Asked of every text file, whatever its name: a SYLK file named .csv reads as a semicolon
    CSV of its records, so SYLK is told by every record of the file's start (a semicolon CSV
    may begin "ID;Phone"). ``by_start``: a file whose name is no text table's, told by its
    first records alone, as before (a writer's record not known here does not hide it)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(_GNUMERIC_SCAN_BYTES).removeprefix(b"\xef\xbb\xbf")
    except OSError:
        return ""
    if _is_sylk(head[:_TEXT_FORMAT_SCAN_BYTES], len(head) > _TEXT_FORMAT_SCAN_BYTES) or (
        by_start and _SYLK_START.match(head)
    ):
        return SYLK
    if _DIF.match(head) or (by_start and _DIF_START.match(head)):
        return DIF
    if _gnumeric_xml(head):
        return GNUMERIC
    return ""


def _is_sylk(head: bytes, cut: bool) -> bool:
    """Whether ``head`` (a file's first bytes; ``cut``: the file goes on) is SYLK: its first
    record is ID;P…, and every other whole record in it is a SYLK record (one at least)."""
    lines = head.splitlines()
    if cut:
        lines = lines[:-1]  # cut short: not a whole record
    lines = [line for line in lines if line]
    if len(lines) < 2 or not _SYLK_ID.fullmatch(lines[0]):
        return False
    return all(_SYLK_RECORD.fullmatch(line) for line in lines[1:])


def _gnumeric_xml(head: bytes) -> bool:
    """Whether ``head``, a file's first bytes, is the start of a Gnumeric workbook's XML."""
    start = head.lstrip(b" \t\r\n")
    return start.startswith(b"<") and _GNUMERIC_ROOT.search(start) is not None


def _gzip_kind(path: Path) -> str:
    """What a gzip-compressed file is: "a Gnumeric workbook (.gnumeric)" when what it holds
    begins as one (its start only is inflated, a bounded amount), else "a gzip-compressed
    file"."""
    try:
        with path.open("rb") as fh:
            packed = fh.read(_GZIP_PEEK_BYTES)
        start = zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(packed, _GNUMERIC_SCAN_BYTES)
    except (OSError, zlib.error):
        return GZIP
    return GNUMERIC if _gnumeric_xml(start.removeprefix(b"\xef\xbb\xbf")) else GZIP


# Excel's own formats before Excel 5 (1993): a bare BIFF stream, in no container, whose first
# record is a BOF (0x0009 in BIFF2, 0x0209 in BIFF3, 0x0409 in BIFF4: the version, then the
# sheet's kind). SheetJS still writes BIFF2 ("biff2"); calamine reads none of them.
_OLD_EXCEL: Final = {0x0009: "2.x", 0x0209: "3.0", 0x0409: "4.0"}
_OLD_EXCEL_SHEETS: Final = {0x0010: "worksheet", 0x0020: "chart", 0x0040: "macro sheet"}
_OLD_EXCEL_WORKBOOK: Final = 0x0100  # an Excel 4.0 workbook's BOF


def old_excel_kind(path: Path) -> str:
    """ "an Excel 2.x worksheet (BIFF2)" (3.0, 4.0; an Excel 4.0 workbook) when ``path`` is
    a file of one of Excel's formats before Excel 5, else ""."""
    try:
        with path.open("rb") as fh:
            head = fh.read(8)
    except OSError:
        return ""
    if len(head) < 8:
        return ""
    record, size, _version, sheet = struct.unpack("<4H", head)
    version = _OLD_EXCEL.get(record)
    if version is None or size not in (4, 6):
        return ""
    biff = f"BIFF{version[0]}"
    if record == 0x0409 and sheet == _OLD_EXCEL_WORKBOOK:
        return f"an Excel 4.0 workbook ({biff}W)"
    if sheet not in _OLD_EXCEL_SHEETS:
        return ""
    return f"an Excel {version} {_OLD_EXCEL_SHEETS[sheet]} ({biff})"


# OpenDocument files say what they are in their first part.
_OPENDOCUMENT: Final = (
    (b"opendocument.text", "an OpenDocument text document"),
    (b"opendocument.presentation", "an OpenDocument presentation"),
    (b"opendocument.graphics", "an OpenDocument drawing"),
    (b"application/epub", "an EPUB e-book"),
)
# Office Open XML packages other than a workbook keep their main parts in these folders.
_OOXML_FOLDERS: Final = (("word/", WORD), ("ppt/", POWERPOINT), ("visio/", "a Visio drawing"))


def _zip_workbook_kind(path: Path) -> tuple[str, str]:
    """(workbook kind, what it is when it is no workbook) of a zip file."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            if "mimetype" in names:
                mimetype = zf.read("mimetype")[:100]
                if b"opendocument.spreadsheet" in mimetype:
                    return "ods", ""
                for marker, kind in _OPENDOCUMENT:
                    if marker in mimetype:
                        return "", kind
                return "", ZIP_ARCHIVE
    except zipfile.BadZipFile as exc:
        # xlsx and ods are zip files whose directory is at the very end: a file that starts
        # like one but has no readable directory was cut short (an interrupted download,
        # a mail attachment limit, a copy to a full disk) or damaged.
        raise SheetError(
            f"{path.name} is incomplete or damaged: it begins like an xlsx or ods workbook "
            "but its end is missing or unreadable, as when a download or copy is cut short; "
            "get the file again from its sender."
        ) from exc
    except (OSError, EOFError, ValueError):
        return "", ""
    if "xl/workbook.bin" in names:
        return "xlsb", ""
    if "xl/workbook.xml" in names:
        return "xlsx", ""
    if not any(name.startswith("xl/") for name in names):
        # A Word or PowerPoint file is a package like an xlsx, with its parts elsewhere.
        for folder, kind in _OOXML_FOLDERS:
            if any(name.startswith(folder) for name in names):
                return "", kind
        # Numbers keeps its tables in Index/*.iwa (Index.zip inside the package before 2014).
        if "Index.zip" in names or any(
            name.startswith("Index/") and name.endswith(".iwa") for name in names
        ):
            return "", NUMBERS
    # Some writers omit or rename parts; calamine follows the relationships, so let it decide.
    if "[Content_Types].xml" in names:
        return "xlsx", ""
    return "", ZIP_ARCHIVE


# An encrypted .ods keeps its parts' key data in its manifest (LibreOffice writes it well under
# this; a manifest of thousands of pictures is longer, and those are not scanned past it).
_MANIFEST: Final = "META-INF/manifest.xml"
_MANIFEST_SCAN_BYTES: Final = 1 << 20


def _ods_encrypted(path: Path) -> bool:
    """Whether the .ods ``path`` is saved with a password: its manifest gives its parts'
    ``manifest:encryption-data`` (ODF 1.2's encrypted parts and 1.3's encrypted package
    alike). calamine says so only for a file named .ods; under another name it can tell
    nothing of it (black-box R3 #3)."""
    try:
        with zipfile.ZipFile(path) as zf:
            if _MANIFEST not in zf.namelist():
                return False
            with zf.open(_MANIFEST) as part:
                return b"encryption-data" in part.read(_MANIFEST_SCAN_BYTES)
    except (OSError, EOFError, ValueError, zipfile.BadZipFile, zlib.error):
        return False  # a damaged package: the reader says so


# The streams at the top of an OLE2 (compound) file say which program wrote it.
_OLE2_WORKBOOK_STREAMS: Final = frozenset({"workbook", "book"})
_OLE2_DOCUMENTS: Final = (
    ("worddocument", WORD),
    ("powerpoint document", POWERPOINT),
    ("visiodocument", "a Visio drawing"),
    ("__properties_version1.0", "an Outlook message"),
)
_ENDOFCHAIN: Final = 0xFFFFFFFE
_MAX_DIRECTORY_SECTORS: Final = 4096
_MAX_DIRECTORY_ENTRIES: Final = 10_000


def _ole2_workbook_kind(path: Path) -> tuple[str, str, bool]:
    """(workbook kind, what it is when it is no workbook, whether it is saved with a password)
    of an OLE2 compound file."""
    top: dict[str, bytes] | None = None
    encrypted_xls = False
    with path.open("rb") as fh:
        try:
            ole = _Ole2(fh)
            top = ole.top_entries()
        except (OSError, struct.error, ValueError):
            top = None
        book = next((top[n] for n in _OLE2_WORKBOOK_STREAMS if n in top), None) if top else None
        if book is not None:
            # Excel's own password ("Encrypt with Password") on an .xls: its globals say so in
            # a FILEPASS record. calamine tells it only of a file named .xls (black-box R3 #3).
            with contextlib.suppress(OSError, struct.error, ValueError):  # damaged: the reader says
                encrypted_xls = _filepass(ole.stream_head(book, 1024))
    if top is None:
        # Unreadable directory: as before, the stream names are stored in UTF-16 in it.
        with path.open("rb") as fh:
            blob = fh.read(4 << 20)
        if "EncryptedPackage".encode("utf-16-le") in blob:
            return "encrypted", "", True
        return "xls", "", False
    names = set(top)
    # An encrypted xlsx is an OLE2 file holding EncryptionInfo + EncryptedPackage streams.
    if "encryptedpackage" in names:
        return "encrypted", "", True
    if names & _OLE2_WORKBOOK_STREAMS:
        return "xls", "", encrypted_xls
    for stream, kind in _OLE2_DOCUMENTS:
        if stream in names:
            return "", kind, False
    return "xls", "", False  # no stream that says otherwise: the reader decides


# BIFF record types: the beginning of a substream, and the globals' password record.
_BIFF_BOF: Final = (0x0809, 0x0409, 0x0209, 0x0009)
_BIFF_FILEPASS: Final = 0x002F


def _filepass(head: bytes) -> bool:
    """Whether the start of an .xls's workbook stream says it is encrypted: a FILEPASS record
    among the first records after its BOF (Excel and LibreOffice write it right after; any
    record the globals cannot begin with ends the search)."""
    if len(head) < 4 or struct.unpack_from("<H", head, 0)[0] not in _BIFF_BOF:
        return False
    at = 0
    for _ in range(8):
        if at + 4 > len(head):
            return False
        kind, size = struct.unpack_from("<HH", head, at)
        if kind == _BIFF_FILEPASS:
            return True
        at += 4 + size
    return False


class _Ole2:
    """The directory and streams of an OLE2 (compound) file, read a sector at a time: only
    what is asked for is read, whatever the file's size. A damaged file raises ValueError
    (or struct.error) rather than being read past its end or round in a loop."""

    def __init__(self, fh: BinaryIO) -> None:
        self._fh = fh
        header = fh.read(512)
        if len(header) < 512:
            raise ValueError("no OLE2 header")
        shift, mini_shift = struct.unpack_from("<HH", header, 0x1E)
        if shift not in (9, 12):
            raise ValueError("an unknown sector size")
        self._size = 1 << shift
        self._mini = 1 << mini_shift
        self._per_sector = self._size // 4
        self._difat = list(struct.unpack_from("<109I", header, 0x4C))
        self._next_difat, self._difat_count = struct.unpack_from("<II", header, 0x44)
        self._directory = struct.unpack_from("<I", header, 0x30)[0]
        self._cutoff, self._mini_fat = struct.unpack_from("<II", header, 0x38)
        self._root: bytes = b""

    def _sector(self, number: int) -> bytes:
        self._fh.seek((number + 1) * self._size)
        data = self._fh.read(self._size)
        if len(data) < self._size:
            raise ValueError("sector beyond the end of the file")
        return data

    def _fat_entry(self, number: int) -> int:
        index = number // self._per_sector
        while index >= len(self._difat) and self._next_difat < _ENDOFCHAIN and self._difat_count:
            values = struct.unpack(f"<{self._per_sector}I", self._sector(self._next_difat))
            self._difat.extend(values[:-1])
            self._next_difat = values[-1]
            self._difat_count -= 1
        if index >= len(self._difat):
            raise ValueError("sector outside the allocation table")
        fat = self._sector(self._difat[index])
        return int(struct.unpack_from("<I", fat, (number % self._per_sector) * 4)[0])

    def _chain(self, start: int, count: int) -> Iterator[int]:
        """The first ``count`` sectors of the chain starting at ``start``."""
        current = start
        for _ in range(count):
            if current >= _ENDOFCHAIN:
                return
            yield current
            current = self._fat_entry(current)

    def top_entries(self) -> dict[str, bytes] | None:
        """The directory entries (128 bytes each) of the streams and storages at the top,
        by casefolded name, or None when the directory cannot be followed. Embedded
        documents sit in storages below the top (a Word file's chart keeps a Workbook
        stream there), so only the top says what the file is."""
        entries: list[bytes] = []
        chain = self._chain(self._directory, _MAX_DIRECTORY_SECTORS + 1)
        for count, number in enumerate(chain):
            if count == _MAX_DIRECTORY_SECTORS:
                return None
            data = self._sector(number)
            entries.extend(data[i : i + 128] for i in range(0, self._size, 128))
        if not entries or entries[0][0x42] != 5:  # the root storage comes first
            return None
        self._root = entries[0]
        top: dict[str, bytes] = {}
        pending = [struct.unpack_from("<I", entries[0], 0x4C)[0]]  # the root's child
        seen: set[int] = set()
        while pending:
            index = pending.pop()
            if index >= len(entries) or index in seen:
                continue  # no sibling (0xFFFFFFFF), or a loop in a damaged tree
            seen.add(index)
            if len(seen) > _MAX_DIRECTORY_ENTRIES:
                return None
            entry = entries[index]
            length = struct.unpack_from("<H", entry, 0x40)[0]
            name = entry[: max(min(length, 64) - 2, 0)].decode("utf-16-le", "replace")
            top.setdefault(name.casefold(), entry)
            left, right = struct.unpack_from("<II", entry, 0x44)
            pending += (left, right)  # the siblings: the same level; children are below it
        return top

    def stream_head(self, entry: bytes, limit: int) -> bytes:
        """The first ``limit`` bytes (fewer if it is shorter) of the stream ``entry`` names."""
        start, size = struct.unpack_from("<II", entry, 0x74)
        want = min(size, limit)
        if size >= self._cutoff:
            count = -(-want // self._size)
            return b"".join(self._sector(n) for n in self._chain(start, count))[:want]
        # A small stream lives in the mini stream (the root's), in 64-byte sectors whose
        # chain the mini allocation table gives.
        if not 0 < self._mini < self._size:
            raise ValueError("an unknown mini sector size")
        root_start = struct.unpack_from("<I", self._root, 0x74)[0]
        parts: list[bytes] = []
        current = start
        for _ in range(-(-want // self._mini)):
            if current >= _ENDOFCHAIN:
                break
            at = current * self._mini
            sector = next(iter(self._chain_at(root_start, at // self._size)), None)
            if sector is None:
                raise ValueError("a mini sector outside the mini stream")
            offset = at % self._size
            parts.append(self._sector(sector)[offset : offset + self._mini])
            current = self._mini_fat_entry(current)
        return b"".join(parts)[:want]

    def _chain_at(self, start: int, index: int) -> Iterator[int]:
        """The ``index``-th sector of the chain starting at ``start`` (none past its end)."""
        current = start
        for _ in range(index):
            if current >= _ENDOFCHAIN:
                return
            current = self._fat_entry(current)
        if current < _ENDOFCHAIN:
            yield current

    def _mini_fat_entry(self, number: int) -> int:
        index, slot = divmod(number, self._per_sector)
        sector = next(iter(self._chain_at(self._mini_fat, index)), None)
        if sector is None:
            raise ValueError("a mini sector outside the mini allocation table")
        return int(struct.unpack_from("<I", self._sector(sector), slot * 4)[0])


def damaged_sentence(name: str, note: str = "") -> str:
    """The one sentence refusing workbook ``name`` that is damaged or cut short, what to do
    about it first; ``note`` (technical: what the reader met, as "the reader said: …") trails
    in parentheses for whoever looks into it, the sentence making sense without it."""
    note = " ".join(note.split()).rstrip(".")
    tail = f" ({note})" if note else ""
    return (
        f"{name} is damaged or incomplete (cut short, or not saved completely): open it in "
        f"Excel or LibreOffice and save it again, or ask for a new copy{tail}."
    )


def check_zip(path: Path) -> None:
    """Refuse zip bombs and XML entity bombs; read only the directory and a few KB per part."""
    name = path.name
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_ENTRIES:
                raise SheetError(
                    f"{name} contains {len(infos):,} files inside; a spreadsheet has a few "
                    "dozen, so it was not opened."
                )
            total = 0
            for info in infos:
                total += info.file_size
                if info.flag_bits & 0x1:
                    raise SheetError(
                        f"{name} is password-protected; remove the password in the program "
                        "that made it and try again."
                    )
                _check_entry(name, info)
            if total > MAX_TOTAL_UNCOMPRESSED:
                raise SheetError(
                    f"{name} would expand to {total / (1 << 30):.1f} GB when opened (limit "
                    f"{MAX_TOTAL_UNCOMPRESSED >> 30} GB); it looks like a zip bomb, so it was "
                    "not opened."
                )
            for info in infos:
                if info.filename.endswith((".xml", ".rels")) and info.file_size > 0:
                    _check_xml_prolog(zf, info, name)
    except SheetError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as exc:
        raise SheetError(damaged_sentence(name, f"the reader said: {exc}")) from exc
    except NotImplementedError as exc:
        raise SheetError(f"{name} uses a compression method that is not supported.") from exc
    except OSError as exc:
        if exc.errno == errno.EINVAL:
            # A damaged directory sends a seek before the start of the file; the system's
            # "Invalid argument" is about that seek, not about the disk.
            raise SheetError(
                damaged_sentence(name, "its list of contents points outside the file")
            ) from exc
        raise SheetError(f"{name} cannot be read: {exc.strerror or exc}.") from exc


def _check_entry(name: str, info: zipfile.ZipInfo) -> None:
    inner = info.filename
    ratio = info.file_size / max(info.compress_size, 1)
    if info.file_size > RATIO_CHECK_ABOVE and ratio > MAX_RATIO:
        raise SheetError(
            f"{name} has a part ({inner}) that expands {ratio:,.0f} times when opened; it "
            "looks like a zip bomb, so it was not opened."
        )
    if inner.lower().endswith((".zip", ".jar", ".gz")) and not inner.startswith(_EMBEDDED_PREFIXES):
        raise SheetError(
            f"{name} contains another archive ({inner}); that is not a spreadsheet layout, so "
            "it was not opened."
        )


def _check_xml_prolog(zf: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> None:
    with zf.open(info) as part:
        head = part.read(XML_SCAN_BYTES)
    root = _FIRST_ELEMENT.search(head)
    prolog = head if root is None else head[: root.start()]
    if _DTD.search(_PLAIN_DOCTYPE.sub(b"", prolog, count=1)):
        raise SheetError(
            f"{name} has a part ({info.filename}) that declares XML entities, which is how "
            "XML bombs are built and which no spreadsheet program writes; it was not opened."
        )
    if root is None and len(head) >= XML_SCAN_BYTES:
        raise SheetError(
            f"{name} has a part ({info.filename}) with no XML content in its first "
            f"{XML_SCAN_BYTES >> 10} KB; it is damaged or crafted, so it was not opened."
        )


# Shared strings: calamine copies a cell's text out of the table for every cell naming it, so
# one 5 MB string named by 200,000 cells is a terabyte to build from a file of a few KB.
_SHARED_STRINGS: Final = "xl/sharedstrings.xml"
_SI_START = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?si[\s/>]")
_SHARED_CELL = re.compile(
    rb"<(?:[A-Za-z_][\w.-]*:)?c\b[^<>]*?\bt\s*=\s*[\"']s[\"'][^<>]*>"
    rb"\s*<(?:[A-Za-z_][\w.-]*:)?v\b[^<>]*>\s*([0-9]{1,10})\s*<"
)
_SCAN_CHUNK: Final = 1 << 20
# The fewest bytes of sheet XML one cell naming a shared string takes: <c t="s"><v>0</v></c>.
_SHARED_CELL_BYTES: Final = 21


def check_shared_text(path: Path, limit: int) -> None:
    """Refuse an xlsx whose sheet names shared strings so often that the text calamine would
    build for it (each string copied once per cell naming it) passes ``limit`` bytes.

    Each string's size is taken from its XML, from its <si> to the next (at least its text's
    size). A real workbook costs one pass over the strings table that finds every string
    shorter than the limit over the most cells its largest part could hold (some 1 KB for a
    sheet of 100,000 rows) a few thousand byte searches apart, no string parsed; only a
    workbook with a longer one has each string's size taken and its sheets' cells counted,
    a sheet at a time, stopping as soon as the limit is passed. Text split by markup inside
    a <t> (an empty element, which calamine skips) is not joined here: a file crafted so is
    left to the reader's memory cap."""
    name = path.name
    try:
        with zipfile.ZipFile(path) as zf:
            member = next(
                (n for n in zf.namelist() if n.replace("\\", "/").lower() == _SHARED_STRINGS),
                None,
            )
            if member is None:
                return
            parts = [i for i in zf.infolist() if i.filename.lower().endswith(".xml")]
            most_cells = max(i.file_size for i in parts) // _SHARED_CELL_BYTES
            if _strings_within(zf, member, limit // max(most_cells, 1)):
                return
            sizes = _shared_string_sizes(zf, member)
            if not sizes:
                return
            biggest = max(sizes)
            if biggest * most_cells <= limit:
                return
            for sheet, part in _sheet_parts(zf):
                text, cells = _shared_text(zf, part, sizes, limit)
                if text > limit:
                    where = f"its sheet {sheet!r}" if sheet else "its sheet"
                    raise SheetError(
                        f"{name} was not opened: {where} repeats long texts of its "
                        f"shared-strings table (the longest {_size(biggest)}) in at least "
                        f"{cells:,} cells, so reading it would build more than {_size(limit)} "
                        "of text, more than the reader may use, as only a crafted or damaged "
                        "file does; ask its sender for a new copy or a CSV."
                    )
    except SheetError:
        raise
    except (OSError, zipfile.BadZipFile, EOFError, ValueError, KeyError, zlib.error):
        return  # the reader itself says what is wrong with a file that cannot be scanned


def _size(count: int) -> str:
    """``count`` bytes in words: "5.0 MB", "1.0 GB"."""
    if count >= 1 << 30:
        return f"{count / (1 << 30):.1f} GB"
    return f"{count / (1 << 20):.1f} MB"


def _strings_within(zf: zipfile.ZipFile, member: str, longest: int) -> bool:
    """Whether every <si> of the shared-strings part (and its head before the first) is at
    most ``longest`` bytes: from each one, the last "<si" within ``longest`` bytes is the
    next place to look from, so a part of dense short strings takes a search per ``longest``
    bytes, not one per string. Only that far of the part is held at a time."""
    if longest < 64:
        return False  # a search every few bytes: count each string instead
    buf = b""
    with zf.open(member) as fh:
        while chunk := fh.read(_SCAN_CHUNK):
            buf += chunk
            at = 0  # the last "<si" found (the part's start at first)
            while len(buf) - at > longest + 2:
                found = buf.rfind(b"<si", at + 1, at + longest + 3)
                if found < 0:
                    return False
                at = found
            buf = buf[at:]
    return len(buf) <= longest + 2


def _shared_string_sizes(zf: zipfile.ZipFile, member: str) -> array[int]:
    """The size in bytes of each <si> of the shared-strings part, in order (from its start
    tag to the next one's, so at least the size of its text), read a chunk at a time."""
    starts = array("q")
    last = -1
    offset = 0  # where in the part ``buf`` starts
    tail = b""
    with zf.open(member) as fh:
        while chunk := fh.read(_SCAN_CHUNK):
            buf = tail + chunk
            for match in _SI_START.finditer(buf):
                at = offset + match.start()
                if at > last:  # not one already found in the previous chunk's tail
                    starts.append(at)
                    last = at
            tail = buf[-64:]
            offset += len(buf) - len(tail)
    end = offset + len(tail)
    sizes = array("q", (b - a for a, b in pairwise(starts)))
    if starts:
        sizes.append(end - starts[-1])
    return sizes


def _sheet_parts(zf: zipfile.ZipFile) -> Iterator[tuple[str, str]]:
    """(sheet name, zip member) of each worksheet of an xlsx, in the workbook's order (the
    name "" when the workbook has one sheet)."""
    workbook = workbook_part(zf)  # wherever the package puts it (black-box B1)
    if workbook is None:
        return
    sheets = [
        html.unescape(m.group(1).decode("utf-8", "replace"))
        for tag in _WORKBOOK_SHEET.finditer(zf.read(workbook))
        if (m := _SHEET_NAME.search(tag.group(1)))
    ]
    for sheet in sheets:
        part = sheet_part(zf, sheet)
        if part is not None:
            yield (sheet if len(sheets) > 1 else ""), part


def _shared_text(zf: zipfile.ZipFile, part: str, sizes: array[int], limit: int) -> tuple[int, int]:
    """(bytes of shared-string text, cells naming a shared string) of sheet part ``part``,
    counted until the text passes ``limit``."""
    text = cells = 0
    count = len(sizes)
    for buf in _whole_rows(zf, part):
        for match in _SHARED_CELL.finditer(buf):
            index = int(match.group(1))
            if index < count:
                text += sizes[index]
                cells += 1
        if text > limit:
            break
    return text, cells


# What a zip archive may hold that is read, by name.
_READ_SUFFIXES: Final = (
    ".xlsx",
    ".xlsm",
    ".xlsb",
    ".xls",
    ".ods",
    ".xltx",
    ".xltm",
    ".csv",
    ".tsv",
    ".txt",
    ".tab",
)


def zip_spreadsheets(path: Path) -> list[str]:
    """The names (the file names, without their folders) of the spreadsheets and text tables
    zip archive ``path`` holds, in its order; [] when it holds none or cannot be listed. A
    Mac's ``__MACOSX/`` copies and hidden files are left out."""
    try:
        with zipfile.ZipFile(path) as zf:
            members = zf.namelist()
    except (OSError, zipfile.BadZipFile, EOFError, ValueError):
        return []
    found: list[str] = []
    for member in members[:MAX_ENTRIES]:
        name = posixpath.basename(member)
        if member.startswith("__MACOSX/") or not name or name.startswith((".", "~$")):
            continue
        if name.lower().endswith(_READ_SUFFIXES) and name not in found:
            found.append(name)
    return found


@dataclass(frozen=True, slots=True)
class StrayCell:
    """Cells far beyond a sheet's data that make calamine's grid of it too big to hold."""

    sheet: str
    cells: tuple[str, ...]  # a few of them ("XFD1048576"), farthest first
    more: bool  # there are more than ``cells`` names
    data: str  # where the rest is ("A1:C40")
    rows: int  # the grid's size with them
    columns: int


# A grid this big (calamine keeps ~32 bytes a cell) does not fit under the reader's cap; one
# ten times smaller without the stray cells is what the sheet is meant to be.
_GRID_TOO_BIG: Final = 8_000_000
_STRAY_SCAN_BYTES: Final = 256 << 20
_STRAY_CHUNK: Final = 1 << 20
_STRAY_NAMED: Final = 3
_STRAY_KEEP: Final = 8
# A value beyond a gap of more than ten times the data before it (and at least this many rows
# or columns) is far from it; at most this many rows or columns of such values.
_STRAY_MIN_GAP: Final = (1000, 50)
_STRAY_MAX: Final = 100
_WORKBOOK_SHEET = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?sheet\b([^>]*)>")
_SHEET_NAME = re.compile(rb'\bname="([^"]*)"')
_CELL = re.compile(
    rb"<(?:[A-Za-z_][\w.-]*:)?c\b([^>]*?)(/>|>(.*?)</(?:[A-Za-z_][\w.-]*:)?c>)", re.DOTALL
)
_CELL_REF = re.compile(rb'\br="\$?([A-Z]{1,3})\$?([0-9]{1,7})"')
_CELL_VALUE = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(?:v|is)\b")


def column_letters(index: int) -> str:
    """1-based column ``index`` as Excel names it (1 → A, 16384 → XFD)."""
    letters = ""
    while index > 0:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def stray_cell(path: Path, grid: int = _GRID_TOO_BIG) -> StrayCell | None:
    """The cells far beyond the data of an xlsx's sheet that make the sheet too big to read
    (its grid of rows by columns, counted from the first cell with a value to the last, of
    at least ``grid`` cells: a lower one finds a stray value far below the data of a sheet
    that is read, as a million blank rows), or None when no sheet has such cells or the file
    cannot be scanned. A cell holding nothing (a style only) is no cell to calamine, so it
    does not count; an empty text does. Of several such sheets, the one with the biggest
    grid."""
    try:
        with zipfile.ZipFile(path) as zf:
            budget = _STRAY_SCAN_BYTES
            found: StrayCell | None = None
            for sheet, part in _sheet_parts(zf):
                extent = _Extent()
                for buf in _whole_rows(zf, part):
                    budget -= len(buf)
                    if budget < 0:
                        return found
                    extent.add(buf)
                stray = extent.stray(sheet, grid)
                if stray is not None and (
                    found is None or stray.rows * stray.columns > found.rows * found.columns
                ):
                    found = stray
            return found
    except (OSError, zipfile.BadZipFile, EOFError, ValueError, KeyError, zlib.error):
        return None


def _whole_rows(zf: zipfile.ZipFile, part: str) -> Iterator[bytes]:
    """Part ``part`` inflated a chunk at a time, each cut after a row's end so that no cell
    is split (a row longer than 64 chunks, crafted, is cut anyway)."""
    tail = b""
    with zf.open(part) as fh:
        while chunk := fh.read(_STRAY_CHUNK):
            buf = tail + chunk
            cut = buf.rfind(b"row>") + 4
            if cut <= 4 and len(buf) < 64 * _STRAY_CHUNK:
                tail = buf
                continue
            if cut <= 4:
                cut = len(buf)
            tail = buf[cut:]
            yield buf[:cut]
    if tail:
        yield tail


class _Extent:
    """The rows and columns of a sheet's cells with a value, and its farthest cells."""

    def __init__(self) -> None:
        self.rows: set[int] = set()
        self.columns: set[int] = set()
        # The farthest cells down and to the right: (row, column) and (column, row) heaps.
        self._down: list[tuple[int, int]] = []
        self._right: list[tuple[int, int]] = []

    def add(self, buf: bytes) -> None:
        for cell in _CELL.finditer(buf):
            if cell.group(2) == b"/>" or not _CELL_VALUE.search(cell.group(3)):
                continue
            ref = _CELL_REF.search(cell.group(1))
            if ref is None:
                continue
            column = 0
            for ch in ref.group(1):
                column = column * 26 + ch - 64
            row = int(ref.group(2))
            self.rows.add(row)
            self.columns.add(column)
            for heap, item in ((self._down, (row, column)), (self._right, (column, row))):
                if len(heap) < _STRAY_KEEP:
                    heapq.heappush(heap, item)
                elif item > heap[0]:
                    heapq.heapreplace(heap, item)

    def stray(self, sheet: str, grid: int) -> StrayCell | None:
        if not self.rows:
            return None
        rows, columns = sorted(self.rows), sorted(self.columns)
        height, width = rows[-1] - rows[0] + 1, columns[-1] - columns[0] + 1
        if height * width < grid:
            return None
        last_row = _data_end(rows, _STRAY_MIN_GAP[0])
        last_column = _data_end(columns, _STRAY_MIN_GAP[1])
        if (last_row - rows[0] + 1) * (last_column - columns[0] + 1) * 10 > height * width:
            return None  # the grid is big without the far cells too
        far = {(r, c) for r, c in self._down if r > last_row or c > last_column}
        far |= {(r, c) for c, r in self._right if r > last_row or c > last_column}
        if not far:
            return None
        ordered = sorted(far, key=lambda cell: (-cell[0] * cell[1], -cell[0], -cell[1]))
        shown = tuple(f"{column_letters(c)}{r}" for r, c in ordered[:_STRAY_NAMED])
        # Rows or columns beyond the data that the farthest cells kept here do not account for.
        beyond = max(sum(r > last_row for r in rows), sum(c > last_column for c in columns))
        many = len(ordered) > _STRAY_NAMED or beyond > len(ordered)
        data = f"{column_letters(columns[0])}{rows[0]}:{column_letters(last_column)}{last_row}"
        return StrayCell(sheet, shown, many, data, height, width)


def _data_end(values: list[int], min_gap: int) -> int:
    """The last of sorted ``values`` before a gap far bigger than the span before it, when at
    most a few values lie beyond it; else the last value."""
    for index in range(len(values) - 1):
        gap = values[index + 1] - values[index]
        span = values[index] - values[0] + 1
        if gap > max(min_gap, 10 * span) and len(values) - index - 1 <= _STRAY_MAX:
            return values[index]
    return values[-1]


@dataclass(frozen=True, slots=True)
class RowsPast:
    """The rows holding a value that an .ods's sheet has after the last row read."""

    last: int  # the last row holding a value, as the file numbers its rows
    count: int  # how many rows holding a value come after the last row read


# An .ods row: its attributes, and its cells unless it closes itself. LibreOffice always
# writes the table namespace as "table:"; a file writing another prefix is not scanned.
_ODS_ROW = re.compile(rb"<table:table-row\b([^<>]*?)(?:/>|>(.*?)</table:table-row>)", re.DOTALL)
_ODS_ROW_OPEN: Final = b"<table:table-row"
_ODS_REPEATED = re.compile(rb'table:number-rows-repeated="(\d{1,18})"')
_ODS_TABLE = re.compile(rb'<table:table\b[^<>]*?\btable:name="([^"]*)"[^<>]*>')
_ODS_TABLE_END: Final = b"</table:table>"
_ODS_ROW_MAX: Final = 64 << 20  # a row's XML longer than this (crafted) ends the scan
# calamine reads a cell's value only when the cell gives its type.
_ODS_VALUE: Final = b"office:value-type="


def ods_rows_past(path: Path, sheet: str, limit: int) -> RowsPast | None:
    """The rows holding a value that sheet ``sheet`` of the .ods ``path`` has after row
    ``limit``, the last calamine reads of a sheet (a row repeated two million times reads as
    its first 1,048,576), each row element counted as many times as it is repeated; None when
    it has none or its content cannot be scanned. Asked only of a sheet read to that row."""
    try:
        with zipfile.ZipFile(path) as zf, zf.open("content.xml") as fh:
            return _rows_past(fh, sheet, limit)
    except (OSError, zipfile.BadZipFile, EOFError, ValueError, KeyError, zlib.error):
        return None


def _rows_past(fh: IO[bytes], sheet: str, limit: int) -> RowsPast | None:
    row = 0  # the rows of the sheet counted so far
    last = count = 0
    inside = False
    tail = b""
    while True:
        chunk = fh.read(_SCAN_CHUNK)
        buf = tail + chunk
        if not inside:
            table = next(
                (t for t in _ODS_TABLE.finditer(buf) if html.unescape(t[1].decode()) == sheet),
                None,
            )
            if table is None:
                if not chunk:
                    return None
                tail = buf[-4096:]  # a table tag cut by the chunk's end
                continue
            inside, buf = True, buf[table.end() :]
        end = buf.find(_ODS_TABLE_END)
        cut = len(buf) if end >= 0 or not chunk else buf.rfind(_ODS_ROW_OPEN)
        if cut < 0:
            cut = 0
        for match in _ODS_ROW.finditer(buf, 0, end if end >= 0 else cut):
            repeated = _ODS_REPEATED.search(match[1])
            span = int(repeated[1]) if repeated else 1
            first, row = row + 1, row + span
            if match[2] and _ODS_VALUE in match[2] and row > limit:
                last = row
                count += row - max(first - 1, limit)
        if end >= 0 or not chunk:
            return RowsPast(last, count) if count else None
        tail = buf[cut:]
        if len(tail) > _ODS_ROW_MAX:
            return None
