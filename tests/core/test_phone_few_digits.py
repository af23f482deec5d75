"""Words beside a small number (a totals row, a note) are not called a vanity number
(black-box finding: "Total: 5" was refused as "a vanity number like 1-800-FLOWERS")."""

from __future__ import annotations

import pytest

from app.core import phones


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        ("Total: 5", "'Total: 5' is not a phone number: it has only 1 digit"),
        ("Count: 2", "'Count: 2' is not a phone number: it has only 1 digit"),
        ("Total 1,234", "'Total 1,234' is not a phone number: it has only 4 digits"),
        ("see row 12", "'see row 12' is not a phone number: it has only 2 digits"),
    ],
)
def test_words_beside_a_small_number_are_not_a_phone_number(cell: str, reason: str) -> None:
    result = phones.normalize(cell, "1")
    assert not result.ok and result.reason == reason


@pytest.mark.parametrize(
    "cell", ["1-800-FLOWERS", "1 800 FLOWERS", "202-555-CALL", "1800FLOWERS", "1.800.GOT.JUNK"]
)
def test_letters_dialled_with_the_digits_are_still_a_vanity_number(cell: str) -> None:
    result = phones.normalize(cell, "1")
    assert not result.ok and "vanity number" in result.reason
