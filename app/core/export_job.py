"""Export any DNC or SMS opt-out search, every page of it, to xlsx or CSV.

The service stops paging at offset 100,000, so one search reaches at most 101,000 rows. When
a search matches more, the export splits it into searches that partition the same rows — by
scope (global, purpose, each campaign), then by country code, then by blank/non-blank reason,
then by insert day — until each part is reachable. Whatever still cannot be reached (a part
too big even then, rows in a campaign the campaign list does not name, rows with an unlisted
country code) is counted exactly as ``service total − rows written`` and reported, never hidden,
with why no search reached them (:func:`unreachable_warning`): a part too big even split, rows
on no insert day of the days searched (older, or undated), in a campaign the campaign list does
not name, or with a country code the split does not search. The service's searches take one
insert day each, no range and no order (spec: ``insert_date`` is one ``YYYY-MM-DD``), so finding
the days that hold entries costs one count a day: those counts run :data:`COUNT_WORKERS` at a
time (a snapshot's ``--concurrency`` at a time, and its parts as many at a time too). The DNC
search's ``insert_date`` is a moment in the spec (``YYYY-MM-DD hh:mm:ss``), so a service may
match a bare day as its midnight or refuse it: before a DNC search is split or filtered by day,
one search of an entry's day asks the service (:func:`ask_day_search`, once a run); a service
that does not take a day gets no day split (its rows past one search's reach are counted as
unreachable, saying why) and has a day filter refused (:class:`DayFilterRefused`).

A list being written to while it is exported (a removal job deleting entries, an import adding
them) moves rows between offsets: a row removed ahead of the read position shifts the later
ones back, so offset paging skips rows that never left the list. The export notices the
change — a part's ``total`` differs between its pages, a part's count differs from the one
planned, or the whole search's count at the end differs from the one at the start — and:

- re-reads a part whose total changed between its pages from offset 0, up to
  ``MAX_REREADS`` more times, until one read sees the same total on every page; rows are
  kept by entry id, so a re-read adds only the rows the earlier reads missed and no entry id
  is ever written twice in one file (the ids written are kept in memory, about 100 bytes an
  entry);
- sets :attr:`ExportResult.list_changed` and reports it (:func:`change_warning`) in the About
  sheet, the CLI and the dialog, with the counts at the start and at the end. Rows written
  before they were removed stay in the file (it is written as it is read), and rows added
  after their part was read are not in it;
- when even the last re-read of a part saw its total change, counts how far that part
  shrank during that read as :attr:`ExportResult.possibly_missing` (each removal ahead of the
  read position can hide one row; an estimate — additions in the same moment can hide more);
- reports as ``unreachable`` only rows the paging cap hides: with a changing list it is
  ``total − reachable`` of each part's last read plus the rows no split reached (the split
  search counted again with its parts until its count holds still around theirs, so removals
  meanwhile are not blamed on the cap, nor do they hide those rows: black-box B20 F7), less
  the rows of them the searches read last wrote all the same, never ``total − rows``.

Rows a split leaves out (a phone code that is no country's, a day not searched, a campaign
the campaign list does not name) are read, after the parts, through the narrowest searches
that still hold them: the split search divided by the filters left (``scope + reason`` for
rows of an unusual code, then by day), or, with none left, the split search itself as far as
paging reaches — never a wider one, which reaches fewer of them (black-box B15 #1: 5,812 rows
ordinary searches return were left out and called unreachable). These searches stop once
every row their split left out was read.

A page with fewer rows than asked ends a read only when it reaches the total the service
reported (:func:`app.api.paging.next_offset`); before that the next page starts right after
the rows received (black-box pass R1: a service answering 999 of 1,000 rows had a 2,500-row
export end at 999 rows, the rest blamed on the paging cap). Rows a read still did not get
(an empty page before the total) are counted as ``not_given``, with that reason, not the cap's.

The planning and the reading are :class:`SplitSearch`'s, which a snapshot
(:mod:`app.core.snapshots`) reads a whole list with too; :class:`ExportJob` writes what it reads.

An xlsx export's sheets stream their rows to files in the output's own folder (``<out>.<random>
.part``, :class:`~app.core.xlsx_safe.SafeWorkbook`'s ``beside``), not to openpyxl's temporary
files in ``$TMPDIR``: a process killed mid-export (SIGKILL, a power cut) leaves every row read
so far, phone numbers included, only where the person chose to put them, beside the output
(black-box R5 #6b), and the next export to the same file deletes it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Final, cast

import phonenumbers

from app.api.client import ApiClient, DncQuery
from app.api.concurrency import MAX_CONCURRENCY, InFlightGate, holding_gate
from app.api.errors import ApiError, TransportError, ValidationError
from app.api.limits import DNC_SEARCH, SMS_SEARCH, PageLimits
from app.api.models import DncEntry, Page, ReasonFilter, SmsOptOut
from app.api.paging import Cancelled, next_offset
from app.api.scope import Scope
from app.core.dnc_removal import (
    MAX_DIGITS,
    FormKind,
    FormSearch,
    refused_forms_text,
    refuses_form,
)
from app.core.session import read_over
from app.core.sheet_damage import drops_trunk_zero
from app.core.xlsx_safe import SafeCsvWriter, SafeWorkbook, quote_run_start

PAGE_SIZE = 1000
# A split by insert day tries at most this many days (ten years of history, twice the five
# years a DNC request must be honoured), counted back from the newest day seen.
MAX_SPLIT_DAYS = 3660
# Where the day split looks for the oldest and newest insert days: this many pages, spread
# from the first to the last one paging reaches (ids need not follow insert dates).
DATE_SAMPLES = 5
# A search page the service fails (a 5xx, no answer) even after the client's retries is asked
# for again this often in all before the export gives up (black-box pass I1: one 503 failed
# a 102,000-row export after 51 s).
PAGE_ROUNDS = 3
# The spec's phone code reference first, then every other country calling code: a list's
# entries may carry any of them, and those the split did not search were read only as far as
# the plain search of the whole query reaches (re-test S2 #1: a whole-list snapshot left out
# 43 countries' 5,160 global entries, said to be out of any search's reach). Rows with a code
# that is no country's are counted, not lost.
_REFERENCE_CODES = ("1", "44", "61", "49", "33", "34", "91", "86", "52", "55")
SPLIT_PHONE_CODES: tuple[str, ...] = _REFERENCE_CODES + tuple(
    str(code)
    for code in sorted(phonenumbers.COUNTRY_CODE_TO_REGION_CODE)
    if str(code) not in _REFERENCE_CODES
)
# A part whose total changed between its pages is read again from offset 0 at most this often.
MAX_REREADS = 2
# Counts of a split's parts (one search of one row each; a day split has one a day, up to
# MAX_SPLIT_DAYS) run this many at a time: one after the other, black-box pass N1 waited four
# minutes for 3,760 of them.
COUNT_WORKERS = 4
# Slots of a search's InFlightGate: its counts and its next page, with room to spare. The gate
# is there to cut the search's requests off when it is cancelled, not to hold any back; a search
# given a ``concurrency`` (a snapshot's) has that many slots, its bound on requests in flight.
GATE_SLOTS = COUNT_WORKERS + 2
# Pages of a part read ahead (with a ``concurrency``) waiting for the caller, at most: a part
# read ahead holds a few pages in memory, not the up to 101 of a whole part.
PAGES_AHEAD = 2
# How often a running search looks whether it was cancelled, to cut its requests off.
CANCEL_POLL = 0.1
# The spec gives /dnc/search's insert_date as a moment (YYYY-MM-DD hh:mm:ss), /sms-opt-out/
# search's as a day. A service following it may match a bare date as its midnight or refuse it
# (black-box B36 F2): a day filter on the DNC list is trusted only once a search of an entry's
# day found that entry (SplitSearch.searches_days).
NOT_BY_DAY = "this service's DNC search matches an insert date as an exact moment, not a day"
# Entries read to find one inserted at a time other than midnight, when none was read yet.
DAY_PROBE_ENTRIES = 100

COLUMNS = (
    "phone_number",
    "phone_code",
    "scope",
    "campaign_id",
    "campaign_name",
    "insert_date",
    "reason",
    "purpose",
    "id",
    # Last, so the columns before keep their places. Import reads it as no campaign column
    # (sheet_mapping). An SMS opt-out export leaves it out (sms_columns).
    "campaign_uid",
)
# An SMS opt-out export's columns: the spec's SMS opt-out record has no campaign_uid, and a
# column always blank read as "no campaign" to an officer (task fx13 #2). Its header is
# then a DNC export's older than campaign_uid, which every reader of an export takes.
SMS_COLUMNS: Final = COLUMNS[:-1]
SMS_NO_CAMPAIGN_UID: Final = (
    "No campaign_uid column: the service's SMS opt-out record has no such field (campaign_id "
    "and campaign_name say each entry's campaign). A DNC list export has it as its last column."
)
# Columns whose xlsx cells have the Text number format, so a person editing or re-typing a
# cell in Excel or LibreOffice keeps text, not a number: a phone number would lose a leading
# zero, or show as 2.02555E+09 and lose its digits past the fifteenth. The other columns lose
# nothing as numbers, and each Text column costs the export time (openpyxl does about twice
# the work for a styled cell as for a plain one): a country code has 1 to 3 digits, campaign
# and entry ids are, as far as known, the service's counters (no leading zero, far under 15
# digits; "0" and "-1" stay 0 and -1), and the insert date reads as the same date and time.
TEXT_COLUMNS = (COLUMNS.index("phone_number"),)
# The columns that tell a file is an export's (the last one is missing from an export older
# than campaign_uid): read back, its purpose column is each entry's recorded purpose, exactly
# as the service keeps it (black-box B27 F5, F3).
_EXPORT_TOLD_BY: Final = ("phone_number", "scope", "campaign_id", "purpose")


def is_export_header(headers: Sequence[str]) -> bool:
    """Whether ``headers`` are a DNC Desk export's header row (:data:`COLUMNS`, in order, the
    last one left out or any of them blanked as a column set aside, but not the columns that
    say which entry a row is: :data:`_EXPORT_TOLD_BY`)."""
    names = [" ".join(str(h).split()) for h in headers]
    while names and not names[-1]:
        names.pop()
    if len(names) not in (len(COLUMNS), len(COLUMNS) - 1):
        return False
    if any(name not in ("", COLUMNS[i]) for i, name in enumerate(names)):
        return False
    return all(names[COLUMNS.index(name)] == name for name in _EXPORT_TOLD_BY)


def exported_text(cell: str) -> str:
    """An export's text cell as the service had it: the one apostrophe the export put before
    text that could start a formula (or before such a run of apostrophes) taken off, nothing
    else (no spaces, tab or invisible mark), as the export wrote every other character."""
    # The writer's own finder of where its quote goes, so the two cannot drift.
    at = quote_run_start(cell)
    return cell if at is None else cell[:at] + cell[at + 1 :]


def scope_written(scope: Scope, purpose: str) -> str:
    """An entry's scope as the export's scope column writes it: ``purpose:TEXT`` with the
    purpose exactly as its purpose column has it, quoted as Python writes a text when it has
    spaces or invisible or control characters around or in it that plain text would hide
    (black-box B27 F4: ``purpose:Alerts`` for the purpose "  Alerts ")."""
    if not scope.is_purpose:
        return str(scope)
    # isprintable() is False for control and invisible format characters (a bidi mark); a
    # leading quote would read as the quoting.
    plain = purpose == purpose.strip() and purpose.isprintable() and purpose[:1] not in "'\""
    return f"purpose:{purpose}" if plain else f"purpose:{purpose!r}"


class ListKind(Enum):
    DNC = "dnc"
    SMS = "sms-opt-out"

    @property
    def title(self) -> str:
        return "DNC list" if self is ListKind.DNC else "SMS opt-out list"


@dataclass(frozen=True, slots=True)
class ExportProgress:
    rows: int
    total: int | None
    unreachable: int
    part: str


# What to do instead of a refused day filter, as the CLI's export says it.
EXPORT_DAY_ADVICE = (
    "Export without an insert date filter (--insert-date): the file's insert_date column gives "
    "each entry's day"
)


@dataclass(frozen=True, slots=True)
class DaySearch:
    """What a search of an entry's insert day showed of the service's DNC search."""

    by_day: bool
    why: str = ""  # what showed it does not take a day
    refused: bool = False  # it refused a bare date (else it found the entry's day empty)

    def refusal(self, insert_date: str, advice: str = EXPORT_DAY_ADVICE) -> str:
        """The sentence refusing a filter of ``insert_date`` on this service, ending in
        ``advice`` (what to do instead, in the words of the place that refuses it)."""
        day = insert_date[:10]
        outcome = (
            "so it cannot search one day's entries"
            if self.refused
            else f"so a search of {day} would give only the entries inserted at {day} 00:00:00"
        )
        return f"{NOT_BY_DAY}: {self.why}; {outcome}. {advice}"


class DayFilterRefused(ValueError):
    """An ``insert_date`` filter of a DNC search on a service that does not take it as a day
    (:data:`NOT_BY_DAY`): the search would give only the entries of one moment, or fail.
    ``search`` and ``insert_date`` let the window say it with its own advice."""

    def __init__(self, search: DaySearch, insert_date: str) -> None:
        super().__init__(search.refusal(insert_date))
        self.search = search
        self.insert_date = insert_date


def ask_day_search(
    fetch: Callable[[DncQuery], Page[DncEntry] | Page[SmsOptOut]], items: Sequence[Item]
) -> DaySearch | None:
    """Whether the service's DNC search takes a bare insert date as that whole day: one of
    ``items`` (entries read already), inserted at a time other than midnight if any was, is
    searched by its id and day with ``fetch``. Found: it does. Not found, or the date refused:
    the search matches an exact moment, as the spec's ``YYYY-MM-DD hh:mm:ss`` lets a service
    do. None with no dated item to try. A midnight entry is found either way, but a service
    refusing a bare date says so."""
    dated = [item for item in items if _day(item.insert_date) is not None]
    if not dated:
        return None
    timed = [item for item in dated if item.insert_date[10:].strip(" :0")]
    probe = (timed or dated)[0]
    day = probe.insert_date[:10]
    search = DncQuery(id=probe.id, insert_date=day)
    try:
        page = fetch(search)
    except ValidationError as exc:
        return day_refused(search, exc)
    if any(item.id == probe.id for item in page.items) or (page.total or 0) > 0:
        return DaySearch(by_day=True)
    return DaySearch(
        by_day=False,
        why=f"entry {probe.id}, inserted {probe.insert_date}, was not found by a search with "
        f"insert_date={day}",
    )


class Gap(Enum):
    """Why rows of a split search were in none of its parts."""

    SCOPE = "scope"  # a campaign the service's campaign list does not name
    CODE = "code"  # a phone code not in SPLIT_PHONE_CODES (no country's)
    REASON = "reason"  # neither blank nor not blank: none expected
    DAYS = "days"  # on no insert day searched: older, or undated


@dataclass(slots=True)
class ExportResult:
    """What an export wrote; ``unreachable`` rows matched but the paging cap hid them.

    ``total`` is the service's count when the export started, ``total_at_end`` its count when
    it ended. ``list_changed``: the list was written to during the export (see the module
    docstring); ``possibly_missing`` estimates rows a still-changing part may have skipped.
    ``rereads`` counts the parts read again because their total changed between pages.
    ``capped``, ``not_given`` and ``gaps`` say why rows went unreached (each an upper bound: the
    plain search read last reaches some of them): rows of parts too big even at the finest
    split, rows the service counted but whose pages came short of them, and rows no part of a
    split held, by :class:`Gap`; ``days_searched`` is the first and last insert
    day a day split searched, and ``reach`` how many rows one search reaches. ``counted``: the
    searches that asked the service how many rows match (an empty list's export runs one and
    reads no page, so ``parts`` is empty).
    """

    path: Path
    rows: int
    total: int
    unreachable: int
    parts: list[str] = field(default_factory=list)
    started: str = ""
    finished: str = ""
    list_changed: bool = False
    total_at_end: int | None = None
    possibly_missing: int = 0
    rereads: int = 0
    capped: int = 0
    gaps: dict[Gap, int] = field(default_factory=dict)
    days_searched: tuple[str, str] | None = None
    reach: int = 101_000
    not_given: int = 0
    counted: int = 0
    # Why the search was not split by insert day, when the service's search could not be
    # (:data:`NOT_BY_DAY` and what showed it); "" when it could, or was not tried.
    not_by_day: str = ""
    # The number filter's written forms the service refused to search (its trunk-0 form on a
    # service strict on phone formats: :func:`app.core.dnc_removal.refuses_form`), as a note
    # saying no entry is kept so; "" when none was.
    forms_not_searched: str = ""
    # An xlsx export's cells whose text held characters an xlsx file cannot hold, by column
    # (see :func:`replaced_warning`); a CSV export keeps every character.
    replaced: dict[str, int] = field(default_factory=dict)


# Why rows a search counted were not read, when it is not the paging cap (black-box pass R1).
SHORT_PAGES = (
    "the service answered a page with fewer rows than asked before the end of the result, "
    "and no page after it gave them"
)


def _why_unreached(result: ExportResult) -> list[tuple[int, str]]:
    """Each cause of unreached rows found, with its count and what it says of them."""
    out: list[tuple[int, str]] = []
    if result.capped and result.not_by_day:
        out.append(
            (
                result.capped,
                "share one scope, country code and reason, more than one search reaches, and "
                f"cannot be parted by insert day: {result.not_by_day}",
            )
        )
    elif result.capped:
        out.append(
            (
                result.capped,
                "share one scope, country code, reason and insert day, more than one search "
                "reaches, and no filter of the service splits them further",
            )
        )
    days = result.gaps.get(Gap.DAYS, 0)
    if days:
        span = (
            f" ({result.days_searched[0]} to {result.days_searched[1]})"
            if result.days_searched
            else ""
        )
        out.append(
            (
                days,
                f"are on no insert day of the {MAX_SPLIT_DAYS:,} days searched{span}: inserted "
                "earlier, or without an insert date; --insert-date YYYY-MM-DD exports one "
                "day's entries, which one search reaches",
            )
        )
    scopes = result.gaps.get(Gap.SCOPE, 0)
    if scopes:
        out.append(
            (
                scopes,
                # Not "--scope campaign:ID": the service refuses a search by a campaign id
                # its campaign list lacks (6026), and so does export (black-box B27 F2).
                "are in a campaign the service's campaign list does not name, which no search "
                "of the service can select (it refuses that campaign id); --insert-date, "
                "--reason or --phone-code may part them from the rows they share a search with",
            )
        )
    codes = result.gaps.get(Gap.CODE, 0)
    if codes:
        out.append(
            (
                codes,
                "have a phone code that is no country's calling code, which the split by "
                "country code does not search; --phone-code CODE exports the entries of one "
                "such code as of any other (the list's entries under it, as it holds them)",
            )
        )
    other = result.gaps.get(Gap.REASON, 0)
    if other:
        out.append((other, "were in neither the search of blank reasons nor that of others"))
    if result.not_given:
        out.append(
            (
                result.not_given,
                f"were counted by the service but not given: {SHORT_PAGES}; export again "
                "later, or with narrower filters",
            )
        )
    # A cause's count is what its split left out, some of which later searches read: no more
    # of them than the rows unreached are unreached (black-box B15 #1: "up to 60,000" of
    # 30,010).
    return [(min(count, result.unreachable), text) for count, text in out]


def unreachable_warning(result: ExportResult) -> str:
    """The sentence on the rows no search reached ("" when there are none), saying why.

    Each cause found is named with how to export those rows: not "narrow the filters" for a
    part split as finely as the service's filters allow (re-test J1), and not that reason for
    rows the day split never reached (black-box pass N1 #1: 600 rows of a day more than ten
    years back were blamed on a split "finest" at 60,000 rows a day)."""
    if not result.unreachable:
        return ""
    n = result.unreachable
    many = n != 1
    causes = _why_unreached(result)
    lead = f"{n:,} matching {'rows' if many else 'row'} could not be reached"
    if result.capped or result.gaps or not result.not_given:
        # The cap is named only when it is among the causes: rows a service's short pages
        # left out are not its doing (black-box pass R1).
        lead += f" (one search of the service reaches its first {result.reach:,} rows)"
    tail = f"{'they are' if many else 'it is'} on the list but not in this file."
    if len(causes) == 1:
        return f"{lead}: {'they' if many else 'it'} {_agreeing(causes[0][1], n)}; {tail}"
    if not causes:  # not expected: every unreached row has a cause counted
        return f"{lead}; {tail}"
    # Each cause's count is an upper bound of its rows unreached, and the causes part them:
    # bounds adding up to the rows unreached of a list left alone are each exact, and said so
    # (black-box B20 F4: "up to 499 … up to 1" of 500, both exact). A changing list's
    # unreachable is itself an estimate, so its causes stay bounds.
    if not result.list_changed and sum(count for count, _ in causes) == n:
        said = "; ".join(f"{count:,} {_agreeing(text, count)}" for count, text in causes)
    else:
        said = "; ".join(f"up to {count:,} {text}" for count, text in causes)
    return f"{lead}: of them, {said}; {tail}"


def _agreeing(text: str, count: int) -> str:
    """A cause's text (said of several rows) with its verb agreeing with ``count`` rows."""
    if count != 1:
        return text
    text = text.replace("share one", "shares one", 1).replace("are ", "is ", 1)
    text = text.replace("have a ", "has a ", 1).replace("were in", "was in", 1)
    return text.replace("were counted", "was counted", 1)


