"""The printed late-requests line says how many hang on the service's unknown clock, as the
JSON's late_requests_not_certain does (black-box B32 leftover; the count itself is tested over
a real run in tests/core/test_request_dates_more_not_certain_count.py)."""

from __future__ import annotations

from app.cli.import_cmd import _count_text
from app.core.job_store import JobStatus


def test_the_late_line_names_the_not_certain_ones() -> None:
    summary = {"status": JobStatus.FINISHED, "late_requests": 3, "late_requests_not_certain": 1}
    assert _count_text("late_requests", summary) == (
        "late requests: 3 (of which 1 not certain: see the note on the service's clock)"
    )


def test_without_such_rows_the_line_is_as_before() -> None:
    summary = {"status": JobStatus.FINISHED, "late_requests": 3, "late_requests_not_certain": 0}
    assert _count_text("late_requests", summary) == "late requests: 3"
