"""Black-box pass F, phone numbers: digits that read two ways under their country's code
(German "4917612345678" is +49 176 12345678 with its "+" lost, or the German number
4917612345678), international numbers whose "+" was lost under +1, Mexico's pre-2019 prefixes,
and +1 numbers of Bermuda or Trinidad called US numbers."""

from __future__ import annotations

import phonenumbers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phonenumbers import NumberParseException

from app.core import phones
from app.core.phones import normalize, normalize_with_default
from app.core.sheet_check import CheckOptions, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping

TWO_WAYS = (
    "the number 4917612345678 reads two ways: +49 176 12345678 if 49 is the country code, or "
    "+49 4917612345678 if 49 is the start of the national number; write +49 176 12345678 or "
    "04917612345678 to say which"
)
MAIN_REGION = {"49": "DE", "43": "AT", "39": "IT", "44": "GB", "33": "FR", "91": "IN", "55": "BR"}


def reference(text: str, region: str) -> tuple[bool, str]:
    """phonenumbers' own verdict: (valid, national significant number)."""
    try:
        number = phonenumbers.parse(text, region)
    except NumberParseException:
        return (False, "")
    if not phonenumbers.is_valid_number(number):
        return (False, "")
    return (True, phonenumbers.national_significant_number(number))


@pytest.mark.parametrize(
    "raw",
    ["4917612345678", "49 176 12345678", "49-176-12345678", "(49) 176 12345678", 4917612345678],
)
def test_a_german_mobile_written_with_49_and_no_plus_is_refused_naming_both_readings(
    raw: object,
) -> None:
    # phonenumbers reads it as the German number 4917612345678: valid, and not the mobile.
    assert reference("4917612345678", "DE") == (True, "4917612345678")
    result = normalize(raw, "49")
    assert (result.ok, result.phone_code, result.reason) == (False, "49", TWO_WAYS)


def test_each_form_the_message_suggests_reads_as_it_says() -> None:
    assert normalize("+49 176 12345678", "49").national == "17612345678"
    assert normalize("04917612345678", "49").national == "4917612345678"
    assert normalize("0049 176 12345678", "49").national == "17612345678"


def test_an_msisdn_column_reads_the_digits_as_starting_with_the_country_code() -> None:
    assert normalize("4917612345678", "49", msisdn=True) == phones.PhoneResult(
        True, "17612345678", "49", ""
    )
    assert normalize_with_default("49 176 12345678", "49", msisdn=True).national == ("17612345678")
    # Only the choice between two valid readings changes; one reading stays the only one.
    assert normalize("4989123456", "49", msisdn=True).national == "89123456"
    assert normalize("04917612345678", "49", msisdn=True).national == "4917612345678"


@pytest.mark.parametrize(
    ("raw", "code", "national"),
    [
        ("4989123456", "49", "89123456"),  # Munich: 4989123456 is no German number
        ("49691234567", "49", "691234567"),
        ("4369912345678", "43", "69912345678"),  # Austria: too long with the 43
        ("436641234567", "43", "6641234567"),
        ("393123456789", "39", "3123456789"),  # Italy
        ("390612345678", "39", "0612345678"),
        ("447911123456", "44", "7911123456"),
        ("33612345678", "33", "612345678"),
        ("919876543210", "91", "9876543210"),
    ],
)
def test_digits_with_one_reading_are_read_as_before(raw: str, code: str, national: str) -> None:
    assert normalize(raw, code) == phones.PhoneResult(True, national, code, "")


_DE_MOBILE = st.builds(
    lambda prefix, rest: prefix + rest,
    st.sampled_from(["151", "160", "170", "171", "176", "179", "1520", "89", "30", "491", "4921"]),
    st.text(alphabet="0123456789", min_size=5, max_size=9),
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(MAIN_REGION)), _DE_MOBILE | st.text("0123456789", min_size=4))
def test_only_digits_valid_both_ways_are_refused(code: str, body: str) -> None:
    """normalize() says what phonenumbers says, except for digits valid with and without the
    code they start with: refused, and read with the code in an MSISDN column."""
    digits = code + body
    region = MAIN_REGION[code]
    as_written, with_plus = reference(digits, region), reference("+" + digits, region)
    result = normalize(digits, code)
    if as_written[0] and with_plus[0] and as_written != with_plus:
        assert not result.ok and "reads two ways" in result.reason
        assert (True, normalize(digits, code, msisdn=True).national) == with_plus
    else:
        assert (result.ok, result.national) == as_written


