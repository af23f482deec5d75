"""Re-test U2 F6: request dates written with spaces around their marks ("23 - 11 - 2026") or
with a Unicode dash for "-" ("23–11–2026", as a word processor turns a typed dash) were "not a
date", so their 10-business-day limit was never checked. They are read as the date written
plainly, of its form, their notes quoting the cell as written."""

from __future__ import annotations

import datetime as dt

import pytest

from app.core.sheet_dates import DateForm, parse_request_date
from tests.core.test_dates_dashed_form_apart import _checked

CHECKED = dt.date(2026, 11, 24)


@pytest.mark.parametrize(
    ("text", "day", "form"),
    [
        ("23 - 11 - 2026", dt.date(2026, 11, 23), DateForm.DASHED),
        ("23\u201311\u20132026", dt.date(2026, 11, 23), DateForm.DASHED),
        ("23\u221211\u22122026", dt.date(2026, 11, 23), DateForm.DASHED),
        ("10 / 25 / 2026", dt.date(2026, 10, 25), DateForm.SLASHED),
        ("23 . 11 . 2026", dt.date(2026, 11, 23), DateForm.DOTTED),
        ("2026 \u2013 11 \u2013 02", dt.date(2026, 11, 2), None),
    ],
)
def test_a_date_with_spaces_or_a_unicode_dash_is_read(
    text: str, day: dt.date, form: DateForm | None
) -> None:
    found = parse_request_date(text, CHECKED)
    assert (found.date, found.form) == (day, form)


def test_its_note_quotes_the_cell_as_written() -> None:
    found = parse_request_date("11 \u2013 10 \u2013 2026", CHECKED)
    assert found.date == dt.date(2026, 11, 10)
    assert found.note.startswith("'11 – 10 – 2026' is ambiguous: read as Nov 10, 2026")


def test_it_is_evidence_of_its_form_only() -> None:
    dates, late, _, _ = _checked(["23 \u2013 11 \u2013 2026", "11-10-2026", "10/11/2026"])
    assert dates == [dt.date(2026, 11, 23), dt.date(2026, 10, 11), dt.date(2026, 10, 11)]
    assert late == [False, True, True]


@pytest.mark.parametrize("text", ["5 - 6", "2026\u20132027", "303 - 555 - 0147"])
def test_other_text_is_still_not_a_date(text: str) -> None:
    assert parse_request_date(text, CHECKED).date is None
