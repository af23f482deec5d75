"""Black-box B22 F1: a Country column left unread (too few of its values known) and the rows
whose cell there names a known country of another calling code.

Before, such a row ("55 1234 5678" beside "Mexico") took the default +1 and went in as a US
number with no word; now it is invalid, its message naming the cell and its code, why the
column was not read and what to do. A number with its own +code, a +1 territory (Jamaica)
and a US state's code (IN, which India's ISO code also is) are not refused.
"""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow


def _staged(tmp_path: Path, text: str, phone_code: str = "1") -> dict[int, JobRow]:
    path = tmp_path / "partly.csv"
    path.write_text(text, encoding="utf-8")
    settings = JobSettings(path, Scope.global_(), phone_code=phone_code)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    with store:
        return {r.row_number: r for r in store.rows()}


_PARTLY = (
    "Phone,Country\n"
    "0917 123 4567,Phillipines\n"
    "0412 345 678,Oz\n"
    "07911 123456,Britania\n"
    "55 1234 5678,Mexico\n"
    "5512345679,MX\n"
    "+52 55 1234 5680,Mexico\n"
    "876 555 0101,Jamaica\n"
    "303 555 0102,IN\n"
    "303 555 0103,United States\n"
    "+44 7911 123457,Mexico\n"
    "0151 496 0011,Britania\n"
    "0151 496 0012,Englnd\n"
    "0151 496 0013,Scotlnd\n"
    "0151 496 0014,Walles\n"
    "0151 496 0015,Untied Kingdom\n"
)


def test_a_known_country_of_another_code_in_an_unread_column_refuses_the_row(
    tmp_path: Path,
) -> None:
    got = _staged(tmp_path, _PARTLY)
    assert got[5].outcome == "invalid"
    assert got[5].message == (
        "row 5: phone_code: Country cell B5 ('Mexico', +52) names Mexico, but the row would "
        "be read under the default code +1 (as +1 551 234 5678): column B ('Country') was not "
        "read, too few of its values being countries DNC Desk knows, so the row was not "
        "taken; correct the column's unknown values (the file's warning names them) so that "
        "it is read, or write the number with its own code (as +52 55 1234 5678), and import "
        "the file again"
    )
    assert got[6].outcome == "invalid"
    assert got[6].message.startswith("row 6: phone_code: Country cell B6 ('MX', +52) names")


def test_own_codes_shared_codes_and_state_codes_are_not_refused(tmp_path: Path) -> None:
    got = _staged(tmp_path, _PARTLY)
    assert (got[7].outcome, got[7].phone_code) == ("", "52")
    assert (got[8].outcome, got[8].phone_code) == ("", "1")  # Jamaica dials +1
    assert (got[9].outcome, got[9].phone_code) == ("", "1")  # IN: Indiana as much as India
    assert (got[10].outcome, got[10].phone_code) == ("", "1")
    assert (got[11].outcome, got[11].phone_code) == ("", "44")


def test_the_row_is_compared_with_a_default_code_other_than_1(tmp_path: Path) -> None:
    text = "Phone,Country\n07911 123458,Britania\n07911 123459,Oz\n07911 123460,USA\n"
    got = _staged(tmp_path, text, phone_code="44")
    assert got[2].outcome == "" and got[2].phone_code == "44"
    assert got[4].outcome == "invalid"
    assert got[4].message.startswith(
        "row 4: phone_code: Country cell B4 ('USA', +1) names United States / Canada, but the "
        "row would be read under the default code +44 (as +44 7911 123460)"
    )
