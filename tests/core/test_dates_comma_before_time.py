"""A request date with a comma before its time, as JavaScript's ``toLocaleString()`` writes it
(``19/08/2026, 2:33:49 pm`` en-GB, ``8/19/2026, 2:33:49 PM`` en-US), is the date it names
(black-box B24 F4: a web form's lead export, every row "not a date", its lateness unchecked,
``late_requests`` 0, while the same dates without the comma were 66 business days late)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_dates import parse_request_date
from app.core.sheet_mapping import ColumnMapping

CHECKED = dt.date(2026, 11, 24)


@pytest.mark.parametrize(
    "text",
    [
        "19/08/2026, 2:33:49 pm",
        "8/19/2026, 2:33:49 PM",
        "8/19/2026,2:33 PM",
        "19.08.2026, 14:33:49",
        "2026-08-19, 14:33:49",
        "8/19/2026, 2:33 PM EST",
    ],
)
def test_the_date_before_the_comma_is_read(text: str) -> None:
    assert parse_request_date(text, CHECKED).date == dt.date(2026, 8, 19)


@pytest.mark.parametrize("text", ["19/08/2026, pm", "19/08/2026,", "8/19/2026, 2 PM"])
def test_a_comma_without_a_time_after_it_is_still_no_date(text: str) -> None:
    assert parse_request_date(text, CHECKED).date is None


def test_the_web_form_export_s_rows_are_late() -> None:
    rows = [
        (1, ["Date", "Mobile"]),
        (2, ["19/08/2026, 2:33:49 pm", "0417953020"]),
        (3, ["19/08/2026 2:33:49 pm", "0412884921"]),
        (4, ["20/08/2026, 9:05:00 am", "0429119403"]),
    ]
    mapping = ColumnMapping(header_row=1, phone=1, request_date=0, default_phone_code="61")
    checked, summary = check_all(rows, mapping, CheckOptions(insertion_date=CHECKED))
    assert [r.request_date for r in checked] == [
        dt.date(2026, 8, 19),
        dt.date(2026, 8, 19),
        dt.date(2026, 8, 20),
    ]
    assert [r.business_days for r in checked] == [66, 66, 65]
    assert summary.late_requests == 3
