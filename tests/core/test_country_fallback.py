"""A row whose Country Code cell is empty takes its code from the row's Country cell when the
sheet has both (black-box pass H4, a regression of e975fd1: once the dialling-code column was
preferred, "55 1234 5613, Mexico, (empty)" was read as the US number +1 551-234-5613)."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import Outcome, check_all
from app.core.sheet_mapping import ColumnMapping

FILE = (
    "Phone,Country,Country Code\n"
    "55 1234 5613,Mexico,\n"
    "81 2345 6701,Mexico, \n"
    "2025551701,United States,1\n"
    "020 7946 1701,United Kingdom,44\n"
    "+44 20 7946 1702,Mexico,\n"
    "3035551702,,\n"
    "020 7946 1620,GB,\n"
    "5512345614,Atlantis,\n"
)


def test_an_empty_code_cell_takes_the_rows_country(tmp_path: Path) -> None:
    path = tmp_path / "contacts.csv"
    path.write_text(FILE)
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    rows = {r.original: r for r in store.rows()}
    mapping = store.meta()["mapping"]
    store.close()
    assert mapping["phone_code"] == "Country Code (column C)"
    assert mapping["phone_code_when_empty"] == "Country (column B)"
    codes = {original: (r.phone_code, r.national, r.outcome) for original, r in rows.items()}
    assert codes["55 1234 5613"][:2] == ("52", "5512345613")
    assert codes["81 2345 6701"][:2] == ("52", "8123456701")
    assert codes["2025551701"][:2] == ("1", "2025551701")
    assert codes["020 7946 1701"][:2] == ("44", "2079461701")
    assert codes["020 7946 1620"][:2] == ("44", "2079461620")  # read so before e975fd1
    assert codes["3035551702"][:2] == ("1", "3035551702")  # neither cell: the default
    # A number with its own +code under a Country cell naming another country: its own code,
    # and the note names the Country column the code came from.
    own = rows["+44 20 7946 1702"]
    assert (own.phone_code, own.national) == ("44", "2079461702")
    assert "not the 'Country' cell's 'Mexico' (Mexico, column B)" in own.message, own.message
    # A Country cell naming no country it knows makes the row invalid, naming the value.
    assert codes["5512345614"][2] == "invalid"
    assert "'Atlantis' is not a country name or code DNC Desk knows" in rows["5512345614"].message
    assert (summary.valid, summary.invalid) == (7, 1)


def test_the_quick_path_and_the_full_check_agree_on_empty_code_cells() -> None:
    # check_plain decides most rows inline and hands the others to check(): a row with an
    # empty code cell must reach the Country cell either way ("", " " and None alike).
    mapping = ColumnMapping(
        header_row=1, headers=("Phone", "Country", "Country Code"), phone=0, phone_code=2, country=1
    )
    rows = [
        (2, ["5512345613", "Mexico", ""]),
        (3, ["5512345615", "MX", " "]),
        (4, ["5512345616", "Mexico", None]),
        (5, ["5512345617", "Mexico"]),
        (6, [5512345618, "Mexico", 52]),
        (7, ["2025551703", "Mexico", "1"]),
    ]
    checked, _ = check_all(rows, mapping)
    assert [(c.outcome, c.phone_code) for c in checked] == [
        (Outcome.VALID, "52"),
        (Outcome.VALID, "52"),
        (Outcome.VALID, "52"),
        (Outcome.VALID, "52"),
        (Outcome.VALID, "52"),
        (Outcome.VALID, "1"),  # a code cell, when filled, is read before the Country cell
    ]
