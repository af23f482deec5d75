"""Black-box R2/V1, task W3, through the core API: the other-country readings of a cell
refused as a US number (Italy's among them), the UK reading of digits that start with the US
exit code 011, and the words for a Country cell holding a US state's or a Canadian province's
code."""

from __future__ import annotations

import pytest

from app.core import country_names, phones
from app.core.sheet_damage import other_country, other_country_note


def test_a_lost_0_offers_italy_with_its_number() -> None:
    found = other_country(669823456)
    assert found is not None and found.lost
    assert "39" in (found.code, *found.others)
    note = other_country_note(669823456, found)
    assert "+39 06 6982 3456 in Italy" in note
    # The first country's, then the others', then Spain's, whose mobile 669 82 34 56 the
    # cell is as it stands (black-box B24 F2).
    assert note.count("--phone-code") == 3
    assert note.endswith(
        "669823456 is also a Spain number, +34 669 82 34 56: if it is one, "
        "use --phone-code 34 or a Country column"
    )


def test_a_number_only_italy_has_is_offered_as_italys() -> None:
    # A landline of Susa (0122) with few digits, as Italy's older ones have: no trunk-0
    # country of the list has it, and it was offered as no one's.
    found = other_country("0122 12345")
    assert found is not None and not found.others
    assert (found.code, found.shown) == ("39", "+39 0122 12345")
    note = other_country_note("0122 12345", found)
    assert "reads as an Italy / Vatican number: +39 0122 12345" in note
    assert "use --phone-code 39 or a Country column" in note


def test_zero_readings_reads_the_digits_as_written() -> None:
    readings = dict(phones.zero_readings("01134960285"))
    assert readings["44"].national == "1134960285"
    assert readings["39"].national == "01134960285"  # Italy keeps its 0
    # Australia's exit code 0011 is not a number written with a trunk 0.
    assert "61" not in dict(phones.zero_readings("001144207946001"))


def test_011_then_an_invalid_number_names_the_uk_reading() -> None:
    result = phones.normalize_with_default("0113 496 0285", "1")
    assert not result.ok and result.phone_code == "34"
    assert "+44 113 496 0285 (United Kingdom)" in result.reason
    assert "011 being their exit code" in result.reason


def test_011_then_a_valid_number_is_refused_when_a_trunk_0_reads_it_too() -> None:
    result = phones.normalize_with_default("0114 318 0921", "1")
    assert not result.ok
    assert phones.READS_TWO_WAYS in result.reason
    assert "+43 1 80921 (Austria)" in result.reason
    assert "+44 114 318 0921 (United Kingdom)" in result.reason


@pytest.mark.parametrize(
    ("cell", "code", "national"),
    [("011 44 20 7946 0018", "44", "2079460018"), ("011 49 30 1234 5678", "49", "3012345678")],
)
def test_011_then_a_number_no_trunk_0_reads_is_read_as_before(
    cell: str, code: str, national: str
) -> None:
    result = phones.normalize_with_default(cell, "1")
    assert (result.ok, result.phone_code, result.national) == (True, code, national)


def test_a_dialer_s_stored_number_is_not_asked_about() -> None:
    # stored=True settles the reading; the two-way refusal is for cells a person wrote.
    assert phones.normalize("0114 318 0921", "1", stored=True).reason.startswith("number starts")


@pytest.mark.parametrize(
    ("cell", "said"),
    [
        ("NY", "'NY' is the code of the US state New York, not of a country"),
        ("n.y.", "the US state New York"),
        ("DC", "the District of Columbia"),
        ("ON", "'ON' is the code of the Canadian province Ontario"),
        ("NU", "the Canadian territory Nunavut"),
    ],
)
def test_a_state_or_province_code_is_named(cell: str, said: str) -> None:
    assert said in country_names.not_a_country(cell)


def test_every_state_and_province_code_no_country_has_is_named() -> None:
    codes = {*country_names.US_STATES, *country_names.CA_PROVINCES}
    unread = [code for code in codes if phones.normalize_code(code) is None]
    assert "NY" in unread and "QC" in unread
    for code in unread:
        reason = country_names.not_a_country(code)
        assert "not of a country" in reason and "(1)" in reason, code
    for other in ("FR", "Narnia", "", "44"):
        assert country_names.not_a_country(other) == ""
