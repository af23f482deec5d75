"""Black-box pass F: what calamine reads as empty in an .ods or an .xls though the file holds it.

An .ods cell with no ``office:value-type`` holds its text paragraphs (valid OpenDocument; odfpy
and similar generators write every text cell so, and LibreOffice shows the text): it reads as
its text, in a sheet of nothing else too. A formula with no saved result reads as "a formula
never calculated" in an .ods (a float-typed cell without ``office:value``) and an .xls (xlwt's
FORMULA records, whose saved result is an empty string) as in an xlsx.

The files are written here by hand: the .ods's ``content.xml`` as odfpy writes it, the .xls as a
compound file holding the BIFF8 records xlwt writes.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

from app.core import sheet_worker
from app.core.sheet_reader import open_sheet
from tests.core.test_sheet_hidden_rows import outcomes, stage_dry, write_ods_xml
from tests.core.test_sheet_ods_hidden import worker_messages
from tests.core.test_sheet_ods_xls_error_cells import biff

# -- .ods cells with no value type ------------------------------------------------------------


def untyped(text: str, attributes: str = "") -> str:
    """A cell as odfpy writes a text cell: no value type, its text in a paragraph."""
    space = " " if attributes else ""
    return f"<table:table-cell{space}{attributes}><text:p>{text}</text:p></table:table-cell>"


def number(value: int) -> str:
    return (
        f'<table:table-cell office:value-type="float" office:value="{value}">'
        f"<text:p>{value}</text:p></table:table-cell>"
    )


def row(*cells: str, attributes: str = "") -> str:
    space = " " if attributes else ""
    return f"<table:table-row{space}{attributes}>{''.join(cells)}</table:table-row>"


def odfpy_mixed(path: Path) -> Path:
    """The finding's file: text cells untyped, number cells typed float."""
    body = (
        row(untyped("Name"), untyped("Phone"), untyped("Score"))
        + row(untyped("a"), number(3035554301), number(1))
        + row(untyped("b"), untyped("303-555-4302"), number(2))
        + row(untyped("c"), number(3035554303), number(3))
        + row(untyped("d"), untyped("(303) 555-4304"), number(4))
        + row(untyped("e"), untyped("+44 7911 123480"), number(5))
    )
    return write_ods_xml(path, {"Optouts": body})


def odfpy_untyped(path: Path, sheets: dict[str, str] | None = None) -> Path:
    """Every cell untyped (the finding's second file), before ``sheets`` if any."""
    body = (
        row(untyped("Name"), untyped("Phone"))
        + row(untyped("a"), untyped("303-555-4201"))
        + row(untyped("b"), untyped("(303) 555-4202"))
        + row(untyped("c"), untyped("3035554203"))
    )
    return write_ods_xml(path, {"Optouts": body, **(sheets or {})})


def sheet_rows(path: Path, sheet: str | None = None) -> dict[int, list[Any]]:
    with open_sheet(path, sheet) as source:
        return {n: list(cells) for n, cells in source.iter_rows()}


def test_untyped_text_cells_read_as_their_text_beside_typed_numbers(tmp_path: Path) -> None:
    path = odfpy_mixed(tmp_path / "mixed.ods")
    rows = sheet_rows(path)
    assert rows[1] == ["Name", "Phone", "Score"]
    assert [rows[n][1] for n in range(2, 7)] == [
        3035554301.0,
        "303-555-4302",
        3035554303.0,
        "(303) 555-4304",
        "+44 7911 123480",
    ]
    store = stage_dry(path, tmp_path)
    assert store.meta()["mapping"]["phone"] == "Phone (column B)"  # by its header
    got = outcomes(store)
    assert sorted(got) == [2, 3, 4, 5, 6]
    assert all(outcome == "pending" for outcome, _ in got.values()), got


