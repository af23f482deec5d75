"""Export any DNC or SMS opt-out search, every page of it, to xlsx or CSV.

The service stops paging at offset 100,000, so one search reaches at most 101,000 rows. When
a search matches more, the export splits it into searches that partition the same rows — by
scope (global, purpose, each campaign), then by country code, then by blank/non-blank reason,
then by insert day — until each part is reachable. Whatever still cannot be reached (a part
too big even then, rows in a campaign the campaign list does not name, rows with an unlisted
country code) is counted exactly as ``service total − rows written`` and reported, never hidden.

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
  ``total − reachable`` of each part's last read plus the rows no split reached (counted with
  the smaller of two counts of the split search, so removals meanwhile are not blamed on the
  cap), never ``total − rows``.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path

from app.api.client import ApiClient, DncQuery
from app.api.limits import DNC_SEARCH, SMS_SEARCH, PageLimits
from app.api.models import DncEntry, Page, ReasonFilter, SmsOptOut
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.core.session import read_over
from app.core.sheet_damage import drops_trunk_zero
from app.core.xlsx_safe import SafeCsvWriter, SafeWorkbook

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
# Country codes of the spec's phone code reference; rows with other codes are counted, not lost.
SPLIT_PHONE_CODES = ("1", "44", "61", "49", "33", "34", "91", "86", "52", "55")
# A part whose total changed between its pages is read again from offset 0 at most this often.
MAX_REREADS = 2

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
)
# Columns whose xlsx cells have the Text number format, so a person editing or re-typing a
# cell in Excel or LibreOffice keeps text, not a number: a phone number would lose a leading
# zero, or show as 2.02555E+09 and lose its digits past the fifteenth. The other columns lose
# nothing as numbers, and each Text column costs the export time (openpyxl does about twice
# the work for a styled cell as for a plain one): a country code has 1 to 3 digits, campaign
# and entry ids are, as far as known, the service's counters (no leading zero, far under 15
# digits; "0" and "-1" stay 0 and -1), and the insert date reads as the same date and time.
TEXT_COLUMNS = (COLUMNS.index("phone_number"),)


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


@dataclass(slots=True)
class ExportResult:
    """What an export wrote; ``unreachable`` rows matched but the paging cap hid them.

    ``total`` is the service's count when the export started, ``total_at_end`` its count when
    it ended. ``list_changed``: the list was written to during the export (see the module
    docstring); ``possibly_missing`` estimates rows a still-changing part may have skipped.
    ``rereads`` counts the parts read again because their total changed between pages.
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


