"""Black-box B7 #1, left by fixer F1 (session 19): a Country column that was not read.

1. The note "Column B ('Country') was not read as country codes: only 3 of its 8 values are
   country codes" is built from sheet_mapping's UnreadCodeColumn, which held counts only, so it
   could name none of the values to correct. It now keeps the first few distinct values no code
   or country name reads ('Östr.', 'Frankr.', …), each with the first sheet row it is in.
2. A refused row's note from sheet_damage said "if it is one, use --phone-code 49 or a Country
   column" though the file had a Country column (not read): given the row's Country cell, the
   note says to correct that cell, and names no --phone-code. Which column that is, is
   sheet_mapping's unread_country_column.
"""

from __future__ import annotations

from pathlib import Path

from app.core.sheet_csv import CsvSource
from app.core.sheet_damage import other_country, other_country_note
from app.core.sheet_header import read_preview
from app.core.sheet_mapping import (
    UNKNOWN_CODES_KEPT,
    ColumnMapping,
    propose_from_preview,
    unread_code_columns,
    unread_country_column,
)

# The pass's file (as F1's test has it): European numbers as dialled at home, beside a Country
# column of German abbreviations no country's name reads.
ABBREVIATED = (
    "Phone,Country\n0664 1234567,Östr.\n06 12 34 56 78,Frankr.\n070-123 45 67,Schwed.\n"
    "303-555-1801,USA\n(720) 555-1802,USA\n030 1234567,Deutschl.\n303-555-1803,Kanada\n"
    "0664 7654321,Östr.\n"
)


def _unread(tmp_path: Path, text: str) -> list[tuple[int, tuple[tuple[str, int], ...]]]:
    path = tmp_path / "list.csv"
    path.write_text(text, encoding="utf-8")
    preview = read_preview(CsvSource(path))
    mapping = propose_from_preview(preview)
    data = [row for row in preview if row[0] > (mapping.header_row or 0)]
    return [(u.index, u.unknown) for u in unread_code_columns(mapping, data)]


def test_the_unread_country_column_keeps_its_unknown_values_with_their_first_rows(
    tmp_path: Path,
) -> None:
    # 'Östr.' is in rows 2 and 9: named once, with its first row; USA and Kanada are read.
    assert _unread(tmp_path, ABBREVIATED) == [
        (1, (("Östr.", 2), ("Frankr.", 3), ("Schwed.", 4), ("Deutschl.", 7)))
    ]


def test_at_most_five_distinct_unknown_values_are_kept(tmp_path: Path) -> None:
    values = ["Östr.", "Frankr.", "Schwed.", "Norw.", "Dän.", "Finnl.", "Östr.", "Poln."]
    text = "Phone,Country Code\n" + "".join(
        f"303-555-18{i:02d},{value}\n" for i, value in enumerate(values, start=10)
    )
    [(index, unknown)] = _unread(tmp_path, text)
    assert index == 1
    assert UNKNOWN_CODES_KEPT == 5
    assert unknown == (
        ("Östr.", 2),
        ("Frankr.", 3),
        ("Schwed.", 4),
        ("Norw.", 5),
        ("Dän.", 6),
    )


def test_a_column_of_codes_names_its_numbers_no_country_has(tmp_path: Path) -> None:
    # 999 and 0 are no country's calling code; 44 and 49 are. The header is a data row's
    # neighbour: "Country Code" itself is never one of the values named.
    text = (
        "Phone,Country Code\n07911 123456,44\n030 1234567,49\n0664 1234567,999\n"
        "06 12 34 56 78,0\n070-123 45 67,999\n"
    )
    assert _unread(tmp_path, text) == [(1, (("999", 4), ("0", 5)))]


def _mapping(*headers: str, phone_code: int | None = None) -> ColumnMapping:
    return ColumnMapping(header_row=1, headers=headers, phone=0, phone_code=phone_code)


def test_the_unread_column_of_the_rows_countries_is_found() -> None:
    assert unread_country_column(_mapping("Phone", "Name", "Country")) == 2
    assert unread_country_column(_mapping("Phone", "Country Code")) == 1
    assert unread_country_column(_mapping("Phone", "Nation")) == 1
    assert unread_country_column(_mapping("Phone", "Country of residence")) == 1
    # A region alone is most often a part of one country; a read column needs no correcting.
    assert unread_country_column(_mapping("Phone", "Sales Region")) is None
    assert unread_country_column(_mapping("Phone", "Name")) is None
    assert unread_country_column(_mapping("Phone", "Country", phone_code=1)) is None


def test_a_row_with_an_unread_country_cell_is_told_to_correct_it() -> None:
    found = other_country("0664 1234567")
    assert found is not None
    assert (found.code, found.others) == ("49", ("91", "55", "39"))
    note = other_country_note("0664 1234567", found, country_cell="B2")
    assert note == (
        "'0664 1234567' reads as a Germany number: +49 6641 234567 (also valid as "
        "+91 6641 234 567 in India, +55 66 4123-4567 in Brazil and +39 06 6412 34567 in "
        "Italy / Vatican); if it is one, correct its Country cell B2 to Germany or 49; for "
        "the others, India (91), Brazil (55) or Italy / Vatican (39)"
    )
    assert "--phone-code" not in note and "a Country column" not in note
    # A file with no such column is still told the --phone-code that reads it.
    plain = other_country_note("0664 1234567", found)
    assert plain.endswith(
        "; if it is one, use --phone-code 49 or a Country column; for the others, "
        "--phone-code 91, 55 or 39"
    )


def test_a_number_cell_with_one_other_reading_names_that_country() -> None:
    found = other_country(7911123456)
    assert found is not None and found.lost
    note = other_country_note(7911123456, found, country_cell="C5")
    assert "if it is one, correct its Country cell C5 to United Kingdom or 44" in note
    assert "--phone-code" not in note
