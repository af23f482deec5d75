"""Request dates: read the date a consumer's request was received, count business days to now.

47 CFR 64.1200(d)(3) requires a do-not-call request to be honoured within a reasonable time
"not to exceed ten business days from the date of such request". Business days here are
Monday-Friday minus US federal holidays (``holidays.US()``: the eleven federal holidays and
their observed days). The day of receipt is not counted; the insertion day is.

A two-digit year (``12/31/99``, ``2-Nov-26``) is read in the century of the day the file is
checked (:func:`parse_request_date`'s ``not_after``, today by default) when that date is not
after that day by more than a year, and a century back when it is further ahead: on
Nov 22, 2026 ``12/31/99`` is Dec 31, 1999, ``11/02/26`` Nov 2, 2026, ``12/31/26`` Dec 31, 2026
(a date after the insertion date, as ``12/31/2026`` is, with no business days; black-box B28
F3: it was Dec 31, 1926, a request some 25,000 business days late) and ``12/31/28``
Dec 31, 1928. A dotted date's two-digit year (``5.11.26``) is read so too, as is the other
reading of an ambiguous date that a note gives ("it could be …"), never in a year before that
day's, even when that puts it after the day (said so): on Nov 24, 2026 ``11/12/26`` could be
Dec 11, 2026, never Dec 11, 1926, as ``11/4/26`` could be Apr 11, 2026.

A time with its zone after a date (``2026-11-06T03:30:00Z``, ``…-05:00``, ``… UTC``, ``… EST``,
``… CET``, ``… Europe/Berlin``) names a moment: it is dated by the day that moment was in this
computer's time zone, as the insertion date (``dt.date.today()``) is this computer's day, and
the row's note says so when that day is not the one written. So is a Unix time (``1762387200``
seconds, or milliseconds) from 2000 to mid-2033, with a note. A time without a zone is taken as
written, on its date; so is one whose zone was not understood (``… XYZ``), or an abbreviation
naming zones that put it on different days (IST: India, Ireland or Israel), each with a note.
CST is US Central, as a US dialer's files mean it (its note gives China's day when it differs).

A slashed date that reads either way (``11/10/2026``) is month/day, the US order, and a
dotted one (``11.05.2026``) day.month, the European order, each with a note, unless the
column's order is known: one column is written one way, so when its dates that can only be
read one way (``25/10/2026``, ``10/25/2026``) are all day/month, or all month/day, the job
reads its ambiguous ones that way too (``day_first``; :attr:`RequestDate.order` gives the
evidence each value holds). Slashed, dotted and dashed dates (``11-10-2026``, month-day as a
slashed one is) are weighed apart (:class:`DateForm`): a column holding more than one form was
filled from more than one source, and ``23.11.2026`` or ``23-11-2026`` says nothing of how
``11/9/2026`` was written (:class:`FormOrders`). In a column whose order is not known, an
ambiguous date with a two-digit year whose usual reading would be after the day checked, while
its other reading is not, is read the other way, with a note saying why: on Nov 24, 2026
``12/11/26`` is Nov 12, 2026 (day/month), as month/day it would be Dec 11, 2026, after the day
(which once went a century back, Dec 11, 1926, some 25,000 business days late: regression
check V4); ``12-11-26`` is so too, and ``11.12.26`` is Nov 12, 2026 (month.day), while in a
column read month/day ``12/11/26`` is Dec 11, 2026, after the insertion date. Its order is
:data:`EITHER_TURNED` (:data:`EITHER_DOTTED_TURNED`): it says nothing of its column's order, and
is not among the dates read the usual way. An ambiguous date read in time (or after the day
checked) whose other reading would be late says so in its note, as the check counts it
(:func:`other_reading_late`: "it could be Oct 11, 2026, which would be 30 business days before
2026-11-24 (late)"): weighing forms apart, or a column's order, may have read a late request so.
A dashed date with a two-digit year may be a date year-month-day too (``26-11-10``: Nov 10,
2026), read so when that is its only reading; when that reading is later than its others, it
is read so in a column holding dashed dates with a four-digit year first (:data:`YEAR_FIRST`,
``FormOrders.year_first``), and elsewhere its note names that reading
(:func:`names_year_first`), and the check lists its row.

A request the limit is past is said in its row's message by :func:`late_sentence` ("request
received 2026-11-02, 13 business days before 2026-11-20, when the file was checked (limit
10)"), dated as the count is: when the row is sent, the job says it again counted to the day it
was inserted (:data:`LATE_SENTENCE` finds it in a message). A request dated after that day has
no count of business days: it is a date that cannot be right, not a request early by some days.
Nor is a date before 1900 (:data:`EARLIEST_REQUEST`) a request date: an .ods date cell holding
-5 is Dec 25, 1899, and such a cell is refused as unreadable, as the .xlsx refuses it. A cell
holding only a time of day or a length of time is refused in the words the sheet shows it in
("10:30 is a time of day, not a date").
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from typing import Final, TypeAlias

import holidays

from app.core.sheet_types import CellValue

LIMIT_BUSINESS_DAYS: Final = 10
_EXCEL_EPOCH: Final = dt.date(1899, 12, 30)  # serial 1 = 1900-01-01 (Excel's leap-year bug)
_SERIAL_RANGE: Final = (20_000, 80_000)  # 1954 .. 2119: anything else is not a plausible serial
# A workbook set to the 1904 date system counts its day numbers from 1904-01-01 (day 0).
_1904_LATER: Final = dt.timedelta(days=1462)
# A day number written with a decimal comma, as a European CSV writes 46335.75: one comma, a
# serial's five digits before it (a thousands separator has three digits after each comma, and
# never five before the first).
_DECIMAL_COMMA_SERIAL: Final = re.compile(r"\d{5},\d+")
# Unix times read as request dates: 2000-01-01 up to 2033-05-18 UTC (2,000,000,000 seconds),
# in seconds and in milliseconds (low, high, units per second, unit's name). Every ten-digit
# US phone number is 2,000,000,000 or more (an area code starts 2-9), so none is read as a
# Unix time even in a date column; neither range meets a day number's or a yyyymmdd number's.
_UNIX_RANGES: Final = (
    (946_684_800, 2_000_000_000, 1, "seconds"),
    (946_684_800_000, 2_000_000_000_000, 1000, "milliseconds"),
)
# A date cell (or text) before this is refused: no request was received then, and a negative
# serial in a date-formatted cell reads as a day in December 1899.
EARLIEST_REQUEST: Final = dt.date(1900, 1, 1)
_BEFORE_1900: Final = "is before 1900, so it is not a plausible request date"
# A time after the date may follow a comma, as JavaScript's toLocaleString() writes it (a web
# form's "19/08/2026, 2:33:49 pm"; black-box B24 F4: "not a date", its lateness unchecked).
_TIME_AFTER: Final = r"(?:,? |,)\d{1,2}:\d{2}.*"
_ISO: Final = re.compile(
    rf"(\d{{4}})[-/.](\d{{1,2}})[-/.](\d{{1,2}})(?:T\d{{1,2}}:\d{{2}}.*|{_TIME_AFTER})?"
)
# 11/02/2026 and 11-02-2026 (US month first; each its own form); 02.11.2026 is day first.
_SLASHED: Final = re.compile(rf"(\d{{1,2}})([/-])(\d{{1,2}})\2(\d{{2}}|\d{{4}})(?:{_TIME_AFTER})?")
_DOTTED: Final = re.compile(rf"(\d{{1,2}})\.(\d{{1,2}})\.(\d{{2}}|\d{{4}})(?:{_TIME_AFTER})?")
# A date in digits written with spaces around its marks, or with a Unicode dash or minus for
# "-": read as the date written plainly (see _read).
_DASHES: Final = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
_SPACED_OR_UNICODE: Final = re.compile(
    r"(\d{1,4})\s*([-/.\u2010-\u2015\u2212])\s*(\d{1,2})\s*\2\s*(\d{1,4})"
)
# Around a date written with a month name: a time after it, a weekday before it (Excel's Long
# Date format saved as CSV gives "Monday, January 5, 2026"), ordinals, "Sept".
_TRAILING_TIME: Final = re.compile(
    r"[\sT,]*\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:[ap]\.?m\.?)?\s*(?:z|utc|gmt)?$", re.I
)
_WEEKDAY: Final = re.compile(r"^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+", re.I)
# A date in digits after a weekday ("Mon, 11/23/2026", "Tue 2026-11-24", "Mon 23.11.2026").
_NUMERIC_DATE_START: Final = re.compile(r"\d{1,4}[-/.]\d")
# Weekdays as written, Monday first (not strftime's, which follows the locale Qt sets).
_WEEKDAYS: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_WEEKDAY_NAMES: Final = {
    **{name.casefold(): n for n, name in enumerate(_WEEKDAYS)},
    **{name[:3].casefold(): n for n, name in enumerate(_WEEKDAYS)},
    **{"tues": 1, "weds": 2, "thur": 3, "thurs": 3},
}
_ORDINAL: Final = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b", re.I)
_SEPT: Final = re.compile(r"\bsept\b", re.I)
# A time of day with its zone after a date, as SMS platforms and APIs export a moment
# ("2026-11-06T03:30:00Z", "…T04:59:59.000+00:00", "Nov 5, 2026 11:30 PM UTC", JavaScript's
# "Thu Nov 05 2026 22:30:00 GMT-0500 (Eastern Standard Time)", "2026-11-06 00:30 CET",
# "… Europe/Berlin"): a zone is an offset (alone or after UTC/GMT), an abbreviation or an IANA
# name (:func:`_zone` says which names are zones).
_ZONED_TIME: Final = re.compile(
    r"(?:T|[\s,]+)(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2})(?:[.,]\d+)?)?"
    r"\s*(?:(?P<half>[ap])\.?m\.?)?\s*"
    r"(?:(?P<name>z|[a-z]{2,5}|[a-z][a-z0-9_+-]*(?:/[a-z0-9_+-]+)+)"
    r"|(?:utc|gmt)?\s*(?P<sign>[+-])(?P<hours>\d{1,2})(?::?(?P<minutes>\d{2}))?)"
    r"(?:\s*\([^)]*\))?$",
    re.I,
)
# Zone abbreviations that name one offset, in minutes east of UTC. US zones first: the
# service is a US dialer's. EST, MST and the like are the US ones, as a US file means them.
_ZONE_OFFSETS: Final = {
    "z": 0, "ut": 0, "utc": 0, "gmt": 0,
    "est": -300, "edt": -240, "cdt": -300, "mst": -420, "mdt": -360, "pst": -480,
    "pdt": -420, "akst": -540, "akdt": -480, "hst": -600, "hdt": -540, "adt": -180,
    "nst": -210, "ndt": -150, "chst": 600,
    "wet": 0, "west": 60, "cet": 60, "cest": 120, "met": 60, "mest": 120, "eet": 120,
    "eest": 180, "msk": 180,
    "sast": 120, "wat": 60, "cat": 120, "eat": 180,
    "pkt": 300, "npt": 345, "ict": 420, "wib": 420, "hkt": 480, "sgt": 480, "pht": 480,
    "awst": 480, "jst": 540, "kst": 540, "acst": 570, "acdt": 630, "aest": 600,
    "aedt": 660, "nzst": 720, "nzdt": 780,
    "brt": -180, "art": -180,
}  # fmt: skip
# Abbreviations that name more than one zone: each reading (its name, minutes east of UTC),
# and why the first is taken when they fall on different days ("": none is taken, the date
# written is). CST in a US dialer's file is US Central far more often than China's; AST is
# Puerto Rico's Atlantic time, BST Britain's summer time.
_AMBIGUOUS_ZONES: Final[dict[str, tuple[tuple[tuple[str, int], ...], str]]] = {
    "cst": (
        (("US Central Standard Time", -360), ("China Standard Time", 480)),
        "as US files mean it",
    ),
    "ast": (
        (("Atlantic Standard Time", -240), ("Arabia Standard Time", 180)),
        "Puerto Rico's, as US files mean it",
    ),
    "bst": (
        (("British Summer Time", 60), ("Bangladesh Standard Time", 360)),
        "as it is usually meant",
    ),
    "ist": (
        (
            ("India Standard Time", 330),
            ("Irish Standard Time", 60),
            ("Israel Standard Time", 120),
        ),
        "",
    ),
    "gst": ((("Gulf Standard Time", 240), ("South Georgia Time", -120)), ""),
    "sst": ((("Samoa Standard Time", -660), ("Singapore Standard Time", 480)), ""),
}


@dataclass(frozen=True, slots=True)
class _Zone:
    """A zone named after a time: ``shown`` as written, its readings (a name and the zone;
    none when it was not understood, more than one when the abbreviation names several), and
    why the first is taken when they fall on different days ("": none is)."""

    shown: str
    readings: tuple[tuple[str, dt.tzinfo], ...]
    why_first: str = ""


# "Nov 2, 2026", "2 November 2026", Excel's "2-Nov-26" (commas and dashes read as spaces): a
# month's name, abbreviated or in full, with the day and a four-digit year, or a two-digit one
# after the day and an abbreviation, as strptime's "%b %d %Y", "%B %d %Y", "%d %b %Y",
# "%d %B %Y" and "%d %b %y" read them in the C locale. English names from these tables, never
# strptime's or strftime's %b/%B/%a/%A: those follow LC_TIME, which Qt sets from LANG, and
# under es_US or de_DE "Jan 5, 2026" was not a date, so its lateness went unchecked, and a
# right weekday was "the wrong weekday … is a Montag" (review RV3 #F2).
_MONTHS: Final = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_MONTH_ABBREVIATIONS: Final = {name[:3].lower(): n for n, name in enumerate(_MONTHS, 1)}
_MONTH_NUMBERS: Final = {
    **_MONTH_ABBREVIATIONS,
    **{name.lower(): n for n, name in enumerate(_MONTHS, 1)},
}
# strptime's %d, %Y and %y (\d takes other scripts' digits, as strptime's did).
_DAY_OF_MONTH: Final = re.compile(r"3[01]|[12]\d|0[1-9]|[1-9]")
_FULL_YEAR: Final = re.compile(r"\d{4}")
_SHORT_YEAR: Final = re.compile(r"\d{2}")
# How far after the day checked a two-digit year's date is still read in its century: a request
# dated so is a date after the insertion date; one further ahead is read a century back.
_NEAR_FUTURE: Final = dt.timedelta(days=366)


# What a slashed date says about its column's order (RequestDate.order).
MONTH_FIRST_ONLY: Final = "month/day"  # 10/25/2026: only month/day is a date
DAY_FIRST_ONLY: Final = "day/month"  # 25/10/2026: only day/month is a date
EITHER: Final = "either"  # 11/10/2026: two different dates
EITHER_DOTTED: Final = "either (dotted)"  # 11.05.2026: two different dates
# Two different dates, read against the form's usual order as that reading is after the day
# checked (12/11/26 and 11.12.26 on Nov 24, 2026): apart from EITHER and EITHER_DOTTED, as
# these were not read the way a column of unknown order's ambiguous dates are said to be.
EITHER_TURNED: Final = "either, read day/month"
EITHER_DOTTED_TURNED: Final = "either (dotted), read month.day"
# What a dotted date that reads one way only says of its column's order, as the check counts it
# (its RequestDate.order is DAY_FIRST_ONLY or MONTH_FIRST_ONLY, its form DOTTED): apart from
# a slashed one's, as it decides only how the column's other dotted dates are read (black-box
# B18 F1: 11/23/2026 made 11.10.2026 Nov 10, and 23.11.2026 made 11/9/2026 Sep 11).
DOTTED_DAY_FIRST_ONLY: Final = "day.month"  # 23.11.2026
DOTTED_MONTH_FIRST_ONLY: Final = "month.day"  # 11.23.2026
# A dashed date's, as the check counts it: its RequestDate.order is a slashed one's (it is read
# as one is), its form DASHED, and it decides only the column's other dashed dates (re-test S22
# U1 F1: 23-11-2026 made 10/11/2026 Nov 10, in time, where alone it is Oct 11 and late).
DASHED_DAY_FIRST_ONLY: Final = "day-month"  # 23-11-2026
DASHED_MONTH_FIRST_ONLY: Final = "month-day"  # 11-23-2026
EITHER_DASHED: Final = "either (dashed)"  # 11-10-2026
EITHER_DASHED_TURNED: Final = "either (dashed), read day-month"  # 12-11-26 on Nov 24, 2026
# A date's orders when it reads either way (a dashed one's are a slashed one's until counted).
_EITHER_ORDERS: Final = frozenset({EITHER, EITHER_TURNED, EITHER_DOTTED, EITHER_DOTTED_TURNED})
# A dashed date reading one way only (or alike both ways) but for year-month-day: 26-11-10.
EITHER_DASHED_YEAR_FIRST: Final = "either (dashed), or year-month-day"
# A dashed date with its four-digit year first (2026-11-10): a column holding such dates has its
# dashed dates with a two-digit year that read year-month-day (26-11-10) read so (FormOrders),
# as YEAR_FIRST_READ (re-test S24 U2 F7: read Nov 26, 2010, 4,007 business days late).
YEAR_FIRST: Final = "year-month-day"
YEAR_FIRST_READ: Final = "year-month-day, as its column's"
# How a note names a year-month-day reading, taken or not (:func:`names_year_first`).
_YEAR_FIRST_NOT_TAKEN: Final = " (year-month-day)"
_YEAR_FIRST_TAKEN: Final = ", as the column's dates with a four-digit year are written"


class DateForm(StrEnum):
    """How a date in digits with its day and month either way round is written: each form's
    dates that read one way only decide the order of that form's other dates only."""

    SLASHED = "slashed"  # 11/10/2026: month/day unless its column says otherwise
    DOTTED = "dotted"  # 11.10.2026: day.month so
    DASHED = "dashed"  # 11-10-2026: month-day so


