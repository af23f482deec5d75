"""Black-box P3 #1: an .xls saved by LibreOffice from a file already holding calculated results
(an .ods, or LibreOffice's own .xlsx, converted to .xls) holds a text formula's result
(=B2&"-"&C2, =TEXT(A2,"0")) as the number 0 with no STRING record, and calamine read 0: the
phone column read was another one, the real one's rows all invalid. The worker now works such
a formula out from the cells it joins, so the file reads as LibreOffice shows it, and reports
one it cannot work out as a formula with no saved result instead of reading 0."""

from __future__ import annotations

import struct
from pathlib import Path

import openpyxl
import pytest

from app.core import sheet_worker
from app.core.sheet_reader import open_sheet
from tests.core.test_sheet_hidden_rows import outcomes, stage_dry, warnings
from tests.core.test_sheet_ods_xls_error_cells import biff, convert, needs_soffice
from tests.core.test_sheet_xls_hidden import BOF, EOF, walked


def formulas_workbook(path: Path) -> Path:
    """Three sheets of phone numbers made by text formulas (openpyxl saves no results, so
    LibreOffice calculates them when it first opens the file)."""
    wb = openpyxl.Workbook()
    joined = wb.active
    assert joined is not None
    joined.title = "Joined"
    joined.append(["Name", "Area Code", "Number", "Phone"])
    for i in range(5):
        r = i + 2
        joined.append([f"n{i}", 303, f"555-120{i}", f'=B{r}&"-"&C{r}'])
    raw = wb.create_sheet("Raw")
    raw.append(["Raw", "Phone"])
    for i in range(3):
        raw.append([3035550621 + i, f'=TEXT(A{i + 2},"0")'])
    raw.append([None, '="303-555-"&"0629"'])
    trimmed = wb.create_sheet("Trimmed")
    trimmed.append(["Name", "Area Code", "Number", "Phone"])
    for i in range(3):
        r = i + 2
        trimmed.append([f"t{i}", 303, f"555-130{i}", f'=TRIM(B{r}&"-"&C{r})'])
    wb.save(path)
    return path


