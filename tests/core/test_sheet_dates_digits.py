"""Eight digits that name no day ("20261399") are not a date, whether text or a number.

The text was read as a number, and the number as text again: the recursion crashed the check
of any file holding such a cell in its request-date column (found by a property test).
"""

from __future__ import annotations

import datetime as dt

import pytest

from app.core.sheet_dates import parse_request_date


@pytest.mark.parametrize("value", ["20261399", 20261399, 20261399.0, "20260230", 20260230])
def test_eight_digits_naming_no_day_are_not_a_date(value: object) -> None:
    found = parse_request_date(value)  # type: ignore[arg-type]
    assert found.date is None
    assert "is not a date" in found.note


@pytest.mark.parametrize("value", ["20261102", 20261102, 20261102.0])
def test_eight_digits_naming_a_day_are_that_day(value: object) -> None:
    assert parse_request_date(value).date == dt.date(2026, 11, 2)  # type: ignore[arg-type]