@dataclass(frozen=True, slots=True)
class FormOrders:
    """A request-date column's order for each form its dates are written in (True: day
    first, False: month first, None: the form's own, slashed and dashed month/day, dotted
    day.month), when its forms' dates that read either way are to be read differently."""

    slashed: bool | None
    dotted: bool | None
    dashed: bool | None = None
    # The column's dashed dates are written year-month-day (2026-11-10): one with a two-digit
    # year that is a date read so (26-11-10) is read so.
    year_first: bool = False

    def of(self, form: DateForm) -> bool | None:
        """The order of the dates written in ``form``."""
        if form is DateForm.DOTTED:
            return self.dotted
        return self.dashed if form is DateForm.DASHED else self.slashed


# A column's order (:func:`parse_request_date`'s ``day_first``): one for every form, or each
# form's.
DayFirst: TypeAlias = bool | FormOrders | None


def form_order(day_first: DayFirst, form: DateForm) -> bool | None:
    """The order ``day_first`` gives the dates written in ``form``."""
    return day_first.of(form) if isinstance(day_first, FormOrders) else day_first


# Finds other_reading_late's words in a request date's note.
OTHER_READING_LATE: Final = re.compile(
    r"it could be [^;]*?, which would be \d+ business days before \d{4}-\d{2}-\d{2} \(late\)"
)
# Finds late_sentence's words in a row's message (what comes after "before" holds no ";").
LATE_SENTENCE: Final = re.compile(
    r"request received \d{4}-\d{2}-\d{2}, \d+ business days before [^;]*? \(limit \d+\)"
)


