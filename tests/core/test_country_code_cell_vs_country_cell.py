"""Black-box B22 F4: a Country Code column and a Country column both read (the Country cell
giving the code when the code cell is empty) whose two cells on a row disagree.

Before, "06 12 34 56 78" beside 49 and "France" was read under 49 with no word: a French
mobile went in as a German number. Now a row whose number is valid under the Country cell's
code (under both, or under that one only) is invalid, naming both cells and their codes; one
valid under the code cell's only is read under it. Where one code is +1, a number valid both
ways is read under the code cell with a note naming the other reading (as a US reading beside
a Country cell is). A territory sharing the code (1 and Jamaica, 44 and Guernsey) is no
disagreement, and a number written with its own code is read under it as before.
"""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow


def _staged(tmp_path: Path, text: str) -> dict[int, JobRow]:
    path = tmp_path / "both.csv"
    path.write_text(text, encoding="utf-8")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        return {r.row_number: r for r in store.rows()}


_FILE = (
    "Phone,Country Code,Country\n"
    "06 12 34 56 78,49,France\n"
    "07911 123456,,United Kingdom\n"
    "0412 345 678,61,Australia\n"
    "876 555 0101,1,Jamaica\n"
    "07781 123456,44,Guernsey\n"
    "+33 6 12 34 56 79,33,Germany\n"
    "030 1234567,49,Germany\n"
    "55 1234 5611,52,United States\n"
    "2025551703,1,Mexico\n"
    "087 123 4567,44,Ireland\n"
)


def test_a_code_cell_and_a_country_cell_that_disagree_refuse_the_row(tmp_path: Path) -> None:
    got = _staged(tmp_path, _FILE)
    assert got[2].outcome == "invalid"
    assert got[2].message == (
        "row 2: phone_code: the 'Country Code' cell B2 ('49', +49 Germany) and the 'Country' "
        "cell C2 ('France', +33 France) disagree, and the number is valid under both "
        "(+33 6 12 34 56 78 under the Country cell): correct the cell that is wrong, or empty "
        "the code cell to read the row under its Country cell, and import the file again"
    )
    assert got[11].outcome == "invalid"
    assert "valid under the Country cell's only, as +353 87 123 4567" in got[11].message


def test_with_plus_1_a_number_valid_both_ways_is_read_under_the_code_cell(tmp_path: Path) -> None:
    got = _staged(tmp_path, _FILE)
    assert (got[9].outcome, got[9].phone_code, got[9].national) == ("", "52", "5512345611")
    assert got[9].message == (
        "row 9: phone_code: read under the 'Country Code' cell B9 ('52', +52 Mexico); the "
        "'Country' cell C9 ('United States', +1 United States / Canada) names another country, "
        "under whose code the number is +1 551 234 5611: check the row if it is that one"
    )
    assert (got[10].outcome, got[10].phone_code, got[10].message) == ("", "1", "")


def test_cells_of_one_calling_code_or_a_number_with_its_own_agree(tmp_path: Path) -> None:
    got = _staged(tmp_path, _FILE)
    for row, code in ((3, "44"), (4, "61"), (5, "1"), (6, "44"), (7, "33"), (8, "49")):
        assert (got[row].outcome, got[row].phone_code) == ("", code), got[row].message
