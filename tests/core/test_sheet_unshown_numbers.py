"""Black-box bb13 F1: a number cell whose number format shows nothing (``;;;``) was read as its
number without a word, in xlsx, xls and ods alike: the officer sees an empty cell where a number
goes on the list. The reader now names such cells (``SheetNotes.unshown``), still reading their
numbers; a workbook with no such format pays nothing for it (its cell formats are not read).

tests/core/data/s33_lo_unshown.{xlsx,xls,ods}: made once by LibreOffice 7 (``soffice
--convert-to``) from an openpyxl workbook, sheet DNC: Name, Phone; row 3's phone 2025550113 in
the format ``;;;``, row 4's 2025550112.6 in ``0``, rows 2 and 5 plain numbers."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from app.core import sheet_worker
from app.core.sheet_reader import open_sheet
from tests.core import sheet_factory as f

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("ext", ["xlsx", "xls", "ods"])
def test_a_number_its_format_shows_as_nothing_is_named_and_read(ext: str) -> None:
    with open_sheet(DATA / f"s33_lo_unshown.{ext}") as source:
        rows = dict(source.iter_rows())
        assert source.notes.unshown == {(3, 1): "2025550113"}
    assert rows[3] == ["Mo", 2025550113]
    assert rows[2][1] == 2025550111 and rows[4][1] == pytest.approx(2025550112.6)


def test_only_a_format_whose_first_section_is_empty_shows_nothing() -> None:
    assert sheet_worker.padded_shape(";;;") == sheet_worker.UNSHOWN_TEXT  # its text too
    assert sheet_worker.padded_shape(";;") == sheet_worker.UNSHOWN
    assert sheet_worker.padded_shape('""') == sheet_worker.UNSHOWN  # an empty literal alone
    assert sheet_worker.padded_shape('"";"";"";""') == sheet_worker.UNSHOWN_TEXT
    assert sheet_worker.padded_shape('"x"') is None
    assert sheet_worker.padded_shape(";;;@") == sheet_worker.UNSHOWN
    assert sheet_worker.padded_shape("0;;;") is None  # a positive number is shown
    assert sheet_worker.padded_shape("0") is None
    assert sheet_worker.padded_shape("0000000000") != sheet_worker.UNSHOWN


def test_a_workbook_without_such_a_format_reads_no_cell_format(tmp_path: Path) -> None:
    path = f.write_xlsx(tmp_path / "plain.xlsx", [["Phone"], [2025550111], [2025550112]])
    with zipfile.ZipFile(path) as zf:
        assert sheet_worker.padded_styles(zf) == ({}, [])
    with open_sheet(path) as source:
        dict(source.iter_rows())
        assert not source.notes.unshown
