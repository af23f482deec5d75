"""Black-box B34 F2-F4: phone verdicts that differed from phonenumbers'.

F2: a local number beside a region with one area code (Jersey, Guernsey, the Isle of Man,
Cocos and Christmas Islands) is completed as phonenumbers completes it. F3: "++44…" is read as
"+44…", a leading "*" or "#" is named as a dial code. F4: 810, the exit code of Russia and
Belarus, is read as "00" is beside them.
"""

from __future__ import annotations

import phonenumbers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phonenumbers import NumberParseException

from app.core import phones

ONE_AREA = {"JE": "44", "GG": "44", "IM": "44", "CC": "61", "CX": "61"}


def _reference(text: str, region: str) -> tuple[bool, str]:
    """phonenumbers' verdict on ``text`` as the importer reads a number beside the region:
    under its calling code first (the code's main region: a Country cell gives the code, and
    "61 2 0000 0000" beside Cocos is Sydney's +61 2 0000 0000, which phonenumbers under CC
    alone refuses), else under the region itself."""
    main = phonenumbers.region_code_for_country_code(int(ONE_AREA[region]))
    under_code = _verdict(text, main)
    return under_code if under_code[0] else _verdict(text, region)


def _verdict(text: str, region: str) -> tuple[bool, str]:
    """phonenumbers' verdict on ``text`` parsed under ``region``."""
    try:
        number = phonenumbers.parse(text, region)
    except NumberParseException:
        return (False, "")
    if not phonenumbers.is_valid_number(number):
        return (False, "")
    return (True, phonenumbers.national_significant_number(number))


def _importer(text: str, region: str) -> tuple[bool, str]:
    """The importer's verdict on ``text`` beside a Country cell holding ``region``: its code's,
    else the one area code's reading (sheet_check._Checker._one_area)."""
    result = phones.normalize(text, ONE_AREA[region])
    if not result.ok:
        found = phones.one_area_reading(text, region)
        if found is not None:
            result = found[0]
    return (result.ok, result.national)


@pytest.mark.parametrize(
    ("raw", "cell", "national", "area"),
    [
        ("812345", "JE", "1534812345", "1534"),
        ("812345", "Jersey", "1534812345", "1534"),
        ("712345", "GG", "1481712345", "1481"),
        ("612345", "Isle of Man", "1624612345", "1624"),
        ("91388009", "CC", "891388009", "8"),
        ("9138 8009", "CX", "891388009", "8"),
        ("91388009", "Christmas Island", "891388009", "8"),
        # Written with the calling code but not the area code, as phonenumbers reads it
        # (hypothesis drew it in a CI run: the importer refused it).
        ("44200000", "GG", "1481200000", "1481"),
        ("44 812345", "Jersey", "1534812345", "1534"),
    ],
)
def test_local_number_takes_the_one_area_code(
    raw: str, cell: str, national: str, area: str
) -> None:
    found = phones.one_area_reading(raw, cell)
    assert found is not None
    result, added, _place = found
    assert (result.ok, result.national, added) == (True, national, area)


@pytest.mark.parametrize(
    ("raw", "cell"),
    [("812345", "GB"), ("91388009", "AU"), ("812345", "44"), ("+44 812345", "JE"), ("1234", "JE")],
)
def test_no_area_code_added_elsewhere(raw: str, cell: str) -> None:
    assert phones.one_area_reading(raw, cell) is None


def _examples(region: str) -> list[str]:
    """phonenumbers' example numbers of ``region``, as written nationally and without their
    area code (the local number), so that valid inputs are drawn often."""
    found: set[str] = set()
    for kind in (phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE):
        example = phonenumbers.example_number_for_type(region, kind)
        if example is not None:
            nsn = phonenumbers.national_significant_number(example)
            found |= {nsn, "0" + nsn, nsn[4:] if ONE_AREA[region] == "44" else nsn[1:]}
    return sorted(found)


@st.composite
def _inputs(draw: st.DrawFn) -> tuple[str, str]:
    region = draw(st.sampled_from(sorted(ONE_AREA)))
    if draw(st.booleans()):
        return region, draw(st.text(alphabet="0123456789", min_size=5, max_size=11))
    body = draw(st.sampled_from(_examples(region)))
    at = draw(st.integers(min_value=0, max_value=len(body) - 1))
    digit = draw(st.sampled_from("0123456789"))
    return region, body[:at] + digit + body[at + 1 :]


@settings(max_examples=200, deadline=None)
@given(_inputs())
def test_verdict_beside_a_one_area_region_is_phonenumbers(drawn: tuple[str, str]) -> None:
    region, digits = drawn
    assert _importer(digits, region) == _reference(digits, region)


def test_doubled_plus_is_one() -> None:
    result = phones.normalize("++44 7911 123456", "44")
    assert (result.ok, result.national) == (True, "7911123456")
    assert _verdict("++44 7911 123456", "GB") == (True, "7911123456")


@pytest.mark.parametrize("raw", ["*44 7911 123457", "#7911 123458"])
def test_leading_star_or_hash_named_a_dial_code(raw: str) -> None:
    result = phones.normalize(raw, "44")
    assert not result.ok
    assert f"starts with {raw[0]!r}, which starts a dial code" in result.reason
