"""Black-box bb13 F9: ``=IFERROR(VLOOKUP(…),"")`` filled down past the data, calculated and saved
by LibreOffice. The xlsx read 20 rows; the .xls and .ods read 300, 280 of them invalid "holds a
formula with no saved result … open and save the file in Excel", advice re-saving cannot
follow: the saved result is the empty string. Such a cell is the empty cell the sheet shows,
in every format (trailing ones are no rows); a formula never calculated (xlwt's empty result in
a sheet of no calculated formula, an .ods formula cell with no paragraph) is still named.

tests/core/data/s33_lo_filldown.{xls,ods}: made once by LibreOffice 7 (``soffice --convert-to``)
from an openpyxl workbook: sheet Leads (ID, Phone: 5 numbers), sheet DNC (Lead ID 1-5 on rows
2-6; Phone ``=IFERROR(VLOOKUP(A2,Leads!$A$2:$B$6,2,FALSE),"")`` and Name
``=IF(A2="","","lead "&A2)`` filled down to row 30)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from app.cli.main import main
from app.core.sheet_reader import open_sheet
from tests.conftest import TOKEN
from tests.core.test_sheet_hidden_rows import ods_cell, ods_row, write_ods_xml
from tests.core.test_sheet_worker_untyped_cells import (
    XLWT_RESULT,
    xls_formula,
    xls_label,
    xls_number,
    xls_workbook,
)

DATA = Path(__file__).parent / "data"
# A cell reference token (PtgRef, B1): what the formula is does not matter to the scan.
REF = b"\x24\x00\x00\x01\xc0"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def dry_run(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> dict[str, object]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, *extra]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


@pytest.mark.parametrize("name", ["s33_lo_filldown.xls", "s33_lo_filldown.ods"])
def test_libreoffice_empty_results_filled_down_are_empty_cells(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    data = dry_run(capsys, DATA / name, "--sheet", "DNC")
    assert (data["rows"], data["valid"], data["invalid"]) == (5, 5, 0), data
    said = " ".join(data["warnings"])  # type: ignore[arg-type]
    assert "saved value" not in said and "saved result" not in said
    with open_sheet(DATA / name, sheet="DNC") as source:
        rows = dict(source.iter_rows())
        assert not source.notes.formulas
    assert rows[2][1] in (9175550101, 9175550101.0) and rows[2][2] == "lead 1"


def xls_cells(result: bytes) -> list[bytes]:
    """Phone formulas: row 2 calculated to ``result``, row 3 to empty text, a name beside."""
    return [
        xls_label(0, 0, "Name"),
        xls_label(0, 1, "Phone"),
        xls_label(1, 0, "a"),
        xls_formula(1, 1, REF, result),
        xls_label(2, 0, "b"),
        xls_formula(2, 1, REF, XLWT_RESULT),
        xls_label(3, 0, "c"),
        xls_number(3, 1, 3035555903.0),
    ]


def test_an_xls_empty_result_beside_calculated_formulas_reads_as_an_empty_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    number = struct.pack("<d", 3035555901.0)  # a number result: a program calculated it
    path = xls_workbook(tmp_path / "calculated.xls", "Opt outs", xls_cells(number))
    with open_sheet(path) as source:
        dict(source.iter_rows())
        assert not source.notes.formulas
    data = dry_run(capsys, path)
    assert (data["rows"], data["valid"], data["invalid"]) == (3, 2, 1), data
    assert not any("saved value" in w for w in data["warnings"])  # type: ignore[attr-defined]


def test_an_xls_of_only_empty_results_still_names_them_never_calculated(tmp_path: Path) -> None:
    # xlwt writes every formula so: nothing in the sheet says a program calculated it.
    path = xls_workbook(tmp_path / "xlwt.xls", "Opt outs", xls_cells(XLWT_RESULT))
    with open_sheet(path) as source:
        dict(source.iter_rows())
        assert source.notes.formulas == {(2, 1): "", (3, 1): ""}


def test_an_ods_formula_with_an_empty_paragraph_is_an_empty_cell_one_with_none_is_named(
    tmp_path: Path,
) -> None:
    formula = 'table:formula="of:=IFERROR([.C2];&quot;&quot;)"'
    body = (
        ods_row(["Name", "Phone"])
        + f"<table:table-row>{ods_cell('a')}<table:table-cell {formula}><text:p/>"
        + "</table:table-cell></table:table-row>"
        + f"<table:table-row>{ods_cell('b')}<table:table-cell {formula}/></table:table-row>"
        + ods_row(["c", "3035555903"])
    )
    path = write_ods_xml(tmp_path / "f.ods", {"Opt outs": body})
    with open_sheet(path) as source:
        dict(source.iter_rows())
        assert source.notes.formulas == {(3, 1): 'IFERROR([.C2];"")'}
