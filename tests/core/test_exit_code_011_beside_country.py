"""Black-box B22 F2: a number dialled with 011, the exit code of the US and Canada, on a row
whose Country (or Country Code) cell gives it a code.

Before, "011 44 7911 123473" beside "United States", "Canada" or a Country Code of 1 was
refused as "number starts with +44 but the country code is 1", though the cell names the very
country 011 is dialled from; beside "UK" it was only "too long for a United Kingdom number".
Now the first is read under +44, its note saying so, and the second stays refused, its reason
naming the cell and the reading from the US.
"""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow


def _staged(tmp_path: Path, text: str) -> dict[int, JobRow]:
    path = tmp_path / "exit.csv"
    path.write_text(text, encoding="utf-8")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        return {r.row_number: r for r in store.rows()}


def test_011_beside_a_plus_1_country_is_the_exit_code(tmp_path: Path) -> None:
    got = _staged(
        tmp_path,
        "Phone,Country\n"
        "011 44 7911 123473,United States\n"
        "011 44 7911 123407,Canada\n"
        "011 52 55 1234 5690,United States\n",
    )
    assert (got[2].outcome, got[2].phone_code, got[2].national) == ("", "44", "7911123473")
    assert got[2].message == (
        "row 2: read as +44 7911 123473 (United Kingdom) dialled from the US or Canada, as the "
        "'Country' cell's 'United States' (column B) says: 011 is their exit code"
    )
    assert (got[3].outcome, got[3].phone_code) == ("", "44")
    assert (got[4].outcome, got[4].phone_code, got[4].national) == ("", "52", "5512345690")


def test_011_beside_a_code_cell_of_1_is_the_exit_code(tmp_path: Path) -> None:
    got = _staged(tmp_path, "Phone,Country Code\n011 44 7911 123473,1\n")
    assert (got[2].outcome, got[2].phone_code, got[2].national) == ("", "44", "7911123473")
    assert "'Country Code' cell's '1' (column B) says: 011 is their exit code" in got[2].message


def test_011_beside_another_country_names_the_cell_and_the_exit_code(tmp_path: Path) -> None:
    got = _staged(tmp_path, "Phone,Country\n011 44 7911 123474,UK\n011 52 55 1234 5691,Mexico\n")
    assert got[2].outcome == "invalid"
    assert got[2].message == (
        "row 2: phone: too long for a United Kingdom number: 14 digits, expected 7, 9 or 10 "
        "digits; written with 011, the exit code of the US and Canada, it is +44 7911 123474 "
        "(United Kingdom) dialled from there, but the 'Country' cell's 'UK' (column B) names "
        "United Kingdom, where 011 is no exit code: write the number with its own code "
        "(+44 7911 123474) if it is that one, or correct the cell"
    )
    assert got[3].outcome == "invalid"
    assert "the 'Country' cell's 'Mexico' (column B) names Mexico" in got[3].message
