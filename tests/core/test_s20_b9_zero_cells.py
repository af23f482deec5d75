"""Black-box B9 #7: a text cell of zeros ('0000000000', a template's blank) was called a
number cut short by scientific notation ("(0E+09) … any number from -5000 to 4999"): a
display shows a number from its first significant digit, so zeros first were typed so."""

from __future__ import annotations

from app.core import phones
from app.core.sheet_damage import cut_short, describe_damage


def test_zeros_alone_or_first_are_not_a_number_cut_short() -> None:
    assert not cut_short("0000000000")
    assert not cut_short("0202000000")
    result = phones.normalize("0000000000", "1")
    assert describe_damage("0000000000", result) == ""


def test_a_number_cut_short_is_still_named() -> None:
    assert cut_short("2025550000")
    note = describe_damage("2025550000", phones.normalize("2025550000", "1"))
    assert "any number from 2025545000 to 2025554999" in note
    note = describe_damage(2025550000, phones.normalize(2025550000, "1"))
    assert "any number from 2025545000 to 2025554999" in note
