"""Cells holding an Excel error value (``t="e"``, as #N/A or #REF!): python-calamine reads them as
empty, so the reader child process finds them in the sheet's XML (:class:`XmlScan`) and staging
makes a row whose mapped cell holds one invalid, naming the error instead of calling the cell
empty (the same path as a formula never calculated)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.core import sheet_worker
from app.core.sheet_reader import open_sheet
from tests.core import sheet_factory as f
from tests.core.test_sheet_hidden_rows import outcomes, stage_dry, warnings
from tests.core.test_sheet_ods_hidden import worker_messages


def error(ref: str, text: str, formula: str = "") -> str:
    f_part = f"<f>{formula}</f>" if formula else ""
    return f'<c r="{ref}" s="0" t="e">{f_part}<v>{text}</v></c>'


def raw_sheet(rows: list[str]) -> str:
    body = "".join(f'<row r="{n}">{cells}</row>' for n, cells in enumerate(rows, 1))
    return f"{f.SHEET_HEAD}<sheetData>{body}</sheetData></worksheet>"


def errors_xlsx(path: Path) -> Path:
    rows = [
        f.cell("A1", "Phone") + f.cell("B1", "Campaign"),
        error("A2", "#N/A") + f.cell("B2", 1001),
        error("A3", "#DIV/0!", "1/0"),
        f.cell("A4", 2025550104) + error("B4", "#REF!"),
        f.cell("A5", 2025550105),
        error("A6", "#N/A"),  # nothing else, after the last value: still a row
    ]
    return f.write_raw_xlsx(path, raw_sheet(rows))


# -- the reader -------------------------------------------------------------------------------


def test_error_values_are_named_in_the_notes(tmp_path: Path) -> None:
    path = errors_xlsx(tmp_path / "e.xlsx")
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
        notes = source.notes
    assert rows[2] == [None, 1001] and rows[4] == [2025550104, None]  # calamine: empty
    assert sorted(rows) == [1, 2, 3, 4, 5, 6]
    assert notes.errors == {(2, 0): "#N/A", (3, 0): "#DIV/0!", (4, 1): "#REF!", (6, 0): "#N/A"}
    assert notes.formulas == dict.fromkeys(notes.errors, "")


def test_an_error_written_by_openpyxl_is_found(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone"])
    ws["A2"] = "#N/A"
    ws["A2"].data_type = "e"
    ws["A3"] = "2025550103"
    wb.save(tmp_path / "o.xlsx")
    with open_sheet(tmp_path / "o.xlsx") as source:
        assert list(source.iter_rows()) == [(1, ["Phone"]), (2, [None]), (3, ["2025550103"])]
        assert source.notes.errors == {(2, 0): "#N/A"}


def test_the_scan_message_stays_three_items_without_errors(tmp_path: Path) -> None:
    rows = [f.cell("A1", "Phone"), '<c r="A2"><f>1+1</f></c>']
    path = f.write_raw_xlsx(tmp_path / "f.xlsx", raw_sheet(rows))
    scans = [m for m in worker_messages(path) if m[0] == "scan"]
    assert scans == [("scan", [], []), ("scan", [], [(2, 0, "1+1")])]
    path = errors_xlsx(tmp_path / "e.xlsx")
    scans = [m for m in worker_messages(path) if m[0] == "scan"]
    assert scans[1] == (
        "scan",
        [],
        [],
        [(2, 0, "#N/A"), (3, 0, "#DIV/0!"), (4, 1, "#REF!"), (6, 0, "#N/A")],
    )


@pytest.mark.parametrize("chunk", range(5, 240, 9))
def test_a_cell_cut_by_a_chunk_boundary_is_still_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    rows = [f.cell("A1", "Phone") + f.cell("B1", "Campaign")]
    for n in range(2, 12):
        if n % 3 == 0:
            rows.append(error(f"A{n}", "#VALUE!") + f.cell(f"B{n}", 7))
        elif n % 3 == 1:
            rows.append(f.cell(f"A{n}", 2025550100 + n) + f'<c r="B{n}"><f>1000+{n}</f><v></v></c>')
        else:
            rows.append(f.cell(f"A{n}", 2025550100 + n))
    path = f.write_raw_xlsx(tmp_path / "c.xlsx", raw_sheet(rows))
    monkeypatch.setattr(sheet_worker, "SCAN_CHUNK", chunk)
    scans = [m for m in worker_messages(path) if m[0] == "scan"]
    errors = [e for m in scans if len(m) > 3 for e in m[3]]
    formulas = [x for m in scans for x in m[2]]
    assert errors == [(n, 0, "#VALUE!") for n in (3, 6, 9)]
    assert formulas == [(n, 1, f"1000+{n}") for n in (4, 7, 10)]


def test_error_cells_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [f.cell("A1", "Phone")] + [error(f"A{n}", "#N/A") for n in range(2, 12)]
    path = f.write_raw_xlsx(tmp_path / "many.xlsx", raw_sheet(rows))
    monkeypatch.setattr(sheet_worker, "MAX_FORMULAS", 3)
    scans = [m for m in worker_messages(path) if m[0] == "scan"]
    assert [e for m in scans if len(m) > 3 for e in m[3]] == [(n, 0, "#N/A") for n in (2, 3, 4)]


def test_cells_that_are_not_errors_are_not_named(tmp_path: Path) -> None:
    rows = [
        f.cell("A1", "Phone"),
        f.cell("A2", '"e"') + '<c r="B2" t="str"><f>"e"</f><v>e</v></c>',
        '<c r="A3" t="e"/>' + f.cell("B3", "x"),  # no value to name
    ]
    path = f.write_raw_xlsx(tmp_path / "n.xlsx", raw_sheet(rows))
    with open_sheet(path) as source:
        list(source.iter_rows())
        assert source.notes.errors == {}


# -- staging ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["import", "removal"])
def test_a_phone_cell_holding_an_error_makes_the_row_invalid_naming_it(
    tmp_path: Path, kind: str
) -> None:
    store = stage_dry(errors_xlsx(tmp_path / "e.xlsx"), tmp_path, kind=kind)
    rows = outcomes(store)
    assert rows[2] == (
        "invalid",
        "row 2: phone: cell A2 holds the error value #N/A, not a value; correct it in the file "
        "(in Excel or LibreOffice) and run the file again",
    )
    assert rows[3] == (
        "invalid",
        "row 3: phone: cell A3 holds the error value #DIV/0!, not a value; correct it in the "
        "file (in Excel or LibreOffice) and run the file again",
    )
    assert rows[5] == ("pending", "")
    assert rows[6][0] == "invalid" and "cell A6 holds the error value #N/A" in rows[6][1]
    assert warnings(store) == []
    counts = store.counts()
    assert counts["invalid"] == 4 and counts["pending"] == 1


def test_a_mapped_cell_holding_an_error_makes_the_row_invalid_naming_it(tmp_path: Path) -> None:
    # Without the check the row would quietly go to the global list (no campaign); and it is
    # not held against a later row of the same number.
    rows = [
        f.cell("A1", "Phone") + f.cell("B1", "Campaign"),
        f.cell("A2", "2025550102") + error("B2", "#REF!"),
        f.cell("A3", "2025550102"),
    ]
    path = f.write_raw_xlsx(tmp_path / "m.xlsx", raw_sheet(rows))
    rows_out = outcomes(stage_dry(path, tmp_path, kind="removal"))
    assert rows_out[2] == (
        "invalid",
        "row 2: campaign: cell B2 holds the error value #REF!, not a value; correct it in the "
        "file (in Excel or LibreOffice) and run the file again",
    )
    assert rows_out[3] == ("pending", "")
