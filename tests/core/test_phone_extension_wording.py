"""Black-box pass P2 #8: an extension written with a dash or as "ex", and a range of two
numbers, are refused as what they are.

"2125551279 - ext.12" and "212-555-1324 ex 9" were refused as "has words around the number",
and "212 555 1319 – 20" (1319 and 1320) as "12 digits, too long", naming neither number.
"""

from __future__ import annotations

import pytest

from app.core import phones


@pytest.mark.parametrize(
    ("cell", "extension"),
    [
        ("2125551279 - ext.12", "ext.12"),
        ("212-555-1324 ex 9", "ex 9"),
        ("212-555-1324 – x 9", "x 9"),
        ("303-555-1501 x204", "x204"),
        ("303-555-1501, ext 4", "ext 4"),
    ],
)
def test_an_extension_is_refused_as_one(cell: str, extension: str) -> None:
    result = phones.normalize(cell, "1")
    assert not result.ok
    assert result.reason == (
        f"the number has an extension ({extension}); enter the number without the extension"
    )


@pytest.mark.parametrize("dash", ["–", "-", "—"])
def test_a_range_of_two_numbers_names_both(dash: str) -> None:
    result = phones.normalize(f"212 555 1319 {dash} 20", "1")
    assert result.reason == (
        "two phone numbers in one cell ('212 555 1319' and '212 555 1320'); put each on its own row"
    )


@pytest.mark.parametrize("cell", ["303 - 555 - 0101", "303 – 555 – 0101", "303-555-0101"])
def test_dashes_between_digit_groups_stay_separators(cell: str) -> None:
    assert phones.normalize(cell, "1") == phones.normalize("3035550101", "1")


def test_words_that_are_no_extension_are_still_words() -> None:
    assert "has words around the number" in phones.normalize("3035550101 ex", "1").reason
    assert "has words around the number" in phones.normalize("Rex 3035550101", "1").reason
