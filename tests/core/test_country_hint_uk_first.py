"""Black-box pass V3, finding F2 (regression of Y2 cf539de): a UK list given no country.

A UK list with one number in the UK's reserved drama range (07700 900123: no UK number, an
Indian one) was advised "--phone-code 91 for India or --phone-code 44 for United Kingdom", India
first, as India's (and Iraq's) numbering takes nearly any 0 and ten digits; a 50,000-row list
named "India, Iraq and United Kingdom". Trying every country for every refused row also took a
third more CPU on that list. Real files written to tmp_path.
"""

from __future__ import annotations

from pathlib import Path

from tests.core.test_damage_scientific_and_lost_zeros import by_row, stage, write_csv

# The tester's b_uk.csv: UK mobiles and landlines written nationally, one in the drama range.
B_UK = [
    "Name,Phone",
    "Ann Lee,07911 123456",
    "Pat O'Brien,020 7946 0018",
    "Jo Smith,0161 496 0123",
    "Li Wei,07700 900123",
    "Dee D'Angelo,0117 496 0555",
    "Sam Roe,07400 123456",
    "Kim Park,0131 496 0999",
    "Al Diaz,07123 456789",
]


def _warning(path: Path) -> str:
    _, warnings, _ = stage(path)
    (said,) = [w for w in warnings if "default country code 1" in w]
    return said


def test_a_uk_list_names_the_united_kingdom_first(tmp_path: Path) -> None:
    said = _warning(write_csv(tmp_path / "b_uk.csv", B_UK))
    assert "United Kingdom (6 of 7 rows) and India (7 of 7)" in said
    assert "--phone-code 44 for United Kingdom or --phone-code 91 for India" in said


def test_at_most_three_countries_are_named(tmp_path: Path) -> None:
    """Numbers valid in ten countries each (UK, Germany, India, China, Brazil, Italy, ...)."""
    lines = ["Phone", "09120000001", "09120000002", "09120000003", "09120000004"]
    said = _warning(write_csv(tmp_path / "many.csv", lines))
    assert (
        "United Kingdom (4 of 4 rows), Germany (4 of 4), India (4 of 4) and 7 more countries"
        in said
    )
    assert (
        "--phone-code 44 for United Kingdom, --phone-code 49 for Germany or --phone-code 91 "
        "for India (or give it a Country column)" in said
    )
    assert "Brazil" not in said


def test_later_rows_are_tried_only_against_the_countries_the_first_fitted(
    tmp_path: Path,
) -> None:
    """07400 123456 is also an Iranian number; 07911 1xxxxx ones are not. Among the first
    thousand refused rows its message names Iran; after them, only the countries those fitted,
    and the warning's counts stay exact."""
    mobiles = [f"07911 1{i:05d}" for i in range(1000)]
    first = by_row(stage(write_csv(tmp_path / "first.csv", ["Phone", "07400 123456"]))[0])
    assert "Iran (+98)" in first[2].message
    staged, warnings, _ = stage(
        write_csv(tmp_path / "late.csv", ["Phone", *mobiles, "07400 123456"])
    )
    late = by_row(staged)[1002]
    assert "Iraq (+964)" in late.message
    assert "Iran (+98)" not in late.message
    (said,) = [w for w in warnings if "default country code 1" in w]
    assert "United Kingdom (1,001 of 1,001 rows)" in said
    assert "Iran" not in said