def unreachable_warning(result: ExportResult) -> str:
    """The sentence on the rows no search reached ("" when there are none). Not "narrow the
    filters" (re-test J1): the export has split the search as finely as the service's filters
    allow, so a narrower search of the user's would not reach them either."""
    if not result.unreachable:
        return ""
    many = result.unreachable != 1
    return (
        f"{result.unreachable:,} matching {'rows' if many else 'row'} could not be reached: one "
        "search of the service reaches its first 101,000 rows, and more than that share one "
        "scope, country code, reason and insert day, the finest split its filters allow; "
        f"{'they are' if many else 'it is'} on the list but not in this file."
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
    agreed, and how far the total fell between consecutive pages."""

    first: int | None = None
    last: int | None = None
    stable: bool = True
    shrink: int = 0


def describe_query(query: DncQuery) -> dict[str, str]:
    """The filters as a person reads them (for the About sheet and the CLI)."""
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


def _label(query: DncQuery) -> str:
    filters = describe_query(query)
    return ", ".join(f"{k}={v}" for k, v in filters.items()) or "all"


class ExportJob:
    """One export; :meth:`run` writes the file and returns an :class:`ExportResult`.

    ``progress`` is called from the running thread after each page; ``cancel`` stops between
    pages (the partial file is deleted and :class:`~app.api.paging.Cancelled` raised).
    """

    def __init__(
        self,
        api: ApiClient,
        kind: ListKind,
        query: DncQuery,
        out: Path,
        *,
        connection_name: str = "",
        progress: Callable[[ExportProgress], None] | None = None,
        cancel: threading.Event | None = None,
        page_size: int = PAGE_SIZE,
    ) -> None:
        suffix = out.suffix.lower()
        if suffix not in (".xlsx", ".csv"):
            raise ValueError(f"export to .xlsx or .csv, not {out.suffix or 'a file without one'}")
        self.api = api
        self.kind = kind
        self.query = query
        self.out = out
        self.connection_name = connection_name
        self._progress = progress
        self.cancel = cancel or threading.Event()
        self.page_size = page_size
        self.limits: PageLimits = DNC_SEARCH if kind is ListKind.DNC else SMS_SEARCH
        self._campaign_names: dict[str, str] = {}
        # Rows no split reached (a split search's count minus its parts'), and whether a
        # count taken twice during planning differed.
        self._split_gap = 0
        self._changed_while_planning = False

    # -- searching ----------------------------------------------------------------------

    def _fetch(self, query: DncQuery, offset: int, limit: int) -> Page[DncEntry] | Page[SmsOptOut]:
        return read_over(lambda: self._fetch_once(query, offset, limit), PAGE_ROUNDS)

    def _fetch_once(
        self, query: DncQuery, offset: int, limit: int
    ) -> Page[DncEntry] | Page[SmsOptOut]:
        if self.cancel.is_set():
            raise Cancelled
        if self.kind is ListKind.DNC:
            return self.api.search_dnc(query, offset=offset, limit=limit, cancel=self.cancel)
        return self.api.search_sms(query, offset=offset, limit=limit, cancel=self.cancel)

    def _count(self, query: DncQuery) -> int:
        return self._fetch(query, 0, 1).total or 0

    def _reachable(self, total: int) -> int:
        return self.limits.reachable(total, self.page_size)

    def _roots(self) -> list[DncQuery]:
        """The searches the query stands for: itself, and for one number of a country that
        drops a trunk 0, the number kept with it ("02079460000", entered by hand), which a
        removal finds and deletes as the same number."""
        query = self.query
        number, code = query.phone_number, query.phone_code
        if number and not number.startswith("0") and code and drops_trunk_zero(code):
            return [query, replace(query, phone_number=f"0{number}")]
        return [query]

    def _total(self) -> int:
        return sum(self._count(root) for root in self._roots())

    def plan(self) -> tuple[int, list[tuple[DncQuery, int]]]:
        """The service's total for the query and the searches (with their totals) to run."""
        leaves: list[tuple[DncQuery, int]] = []
        self._split_gap = 0
        self._changed_while_planning = False
        total = 0
        for root in self._roots():
            count = self._count(root)
            total += count
            self._split(root, count, leaves)
        return total, leaves

    def _split(self, query: DncQuery, total: int, leaves: list[tuple[DncQuery, int]]) -> None:
        if total == 0:
            return
        children = None if total <= self._reachable(total) else self._children(query, total)
        if children is None:
            leaves.append((query, total))
            return
        counts = [(child, self._count(child)) for child in children]
        covered = sum(count for _, count in counts)
        if covered < total and not query.insert_date and children[-1].insert_date:
            # A day split that left rows out: they are older than the days seen (ids need not
            # follow insert dates), so earlier days are counted until they are all found.
            counts += self._older_days(
                query, children[0].insert_date, children[-1].insert_date, total - covered
            )
            covered = sum(count for _, count in counts)
        if covered < total:
            # Rows no part covers, or rows removed while the parts were counted: count the
            # search again and take the smaller count, so removals are not blamed on the cap.
            again = self._count(query)
            if again != total:
                self._changed_while_planning = True
            self._split_gap += max(0, min(total, again) - covered)
        elif covered > total:
            self._changed_while_planning = True  # rows added while the parts were counted
        for child, count in counts:
            self._split(child, count, leaves)

    def _children(self, query: DncQuery, total: int) -> list[DncQuery] | None:
        """Searches that partition ``query``'s rows more finely, or None if none is left."""
        if query.scope is None and not query.id:
            if not self._campaign_names:
                self._campaign_names = {c.id: c.name for c in self.api.campaigns(self.cancel)}
            scopes = [Scope.global_(), Scope.purpose("")]
            scopes += [Scope.campaign(cid) for cid in sorted(self._campaign_names, key=int)]
            return [replace(query, scope=s) for s in scopes]
        if not query.phone_code and not query.phone_number and not query.id:
            return [replace(query, phone_code=code) for code in SPLIT_PHONE_CODES]
        if query.reason is ReasonFilter.ANY and not query.id:
            return [
                replace(query, reason=ReasonFilter.BLANK),
                replace(query, reason=ReasonFilter.NOT_BLANK),
            ]
        if not query.insert_date and not query.id:
            return self._days(query, total)
        return None

    def _days(self, query: DncQuery, total: int) -> list[DncQuery] | None:
        """One search per insert day, from the oldest day seen to the newest (or tomorrow).

        The days seen are those of pages spread over all paging reaches (DATE_SAMPLES of
        them): pages come in id order, which on the service follows insertion, but a list
        filled otherwise need not (black-box pass I1: entries older than the first page's, and
        a list whose entries were all older than three years before today, were left out and
        blamed on the paging cap). Tomorrow covers a service whose clock is ahead of ours. At
        most MAX_SPLIT_DAYS days back from the newest are tried; rows outside the days tried
        are read by the plain search afterwards, as far as paging reaches (see :meth:`run`).
        """
        size = min(self.page_size, 100)
        last = max(0, min(total, self._reachable(total)) - size)
        if self.limits.max_offset is not None:
            last = min(last, self.limits.max_offset)  # the service refuses a higher offset
        offsets = sorted({last * n // max(1, DATE_SAMPLES - 1) for n in range(DATE_SAMPLES)})
        dates = [
            day
            for offset in offsets
            for item in self._fetch(query, offset, size).items
            if (day := _day(item.insert_date)) is not None
        ]
        if not dates:
            return None
        newest = max(max(dates), dt.date.today() + dt.timedelta(days=1))
        oldest = max(min(dates), newest - dt.timedelta(days=MAX_SPLIT_DAYS - 1))
        days = (newest - oldest).days + 1
        return [
            replace(query, insert_date=(newest - dt.timedelta(days=n)).isoformat())
            for n in range(days)
        ]

    def _older_days(
        self, query: DncQuery, newest: str, oldest: str, missing: int
    ) -> list[tuple[DncQuery, int]]:
        """Searches of the days before ``oldest`` (a day split's last), each with its count,
        until they hold ``missing`` rows or MAX_SPLIT_DAYS from ``newest`` are tried."""
        first = dt.date.fromisoformat(newest) - dt.timedelta(days=MAX_SPLIT_DAYS - 1)
        day = dt.date.fromisoformat(oldest) - dt.timedelta(days=1)
        found: list[tuple[DncQuery, int]] = []
        while missing > 0 and day >= first:
            child = replace(query, insert_date=day.isoformat())
            count = self._count(child)
            if count:
                found.append((child, count))
                missing -= count
            day -= dt.timedelta(days=1)
        return found

    def _pages(self, query: DncQuery) -> Iterator[Page[DncEntry] | Page[SmsOptOut]]:
        """Pages in order, the next one fetched while the caller writes the current one."""
        size = self.page_size
        last_offset = self.limits.max_offset
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="dnc-export") as pool:
            offset = 0
            ahead = pool.submit(self._fetch, query, offset, size)
            while True:
                page = ahead.result()
                offset += size
                more = len(page.items) == size and (last_offset is None or offset <= last_offset)
                if more:
                    ahead = pool.submit(self._fetch, query, offset, size)
                yield page
                if not more:
                    return

    def _read(self, query: DncQuery, seen: _Read) -> Iterator[list[str]]:
        """The rows of one read of ``query`` from offset 0; ``seen`` records its totals."""
        # Attribute reads and one label per distinct scope: as_dict() would build a dict per row.
        labels: dict[Scope, tuple[str, str]] = {}
        for page in self._pages(query):
            total = page.total
            if total is not None:
                if seen.last is not None and total != seen.last:
                    seen.stable = False
                    seen.shrink += max(0, seen.last - total)
                if seen.first is None:
                    seen.first = total
                seen.last = total
            for item in page.items:
                scope = item.scope
                label = labels.get(scope)
                if label is None:
                    label = labels[scope] = (str(scope), scope.api_campaign_id)
                yield [
                    item.phone_number,
                    item.phone_code,
                    label[0],
                    label[1],
                    item.campaign_name,
                    item.insert_date,
                    item.reason,
                    item.purpose,
                    item.id,
                ]

    # -- writing ------------------------------------------------------------------------

    def run(self) -> ExportResult:
        started = dt.datetime.now(dt.UTC)
        total, leaves = self.plan()
        result = ExportResult(self.out, 0, total, 0, started=_stamp(started))
        csv_out = self.out.suffix.lower() == ".csv"
        # xlsx cells keep their exact text (quotePrefix, no literal quote): an export is read
        # back by people and re-imported by DNC Desk itself.
        book = None if csv_out else SafeWorkbook(quote_prefix=True)
        writer = SafeCsvWriter(self.out) if csv_out else None
        widths = (14, 10, 24, 12, 24, 20, 30, 24, 10)
        sheet = book.add_sheet("Entries", widths, text_columns=TEXT_COLUMNS) if book else None
        header = list(COLUMNS)
        ticker = _Ticker(self._progress, total)
        try:
            (writer.append_text if writer else sheet.append_text)(header)  # type: ignore[union-attr]
            append = writer.append_text if writer else sheet.append_text  # type: ignore[union-attr]
            written: set[str] = set()
            changed = self._changed_while_planning
            capped = 0
            for query, part_total in leaves:
                label = _label(query)
                result.parts.append(label)
                for attempt in range(MAX_REREADS + 1):
                    if attempt:
                        result.rereads += 1
                    seen = _Read()
                    for row in self._read(query, seen):
                        if row[8] not in written:  # the entry id
                            written.add(row[8])
                            append(row)
                            result.rows += 1
                            ticker.tick(result.rows, label)
                    if attempt == 0 and seen.first is not None and seen.first != part_total:
                        changed = True  # changed between planning and this part's read
                    if seen.stable:
                        break
                    changed = True
                else:
                    result.possibly_missing += seen.shrink
                last = part_total if seen.last is None else seen.last
                capped += last - self._reachable(last)
            if result.rows < total:
                # Rows no part reached (outside the days tried, a part too big even split):
                # the plain search reaches its first rows all the same, so the file holds at
                # least every row paging alone would give (black-box pass I1: 0 of 102,000
                # rows, where paging reaches 101,000).
                for root in self._roots():
                    label = f"{_label(root)} (as far as paging reaches)"
                    result.parts.append(label)
                    for row in self._read(root, _Read()):
                        if row[8] not in written:
                            written.add(row[8])
                            append(row)
                            result.rows += 1
                            ticker.tick(result.rows, label)
            result.total_at_end = self._total()
            result.list_changed = changed or result.total_at_end != total
        except BaseException:
            if writer is not None:
                writer.close(keep=False)
            if book is not None:
                book.discard()
            raise
        if result.list_changed:
            result.unreachable = max(0, min(self._split_gap + capped, total - result.rows))
        else:
            result.unreachable = max(0, total - result.rows)
        finished = dt.datetime.now(dt.UTC)
        result.finished = _stamp(finished)
        if writer is not None:
            writer.close()
        elif book is not None:
            self._about(book, result)
            book.save(self.out)
        if self._progress is not None:
            self._progress(ExportProgress(result.rows, total, result.unreachable, "done"))
        return result

    def _about(self, book: SafeWorkbook, result: ExportResult) -> None:
        about = book.add_sheet("About", (28, 80))
        rows: list[tuple[str, object]] = [
            ("List", self.kind.title),
            ("Connection", self.connection_name),
            ("Service", self.api.base_url),
            ("Filters", _label(self.query)),
            ("Started (UTC)", result.started),
            ("Finished (UTC)", result.finished),
            ("Rows exported", result.rows),
            ("Rows the service reported", result.total),
            ("Rows the service reported at the end", result.total_at_end),
            ("List changed during the export", "yes" if result.list_changed else "no"),
            ("Rows that could not be reached", result.unreachable),
            ("Searches run", len(result.parts)),
        ]
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
        for key, value in rows:
            about.append([key, value])
        for part in result.parts:
            about.append(["Search", part])


def _day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None


def _stamp(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S")
