"""Unit tests for app.core.phones: every accepted artefact and every rejection, per country."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from app.core import phones
from app.core.phones import PhoneResult, normalize

# (code, valid national significant number, trunk prefix, grouped display of it)
COUNTRIES = [
    ("1", "2025550123", "1", "(202) 555-0123"),
    ("44", "2079460958", "0", "20 7946 0958"),
    ("61", "212345678", "0", "2 1234 5678"),
    ("49", "30123456", "0", "30 123456"),
    ("33", "123456789", "0", "1 23 45 67 89"),
    ("34", "912345678", "", "912 34 56 78"),
    ("91", "9876543210", "0", "98765 43210"),
    ("86", "13800138000", "0", "138 0013 8000"),
    ("52", "5512345678", "", "55 1234 5678"),
    ("55", "11912345678", "0", "(11) 91234-5678"),
]
IDS = [c[0] for c in COUNTRIES]

# A number of the right length that the country's numbering plan does not use.
INVALID = {
    "1": "1235550123",
    "44": "4079460958",
    "61": "012345678",
    "49": "0123456789",
    "33": "012345678",
    "34": "012345678",
    "91": "0123456789",
    "86": "0000000000",
    "52": "0012345678",
    "55": "00912345678",
}


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) - ord("0") + 0xFF10) if c.isdigit() else c for c in text)


def _artefacts(code: str, national: str, trunk: str, grouped: str) -> list[object]:
    value = int(national)
    mantissa = f"{national[0]}.{national[1:]}"
    exponent = len(national) - 1
    forms: list[object] = [
        national,
        f"+{code}{national}",
        f"+{code} {grouped}",
        f"00{code} {grouped}",
        f"00 {code} {national}",
        f"  {grouped}\t",
        f"'{national}",
        f"' {grouped}",
        f"\u00a0{national}\u00a0",
        grouped.replace(" ", "\u00a0"),
        _full_width(national),
        f"＋{_full_width(code + national)}",
        value,
        float(value),
        f"{national}.0",
        f"{national}.00",
        f"{mantissa}E{exponent}",
        f"{mantissa}e+{exponent:02d}",
        f"{mantissa}E+{exponent}",
        Decimal(national),
        f"{grouped.replace(' ', '-')}",
        f"{grouped.replace(' ', '.')}",
        f'"{grouped}"',
    ]
    if trunk:
        forms += [f"{trunk}{national}", f"{trunk} {grouped}", f"{trunk}-{grouped}"]
    return forms


@pytest.mark.parametrize(("code", "national", "trunk", "grouped"), COUNTRIES, ids=IDS)
def test_every_artefact_is_accepted(code: str, national: str, trunk: str, grouped: str) -> None:
    expected = PhoneResult(ok=True, national=national, phone_code=code, reason="")
    for raw in _artefacts(code, national, trunk, grouped):
        assert normalize(raw, code) == expected, raw
        assert normalize(raw, int(code)) == expected, raw


@pytest.mark.parametrize(("code", "national", "trunk", "grouped"), COUNTRIES, ids=IDS)
def test_result_fields_for_valid_number(code: str, national: str, trunk: str, grouped: str) -> None:
    result = normalize(f"+{code} {grouped}", code)
    assert result.ok
    assert result.e164 == f"+{code}{national}"
    assert result.reason == ""
    assert phones.is_valid(national, code)


@pytest.mark.parametrize(("code", "national", "trunk", "grouped"), COUNTRIES, ids=IDS)
def test_code_is_inferred_from_the_number_when_not_given(
    code: str, national: str, trunk: str, grouped: str
) -> None:
    assert normalize(f"+{code} {grouped}", None) == PhoneResult(True, national, code, "")
    assert normalize(f"00{code}{national}", None) == PhoneResult(True, national, code, "")
    missing = normalize(national, None)
    assert not missing.ok
    assert "no country code" in missing.reason


def _rejected(raw: object, code: str | int | None = "1") -> str:
    result = normalize(raw, code)
    assert not result.ok, raw
    assert result.national == ""
    assert result.e164 == ""
    assert result.reason
    return result.reason


@pytest.mark.parametrize(("code", "national", "trunk", "grouped"), COUNTRIES, ids=IDS)
def test_empty_values(code: str, national: str, trunk: str, grouped: str) -> None:
    for raw in ("", "   ", "\u00a0", "'", None):
        assert _rejected(raw, code) == "the phone number is empty"


@pytest.mark.parametrize(("code", "national", "trunk", "grouped"), COUNTRIES, ids=IDS)
def test_extensions(code: str, national: str, trunk: str, grouped: str) -> None:
    for suffix, shown in (
        (" x123", "x123"),
        ("x123", "x123"),
        (" ext. 5", "ext. 5"),
        (" ext 55", "ext 55"),
        (" extension 12", "extension 12"),
        ("#123", "#123"),
        (" # 123", "# 123"),
    ):
        reason = _rejected(f"{grouped}{suffix}", code)
        assert reason.startswith(f"the number has an extension ({shown})"), reason


@pytest.mark.parametrize(("code", "national", "trunk", "grouped"), COUNTRIES, ids=IDS)
def test_letters(code: str, national: str, trunk: str, grouped: str) -> None:
    vanity = _rejected(f"{national[:4]}-FLOWERS", code)
    assert "vanity number" in vanity
    assert "letters" in _rejected(f"{national[:-1]}K", code)
    # fxD (session 33): O ending the digits is a letter typed for 0, said so.
    assert "where a digit belongs" in _rejected(f"{national[:-1]}O", code)
    assert "no digits" in _rejected("N/A", code)


def test_vanity_number_1_800_flowers() -> None:
    reason = _rejected("1-800-FLOWERS")
    assert "vanity number like 1-800-FLOWERS" in reason


@pytest.mark.parametrize(("code", "national", "trunk", "grouped"), COUNTRIES, ids=IDS)
def test_too_short(code: str, national: str, trunk: str, grouped: str) -> None:
    for raw in (national[:2], national[:3]):
        reason = _rejected(raw, code)
        assert "too short" in reason, (raw, reason)


@pytest.mark.parametrize(("code", "national", "trunk", "grouped"), COUNTRIES, ids=IDS)
def test_too_long(code: str, national: str, trunk: str, grouped: str) -> None:
    for raw in (national + "1234567890", f"+{code}{national}111111111"):
        reason = _rejected(raw, code)
        assert "too long" in reason, (raw, reason)


@pytest.mark.parametrize(("code", "national", "trunk", "grouped"), COUNTRIES, ids=IDS)
def test_invalid_for_the_country(code: str, national: str, trunk: str, grouped: str) -> None:
    reason = _rejected(f"+{code}{INVALID[code]}", code)
    name = "US" if code == "1" else phones.region_name(code)
    assert reason.startswith(f"not a valid {name} number"), reason


def test_invalid_us_numbers_say_what_is_wrong() -> None:
    assert _rejected("123-555-0123").startswith(
        "not a valid US number: area code 123 does not exist"
    )
    assert _rejected("(999) 555-0123") == "not a valid US number: area code 999 does not exist"
    assert _rejected("202-055-0123") == (
        "not a valid US number: the exchange 055 after the area code cannot start with 0 or 1"
    )


def test_numeric_cells_get_the_same_reasons_as_text() -> None:
    for raw in (9995550123, 9995550123.0, "999-555-0123"):
        assert _rejected(raw) == "not a valid US number: area code 999 does not exist"
    assert _rejected(1235550123.0).startswith("not a valid US number: area code 123")
    assert normalize(12025550123) == PhoneResult(True, "2025550123", "1", "")
    assert normalize(12025550123.0) == PhoneResult(True, "2025550123", "1", "")


def test_local_number_without_area_code() -> None:
    reason = _rejected("555-0123")
    assert reason.startswith("too short for a US number: 7 digits")
    assert "without the area code" in reason


@pytest.mark.parametrize(("code", "national", "trunk", "grouped"), COUNTRIES, ids=IDS)
def test_international_prefix_naming_another_country(
    code: str, national: str, trunk: str, grouped: str
) -> None:
    other = "44" if code != "44" else "1"
    other_number = "2079460958" if other == "44" else "2025550123"
    expected = f"number starts with +{other} but the country code is {code}"
    assert _rejected(f"+{other} {other_number}", code) == expected
    assert _rejected(f"00{other}{other_number}", code) == expected


def test_mismatch_wording_from_the_brief() -> None:
    assert _rejected("+44 20 7946 0958", "1") == "number starts with +44 but the country code is 1"
    assert _rejected("011 44 20 7946 0958", "1") == (
        "number starts with +44 but the country code is 1"
    )


def test_unknown_plus_code() -> None:
    assert "not a country calling code" in _rejected("+999 1234 5678", "1")


def test_scientific_notation_that_lost_digits() -> None:
    for raw in ("2.02555E+09", "2.02555e9", "2,02555E+09"):
        reason = _rejected(raw)
        assert "damaged by scientific notation" in reason, reason
        assert raw in reason


def test_scientific_notation_that_is_not_a_whole_number() -> None:
    assert "not a whole number" in _rejected("2.0255501234E5")


def test_non_phone_cell_values() -> None:
    assert "TRUE/FALSE" in _rejected(True)
    assert "date or time" in _rejected(dt.date(2024, 1, 2))
    assert "date or time" in _rejected(dt.datetime(2024, 1, 2, 3, 4))
    assert "not a whole number" in _rejected(2025550123.5)
    assert "negative" in _rejected(-2025550123)
    assert "no usable number" in _rejected(float("nan"))
    assert "more than 15 digits" in _rejected(1.2345678901234567e16)
    assert "is not a phone number" in _rejected(b"2025550123")
    assert "characters that are not part of a phone number" in _rejected("202*555*0123")


def test_huge_cells_are_refused_quickly() -> None:
    assert "far too long" in _rejected("1" * 100_000 + "x")
    assert "far too long" in _rejected(" (" * 50_000)


def test_unknown_phone_code() -> None:
    result = normalize("2025550123", "999")
    assert not result.ok
    assert result.reason == "999 is not a country calling code"
    assert not normalize("2025550123", "abc").ok


def test_other_country_codes_use_phonenumbers_regions() -> None:
    assert normalize("06 1234 5678", "39") == PhoneResult(True, "0612345678", "39", "")
    assert normalize("+7 495 123-45-67", "7") == PhoneResult(True, "4951234567", "7", "")
    assert normalize("+800 1234 5678", "800") == PhoneResult(True, "12345678", "800", "")


def test_nanp_numbers_outside_the_us_are_accepted_under_code_1() -> None:
    for raw, national in (
        ("(416) 555-0199", "4165550199"),
        ("+1 604 555 0101", "6045550101"),
        ("1-876-555-0123", "8765550123"),
        ("787 555 0123", "7875550123"),
    ):
        assert normalize(raw, "1") == PhoneResult(True, national, "1", ""), raw


def test_thousands_separators_from_number_formatting() -> None:
    assert normalize("2,025,550,123").national == "2025550123"
    assert normalize("2,025,550,123.00").national == "2025550123"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", "1"),
        ("+1", "1"),
        (1, "1"),
        (1.0, "1"),
        ("001", "1"),
        ("0044", "44"),
        ("011 44", "44"),
        (" +44 ", "44"),
        ("44.0", "44"),
        ("'44", "44"),
        ("+５５", "55"),
        ("GB", "44"),
        ("uk", "44"),
        ("US", "1"),
        ("CA", "1"),
        ("39", "39"),
        ("", None),
        ("999", None),
        ("0", None),
        ("abc", None),
        ("XX", None),
        (None, None),
        (True, None),
        (1.5, None),
        (float("nan"), None),
        ([1], None),
    ],
)
def test_normalize_code(raw: object, expected: str | None) -> None:
    assert phones.normalize_code(raw) == expected


def test_region_names() -> None:
    assert phones.region_name("1") == "United States / Canada"
    assert phones.region_name("44") == "United Kingdom"
    assert phones.region_name("+49") == "Germany"
    assert phones.region_name("55") == "Brazil"
    assert phones.region_name("39").startswith("Italy")
    assert "unknown" in phones.region_name("999")
    for code in phones.SUPPORTED_PHONE_CODES:
        assert phones.region_name(code)


def test_format_for_display() -> None:
    assert phones.format_for_display("2025550123", "1") == "(202) 555-0123"
    assert phones.format_for_display("2079460958", "44") == "+44 20 7946 0958"
    assert phones.format_for_display("11912345678", "55") == "+55 11 91234-5678"
    # Unparseable input comes back as given.
    assert phones.format_for_display("12", "1") == "12"
    assert phones.format_for_display("20x", "44") == "20x"
    assert phones.format_for_display("2025550123", "999") == "2025550123"


def test_is_valid() -> None:
    assert phones.is_valid("2025550123", "1")
    assert phones.is_valid("4165550199", "1")
    assert not phones.is_valid("1235550123", "1")
    # A trunk prefix is not part of the national significant number.
    assert not phones.is_valid("02079460958", "44")
    assert not phones.is_valid("202-555-0123", "1")
    assert not phones.is_valid("2025550123", "999")


def test_supported_codes() -> None:
    assert phones.SUPPORTED_PHONE_CODES == (
        "1",
        "44",
        "61",
        "49",
        "33",
        "34",
        "91",
        "86",
        "52",
        "55",
    )


def test_cache_returns_the_same_answer_and_can_be_cleared() -> None:
    # A UK number takes the long path, which is the one cached (the US lane is cheaper than
    # a cache lookup, so it is not).
    phones.clear_cache()
    first = normalize("07400 123456", "44")
    assert first.ok
    assert normalize("07400 123456", "44") is first
    phones.clear_cache()
    again = normalize("07400 123456", "44")
    assert again == first
    assert again is not first


def test_us_lane_gives_the_long_path_answer() -> None:
    for raw in ("(202) 555-0123", "+1 202-555-0123", 2025550123.0, 2025550123, " 2025550123 "):
        assert normalize(raw, "1") == phones._normalize_uncached(raw, "1"), raw
    # Outside the US pattern (a Canadian area code, an unassigned one) the lane steps aside.
    assert phones._nanp_lane("4165550123") is None
    assert normalize("4165550123", "1").ok
    assert phones._nanp_lane(True) is None


def test_numeric_code_cells() -> None:
    # A numeric "Country code" column arrives from calamine as floats.
    assert normalize("2025550123", 1.0) == PhoneResult(True, "2025550123", "1", "")
    assert normalize(2079460958.0, 44.0) == PhoneResult(True, "2079460958", "44", "")
    assert not normalize("2025550123", float("nan")).ok
    assert not normalize("2025550123", 1.5).ok


def test_bool_code_does_not_reuse_the_int_code_cache_slot() -> None:
    assert normalize("2025550123", 1).ok
    assert not normalize("2025550123", True).ok


def test_result_is_immutable() -> None:
    result = normalize("2025550123")
    with pytest.raises(AttributeError):
        result.ok = False  # type: ignore[misc]


@pytest.mark.parametrize(
    ("code", "start"),
    [
        ("61", "too short for an Australia number"),
        ("380", "too short for a Ukraine number"),
        ("998", "too short for an Uzbekistan number"),
        ("44", "too short for a United Kingdom number"),
        ("49", "too short for a Germany number"),
    ],
)
def test_length_reasons_say_a_or_an_as_the_country_name_is_said(code: str, start: str) -> None:
    assert phones.normalize("12", code).reason.startswith(start)
