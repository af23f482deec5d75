"""A workbook is read as what its content is, whatever its name says (black-box finding: an
xlsx saved as .xls was refused as "damaged or not a valid xls file"); text under a workbook's
name is read as text, and a web page or Excel 2003 XML under one is refused saying what it is."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from app.core.sheet_reader import open_sheet
from app.core.sheet_types import Row, SheetError
from tests.core.sheet_factory import CORPUS


def _rows(path: Path, sheet: str | None = None) -> list[Row]:
    with open_sheet(path, sheet) as source:
        return list(source.iter_rows())


@pytest.mark.parametrize(
    ("real", "named"),
    [
        ("xlsx", "xls"),
        ("xlsx", "ods"),
        ("ods", "xlsx"),
        ("ods", "xls"),
        ("xls", "xlsx"),
        ("xls", "ods"),
        ("xlsb", "xlsx"),
    ],
)
def test_a_workbook_under_another_workbooks_name_reads_as_itself(
    real: str, named: str, tmp_path: Path
) -> None:
    original = CORPUS / "calamine" / f"any_sheets.{real}"
    if not original.is_file():
        pytest.skip("the shared corpus is not here")  # a checkout outside the workplace
    renamed = tmp_path / f"vendor.{named}"
    shutil.copyfile(original, renamed)
    with open_sheet(original) as source:
        sheets, sheet = source.sheet_names, source.sheet
    with open_sheet(renamed) as source:
        assert (source.sheet_names, source.sheet) == (sheets, sheet)
    assert _rows(renamed) == _rows(original)
    for name in sheets:  # every sheet, not only the first
        try:
            expected = _rows(original, name)
        except SheetError as exc:
            with pytest.raises(SheetError) as again:
                _rows(renamed, name)
            assert str(again.value).replace("vendor." + named, "x") == str(exc).replace(
                original.name, "x"
            )
            continue
        assert _rows(renamed, name) == expected


def test_tab_separated_text_named_xls_is_read_as_text(tmp_path: Path) -> None:
    path = tmp_path / "export.xls"
    path.write_text("Phone\tName\n2025551703\ta\n2025551704\tb\n")
    assert [cells[:2] for _, cells in _rows(path)] == [
        ["Phone", "Name"],
        ["2025551703", "a"],
        ["2025551704", "b"],
    ]


@pytest.mark.parametrize(
    ("content", "kind"),
    [
        (
            "<html><body><table><tr><td>Phone</td></tr><tr><td>2025551701</td></tr></table>"
            "</body></html>",
            "a web page (HTML)",
        ),
        (
            '<?xml version="1.0"?>\n<?mso-application progid="Excel.Sheet"?>\n<Workbook '
            'xmlns="urn:schemas-microsoft-com:office:spreadsheet"><Worksheet ss:Name="S"/>'
            "</Workbook>",
            "an Excel 2003 XML spreadsheet",
        ),
    ],
)
def test_markup_under_a_workbook_name_is_refused_saying_what_it_is(
    content: str, kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "export.xls"
    path.write_text(content)
    with pytest.raises(SheetError, match=rf"^export\.xls is {re.escape(kind)} saved under a \.xls"):
        open_sheet(path)