def test_a_sheet_of_german_msisdns_under_a_country_column_is_refused_not_misread() -> None:
    rows = [
        (2, ["49 176 12345678", "DE"]),
        (3, ["(49) 176 12345678", "DE"]),
        (4, ["0049 176 12345678", "DE"]),
        (5, ["4989123456", "DE"]),
    ]
    checked, _ = check_all(rows, ColumnMapping(phone=0, phone_code=1), CheckOptions())
    assert [c.outcome for c in checked] == [Outcome.INVALID] * 2 + [Outcome.VALID] * 2
    assert checked[0].message == f"row 2: phone: {TWO_WAYS}"
    assert [(c.phone_code, c.national) for c in checked[2:]] == [
        ("49", "17612345678"),
        ("49", "89123456"),
    ]


@pytest.mark.parametrize(
    ("raw", "count", "name", "shown", "code"),
    [
        ("447911123456", 12, "United Kingdom", "+44 7911 123456", "44"),
        ("33612345678", 11, "France", "+33 6 12 34 56 78", "33"),
        ("61412345678", 11, "Australia", "+61 412 345 678", "61"),
    ],
)
def test_a_number_that_lost_its_plus_under_plus_one_says_what_it_would_be(
    raw: str, count: int, name: str, shown: str, code: str
) -> None:
    result = normalize_with_default(raw, "1")
    assert not result.ok
    assert result.reason == (
        f"too long for a US number: {count} digits, expected 10 digits; with a '+' before it, "
        f"it is a valid {name} number: if its '+' was lost, write {shown} or give its "
        f"country code {code}"
    )
    assert normalize(shown, None).ok


def test_no_lost_plus_hint_when_the_digits_are_no_number_with_a_plus_either() -> None:
    assert normalize("447900000000000", "1").reason == (
        "too long for a US number: 15 digits, expected 10 digits"
    )
    assert normalize("1235550123", "1").reason == (
        "not a valid US number: area code 123 does not exist (area codes never start with 0 or 1)"
    )


@pytest.mark.parametrize(
    ("raw", "words", "shown"),
    [
        ("+52 1 55 5128 0001", "the 1 after +52 marked a Mexican mobile number", "5128 0001"),
        ("+52 044 55 5128 0091", "044 was dialled before a Mexican mobile number", "5128 0091"),
        ("044 55 5128 0090", "044 was dialled before a Mexican mobile number", "5128 0090"),
        (
            "045 55 5128 0092",
            "045 was dialled before a Mexican mobile number from another city",
            "5128 0092",
        ),
        ("01 55 5128 0093", "01 was Mexico's long-distance prefix", "5128 0093"),
    ],
)
def test_a_pre_2019_mexican_prefix_is_named_with_the_number_without_it(
    raw: str, words: str, shown: str
) -> None:
    # phonenumbers reads none of them, so they are not read: the reason says what to enter.
    assert not reference(raw, "MX")[0]
    result = normalize(raw, "52")
    assert not result.ok
    assert result.reason.endswith(f"; {words} until 2019: without it, enter +52 55 {shown}")
    assert normalize(f"+52 55 {shown}", "52").ok


def test_an_old_mexican_prefix_after_its_own_plus_52_under_the_default_code() -> None:
    reason = normalize_with_default("+52 1 55 5128 0001", "1").reason
    assert reason.endswith("until 2019: without it, enter +52 55 5128 0001")


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("+1 441 555 0100", "not a valid Bermuda number: 441-555 is not a number range in use"),
        (
            "+1 868 555 0103",
            "not a valid Trinidad and Tobago number: 868-555 is not a number range in use",
        ),
        (
            "+1 416 123 4567",
            "not a valid Canada number: the exchange 123 after the area code cannot start with "
            "0 or 1",
        ),
        (
            "+1 800 123 4567",  # toll-free: the US's and Canada's alike
            "not a valid US number: the exchange 123 after the area code cannot start with 0 or 1",
        ),
    ],
)
def test_a_plus_one_number_is_named_by_its_area_codes_region(raw: str, reason: str) -> None:
    assert normalize(raw, "1").reason == reason


def test_a_decimal_number_as_text_is_said_not_whole_as_its_number_cell_is() -> None:
    # Black-box pass F: a CSV's "3035550115.5" was "too long… 11 digits" (its dot read as a
    # separator), the xlsx cell 3035550115.5 "not a whole number".
    text = phones.normalize("3035550115.5", "1")
    cell = phones.normalize(3035550115.5, "1")
    assert (
        text.reason
        == cell.reason
        == ("3035550115.5 is not a whole number, so it is not a phone number")
    )
    assert phones.normalize("303.555.0115", "1").national == "3035550115"
    assert phones.normalize("3035550115.0", "1").national == "3035550115"
