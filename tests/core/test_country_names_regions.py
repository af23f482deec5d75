"""Every region's English name (and the short forms lists write) gives its calling code, every
NANP territory's "1", and NANP's code written with an area code ("1-876") is code 1 (black-box
pass I2, finding 5: "Jamaica", "Bahamas", "Trinidad and Tobago", "Ireland", "Philippines" and
"1-876" were refused as no country code, so valid rows were invalid), through the staging path
as a Caribbean list brings them. Two numbers written in one cell without a list separator are
refused as two (finding 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.phones import normalize, normalize_code

NANP_NAMES = [
    "Jamaica",
    "Bahamas",
    "The Bahamas",
    "Bahamas, The",
    "Barbados",
    "Dominican Republic",
    "Dominican Rep.",
    "Trinidad and Tobago",
    "Trinidad & Tobago",
    "Bermuda",
    "Cayman Islands",
    "Anguilla",
    "Antigua and Barbuda",
    "Antigua & Barbuda",
    "British Virgin Islands",
    "Virgin Islands, British",
    "BVI",
    "Dominica",
    "Grenada",
    "Montserrat",
    "Saint Kitts and Nevis",
    "St. Kitts & Nevis",
    "St Kitts",
    "Saint Lucia",
    "St. Lucia",
    "Saint Vincent and the Grenadines",
    "St. Vincent & the Grenadines",
    "Sint Maarten",
    "St. Maarten",
    "Turks and Caicos Islands",
    "Turks & Caicos",
    "US Virgin Islands",
    "U.S. Virgin Islands",
    "Virgin Islands, U.S.",
    "USVI",
    "Northern Mariana Islands",
    "American Samoa",
    "JAM",
    "BHS",
]


@pytest.mark.parametrize("cell", NANP_NAMES)
def test_every_nanp_territory_gives_1(cell: str) -> None:
    assert normalize_code(cell) == "1"


@pytest.mark.parametrize(
    ("cell", "code"),
    [
        ("Ireland", "353"),
        ("Republic of Ireland", "353"),
        ("Rep. of Ireland", "353"),
        ("Éire", "353"),
        ("IRL", "353"),
        ("Philippines", "63"),
        ("Republic of the Philippines", "63"),
        ("Colombia", "57"),
        ("Italy", "39"),
        ("Netherlands", "31"),
        ("The Netherlands", "31"),
        ("Korea, Republic of", "82"),
        ("Republic of Korea", "82"),
        ("South Korea", "82"),
        ("Korea, South", "82"),
        ("Viet Nam", "84"),
        ("Vietnam", "84"),
        ("Russia", "7"),
        ("Czech Rep.", "420"),
        ("Curaçao", "599"),
        ("Curacao", "599"),
        ("Côte d’Ivoire", "225"),
        ("Cote d'Ivoire", "225"),
        ("Ivory Coast", "225"),
        ("Guinea Bissau", "245"),
        ("Kosovo", "383"),
        ("Jamaica (JM)", "1"),
        # The existing names still win, in every language they were listed in.
        ("Mexiko", "52"),
        ("Estados Unidos", "1"),
        ("Royaume-Uni", "44"),
    ],
)
def test_names_of_other_regions_give_their_code(cell: str, code: str) -> None:
    assert normalize_code(cell) == code


@pytest.mark.parametrize(
    "cell",
    # A US state is never a country: "Ala." is Alabama, not Åland's alpha-3 code. (A state's
    # full name, "Georgia" too, gives the US code 1 since black-box pass J1.)
    ["Ala.", "ALA", "Atlantis", "Jamaica (GB)"],
)
def test_states_and_unknown_names_give_none(cell: str) -> None:
    assert normalize_code(cell) is None


@pytest.mark.parametrize(
    "cell", ["1-876", "1 876", "+1-876", "+1 (242)", "1(441)", "+1876", "1 - 868", " 1-809 "]
)
def test_nanp_code_with_an_area_code_is_1(cell: str) -> None:
    assert normalize_code(cell) == "1"


@pytest.mark.parametrize("cell", ["1-999", "1-044", "1-44", "1303", "1-876-555", "2-876", "44-20"])
def test_other_code_and_digits_stay_no_code(cell: str) -> None:
    # 999 and 044 are no area codes; "1303" without a separator may be a year or a count (a
    # territory's, as "1876", is its dialling code since black-box pass J1).
    assert normalize_code(cell) is None


def _stage(tmp_path: Path, text: str) -> tuple[dict[str, tuple[str, str, str]], int]:
    path = tmp_path / "caribbean.csv"
    path.write_text(text, encoding="utf-8")
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    rows = {r.original: (r.phone_code, r.national, r.message) for r in store.rows()}
    store.close()
    return rows, summary.invalid


def test_a_caribbean_list_with_country_names(tmp_path: Path) -> None:
    rows, invalid = _stage(
        tmp_path,
        "Phone,Country\n"
        "876-523-0123,Jamaica\n"
        "242-345-6789,Bahamas\n"
        "246-412-3456,Barbados\n"
        "809-234-5678,Dominican Republic\n"
        "868-221-1234,Trinidad & Tobago\n"
        "441-412-3456,Bermuda\n"
        "345-222-1234,Cayman Islands\n"
        "758-430-5678,St. Lucia\n"
        "869-236-1234,St Kitts\n"
        "340-642-1234,USVI\n"
        "087 123 4567,Ireland\n"
        "0917 123 4567,Philippines\n"
        # 322 is no US area code: the number reads one way only.
        "322 234 5678,Colombia\n",
    )
    assert invalid == 0, rows
    assert {original: (code, national) for original, (code, national, _) in rows.items()} == {
        "876-523-0123": ("1", "8765230123"),
        "242-345-6789": ("1", "2423456789"),
        "246-412-3456": ("1", "2464123456"),
        "809-234-5678": ("1", "8092345678"),
        "868-221-1234": ("1", "8682211234"),
        "441-412-3456": ("1", "4414123456"),
        "345-222-1234": ("1", "3452221234"),
        "758-430-5678": ("1", "7584305678"),
        "869-236-1234": ("1", "8692361234"),
        "340-642-1234": ("1", "3406421234"),
        "087 123 4567": ("353", "871234567"),
        "0917 123 4567": ("63", "9171234567"),
        "322 234 5678": ("57", "3222345678"),
    }


def test_a_country_column_of_georgia_is_the_us_state(tmp_path: Path) -> None:
    # The state, not the country (+995): never dialled as a Georgian number (black-box pass
    # J1: the row was refused as "'Georgia' is not a country code"; it is read as code 1).
    rows, invalid = _stage(tmp_path, "Phone,Country\n404-555-0143,Georgia\n303-555-0144,USA\n")
    assert invalid == 0
    assert rows["404-555-0143"][0] == "1"


def test_a_dialling_code_column_with_area_codes(tmp_path: Path) -> None:
    rows, invalid = _stage(
        tmp_path,
        "Phone,Country Code\n8765230123,1-876\n2423456789,+1 (242)\n3035552601,1\n",
    )
    assert invalid == 0, rows
    assert {original: code for original, (code, _, _) in rows.items()} == {
        "8765230123": "1",
        "2423456789": "1",
        "3035552601": "1",
    }


# Black-box pass I2, finding 7: two numbers in one cell without a list separator between them
# were refused as too long; they are refused in the words "303-555-0143; 303-555-0144" gets.
@pytest.mark.parametrize(
    ("cell", "first", "second"),
    [
        ("3035550221 3035550222", "3035550221", "3035550222"),
        ("(303) 555-0221 (303) 555-0222", "(303) 555-0221", "(303) 555-0222"),
        ("303-555-3207/8", "303-555-3207", "303-555-3208"),
        ("303-555-0143 / 0144", "303-555-0143", "303-555-0144"),
        ("303-555-0143/44", "303-555-0143", "303-555-0144"),
    ],
)
def test_two_numbers_run_together_are_called_two(cell: str, first: str, second: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason == (
        f"two phone numbers in one cell ({first!r} and {second!r}); put each on its own row"
    )


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        # A number and a few more digits, or digits that are no two valid numbers, keep the
        # reason counting their digits.
        ("3035550143 12", "too long for a US number: 12 digits, expected 10 digits"),
        ("303-555-0143/10144", "too long for a US number: 15 digits, expected 10 digits"),
        ("3035550221 0205550222", "too long to be a phone number (20 digits)"),
        # Digits with no space are never cut in two (test_phones' test_too_long).
        ("30355502213035550222", "too long to be a phone number (20 digits)"),
    ],
)
def test_other_long_cells_keep_their_reason(cell: str, reason: str) -> None:
    assert normalize(cell, "1").reason == reason


def test_a_sheet_with_two_numbers_in_a_cell(tmp_path: Path) -> None:
    rows, invalid = _stage(
        tmp_path,
        "Phone\n3035550221 3035550222\n303-555-3207/8\n303-555-0143 / 0144\n3035550150\n",
    )
    assert invalid == 3
    assert rows["3035550150"][:2] == ("1", "3035550150")
    for cell in ("3035550221 3035550222", "303-555-3207/8", "303-555-0143 / 0144"):
        assert "two phone numbers in one cell" in rows[cell][2], rows[cell]
        assert "put each on its own row" in rows[cell][2]
