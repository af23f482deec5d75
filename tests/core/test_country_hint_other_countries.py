"""Black-box pass X/B2 #2, #3, #5: other countries' hints and notes.

#2: an Iranian contacts export (09120000001, given no country) was advised "--phone-code 49" as
a Germany list, the rows' messages naming only the supported countries, never Iran. #3:
"55 1234 5613" beside "Mexico" had no note naming its US reading, where "5512345613" had one.
#5: "113908603" was "too short for a US number: 7 digits". Real files written to tmp_path.
"""

from __future__ import annotations

from pathlib import Path

from app.core import phones
from tests.core.test_damage_scientific_and_lost_zeros import by_row, stage, write_csv

# The phone column of the tester's iran_contacts.csv (a Google contacts export): Iranian
# mobiles and Tehran landlines written nationally, one with its +98, one not a number.
IRAN = [
    "First Name,Last Name,Phone 1 - Value",
    "a,b,09120000001",
    "a,b,+989300000002",
    "a,b,02100000001",
    "a,b,09360000005",
    "a,b,09210000006",
    "a,b,invalid-value",
]


def test_zero_countries_finds_every_country_writing_a_trunk_zero() -> None:
    fits = phones.zero_countries("09120000001")
    # The supported countries first, as zero_readings orders them, then the others by code.
    assert fits[: len(phones.zero_readings("09120000001"))] == tuple(
        code for code, _ in phones.zero_readings("09120000001")
    )
    assert "98" in fits and "49" in fits
    assert "98" not in phones.zero_countries("09290000008")  # no Iranian number


def test_an_iranian_list_is_not_advised_as_a_germany_list(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "iran_contacts.csv", IRAN)
    staged, warnings, _ = stage(path)
    (said,) = [w for w in warnings if "default country code 1" in w]
    assert "If the file is a Germany list" not in said
    assert "Germany (4 of 4 rows) and Iran (4 of 4)" in said
    assert "the numbers cannot tell which country's they are" in said
    assert "--phone-code 98 for Iran" in said
    rows = by_row(staged)
    for number in (2, 4, 5, 6):
        assert "Iran (+98)" in rows[number].message
    assert "is also a valid number of 4 more countries, so written: Philippines (+63), " in (
        rows[2].message
    )


def test_the_country_fitting_clearly_more_rows_is_named_alone(tmp_path: Path) -> None:
    """German mobiles and landlines: Germany takes all four, Austria (next best) two."""
    lines = ["Phone", "015112345678", "01701234567", "0301234567", "0612345678"]
    _, warnings, _ = stage(write_csv(tmp_path / "de.csv", lines))
    (said,) = [w for w in warnings if "default country code 1" in w]
    assert "are valid Germany numbers written with a leading 0" in said
    assert "If the file is a Germany list, import it again with --phone-code 49" in said
    assert "Austria" not in said


def test_spaced_digits_beside_a_country_name_their_us_reading(tmp_path: Path) -> None:
    lines = ["Phone,Country", "55 1234 5613,Mexico", "347 555 4518,Italy"]
    staged, _, _ = stage(write_csv(tmp_path / "spaced.csv", lines))
    rows = by_row(staged)
    assert "read as +52 55 1234 5613 (Mexico)" in rows[2].message
    assert "as written it is also the US number +1 551 234 5613" in rows[2].message
    assert "as written it is also the US number +1 347 555 4518" in rows[3].message


def test_a_leading_one_taken_off_is_counted_as_written() -> None:
    said = phones.normalize("113908603", "1").reason
    assert said.startswith(
        "too short for a US number: 9 digits, 7 once its leading 11 is taken as the country "
        "code 1 and the trunk prefix 1: a local number without the area code"
    )
    assert "8 digits, 7 once its leading 1 is taken as the country code" in (
        phones.normalize("13908603", "1").reason
    )
    # Nothing taken off: counted as before.
    assert "7 digits is a local number" in phones.normalize("3908603", "1").reason