def replaced_warning(result: ExportResult) -> str:
    """The sentence on an xlsx export's values that lost characters ("" when none did).

    XML, and so xlsx, cannot hold control characters other than tab and line breaks (U+0001
    to U+001F but those): such a character is written as U+FFFD. Said, with the cells and
    their columns, rather than silently (black-box B27 F1: a reason with U+0001 came out
    changed while the docs said the xlsx keeps every value as the service has it)."""
    cells = sum(result.replaced.values())
    if not cells:
        return ""
    columns = ", ".join(f"{name}: {n:,}" for name, n in result.replaced.items())
    held = "value holds" if cells == 1 else "values hold"
    return (
        f"{cells:,} {held} characters an xlsx file cannot hold ({columns}): control "
        "characters other than tab and line breaks, each written in this file as U+FFFD "
        "(\ufffd); a CSV export keeps them as the service has them"
    )


def change_warning(result: ExportResult) -> str:
    """The sentence saying the list changed during the export ("" when it did not)."""
    if not result.list_changed:
        return ""
    end = result.total if result.total_at_end is None else result.total_at_end
    text = (
        f"the list changed while it was exported ({result.total:,} entries when it started, "
        f"{end:,} when it ended); entries added or removed meanwhile may be missing or "
        "included: export again when no job is writing to it"
    )
    if result.rows > max(result.total, end):
        # More rows than the service ever counted can only be entries read before a removal
        # took them off: say so, or the file looks like it invented rows.
        extra = result.rows - max(result.total, end)
        text += (
            f"; this file holds {result.rows:,} rows, {extra:,} more than the service counted "
            "at either end, so it includes entries removed while it was read"
        )
    if result.possibly_missing:
        text += (
            f" (up to about {result.possibly_missing:,} rows may be missing because the list "
            "kept changing while it was read again)"
        )
    return text


