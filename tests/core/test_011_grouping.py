"""Regression check V2, task V2a, through the core API: what commit 9ce1b1e (digits after the
US exit code 011 that are another country's number with its leading 0 read two ways) broke.

#1: "011 43 1 80921", grouped as dialled from the US (011, then Austria's 43), was refused as
reading two ways, though no country writes its own number so; run together or grouped as the
UK writes it, the number still reads two ways. #2: after 011, a Mexican number with a prefix
Mexico dropped in 2019 lost the hint that names it. #3: Brazil's "021 11 91234-5255" (a
carrier code after the trunk 0) was no longer named as a Brazilian number.
"""

from __future__ import annotations

import pytest

from app.core import phones
from app.core.sheet_damage import other_country, other_country_note


@pytest.mark.parametrize(
    "cell", ["011 43 1 80921", "011-43-1-80921", "(011) 43 1 80921", "011.43.180921"]
)
def test_011_then_the_country_code_each_alone_is_the_exit_code(cell: str) -> None:
    result = phones.normalize_with_default(cell, "1")
    assert (result.ok, result.phone_code, result.national) == (True, "43", "180921")


@pytest.mark.parametrize("cell", ["01143180921", "0114 318 0921", "011 4318 0921"])
def test_011_not_grouped_as_dialled_from_the_us_still_reads_two_ways(cell: str) -> None:
    result = phones.normalize_with_default(cell, "1")
    assert not result.ok
    assert phones.READS_TWO_WAYS in result.reason
    assert "+44 114 318 0921 (United Kingdom)" in result.reason


@pytest.mark.parametrize(
    ("cell", "words"),
    [
        ("011 52 1 55 1234 5678", "the 1 after +52 marked a Mexican mobile number until 2019"),
        ("01152 1 55 1234 5678", "the 1 after +52 marked a Mexican mobile number until 2019"),
        ("011 52 044 55 1234 5678", "044 was dialled before a Mexican mobile number"),
    ],
)
def test_an_old_mexican_prefix_after_011_is_named(cell: str, words: str) -> None:
    result = phones.normalize_with_default(cell, "1")
    assert not result.ok
    assert words in result.reason
    assert "without it, enter +52 55 1234 5678" in result.reason


def test_a_brazilian_number_with_a_carrier_code_is_named_beside_germanys() -> None:
    cell = "021 11 91234-5255"
    found = other_country(cell)
    assert found is not None
    assert {found.code, *found.others} >= {"49", "55"}
    note = other_country_note(cell, found)
    assert "+49 211 1912345255" in note
    assert "+55 11 91234-5255 in Brazil" in note
    assert "--phone-code 55" in note


def test_zero_readings_still_leave_out_an_exit_code() -> None:
    # Australia's exit code 0011 then +61 is valid under 61, but is no number written with
    # Australia's trunk 0: a carrier code after a trunk 0 counts, an exit code does not.
    assert phones.normalize("001161298765432", "61").ok
    assert "61" not in [code for code, _ in phones.zero_readings("001161298765432")]


def test_an_invisible_character_makes_no_group() -> None:
    # A zero-width space shows in no spreadsheet: "0111 0000" with one after its "011" is the
    # same cell to the eye, and gets the same verdict and reason (the property test of
    # invisible characters found "011\u200b1 0000" read as 011 grouped apart).
    plain = phones.normalize("  0111 0000", "1")
    assert phones.normalize("  011\u200b1 0000", "1") == plain
    assert phones.normalize("\u200b0111\u200b 0000", "1") == plain
