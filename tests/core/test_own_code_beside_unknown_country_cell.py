"""Black-box B22 F3: a number written with its own +code beside a Country cell that no
country's name or code reads ("Untied Kingdom", a misspelt "Phillipines") or that holds
a US state's code ("NY").

Before, such a row was refused as an unknown country or a state, while "Texas" or "#N/A"
beside the same number was read under its +44. The number's own code decides: the row is read
under it, its note naming the cell that was not used. A dialling code in the cell that
contradicts the number still makes the row invalid.
"""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow


def _staged(tmp_path: Path, text: str) -> dict[int, JobRow]:
    path = tmp_path / "own.csv"
    path.write_text(text, encoding="utf-8")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        return {r.row_number: r for r in store.rows()}


_FILE = (
    "Phone,Country\n"
    "+44 7911 123488,Untied Kingdom\n"
    "+63 917 123 4599,Phillipines\n"
    "0044 7911 123401,NY\n"
    "07911 123400,UK\n"
    "0917 123 4598,Philippines\n"
    "030 1234599,Germany\n"
    "+44 7911 123489,+33\n"
    "07911 123490,Phillipines\n"
)


def test_the_numbers_own_code_decides_beside_a_cell_naming_no_country(tmp_path: Path) -> None:
    got = _staged(tmp_path, _FILE)
    assert (got[2].outcome, got[2].phone_code, got[2].national) == ("", "44", "7911123488")
    assert got[2].message == (
        "row 2: phone_code: read under the number's own +44 (United Kingdom); cell B2 "
        "('Untied Kingdom') is no country name or code DNC Desk knows: not used"
    )
    assert (got[3].outcome, got[3].phone_code) == ("", "63")
    assert (got[4].outcome, got[4].phone_code) == ("", "44")
    assert got[4].message == (
        "row 4: phone_code: read under the number's own +44 (United Kingdom); cell B4 ('NY') "
        "is the code of New York, not of a country: not used"
    )


def test_a_contradicting_dialling_code_or_no_own_code_stays_refused(tmp_path: Path) -> None:
    got = _staged(tmp_path, _FILE)
    assert got[8].outcome == "invalid"
    assert "number starts with +44" in got[8].message
    assert got[9].outcome == "invalid"
    assert "'Phillipines' is not a country name or code DNC Desk knows" in got[9].message