@pytest.fixture(scope="module")
def saved_from_ods(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The workbook saved by LibreOffice as .xls from its own .ods (results loaded, written
    as 0), and as .xls straight from the xlsx (results calculated, written as Excel does)."""
    base = tmp_path_factory.mktemp("p3xls")
    source = formulas_workbook(base / "phones.xlsx")
    ods = convert(source, "ods")
    return convert(ods, "xls"), convert(source, "xls")


def rows(path: Path, sheet: str) -> list[tuple[int, list[object]]]:
    with open_sheet(path, sheet) as source:
        return list(source.iter_rows())


@needs_soffice
@pytest.mark.slow
def test_text_formulas_read_as_libreoffice_shows_them(saved_from_ods: tuple[Path, Path]) -> None:
    for path in saved_from_ods:
        got = rows(path, "Joined")
        assert [cells[3] for _, cells in got] == ["Phone"] + [f"303-555-120{i}" for i in range(5)]
        got = rows(path, "Raw")
        assert [cells[1] for _, cells in got] == [
            "Phone",
            "3035550621",
            "3035550622",
            "3035550623",
            "303-555-0629",
        ], path


@needs_soffice
@pytest.mark.slow
def test_an_import_reads_the_joined_phone_column(
    saved_from_ods: tuple[Path, Path], tmp_path: Path
) -> None:
    path = saved_from_ods[0]
    store = stage_dry(path, tmp_path / "joined", sheet="Joined")
    assert store.meta()["mapping"] == {"phone": "Phone (column D)"}
    assert {outcome for outcome, _ in outcomes(store).values()} == {"pending"}
    assert not any("=B2" in w for w in warnings(store))
    store = stage_dry(path, tmp_path / "raw", sheet="Raw")
    assert store.meta()["mapping"] == {"phone": "Phone (column B)"}
    assert outcomes(store)[5] == ("pending", "")


@needs_soffice
@pytest.mark.slow
def test_a_text_formula_not_worked_out_is_a_formula_with_no_saved_result(
    saved_from_ods: tuple[Path, Path], tmp_path: Path
) -> None:
    path = saved_from_ods[0]
    with open_sheet(path, "Trimmed") as source:
        got = list(source.iter_rows())
        assert source.notes.formulas == {(2, 3): "", (3, 3): "", (4, 3): ""}
    assert [cells[3] for _, cells in got[1:]] == [None, None, None]  # not 0
    store = stage_dry(path, tmp_path / "trimmed", sheet="Trimmed", phone_column="Phone")
    for row in (2, 3, 4):
        outcome, message = outcomes(store)[row]
        assert outcome == "invalid"
        assert "formula" in message and "no saved result" in message, message
    # Saved by LibreOffice with its results calculated, the same formulas read as text.
    with open_sheet(saved_from_ods[1], "Trimmed") as source:
        assert [cells[3] for _, cells in list(source.iter_rows())[1:]] == [
            f"303-555-130{i}" for i in range(3)
        ]


# -- the records ------------------------------------------------------------------------------


def formula(row: int, column: int, rgce: bytes, result: bytes = bytes(8), flags: int = 0) -> bytes:
    """A FORMULA record (0x0006) of ``rgce`` with the saved ``result`` (the number 0 unless
    told)."""
    body = struct.pack("<HHH", row, column, 15) + result + struct.pack("<HIH", flags, 0, len(rgce))
    return biff(0x0006, body + rgce)


def ref_n(rows: int, columns: int) -> bytes:
    """PtgRefN: a cell ``rows`` and ``columns`` away from the formula's (a shared formula's)."""
    return struct.pack("<BHH", 0x4C, rows & 0xFFFF, 0xC000 | (columns & 0xFF))


def ref(row: int, column: int) -> bytes:
    return struct.pack("<BHH", 0x44, row, 0xC000 | column)


def text(value: str) -> bytes:
    return struct.pack("<BBB", 0x17, len(value), 0) + value.encode("latin-1")


CONCAT = b"\x08"
JOINED = ref_n(0, -2) + text("-") + CONCAT + ref_n(0, -1) + CONCAT  # =B2&"-"&C2 from D2


def shared(first: int, last: int, column: int, rgce: bytes) -> bytes:
    """A SHRFMLA (0x04BC) of rows ``first`` to ``last`` of ``column``."""
    head = struct.pack("<HHBBBBH", first, last, column, column, 0, last - first + 1, len(rgce))
    return biff(0x04BC, head + rgce)


def expression(row: int, column: int) -> bytes:
    return struct.pack("<BHH", 0x01, row, column)


def test_the_scan_keeps_text_formulas_saved_as_zero_shared_ones_too() -> None:
    string_result = b"\x00" * 6 + b"\xff\xff"
    stream = (
        BOF
        + formula(1, 3, expression(1, 3), flags=8)
        + shared(1, 2, 3, JOINED)
        + formula(2, 3, expression(1, 3), flags=8)
        + formula(3, 3, ref(3, 1) + text("-") + CONCAT)  # its own tokens
        + formula(4, 3, ref(4, 1) + ref(4, 2) + b"\x03")  # =B5+C5: 0 may be right
        + formula(5, 3, JOINED, result=string_result)  # as Excel saves it
        + biff(0x0207, struct.pack("<HB", 3, 0) + b"303")  # its STRING
        + EOF
    )
    scan = walked(stream)
    assert not scan.failed
    assert scan.stale == [(1, 3, JOINED), (2, 3, JOINED), (3, 3, ref(3, 1) + text("-") + CONCAT)]


def test_formulas_are_worked_out_only_when_sure() -> None:
    cells = {(1, 0): "n", (1, 1): 303, (1, 2): "555-1201", (1, 4): 3035550621.0, (1, 5): 2.5}

    def cell(row: int, column: int) -> object:
        return cells.get((row, column))

    evaluate = sheet_worker._evaluate
    assert evaluate(JOINED, 1, 3, cell) == "303-555-1201"
    text_of = ref(1, 4) + text("0") + struct.pack("<BH", 0x41, 48)  # =TEXT(E2,"0")
    assert evaluate(text_of, 1, 3, cell) == "3035550621"
    both = ref(1, 1) + ref(1, 2) + struct.pack("<BBH", 0x42, 2, 336)  # CONCATENATE(B2,C2)
    assert evaluate(both, 1, 3, cell) == "303555-1201"
    # A fraction's text depends on formats; TRIM is not worked out; nor a cell not known.
    assert evaluate(ref(1, 5) + text("-") + CONCAT, 1, 3, cell) is None
    assert evaluate(JOINED + struct.pack("<BH", 0x41, 118), 1, 3, cell) is None
    assert evaluate(JOINED, 1, 3, lambda r, c: sheet_worker._UNKNOWN) is None