class _Ticker:
    """Reports progress at most five times a second, so a fast export is not slowed by it."""

    def __init__(self, progress: Callable[[ExportProgress], None] | None, total: int) -> None:
        self._progress = progress
        self._total = total
        self._last = 0.0

    def tick(self, rows: int, label: str) -> None:
        if self._progress is None:
            return
        now = time.monotonic()
        if now - self._last > 0.2:
            self._last = now
            self._progress(ExportProgress(rows, self._total, 0, label))


@dataclass(slots=True)
class _Read:
    """What one read of a part saw: the totals of its first and last pages, whether they all
    agreed, how far the total fell between consecutive pages, and how far into the result its
    pages reached (offset plus rows of the furthest page)."""

    first: int | None = None
    last: int | None = None
    stable: bool = True
    shrink: int = 0
    reached: int = 0


# --reason as typed, not the service's -BLANK- / -NOTBLANK- (black-box pass N1 #9).
REASON_WORDS = {ReasonFilter.BLANK: "blank", ReasonFilter.NOT_BLANK: "not-blank"}


def describe_query(query: DncQuery, scope_said: str = "") -> dict[str, str]:
    """The filters as a person typed them (the About sheet's Filters, ``--json``'s
    ``filters``): the bare purpose scope is "purpose (every purpose)", a reason filter
    ``blank`` or ``not-blank``; ``scope_said``, when given, is the scope as typed (a campaign
    given by its name, with its id: ``campaign:Spring Renewals (id 1001)``)."""
    out = _filters_said(query)
    if scope_said and "scope" in out:
        out["scope"] = scope_said
    if query.reason in REASON_WORDS:
        out["reason"] = REASON_WORDS[query.reason]
    return out


def _filters(query: DncQuery) -> dict[str, str]:
    """The filters as the service is sent them (a search's label)."""
    out: dict[str, str] = {}
    if query.scope is not None:
        out["scope"] = str(query.scope)
    for name in ("id", "phone_number", "phone_code", "insert_date", "purpose"):
        value = getattr(query, name)
        if value:
            out[name] = value
    if query.reason is not ReasonFilter.ANY:
        out["reason"] = query.reason.value
    return out


def _filters_said(query: DncQuery) -> dict[str, str]:
    """:func:`_filters`, the bare purpose scope said as "purpose (every purpose)", not
    "purpose:" (black-box L2 #5, B15 #6)."""
    out = _filters(query)
    if query.scope is not None and query.scope.is_purpose and not query.scope.purpose_text:
        out["scope"] = "purpose (every purpose)"
    return out


def _label(query: DncQuery) -> str:
    return _one_line(_filters(query))


def _one_line(filters: Mapping[str, str]) -> str:
    """Filters on one line, as a label or the About sheet says them ("all" without any)."""
    return ", ".join(f"{k}={v}" for k, v in filters.items()) or "all"


def filters_said(query: DncQuery, scope_said: str = "") -> str:
    """:func:`describe_query` on one line ("all" without filters)."""
    return _one_line(describe_query(query, scope_said))


Item = DncEntry | SmsOptOut


@dataclass(slots=True)
class SplitPart:
    """One search of a split read: the rows planned for it, the rows first kept from it,
    those its last read's total put past what one search reaches (``capped``), those within
    that reach which its pages came short of (``not_given``: a page with fewer rows than asked,
    then none, before the total), and how many of those the plain search read last reached all
    the same (``found_later``)."""

    label: str
    planned: int
    read: int = 0
    capped: int = 0
    found_later: int = 0
    not_given: int = 0

    @property
    def missing(self) -> int:
        """Rows of this search that no read reached."""
        return max(0, self.capped + self.not_given - self.found_later)


@dataclass(slots=True)
class SplitRead:
    """What :meth:`SplitSearch.read` kept: ``rows`` entries (each id once), the searches run
    (``labels``, the plain searches read last included), and the exact count of matching
    entries it could not read (``unreachable``), of which ``gap_missing`` were in no search of
    the split (``gap`` of them counted when it was planned, ``gap_found`` reached later by the
    plain search). ``list_changed`` and the rest as in :class:`ExportResult`."""

    total: int
    rows: int = 0
    parts: list[SplitPart] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    rereads: int = 0
    list_changed: bool = False
    total_at_end: int | None = None
    possibly_missing: int = 0
    gap: int = 0
    gap_found: int = 0
    unreachable: int = 0

    @property
    def capped(self) -> int:
        return sum(p.capped for p in self.parts)

    @property
    def not_given(self) -> int:
        return sum(p.not_given for p in self.parts)

    @property
    def gap_missing(self) -> int:
        return max(0, self.gap - self.gap_found)


