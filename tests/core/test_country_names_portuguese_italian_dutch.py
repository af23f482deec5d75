"""Black-box pass R2 #9 and #10: country names in Portuguese, Italian and Dutch, and French
overseas departments, read as their countries; Brazil's "0 xx" carrier placeholder said for
what it is; a Mexican number cell that lost the 0 of "044" offered as Mexican before the UK
reading its digits also have; a Brazilian mobile written with its old 8 digits refused naming
the 9 it lacks."""

from __future__ import annotations

import pytest

from app.core import phones
from app.core.country_names import name_with_lost_letters
from app.core.sheet_check import Outcome, check_all
from app.core.sheet_mapping import ColumnMapping


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Alemanha", "49"),
        ("Índia", "91"),
        ("Itália", "39"),
        ("Japão", "81"),
        ("França", "33"),
        ("Espanha", "34"),
        ("Austrália", "61"),
        ("Suíça", "41"),
        ("Germania", "49"),  # Italian
        ("Regno Unito", "44"),
        ("Stati Uniti", "1"),
        ("Giappone", "81"),
        ("Messico", "52"),
        ("Duitsland", "49"),  # Dutch
        ("Frankrijk", "33"),
        ("Verenigd Koninkrijk", "44"),
        ("Verenigde Staten", "1"),
        ("Italië", "39"),
        ("België", "32"),
        ("Guyane", "594"),  # French Guiana, as French lists name it
        ("La Réunion", "262"),
    ],
)
def test_names_of_countries_in_more_languages(name: str, code: str) -> None:
    assert phones.normalize_code(name) == code


def test_a_country_column_in_portuguese_reads_its_rows() -> None:
    mapping = ColumnMapping(header_row=1, headers=("Telefone", "País"), phone=0, phone_code=1)
    rows = [(2, ["030 1234567", "Alemanha"]), (3, ["06 6988 4301", "Itália"])]
    checked, _ = check_all(rows, mapping)
    assert [(c.outcome, c.phone_code, c.national) for c in checked] == [
        (Outcome.VALID, "49", "301234567"),
        (Outcome.VALID, "39", "0669884301"),
    ]


def test_names_with_lost_letters_still_find_one_country() -> None:
    assert name_with_lost_letters("It?lia") in {"Italia", "Itália"}
    assert name_with_lost_letters("M?xico") == "Mexico"


@pytest.mark.parametrize(
    "cell", ["0 xx 11 91234-5252", "0xx11 91234-5252", "(0xx11) 91234-5252", "0XX (11) 91234-5252"]
)
def test_brazils_carrier_placeholder_is_named(cell: str) -> None:
    result = phones.normalize(cell, "55")
    assert not result.ok
    assert result.reason == (
        f"{cell!r} starts with '0 xx', Brazil's placeholder for the carrier-selection code "
        "dialled before a long-distance number, not part of the number; enter the number "
        "without it, as '(11) 91234-5252' or +55 11 91234-5252"
    )


def test_a_mexican_cell_that_lost_the_0_of_044_is_offered_as_mexican_first() -> None:
    reason = phones.normalize(445512345111, "52").reason
    assert reason == (
        "too long for a Mexico number: 12 digits, expected 10 digits; it may have lost a "
        "leading 0: 0445512345111 is the Mexico number +52 55 1234 5111 (044 was dialled before "
        "a Mexican mobile number until 2019); with a '+' before it, it is the United Kingdom "
        "number +44 55 1234 5111: write the one meant with its '+' and country code"
    )
    # Digits that are no Mexican number with a 0 keep the hint of a lost "+".
    assert phones.normalize("447911123456", "33").reason.endswith(
        "with a '+' before it, it is a valid United Kingdom number: if its '+' was lost, write "
        "+44 7911 123456 or give its country code 44"
    )


@pytest.mark.parametrize(
    "cell", ["(11) 8123-4533", "+55 11 8123-4533", "011 8123 4533", 1181234533]
)
def test_a_brazilian_mobile_with_its_old_eight_digits_names_the_ninth(cell: object) -> None:
    result = phones.normalize(cell, "55")
    assert not result.ok
    assert result.reason == (
        "not a valid Brazil number: 1181234533 (10 digits) is in no number range in use; Brazil "
        "put a 9 before the 8 digits of every mobile number (region by region, 2012 to 2016): "
        "with it, this is +55 11 98123-4533; check it against the source and enter it so"
    )


@pytest.mark.parametrize(
    "cell",
    [
        "(11) 1123-4533",  # no mobile's 8 digits start with 1
        "(10) 8123-4533",  # no area code 10: with a 9 it is no number either
    ],
)
def test_other_invalid_brazilian_numbers_get_no_such_hint(cell: str) -> None:
    result = phones.normalize(cell, "55")
    assert result.reason.startswith("not a valid Brazil number")
    assert "a 9 before" not in result.reason
