"""Rows hidden by a height of zero, sheets whose rows are hidden by default, and hidden columns.

Rows: a row is hidden when its own tag says so, ``hidden="1"`` or a zero height set for it
(``ht="0" customHeight="1"``). ``<sheetFormatPr zeroHeight="1">`` (rows hidden by default, as
Excel writes when most rows are hidden and XlsxWriter's ``hide_unused_rows``) hides only the
rows absent from ``<sheetData>``: a row written there is shown unless it says otherwise, as
ECMA-376 (§18.3.1.81: "only write out the rows that are not hidden") and LibreOffice read it,
and as files checked against Excel's own write their visible data rows (with no ``ht``). So
such a sheet hides no row holding data. See :class:`app.core.sheet_worker.XmlScan`.

Columns: ``<col min max hidden="1">`` (or ``width="0"``) hides columns. Their values are read
as any others; staging names each mapped column that is hidden, as a person looking at the file
has not seen its values."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl

from app.core import sheet_worker
from app.core.sheet_reader import open_sheet
from tests.core import sheet_factory as f
from tests.core.test_sheet_hidden_rows import outcomes, stage_dry, warnings
from tests.core.test_sheet_ods_hidden import worker_messages

ZERO_HEIGHT = '<sheetFormatPr defaultRowHeight="15" zeroHeight="1"/>'
NOT_REMOVED = (
    "hidden in the file (hidden or filtered out); not removed unless hidden rows are included "
    "(--include-hidden)"
)


def row(number: int, value: object, attributes: str = "") -> str:
    return f'<row r="{number}"{attributes}>{f.cell(f"A{number}", value)}</row>'


def sheet_xml(rows: str, head: str = "") -> str:
    return f"{f.SHEET_HEAD}{head}<sheetData>{rows}</sheetData></worksheet>"


def zero_height_xlsx(path: Path) -> Path:
    """Rows hidden by default; rows 8 and 9 are not written (hidden, and empty)."""
    rows = (
        row(1, "Phone")  # data rows written with no height: shown
        + row(2, 2025550102, ' ht="15" customHeight="1"')  # unhidden by hand: shown
        + row(3, 2025550103)
        + row(4, 2025550104, ' hidden="1"')  # hidden by hand
        + row(5, 2025550105, ' ht="0" customHeight="1"')  # a zero height of its own: hidden
        + row(6, 2025550106, ' ht="0"')  # no customHeight: Excel fits it to its content
        + row(7, 2025550107, ' customHeight="true" ht="0.00"')
        + row(10, 2025550110)
        + '<row r="11" ht="0" customHeight="1"/>'  # hidden, but nothing to read
        + '<row r="12" hidden="1"></row>'
    )
    return f.write_raw_xlsx(path, sheet_xml(rows, ZERO_HEIGHT))


# -- the reader: rows -------------------------------------------------------------------------


def test_rows_of_zero_height_are_hidden_and_zero_height_by_default_hides_no_data_row(
    tmp_path: Path,
) -> None:
    path = zero_height_xlsx(tmp_path / "z.xlsx")
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
        notes = source.notes
    # python-calamine reads the hand-written file; the rows not written are blank.
    assert sorted(rows) == list(range(1, 11))
    assert rows[5] == [2025550105] and rows[8] == rows[9] == [None]
    assert notes.hidden_known
    assert notes.hidden_rows == {4, 5, 7}


def test_a_zero_height_row_is_hidden_without_zero_height_by_default(tmp_path: Path) -> None:
    rows = row(1, "Phone") + row(2, 2025550102, ' ht="0" customHeight="1"') + row(3, 2025550103)
    path = f.write_raw_xlsx(tmp_path / "h.xlsx", sheet_xml(rows))
    with open_sheet(path) as source:
        list(source.iter_rows())
        assert source.notes.hidden_rows == {2}


def test_a_sheet_hiding_its_unused_rows_shows_its_data(tmp_path: Path) -> None:
    # XlsxWriter's set_default_row(hide_unused_rows=True): empty rows kept in view are written
    # with no attribute at all, data rows with no height; the sheet's data is what is shown.
    rows = (
        row(1, "Phone")
        + "".join(f'<row r="{n}" spans="1:1"/>' for n in (2, 3))
        + "".join(row(n, 2025550100 + n) for n in range(4, 9))
    )
    head = '<dimension ref="A1:A1048576"/>' + ZERO_HEIGHT
    path = f.write_raw_xlsx(tmp_path / "unused.xlsx", sheet_xml(rows, head))
    with open_sheet(path) as source:
        assert len(list(source.iter_rows())) == 8
        assert source.notes.hidden_known and source.notes.hidden_rows == set()
    store = stage_dry(path, tmp_path, kind="removal")
    staged = outcomes(store)
    assert [staged[n][0] for n in range(4, 9)] == ["pending"] * 5
    assert staged[2][0] == staged[3][0] == "blank"
    assert warnings(store) == []


def test_openpyxl_zero_height_sheet(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for n in range(1, 7):
        ws.append(["Phone" if n == 1 else f"20255501{n:02d}"])
    ws.sheet_format.zeroHeight = True
    ws.row_dimensions[1].height = 15
    ws.row_dimensions[3].height = 20
    ws.row_dimensions[4].hidden = True
    ws.row_dimensions[5].height = 0
    wb.save(tmp_path / "o.xlsx")
    with zipfile.ZipFile(tmp_path / "o.xlsx") as zf:
        xml = zf.read("xl/worksheets/sheet1.xml").decode()
    # What openpyxl writes: zeroHeight, heights with customHeight, rows without any height,
    # and for a height of 0 only customHeight (it drops ht="0"): the default height, shown.
    assert 'zeroHeight="1"' in xml
    assert '<row r="1" ht="15" customHeight="1">' in xml
    assert '<row r="2">' in xml and '<row r="6">' in xml
    assert '<row r="4" hidden="1">' in xml
    assert '<row r="5" customHeight="1">' in xml
    with open_sheet(tmp_path / "o.xlsx") as source:
        assert [n for n, _ in source.iter_rows()] == [1, 2, 3, 4, 5, 6]
        assert source.notes.hidden_rows == {4}


def test_rows_holding_no_cells_are_not_listed_however_many(tmp_path: Path) -> None:
    # A sheet hiding a great many empty rows (a crafted file: a million): only rows that hold
    # cells are listed, so the list never outgrows the data.
    rows = (
        row(1, "Phone")
        + row(2, 2025550102, ' hidden="1"')
        + "".join(f'<row r="{n}" hidden="1"/>' for n in range(3, 60_000))
        + "".join(f'<row r="{n}" ht="0" customHeight="1"></row>' for n in range(60_000, 90_000))
        + row(90_000, 2025550199, ' ht="0" customHeight="1"')
    )
    path = f.write_raw_xlsx(tmp_path / "many.xlsx", sheet_xml(rows, ZERO_HEIGHT))
    with zipfile.ZipFile(path) as zf:  # several of the scan's chunks
        assert zf.getinfo("xl/worksheets/sheet1.xml").file_size > 2 * sheet_worker.SCAN_CHUNK
    scan = sheet_worker.open_scan(str(path), "Sheet1")
    assert isinstance(scan, sheet_worker.XmlScan)
    hidden, _, _ = scan.advance(0)
    assert hidden == [2, 90_000]


def test_a_prefixed_sheet_reports_zero_height_rows_and_hidden_columns(tmp_path: Path) -> None:
    xml = (
        '<?xml version="1.0" encoding="UTF-8"?><x:worksheet '
        'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<x:cols><x:col min="2" max="2" hidden="1"/></x:cols><x:sheetData>'
        '<x:row r="1"><x:c r="A1"><x:v>1</x:v></x:c></x:row>'
        '<x:row r="2" ht="0" customHeight="1"><x:c r="A2"><x:v>2</x:v></x:c></x:row>'
        '<x:row r="3" ht="0" customHeight="1"></x:row>'
        "</x:sheetData></x:worksheet>"
    )
    path = f.write_raw_xlsx(tmp_path / "x.xlsx", xml)
    scan = sheet_worker.open_scan(str(path), "Sheet1")
    assert isinstance(scan, sheet_worker.XmlScan)
    hidden, _, _ = scan.advance(0)
    assert hidden == [2] and scan.columns == [(2, 2)]


# -- staging: rows ----------------------------------------------------------------------------


def test_a_removal_leaves_zero_height_rows_and_include_hidden_takes_them(tmp_path: Path) -> None:
    path = zero_height_xlsx(tmp_path / "z.xlsx")
    rows = outcomes(stage_dry(path, tmp_path, kind="removal"))
    assert {n for n, (o, _) in rows.items() if o == "not_attempted"} == {4, 5, 7}
    assert rows[5] == ("not_attempted", f"row 5: {NOT_REMOVED}")
    assert [rows[n][0] for n in (2, 3, 6, 10)] == ["pending"] * 4
    assert rows[8][0] == rows[9][0] == "blank"
    store = stage_dry(path, tmp_path, kind="removal")
    assert warnings(store) == [
        "Rows 4–5 and 7 (3 rows) are hidden in sheet 'Sheet1' of z.xlsx (hidden or filtered "
        "out); they are not removed. To remove hidden rows too, run the removal again "
        "including hidden rows (--include-hidden)."
    ]
    taken = stage_dry(path, tmp_path, kind="removal", include_hidden=True)
    assert {o for o, _ in outcomes(taken).values() if o != "blank"} == {"pending"}
    assert warnings(taken)[0].endswith("they are removed too.")
    imported = stage_dry(path, tmp_path)
    assert outcomes(imported)[7][1] == (
        "row 7: hidden in the file (hidden or filtered out); included in the import"
    )
    assert warnings(imported)[0].endswith("they are imported too.")


# -- hidden columns ---------------------------------------------------------------------------


def table(columns: str) -> str:
    """Name, City, Phone, Reason: a header and two rows, with ``columns`` as the <cols>."""
    cells: list[list[object]] = [
        ["Name", "City", "Phone", "Reason"],
        ["Ann", "Leeds", 2025550102, "asked"],
        ["Bob", "York", 2025550103, "asked"],
    ]
    body = "".join(
        f'<row r="{n}">'
        + "".join(f.cell(f"{'ABCD'[i]}{n}", v) for i, v in enumerate(values))
        + "</row>"
        for n, values in enumerate(cells, 1)
    )
    return sheet_xml(body, f"<cols>{columns}</cols>" if columns else "")


def test_hidden_columns_are_reported(tmp_path: Path) -> None:
    cols = (
        '<col min="1" max="1" width="9" hidden="0"/>'  # shown
        '<col min="3" max="3" hidden="1" width="12" customWidth="1"/>'
        '<col min="5" max="7" width="0" customWidth="1"/>'  # no width: hidden
        '<col min="9" max="16384" hidden="true"/>'
        '<col min="20000" max="99999999" hidden="1"/>'  # beyond the last column: nothing
    )
    path = f.write_raw_xlsx(tmp_path / "c.xlsx", table(cols))
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
        notes = source.notes
    assert rows[2] == ["Ann", "Leeds", 2025550102, "asked"]  # read all the same
    assert notes.hidden_columns == {2, 4, 5, 6} | set(range(8, 16384))
    assert notes.hidden_rows == set()


def test_hidden_columns_go_in_the_scan_message_only_when_there_are_some(tmp_path: Path) -> None:
    path = f.write_raw_xlsx(tmp_path / "c.xlsx", table('<col min="3" max="3" hidden="1"/>'))
    scans = [m for m in worker_messages(path) if m[0] == "scan"]
    assert scans == [("scan", [], []), ("scan", [], [], [], [(3, 3)])]
    plain = f.write_raw_xlsx(tmp_path / "p.xlsx", table('<col min="3" max="3" width="12"/>'))
    assert [m for m in worker_messages(plain) if m[0] == "scan"] == [("scan", [], [])]


def test_a_column_hidden_with_openpyxl_is_reported(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Name", "Phone"])
    ws.append(["Ann", "2025550102"])
    ws.column_dimensions["B"].hidden = True
    wb.save(tmp_path / "o.xlsx")
    with open_sheet(tmp_path / "o.xlsx") as source:
        list(source.iter_rows())
        assert source.notes.hidden_columns == {1}


def test_a_hidden_phone_column_is_named_in_a_warning(tmp_path: Path) -> None:
    path = f.write_raw_xlsx(tmp_path / "c.xlsx", table('<col min="3" max="3" hidden="1"/>'))
    store = stage_dry(path, tmp_path)
    assert {o for o, _ in outcomes(store).values()} == {"pending"}  # the numbers are read
    assert warnings(store) == [
        "Column C ('Phone') is hidden in sheet 'Sheet1' of c.xlsx: its values were read all the "
        "same, as the phone numbers; unhide the column to see what was read."
    ]
    # A removal does not take a hidden phone column's numbers unasked (see
    # tests/core/test_hidden_phone_column.py); named, or with hidden rows included, it warns.
    for chosen in ({"phone_column": "Phone"}, {"include_hidden": True}):
        removal = stage_dry(path, tmp_path, kind="removal", **chosen)
        assert {o for o, _ in outcomes(removal).values()} == {"pending"}
        assert warnings(removal) == warnings(store)


def test_each_hidden_mapped_column_is_named_and_an_unmapped_one_is_not(tmp_path: Path) -> None:
    cols = '<col min="1" max="2" hidden="1"/><col min="3" max="4" hidden="1"/>'
    path = f.write_raw_xlsx(tmp_path / "c.xlsx", table(cols))
    assert warnings(stage_dry(path, tmp_path)) == [
        "Column C ('Phone') is hidden in sheet 'Sheet1' of c.xlsx: its values were read all the "
        "same, as the phone numbers; unhide the column to see what was read.",
        "Column D ('Reason') is hidden in sheet 'Sheet1' of c.xlsx: its values were read all "
        "the same, as the reasons; unhide the column to see what was read.",
    ]
    # Name and City are not read: hiding them is nobody's concern here.
    unmapped = f.write_raw_xlsx(tmp_path / "u.xlsx", table('<col min="1" max="2" hidden="1"/>'))
    assert warnings(stage_dry(unmapped, tmp_path)) == []
