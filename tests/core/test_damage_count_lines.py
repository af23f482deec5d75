"""A COUNT or COUNTA result saved as its value (``5`` below five numbers, FXK leftover) is
named as the count line it is, not "this does not look like a phone number" or only "a
report's total line".
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import CellValue
from tests.core.test_damage_scientific_and_lost_zeros import stage
from tests.core.test_damage_total_label_rows import NUMBERS, _last

COUNTED = "the row's 5 is the count of the 5 phone numbers above it (rows 2-6): a table's count"


@pytest.mark.parametrize(
    ("headers", "phone", "last"),
    [
        (("Phone", "Name"), 0, [5, "Total"]),
        (("Name", "Phone"), 1, ["Total", 5]),
        (("Phone",), 0, [5]),
    ],
)
def test_a_count_result_is_named_as_a_count_line(
    headers: tuple[str, ...], phone: int, last: list[CellValue]
) -> None:
    rows: list[list[CellValue]] = [
        ([n, "Ann"] if phone == 0 else ["Ann", n])[: len(headers)] for n in NUMBERS
    ]
    message, _ = _last(headers, phone, [*rows, last])
    assert COUNTED in message


def test_a_count_result_in_a_workbook_and_a_csv(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Name", "Phone"])
    for n in NUMBERS:
        sheet.append(["Ann", n])
    sheet.append(["Total", "=COUNTA(B2:B6)"])
    sheet["B7"].value = 5  # the value Excel saves, pasted as such
    book.save(tmp_path / "count.xlsx")
    staged, _, _ = stage(tmp_path / "count.xlsx")
    assert COUNTED in staged[-1].message
    # A CSV's cells of digits are its numbers (CheckOptions.text_delimiter: read as text).
    mapping = ColumnMapping(header_row=1, headers=("Phone", "Name"), phone=0)
    rows: list[list[CellValue]] = [[str(n), "Ann"] for n in NUMBERS] + [["5", "Total"]]
    options = CheckOptions(text_delimiter=",")
    checked, _ = check_all([(i + 2, r) for i, r in enumerate(rows)], mapping, options)
    assert COUNTED in checked[-1].message


def test_a_small_number_that_is_no_count_is_refused_as_before() -> None:
    rows: list[list[CellValue]] = [[n] for n in NUMBERS]
    message, _ = _last(("Phone",), 0, [*rows, [4]])
    assert "count" not in message
