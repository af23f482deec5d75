"""Digits Python's str.isdigit() takes but int() and float() refuse ("²", "¹"): a request date
cell "²" crashed the check (found by the property test that every row is accounted for), and
"campaign:²" was taken for a campaign id."""

from __future__ import annotations

import pytest

from app.api.scope import Scope, ScopeError
from app.core.sheet_dates import parse_request_date

# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"


@pytest.mark.parametrize("text", ["²", "¹2", "2²", "²" * 8, "1²3.4"])
def test_a_superscript_is_no_date(text: str) -> None:
    found = parse_request_date(text)
    assert found.date is None and found.note == f"{text!r} is not a date{READ_AS_DATES}"


def test_plain_digits_still_read() -> None:
    assert str(parse_request_date("20261105").date) == "2026-11-05"


@pytest.mark.parametrize("text", ["campaign:²", "²", "campaign:1²"])
def test_a_superscript_is_no_campaign_id(text: str) -> None:
    with pytest.raises(ScopeError):
        Scope.parse(text)
    assert Scope.parse("campaign:12") == Scope.campaign("12")