def late_sentence(
    received: dt.date, days: int, before: str, limit: int = LIMIT_BUSINESS_DAYS
) -> str:
    """A late request in a row's message: ``before`` says the day counted to and what it was
    ("2026-11-20, when the file was checked", "its insertion on 2026-11-30")."""
    return (
        f"request received {received:%Y-%m-%d}, {days} business days before {before} "
        f"(limit {limit})"
    )


@dataclass(frozen=True, slots=True)
class RequestDate:
    """A parsed request date; ``note`` explains an ambiguous or unreadable value; ``order`` is
    what a slashed, dashed or dotted value says about its column's order (one of the constants
    above, or ""); ``form`` how it was written (None: not so), as its order is about the
    column's dates written in the same form only. ``other`` is an ambiguous date's reading not
    taken, the one its note says "it could be" (None: there is none, or the note gives none),
    so :func:`other_reading_late` can say when that one would be late."""

    date: dt.date | None
    note: str = ""
    order: str = ""
    form: DateForm | None = None
    other: dt.date | None = None

    @property
    def dotted(self) -> bool:
        """Whether it was written with dots (its form DOTTED), as asked before there were three."""
        return self.form is DateForm.DOTTED


def _two_digit_year(
    year: int, month: int, day: int, not_after: dt.date
) -> tuple[dt.date | None, dt.date | None]:
    """The date whose year ends in ``year`` (0-99) as read, and its reading in ``not_after``'s
    century when that is after ``not_after`` (else None), for a caller weighing an ambiguous
    date's readings. That reading is the date read when it is at most :data:`_NEAR_FUTURE`
    ahead: a request dated some days or months after the day checked is a date after the
    insertion date, which the check names and counts no days for, not a request a century old
    (black-box B28 F3: ``11/25/26 01:00`` checked on Nov 25, 2026 in Los Angeles, still Nov 24
    there, was Nov 25, 1926, 25,233 business days late and counted, while ``11/25/2026`` was
    after the insertion date). Further ahead it is the latest such date not after
    ``not_after``, a century back (``12/31/28`` on Nov 22, 2026 is Dec 31, 1928)."""
    later = _safe(not_after.year - not_after.year % 100 + year, month, day)
    if later is not None and later <= not_after:
        return later, None
    if later is not None and later - not_after <= _NEAR_FUTURE:
        return later, later
    found = _safe(not_after.year - not_after.year % 100 + year - 100, month, day)
    return found, later if found is not None else None


def _day_shown(day: dt.date) -> str:
    """``Nov 02, 2026``: a date in a note, as strftime's ``%b %d, %Y`` writes it in the C
    locale, whatever locale Qt set (its %b wrote "Dez 11, 2026" under de_DE)."""
    return f"{_MONTHS[day.month - 1][:3]} {day:%d, %Y}"


