"""A column of dotted request dates is said to be written the dotted way (re-test S22 U1 F4):
its warning said "written day/month (row 2: '23.11.2026')", the slashed words, while each row's
note says "day.month". Read through the check and :func:`column_order`, as staging reads it."""

from __future__ import annotations

from tests.core.test_dates_dashed_form_apart import _checked


def test_a_dotted_column_read_day_first_is_worded_day_dot_month() -> None:
    _, _, sentence, _ = _checked(["23.11.2026", "09.11.2026", "10.11.2026"])
    assert sentence == (
        "The request dates in column B are written day.month (row 2: '23.11.2026'), so the 2 "
        "dates that read either way (rows 3 and 4) were read day.month too."
    )


def test_a_dotted_column_read_month_first_is_worded_month_dot_day() -> None:
    _, _, sentence, order = _checked(["11.23.2026", "11.10.2026"])
    assert order is False
    assert sentence == (
        "The request dates in column B are written month.day (row 2: '11.23.2026'), so the 1 "
        "date that reads either way (row 3) was read month.day too."
    )


def test_a_slashed_column_keeps_its_words() -> None:
    _, _, sentence, _ = _checked(["23/11/2026", "10/11/2026"])
    assert sentence.startswith("The request dates in column B are written day/month (row 2: ")