def test_a_sheet_of_untyped_cells_only_is_read_not_refused_as_empty(tmp_path: Path) -> None:
    path = odfpy_untyped(tmp_path / "notype.ods")
    expected = {
        1: ["Name", "Phone"],
        2: ["a", "303-555-4201"],
        3: ["b", "(303) 555-4202"],
        4: ["c", "3035554203"],
    }
    assert sheet_rows(path) == expected
    assert sheet_rows(path, "optouts") == expected  # named, as --sheet does
    got = outcomes(stage_dry(path, tmp_path))
    assert got == {2: ("pending", ""), 3: ("pending", ""), 4: ("pending", "")}


def test_an_untyped_first_sheet_is_read_before_a_typed_second_one(tmp_path: Path) -> None:
    later = row(number(1)) + row(number(2025550101))
    path = odfpy_untyped(tmp_path / "two.ods", {"Typed": later})
    messages = worker_messages(path)
    assert messages[0][2] == "Optouts"
    assert sheet_rows(path)[2] == ["a", "303-555-4201"]
    assert sheet_rows(path, "Typed") == {1: [1.0], 2: [2025550101.0]}


def test_untyped_cells_read_as_libreoffice_shows_them_wherever_they_are(tmp_path: Path) -> None:
    spaced = (
        '<table:table-cell table:style-name="ce1">'
        "<office:annotation><text:p>a comment, not the value</text:p></office:annotation>"
        '<text:p>  303 <text:s text:c="2"/>555<text:tab/>4401</text:p>'
        "<text:p>line <text:span>two</text:span><text:line-break/>three &amp; more</text:p>"
        "</table:table-cell>"
    )
    body = (
        row(untyped("Phone"), untyped("Note"))
        + row(spaced, number(7))
        # Two rows of one element, its first cell standing for two columns.
        + row(
            untyped("x", 'table:number-columns-repeated="2"'),
            untyped("y"),
            attributes='table:number-rows-repeated="2"',
        )
        # A merged cell's covered neighbour counts as a column, and shows the merged text.
        + row(
            untyped("merged", 'table:number-columns-spanned="2"'),
            "<table:covered-table-cell/>",
            number(9),
        )
        # Past the last typed column and row: calamine's grid ends before these.
        + row(number(1), "<table:table-cell/>", "<table:table-cell/>", untyped("far right"))
        + row("<table:table-cell/>", untyped("last"))
        + row('<table:table-cell table:number-columns-repeated="1024"/>')
    )
    path = write_ods_xml(tmp_path / "shapes.ods", {"Sheet1": body})
    rows = sheet_rows(path)
    assert rows == {
        1: ["Phone", "Note", None],  # calamine's grid is three columns wide (9.0, in C5)
        2: ["303   555\t4401\nline two\nthree & more", 7.0, None],
        3: ["x", "x", "y"],
        4: ["x", "x", "y"],
        5: ["merged", "merged", 9.0],
        6: [1.0, None, None, "far right"],
        7: [None, "last"],
    }


def test_a_typed_value_is_never_replaced_by_the_cells_text(tmp_path: Path) -> None:
    body = row(untyped("Phone")) + row(
        '<table:table-cell office:value-type="float" office:value="2025550101">'
        "<text:p>(202) 555-0101</text:p></table:table-cell>"
    )
    path = write_ods_xml(tmp_path / "typed.ods", {"Sheet1": body})
    assert sheet_rows(path) == {1: ["Phone"], 2: [2025550101.0]}


# -- formulas never calculated ----------------------------------------------------------------