def _safe(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


# Forms of a request date that are read, each of Nov 2, 2026, named where a cell is not a date
# (black-box B30 F9c: "'N/A' is not a date" named none); a test reads each back.
READ_FORMS: Final = ("2026-11-02", "11/02/2026", "02.11.2026", "2 Nov 2026")
_NOT_A_DATE: Final = " is not a date"
FORMS_SAID: Final = f" (read as dates: {', '.join(READ_FORMS)}, a date cell)"


def parse_request_date(
    value: CellValue,
    not_after: dt.date | None = None,
    *,
    day_first: DayFirst = None,
    date1904: bool | None = None,
) -> RequestDate:
    """:func:`_parse_cell`, a note saying a value is not a date naming the forms read."""
    found = _parse_cell(value, not_after, day_first=day_first, date1904=date1904)
    if found.date is None and found.note.endswith(_NOT_A_DATE):
        return replace(found, note=f"{found.note}{FORMS_SAID}")
    return found


def written_as_date(text: str) -> bool:
    """Whether a cell's text reads as a date ("11/19/2025", "2025-11-19", "19.11.2025", "Nov
    19, 2025"), as a CSV writes a date cell: for a phone cell's message (black-box bb13 F4:
    "too short for a US number: 8 digits"). Digits alone ("20251119") are a number first."""
    text = text.strip()
    if len(text) > 40 or not any(c in "/-." or c.isalpha() for c in text):
        return False
    return parse_request_date(text).date is not None


def _parse_cell(
    value: CellValue,
    not_after: dt.date | None = None,
    *,
    day_first: DayFirst = None,
    date1904: bool | None = None,
) -> RequestDate:
    """Read a date cell: a date/datetime, an Excel serial number, or a common date string
    (ISO, US month/day, European day.month, yyyymmdd, month names).

    ``11/02/2026`` and ``11-02-2026`` are read month-first (US), ``02.11.2026`` day-first
    (European), unless ``day_first`` gives the column's order (True: day/month, False:
    month/day; a :class:`FormOrders` gives each :class:`DateForm`'s); when the other order is
    also a date the note says so. A two-digit year is the latest such date not after ``not_after``
    (default today): see the module's docstring, which says too when, with ``day_first`` None,
    an ambiguous one is read the other way.
    A date before 1900 (a cell, or text with a four-digit year) is refused, with a note.
    ``date1904``: the date system of the cell's workbook, which its day numbers count in: True
    the 1904 one, False the 1900 one; None (not known: a text file, or a workbook whose
    system the reader does not learn) reads a number in the 1900 system, its note giving the
    1904 reading beside it.
    """
    if value is None or value == "":
        return RequestDate(None)
    if isinstance(value, dt.datetime):
        return _plausible(value.date())
    if isinstance(value, dt.date):
        return _plausible(value)
    if isinstance(value, dt.time):
        return RequestDate(None, _time_note(value))
    if isinstance(value, dt.timedelta):
        return RequestDate(None, f"{_duration_text(value)} is a length of time, not a date")
    if isinstance(value, bool):
        # As the spreadsheet shows it, not as Python spells it.
        return RequestDate(None, f"{'TRUE' if value else 'FALSE'} is not a date")
    if isinstance(value, int | float):
        if _SERIAL_RANGE[0] <= value <= _SERIAL_RANGE[1]:
            # A number, not a date cell: most often a date whose format was lost (a CSV, a
            # column formatted General), but it could be anything else; the note shows the
            # reading so it can be checked (black-box pass I2: "45000" read silently).
            written = str(int(value) if float(value).is_integer() else value)
            return _serial(value, written, date1904)
        if 19_000_101 <= value <= 21_001_231 and float(value).is_integer():
            # 20261102 as a number. Read here, not as text: text of digits that names no day
            # is read as a number again, which came back here ("20261399" recursed until
            # the check crashed).
            digits = str(int(value))
            day = _safe(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
            if day is None:
                return RequestDate(None, f"{digits} is not a date")
            return _plausible(day)
        if (unix := _unix_time(value)) is not None:
            return unix
        shown = int(value) if float(value).is_integer() else value  # a cell 2026 reads 2026.0
        return RequestDate(None, f"{shown} is not a date")
    if not isinstance(value, str):
        return RequestDate(None, f"{value} is not a date")
    return _parse_text(value.strip(), not_after, day_first)


def _serial(value: int | float, shown: str, date1904: bool | None = None) -> RequestDate:
    """A number (``shown`` as written) read as a spreadsheet's day number. A workbook set to
    the 1904 system (as Excel for Mac made them until 2011) counts 1,462 days later: when the
    reader knows the cell's workbook's system (``date1904`` True or False), that is the
    reading; a number of a text file, or of a workbook whose date system the reader does not
    learn, is read in the 1900 system, and the note gives the 1904 reading too (black-box B28
    F5: 46336 in such a workbook was read Nov 10, 2026, silently, where the workbook means
    Nov 11, 2030). A workbook known to be of the 1900 system gets no such alternative, which
    it cannot mean."""
    found = _EXCEL_EPOCH + dt.timedelta(days=int(value))
    if date1904 is not None:
        found += _1904_LATER if date1904 else dt.timedelta(0)
        return RequestDate(
            found,
            f"the number {shown} is read as a spreadsheet's day number, {found} (the "
            f"workbook's {1904 if date1904 else 1900} date system)",
        )
    return RequestDate(
        found,
        f"the number {shown} is read as a spreadsheet's day number, {found} (the 1900 date "
        f"system; in a workbook set to the 1904 date system it is {found + _1904_LATER})",
    )


def _unix_time(value: int | float) -> RequestDate | None:
    """A Unix time, in seconds (``1762387200``) or milliseconds (``1762387200000``), as an
    SMS platform's or an API's export gives a moment, from 2000 to mid-2033 (black-box
    Q3 #4: "not a date"); None otherwise. A moment, so dated as a zoned time is: the day it
    was in this computer's time zone. Only the values of columns whose header names a day come
    here, and no ten-digit US number is in range (:data:`_UNIX_RANGES`): a phone number is
    never read as a date. The note shows the reading, as for a spreadsheet's day number."""
    found = next((r for r in _UNIX_RANGES if r[0] <= value < r[1]), None)
    if found is None:
        return None
    _, _, per_second, unit = found
    moment = dt.datetime.fromtimestamp(value / per_second, dt.UTC)
    shown = int(value) if float(value).is_integer() else value
    local = moment.astimezone()
    said = f"the number {shown} is read as a Unix time in {unit}, {moment:%Y-%m-%d %H:%M:%S} UTC"
    if local.date() != moment.date():
        said += (
            f", dated {local:%Y-%m-%d}, the day it was in this computer's time zone "
            f"({local.tzname()})"
        )
    return RequestDate(local.date(), said)


def _plausible(found: dt.date) -> RequestDate:
    """A date cell's date, unless it is before 1900: an .ods date cell holding -5 is
    1899-12-25, which no request was received on (an .xlsx refuses it as a time, 00:00)."""
    if found < EARLIEST_REQUEST:
        return RequestDate(None, f"{found.isoformat()} {_BEFORE_1900}")
    return RequestDate(found)


def _time_note(value: dt.time) -> str:
    """Why a time-only cell is not a request date, in the clock's own words."""
    shown = f"{value:%H:%M:%S}" if value.second or value.microsecond else f"{value:%H:%M}"
    if value == dt.time(0, 0):
        # A date-formatted 0, or a negative number, reads as midnight with no day.
        return (
            f"{shown} is a time of day, not a date (a date-formatted cell holding 0 or a "
            "negative number shows as 00:00)"
        )
    return f"{shown} is a time of day, not a date"


def _duration_text(value: dt.timedelta) -> str:
    """A duration as a [h]:mm cell shows it: ``30:15``, ``-1:30``, ``2:00:05``."""
    seconds = int(value.total_seconds())
    sign = "-" if seconds < 0 else ""
    hours, rest = divmod(abs(seconds), 3600)
    minutes, seconds = divmod(rest, 60)
    clock = f"{hours}:{minutes:02d}" + (f":{seconds:02d}" if seconds else "")
    return f"{sign}{clock}"


def _day_name(weekday: re.Match[str]) -> str:
    """The weekday ``_WEEKDAY`` matched, as written, casefolded: whatever space ends it (a
    no-break space or a line break too: review RV2 #2, "Mon,\xa011/23/2026" was no date)."""
    return re.sub(r"[\s.,]+$", "", weekday[0]).casefold()


def _parse_text(text: str, not_after: dt.date | None, day_first: DayFirst) -> RequestDate:
    if ":" in text and (zoned := _ZONED_TIME.search(text)) is not None and zoned.start():
        zone = _zone(zoned)
        if zone is not None:
            return _read_zoned(text, zoned, zone, not_after, day_first)
    weekday = _WEEKDAY.match(text)
    if (
        weekday is not None
        and _day_name(weekday) in _WEEKDAY_NAMES
        and _NUMERIC_DATE_START.match(text, weekday.end()) is not None
    ):
        return _with_weekday(text, weekday, not_after, day_first)
    # ASCII digits only: str.isdigit() takes "²", which float() refuses (a crash, found by the
    # property test of every row being accounted for).
    plain = text.replace(".", "", 1)
    if plain.isascii() and plain.isdigit() and (unix := _unix_time(float(text))) is not None:
        return unix  # not cached: its day depends on the zone (TZ)
    # Only a two-digit year needs the day (and asking the clock costs as much as a parse).
    found = _read_any_year(text, day_first)
    if found is None:
        # Read back from the day checked, it is before 1900 only when that day is too.
        return _read_two_digit_year(text, not_after or dt.date.today(), day_first)
    if found.date is not None and found.date < EARLIEST_REQUEST:
        # "1899-12-25": what a CSV export of an .ods date cell holding -5 says.
        return RequestDate(None, f"{text!r} {_BEFORE_1900}", found.order, found.form)
    return _other_after(found, not_after)


def _other_after(found: RequestDate, not_after: dt.date | None) -> RequestDate:
    """``found`` (a four-digit year's date, read and cached without the day checked) with its
    note saying, as a two-digit year's does, that the reading not taken is after that day
    (re-test U4 F6: '03/12/2026' checked on Nov 24, 2026 "could be Dec 03, 2026", not said
    to be a date no request can have been received on yet)."""
    if not_after is None or found.other is None or found.other <= not_after:
        return found
    could = f"it could be {_day_shown(found.other)}"
    after = f"{could}, though that is after {_day_shown(not_after)}"
    return replace(found, note=found.note.replace(could, after, 1))


def _read_zoned(
    text: str,
    zoned: re.Match[str],
    zone: _Zone,
    not_after: dt.date | None,
    day_first: DayFirst,
) -> RequestDate:
    """A date with a time and its zone: the day that moment was in this computer's time zone,
    as the insertion date (``dt.date.today()``) is this computer's day. An SMS platform's
    ``2026-11-06T03:30:00Z`` is the evening of Nov 5 in New York, and counted from Nov 5 there
    (black-box N3 #2: read as Nov 6, a late request was missed); the note says so when the day
    differs from the one written. Not cached: the day depends on the zone (``TZ``).

    A zone not understood, or an abbreviation naming zones that put the moment on different
    days with none of them meant more often (IST: India, Ireland, Israel), leaves the date
    written, and the note says so: silently taken as written, ``… 00:30 CET`` was a day later
    than ``…T00:30:00+01:00`` (black-box Q3 #2). CST is US Central, as a US dialer's files
    mean it, and the note gives China's day when it differs."""
    written = text[: zoned.start()]
    parsed = _parse_text(written, not_after, day_first)
    # The date's notes quote what they read: the whole text is what the cell holds.
    note = parsed.note.replace(repr(written), repr(text), 1)
    time = _clock(zoned)
    if parsed.date is None or time is None:
        return replace(parsed, note=note)
    if not zone.readings:
        said = (
            f"its time zone {zone.shown!r} was not understood: read as the date written, "
            f"{parsed.date:%Y-%m-%d}"
        )
        return replace(parsed, note=_joined(note, text, said))
    readings: list[tuple[str, dt.datetime, dt.datetime]] = []  # name, moment there, here
    for name, tz in zone.readings:
        moment = dt.datetime.combine(parsed.date, time, tz)
        try:
            readings.append((name, moment, moment.astimezone()))
        except (OverflowError, OSError, ValueError):  # a moment the clock cannot place
            return replace(parsed, note=note)
    local = readings[0][2]
    others = [(name, here.date()) for name, _, here in readings[1:] if here.date() != local.date()]
    if others and not zone.why_first:
        named = _listed([f"{name} ({_utc_offset(there)})" for name, there, _ in readings])
        days = ", ".join(sorted({f"{here:%Y-%m-%d}" for _, _, here in readings}))
        said = (
            f"its time zone {zone.shown} could be {named}, which date it differently ({days}), "
            f"so the date written, {parsed.date:%Y-%m-%d}, was read"
        )
        return replace(parsed, note=_joined(note, text, said))
    if others:
        name, there = readings[0][0], readings[0][1]
        elsewhere = "; ".join(f"as {other} it would be {day:%Y-%m-%d}" for other, day in others)
        said = (
            f"its time zone {zone.shown} is read as {name} ({_utc_offset(there)}), "
            f"{zone.why_first} ({elsewhere})"
        )
        note = _joined(note, text, said)
    if local.date() == parsed.date:
        return replace(parsed, note=note)
    shifted = (
        f"read as {local:%Y-%m-%d}, the day it was in this computer's time zone ({local.tzname()})"
    )
    note = f"{note}; {shifted}" if note else f"{text!r} {shifted}"
    return replace(parsed, date=local.date(), note=note)


def _with_weekday(
    text: str, weekday: re.Match[str], not_after: dt.date | None, day_first: DayFirst
) -> RequestDate:
    """A numeric date after a weekday ("Mon, 11/23/2026 10:15:32", "Mon 11/23/2026"): the date,
    read as it is without the weekday. Black-box B16 #8: refused as not a date while "Mon, 23 Nov
    2026" was read. A weekday the date does not fall on is said in the note, as for a month name.

    A date that reads either way whose weekday is that of one of its readings only is read that
    way, as a date that reads one way only (re-test S24 U1 F5: "Tue 10/11/2026" was read Oct 11,
    a Sunday, 30 business days late, though Nov 10 is the Tuesday it names): its order is that
    reading's, so it decides its form's other dates as "23/11/2026" does."""
    written = text[weekday.end() :]
    parsed = _parse_text(written, not_after, day_first)
    given = _WEEKDAY_NAMES[_day_name(weekday)]
    readings = _dashed_readings(written, not_after)
    if len(readings) > 1:
        # Re-test S24 U4 F2: "Tue 26-11-10" was read Nov 26, 2010, a Friday, 4,007 business
        # days late, though Nov 10, 2026, year-month-day, is the Tuesday it names.
        if (decided := _weekday_picks(text, readings, given, not_after, parsed.form)) is not None:
            return decided
    elif (
        parsed.order in _EITHER_ORDERS
        and (decided := _weekday_decides(text, written, parsed, given, not_after)) is not None
    ):
        return decided
    # The date's notes quote what they read: the whole text is what the cell holds, quoted once
    # (a zoned time's note quotes it again whole).
    note = parsed.note.replace(repr(written), repr(text), 1)
    found = parsed.date
    if found is None or found.weekday() == given:
        return replace(parsed, note=note)
    said = f"names the wrong weekday: {_day_shown(found)} is a {_WEEKDAYS[found.weekday()]}"
    said += "; read as that date"
    return replace(parsed, note=f"{note}; it {said}" if note else f"{text!r} {said}")


def _weekday_decides(
    text: str, written: str, parsed: RequestDate, given: int, not_after: dt.date | None
) -> RequestDate | None:
    """``parsed`` (``written``, a date that reads either way, after a weekday ``given``) read
    as the one reading falling on that weekday; None when both or neither do."""
    readings = {first: _parse_text(written, not_after, first) for first in (True, False)}
    if readings[True].date == readings[False].date:
        return None
    dotted = parsed.form is DateForm.DOTTED
    how = ("day.month", "month.day") if dotted else ("day/month", "month/day")
    ways = {read.date: how[not first] for first, read in readings.items() if read.date}
    return _weekday_picks(text, ways, given, not_after, parsed.form)


def _falls_on(day: dt.date | None, weekday: int, not_after: dt.date | None) -> bool:
    """Whether ``day`` is that weekday and could be a request date: one after the day checked
    cannot (re-test S24 U4 F7: "Fri 12/11/2026" was read Dec 11, after it, not Nov 12)."""
    if day is None or day.weekday() != weekday:
        return False
    return not_after is None or day <= not_after


def _dashed_readings(written: str, not_after: dt.date | None) -> dict[dt.date, str]:
    """The readings of a dashed date with a two-digit year that is a date year-month-day too,
    later than its others (``26-11-10``), each date with how it is read; empty for another."""
    m = _SLASHED.fullmatch(written)
    if m is None:
        return {}
    found = _year_first_reading(m, not_after)
    if found is None:
        return {}
    out: dict[dt.date, str] = {}
    for first, how in ((True, "day/month"), (False, "month/day")):
        read = _parse_text(written, not_after, first)
        if read.date is not None:
            out.setdefault(read.date, how)
    if not all(found > day for day in out):
        return {}
    return {found: "year-month-day", **out}


def _weekday_picks(
    text: str,
    readings: dict[dt.date, str],
    given: int,
    not_after: dt.date | None,
    form: DateForm | None,
) -> RequestDate | None:
    """The one of ``readings`` (:func:`_dashed_readings`) falling on the weekday ``given``, as
    a date read that way only; None when more or none do."""
    fits = [day for day in readings if _falls_on(day, given, not_after)]
    if len(fits) != 1:
        return None
    taken = fits[0]
    how = readings[taken]
    others = "; ".join(
        f"{way} it would be {_day_shown(day)}, a {_WEEKDAYS[day.weekday()]}"
        for day, way in readings.items()
        if day != taken
    )
    note = f"{text!r} read as {how}: {_day_shown(taken)}, the {_WEEKDAYS[given]} it names"
    if others:
        note += f" ({others})"
    return RequestDate(taken, note, _WEEKDAY_ORDERS.get(how, ""), form)


# The order a reading a weekday chose says of its column (a year-month-day one says none).
_WEEKDAY_ORDERS: Final = {
    "day/month": DAY_FIRST_ONLY,
    "day.month": DAY_FIRST_ONLY,
    "month/day": MONTH_FIRST_ONLY,
    "month.day": MONTH_FIRST_ONLY,
}


def _joined(note: str, text: str, said: str) -> str:
    """``said`` after a value's ``note``, or alone after the value ``text`` it is about."""
    return f"{note}; {said}" if note else f"{text!r}: {said}"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _utc_offset(moment: dt.datetime) -> str:
    """``UTC+05:30``, ``UTC-06:00``: the offset ``moment`` has where it was written."""
    offset = moment.utcoffset() or dt.timedelta()
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    hours, minutes = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{minutes:02d}"


def _clock(zoned: re.Match[str]) -> dt.time | None:
    """The time of day :data:`_ZONED_TIME` found, None if it names none."""
    hour, minute = int(zoned["hour"]), int(zoned["minute"])
    second = min(int(zoned["second"] or 0), 59)  # a leap second is still that minute
    if zoned["half"]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if zoned["half"].casefold() == "p" else 0)
    if hour > 23 or minute > 59:
        return None
    return dt.time(hour, minute, second)


def _zone(zoned: re.Match[str]) -> _Zone | None:
    """The zone :data:`_ZONED_TIME` found; None when its word names no zone but is something
    else after a time ("am", "hrs"), which the date is then read without, as before. A word
    of capitals (``XYZ``) or a name with a slash (``Mars/Olympus``) is taken as a zone not
    understood (no readings)."""
    name = zoned["name"]
    if name is None:
        hours, minutes = int(zoned["hours"]), int(zoned["minutes"] or 0)
        shown = f"{zoned['sign']}{zoned['hours']}{zoned['minutes'] or ''}"
        if hours > 14 or minutes > 59:  # no zone is further from UTC than 14 hours
            return _Zone(shown, ())
        offset = dt.timedelta(hours=hours, minutes=minutes)
        return _Zone(shown, ((shown, dt.timezone(-offset if zoned["sign"] == "-" else offset)),))
    key = name.casefold()
    if key in _ZONE_OFFSETS:
        return _Zone(name, ((name, dt.timezone(dt.timedelta(minutes=_ZONE_OFFSETS[key]))),))
    if key in _AMBIGUOUS_ZONES:
        readings, why = _AMBIGUOUS_ZONES[key]
        zones = tuple((n, dt.timezone(dt.timedelta(minutes=m))) for n, m in readings)
        return _Zone(name, zones, why)
    if "/" in name:
        found = _iana_zone(key)
        return _Zone(name, ((name, found),) if found is not None else ())
    if name.isupper() and len(name) >= 3:  # AM and PM are two letters
        return _Zone(name, ())
    return None


@lru_cache(maxsize=1)
def _iana_names() -> dict[str, str]:
    """IANA zone names by their case-folded spelling (``europe/berlin``: ``Europe/Berlin``)."""
    return {name.casefold(): name for name in zoneinfo.available_timezones()}


@lru_cache(maxsize=256)
def _iana_zone(key: str) -> dt.tzinfo | None:
    """The IANA zone named ``key`` (case-folded), None when there is none."""
    name = _iana_names().get(key)
    if name is None:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return None


@lru_cache(maxsize=4096)
def _read_any_year(text: str, day_first: DayFirst) -> RequestDate | None:
    """The date ``text`` names, or None when it has a two-digit year (read with the day)."""
    return _read(text, None, day_first)


@lru_cache(maxsize=1024)
def _read_two_digit_year(text: str, not_after: dt.date, day_first: DayFirst) -> RequestDate:
    return _read(text, not_after, day_first) or RequestDate(None, f"{text!r} is not a date")


def _read(text: str, not_after: dt.date | None, day_first: DayFirst) -> RequestDate | None:
    """``text`` read as a date; None if it has a two-digit year and ``not_after`` is None."""
    if (m := _ISO.fullmatch(text)) is not None:
        found = _safe(int(m[1]), int(m[2]), int(m[3]))
        if found is None:
            return RequestDate(None, f"{text!r} is not a date")
        dashed = text[4] == "-" == text[5 + len(m[2])]
        return RequestDate(found, order=YEAR_FIRST if dashed else "")
    if (m := _SLASHED.fullmatch(text)) is not None:
        first, second = int(m[1]), int(m[3])
        form = DateForm.DASHED if m[2] == "-" else DateForm.SLASHED
        if isinstance(day_first, FormOrders) and day_first.year_first:
            if (year_first := _read_year_first(text, m, not_after, day_first)) is not None:
                return year_first
            day_first = replace(day_first, year_first=False)
        form_first = form_order(day_first, form)
        us_later = other_later = None
        if len(m[4]) == 4:
            us = _safe(int(m[4]), first, second)
            other = _safe(int(m[4]), second, first)
        elif not_after is None:
            return None
        else:
            us, us_later = _two_digit_year(int(m[4]), first, second, not_after)
            other, other_later = _two_digit_year(int(m[4]), second, first, not_after)
        order, not_taken = "", None
        if us is not None and other is not None and us != other:
            order = EITHER
            if form_first:
                us, us_later, other = other, other_later, us
                not_taken = _other_date(other, m[4], not_after)
                note = (
                    f"{text!r} is ambiguous: read as {_day_shown(us)} (day/month, as the "
                    "column's dates that read only one way are); it could be "
                    f"{_other_reading(other, m[4], not_after)}"
                )
            elif form_first is None and us_later is not None and other_later is None:
                # Month/day is after the day checked (regression check V4: then read a
                # century back, Dec 11, 1926, 25,222 business days late), day/month is a real
                # recent date: the date meant, more likely than one no request can have.
                assert not_after is not None  # a two-digit year is read against it
                note = _turned_note(text, other, "day/month", us_later, "month/day", not_after)
                us, us_later, order = other, None, EITHER_TURNED
            else:
                not_taken = _other_date(other, m[4], not_after)
                note = (
                    f"{text!r} is ambiguous: read as {_day_shown(us)} (month/day); "
                    f"it could be {_other_reading(other, m[4], not_after)}"
                )
        elif us is not None:
            order = "" if us == other else MONTH_FIRST_ONLY
            note = ""
        elif other is not None:
            us, us_later = other, other_later
            order = DAY_FIRST_ONLY
            note = f"{text!r} read as day/month: {_day_shown(other)}"
        else:
            return _year_first(text, m, not_after) or RequestDate(None, f"{text!r} is not a date")
        return _or_year_first(RequestDate(us, note, order, form, not_taken), text, m, not_after)
    if (m := _DOTTED.fullmatch(text)) is not None:
        if len(m[3]) == 2 and not_after is None:
            return None
        dotted_first = form_order(day_first, DateForm.DOTTED)
        read = _read_dotted(text, int(m[1]), int(m[2]), m[3], dotted_first, not_after)
        return replace(read, form=DateForm.DOTTED)
    if len(text) == 8 and text.isascii() and text.isdigit():
        found = _safe(int(text[:4]), int(text[4:6]), int(text[6:]))
        if found is not None:
            return RequestDate(found)
    if _DECIMAL_COMMA_SERIAL.fullmatch(text) is not None:
        # Re-test B28 F6: "46335,75" was not a date while "46335.99999" was read.
        serial = float(text.replace(",", "."))
        if _SERIAL_RANGE[0] <= serial <= _SERIAL_RANGE[1]:
            return _serial(serial, text)
    if _is_number(text):
        number = _parse_cell(float(text))
        return number if number.date is not None else RequestDate(None, f"{text!r} is not a date")
    if (m := _SPACED_OR_UNICODE.fullmatch(text)) is not None:
        # "23 - 11 - 2026", "23–11–2026" (an en dash, as a word processor turns a typed dash):
        # a person reads them as 23-11-2026, of its form (re-test U2 F6: "not a date").
        mark = "-" if m[2] in _DASHES else m[2]
        written = f"{m[1]}{mark}{m[3]}{mark}{m[4]}"
        if written == text:
            # Written plainly in no form read above ("1/2/3"): read again, it recursed
            # without end and the import stopped on a RecursionError.
            return RequestDate(None, f"{text!r} is not a date")
        plain = _read(written, not_after, day_first)
        if plain is None or not plain.note:
            return plain
        return replace(plain, note=plain.note.replace(repr(written), repr(text), 1))
    return _parse_named_month(text, not_after)


def _year_first_reading(m: re.Match[str], not_after: dt.date | None) -> dt.date | None:
    """A dashed date with a two-digit year whose first part is two digits too (``26-11-10``)
    read year-month-day, as :func:`_two_digit_year` reads a year (None when it is no date, or
    one after ``not_after``: no request is received after it is checked, and that reading is
    never the one meant over a date before it, as ``26-12-10``'s Dec 26, 2010 on Nov 25, 2026)."""
    if m[2] != "-" or len(m[1]) != 2 or len(m[4]) != 2 or not_after is None:
        return None
    found, _ = _two_digit_year(int(m[1]), int(m[3]), int(m[4]), not_after)
    return None if found is None or found > not_after else found


def _read_year_first(
    text: str, m: re.Match[str], not_after: dt.date | None, day_first: FormOrders
) -> RequestDate | None:
    """A dashed date with a two-digit year read year-month-day, as its column's dates with a
    four-digit year are written (``day_first.year_first``), its note giving the reading with
    the day or month first; None when it is no date so."""
    found = _year_first_reading(m, not_after)
    if found is None:
        return None
    assert not_after is not None  # a two-digit year is read back from it
    note = f"{text!r} read as year-month-day: {_day_shown(found)}{_YEAR_FIRST_TAKEN}"
    usual = _read(text, not_after, replace(day_first, year_first=False))
    if usual is not None and usual.date is not None:
        if usual.date == found or not _more_recent(found, usual):
            return None
        note += f"; with the day or month first it would be {_day_shown(usual.date)}"
    return RequestDate(found, note, YEAR_FIRST_READ, DateForm.DASHED)


def _more_recent(found: dt.date, read: RequestDate) -> bool:
    """Whether a year-month-day reading is later than ``read``'s readings: only then is it
    named, or taken in a column written year-month-day. Every day-month-year date with a
    two-digit year up to 31 is a date year-month-day too (23-11-26: Nov 26, 2023); the reading
    years before the other is not the request a file of recent requests means."""
    return all(found > other for other in (read.date, read.other) if other not in (None, found))


def names_year_first(note: str) -> bool:
    """Whether a request date's note names a year-month-day reading of a dashed date with a
    two-digit year, read so or not (``26-11-10``): the check lists such rows."""
    return _YEAR_FIRST_NOT_TAKEN in note or _YEAR_FIRST_TAKEN in note


def _year_first(text: str, m: re.Match[str], not_after: dt.date | None) -> RequestDate | None:
    """A dashed date that is a date only read year-month-day (``99-12-31``), or None."""
    found = _year_first_reading(m, not_after)
    if found is None:
        return None
    assert not_after is not None  # a two-digit year is read back from it
    note = f"{text!r} read as year-month-day: {_day_shown(found)}"
    return RequestDate(found, note, "", DateForm.DASHED)


def _or_year_first(
    read: RequestDate, text: str, m: re.Match[str], not_after: dt.date | None
) -> RequestDate:
    """``read`` (a slashed or dashed date) with the year-month-day reading a dashed one with a
    two-digit first part also has named in its note, when that is another date: re-test S24 U2
    F7, ``26-11-10`` beside ``2026-11-10`` was read Nov 26, 2010 alone, 4,007 business days
    late, its note naming no other reading. The check lists such rows (:func:`names_year_first`)
    and a column with dates written year-month-day with a four-digit year reads them so; one
    read day/month only so says nothing of its column's order."""
    found = _year_first_reading(m, not_after)
    if found is None or read.date in (None, found) or not _more_recent(found, read):
        return read
    shown = f"{_day_shown(found)}{_YEAR_FIRST_NOT_TAKEN}"
    if "is ambiguous" in read.note:
        return replace(read, note=f"{read.note}; or it could be {shown}")
    how = "day/month" if read.order == DAY_FIRST_ONLY else "month/day"
    note = f"{text!r} read as {_day_shown(read.date)} ({how}); it could be {shown}"
    return replace(read, note=note, order=EITHER_DASHED_YEAR_FIRST, other=found)


def _read_dotted(
    text: str,
    first: int,
    second: int,
    year: str,
    day_first: bool | None,
    not_after: dt.date | None,
) -> RequestDate:
    """``first.second.year``: day.month as Europe writes it, unless the column is month/day.
    A two-digit year (``5.11.26``) is read as a slashed one's is (black-box N3 #4: refused
    as not a date while ``5/11/26`` was read); ``not_after`` is then given."""
    european_later = us_later = None
    if len(year) == 4:
        european, us = _safe(int(year), second, first), _safe(int(year), first, second)
    else:
        assert not_after is not None
        european, european_later = _two_digit_year(int(year), second, first, not_after)
        us, us_later = _two_digit_year(int(year), first, second, not_after)
    if european is not None and us is not None and european != us:
        if day_first is None and european_later is not None and us_later is None:
            # As a slashed date's month/day is (regression check V4): day.month is after the
            # day checked, and month.day is a real recent date.
            assert not_after is not None  # a two-digit year is read against it
            note = _turned_note(text, us, "month.day", european_later, "day.month", not_after)
            return RequestDate(us, note, EITHER_DOTTED_TURNED)
        if day_first is False:
            return RequestDate(
                us,
                f"{text!r} is ambiguous: read as {_day_shown(us)} (month.day, as the column's "
                f"dates that read only one way are); it could be "
                f"{_other_reading(european, year, not_after)}",
                EITHER_DOTTED,
                other=_other_date(european, year, not_after),
            )
        return RequestDate(
            european,
            f"{text!r} is ambiguous: read as {_day_shown(european)} (day.month, as dotted "
            f"dates are usually written); it could be {_other_reading(us, year, not_after)}",
            EITHER_DOTTED,
            other=_other_date(us, year, not_after),
        )
    if european is not None:
        return RequestDate(european, "", "" if european == us else DAY_FIRST_ONLY)
    if us is not None:
        return RequestDate(us, f"{text!r} read as month.day: {_day_shown(us)}", MONTH_FIRST_ONLY)
    return RequestDate(None, f"{text!r} is not a date")


def _other_reading(other: dt.date, year: str, not_after: dt.date | None) -> str:
    """The reading of an ambiguous date not taken, as its note gives it: with a two-digit
    ``year``, in the year those digits name (as :func:`_other_date` gives it), said so when
    that is after ``not_after``. Black-box B6 #8: read on its own, ``11/12/26`` the other way
    round went a century back ("it could be Dec 11, 1926") while ``11/4/26`` could be Apr 11,
    2026: a person who swapped day and month wrote the same year."""
    shown = _other_date(other, year, not_after)
    if not_after is not None and shown > not_after:
        return f"{_day_shown(shown)}, though that is after {_day_shown(not_after)}"
    return _day_shown(shown)


def _other_date(other: dt.date, year: str, not_after: dt.date | None) -> dt.date:
    """The date :func:`_other_reading` gives for ``other``: in the year a two-digit ``year``
    names, as a two-digit year is read (:func:`_two_digit_year`) but never earlier than the
    day checked's year, as a person who swapped day and month wrote the same year."""
    if len(year) == 4 or not_after is None:
        return other
    named = not_after.year - not_after.year % 100 + int(year)
    shown = _safe(named, other.month, other.day)
    if named > not_after.year and (shown is None or shown - not_after > _NEAR_FUTURE):
        shown = _safe(named - 100, other.month, other.day)
    return shown or other


def other_reading_late(
    parsed: RequestDate, inserted: dt.date, limit: int = LIMIT_BUSINESS_DAYS
) -> str:
    """``parsed``'s note saying that its other reading ("it could be Oct 11, 2026") would be a
    late request, ", which would be 30 business days before 2026-11-24 (late)", counted as the
    late check counts; "" when it would not (or there is none). For a date read in time (or
    after ``inserted``), checked on ``inserted`` (the day the file is read as of, and the
    note's other reading's year is taken from: :func:`parse_request_date`'s ``not_after``).

    Re-test U2: beside 23/11/2026, 11-10-2026 (dashed, weighed apart) is read Nov 10, in time,
    though read day-first it is Oct 11, 30 business days late; the reading follows the rule,
    but a request that may be late must not go unseen. None is claimed for an other reading
    after ``inserted`` (its note says so) or before 1900 (no request date)."""
    other = parsed.other
    if other is None or not EARLIEST_REQUEST <= other <= inserted:
        return ""
    days = business_days_between(other, inserted)
    if days <= limit:
        return ""
    could = f"it could be {_day_shown(other)}"
    if could not in parsed.note:
        return ""
    said = f"{could}, which would be {days} business days before {inserted:%Y-%m-%d} (late)"
    return parsed.note.replace(could, said, 1)


def _turned_note(
    text: str, taken: dt.date, how: str, usual: dt.date, usual_how: str, not_after: dt.date
) -> str:
    """The note on an ambiguous date read against its form's usual order, as that reading
    (``usual``, in the year written) is after ``not_after`` and the other is not."""
    return (
        f"{text!r} is ambiguous: read as {_day_shown(taken)} ({how}), since {usual_how} would be "
        f"{_day_shown(usual)}, after {_day_shown(not_after)}"
    )


# Month names in French, Spanish and German, as European vendors' exports write a request date
# ("13 novembre 2026", "13 de noviembre de 2026", "13. März 2026"), read as the English ones
# (black-box pass I2: refused as not a date). Keys are case-folded, accents kept and dropped.
_FOREIGN_MONTHS: Final = {
    name: month
    for month, names in (
        ("Jan", "janvier janv enero ene januar jänner janner"),
        ("Feb", "février fevrier févr fevr febrero feb februar"),
        ("Mar", "mars marzo märz marz maerz mär"),
        ("Apr", "avril avr abril abr"),
        ("May", "mai mayo"),
        ("Jun", "juin junio juni"),
        ("Jul", "juillet juil julio juli"),
        ("Aug", "août aout agosto ago"),
        ("Sep", "septembre septiembre setiembre sept"),
        ("Oct", "octobre octubre oktober okt"),
        ("Nov", "novembre noviembre"),
        ("Dec", "décembre decembre déc dezember diciembre dic dez"),
    )
    for name in names.split()
}
# Words around a date in those languages ("13 de noviembre de 2026", "le 13 novembre"), and
# their weekdays ("lundi 2 novembre 2026", "lunes, 2 de noviembre"), which say nothing the
# date does not (re-test K1).
_DATE_FILLER: Final = frozenset(
    {
        "de", "del", "le", "el", "am", "den",
        "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
        "lunes", "martes", "miércoles", "miercoles", "jueves", "viernes", "sábado", "sabado",
        "domingo", "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag",
        "sonnabend", "sonntag",
    }
)  # fmt: skip
# A first of the month as French and Spanish write it: "1er octobre", "1ère", "1º de octubre".
_FIRST_DAY: Final = re.compile(r"(?i)^1(?:er|re|ère|º|°|o)$")


def _english_months(text: str) -> str:
    """``text`` (words split by spaces) with foreign month names as English abbreviations, a
    French or Spanish "1er"/"1º" as 1, and the little words and weekdays around a foreign date
    left out."""
    words = [_FOREIGN_MONTHS.get(w.casefold(), w) for w in text.split()]
    words = ["1" if _FIRST_DAY.match(w) else w for w in words]
    return " ".join(w for w in words if w.casefold() not in _DATE_FILLER)


def _parse_named_month(text: str, not_after: dt.date | None) -> RequestDate | None:
    words = _TRAILING_TIME.sub("", text)
    weekday = _WEEKDAY.match(words)
    if weekday is not None:
        words = words[weekday.end() :]
    words = _SEPT.sub("Sep", _ORDINAL.sub(r"\1", words))
    cleaned = " ".join(words.replace(",", " ").replace("-", " ").replace(".", " ").split())
    cleaned = _english_months(cleaned)
    found, short_year = _named_month_day(cleaned)
    if found is not None and short_year:
        if not_after is None:
            return None
        found, _ = _two_digit_year(found.year % 100, found.month, found.day, not_after)
    if found is None:
        return RequestDate(None, f"{text!r} is not a date")
    if weekday is not None and _WEEKDAYS[found.weekday()][:3].casefold() != weekday[1].casefold():
        note = (
            f"{text!r} names the wrong weekday: {_day_shown(found)} is a "
            f"{_WEEKDAYS[found.weekday()]}; read as that date"
        )
        return RequestDate(found, note)
    return RequestDate(found)


def _named_month_day(cleaned: str) -> tuple[dt.date | None, bool]:
    """The date ``cleaned`` (words split by one space) names with an English month name, and
    whether its year had two digits (then read as strptime's %y does, 68 as 2068, for the
    caller to read again); None when it names none (see :data:`_MONTHS`)."""
    words = cleaned.split(" ")
    if len(words) != 3:
        return None, False
    if (month := _MONTH_NUMBERS.get(words[0].lower())) is not None:
        day, year, short_year = words[1], words[2], False
    elif (month := _MONTH_NUMBERS.get(words[1].lower())) is not None:
        day, year = words[0], words[2]
        short_year = words[1].lower() in _MONTH_ABBREVIATIONS and bool(_SHORT_YEAR.fullmatch(year))
    else:
        return None, False
    if _DAY_OF_MONTH.fullmatch(day) is None:
        return None, False
    if short_year:
        number = int(year)
        return _safe(number + (2000 if number <= 68 else 1900), month, int(day)), True
    if _FULL_YEAR.fullmatch(year) is None:
        return None, False
    return _safe(int(year), month, int(day)), False


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
