"""Black-box B35: an .ods whose row is repeated past row 1,048,576 read as 1,048,575 data rows,
and the warning blamed saving ("rows after it were most likely cut off when the file was
opened or saved"), when the file holds them and the reader stops there. It now says so, with
how many rows were not read; a sheet the file itself ends at that row keeps the old warning."""

from __future__ import annotations

from pathlib import Path

from app.core import job_staging
from app.core.sheet_guard import RowsPast, ods_rows_past
from app.core.sheet_reader import open_sheet
from tests.core.test_sheet_hidden_rows import ods_row, write_ods_xml

LAST = job_staging.EXCEL_LAST_ROW


def _repeated(path: Path, times: int, after: str = "") -> Path:
    body = ods_row(["Phone"]) + ods_row(["2025550123"], f'table:number-rows-repeated="{times}"')
    return write_ods_xml(path, {"Notes": ods_row(["x"]), "Calls": body + after})


def test_rows_repeated_past_the_last_row_are_counted(tmp_path: Path) -> None:
    path = _repeated(tmp_path / "rep.ods", 1_999_999)
    assert ods_rows_past(path, "Calls", LAST) == RowsPast(2_000_000, 2_000_000 - LAST)
    assert ods_rows_past(path, "Notes", LAST) is None
    assert ods_rows_past(path, "Missing", LAST) is None


def test_the_warning_says_the_rows_were_not_read(tmp_path: Path) -> None:
    path = _repeated(tmp_path / "rep.ods", 1_999_999)
    with open_sheet(path, "Calls") as source:
        said = job_staging._last_row_sentence(source, LAST, "rep.ods", "import")
    assert said == (
        "rep.ods holds data down to row 2,000,000, but a sheet is read only to row 1,048,576, "
        "the last a sheet has in Excel and LibreOffice: the 951,424 rows with data after it "
        "were not read. Move them to another sheet or file, or import them from the file "
        "they came from."
    )
    assert "saved" not in said


def test_a_sheet_ending_at_the_last_row_keeps_the_saved_warning(tmp_path: Path) -> None:
    # Filled to row 1,048,576 and then empty rows, as LibreOffice writes the unused ones.
    empty = (
        '<table:table-row table:number-rows-repeated="5000"><table:table-cell/></table:table-row>'
    )
    path = _repeated(tmp_path / "full.ods", LAST - 1, empty)
    assert ods_rows_past(path, "Calls", LAST) is None
    with open_sheet(path, "Calls") as source:
        said = job_staging._last_row_sentence(source, LAST, "full.ods", "removal")
    assert said.startswith("full.ods has data down to row 1,048,576, the last row Excel can hold")
    assert said.endswith("remove the rows after row 1,048,576 from there.")
