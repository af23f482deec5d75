"""Black-box Q3 #1, the report's side: a request dated after the insertion on a day with no
business day between them (the Saturday after a Friday, the holiday after a Wednesday) is
after it, with no count of business days, as a request dated the Monday after is."""

from __future__ import annotations

import pytest

from app.core.job_report import lateness


@pytest.mark.parametrize(
    ("received", "done_at"),
    [
        ("2026-11-28", "2026-11-27T15:00:00+00:00"),  # Sat after Fri
        ("2026-11-29", "2026-11-27T15:00:00+00:00"),  # Sun after Fri
        ("2026-11-30", "2026-11-27T15:00:00+00:00"),  # Mon after Fri
        ("2026-11-26", "2026-11-25T15:00:00+00:00"),  # Thanksgiving after Wed
    ],
)
def test_a_request_dated_after_its_insertion_has_no_business_days(
    received: str, done_at: str
) -> None:
    assert lateness(received, done_at, "inserted") == (None, False)


def test_a_request_dated_on_its_insertion_day_counts_zero() -> None:
    assert lateness("2026-11-27", "2026-11-27T15:00:00+00:00", "inserted") == (0, False)
