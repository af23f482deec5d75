"""Black-box B6 #6: an Excel 2.x worksheet (BIFF2, which SheetJS writes as bookType "biff2")
was refused as "not a real .xls workbook (its content is not in any spreadsheet format)". It
is now named as the old Excel format it is, with how to get a file that is read. The files
are built record by record as SheetJS writes them."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError


def biff(bof: int, version: int, sheet: int, size: int = 4) -> bytes:
    """A bare BIFF stream: its BOF, one text cell (LABEL, BIFF2's 0x0004) and EOF."""
    head = struct.pack("<HHHH", bof, size, version, sheet) + bytes(size - 4)
    text = b"Phone"
    label = struct.pack("<HHHH", 0x0004, 8 + len(text), 0, 0) + bytes(3) + bytes([len(text)])
    return head + label + text + struct.pack("<HH", 0x000A, 0)


@pytest.mark.parametrize(
    ("name", "data", "kind"),
    [
        ("sjs_biff2.xls", biff(0x0009, 0x0002, 0x0010), "an Excel 2.x worksheet (BIFF2)"),
        # Named as a text table, it is still what its bytes are.
        ("list.csv", biff(0x0009, 0x0002, 0x0010), "an Excel 2.x worksheet (BIFF2)"),
        ("old.xls", biff(0x0209, 0x0000, 0x0010, 6), "an Excel 3.0 worksheet (BIFF3)"),
        ("old.xlw", biff(0x0409, 0x0000, 0x0100, 6), "an Excel 4.0 workbook (BIFF4W)"),
    ],
)
def test_an_old_excel_file_is_named_as_what_it_is(
    tmp_path: Path, name: str, data: bytes, kind: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(SheetError) as refused:
        open_sheet(path)
    assert str(refused.value) == (
        f"{name} is {kind}, an Excel format from before 1995 that is not read; open it in "
        "LibreOffice or Excel and save it as .xlsx, then import that file."
    )


def test_text_starting_with_a_tab_is_still_read_as_text(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("\tPhone\n\t3035550100\n", encoding="utf-8")
    with open_sheet(path) as source:
        assert [cells for _, cells in source.iter_rows()][1][-1] == "3035550100"
