"""Checks a file must pass before a spreadsheet library is allowed to open it.

Zip-based workbooks (xlsx, xlsm, xlsb, ods) are inspected through their zip directory only:
sizes and compression ratios are declared there, so a zip bomb is refused before a single byte
is inflated. XML parts are refused if they declare a DTD, which is how "billion laughs" entity
bombs are built; no spreadsheet program writes one.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from app.core.sheet_types import SheetError

MAX_TOTAL_UNCOMPRESSED: Final = 1 << 30
MAX_ENTRIES: Final = 10_000
# Real sheet XML compresses 5-30:1; deflate tops out near 1030:1 on runs of one byte.
MAX_RATIO: Final = 200
RATIO_CHECK_ABOVE: Final = 8 << 20
XML_SCAN_BYTES: Final = 64 << 10

_OLE2_MAGIC: Final = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP_MAGIC: Final = b"PK\x03\x04"
_DTD = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_FIRST_ELEMENT = re.compile(rb"<[A-Za-z_]")
# Office files embed other documents there; the readers never open them.
_EMBEDDED_PREFIXES: Final = ("xl/embeddings/", "Object ", "ObjectReplacements/")


@dataclass(frozen=True, slots=True)
class FileKind:
    """What the first bytes say a file is, whatever its extension claims."""

    container: str  # "zip", "ole2", "text" or "empty"
    workbook: str  # "xlsx", "xlsb", "ods", "xls", "encrypted", "" (text / unknown)


def sniff_kind(path: Path) -> FileKind:
    """Identify the file by its magic bytes (extensions lie: ``report.csv`` may be an xlsx)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(8)
    except OSError as exc:
        raise SheetError(f"{path.name} cannot be opened: {exc.strerror or exc}.") from exc
    if not head:
        return FileKind("empty", "")
    if head.startswith(_ZIP_MAGIC) or head.startswith(b"PK\x05\x06"):
        return FileKind("zip", _zip_workbook_kind(path))
    if head == _OLE2_MAGIC:
        return FileKind("ole2", _ole2_workbook_kind(path))
    return FileKind("text", "")


def markup_kind(path: Path) -> str:
    """ "a web page (HTML)" or "an Excel 2003 XML spreadsheet" when ``path`` holds one, else
    "" (its first 2 KB are enough)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(2048)
    except OSError:
        return ""
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n").lower()
    if not text.startswith("<"):
        return ""
    if "urn:schemas-microsoft-com:office:spreadsheet" in text:
        return "an Excel 2003 XML spreadsheet"
    if "<html" in text or "<table" in text or "<!doctype html" in text:
        return "a web page (HTML)"
    return "an XML or HTML document"


def _zip_workbook_kind(path: Path) -> str:
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            if "mimetype" in names:
                mimetype = zf.read("mimetype")[:100]
                if b"opendocument.spreadsheet" in mimetype:
                    return "ods"
                return ""
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
        return ""
    if "xl/workbook.bin" in names:
        return "xlsb"
    if "xl/workbook.xml" in names:
        return "xlsx"
    # Some writers omit or rename parts; calamine follows the relationships, so let it decide.
    return "xlsx" if "[Content_Types].xml" in names else ""


def _ole2_workbook_kind(path: Path) -> str:
    # An encrypted xlsx is an OLE2 file holding EncryptionInfo + EncryptedPackage streams;
    # the stream names are stored in UTF-16 in the directory sectors.
    with path.open("rb") as fh:
        blob = fh.read(4 << 20)
    if "EncryptedPackage".encode("utf-16-le") in blob:
        return "encrypted"
    return "xls"


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
        raise SheetError(f"{name} is damaged or not a complete spreadsheet ({exc}).") from exc
    except NotImplementedError as exc:
        raise SheetError(f"{name} uses a compression method that is not supported.") from exc
    except OSError as exc:
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
    if _DTD.search(prolog):
        raise SheetError(
            f"{name} has a part ({info.filename}) that declares XML entities, which is how "
            "XML bombs are built and which no spreadsheet program writes; it was not opened."
        )
    if root is None and len(head) >= XML_SCAN_BYTES:
        raise SheetError(
            f"{name} has a part ({info.filename}) with no XML content in its first "
            f"{XML_SCAN_BYTES >> 10} KB; it is damaged or crafted, so it was not opened."
        )
