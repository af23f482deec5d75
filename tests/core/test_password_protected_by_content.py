"""Black-box R3 #3: a password-protected workbook under another extension (an encrypted .ods
named .xlsx, an encrypted .xls named .csv) was refused as "damaged or incomplete … (the reader
said: Cannot detect file format)", where under its own name it was said to be
password-protected. Its content says so now whatever its name: an .ods whose manifest gives
encryption data, an .xls whose globals hold a FILEPASS record (its workbook stream in the
regular sectors or, when short, in the mini stream), as an encrypted xlsx's EncryptedPackage
already did."""

from __future__ import annotations

import shutil
import struct
import zipfile
from pathlib import Path

import pytest

from app.core.sheet_guard import FileKind, sniff_kind
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError
from tests.core.sheet_factory import CORPUS

FREE = 0xFFFFFFFF
END = 0xFFFFFFFE
FAT_SECTOR = 0xFFFFFFFD
SECTOR = 512
MINI = 64


def _entry(name: str, kind: int, start: int, size: int, child: int = FREE) -> bytes:
    encoded = (name + "\0").encode("utf-16-le")
    return (
        encoded.ljust(64, b"\0")
        + struct.pack("<HBB", len(encoded), kind, 1)
        + struct.pack("<III", FREE, FREE, child)
        + b"\0" * 36
        + struct.pack("<III", start, size, 0)
    )


def _compound(stream: bytes) -> bytes:
    """An OLE2 compound file holding one top stream, ``Workbook``: in regular sectors when it
    is 4,096 bytes or more, else in the mini stream, as LibreOffice writes a short one."""
    fat = [FAT_SECTOR, END]  # sector 0: the allocation table; sector 1: the directory
    body: list[bytes] = []
    mini_fat_start, mini_count = END, 0
    if len(stream) >= 4096:
        count = -(-len(stream) // SECTOR)
        first = len(fat)
        fat += [first + i + 1 for i in range(count - 1)] + [END]
        body.append(stream.ljust(count * SECTOR, b"\0"))
        root = _entry("Root Entry", 5, END, 0, child=1)
        book = _entry("Workbook", 2, first, len(stream))
    else:
        minis = -(-len(stream) // MINI)
        mini_table = [*range(1, minis), END]
        mini_fat_start, mini_count = len(fat), 1
        fat.append(END)
        body.append(struct.pack(f"<{len(mini_table)}I", *mini_table).ljust(SECTOR, b"\xff"))
        container = stream.ljust(minis * MINI, b"\0")
        count = -(-len(container) // SECTOR)
        first = len(fat)
        fat += [first + i + 1 for i in range(count - 1)] + [END]
        body.append(container.ljust(count * SECTOR, b"\0"))
        root = _entry("Root Entry", 5, first, len(container), child=1)
        book = _entry("Workbook", 2, 0, len(stream))
    header = (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
        + b"\0" * 16
        + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
        + b"\0" * 6
        + struct.pack("<IIIIIIIII", 0, 1, 1, 0, 4096, mini_fat_start, mini_count, END, 0)
        + struct.pack("<109I", 0, *([FREE] * 108))
    )
    assert len(header) == SECTOR
    fat_sector = struct.pack(f"<{len(fat)}I", *fat).ljust(SECTOR, b"\xff")
    directory = (root + book).ljust(SECTOR, b"\0")
    return header + fat_sector + directory + b"".join(body)


def _record(kind: int, data: bytes) -> bytes:
    return struct.pack("<HH", kind, len(data)) + data


BOF = _record(0x0809, struct.pack("<HHHH", 0x0600, 0x0005, 0x0DBB, 0x07CC) + b"\0" * 8)
FILEPASS = _record(0x002F, struct.pack("<HHH", 1, 1, 1) + b"\x11" * 48)
INTERFACEHDR = _record(0x00E1, b"\xb0\x04")


@pytest.mark.parametrize("padding", [0, 6000], ids=["mini stream", "regular sectors"])
@pytest.mark.parametrize("name", ["book.xls", "book.csv", "book.xlsx", "book.ods"])
def test_an_encrypted_xls_is_password_protected_by_any_name(
    tmp_path: Path, name: str, padding: int
) -> None:
    path = tmp_path / name
    path.write_bytes(_compound(BOF + FILEPASS + INTERFACEHDR + b"\0" * padding))
    kind = sniff_kind(path)
    assert (kind.workbook, kind.password) == ("xls", True)
    with pytest.raises(SheetError, match=rf"^{name} is password-protected; remove the password"):
        open_sheet(path)


@pytest.mark.parametrize("padding", [0, 6000], ids=["mini stream", "regular sectors"])
def test_an_xls_with_no_password_is_still_an_xls(tmp_path: Path, padding: int) -> None:
    path = tmp_path / "book.csv"
    path.write_bytes(_compound(BOF + INTERFACEHDR + b"\0" * padding))
    assert sniff_kind(path) == FileKind("ole2", "xls", "", password=False)


MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
    '<manifest:file-entry manifest:full-path="/" '
    'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"'
    ' manifest:size="1200">{encryption}</manifest:file-entry>'
    "</manifest:manifest>"
)
ENCRYPTION = (
    '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="AAAA">'
    '<manifest:algorithm manifest:algorithm-name="Blowfish CFB" '
    'manifest:initialisation-vector="AAAA"/></manifest:encryption-data>'
)


def _ods(path: Path, encrypted: bool) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("content.xml", b"\x93\x11" * 600)  # ciphertext, as saved with a password
        zf.writestr("META-INF/manifest.xml", MANIFEST.format(encryption=ENCRYPTION * encrypted))
    return path


@pytest.mark.parametrize("name", ["pw.ods", "pw.xlsx", "pw.csv", "pw.xls"])
def test_an_encrypted_ods_is_password_protected_by_any_name(tmp_path: Path, name: str) -> None:
    path = _ods(tmp_path / name, encrypted=True)
    kind = sniff_kind(path)
    assert (kind.workbook, kind.password) == ("ods", True)
    with pytest.raises(SheetError, match=rf"^{name} is password-protected; remove the password"):
        open_sheet(path)


def test_an_ods_with_no_encryption_data_is_still_an_ods(tmp_path: Path) -> None:
    kind = sniff_kind(_ods(tmp_path / "plain.xlsx", encrypted=False))
    assert kind == FileKind("zip", "ods", "", password=False)


@pytest.mark.parametrize(
    ("original", "named"),
    [
        ("pass_protected.ods", "pass_protected__ods.xlsx"),
        ("pass_protected.ods", "pass_protected__ods.csv"),
        ("issue_385.xls", "issue_385__xls.ods"),
        ("issue_385.xls", "issue_385__xls.csv"),
    ],
)
def test_the_corpus_files_renamed_say_so(tmp_path: Path, original: str, named: str) -> None:
    source = CORPUS / "calamine" / original
    if not source.is_file():
        pytest.skip("the shared corpus is not here")  # a checkout outside the workplace
    renamed = tmp_path / named
    shutil.copyfile(source, renamed)
    with pytest.raises(SheetError, match=rf"^{named} is password-protected; remove the password"):
        open_sheet(renamed)
