"""Phone cells as they arrive from copies and exports: invisible characters, other scripts'
digits, two numbers in one cell, country names in a code column, and a number's own +code
under a default code (black-box findings 9, 12 and 13)."""

from __future__ import annotations

import pytest

from app.core import phones
from app.core.phones import PhoneResult, normalize, normalize_code, normalize_with_default

# ---- invisible format characters (Unicode category Cf) ---------------------------------


@pytest.mark.parametrize(
    "cell",
    [
        "\u200b2025550152",  # zero-width space, from a web page
        "\u202a+1 202 555 0152\u202c",  # bidi embedding marks, from Outlook/Windows
        "\ufeff2025550152",  # a byte-order mark left at the start of a CSV
        "202\u200d555\u20600152",  # zero-width joiner, word joiner
        "\u200e(202) 555-0152\u200f",  # left-to-right / right-to-left marks
        "202\u00ad555\u00ad0152",  # soft hyphens
    ],
)
def test_invisible_format_characters_are_dropped(cell: str) -> None:
    assert normalize(cell, "1") == PhoneResult(True, "2025550152", "1", "")


def test_invisible_characters_around_another_countrys_number() -> None:
    assert normalize("\u202a+44 20 7946 0958\u202c", "44").national == "2079460958"
    assert normalize("\u200b07400 123456", "44").national == "7400123456"


def test_a_cell_of_only_invisible_characters_is_empty() -> None:
    result = normalize("\u200b\u202c", "1")
    assert not result.ok and result.reason == "the phone number is empty"


# ---- digits of other scripts, and naming the character that is wrong --------------------


def test_arabic_indic_digits_are_read_as_the_digits_they_are() -> None:
    arabic = "\u0662\u0660\u0662\u0665\u0665\u0665\u0660\u0661\u0666\u0666"
    assert normalize(arabic, "1") == PhoneResult(True, "2025550166", "1", "")
    persian = "\u06f2\u06f0\u06f2\u06f5\u06f5\u06f5\u06f0\u06f1\u06f6\u06f6"
    assert normalize(persian, "1").national == "2025550166"


@pytest.mark.parametrize(
    ("cell", "named"),
    [
        ("202\u21925550123", "'→'"),
        ("\u0662\u0660\u0662\u2192\u0665\u0665\u0665\u0660\u0661\u0666\u0666", "'→'"),
        ("202*555*0123", "'*'"),
        ("202+5550123", "'+'"),
    ],
)
def test_the_offending_character_is_named(cell: str, named: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason == (
        f"the number contains characters that are not part of a phone number ({named})"
    )


# ---- two numbers in one cell ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "shown"),
    [
        ("+1 202 555 0168 / +1 202 555 0169", "'+1 202 555 0168' and '+1 202 555 0169'"),
        ("202-555-0168, 202-555-0169", "'202-555-0168' and '202-555-0169'"),
        ("2025550168; 2025550169", "'2025550168' and '2025550169'"),
        ("(202) 555-0168 or (202) 555-0169", "'(202) 555-0168' and '(202) 555-0169'"),
        ("+12025550168 +12025550169", "'+12025550168' and '+12025550169'"),
        ("2025550168\n2025550169", "'2025550168' and '2025550169'"),
    ],
)
def test_two_numbers_in_one_cell_are_called_that(cell: str, shown: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason == f"two phone numbers in one cell ({shown}); put each on its own row"


def test_three_numbers_are_counted() -> None:
    reason = normalize("2025550168 / 2025550169 / 2025550170", "1").reason
    assert reason.startswith("3 phone numbers in one cell (")


@pytest.mark.parametrize("cell", ["202/555-0123", "202 / 555 0123", "+44 (0) 20 / 7946 0958"])
def test_a_slash_between_digit_groups_is_not_two_numbers(cell: str) -> None:
    code = "44" if cell.startswith("+44") else "1"
    assert "phone numbers in one cell" not in normalize(cell, code).reason


# ---- country names in a code column -------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "code"),
    [
        ("United States", "1"),
        ("united states of america", "1"),
        ("USA", "1"),
        ("U.S.A.", "1"),
        ("U.S.", "1"),
        ("Canada", "1"),
        ("United Kingdom", "44"),
        ("UK", "44"),
        ("the UK", "44"),
        ("Great Britain", "44"),
        ("England", "44"),
        ("Scotland", "44"),
        ("  united   kingdom ", "44"),
        ("Australia", "61"),
        ("Germany", "49"),
        ("France", "33"),
        ("Spain", "34"),
        ("España", "34"),
        ("India", "91"),
        ("China", "86"),
        ("Mexico", "52"),
        ("México", "52"),
        ("Brazil", "55"),
        ("\u202aUnited Kingdom\u202c", "44"),
        ("\u202a+44\u202c", "44"),
    ],
)
def test_country_names_read_as_codes(cell: str, code: str) -> None:
    assert normalize_code(cell) == code
    assert code in phones.SUPPORTED_PHONE_CODES


@pytest.mark.parametrize("cell", ["Narnia", "United", "Kingdom", "America", "Country", "44 0"])
def test_other_words_are_not_codes(cell: str) -> None:
    assert normalize_code(cell) is None


def test_a_number_with_a_country_name_as_its_code() -> None:
    assert normalize("07911 123470", "United Kingdom") == PhoneResult(True, "7911123470", "44", "")
    assert normalize("412345671", "Australia").phone_code == "61"


# ---- a number's own code beats a default ----------------------------------------------


@pytest.mark.parametrize(
    ("cell", "code", "reason"),
    [
        ("+44 20 7946 000", "44", "not a valid United Kingdom number: 207946000 (9 digits)"),
        ("0044 20 7946 000", "44", "not a valid United Kingdom number"),
        ("+61 4123", "61", "too short for an Australia number: 4 digits"),
        ("+49 30 1", "49", "too short for a Germany number: 3 digits"),
    ],
)
def test_an_invalid_number_with_its_own_code_gets_its_real_reason(
    cell: str, code: str, reason: str
) -> None:
    result = normalize_with_default(cell, "1")
    assert (result.ok, result.phone_code) == (False, code)
    assert result.reason.startswith(reason), result.reason
    assert "but the country code is" not in result.reason


def test_own_code_wins_only_over_a_default() -> None:
    assert normalize_with_default("+44 7911 123456", "1") == PhoneResult(
        True, "7911123456", "44", ""
    )
    assert normalize_with_default("2025550123", "1").national == "2025550123"
    # A number without a code of its own keeps the default's verdict.
    assert normalize_with_default("202555012", "1").reason.startswith("too short for a US")
    # normalize() itself still reports the clash, for a code a person gave for this number.
    clash = normalize("+44 7911 123456", "1")
    assert clash.reason == "number starts with +44 but the country code is 1"
