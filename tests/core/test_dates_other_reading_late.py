"""An ambiguous request date read in time whose other reading would be late says so (re-test
U2): beside 23/11/2026, 11-10-2026 (dashed, weighed apart from slashed dates) is read Nov 10,
in time, by the documented rule, though read day-first it is Oct 11, 30 business days late on
Nov 24, 2026. No verdict changes; the row's note, the check's summary and a staging warning
say which requests may be late. Read through the check and :func:`column_order`, as staging
reads a column, on a fixed day."""

from __future__ import annotations

import datetime as dt
from typing import Any

from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, RowList, check_rows
from app.core.sheet_dates import RequestDate, other_reading_late, parse_request_date
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import column_order, other_reading_late_sentence

CHECKED = dt.date(2026, 11, 24)
MAPPING = ColumnMapping(phone=0, request_date=1, header_row=1, headers=("Phone", "Received"))
OCT_11_LATE = "it could be Oct 11, 2026, which would be 30 business days before 2026-11-24 (late)"


def _checked(dates: list[str], phones: list[str] | None = None) -> tuple[list[CheckedRow], Any]:
    """The rows and summary, as staging checks them: again in the column's order when
    :func:`column_order` gives one."""
    phones = phones or [f"303-555-{1301 + n}" for n in range(len(dates))]
    rows = [(1, ["Phone", "Received"])]
    rows += [(n + 2, [phone, d]) for n, (phone, d) in enumerate(zip(phones, dates, strict=True))]

    def check(day_first: Any) -> tuple[list[CheckedRow], CheckSummary]:
        summary = CheckSummary()
        options = CheckOptions(insertion_date=CHECKED, day_first=day_first)
        return list(check_rows(rows, MAPPING, options, summary)), summary

    checked, summary = check(None)
    if (order := column_order(summary)) is not None:
        checked, summary = check(order)
    return checked, summary


def test_a_dashed_date_read_in_time_says_its_other_reading_is_late() -> None:
    checked, summary = _checked(["23/11/2026", "11-10-2026"])
    # Verdicts as before: read month-day (Nov 10), in time.
    assert [r.request_date for r in checked] == [dt.date(2026, 11, 23), dt.date(2026, 11, 10)]
    assert [r.late for r in checked] == [False, False]
    assert [r.business_days for r in checked] == [1, 9]
    assert summary.late_requests == 0
    assert checked[1].date_note == (
        f"'11-10-2026' is ambiguous: read as Nov 10, 2026 (month/day); {OCT_11_LATE}"
    )
    assert summary.other_reading_late == RowList(1, [3])
    assert "other_reading_late" not in summary.as_dict()
    assert other_reading_late_sentence(MAPPING, summary) == (
        "1 row's request would be late if its date in column B ('Received') were read the "
        "other way round (row 3): it reads two ways, day/month or month/day, and as read is "
        "not late, but read the other way it is more than 10 business days before the "
        "insertion date. Check it against the source; if it is written the other way round, "
        "write it as year-month-day (2026-11-02) and run the file again (each row's message in "
        "the report gives both readings)."
    )


def test_slashed_dotted_and_column_ordered_dates_say_so_too() -> None:
    checked, summary = _checked(["11/10/2026", "10.11.2026", "11/09/26", "11 - 10 - 2026"])
    assert [r.request_date for r in checked] == [dt.date(2026, 11, 10)] * 2 + [
        dt.date(2026, 11, 9),
        dt.date(2026, 11, 10),
    ]
    assert not any(r.late for r in checked)
    assert OCT_11_LATE in checked[0].date_note
    assert OCT_11_LATE in checked[1].date_note  # dotted: read day.month, could be month.day
    # A two-digit year's other reading is in the year written, and counted so.
    assert (
        "it could be Sep 11, 2026, which would be 50 business days before 2026-11-24 (late)"
    ) in checked[2].date_note
    assert OCT_11_LATE in checked[3].date_note
    assert summary.other_reading_late == RowList(4, [2, 3, 4, 5])
    said = other_reading_late_sentence(MAPPING, summary)
    assert said.startswith("4 rows' requests would be late if their dates in column B")
    assert "(rows 2, 3, 4 and 5): each reads two ways" in said
    assert "Check them against the source; if any is written the other way round" in said
    # Read day/month, as its column's slashed dates that read one way only are.
    checked, summary = _checked(["23/11/2026", "10/11/2026"])
    assert checked[1].request_date == dt.date(2026, 11, 10)
    assert checked[1].date_note.endswith(OCT_11_LATE)
    assert "(day/month, as the column's dates that read only one way are)" in checked[1].date_note
    assert summary.other_reading_late.first == [3]


