"""Black-box R3 #4: a tiny CSV with a few NUL bytes among its text (nul.csv, 89 bytes: a NUL in
a phone cell, one in a reason, a line of three NULs) was refused as binary data, the five NULs
being more than 5 % of its bytes, though a stray NUL in a text file makes its phone cell
invalid and is left out of a reason. NULs are counted apart from the other control
characters now; files binary from their start are still refused."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_csv import CsvSource, binary_start
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError

NUL_CSV = (
    b"Phone,Reason\n"
    b"3035552000,ok\n"
    b"30355\x0052001,nul in phone\n"
    b"3035552002,re\x00ason\n"
    b"\x00\x00\x00\n"
    b"3035552003,ok\n"
)


def test_the_tiny_file_is_read_and_its_damaged_rows_named(tmp_path: Path) -> None:
    assert len(NUL_CSV) == 89
    assert not binary_start(NUL_CSV)
    path = tmp_path / "nul.csv"
    path.write_bytes(NUL_CSV)
    with open_sheet(path) as source:
        rows = list(source.iter_rows())
    assert rows[2] == (3, ["30355\x0052001", "nul in phone"])
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        by_row = {r.row_number: r for r in store.rows()}
    assert by_row[3].outcome == "invalid"
    assert "holds a NUL character" in by_row[3].message
    assert by_row[4].reason == "reason"
    assert "NUL character" in by_row[4].message
    assert by_row[5].outcome == "invalid"
    assert by_row[2].outcome == by_row[6].outcome == ""
    assert summary.valid == 3


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + bytes(range(i, i + 48)) for i in range(16))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


ELF = b"\x7fELF\x02\x01\x01\x00" + bytes(8) + b"\x02\x00\x3e\x00" + bytes(200)
# A text line, then zero padding (as a disk image or a database page): no NUL in the first
# line, one line in two holding NULs, and no other control characters.
PADDED = b"header line of text\n" + bytes(4096)


@pytest.mark.parametrize(
    ("name", "data"),
    [("image.csv", _png()), ("program.csv", ELF), ("padded.csv", PADDED)],
)
def test_binary_files_are_still_refused(tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(SheetError, match=r"binary data|not a spreadsheet"):
        open_sheet(path)
    if name != "image.csv":  # a PNG is named by its signature before it is read as text
        assert binary_start(data)
        with pytest.raises(SheetError, match="binary data"):
            CsvSource(path)
