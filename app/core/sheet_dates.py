"""Request dates: read the date a consumer's request was received, count business days to now.

47 CFR 64.1200(d)(3) requires a do-not-call request to be honoured within a reasonable time
"not to exceed ten business days from the date of such request". Business days here are
Monday-Friday minus US federal holidays (``holidays.US()``: the eleven federal holidays and
their observed days). The day of receipt is not counted; the insertion day is.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import holidays

from app.core.sheet_types import CellValue

LIMIT_BUSINESS_DAYS: Final = 10
_EXCEL_EPOCH: Final = dt.date(1899, 12, 30)  # serial 1 = 1900-01-01 (Excel's leap-year bug)
_SERIAL_RANGE: Final = (20_000, 80_000)  # 1954 .. 2119: anything else is not a plausible serial
_ISO: Final = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ]\d{1,2}:\d{2}.*)?")
# 11/02/2026 and 11-02-2026 (US month first); 02.11.2026 is only ever day first.
_SLASHED: Final = re.compile(r"(\d{1,2})([/-])(\d{1,2})\2(\d{2}|\d{4})(?: \d{1,2}:\d{2}.*)?")
_DOTTED: Final = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})(?: \d{1,2}:\d{2}.*)?")
# Around a date written with a month name: a time after it, a weekday before it (Excel's Long
# Date format saved as CSV gives "Monday, January 5, 2026"), ordinals, "Sept".
_TRAILING_TIME: Final = re.compile(
    r"[\sT,]*\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:[ap]\.?m\.?)?\s*(?:z|utc|gmt)?$", re.I
)
_WEEKDAY: Final = re.compile(r"^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+", re.I)
_ORDINAL: Final = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b", re.I)
_SEPT: Final = re.compile(r"\bsept\b", re.I)


# "Nov 2, 2026", "2 November 2026", Excel's "2-Nov-26" (commas and dashes read as spaces).
_NAMED_MONTH_FORMATS: Final = ("%b %d %Y", "%B %d %Y", "%d %b %Y", "%d %B %Y", "%d %b %y")


@dataclass(frozen=True, slots=True)
class RequestDate:
    """A parsed request date; ``note`` explains an ambiguous or unreadable value."""

    date: dt.date | None
    note: str = ""


def _year(text: str) -> int:
    year = int(text)
    return year + 2000 if year < 100 else year


def _safe(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def parse_request_date(value: CellValue) -> RequestDate:
    """Read a date cell: a date/datetime, an Excel serial number, or a common date string
    (ISO, US month/day, European day.month, yyyymmdd, month names).

    ``11/02/2026`` and ``11-02-2026`` are read month-first (US); when the other order is also
    a date the note says so. ``02.11.2026`` is read day-first (European).
    """
    if value is None or value == "":
        return RequestDate(None)
    if isinstance(value, dt.datetime):
        return RequestDate(value.date())
    if isinstance(value, dt.date):
        return RequestDate(value)
    if isinstance(value, bool):
        return RequestDate(None, f"{value!r} is not a date")
    if isinstance(value, int | float):
        if _SERIAL_RANGE[0] <= value <= _SERIAL_RANGE[1]:
            return RequestDate(_EXCEL_EPOCH + dt.timedelta(days=int(value)))
        if 19_000_101 <= value <= 21_001_231 and float(value).is_integer():
            return _parse_text(str(int(value)))  # 20261102 typed as a number
        shown = int(value) if float(value).is_integer() else value  # a cell 2026 reads 2026.0
        return RequestDate(None, f"{shown!r} is not a date")
    if not isinstance(value, str):
        return RequestDate(None, f"{value!r} is not a date")
    return _parse_text(value.strip())


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> RequestDate:
    if (m := _ISO.fullmatch(text)) is not None:
        found = _safe(int(m[1]), int(m[2]), int(m[3]))
        return RequestDate(found) if found else RequestDate(None, f"{text!r} is not a date")
    if (m := _SLASHED.fullmatch(text)) is not None:
        first, second, year = int(m[1]), int(m[3]), _year(m[4])
        us = _safe(year, first, second)
        other = _safe(year, second, first)
        if us is not None and other is not None and us != other:
            return RequestDate(
                us,
                f"{text!r} is ambiguous: read as {us:%b %d, %Y} (month/day); "
                f"it could be {other:%b %d, %Y}",
            )
        if us is not None:
            return RequestDate(us)
        if other is not None:
            return RequestDate(other, f"{text!r} read as day/month: {other:%b %d, %Y}")
        return RequestDate(None, f"{text!r} is not a date")
    if (m := _DOTTED.fullmatch(text)) is not None:
        found = _safe(int(m[3]), int(m[2]), int(m[1]))
        return RequestDate(found) if found else RequestDate(None, f"{text!r} is not a date")
    if len(text) == 8 and text.isdigit():
        found = _safe(int(text[:4]), int(text[4:6]), int(text[6:]))
        if found is not None:
            return RequestDate(found)
    if _is_number(text):
        number = parse_request_date(float(text))
        return number if number.date is not None else RequestDate(None, f"{text!r} is not a date")
    return _parse_named_month(text)


def _parse_named_month(text: str) -> RequestDate:
    words = _TRAILING_TIME.sub("", text)
    weekday = _WEEKDAY.match(words)
    if weekday is not None:
        words = words[weekday.end() :]
    words = _SEPT.sub("Sep", _ORDINAL.sub(r"\1", words))
    cleaned = " ".join(words.replace(",", " ").replace("-", " ").replace(".", " ").split())
    for fmt in _NAMED_MONTH_FORMATS:
        try:
            found = dt.datetime.strptime(cleaned, fmt).date()
        except ValueError:
            continue
        if weekday is not None:
            given = weekday[1].casefold()
            if f"{found:%a}".casefold() != given:
                return RequestDate(
                    found,
                    f"{text!r} names the wrong weekday: {found:%b %d, %Y} is a {found:%A}; "
                    "read as that date",
                )
        return RequestDate(found)
    return RequestDate(None, f"{text!r} is not a date")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@lru_cache(maxsize=64)
def _us_holidays(year: int) -> frozenset[dt.date]:
    return frozenset(holidays.country_holidays("US", years=year).keys())


def is_business_day(day: dt.date) -> bool:
    return day.weekday() < 5 and day not in _us_holidays(day.year)


@lru_cache(maxsize=8192)
def business_days_between(received: dt.date, inserted: dt.date) -> int:
    """Business days after ``received`` up to and including ``inserted`` (negative if before).

    Counted arithmetically (whole weeks, then the rest) so a request dated decades ago costs
    no more than one from last week.
    """
    if inserted < received:
        return -business_days_between(inserted, received)
    days = (inserted - received).days
    weeks, rest = divmod(days, 7)
    count = weeks * 5
    weekday = received.weekday()
    for offset in range(1, rest + 1):
        if (weekday + offset) % 7 < 5:
            count += 1
    for year in range(received.year, inserted.year + 1):
        for holiday in _us_holidays(year):
            if received < holiday <= inserted and holiday.weekday() < 5:
                count -= 1
    return count
