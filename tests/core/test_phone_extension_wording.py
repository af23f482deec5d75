"""Black-box pass P2 #8: an extension written with a dash or as "ex", and a range of two
numbers, are refused as what they are.

"2125551279 - ext.12" and "212-555-1324 ex 9" were refused as "has words around the number",
and "212 555 1319 – 20" (1319 and 1320) as "12 digits, too long", naming neither number.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from app.core import phones
from app.core.sheet_check import check_all
from app.core.sheet_mapping import propose_from_preview
from app.core.sheet_reader import open_sheet


@pytest.mark.parametrize(
    ("cell", "extension"),
    [
        ("2125551279 - ext.12", "ext.12"),
        ("212-555-1324 ex 9", "ex 9"),
        ("212-555-1324 – x 9", "x 9"),
        ("303-555-1501 x204", "x204"),
        ("303-555-1501, ext 4", "ext 4"),
    ],
)
def test_an_extension_is_refused_as_one(cell: str, extension: str) -> None:
    result = phones.normalize(cell, "1")
    assert not result.ok
    assert result.reason == (
        f"the number has an extension ({extension}); enter the number without the extension"
    )


@pytest.mark.parametrize("dash", ["–", "-", "—"])
def test_a_range_of_two_numbers_names_both(dash: str) -> None:
    result = phones.normalize(f"212 555 1319 {dash} 20", "1")
    assert result.reason == (
        "two phone numbers in one cell ('212 555 1319' and '212 555 1320'); put each on its own row"
    )


@pytest.mark.parametrize("cell", ["303 - 555 - 0101", "303 – 555 – 0101", "303-555-0101"])
def test_dashes_between_digit_groups_stay_separators(cell: str) -> None:
    assert phones.normalize(cell, "1") == phones.normalize("3035550101", "1")


def test_words_that_are_no_extension_are_still_words() -> None:
    assert "has words around the number" in phones.normalize("3035550101 ex", "1").reason
    assert "has words around the number" in phones.normalize("Rex 3035550101", "1").reason


# Black-box bb4 #3 (session 31): "0176 1234 5671 Durchwahl 12" was refused as "has words around
# the number"; the extension labels of the countries whose files are read are named as "x12" is.
@pytest.mark.parametrize(
    ("cell", "code", "extension"),
    [
        ("0176 1234 5671 Durchwahl 12", "49", "Durchwahl 12"),
        ("030 1234567 DW 12", "49", "DW 12"),
        ("030 1234567 - Nebenstelle: 412", "49", "Nebenstelle: 412"),
        ("01 23 45 67 89 poste 12", "33", "poste 12"),
        ("01 23 45 67 89, interne 3", "33", "interne 3"),
        ("91 123 45 67 extensión 12", "34", "extensión 12"),
        ("91 123 45 67 Ext. 12", "34", "Ext. 12"),
        ("11 2345 6789 ramal 12", "55", "ramal 12"),
        ("55 1234 5678 interno 12", "52", "interno 12"),
        ("55 1234 5678 int. 12", "52", "int. 12"),
        ("020 123 4567 toestel 12", "31", "toestel 12"),
        ("08 123 456 78 anknytning 12", "46", "anknytning 12"),
        ("303-555-1501 extn 4", "1", "extn 4"),
    ],
)
def test_other_countries_extension_labels_are_refused_as_extensions(
    cell: str, code: str, extension: str
) -> None:
    result = phones.normalize(cell, code)
    assert not result.ok  # an extension is never sent, nor the number without it
    assert result.reason == (
        f"the number has an extension ({extension}); enter the number without the extension"
    )


def test_a_row_of_a_german_file_says_the_extension(tmp_path: Path) -> None:
    """Through a real workbook's check, as the import reads a file under --phone-code 49."""
    path = tmp_path / "de.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in (["Telefon"], ["0176 1234 5671 Durchwahl 12"], ["0176 1234 5672"]):
        sheet.append(row)
    book.save(path)
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
        checked, summary = check_all(source.iter_rows(), replace(mapping, default_phone_code="49"))
    assert (summary.valid, summary.invalid) == (1, 1)
    assert "the number has an extension (Durchwahl 12)" in checked[0].message
    assert "words" not in checked[0].message
