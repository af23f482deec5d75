"""The leading digits that decide a pattern, and the US table built on them.

:func:`deciding_prefix` claims that ``fullmatch`` gives one verdict for all digit strings of
one length sharing their first K characters; ``phones._us_valid`` keeps one verdict per such
prefix instead of matching the metadata's expression for every number. Both claims are
checked here against the expression itself: exhaustively for every six-digit US prefix, and
by hypothesis for whole numbers.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core import phones
from app.core.phone_fastpath import rules_for_code
from app.core.phone_prefix import deciding_prefix


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"\d{10}", 0),
        (r"[0-9]{3}", 0),
        (r"2\d{9}", 1),
        (r"(?:20[1-9]|3)\d{7}", 3),
        (r"(?=[2-9])\d{3}5\d", 4),  # a lookahead reads what it constrains
        (r"(?![01])\d{2}", 1),
        (r"1?\d{3}", 1),
        (r"(?:1\d|2)\d{3}(?:45)?", 7),  # the longer branch reads up to its "5"
        (r"\d{3}\Z", 0),
    ],
)
def test_deciding_prefix_of_small_patterns(pattern: str, expected: int) -> None:
    assert deciding_prefix(pattern) == expected


@pytest.mark.parametrize(
    "pattern",
    [r"(\d)\1", r"[^5]\d", r"\d+", r"(?<=1)\d", r"\w\d", r"(?>12|1)\d", r"\d{2}+", "[a-"],
)
def test_patterns_it_cannot_reason_about_give_none(pattern: str) -> None:
    assert deciding_prefix(pattern) is None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["1", "2", "[2-9]", "[0-4]", r"\d", "(?:1|23)", "(?=[3-7])"]), max_size=6
    ),
    st.data(),
)
def test_strings_sharing_the_deciding_prefix_share_the_verdict(
    parts: list[str], data: st.DataObject
) -> None:
    import re

    pattern = "".join(parts) + r"\d{0,3}"
    k = deciding_prefix(pattern)
    assert k is not None
    compiled = re.compile(pattern)
    length = data.draw(st.integers(0, 9))
    digits = st.text("0123456789", min_size=length, max_size=length)
    a = data.draw(digits)
    b = a[:k] + data.draw(st.text("0123456789", min_size=length, max_size=length))[k:]
    assert (compiled.fullmatch(a) is None) == (compiled.fullmatch(b) is None), (pattern, a, b)


def _us_pattern():  # type: ignore[no-untyped-def]
    rules = rules_for_code("1")
    assert rules is not None and rules.regions[0].region == "US"
    return rules.regions[0].by_length[10]


def test_every_six_digit_us_prefix_decides_alike_for_any_ending_and_the_table_agrees() -> None:
    pattern = _us_pattern()
    k = deciding_prefix(pattern.pattern, pattern.flags)
    assert k is not None and k <= 7
    phones.clear_cache()
    rng = random.Random(20261122)
    match = pattern.fullmatch
    us_valid = phones._us_valid
    width = 10 - k
    zeros, nines = "0" * width, "9" * width
    # A random ending per prefix, drawn all at once, and the prefixes in increasing order
    # built digit by digit: formatting each and drawing each apart took a third of the time.
    endings = rng.choices([f"{n:0{width}d}" for n in range(10**width)], k=10**k)
    heads = ("".join(digits) for digits in itertools.product("0123456789", repeat=k))
    for head, ending in zip(heads, endings, strict=True):
        low, high, other = head + zeros, head + nines, head + ending
        verdict = match(low) is not None
        assert (match(high) is not None) == verdict == (match(other) is not None), head
        # The table, filled in prefix order, answers every prefix as the expression does.
        assert us_valid(other) == verdict, head


@settings(max_examples=2000, deadline=None)
@given(st.text("0123456789", min_size=10, max_size=10))
def test_the_us_table_gives_the_expression_s_verdict(national: str) -> None:
    expected = _us_pattern().fullmatch(national) is not None
    assert phones._us_valid(national) == expected
    # Asked again, from the table this time.
    assert phones._us_valid(national) == expected
