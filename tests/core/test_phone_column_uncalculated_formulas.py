"""Re-test M1 #12: the phone column read holding formulas with no saved result (a script's
=CONCATENATE(…)) made every such row invalid with no warning; the warning names the column
and says to open and save the file in Excel or LibreOffice."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings


def _workbook(path: Path, header: list[str], rows: list[list[object]]) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(header)
    for row in rows:
        ws.append(row)
    wb.save(path)  # openpyxl saves no formula results
    return path


def _warnings(path: Path, tmp_path: Path) -> tuple[list[str], int]:
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        return list(store.meta().get("warnings", [])), summary.invalid


def test_a_phone_column_read_of_uncalculated_formulas_is_named(tmp_path: Path) -> None:
    rows: list[list[object]] = [
        [f"N{n}", f'=CONCATENATE("303","555","661{n}")', "80202"] for n in range(4)
    ]
    path = _workbook(tmp_path / "mobile.xlsx", ["Name", "Mobile Number", "Zip"], rows)
    warnings, invalid = _warnings(path, tmp_path)
    assert invalid == 4
    assert warnings == [
        "Column B ('Mobile Number'), the phone column read, holds formulas with no saved "
        "values (4 cells), as a file written by a script does, so those rows have no number "
        "and are invalid: opening and saving the file in Excel or LibreOffice calculates them; "
        "then run the file again."
    ]


def test_one_formula_among_numbers_is_named_as_one_row(tmp_path: Path) -> None:
    rows: list[list[object]] = [["3035556600"], ["3035556601"], ['="3035556602"']]
    warnings, invalid = _warnings(_workbook(tmp_path / "one.xlsx", ["Cell"], rows), tmp_path)
    assert invalid == 1
    assert any(
        w.startswith("Column A ('Cell'), the phone column read, holds formulas with no saved ")
        and "(1 cell)" in w
        and "so its row has no number and is invalid" in w
        for w in warnings
    ), warnings


def test_no_word_of_formulas_in_a_phone_column_of_values(tmp_path: Path) -> None:
    rows: list[list[object]] = [["3035556600", "=1+1"], ["12", "=1+1"]]
    warnings, invalid = _warnings(_workbook(tmp_path / "ok.xlsx", ["Cell", "X"], rows), tmp_path)
    assert invalid == 1
    assert not any("the phone column read" in w for w in warnings), warnings