def test_an_ods_formula_typed_float_without_its_value_is_named(tmp_path: Path) -> None:
    """The finding's file, as odfpy writes a formula it cannot calculate."""
    string = 'office:value-type="string"'
    body = (
        row(untyped("Name", string), untyped("Phone", string))
        + row(untyped("a", string), untyped("303-555-6001", string))
        + row(
            untyped("formula", string),
            '<table:table-cell table:formula=\'of:="303"&amp;"5556002"\'/>',
        )
        + row(
            untyped("numformula", string),
            '<table:table-cell table:formula="of:=3035556000+3" office:value-type="float"/>',
        )
        # A float formula with its value is calculated: nothing to say.
        + row(
            untyped("done", string),
            '<table:table-cell table:formula="of:=3035556000+5" office:value-type="float" '
            'office:value="3035556005"><text:p>3035556005</text:p></table:table-cell>',
        )
    )
    path = write_ods_xml(tmp_path / "formula.ods", {"Optouts": body})
    with open_sheet(path) as source:
        list(source.iter_rows())
        assert source.notes.formulas == {(3, 1): '"303"&"5556002"', (4, 1): "3035556000+3"}
    got = outcomes(stage_dry(path, tmp_path))
    assert got[4] == (
        "invalid",
        "row 4: phone: cell B4 holds a formula (=3035556000+3) with no saved result, so it reads "
        "as empty; open and save the file in Excel (or LibreOffice) to calculate it",
    )
    assert got[3][0] == "invalid" and "cell B3 holds a formula" in got[3][1]
    assert got[2] == ("pending", "") and got[5] == ("pending", "")


def xls_label(row: int, column: int, text: str) -> bytes:
    """A LABEL (0x0204): a cell of 8-bit text."""
    body = struct.pack("<HHHHB", row, column, 15, len(text), 0) + text.encode("latin-1")
    return biff(0x0204, body)


def xls_number(row: int, column: int, value: float) -> bytes:
    return biff(0x0203, struct.pack("<HHHd", row, column, 15, value))


def xls_formula(row: int, column: int, tokens: bytes, result: bytes) -> bytes:
    """A FORMULA (0x0006): its cell, the 8-byte saved result, options, and the tokens."""
    head = struct.pack("<HHH", row, column, 15) + result
    return biff(0x0006, head + struct.pack("<HIH", 0, 0, len(tokens)) + tokens)


# The saved result xlwt writes for every formula: an empty string (type 3), never calculated.
XLWT_RESULT = b"\x03\x00\x00\x00\x00\x00\xff\xff"
CONCAT = b"\x17\x03\x00303\x17\x07\x005555904\x08"  # "303"&"5555904"
SUM = b"\x1f" + struct.pack("<d", 3035555000.0) + b"\x1e\x89\x03\x03"  # 3035555000+905


def xls_workbook(path: Path, sheet: str, cells: list[bytes]) -> Path:
    """A BIFF8 workbook of one sheet holding ``cells``, in a compound file of 512-byte sectors
    (the stream padded past the 4096-byte mini-stream cutoff): sector 0 the FAT, then the
    Workbook stream, then the directory."""
    eof = biff(0x000A, b"")
    name = sheet.encode("latin-1")

    def bof(kind: int) -> bytes:
        return biff(0x0809, struct.pack("<HHHHII", 0x0600, kind, 0, 0, 0, 0))

    def workbook_globals(offset: int) -> bytes:
        boundsheet = struct.pack("<IBBBB", offset, 0, 0, len(name), 0) + name
        return bof(0x0005) + biff(0x0042, struct.pack("<H", 1200)) + biff(0x0085, boundsheet) + eof

    size = struct.pack("<IIHHH", 0, 64, 0, 8, 0)
    sheet_stream = bof(0x0010) + biff(0x0200, size) + b"".join(cells) + eof
    stream = workbook_globals(len(workbook_globals(0))) + sheet_stream
    stream += b"\x00" * max(0, 4096 - len(stream))
    count = (len(stream) + 511) // 512
    fat = [0xFFFFFFFD, *range(2, count + 1), 0xFFFFFFFE, 0xFFFFFFFE]
    fat += [0xFFFFFFFF] * (128 - len(fat))

    def entry(label: str, kind: int, start: int, length: int, child: int) -> bytes:
        raw = label.encode("utf-16-le") + b"\x00\x00"
        links = struct.pack("<III", 0xFFFFFFFF, 0xFFFFFFFF, child)
        return (
            raw.ljust(64, b"\x00")
            + struct.pack("<HBB", len(raw), kind, 1)
            + links
            + b"\x00" * 36
            + struct.pack("<II", start, length)
            + b"\x00" * 4
        )

    directory = entry("Root Entry", 5, 0xFFFFFFFE, 0, 1) + entry("Workbook", 2, 1, len(stream), 0)
    directory += entry("", 0, 0, 0, 0xFFFFFFFF) * 2
    header = (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
        + b"\x00" * 16
        + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
        + b"\x00" * 6
        + struct.pack("<9I", 0, 1, count + 1, 0, 4096, 0xFFFFFFFE, 0, 0xFFFFFFFE, 0)
        + struct.pack("<I", 0)
        + b"\xff" * (4 * 108)
    )
    fat_sector = struct.pack("<128I", *fat)
    path.write_bytes(header + fat_sector + stream.ljust(count * 512, b"\x00") + directory)
    return path


