"""A template's placeholder number (5555555555, 1234567890) refused as a US number is offered
as no other country's number, in its row's note as in the file's warnings (black-box Q1 #2:
the row still said "may have lost a leading 0 … +44 …; use --phone-code 44")."""

from __future__ import annotations

import pytest

from app.core import phones
from app.core.sheet_damage import other_country, placeholder_number


@pytest.mark.parametrize("raw", ["5555555555", 5555555555, "(555) 555-5555", 1234567890.0])
def test_a_placeholder_is_no_other_country_s_number(raw: object) -> None:
    assert placeholder_number(raw)  # type: ignore[arg-type]
    assert not phones.normalize(str(raw), "1").ok
    assert other_country(raw) is None  # type: ignore[arg-type]


def test_a_real_number_that_lost_its_0_is_still_offered() -> None:
    found = other_country(7911123456)
    assert found is not None and found.code == "44" and found.lost
    assert not placeholder_number(7911123456)
