"""Black-box M1 #10: an error value in a Country cell beside a number written with its own code.

Since 584cbd3 an error value (or a formula with no saved result) in the Country column made
the row invalid when no code cell gave the row its code: right for "2079460012", whose code
the cell would have said, but "+44 20 7946 0012" is read under its own +44 whatever the
Country cell says, so that cell decides nothing there. Such a row is taken now, its message
naming the cell; a column of dialling codes ("Country Code") still withholds it, as its code
could have contradicted the number's.
"""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStore
from tests.core import sheet_factory as f
from tests.core.test_staging_unread_formula_cells import error, raw_sheet, uncalculated


def _rows(store: JobStore) -> dict[int, JobRow]:
    return {r.row_number: r for r in store.rows()}


def test_an_unread_country_cell_decides_nothing_beside_a_number_with_its_own_code(
    tmp_path: Path,
) -> None:
    # e1_country_err.xlsx of the black-box pass: the Country column is the only code column.
    rows = [
        f.cell("A1", "Phone") + f.cell("B1", "Country") + f.cell("C1", "Notes"),
        f.cell("A2", "3035559930") + error("B2", "#N/A", "VLOOKUP(D2,Lookup!A:B,2,FALSE())"),
        f.cell("A3", "+44 20 7946 0012") + error("B3", "#N/A") + f.cell("C3", "asked stop"),
        f.cell("A4", " 0044 20 7946 0013") + uncalculated("B4", "VLOOKUP(D4,Lookup!A:B,2)"),
        f.cell("A5", "2079460014") + f.cell("B5", "United Kingdom"),
    ]
    path = f.write_raw_xlsx(tmp_path / "e1_country_err.xlsx", raw_sheet(rows))
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        got = _rows(store)
    assert (summary.valid, summary.invalid) == (3, 1)
    assert got[2].outcome == "invalid"
    assert got[2].message.startswith("row 2: phone_code: cell B2 holds the error value #N/A")
    assert got[3].outcome == "" and (got[3].phone_code, got[3].national) == ("44", "2079460012")
    assert got[3].reason == "asked stop"
    assert got[3].message == (
        "row 3: phone_code: cell B3 holds the error value #N/A, which decides nothing here: "
        "the number is written with its own country code"
    )
    assert got[4].outcome == "" and (got[4].phone_code, got[4].national) == ("44", "2079460013")
    assert got[4].message == (
        "row 4: phone_code: cell B4 holds a formula (=VLOOKUP(D4,Lookup!A:B,2)) with no saved "
        "result, which decides nothing here: the number is written with its own country code"
    )
    assert (got[5].phone_code, got[5].national) == ("44", "2079460014")


def test_the_country_column_beside_an_empty_code_cell_too(tmp_path: Path) -> None:
    header = f.cell("A1", "Phone") + f.cell("B1", "Country Code") + f.cell("C1", "Country")
    rows = [
        header,
        f.cell("A2", "+44 20 7946 0012") + error("C2", "#N/A"),
        f.cell("A3", "2079460013") + error("C3", "#N/A"),
    ]
    path = f.write_raw_xlsx(tmp_path / "country_na.xlsx", raw_sheet(rows))
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        got = _rows(store)
    assert (summary.valid, summary.invalid) == (1, 1)
    assert (got[2].phone_code, got[2].national) == ("44", "2079460012")
    assert got[2].message.startswith("row 2: phone_code: cell C2 holds the error value #N/A,")
    assert got[3].outcome == "invalid"


def test_a_dialling_code_cell_so_still_withholds_the_row(tmp_path: Path) -> None:
    rows = [
        f.cell("A1", "Phone") + f.cell("B1", "Country Code"),
        f.cell("A2", "+44 20 7946 0012") + error("B2", "#N/A"),
    ]
    path = f.write_raw_xlsx(tmp_path / "code_na.xlsx", raw_sheet(rows))
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        got = _rows(store)
    assert (summary.valid, summary.invalid) == (0, 1)
    assert got[2].message.startswith("row 2: phone_code: cell B2 holds the error value #N/A")
