"""Black-box L1 #6: a Phone column of formulas with no saved results (written by a script).

openpyxl wrote Phone = ``=A2&B2`` beside Area and Local columns: the Phone cells read as
empty, so 'Local' (7-digit numbers) was read, every row was invalid, and the warning said to
combine the area code and the number into one column, which the file already has. The warning
now names the column of formulas never calculated and says that opening and saving the file
calculates them; the area-code advice is not given.
"""

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


LOCAL = [["303", f"555930{n}", f"=A{n + 2}&B{n + 2}"] for n in range(4)]


def test_a_phone_column_of_uncalculated_formulas_is_named_not_the_area_code_advice(
    tmp_path: Path,
) -> None:
    path = _workbook(tmp_path / "j3_formula_phone.xlsx", ["Area", "Local", "Phone"], LOCAL)
    warnings, invalid = _warnings(path, tmp_path)
    assert invalid == 4
    assert warnings == [
        "Column C ('Phone') holds formulas with no saved values (4 cells), as a file written "
        "by a script does, so its cells read as empty and it is not read, though its header "
        "names phone numbers: opening and saving the file in Excel or LibreOffice calculates "
        "them; then run the file again (with --phone-column 'Phone' if it is still not read as "
        "the phone column)."
    ]
    assert not any("Combine the area code" in w for w in warnings)


def test_any_column_of_uncalculated_formulas_is_named_when_rows_are_invalid(
    tmp_path: Path,
) -> None:
    path = _workbook(tmp_path / "full.xlsx", ["Area", "Local", "Joined"], LOCAL)
    warnings, invalid = _warnings(path, tmp_path)
    assert invalid == 4
    assert warnings == [
        "Column C ('Joined') holds formulas with no saved values (4 cells), as a file written "
        "by a script does, so its cells read as empty and it is not read: opening and saving "
        "the file in Excel or LibreOffice calculates them; then run the file again."
    ]


def test_the_area_code_advice_stands_without_such_a_column(tmp_path: Path) -> None:
    rows = [row[:2] for row in LOCAL]
    warnings, _ = _warnings(_workbook(tmp_path / "area.xlsx", ["Area", "Local"], rows), tmp_path)
    assert len(warnings) == 1 and "Combine the area code and the number" in warnings[0]


def test_no_word_of_formulas_when_every_row_is_valid(tmp_path: Path) -> None:
    rows = [[f"303555930{n}", f'=IF(A{n + 2}<>"","x","")'] for n in range(3)]
    path = _workbook(tmp_path / "ok.xlsx", ["Phone", "Flag"], rows)
    warnings, invalid = _warnings(path, tmp_path)
    assert invalid == 0
    assert not any("formulas" in w for w in warnings)
