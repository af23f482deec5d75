"""looks_like_phone tests for letters before it counts digits (black-box B17 F2: a CSV of
multi-line notes spent 8.6 s per 100,000 rows counting the digits of each note). The verdict is
the same as counting first: held to the rule as written, on generated text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core import sheet_header
from app.core.sheet_header import looks_like_phone


def _counting_first(value: str) -> bool:
    digits = sum(c.isdigit() for c in value)
    if (
        not 7 <= digits <= 15
        or sheet_header._DATE_LIKE.fullmatch(value)
        or sheet_header._amount(value)
    ):
        return False
    return sheet_header._NON_PHONE_CHARS.search(value) is None


texts = st.text(alphabet="0123456789 +-().,/'xXeEa\u00a0\u0663:", max_size=30)


@settings(max_examples=3000, deadline=None)
@given(value=texts)
def test_the_verdict_is_the_rule_as_written(value: str) -> None:
    assert looks_like_phone(value) is _counting_first(value)


def test_a_long_note_is_no_phone_number() -> None:
    note = "Customer called on 11/2 asking to stop, number 303-555-0123. " * 30
    assert not looks_like_phone(note)
    assert looks_like_phone("303-555-0123")