def xlwt_formulas(path: Path) -> Path:
    """The finding's file: two formulas as xlwt writes them, below a number and a text."""
    cells = [
        xls_label(0, 0, "Name"),
        xls_label(0, 1, "Phone"),
        xls_label(1, 0, "a"),
        xls_number(1, 1, 3035555901.0),
        xls_label(2, 0, "b"),
        xls_label(2, 1, "303-555-5902"),
        xls_label(3, 0, "formula"),
        xls_formula(3, 1, CONCAT, XLWT_RESULT),
        xls_label(4, 0, "numformula"),
        xls_formula(4, 1, SUM, XLWT_RESULT),
    ]
    return xls_workbook(path, "Opt outs", cells)


def test_xls_formulas_saved_with_an_empty_result_are_named_as_never_calculated(
    tmp_path: Path,
) -> None:
    path = xlwt_formulas(tmp_path / "xlwt.xls")
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
        assert source.notes.formulas == {(4, 1): "", (5, 1): ""}
        assert not source.notes.errors
    assert list(rows[4]) == ["formula", None] and list(rows[5]) == ["numformula", None]
    got = outcomes(stage_dry(path, tmp_path))
    assert got[4] == (
        "invalid",
        "row 4: phone: cell B4 holds a formula with no saved result, so it reads as empty; open "
        "and save the file in Excel (or LibreOffice) to calculate it",
    )
    assert got[5][0] == "invalid" and "cell B5 holds a formula with no saved result" in got[5][1]
    assert got[2] == ("pending", "") and got[3] == ("pending", "")


def test_only_an_empty_or_error_formula_result_is_noted_in_the_records() -> None:
    def formula(row: int, result: bytes) -> bytes:
        return xls_formula(row, 0, SUM, result)

    stream = (
        biff(0x0809, b"\x00\x06\x10\x00" + b"\x00" * 12)
        + formula(1, XLWT_RESULT)
        + formula(2, struct.pack("<d", 3035555905.0))  # a number
        + formula(3, b"\x00\x00\x00\x00\x00\x00\xff\xff")  # a string, in the next record
        + formula(4, b"\x01\x00\x01\x00\x00\x00\xff\xff")  # TRUE
        + formula(5, b"\x02\x00\x2a\x00\x00\x00\xff\xff")  # #N/A
        + biff(0x000A, b"")
    )
    scan = sheet_worker.XlsScan("unused.xls", "Sheet1")
    scan._cells(stream, 0)
    scan._settle()
    # Beside formulas a program calculated, an empty result is the empty text it gave
    # (black-box bb13 F9): only the error is noted.
    assert scan.advance(0) == ([], [], [(6, 0, "#N/A")])
    assert scan.unread_rows == {6}
    # In a sheet of xlwt's empty results alone, they are named as never calculated.
    scan = sheet_worker.XlsScan("unused.xls", "Sheet1")
    scan._cells(stream[:20] + formula(1, XLWT_RESULT) + formula(7, XLWT_RESULT) + stream[-4:], 0)
    scan._settle()
    assert scan.advance(0) == ([], [(2, 0, ""), (8, 0, "")], [])
    assert scan.unread_rows == {2, 8}
