"""A request date after the day the file was checked is no longer "after the insertion date"
once the row is inserted on or after it (black-box B28 F4).

A job checked on Nov 24 and resumed on Nov 25 inserts a row dated Nov 25 that day: 0 business
days, in time. Its message kept the check's "the request date is after the insertion date",
which says its limit was not checked, beside a count of 0 business days.
"""

from __future__ import annotations

import datetime as dt

from app.core.job_report import row_lateness, settled_message
from app.core.job_runner import _with_staged
from app.core.job_store import JobRow, Outcome, RowState

AFTER = "the request date is after the insertion date"
DAY = dt.date(2026, 11, 25)


def _row(message: str, outcome: str = "") -> JobRow:
    return JobRow(
        seq=21,
        row_number=22,
        original="3036196099",
        national="3036196099",
        phone_code="1",
        scope="global",
        reason="",
        purpose="",
        request_date=DAY.isoformat(),
        damage="",
        state=RowState.SENDING.value,
        outcome=outcome,
        code="",
        message=message,
        done_at="",
    )


def test_an_insertion_on_the_request_day_drops_the_after_note() -> None:
    row = _row(f"row 22: {AFTER}")
    assert settled_message(row, Outcome.INSERTED, DAY) == ""
    assert _with_staged(row, "", Outcome.INSERTED, DAY) == ""


def test_other_notes_stay_and_the_after_note_goes() -> None:
    row = _row(f"row 22: it could be Dec 25, 2026, after the day the file was checked; {AFTER}")
    said = settled_message(row, Outcome.INSERTED, DAY + dt.timedelta(days=1))
    assert said == "row 22: it could be Dec 25, 2026, after the day the file was checked"


def test_a_row_ending_before_its_request_date_keeps_the_note() -> None:
    row = _row(f"row 22: {AFTER}")
    assert settled_message(row, Outcome.INSERTED, DAY - dt.timedelta(days=1)) == row.message
    # Not sent: its limit is counted to no insertion.
    assert settled_message(row, Outcome.FAILED, DAY) == row.message


def test_the_report_counts_it_in_time() -> None:
    done = _row(f"row 22: {AFTER}", Outcome.INSERTED.value)
    stamped = JobRow(**{**_fields(done), "done_at": "2026-11-25 18:00:00"})
    assert row_lateness(stamped)[1] is False


def _fields(row: JobRow) -> dict[str, object]:
    return {name: getattr(row, name) for name in JobRow.__dataclass_fields__}
