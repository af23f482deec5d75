"""What calamine does not tell, in .ods and .xls files as in an xlsx (black-box findings with
files saved by LibreOffice): cells holding an error value (#N/A, #REF!, a formula whose result
is an error) or a formula never calculated make their row invalid, naming the cell, whatever
the format; a column hidden in an .ods is warned of, and a removal from it refused unasked,
as in an xlsx; a phone cell merged over several rows reads the same in every format, and the
rows under the first say they are part of the merged cells."""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import openpyxl
import pytest

from app.core import sheet_worker
from app.core.job_staging import MappingError
from app.core.sheet_reader import open_sheet
from tests.core.test_sheet_hidden_rows import (
    ods_row,
    outcomes,
    stage_dry,
    warnings,
    write_ods_xml,
)

SOFFICE = shutil.which("soffice")
needs_soffice = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
TARGETS = {"ods": "ods", "xls": "xls:MS Excel 97"}


def convert(source: Path, ext: str) -> Path:
    """``source`` saved by LibreOffice as ``ext`` (ods or xls), beside it."""
    assert SOFFICE is not None
    out = source.parent / ext
    subprocess.run(
        [
            SOFFICE,
            "--headless",
            "--norestore",
            f"-env:UserInstallation={(source.parent / 'profile').as_uri()}",
            "--convert-to",
            TARGETS[ext],
            "--outdir",
            str(out),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    return out / f"{source.stem}.{ext}"


def counts(store: object) -> dict[str, int]:
    meta = store.meta()  # type: ignore[attr-defined]
    keys = ("valid", "invalid", "duplicates_in_file", "blank")
    return {k: meta["counts"][k] for k in keys} if "counts" in meta else {}


# -- error values -----------------------------------------------------------------------------


def errors_workbook(path: Path, filler: int = 0) -> Path:
    """The finding's file: openpyxl writes "#N/A" and the like as error cells (t="e")."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Date received", "Name"])
    ws.append(["2025550160", "11/16/2026", "ok"])
    ws.append(["#N/A", "11/16/2026", "phone is #N/A"])
    ws.append(["#REF!"])
    ws.append(["2025550161", "#VALUE!", "date is #VALUE!"])
    for n in range(filler):  # an .xls stream past 4 KB: out of the compound file's mini stream
        ws.append([f"20255{n:05d}", "11/16/2026", "filler " * 4])
    ws.append(["#DIV/0!"])  # the last row: nothing else in it
    wb.save(path)
    return path


ERROR_VERDICTS = {
    3: ("invalid", "row 3: phone: cell A3 holds the error value #N/A"),
    4: ("invalid", "row 4: phone: cell A4 holds the error value #REF!"),
    # A request date decides neither the number nor where it goes (black-box L1 #3).
    5: ("pending", "row 5: request_date: cell B5 holds the error value #VALUE!"),
}


@needs_soffice
@pytest.mark.slow
@pytest.mark.parametrize("filler", [0, 300])
def test_error_values_give_the_same_verdicts_in_xlsx_ods_and_xls(
    tmp_path: Path, filler: int
) -> None:
    source = errors_workbook(tmp_path / "err.xlsx", filler)
    last = 6 + filler
    for path in (source, convert(source, "ods"), convert(source, "xls")):
        store = stage_dry(path, tmp_path / path.suffix[1:])
        got = outcomes(store)
        for row, (outcome, message) in ERROR_VERDICTS.items():
            assert got[row][0] == outcome, (path.name, got[row])
            assert got[row][1].startswith(message), (path.name, got[row])
        assert got[last] == (
            "invalid",
            f"row {last}: phone: cell A{last} holds the error value #DIV/0!, not a value; "
            "correct it in the file (in Excel or LibreOffice) and run the file again",
        ), path.name
        assert sum(o == "invalid" for o, _ in got.values()) == 3, path.name
        assert sum(o == "pending" for o, _ in got.values()) == 2 + filler, path.name
        assert not any(o == "blank" for o, _ in got.values()), path.name


def ods_cell_xml(attributes: str, text: str | None = None) -> str:
    if text is None:
        return f"<table:table-cell {attributes}/>"
    return f"<table:table-cell {attributes}><text:p>{text}</text:p></table:table-cell>"


def test_ods_error_cells_and_formulas_never_calculated_name_their_cells(tmp_path: Path) -> None:
    string = 'office:value-type="string"'
    body = (
        ods_row(["Name", "Phone", "Campaign"])
        # LibreOffice's own mark: calcext:value-type="error"; two cells before it, repeated.
        + "<table:table-row>"
        + ods_cell_xml('table:number-columns-repeated="1"')
        + ods_cell_xml(
            'table:formula="of:=#N/A" office:value-type="string" office:string-value="" '
            'calcext:value-type="error"',
            "#N/A",
        )
        + "</table:table-row>"
        # A cell merged over A and B: the covered cell counts as a column.
        + "<table:table-row>"
        + ods_cell_xml(f'{string} table:number-columns-spanned="2"', "x")
        + "<table:covered-table-cell/>"
        + ods_cell_xml(
            'table:formula="of:=1/0" office:value-type="string" office:string-value=""', "Err:532"
        )
        + "</table:table-row>"
        # Two columns in one repeated empty cell, then a formula with no value at all.
        + "<table:table-row>"
        + ods_cell_xml('table:number-columns-repeated="2"')
        + ods_cell_xml('table:formula="of:=[.A1]&amp;&quot;x&quot;"')
        + "</table:table-row>"
        + ods_row(["n", "2025550105"])
        # Last: a formula never calculated with nothing else in its row.
        + "<table:table-row>"
        + ods_cell_xml("", None)
        + ods_cell_xml('table:formula="of:=SUM([.A1:.A2])"')
        + "</table:table-row>"
    )
    path = write_ods_xml(tmp_path / "f.ods", {"Numbers": body})
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
        notes = source.notes
    assert sorted(rows) == [1, 2, 3, 4, 5, 6]
    assert notes.errors == {(2, 1): "#N/A", (3, 2): "Err:532"}
    assert notes.formulas == {
        (2, 1): "",
        (3, 2): "",
        (4, 2): '[.A1]&"x"',
        (6, 1): "SUM([.A1:.A2])",
    }
    store = stage_dry(path, tmp_path)
    got = outcomes(store)
    assert got[2] == (
        "invalid",
        "row 2: phone: cell B2 holds the error value #N/A, not a value; correct it in the file "
        "(in Excel or LibreOffice) and run the file again",
    )
    assert got[6][0] == "invalid" and "cell B6 holds a formula (=SUM([.A1:.A2]))" in got[6][1]
    assert got[3][0] == "invalid" and "cell C3 holds the error value Err:532" in got[3][1]
    assert got[4][0] == "invalid" and "cell C4 holds a formula" in got[4][1]


def biff(kind: int, body: bytes) -> bytes:
    return struct.pack("<HH", kind, len(body)) + body


def test_xls_error_records_are_read_boolerr_and_formula_results() -> None:
    scan = sheet_worker.XlsScan("unused.xls", "Sheet1")
    cell = struct.pack("<HHH", 4, 2, 15)  # row 5, column C, a format
    stream = (
        biff(0x0809, b"\x00\x06\x10\x00" + b"\x00" * 12)  # the sheet's BOF
        + biff(0x0205, struct.pack("<HHH", 1, 0, 15) + b"\x2a\x01")  # #N/A
        + biff(0x0205, struct.pack("<HHH", 2, 0, 15) + b"\x01\x00")  # TRUE: no error
        + biff(0x0006, cell + b"\x02\x00\x17\x00\x00\x00\xff\xff" + b"\x00" * 6)  # =…: #REF!
        + biff(0x0006, struct.pack("<HHH", 5, 0, 15) + struct.pack("<d", 2.5) + b"\x00" * 6)
        + biff(0x0809, b"\x00\x06\x20\x00" + b"\x00" * 12)  # a chart in the sheet
        + biff(0x0205, struct.pack("<HHH", 9, 0, 15) + b"\x07\x01")  # not the sheet's
        + biff(0x000A, b"")
        + biff(0x000A, b"")
        + biff(0x0205, struct.pack("<HHH", 9, 0, 15) + b"\x07\x01")  # the next sheet's
    )
    scan._cells(stream, 0)
    assert scan.advance(0) == ([], [], [(2, 0, "#N/A"), (5, 2, "#REF!")])
    assert scan.unread_rows == {2, 5}


def test_a_damaged_xls_is_read_without_the_scan(tmp_path: Path) -> None:
    path = tmp_path / "d.xls"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\xff" * 600)
    scan = sheet_worker.open_scan(str(path), "Sheet1")
    assert isinstance(scan, sheet_worker.XlsScan)
    scan.read_to_end()
    assert scan.failed and scan.advance(0) == ([], [], [])


# -- hidden columns of an .ods ----------------------------------------------------------------


def hidden_column_ods(path: Path) -> Path:
    """Column B ('Phone') hidden, as LibreOffice writes it: the columns before and after it
    in repeated elements; and column D in a collapsed column group."""
    columns = (
        '<table:table-column table:number-columns-repeated="1"/>'
        '<table:table-column table:visibility="collapse"/>'
        '<table:table-column table:number-columns-repeated="1"/>'
        '<table:table-column-group table:display="false">'
        '<table:table-column table:number-columns-repeated="2"/>'
        "</table:table-column-group>"
        '<table:table-column table:number-columns-repeated="16379"/>'
    )
    rows = [["Name", "Phone", "Phone (corrected)"]]
    rows += [[f"n{i}", f"202555110{i}", f"202555120{i}"] for i in range(3)]
    body = columns + "".join(ods_row(r) for r in rows)
    return write_ods_xml(path, {"Review": body})


def test_a_hidden_ods_column_is_noted(tmp_path: Path) -> None:
    path = hidden_column_ods(tmp_path / "review.ods")
    with open_sheet(path) as source:
        list(source.iter_rows())
        assert source.notes.hidden_columns == {1, 3, 4}
    scans = [m for m in sheet_worker_messages(path) if m[0] == "scan"]
    assert scans[1] == ("scan", [], [], [], [(2, 2), (4, 5)])


def sheet_worker_messages(path: Path) -> list[tuple[object, ...]]:
    from tests.core.test_sheet_ods_hidden import worker_messages

    return worker_messages(path)


def test_an_import_from_a_hidden_ods_phone_column_warns(tmp_path: Path) -> None:
    path = hidden_column_ods(tmp_path / "review.ods")
    store = stage_dry(path, tmp_path)
    assert (
        "Column B ('Phone') is hidden in sheet 'Review' of review.ods: its values were read all "
        "the same, as the phone numbers; unhide the column to see what was read."
    ) in warnings(store)


def test_a_removal_from_a_hidden_ods_phone_column_is_refused(tmp_path: Path) -> None:
    path = hidden_column_ods(tmp_path / "review.ods")
    with pytest.raises(MappingError) as refused:
        stage_dry(path, tmp_path, kind="removal")
    assert str(refused.value).startswith(
        "Column B ('Phone') of sheet 'Review' of review.ods, the phone column found for this "
        "removal, is hidden in the file"
    )
    store = stage_dry(path, tmp_path, kind="removal", phone_column="column:C")
    assert {o for o, _ in outcomes(store).values()} == {"pending"}


@needs_soffice
@pytest.mark.slow
def test_a_hidden_column_saved_by_libreoffice_as_ods_is_refused_for_removal(
    tmp_path: Path,
) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Name", "Phone"])
    for i in range(4):
        ws.append([f"n{i}", f"202555{1100 + i}"])
    ws.column_dimensions["B"].hidden = True
    wb.save(tmp_path / "hidcol.xlsx")
    path = convert(tmp_path / "hidcol.xlsx", "ods")
    with pytest.raises(MappingError, match=r"^Column B \('Phone'\) of sheet"):
        stage_dry(path, tmp_path, kind="removal")


# -- merged phone cells -----------------------------------------------------------------------

MERGED_NOTE = (
    "row 4: duplicate of row 3; its phone cell is part of the merged cells A3:A4, so it shows "
    "the number of A3 (it holds no number of its own)"
)


def test_an_ods_merged_phone_cell_reads_as_in_an_xlsx_and_says_so(tmp_path: Path) -> None:
    body = (
        ods_row(["Phone", "Name"])
        + ods_row(["2025550300", "n0"])
        + "<table:table-row>"
        + ods_cell_xml(
            'office:value-type="string" table:number-columns-spanned="1" '
            'table:number-rows-spanned="2"',
            "2025550301",
        )
        + ods_cell_xml('office:value-type="string"', "n1")
        + "</table:table-row>"
        + "<table:table-row><table:covered-table-cell/>"
        + ods_cell_xml('office:value-type="string"', "n2")
        + "</table:table-row>"
        + ods_row(["2025550303", "n3"])
    )
    path = write_ods_xml(tmp_path / "m.ods", {"Numbers": body})
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
        assert source.notes.merged == [(3, 0, 4, 0)]
    assert rows[4] == ["2025550301", "n2"]
    got = outcomes(stage_dry(path, tmp_path))
    assert got[4] == ("duplicate_in_file", MERGED_NOTE)
    assert {got[n][0] for n in (2, 3, 5)} == {"pending"}


@needs_soffice
@pytest.mark.slow
def test_a_merged_phone_cell_gives_the_same_verdicts_in_xlsx_ods_and_xls(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Name"])
    for i in range(5):
        ws.append([f"(202) 555-03{i:02d}", f"n{i}"])
    ws.merge_cells("A3:A4")  # A4 is emptied in the file
    wb.save(tmp_path / "merge.xlsx")
    source = tmp_path / "merge.xlsx"
    verdicts = []
    for path in (source, convert(source, "ods"), convert(source, "xls")):
        got = outcomes(stage_dry(path, tmp_path / path.suffix[1:]))
        assert got[4] == ("duplicate_in_file", MERGED_NOTE), path.name
        verdicts.append(got)
    assert verdicts[0] == verdicts[1] == verdicts[2]