@dataclass(frozen=True, slots=True)
class Silence:
    """What :meth:`SplitSearch.quiet` finds: the service has answered none of the searches
    for ``seconds``. With ``refused``, every search that ended with no answer since the last
    answer (or since the last that reached the service and got none) had its connection
    refused (or its host unknown), for ``seconds``: a service that is down, not one that does
    not answer (S19 W1, as a job says it: black-box B4 #9). A search is told apart only once
    it ends, its client's retries included: until the first does, a refusal is not known.
    """

    seconds: float
    refused: bool = False


class SplitSearch:
    """One DNC or SMS opt-out search, split so the paging cap hides no rows (see the module
    docstring), and read part by part: what an export writes and a snapshot keeps.

    :meth:`plan` counts the search and splits it; :meth:`read` reads every part (again when
    its total changed between pages), then, while rows are missing, the narrowest searches
    holding the rows a split left out, handing each entry to a callback once.
    """

    def __init__(
        self,
        api: ApiClient,
        kind: ListKind,
        query: DncQuery,
        *,
        cancel: threading.Event | None = None,
        page_size: int = PAGE_SIZE,
        concurrency: int | None = None,
    ) -> None:
        if concurrency is not None and not 1 <= concurrency <= MAX_CONCURRENCY:
            raise ValueError(f"concurrency must be 1 to {MAX_CONCURRENCY}, not {concurrency}")
        self.api = api
        self.kind = kind
        self.query = query
        self.cancel = cancel or threading.Event()
        self.page_size = page_size
        # Requests in flight at most. None: an export's pace, counts COUNT_WORKERS at a time and
        # parts one after the other. A number N: counts N at a time, and the next N - 1 parts
        # read while the caller takes the current one's entries, each handed to it in the
        # order one read after the other gives (a snapshot's --concurrency: 3,650 day parts
        # read one after the other took a tester 296 s).
        self.count_workers = COUNT_WORKERS if concurrency is None else concurrency
        self.part_readers = 1 if concurrency is None else concurrency
        self.limits: PageLimits = DNC_SEARCH if kind is ListKind.DNC else SMS_SEARCH
        self._campaign_names: dict[str, str] = {}
        # Rows no split reached (a split search's count minus its parts'), by why, and
        # whether a count taken twice during planning differed.
        self._split_gap = 0
        self._gaps: dict[Gap, int] = {}
        # The splits that left rows out, in the order met (those of the reads that reach them
        # appended as they are planned), the plan's own splits by search with what each
        # split by and its parts, and how many of the plan's left-out rows a later read found.
        self._gap_nodes: list[_GapNode] = []
        self._tree: dict[DncQuery, tuple[Gap, dict[str, DncQuery]]] = {}
        self._gap_index: dict[DncQuery, int] = {}
        self._gaps_found: dict[Gap, int] = {}
        self._days_searched: tuple[dt.date, dt.date] | None = None
        # Whether the service's search takes a bare insert date as that day (None: not known
        # yet; asked once a run), and if not, what showed it.
        self._by_day: bool | None = None if kind is ListKind.DNC else True
        self._day: DaySearch | None = None
        self.not_by_day = ""
        # The trunk-0 forms of the number filter the service refused to search (:meth:`_roots`).
        self._refused_roots: list[FormSearch] = []
        self._changed_while_planning = False
        # What a watcher (the CLI's, every few seconds) reads: searches counted while
        # planning, and the service's silence (see :meth:`quiet`).
        self.counted = 0
        # Counts run after the parts were read, for the rows no part held (the day split's
        # older days first among them): how many ran, and at most how many will, while
        # ``gap_counting`` (black-box B27 F6: a hundred seconds of them said only "134,011
        # of 136,526 rows written so far", which looked stuck).
        self.gap_counted = 0
        self.gap_bound = 0
        # Pages read meanwhile, by the searches that may hold those rows: most of their rows
        # were written already, so the rows written stand still while they are read.
        self.gap_pages = 0
        self._reaching = False
        self._gap_counting = False
        self._lock = threading.Lock()
        self._asked: dict[int, float] = {}  # thread id -> when its search was sent (monotonic)
        self._answered_at: float | None = None
        # When the oldest search that ended with no answer since the last answer was sent;
        # and since when (the first one's sending) every search ending with no answer had no
        # connection to the service made (refused, its host unknown): None once one is
        # answered, or ends unanswered after reaching the service (see Silence).
        self._unanswered_since: float | None = None
        self._refused_since: float | None = None
        # Held around every request of the search, on whichever thread sends it, so that a
        # cancel ends a request on the wire at once (InFlightGate.abandon), as a job's stop
        # does, and none starts after it (black-box B23 F1: an export against a service that
        # never answered exited 30 s after SIGTERM, saying meanwhile it was still trying).
        slots = GATE_SLOTS if concurrency is None else concurrency
        self._gate = InFlightGate(slots, stop=self.cancel)

    # -- cancelling ---------------------------------------------------------------------

    @contextmanager
    def cancellable(self) -> Iterator[None]:
        """While in the block, :attr:`cancel` ends the search's requests at once, one waiting
        for its answer included (it ends as a broken connection, and the search raises
        :class:`~app.api.paging.Cancelled`). Checked every :data:`CANCEL_POLL` seconds by a
        thread of its own: a signal handler that sets ``cancel`` must not take the gate's lock,
        which the interrupted thread may hold."""
        left = threading.Event()

        def watch() -> None:
            while not left.is_set():
                if self.cancel.wait(CANCEL_POLL):
                    self._gate.abandon()
                    return

        threading.Thread(target=watch, name="dnc-export-cancel", daemon=True).start()
        try:
            yield
        finally:
            left.set()

    def _gated(self) -> AbstractContextManager[None]:
        """The calling thread's requests pass the search's gate while in the block: the
        search's threads are its own (the counts' pool, the page read ahead, the caller's)."""
        return holding_gate(self._gate)

    # -- searching ----------------------------------------------------------------------

    def search(self, query: DncQuery, offset: int, limit: int) -> Page[DncEntry] | Page[SmsOptOut]:
        """One page of ``query``, once: a request of the search (cancelled with it)."""
        return self._fetch_once(query, offset, limit)

    def _fetch(self, query: DncQuery, offset: int, limit: int) -> Page[DncEntry] | Page[SmsOptOut]:
        return read_over(lambda: self._fetch_once(query, offset, limit), PAGE_ROUNDS)

    def _fetch_once(
        self, query: DncQuery, offset: int, limit: int
    ) -> Page[DncEntry] | Page[SmsOptOut]:
        if self.cancel.is_set():
            raise Cancelled
        me = threading.get_ident()
        asked = time.monotonic()
        with self._lock:
            self._asked[me] = asked
        answered = False
        unanswered: TransportError | None = None
        try:
            with self._gated():
                if self.kind is ListKind.DNC:
                    page: Page[DncEntry] | Page[SmsOptOut] = self.api.search_dnc(
                        query, offset=offset, limit=limit, cancel=self.cancel
                    )
                else:
                    page = self.api.search_sms(
                        query, offset=offset, limit=limit, cancel=self.cancel
                    )
            answered = True
            return page
        except ApiError as exc:
            answered = not isinstance(exc, TransportError)  # an HTTP status is an answer
            if isinstance(exc, TransportError):
                unanswered = exc
            raise
        finally:
            with self._lock:
                self._asked.pop(me, None)
                if answered:
                    self._answered_at = time.monotonic()
                    self._unanswered_since = self._refused_since = None
                elif unanswered is not None:
                    if self._unanswered_since is None:
                        self._unanswered_since = asked
                    if unanswered.sent:
                        self._refused_since = None
                    elif self._refused_since is None:
                        self._refused_since = asked

    def quiet(self, after: float) -> Silence | None:
        """How long the service has answered none of the export's searches, once that is
        ``after`` seconds or more while one is waiting for its answer; else None. With
        ``refused``, the searches that ended meanwhile had no connection made (see
        :class:`Silence`), and the seconds count from the first of them."""
        with self._lock:
            asked = min(self._asked.values(), default=None)
            answered = self._answered_at
            unanswered = self._unanswered_since
            refused = self._refused_since
        if asked is None:
            return None
        oldest = asked if unanswered is None else min(asked, unanswered)
        since = oldest if answered is None else max(oldest, answered)
        now = time.monotonic()
        if now - since < after:
            return None
        if refused is None:
            return Silence(now - since)
        return Silence(now - max(refused, since), refused=True)

    @property
    def reaching(self) -> bool:
        """Whether the parts were read and the search now looks for the rows none held:
        counting (:attr:`gap_counting`) or reading (:attr:`gap_pages`) searches that may."""
        return self._reaching

    @property
    def gap_counting(self) -> bool:
        """Whether the search is counting the rows no part held (after the parts' reads),
        not reading rows: :attr:`gap_counted` of at most :attr:`gap_bound` counts so far."""
        return self._gap_counting

    def _expect(self, counts: int) -> None:
        """``counts`` more counts are about to run (said only after the parts were read)."""
        if self._reaching:
            with self._lock:
                self.gap_bound += counts

    def _count(self, query: DncQuery) -> int:
        if self._reaching:
            self._gap_counting = True
        total = self._fetch(query, 0, 1).total or 0
        with self._lock:
            self.counted += 1
            if self._reaching:
                self.gap_counted += 1
                self.gap_bound = max(self.gap_bound, self.gap_counted)
        return total

    def _counts(self, queries: list[DncQuery], bounded: bool = False) -> list[tuple[DncQuery, int]]:
        """Each query with its count, :attr:`count_workers` counts at a time; ``bounded``: the
        caller has said already how many counts at most it runs (:meth:`_expect`)."""
        if not bounded:
            self._expect(len(queries))
        if len(queries) < 2 or self.count_workers < 2:
            return [(q, self._count(q)) for q in queries]
        with ThreadPoolExecutor(self.count_workers, thread_name_prefix="dnc-export-count") as pool:
            futures = [pool.submit(self._count, q) for q in queries]
            try:
                return [(q, f.result()) for q, f in zip(queries, futures, strict=True)]
            except BaseException:
                for f in futures:
                    f.cancel()
                raise

    def count_matches(self) -> int:
        """The service's count of the rows the query matches (its trunk-0 form too)."""
        return self._total()

    def _reachable(self, total: int) -> int:
        return self.limits.reachable(total, self.page_size)

    def _roots(self) -> list[DncQuery]:
        """The searches the query stands for: itself, and for one number of a country that
        drops a trunk 0, the number kept with it ("02079460000", entered by hand), which a
        removal finds and deletes as the same number."""
        query = self.query
        number, code = query.phone_number, query.phone_code
        # Not past E.164's 15 digits: no entry holds such a form, and the service refuses
        # its search (code 6006), which stopped the export of a 15-digit German number that
        # was on the list (black-box B15 #2; a removal and evidence leave it out too).
        if (
            number
            and not number.startswith("0")
            and len(number) < MAX_DIGITS
            and code
            and drops_trunk_zero(code)
        ):
            trunk = f"0{number}"
            if any(refused.number == trunk for refused in self._refused_roots):
                return [query]
            return [query, replace(query, phone_number=trunk)]
        return [query]

    def _total(self) -> int:
        return sum(self._count_root(n, root) for n, root in enumerate(self._roots()))

    def _count_root(self, n: int, root: DncQuery) -> int:
        """The service's count of ``root``, the ``n``-th of :meth:`_roots`; 0 for the number's
        trunk-0 form when the service refuses to search it as a phone number format it does
        not take (it keeps no entry so: black-box B36 F3), which is then left out of the
        export's searches and named in its result (:attr:`ExportResult.forms_not_searched`)."""
        try:
            return self._count(root)
        except ValidationError as exc:
            trunk = FormSearch(root.phone_number or "", FormKind.TRUNK, root.phone_code or "")
            if n == 0 or self.kind is not ListKind.DNC or not refuses_form(exc, trunk):
                raise
            if trunk not in self._refused_roots:
                self._refused_roots.append(trunk)
            return 0

    def forms_not_searched(self) -> str:
        """The note of the number filter's forms the service refused to search, "" for none."""
        return refused_forms_text(self._refused_roots)

    def plan(self) -> tuple[int, list[tuple[DncQuery, int]]]:
        """The service's total for the query and the searches (with their totals) to run."""
        leaves: list[tuple[DncQuery, int]] = []
        self._split_gap = 0
        self._gaps = {}
        self._gap_nodes = []
        self._tree = {}
        self._gap_index = {}
        self._gaps_found = {}
        self._days_searched = None
        self._changed_while_planning = False
        self._reaching = self._gap_counting = False
        if self.query.insert_date:
            self._check_day_filter()
        total = 0
        for n, root in enumerate(self._roots()):
            try:
                count = self._count_root(n, root)
            except ValidationError as exc:
                if not self.query.insert_date or self.kind is not ListKind.DNC or exc.code != 6008:
                    raise
                # No entry told (an empty list, or only midnight ones) and the service
                # refuses the day itself.
                raise DayFilterRefused(day_refused(root, exc), self.query.insert_date) from exc
            if root not in self._roots():
                continue  # refused (:meth:`_count_root`): no entry is kept in that form
            total += count
            self._split(root, count, leaves, root=n)
        return total, leaves

    # -- searching by insert day ------------------------------------------------------------

    def searches_days(self, items: Sequence[Item]) -> bool:
        """Whether the service's search takes a bare insert date (``YYYY-MM-DD``) as that
        whole day, asked of it once a run (:func:`ask_day_search` of ``items``, entries read
        already); :attr:`not_by_day` says why not. With no item to try, nothing is known yet
        and the day is trusted."""
        if self._by_day is not None:
            return self._by_day
        answer = ask_day_search(lambda query: self._fetch(query, 0, 1), items)
        if answer is None:
            return True
        self._by_day = answer.by_day
        self._day = answer
        self.not_by_day = "" if answer.by_day else f"{NOT_BY_DAY} ({answer.why})"
        return answer.by_day

    def _check_day_filter(self) -> None:
        """Refuse the query's insert-date filter (:class:`DayFilterRefused`) on a DNC list
        whose service does not take it as a day, found out from one page of the list."""
        if self.kind is not ListKind.DNC:
            return
        page = self._fetch(DncQuery(), 0, DAY_PROBE_ENTRIES)
        if not self.searches_days(page.items) and self._day is not None:
            raise DayFilterRefused(self._day, self.query.insert_date)

    def _split(
        self,
        query: DncQuery,
        total: int,
        leaves: list[tuple[DncQuery, int]],
        skip: frozenset[Gap] = frozenset(),
        serves: int | None = None,
        root: int = 0,
    ) -> None:
        """Split ``query`` (``total`` rows) into ``leaves`` one search reaches, by every
        dimension but those in ``skip``. ``serves``: the plan's split whose left-out rows this
        split is planned to reach (None for the plan itself, whose left-out rows are counted as
        :class:`Gap`); either way a split that leaves rows out is kept in ``_gap_nodes``."""
        if total == 0:
            return
        split = None if total <= self._reachable(total) else self._children(query, total, skip)
        if split is None:
            leaves.append((query, total))
            return
        gap, children = split
        if gap is Gap.DAYS and serves is not None:
            # A split reaching rows the plan's left out counts its days newest first, a few
            # at a time, and only until those rows are all read (see _gap_searches): counted
            # all at once, it cost 3,660 more counts on black-box B15 #1's list after the
            # rows sought were on the 295th day.
            newest = dt.date.fromisoformat(children[0].insert_date)
            after = newest + dt.timedelta(days=1)
            self._gap_nodes.append(
                _GapNode(query, total, gap, total, skip, root, serves, older=(newest, after))
            )
            return
        counts = self._counts(children)
        covered = sum(count for _, count in counts)
        if gap is Gap.DAYS:
            newest = dt.date.fromisoformat(children[0].insert_date)
            oldest = dt.date.fromisoformat(children[-1].insert_date)
            if covered < total:
                # A day split that left rows out: they are older than the days seen (ids need
                # not follow insert dates), so earlier days are counted until they are all
                # found.
                found, oldest = self._older_days(query, newest, oldest, total - covered)
                counts += found
                covered = sum(count for _, count in counts)
            self._seen_days(oldest, newest)
        if covered < total:
            missed = self._left_out(query, total, counts)
            if missed:
                index = len(self._gap_nodes)
                if serves is None:
                    self._split_gap += missed
                    self._gaps[gap] = self._gaps.get(gap, 0) + missed
                    self._gap_index[query] = index
                self._gap_nodes.append(
                    _GapNode(
                        query, total, gap, missed, skip, root, index if serves is None else serves
                    )
                )
        elif covered > total:
            self._changed_while_planning = True  # rows added while the parts were counted
        if serves is None:
            self._tree[query] = (gap, {_part_key(gap, child): child for child, _ in counts})
        for child, count in counts:
            self._split(child, count, leaves, skip, serves, root)

    def _left_out(self, query: DncQuery, total: int, counts: list[tuple[DncQuery, int]]) -> int:
        """How many of ``query``'s rows (``total`` when it was counted) none of its parts
        (``counts``) holds: rows no part covers, or rows removed while the parts were counted.

        The search is counted again; when that count moved, its parts' counts were taken at
        other moments than either of its own, and a difference of the two hides left-out rows
        behind rows removed from a part after it was counted (black-box B20 F7: 200 removed
        from a day already counted hid the one entry dated before the days searched, which
        then was in no count at all). So the search and its parts holding rows are counted
        again one after the other, until the search's count is the same before and after its
        parts'. A part counted empty is not counted again (a day split has thousands): rows
        added to one meanwhile count as left out, which the reads after the parts then find.
        """
        self._expect(1)
        again = self._count(query)
        if again == total:
            return max(0, total - sum(count for _, count in counts))
        self._changed_while_planning = True
        held = [child for child, count in counts if count]
        before = again
        for _ in range(MAX_REREADS + 1):
            covered = sum(count for _, count in self._counts(held))
            self._expect(1)
            after = self._count(query)
            if after == before:
                break
            before = after
        # Still moving: the larger count, so rows removed meanwhile may be called left out,
        # but no left-out row is hidden by them.
        return max(0, max(before, after) - covered)

    def _children(
        self, query: DncQuery, total: int, skip: frozenset[Gap] = frozenset()
    ) -> tuple[Gap, list[DncQuery]] | None:
        """Searches that partition ``query``'s rows more finely, with what rows they leave
        out would be (for the sentence on them), or None if no split is left; a split by a
        dimension in ``skip`` is not made (it left the rows to be reached out)."""
        if query.scope is None and not query.id and Gap.SCOPE not in skip:
            if not self._campaign_names:
                with self._gated():
                    campaigns = self.api.campaigns(self.cancel)
                self._campaign_names = {c.id: c.name for c in campaigns}
            scopes = [Scope.global_(), Scope.purpose("")]
            scopes += [Scope.campaign(cid) for cid in sorted(self._campaign_names, key=int)]
            return Gap.SCOPE, [replace(query, scope=s) for s in scopes]
        if (
            not query.phone_code
            and not query.phone_number
            and not query.id
            and Gap.CODE not in skip
        ):
            return Gap.CODE, [replace(query, phone_code=code) for code in SPLIT_PHONE_CODES]
        if query.reason is ReasonFilter.ANY and not query.id and Gap.REASON not in skip:
            return Gap.REASON, [
                replace(query, reason=ReasonFilter.BLANK),
                replace(query, reason=ReasonFilter.NOT_BLANK),
            ]
        if not query.insert_date and not query.id and Gap.DAYS not in skip:
            days = self._days(query, total)
            return None if days is None else (Gap.DAYS, days)
        return None

    def _days(self, query: DncQuery, total: int) -> list[DncQuery] | None:
        """One search per insert day, from the oldest day seen to the newest (or tomorrow).

        The days seen are those of pages spread over all paging reaches (DATE_SAMPLES of
        them): pages come in id order, which on the service follows insertion, but a list
        filled otherwise need not (black-box pass I1: entries older than the first page's, and
        a list whose entries were all older than three years before today, were left out and
        blamed on the paging cap). Tomorrow covers a service whose clock is ahead of ours. At
        most MAX_SPLIT_DAYS days back from the newest are tried; rows outside the days tried
        are read afterwards by the split search, as far as paging reaches (see :meth:`read`).
        """
        size = min(self.page_size, 100)
        last = max(0, min(total, self._reachable(total)) - size)
        if self.limits.max_offset is not None:
            last = min(last, self.limits.max_offset)  # the service refuses a higher offset
        offsets = sorted({last * n // max(1, DATE_SAMPLES - 1) for n in range(DATE_SAMPLES)})
        items = [item for offset in offsets for item in self._fetch(query, offset, size).items]
        dates = [day for item in items if (day := _day(item.insert_date)) is not None]
        if not dates or not self.searches_days(items):
            # A service matching a moment would find none of the days' rows (or refuse the
            # days): they are counted as out of reach, not searched for.
            return None
        newest = max(max(dates), dt.date.today() + dt.timedelta(days=1))
        oldest = max(min(dates), newest - dt.timedelta(days=MAX_SPLIT_DAYS - 1))
        days = (newest - oldest).days + 1
        return [
            replace(query, insert_date=(newest - dt.timedelta(days=n)).isoformat())
            for n in range(days)
        ]

    def _seen_days(self, oldest: dt.date, newest: dt.date) -> None:
        seen = self._days_searched
        self._days_searched = (
            (oldest, newest) if seen is None else (min(seen[0], oldest), max(seen[1], newest))
        )

    def _older_days(
        self, query: DncQuery, newest: dt.date, oldest: dt.date, missing: int
    ) -> tuple[list[tuple[DncQuery, int]], dt.date]:
        """Searches of the days before ``oldest`` (a day split's last) that hold rows, each
        with its count, until they hold ``missing`` rows or MAX_SPLIT_DAYS from ``newest``
        are tried; and the oldest day counted. Days are counted :attr:`count_workers` at a time."""
        found: list[tuple[DncQuery, int]] = []
        counted = oldest
        for batch, day in self._older_batches(query, newest, oldest, missing):
            found += batch
            counted = day
        return found, counted

    def _older_batches(
        self, query: DncQuery, newest: dt.date, oldest: dt.date, missing: int
    ) -> Iterator[tuple[list[tuple[DncQuery, int]], dt.date]]:
        """:meth:`_older_days` a batch of :attr:`count_workers` days at a time: the days of
        each that hold rows, with their counts, and the oldest day counted so far. The batch
        decides only how far back days are counted past the rows sought (:meth:`days_searched`);
        for a list left alone, no day past them holds a row, so the days found are the same."""
        first = newest - dt.timedelta(days=MAX_SPLIT_DAYS - 1)
        day = oldest - dt.timedelta(days=1)
        # At most every day left is counted: the progress says so, and takes back the days
        # not counted once the rows sought are found.
        left = max(0, (day - first).days + 1)
        self._expect(left)
        try:
            while missing > 0 and day >= first:
                batch: list[DncQuery] = []
                while day >= first and len(batch) < self.count_workers:
                    batch.append(replace(query, insert_date=day.isoformat()))
                    day -= dt.timedelta(days=1)
                left -= len(batch)
                found: list[tuple[DncQuery, int]] = []
                for child, count in self._counts(batch, bounded=True):
                    if count:
                        found.append((child, count))
                        missing -= count
                yield found, dt.date.fromisoformat(batch[-1].insert_date)
        finally:
            self._expect(-left)

    def _pages(self, query: DncQuery, seen: _Read) -> Iterator[Page[DncEntry] | Page[SmsOptOut]]:
        """Pages in order, the next one fetched while the caller writes the current one;
        ``seen.reached`` is how far into the result they got."""
        size = self.page_size
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="dnc-export") as pool:
            offset = 0
            ahead = pool.submit(self._fetch, query, offset, size)
            while True:
                page = ahead.result()
                got = len(page.items)
                seen.reached = max(seen.reached, offset + got)
                following = next_offset(offset, size, got, page.total, self.limits.max_offset)
                if following is not None:
                    ahead = pool.submit(self._fetch, query, following, size)
                yield page
                if following is None:
                    return
                offset = following

    def _items(self, query: DncQuery, seen: _Read) -> Iterator[Item]:
        """The entries of one read of ``query`` from offset 0; ``seen`` records its totals."""
        for items in self._page_items(query, seen):
            yield from items

    def _page_items(self, query: DncQuery, seen: _Read) -> Iterator[Sequence[Item]]:
        """:meth:`_items` a page at a time."""
        for page in self._pages(query, seen):
            if self._reaching:
                self._gap_counting = False
                self.gap_pages += 1
            total = page.total
            if total is not None:
                if seen.last is not None and total != seen.last:
                    seen.stable = False
                    seen.shrink += max(0, seen.last - total)
                if seen.first is None:
                    seen.first = total
                seen.last = total
            yield page.items

    @contextmanager
    def _part_reads(self, leaves: list[tuple[DncQuery, int]]) -> Iterator[Iterator[_PartRead]]:
        """The reads of ``leaves``' parts, in their order: with :attr:`part_readers` N above
        1, the next N - 1 parts are read meanwhile on threads of their own (each its pages one
        after the other, as a part alone is read); leaving the block stops them."""
        if self.part_readers < 2 or len(leaves) < 2:
            yield (_PartRead(self, query) for query, _ in leaves)
            return
        stop = threading.Event()
        pool = ThreadPoolExecutor(self.part_readers, thread_name_prefix="dnc-export-part")
        queries = iter([query for query, _ in leaves])
        started: deque[_PartRead] = deque()

        def start_next() -> None:
            query = next(queries, None)
            if query is not None:
                read = _PartRead(self, query, stop)
                pool.submit(read.run)
                started.append(read)

        def taken() -> Iterator[_PartRead]:
            # A part is started only once the one N before it was taken to its end: N parts
            # at most hold a thread or pages, and the part taken next is always started.
            for _ in range(self.part_readers):
                start_next()
            while started:
                yield started.popleft()
                start_next()

        try:
            yield taken()
        finally:
            stop.set()
            pool.shutdown(wait=True, cancel_futures=True)

    def read(
        self,
        total: int,
        leaves: list[tuple[DncQuery, int]],
        keep: Callable[[str, Item], None],
    ) -> SplitRead:
        """Read every part of a :meth:`plan`, then, while rows are missing, the narrowest
        searches holding the rows each split left out (:meth:`_gap_searches`), and when pages
        came short, each plain search as far as paging reaches; ``keep(label, entry)`` is
        called once per entry id.

        ``unreachable`` is exact for a list left alone (``total − rows``). For a list written
        to meanwhile it is the rows the cap hid in each part plus those no part held, less
        those the later searches reached all the same (black-box pass Q2 #4: 26 of 76 rows
        dated outside the days searched were in the file, and all 76 were said not to be)."""
        out = SplitRead(total)
        kept: set[str] = set()
        changed = self._changed_while_planning
        with self._part_reads(leaves) as reads:
            for (query, part_total), reader in zip(leaves, reads, strict=True):
                part = SplitPart(self._part_label(query), part_total)
                out.parts.append(part)
                out.labels.append(part.label)
                for attempt in range(MAX_REREADS + 1):
                    if attempt:
                        out.rereads += 1
                    seen = _Read()
                    for item in reader.attempt(seen):
                        if item.id not in kept:
                            kept.add(item.id)
                            keep(part.label, item)
                            part.read += 1
                            out.rows += 1
                    if attempt == 0 and seen.first is not None and seen.first != part_total:
                        changed = True  # changed between planning and this part's read
                    if seen.stable:
                        break
                    changed = True
                else:
                    out.possibly_missing += seen.shrink
                last = part_total if seen.last is None else seen.last
                reach = self._reachable(last)
                part.capped = last - reach
                part.not_given = max(0, min(last, reach) - seen.reached)
        out.gap = self._split_gap
        roots = self._roots()
        index = _LeafIndex(roots, leaves)

        def more(query: DncQuery, label: str, root: DncQuery) -> None:
            for item in self._items(query, _Read()):
                if item.id not in kept:
                    kept.add(item.id)
                    keep(label, item)
                    out.rows += 1
                    where = index.part_of(root, item)
                    if where is None:
                        out.gap_found += 1
                        self._found_in_gap(root, item)
                    else:
                        out.parts[where].found_later += 1

        # Rows a split left out (a phone code that is no country's, a day not searched, a
        # campaign not listed) are read through the narrowest searches that still hold them,
        # not the plain search of the whole query, which reaches fewer of them (black-box B15
        # #1: 5,812 rows that searches return were left out and called unreachable).
        n = 0
        self._reaching = True
        while n < len(self._gap_nodes) and out.rows < total:
            node = self._gap_nodes[n]
            n += 1
            root = roots[node.root]
            for query, count in self._gap_searches(node):
                if self._all_found(node):
                    break
                suffix = " (as far as paging reaches)" if count > self._reachable(count) else ""
                label = f"{self._part_label(query)}{suffix}"
                out.labels.append(label)
                more(query, label, root)
        if out.rows < total and out.not_given:
            # Pages the service came short of: the plain search may give their rows all the
            # same, so the result holds at least every row paging alone would give (black-box
            # pass I1: 0 of 102,000 rows, where paging reaches 101,000).
            for root in roots:
                label = f"{self._part_label(root)} (as far as paging reaches)"
                out.labels.append(label)
                more(root, label, root)
        self._reaching = self._gap_counting = False
        changed = changed or self._changed_while_planning
        out.total_at_end = self._total()
        out.list_changed = changed or out.total_at_end != total
        left = max(0, total - out.rows)
        if out.list_changed:
            missing = sum(p.missing for p in out.parts) + out.gap_missing
            out.unreachable = min(missing, left)
        else:
            out.unreachable = left
        return out

    def columns(self) -> tuple[str, ...]:
        """The header this export writes: :data:`COLUMNS`, or :data:`SMS_COLUMNS`."""
        return COLUMNS if self.kind is ListKind.DNC else SMS_COLUMNS

    def _part_label(self, query: DncQuery) -> str:
        """How a search read is named in :attr:`SplitRead.labels`."""
        return _label(query)

    def _gap_searches(self, node: _GapNode) -> Iterator[tuple[DncQuery, int]]:
        """The searches that reach the rows ``node``'s split left out, each with its count:
        its search split by the dimensions left (without the one that left them out), or,
        with none left, its search itself as far as paging reaches. A split of these that
        leaves rows out is added to ``_gap_nodes``, to be read the same way after; one by day
        is counted there, newest day first, a few days at a time, until the rows sought are
        all read."""
        if node.older is not None:
            newest, oldest = node.older
            for found, counted in self._older_batches(node.query, newest, oldest, node.missed):
                self._seen_days(counted, newest)
                for child, count in found:
                    if self._all_found(node):
                        return
                    leaves: list[tuple[DncQuery, int]] = []
                    self._split(child, count, leaves, node.skip, node.serves, node.root)
                    yield from leaves
                if self._all_found(node):
                    return
        skip = node.skip | {node.gap}
        split = self._children(node.query, node.total, skip)
        if split is None:
            yield node.query, node.total
            return
        for child, count in self._counts(split[1]):
            if self._all_found(node):
                return
            parts: list[tuple[DncQuery, int]] = []
            self._split(child, count, parts, skip, node.serves, node.root)
            yield from parts

    def _all_found(self, node: _GapNode) -> bool:
        """Whether every row the plan's split ``node`` serves left out was read since."""
        serves = self._gap_nodes[node.serves]
        return serves.found >= serves.missed

    def _found_in_gap(self, root: DncQuery, item: Item) -> None:
        """Count ``item``, in no part of the plan, as found for the split that left it out:
        the one where its values match none of the parts (walked down from ``root``)."""
        query = root
        while (split := self._tree.get(query)) is not None:
            gap, parts = split
            part = parts.get(_item_key(gap, item))
            if part is None:
                where = self._gap_index.get(query)
                if where is not None:
                    self._gap_nodes[where].found += 1
                    self._gaps_found[gap] = self._gaps_found.get(gap, 0) + 1
                return
            query = part

    def days_searched(self) -> tuple[str, str] | None:
        """The first and last insert day a day split searched, if one did."""
        if self._days_searched is None:
            return None
        oldest, newest = self._days_searched
        return oldest.isoformat(), newest.isoformat()

    def gaps(self) -> dict[Gap, int]:
        """Rows the plan's splits left out, by why, for the causes whose rows were not all
        read later (each an upper bound of the rows still unread for that cause)."""
        return {
            gap: count for gap, count in self._gaps.items() if self._gaps_found.get(gap, 0) < count
        }


class _Stopped(Exception):
    """A part read ahead was no longer wanted (the read it was for ended)."""


class _PartRead:
    """One part's reads, attempt by attempt, as :meth:`SplitSearch.read` takes them: on the
    caller's thread (no ``stop``), or, with one, read ahead on a thread of its own
    (:meth:`run`), its pages waiting in a queue of :data:`PAGES_AHEAD` for the caller. Either
    way the attempts are the same: a part read again from offset 0 while its total changed
    between pages, up to MAX_REREADS more times."""

    def __init__(
        self, search: SplitSearch, query: DncQuery, stop: threading.Event | None = None
    ) -> None:
        self.search = search
        self.query = query
        self.stop = stop
        self._queue: queue.Queue[tuple[str, object]] = queue.Queue(PAGES_AHEAD)

    def run(self) -> None:
        """Read every attempt, handing its pages, then what it saw, to :meth:`attempt`; an
        error (the service failing, a cancel) is handed on in their place, to be raised where
        the caller takes this part, as reading it there would."""
        try:
            for _ in range(MAX_REREADS + 1):
                seen = _Read()
                for items in self.search._page_items(self.query, seen):
                    self._put("page", items)
                self._put("end", seen)
                if seen.stable:
                    return
        except _Stopped:
            return
        except BaseException as exc:  # raised on the caller's thread, where it takes the part
            with contextlib.suppress(_Stopped):
                self._put("error", exc)

    def _put(self, kind: str, value: object) -> None:
        assert self.stop is not None
        while True:
            if self.stop.is_set():
                raise _Stopped
            try:
                self._queue.put((kind, value), timeout=CANCEL_POLL)
                return
            except queue.Full:
                continue

    def attempt(self, seen: _Read) -> Iterator[Item]:
        """The entries of the part's next read; ``seen`` records its totals."""
        if self.stop is None:
            yield from self.search._items(self.query, seen)
            return
        while True:
            kind, value = self._queue.get()
            if kind == "page":
                yield from cast(Sequence[Item], value)
            elif kind == "end":
                done = cast(_Read, value)
                for name in _Read.__slots__:
                    setattr(seen, name, getattr(done, name))
                return
            else:
                raise cast(BaseException, value)


@dataclass(slots=True)
class _GapNode:
    """A split that left rows out: its search (``total`` rows), the dimension it split by,
    how many rows none of its parts held, the dimensions its own split skipped, the index of
    its root search, and of the plan's split whose left-out rows it is planned to reach
    (itself for one of the plan's), with how many of those a later read found."""

    query: DncQuery
    total: int
    gap: Gap
    missed: int
    skip: frozenset[Gap]
    root: int
    serves: int
    found: int = 0
    # For a day split not counted yet: its newest day, and the day after it (the days before
    # that one are counted, a few at a time, until the rows sought are read: _gap_searches).
    older: tuple[dt.date, dt.date] | None = None


def _part_key(gap: Gap, part: DncQuery) -> str:
    """The value of the dimension ``gap`` names that a split's part searches."""
    if gap is Gap.SCOPE:
        return _scope_key(part.scope) or ""
    if gap is Gap.CODE:
        return part.phone_code
    if gap is Gap.REASON:
        return "blank" if part.reason is ReasonFilter.BLANK else "not"
    return part.insert_date


def _item_key(gap: Gap, item: Item) -> str:
    """An entry's value of the dimension ``gap`` names, as :func:`_part_key` says a part's."""
    if gap is Gap.SCOPE:
        return _scope_key(item.scope) or ""
    if gap is Gap.CODE:
        return item.phone_code
    if gap is Gap.REASON:
        return "not" if item.reason else "blank"
    return item.insert_date[:10]


class _LeafIndex:
    """Which part of a split an entry read by a plain search belongs to: the filters each
    part adds to its root search (scope, country code, blank reason, insert day), looked up
    in every combination an entry's own values can take."""

    def __init__(self, roots: list[DncQuery], leaves: list[tuple[DncQuery, int]]) -> None:
        self._keys: dict[tuple[int, tuple[str | None, ...]], int] = {}
        for where, (leaf, _) in enumerate(leaves):
            for n, root in enumerate(roots):
                added = _added(leaf, root)
                if added is not None:
                    self._keys.setdefault((n, added), where)
                    break
        self._roots = roots

    def part_of(self, root: DncQuery, item: Item) -> int | None:
        n = self._roots.index(root)
        own = (
            _scope_key(item.scope),
            item.phone_code,
            "blank" if not item.reason else "not",
            item.insert_date[:10],
        )
        for mask in range(16):
            key = tuple(v if mask >> i & 1 else None for i, v in enumerate(own))
            where = self._keys.get((n, key))
            if where is not None:
                return where
        return None


def _scope_key(scope: Scope | None) -> str | None:
    if scope is None:
        return None
    if scope.is_global:
        return "global"
    if scope.is_purpose:
        return "purpose"
    return str(scope)


def _added(leaf: DncQuery, root: DncQuery) -> tuple[str | None, ...] | None:
    """The filters a split added to ``root`` to make ``leaf`` (None where it added none), or
    None when ``leaf`` is not a part of ``root`` (another form of the number)."""
    if (
        replace(
            leaf,
            scope=root.scope,
            phone_code=root.phone_code,
            reason=root.reason,
            insert_date=root.insert_date,
        )
        != root
    ):
        return None
    reason = None
    if leaf.reason is not root.reason:
        reason = "blank" if leaf.reason is ReasonFilter.BLANK else "not"
    return (
        _scope_key(leaf.scope) if leaf.scope != root.scope else None,
        leaf.phone_code if leaf.phone_code != root.phone_code else None,
        reason,
        leaf.insert_date if leaf.insert_date != root.insert_date else None,
    )


class ExportJob(SplitSearch):
    """One export; :meth:`run` writes the file and returns an :class:`ExportResult`.

    ``progress`` is called from the running thread after each page; ``cancel`` stops it at
    once, a request waiting for its answer included (the partial file is deleted and
    :class:`~app.api.paging.Cancelled` raised).
    """

    def __init__(
        self,
        api: ApiClient,
        kind: ListKind,
        query: DncQuery,
        out: Path,
        *,
        connection_name: str = "",
        scope_said: str = "",
        filters_typed: Mapping[str, str] | None = None,
        progress: Callable[[ExportProgress], None] | None = None,
        cancel: threading.Event | None = None,
        page_size: int = PAGE_SIZE,
    ) -> None:
        suffix = out.suffix.lower()
        if suffix not in (".xlsx", ".csv"):
            raise ValueError(f"export to .xlsx or .csv, not {out.suffix or 'a file without one'}")
        super().__init__(api, kind, query, cancel=cancel, page_size=page_size)
        self.out = out
        self.connection_name = connection_name
        # The scope as typed, for the About sheet (see describe_query): a campaign given by
        # its name is named there, not only its id (black-box W5 #3).
        self.scope_said = scope_said
        # The filters as typed on the command line (a number as written, with the form
        # searched beside it), for the About sheet to say what --json says (black-box B4 #4).
        self.filters_typed = dict(filters_typed) if filters_typed is not None else None
        self._progress = progress
        # What a watcher (the CLI's, every few seconds) reads besides the searches counted.
        self.rows_written = 0
        self.planned_total: int | None = None  # the service's count, once the plan is made

    def columns(self) -> tuple[str, ...]:
        """The header this export writes: :data:`COLUMNS`, or :data:`SMS_COLUMNS`."""
        return COLUMNS if self.kind is ListKind.DNC else SMS_COLUMNS

    def _part_label(self, query: DncQuery) -> str:
        # The About sheet lists the searches run: the split's part of every purpose is said
        # as the Filters say it, not "scope=purpose:" (black-box B15 #6).
        return _one_line(_filters_said(query))

    # -- writing ------------------------------------------------------------------------

    def run(self) -> ExportResult:
        with self.cancellable():
            return self._run()

    def _run(self) -> ExportResult:
        started = dt.datetime.now(dt.UTC)
        total, leaves = self.plan()
        self.planned_total = total
        csv_out = self.out.suffix.lower() == ".csv"
        # xlsx cells keep their exact text (quotePrefix, no literal quote): an export is read
        # back by people and re-imported by DNC Desk itself. Text that is a run of quotes
        # before =, +, -, @ gets one quote more, as in CSV, which the import takes off again
        # (quote_runs; the About sheet says so).
        book = (
            None if csv_out else SafeWorkbook(quote_prefix=True, quote_runs=True, beside=self.out)
        )
        writer = SafeCsvWriter(self.out) if csv_out else None
        columns = self.columns()
        widths = (14, 10, 24, 12, 24, 20, 30, 24, 10, 38)[: len(columns)]
        sheet = book.add_sheet("Entries", widths, text_columns=TEXT_COLUMNS) if book else None
        with_uid = "campaign_uid" in columns
        ticker = _Ticker(self._progress, total)
        # Attribute reads and one label per distinct scope: as_dict() would build a dict per row.
        labels: dict[tuple[Scope, str], tuple[str, str]] = {}
        try:
            append = writer.append_text if writer else sheet.append_text  # type: ignore[union-attr]
            append(list(columns))

            def keep(label: str, item: Item) -> None:
                scope = item.scope
                # A purpose scope's text is read stripped (Scope.from_api): its label is
                # written from the entry's own purpose.
                key = (scope, item.purpose if scope.is_purpose else "")
                names = labels.get(key)
                if names is None:
                    names = labels[key] = (scope_written(*key), scope.api_campaign_id)
                row = [
                    item.phone_number,
                    item.phone_code,
                    names[0],
                    names[1],
                    item.campaign_name,
                    item.insert_date,
                    item.reason,
                    item.purpose,
                    item.id,
                ]
                if with_uid:
                    row.append(getattr(item, "campaign_uid", ""))
                append(row)
                self.rows_written += 1
                ticker.tick(self.rows_written, label)

            read = self.read(total, leaves, keep)
        except BaseException:
            if writer is not None:
                writer.close(keep=False)
            if book is not None:
                book.discard()
            raise
        result = ExportResult(
            self.out,
            read.rows,
            total,
            read.unreachable,
            parts=read.labels,
            started=_stamp(started),
            list_changed=read.list_changed,
            total_at_end=read.total_at_end,
            possibly_missing=read.possibly_missing,
            rereads=read.rereads,
            capped=read.capped,
            not_given=read.not_given,
            gaps=self.gaps(),
            days_searched=self.days_searched(),
            reach=self._reachable(sys.maxsize),
            counted=self.counted,
            not_by_day=self.not_by_day,
            forms_not_searched=self.forms_not_searched(),
        )
        finished = dt.datetime.now(dt.UTC)
        result.finished = _stamp(finished)
        if writer is not None:
            writer.close()
        elif book is not None and sheet is not None:
            result.replaced = {COLUMNS[i]: n for i, n in sorted(sheet.replaced.items())}
            self._about(book, result, sheet.quotes_added)
            book.save(self.out)
        if self._progress is not None:
            self._progress(ExportProgress(result.rows, total, result.unreachable, "done"))
        return result

    def _about(self, book: SafeWorkbook, result: ExportResult, quotes_added: int) -> None:
        about = book.add_sheet("About", (28, 80))  # its filters may name a number: beside too
        rows: list[tuple[str, object]] = [
            ("List", self.kind.title),
            ("Connection", self.connection_name),
            ("Service", self.api.base_url),
            (
                "Filters",
                filters_said(self.query, self.scope_said)
                if self.filters_typed is None
                else _one_line(self.filters_typed),
            ),
            ("Started (UTC)", result.started),
            ("Finished (UTC)", result.finished),
            ("Rows exported", result.rows),
            ("Rows the service reported", result.total),
            ("Rows the service reported at the end", result.total_at_end),
            ("List changed during the export", "yes" if result.list_changed else "no"),
            ("Rows that could not be reached", result.unreachable),
            ("Searches run", len(result.parts)),
            # An empty list's export reads no page: the count is the service's answer that
            # nothing matched (black-box B4 #3: "Searches run: 0" read as nothing checked).
            ("Searches counting the matching rows", result.counted),
        ]
        if self.kind is ListKind.SMS:
            rows.append(("Columns", SMS_NO_CAMPAIGN_UID))
        if result.unreachable:
            rows.append(
                (
                    "Warning",
                    unreachable_warning(result),
                )
            )
        if result.list_changed:
            warning = change_warning(result)
            rows.append(("Warning (list changed)", warning[0].upper() + warning[1:] + "."))
        replaced = replaced_warning(result)
        if replaced:
            rows.append(("Characters replaced", replaced[0].upper() + replaced[1:] + "."))
        if result.forms_not_searched:
            note = result.forms_not_searched
            rows.append(("Forms not searched", note[0].upper() + note[1:] + "."))
        if quotes_added:
            # Said only when there are such cells (few lists have any): a person seeing ''=x
            # where the service shows '=x learns why, and every other export stays as it was.
            rows.append(("Apostrophes added", quotes_added_note(quotes_added)))
        for key, value in rows:
            about.append([key, value])
        for part in result.parts:
            about.append(["Search", part])


def quotes_added_note(cells: int) -> str:
    """The About sheet's word on the cells given one more apostrophe (black-box B5 #1)."""
    values = "1 value starts" if cells == 1 else f"{cells:,} values start"
    return (
        f"{values} with apostrophes before =, +, -, @, a tab or a line break, and each such "
        "cell has one apostrophe more than the service's value, as in a CSV export: DNC "
        "Desk's import takes one off again, so this file imports as the service has it, "
        "re-saved as ods, xls or CSV too."
    )


def _day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None


def day_refused(query: DncQuery, exc: ValidationError) -> DaySearch:
    """What a service refusing ``query``'s insert date (code 6008) showed: it takes no day."""
    return DaySearch(by_day=False, why=_refused(query, exc), refused=True)


def _refused(query: DncQuery, exc: ValidationError) -> str:
    return f"it refused a search with insert_date={query.insert_date} ({exc})"


def _stamp(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S")
