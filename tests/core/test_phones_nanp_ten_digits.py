"""Black-box pass Q1 #1 and #3: a +1 number has ten digits; an sms: URI is read as tel: is.

#1: phonenumbers calls Canada's seven-digit shared-cost numbers 310-XXXX valid, so "3101234",
"310-5678" and the seven digits of a registry line whose area code is in another column were
read as +1 numbers and inserted: junk on the list, the number meant still callable. #3:
"sms:+13035550802" was refused as words around the number while "tel:" and "whatsapp:" were
read.
"""

from __future__ import annotations

import phonenumbers
import pytest
from phonenumbers import PhoneNumberType

from app.core import phones
from app.core.phone_fastpath import fast_national, rules_for_code

LOCAL = "too short for a US number: 7 digits is a local number without the area code"


@pytest.fixture(autouse=True)
def cold_cache() -> None:
    phones.clear_cache()


def test_phonenumbers_still_calls_the_310_numbers_valid() -> None:
    # What the fix is about: if this ever fails, the library changed, not the app.
    number = phonenumbers.parse("3101234", "US")
    assert phonenumbers.is_valid_number(number)
    assert phonenumbers.region_code_for_number(number) == "CA"


@pytest.mark.parametrize(
    "cell",
    ["3101234", "310-5678", "310 5912", "3105912", 3105912, 3105912.0, "13101234", "+13101234"],
)
def test_a_seven_digit_310_number_is_a_local_number_without_its_area_code(
    cell: str | int | float,
) -> None:
    result = phones.normalize(cell, "1")
    assert not result.ok
    # The same reason as any other seven-digit number, which asks for the area code.
    assert result.reason.startswith(LOCAL)
    assert result.reason == phones.normalize("5551234", "1").reason
    assert not phones.normalize_with_default(cell, "1").ok


def test_the_plus_form_without_a_default_code_is_refused_too() -> None:
    result = phones.normalize("+1 310 1234", None)
    assert not result.ok and result.phone_code == "1" and result.reason.startswith(LOCAL)
    assert not phones.is_valid("3101234", "1")


def test_fast_path_and_library_path_give_the_same_refusal() -> None:
    rules = rules_for_code("1")
    assert rules is not None
    for digits, plus in (("3101234", False), ("13101234", True), ("13105912", False)):
        # The replay of phonenumbers still says what the library says...
        assert fast_national(digits, plus, rules) == digits[-7:]
        # ... and both of the app's verdicts refuse it, in the same words.
        fast = phones._fast_verdict(digits, plus, "1", rules)
        library = phones._library_verdict(digits, plus, "1", rules)
        assert fast is not None and not fast.ok
        assert fast == library
        assert fast.reason.startswith(LOCAL)


def test_every_plus_one_example_of_another_length_than_ten_is_refused() -> None:
    """Whatever short form the metadata holds for a +1 region (today only Canada's 310-XXXX),
    it is refused; every ten-digit example keeps phonenumbers' verdict."""
    short: list[str] = []
    for region in phonenumbers.COUNTRY_CODE_TO_REGION_CODE[1]:
        for kind in vars(PhoneNumberType).values():
            if not isinstance(kind, int) or kind == PhoneNumberType.UNKNOWN:
                continue
            example = phonenumbers.example_number_for_type(region, kind)
            if example is None:
                continue
            national = phonenumbers.national_significant_number(example)
            result = phones.normalize(f"+1{national}", "1")
            if len(national) == phones.NANP_DIGITS:
                assert result.ok == phonenumbers.is_valid_number(example), national
            else:
                short.append(national)
                assert not result.ok and "without the area code" in result.reason, national
    assert short  # the metadata still has one, so the check above ran on it


@pytest.mark.parametrize(
    "cell", ["sms:+13035550802", "SMS:+13035550802", "smsto:+13035550802", "mms:3035550802"]
)
def test_an_sms_uri_is_read_as_a_tel_uri_is(cell: str) -> None:
    result = phones.normalize(cell, "1")
    assert result.ok, result.reason
    assert result.national.startswith("303555080")
    label = cell.split(":")[0]
    assert result.note == f"the label {label!r} was left out"


def test_an_sms_uri_of_a_310_number_is_refused_as_a_local_number() -> None:
    result = phones.normalize("sms:3101234", "1")
    assert not result.ok and result.reason.startswith(LOCAL)
