"""Numbers split over columns, and formulas passed over (black-box B26 F4, F6; FXG).

F4: a US contact list's ``Phone`` header merged over two columns, the area code (702) and the
local number (5550133), had every row refused as a 7-digit number with no advice; so did the
CSV saved from it (``Phone,,``) and the same columns both headed ``Phone``. The file now gets
the area-code warning naming both columns and the formula joining them. Nothing is joined
here: which column holds the area code is a guess, and a compliance list must hold the numbers
the file holds, so each row stays invalid until the file says the whole number.

F6: a ``Phone`` column of formulas never calculated was passed over without a word when another
column was read and every row was valid; it is now named.

FXG: a CSV saved as ``.xlsx`` with no phone numbers was refused as having no phone column,
which sent the person looking for a column in a workbook; the refusal now says it is a text
file and to rename it to .csv.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError


def _warnings(path: Path, tmp_path: Path) -> tuple[list[str], int, int]:
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        return list(store.meta().get("warnings", [])), summary.valid, summary.invalid


def _merged_phone(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Name", "Phone", None, "Email"])
    ws.merge_cells("B1:C1")
    for n in range(5):
        ws.append([f"P{n}", "702", f"55501{33 + n}", f"p{n}@example.com"])
    wb.save(path)
    return path


def _area_sentence(area: str, phone: str, count: int) -> str:
    return (
        f"Column B ({area!r}) holds area codes, which are not read: only {phone} is, and "
        f"{count} of its first numbers have 7 digits, a local number without its area code, so "
        "those rows are invalid. Combine the area code and the number into one column of "
        "10-digit numbers (in Excel, a new column of =B2&C2 filled down) and run the file again."
    )


def test_a_phone_header_merged_over_area_code_and_local_number_is_named(tmp_path: Path) -> None:
    warnings, valid, invalid = _warnings(_merged_phone(tmp_path / "merged.xlsx"), tmp_path)
    assert (valid, invalid) == (0, 5)
    assert _area_sentence("Phone", "column C ('Phone')", 5) in warnings


@pytest.mark.parametrize(
    ("header", "phone"),
    [("Phone,,Email", "column C"), ("Phone,Phone,Email", "column C ('Phone')")],
    ids=["saved-as-csv", "both-headed"],
)
def test_the_same_layout_in_a_csv(tmp_path: Path, header: str, phone: str) -> None:
    path = tmp_path / "split.csv"
    path.write_text(f"Name,{header}\nA,702,5550133,a@x\nB,702,5550134,b@x\n")
    warnings, valid, invalid = _warnings(path, tmp_path)
    assert (valid, invalid) == (0, 2)
    assert _area_sentence("Phone", phone, 2) in warnings


def test_an_area_code_column_beside_the_phone_column_still_named(tmp_path: Path) -> None:
    path = tmp_path / "area.csv"
    path.write_text("Name,Area code,Phone\nA,702,5550133\nB,702,5550134\n")
    warnings, _, invalid = _warnings(path, tmp_path)
    assert invalid == 2
    assert _area_sentence("Area code", "column C ('Phone')", 2) in warnings


def test_a_phone_header_over_whole_numbers_and_short_codes_says_nothing_of_area_codes(
    tmp_path: Path,
) -> None:
    # Whole numbers under the merge: the column beside them is not taken for area codes.
    path = tmp_path / "whole.csv"
    path.write_text("Name,Phone,Phone\nA,7025550133,702\nB,7025550134,702\n")
    warnings, valid, _ = _warnings(path, tmp_path)
    assert valid == 2
    assert not any("area code" in w for w in warnings)


def _formulas(path: Path, header: list[str], rows: list[list[object]]) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(header)
    for row in rows:
        ws.append(row)
    wb.save(path)  # openpyxl saves no formula results
    return path


def test_a_phone_column_of_uncalculated_formulas_passed_over_is_named(tmp_path: Path) -> None:
    rows: list[list[object]] = [[f"P{n}", f"=C{n + 2}", f"702555013{n}"] for n in range(3)]
    path = _formulas(tmp_path / "formula.xlsx", ["Name", "Phone", "Mobile"], rows)
    warnings, valid, invalid = _warnings(path, tmp_path)
    assert (valid, invalid) == (3, 0)
    assert warnings == [
        "Column B ('Phone') holds formulas with no saved values (3 cells), as a file written "
        "by a script does, so its cells read as empty and it is not read, though its header "
        "names phone numbers: opening and saving the file in Excel or LibreOffice calculates "
        "them; then run the file again (with --phone-column 'Phone' if it is still not read as "
        "the phone column)."
    ]


def test_other_uncalculated_formulas_of_a_valid_file_are_not_named(tmp_path: Path) -> None:
    rows: list[list[object]] = [
        [f"702555013{n}", "Ann", "Lee", f"=B{n + 2}&C{n + 2}"] for n in range(3)
    ]
    path = _formulas(tmp_path / "names.xlsx", ["Phone", "First", "Last", "Full name"], rows)
    warnings, valid, _ = _warnings(path, tmp_path)
    assert valid == 3
    assert not any("formulas" in w for w in warnings)


def test_a_text_file_named_xlsx_without_phone_numbers_says_to_rename_it(tmp_path: Path) -> None:
    path = tmp_path / "nophones.xlsx"
    path.write_text("name,notes\nalice,hello\nbob,world\n")
    with pytest.raises(MappingError) as refused:
        _warnings(path, tmp_path)
    said = (
        "No column of phone numbers was found in nophones.xlsx, a text file despite its .xlsx "
        "name (most likely a CSV saved with the wrong extension): rename it to .csv, check that "
        "it is the list meant, and run it again"
    )
    assert str(refused.value) == f"{said}."
    assert refused.value.cli_text.startswith(f"{said}, naming the phone column with")


def test_a_csv_named_csv_without_phone_numbers_is_refused_as_before(tmp_path: Path) -> None:
    path = tmp_path / "nophones.csv"
    path.write_text("name,notes\nalice,hello\nbob,world\n")
    with pytest.raises(MappingError) as refused:
        _warnings(path, tmp_path)
    assert str(refused.value) == "No column of phone numbers was found in nophones.csv."
