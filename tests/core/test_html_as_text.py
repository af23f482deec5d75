"""A web page or an Excel 2003 XML file saved under a text table's name (a download that got a
sign-in page instead of the CSV) is refused saying what it is, as under a workbook's name; it
used to be read as text, its markup taken for a header ("No column of phone numbers")."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError

SIGN_IN = (
    "<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n"
    "<body><form><input name='user'></form><p>Call 303-555-0199 for help</p></body></html>\n"
)
EXCEL_XML = (
    '<?xml version="1.0"?>\n<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet">'
    "<Worksheet><Table><Row><Cell><Data ss:Type='String'>Phone</Data></Cell></Row></Table>"
    "</Worksheet></Workbook>\n"
)


@pytest.mark.parametrize("name", ["export.csv", "export.txt", "export.tsv"])
def test_a_web_page_under_a_text_name_is_refused(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(SIGN_IN)
    with pytest.raises(SheetError) as refused:
        open_sheet(path)
    suffix = path.suffix
    assert str(refused.value) == (
        f"{name} is a web page (HTML), not a {suffix} text table (a download that got a "
        "sign-in or error page instead of the file looks like this); download the list again, "
        "or ask for it as CSV or xlsx."
    )


def test_excel_2003_xml_under_a_csv_name_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_text(EXCEL_XML)
    with pytest.raises(SheetError, match=r"^list.csv is an Excel 2003 XML spreadsheet, not a"):
        open_sheet(path)


def test_a_csv_whose_header_starts_with_a_bracket_is_still_read(tmp_path: Path) -> None:
    path = tmp_path / "odd.csv"
    path.write_text("<Phone>,Name\n303-555-0101,Ann\n")
    with open_sheet(path) as source:
        rows = [repr(row) for row in source.iter_rows()]
    assert len(rows) == 2 and "303-555-0101" in rows[1]
