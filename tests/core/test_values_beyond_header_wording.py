"""The note on values right of the header's columns says to put each number on its own row only
when a number is there; a text file's line split by a delimiter in a value ("Smith, John"
pushing the date right) is told to quote that value (black-box Q1 #4: excel_trailing_commas.csv
ended "put each number on its own row" on a row holding one number)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from tests.core.sheet_factory import write_sheets


def _messages(path: Path, tmp_path: Path) -> dict[int, str]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    messages = {r.row_number: r.message for r in store.rows()}
    store.close()
    return messages


@pytest.mark.parametrize(("delimiter", "said"), [(",", "a comma"), (";", "a semicolon")])
def test_a_name_split_by_the_delimiter_is_told_to_quote_it(
    tmp_path: Path, delimiter: str, said: str
) -> None:
    # The shape of the finding's excel_trailing_commas.csv.
    lines = [
        "Phone,Name,Notes,Date Received",
        "3035550601,N1,,11/20/2026",
        "3035550604,Smith, John,,11/20/2026",
    ]
    path = tmp_path / "trailing.csv"
    path.write_text("\r\n".join(line.replace(",", delimiter) for line in lines) + "\r\n")
    message = _messages(path, tmp_path)[3]
    cause = "in a CSV file, a comma" if delimiter == "," else f"in this file, {said}"
    assert message == (
        "row 3: '11/20/2026' (column E) right of the header's columns, not read "
        f"({cause} in an unquoted value does this): check the row; put a value that holds "
        f"{said} in double quotes"
    )
    assert "own row" not in message


def test_a_second_number_is_still_told_to_go_on_its_own_row(tmp_path: Path) -> None:
    path = tmp_path / "two.csv"
    path.write_text("Phone,Name\n3035550601,Smith,3035550602\n")
    assert _messages(path, tmp_path)[2].endswith("check the row; put each number on its own row")


def test_a_workbook_cell_right_of_the_header_that_is_no_number(tmp_path: Path) -> None:
    path = write_sheets(
        tmp_path / "book.xlsx", {"Sheet1": [["Name", "Phone"], ["Ann", "303-555-0411", "VIP"]]}
    )
    assert _messages(path, tmp_path)[2] == (
        "row 2: 'VIP' (column C) right of the header's last named column ('Phone', column B), "
        "which nothing reads: check the row"
    )