def test_no_claim_when_the_reading_is_late_or_the_other_is_in_time_or_after() -> None:
    dates = [
        "11.10.2026",  # read Oct 11: late itself, its other reading (Nov 10) in time
        "02/03/2026",  # both readings late
        "11/12/2026",  # Nov 12 in time; Dec 11 after the day checked
        "11/12/26",  # so, its other reading after the day checked (said so)
        "12/11/26",  # month/day as 11/20/2026 is: Dec 11, 2026, after the day; Nov 12 in time
        "11/20/2026",  # not ambiguous
        "12/11/28",  # month/day, over a year ahead: Dec 11, 1928, late itself
    ]
    checked, summary = _checked(dates)
    assert [r.late for r in checked] == [True, True, False, False, False, False, True]
    assert checked[4].request_date == dt.date(2026, 12, 11)
    assert checked[6].request_date == dt.date(1928, 12, 11)
    assert not any("which would be" in r.date_note for r in checked)
    assert checked[3].date_note.endswith(
        "it could be Dec 11, 2026, though that is after Nov 24, 2026"
    )
    assert summary.other_reading_late == RowList()
    assert other_reading_late_sentence(MAPPING, summary) == ""
    assert summary.late_requests == 3
    # Alone, 12/11/26 is read Nov 12, 2026, its other reading after the day checked.
    checked, summary = _checked(["12/11/26"])
    assert checked[0].request_date == dt.date(2026, 11, 12)
    assert "which would be" not in checked[0].date_note
    assert summary.other_reading_late == RowList()


def test_a_date_after_the_insertion_date_says_its_other_reading_would_be_late() -> None:
    checked, summary = _checked(["12/01/2026"])
    assert checked[0].request_date == dt.date(2026, 12, 1)
    assert checked[0].business_days is None and not checked[0].late
    assert checked[0].date_note == (
        "'12/01/2026' is ambiguous: read as Dec 01, 2026 (month/day); it could be Jan 12, "
        "2026, which would be 218 business days before 2026-11-24 (late); the request date "
        "is after the insertion date"
    )
    assert summary.future_dates.first == [2]
    assert summary.other_reading_late.first == [2]


def test_a_row_without_a_phone_number_claims_nothing() -> None:
    checked, summary = _checked(["11/10/2026", "11/10/2026"], ["12345", "303-555-1302"])
    assert checked[0].outcome.value == "invalid"
    assert checked[0].date_note == (
        "'11/10/2026' is ambiguous: read as Nov 10, 2026 (month/day); it could be Oct 11, 2026"
    )
    assert OCT_11_LATE in checked[1].date_note
    assert summary.other_reading_late == RowList(1, [3])


def test_a_zoned_time_or_a_weekday_keeps_the_other_reading() -> None:
    # A weekday fitting neither reading leaves it ambiguous; one fitting Nov 10 only decides
    # it (re-test S24 U1 F5), and the other reading, Oct 11, a Sunday, is no longer claimed.
    checked, _ = _checked(["11/10/2026 10:00 UTC", "Fri, 11/10/2026", "Tue, 11/10/2026"])
    assert [r.request_date for r in checked] == [dt.date(2026, 11, 10)] * 3
    assert [OCT_11_LATE in r.date_note for r in checked] == [True, True, False]


def test_no_claim_for_an_other_reading_before_1900_or_after_the_day() -> None:
    note = "'x' is ambiguous: read as Nov 10, 1900 (month/day); it could be Oct 11, 1899"
    parsed = RequestDate(dt.date(1900, 11, 10), note, other=dt.date(1899, 10, 11))
    assert other_reading_late(parsed, dt.date(1900, 11, 12)) == ""
    later = parse_request_date("11/12/2026", CHECKED)
    assert later.other == dt.date(2026, 12, 11)
    assert other_reading_late(later, CHECKED) == ""
    # The limit is the check's.
    parsed = parse_request_date("11/10/2026", CHECKED)
    assert other_reading_late(parsed, CHECKED, limit=30) == ""
    assert other_reading_late(parsed, CHECKED, limit=29).endswith(OCT_11_LATE)
