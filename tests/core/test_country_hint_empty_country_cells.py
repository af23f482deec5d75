"""A warning on rows read under the default code 1 that are another country's numbers said
"(the file gives no country)" of a file whose Country column was read, those rows' cells in
it being empty (black-box B22, X2_empty_cells.csv); it now says their cells are empty, and
advises filling them in rather than giving the file a Country column it has."""

from __future__ import annotations

from pathlib import Path

from tests.core.test_damage_scientific_and_lost_zeros import stage, write_csv

_UK_WITH_EMPTY_CELLS = [
    "Phone,Country",
    "07911 123410,UK",
    "07911 123411,UK",
    "020 7946 0012,UK",
    "0151 496 0013,UK",
    "2079460014,",
    "07911 123415,",
    "1514960016,",
    "07911 123417,",
]


def test_rows_beside_empty_cells_of_a_read_country_column_are_said_so(tmp_path: Path) -> None:
    _, warnings, _ = stage(write_csv(tmp_path / "x2.csv", _UK_WITH_EMPTY_CELLS))
    (said,) = [w for w in warnings if "read under the default country code 1" in w]
    assert said.startswith(
        "3 rows read under the default country code 1 (their cells in column B ('Country') are "
        "empty) are not valid US numbers"
    ), said
    assert "the file gives no country" not in said
    assert "(or write each row's country in its empty cell in column B ('Country'))" in said
    assert "give it a Country column" not in said


def test_one_row_beside_an_empty_cell(tmp_path: Path) -> None:
    lines = [*_UK_WITH_EMPTY_CELLS[:5], "07911 123415,"]
    _, warnings, _ = stage(write_csv(tmp_path / "x1.csv", lines))
    (said,) = [w for w in warnings if "read under the default country code 1" in w]
    assert said.startswith(
        "1 row read under the default country code 1 (its cell in column B ('Country') is "
        "empty) is not a valid US number"
    ), said


def test_a_file_without_a_country_column_still_gives_no_country(tmp_path: Path) -> None:
    lines = ["Phone", "07911 123415", "07911 123416", "07911 123417"]
    _, warnings, _ = stage(write_csv(tmp_path / "uk.csv", lines))
    (said,) = [w for w in warnings if "read under the default country code 1" in w]
    assert "(the file gives no country)" in said
    assert "(or give it a Country column)" in said
