"""Black-box B22 F1 (X_empty_cells.csv): a UK list whose Country column is read, a few of its
cells empty. An empty cell takes the default code (documented), so "2079460014" went in as a
US number, named nowhere. Now a warning names such rows when every other cell of the column
names one other country; it refuses nothing.
"""

from __future__ import annotations

from pathlib import Path

from tests.core.test_damage_scientific_and_lost_zeros import by_row, stage, write_csv


def test_rows_with_an_empty_country_cell_in_a_one_country_column_are_named(
    tmp_path: Path,
) -> None:
    path = write_csv(
        tmp_path / "x_empty.csv",
        [
            "Phone,Country",
            "07911 123410,UK",
            "07911 123411,UK",
            "020 7946 0012,United Kingdom",
            "0151 496 0013,44",
            "2079460014,",
            "07911 123415,",
            "3035550101,",
        ],
    )
    staged, warnings, _ = stage(path)
    rows = by_row(staged)
    assert (rows[6].outcome, rows[6].phone_code) == ("", "1")  # a note, not a refusal
    (said,) = [w for w in warnings if "with an empty cell" in w]
    assert said == (
        "2 rows with an empty cell in column B ('Country') (rows 6 and 8) were read under the "
        "default code +1 (United States / Canada), while every other row of that column names "
        "United Kingdom (+44): if they are United Kingdom numbers too, write 44 in their cells "
        "(or write the numbers with the country code, +44) and run the file again."
    )


def test_a_column_naming_several_countries_gives_no_such_warning(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "x_mixed.csv",
        ["Phone,Country", "07911 123410,UK", "030 1234567,Germany", "2079460014,"],
    )
    _, warnings, _ = stage(path)
    assert not [w for w in warnings if "with an empty cell" in w]
