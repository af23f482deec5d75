"""The UK lane of :func:`app.core.phones.normalize` ("07400123456" under +44) says exactly what
the full path and phonenumbers say, and answers without the full path (session 19, P1: the
import's speed on a UK list)."""

from __future__ import annotations

import phonenumbers
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from phonenumbers import NumberParseException, PhoneNumberType

from app.core import phones
from app.core.phone_fastpath import rules_for_code

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
UK_REGIONS = phonenumbers.COUNTRY_CODE_TO_REGION_CODE[44]


def _examples() -> list[str]:
    """Ten-digit NSNs of phonenumbers' examples for +44's regions and every number type."""
    found: set[str] = set()
    for region in UK_REGIONS:
        for kind in vars(PhoneNumberType).values():
            if not isinstance(kind, int) or kind == PhoneNumberType.UNKNOWN:
                continue
            example = phonenumbers.example_number_for_type(region, kind)
            if example is not None:
                nsn = phonenumbers.national_significant_number(example)
                if len(nsn) == 10:
                    found.add(nsn)
    return sorted(found)


EXAMPLES = _examples()
# Ten digits as UK lists hold them: mobiles (7…), landlines (1…, 2…), the Crown
# dependencies' ranges (Isle of Man 7624, Jersey 7797, Guernsey 7781), any digits.
TEN_DIGITS = st.one_of(
    st.text(alphabet="0123456789", min_size=10, max_size=10),
    st.sampled_from(EXAMPLES),
    st.builds(
        lambda head, tail: (head + tail)[:10],
        st.sampled_from(["7400", "7700", "7911", "7575", "7624", "7797", "7781", "20", "1"]),
        st.text(alphabet="0123456789", min_size=9, max_size=9),
    ),
)


def _reference(text: str) -> tuple[bool, str]:
    try:
        number = phonenumbers.parse(text, "GB")
    except NumberParseException:
        return (False, "")
    if number.country_code != 44 or not phonenumbers.is_valid_number(number):
        return (False, "")
    return (True, phonenumbers.national_significant_number(number))


@SETTINGS
@given(TEN_DIGITS)
def test_uk_lane_is_the_full_path_and_phonenumbers(digits: str) -> None:
    text = f"0{digits}"
    phones.clear_cache()
    full = phones._normalize_uncached(text, "44")
    assert phones.normalize(text, "44") == full
    lane = phones._uk_lane(text)
    assert lane is None or lane == full
    assert (full.ok, full.national) == _reference(text)


@SETTINGS
@given(
    st.text(alphabet="0123456789", min_size=7, max_size=7),
    st.text(alphabet="0123456789", min_size=3, max_size=3),
    st.text(alphabet="0123456789", min_size=3, max_size=3),
)
def test_uk_validity_is_decided_by_the_leading_digits_kept(
    head: str, tail: str, other: str
) -> None:
    # The lane keeps each verdict by the NSN's first digits: numbers sharing them must share
    # the verdict, or a kept one would answer wrongly for the next.
    setup = phones._uk_rules()
    assert setup is not None
    rules, deciding = setup
    assert 0 < deciding <= len(head)
    first, second = (head + tail), (head + other)
    assert first[:deciding] == second[:deciding]
    assert rules.is_valid_nsn(first) == rules.is_valid_nsn(second)


def test_a_valid_uk_number_is_answered_without_the_full_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Most rows of a UK list are this shape: answered by the lane, not the full path.
    def full_path(*_args: object) -> phones.PhoneResult:
        raise AssertionError("asked the full path")

    phones.clear_cache()
    monkeypatch.setattr(phones, "_normalize_uncached", full_path)
    assert phones.normalize("07400123456", "44") == phones.PhoneResult(True, "7400123456", "44", "")


@pytest.mark.parametrize(
    "text",
    [
        "07911639434",  # no number range in use: a refusal with its reason, as before
        "00447400123456",  # the exit code and +44
        "０7400123456",  # a full-width digit
        "07400 123456",  # grouped: the general path
        "7400123456",  # no trunk 0
        "074001234567",  # a digit too many
    ],
)
def test_other_shapes_take_the_full_path(text: str) -> None:
    phones.clear_cache()
    assert phones._uk_lane(text) is None
    assert phones.normalize(text, "44") == phones._normalize_uncached(text, "44")


def test_rules_of_the_lane_are_plus_44() -> None:
    setup = phones._uk_rules()
    assert setup is not None and setup[0] is rules_for_code("44")


def test_a_refused_uk_number_is_answered_from_the_cache_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A refused row is checked twice (the plain path, then check()): the second answer is the
    # cached refusal, not the lane's work again.
    asked: list[str] = []
    lane = phones._uk_lane

    def counted(text: str) -> phones.PhoneResult | None:
        asked.append(text)
        return lane(text)

    phones.clear_cache()
    monkeypatch.setattr(phones, "_uk_lane", counted)
    first = phones.normalize("07911639434", "44")
    assert not first.ok
    assert phones.normalize("07911639434", "44") == first
    assert asked == ["07911639434"]
