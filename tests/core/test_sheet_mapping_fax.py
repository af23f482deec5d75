"""A column headed as fax numbers is never proposed as the phone column; other headers that
name something else are not taken for it by their content either."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.job_staging import JobSettings, MappingError, open_mapped
from app.core.sheet_mapping import Role, header_role, other_phone_columns, propose_from_preview
from app.core.sheet_types import CellValue, Row


def numbered(*rows: list[CellValue]) -> list[Row]:
    return [(i, row) for i, row in enumerate(rows, 1)]


def data(header: list[CellValue], column: int, width: int) -> list[Row]:
    rows: list[list[CellValue]] = [header]
    for i in range(6):
        cells: list[CellValue] = [f"name {i}"] * width
        cells[column] = f"20255501{i:02d}"
        rows.append(cells)
    return numbered(*rows)


@pytest.mark.parametrize("header", ["Fax Number", "Fax", "Home Fax", "Facsimile No.", "FAX #"])
def test_a_fax_header_names_no_phone_column(header: str) -> None:
    assert header_role(header) is None
    assert propose_from_preview(data(["Name", header], 1, 2)).phone is None


def test_the_phone_column_beside_a_fax_column_is_chosen_and_the_fax_is_not_other_phones() -> None:
    rows = numbered(
        ["Fax Number", "Name", "Phone"],
        *([f"303555{i:04d}", "x", f"202555{i:04d}"] for i in range(100, 106)),
    )
    mapping = propose_from_preview(rows)
    assert mapping.phone == 2
    assert other_phone_columns(mapping, rows[1:]) == []


def test_land_line_is_a_phone_header() -> None:
    assert header_role("Land Line") is Role.PHONE
    assert propose_from_preview(data(["Name", "Land Line"], 1, 2)).phone == 1


@pytest.mark.parametrize("header", ["Account ID", "Order No", "Invoice", "Zip"])
def test_a_column_headed_as_something_else_is_not_taken_by_its_content(header: str) -> None:
    assert propose_from_preview(data(["Name", header], 1, 2)).phone is None


def test_a_column_with_no_header_is_still_found_by_its_content() -> None:
    # The counterpart: a header naming nothing (or none at all) leaves the content to decide.
    assert propose_from_preview(data(["Name", "Values"], 1, 2)).phone == 1
    rows = numbered(*([f"20255501{i:02d}"] for i in range(6)))
    assert propose_from_preview(rows).phone == 0


def _workbook(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Name", "Fax Number"])
    for i in range(5):
        ws.append([f"n{i}", f"202555010{i}"])
    wb.save(path)
    return path


def test_a_file_of_fax_numbers_is_refused_naming_the_column_until_it_is_chosen(
    tmp_path: Path,
) -> None:
    path = _workbook(tmp_path / "fax.xlsx")
    with pytest.raises(MappingError) as refused:
        open_mapped(path, JobSettings(file=path, scope=Scope.global_()))
    assert str(refused.value) == (
        "No column of phone numbers was found in fax.xlsx. 'Fax Number' is headed as fax "
        "numbers, so it is read only when chosen."
    )
    assert "name it with --phone-column" in refused.value.cli_text
    assert refused.value.cli_text.endswith(
        "'Fax Number' is headed as fax numbers, so it is read only when chosen."
    )
    source, mapping = open_mapped(
        path, JobSettings(file=path, scope=Scope.global_(), phone_column="Fax Number")
    )
    source.close()
    assert mapping.phone == 1


@pytest.mark.parametrize("header", ["Phone/Fax", "Tel / Fax", "Mobile or Fax"])
def test_a_column_naming_a_phone_beside_fax_is_read(header: str) -> None:
    # It holds phone numbers too (the fax ones are refused row by row, when labelled).
    assert header_role(header) is Role.PHONE
    assert propose_from_preview(data(["Name", header], 1, 2)).phone == 1


@pytest.mark.parametrize("header", ["Telefax", "Fax Phone", "Fax Tel"])
def test_a_fax_line_named_with_a_phone_word_after_it_is_not_read(header: str) -> None:
    assert propose_from_preview(data(["Name", header], 1, 2)).phone is None
