"""Snapshots: a full local copy of the DNC or SMS opt-out list, and diffs between copies.

A snapshot is one SQLite file holding every entry, the total the service reported, how many
entries could not be read, and when and from which connection it was taken: the evidence of
what the list held on a given day. The list is read as an export reads it
(:class:`app.core.export_job.SplitSearch`): split by scope, country code, blank or not reason
and insert day until each search is one the service's paging cap lets a client read to its
end, then, for any rows no search held, the narrowest searches still holding them (black-box
pass Q2 #1: split by scope alone, a snapshot of an SMS list with 102,739 global entries missed
1,739 of them). Whatever still cannot be read is counted exactly, never silently dropped: a
snapshot with such entries is incomplete, and what it does not hold is not known rather than
"not listed" (evidence, diff). Its reason is said as it is (:func:`unread_reason`): no search
of the service reaching them, or the service counting entries its pages did not give (a page
with fewer rows than asked, then none, before its total: black-box pass R1, where a snapshot
of 2,500 entries kept 999 and blamed the paging cap).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path

from app.api.client import ApiClient, DncQuery
from app.api.models import DncEntry, SmsOptOut
from app.api.scope import Scope
from app.core.audit_sources import limits_of
from app.core.audit_types import ListKind, OptOutRecord, Progress, no_progress
from app.core.connections import normalize_base_url
from app.core.export_job import SHORT_PAGES, SplitRead, SplitSearch, scope_written
from app.core.export_job import ListKind as SearchKind
from app.core.xlsx_safe import SafeWorkbook

PAGE_SIZE = 1000
# Requests in flight while a snapshot reads a list, unless told otherwise (the window's, and
# the CLI's --concurrency default), as an import's.
DEFAULT_CONCURRENCY = 8
# A snapshot's .part file this old (seconds) is one left by a snapshot that never ended: no
# snapshot takes a day to write.
STALE_PART_AGE = 24 * 3600
KIND_NAMES = {ListKind.DNC: "dnc", ListKind.SMS: "sms-opt-out"}

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE parts (scope TEXT PRIMARY KEY, reported INTEGER NOT NULL,
                    fetched INTEGER NOT NULL, unreachable INTEGER NOT NULL);
CREATE TABLE entries (id TEXT PRIMARY KEY, phone_number TEXT NOT NULL,
                      phone_code TEXT NOT NULL, campaign_id TEXT NOT NULL,
                      campaign_name TEXT NOT NULL, purpose TEXT NOT NULL,
                      reason TEXT NOT NULL, insert_date TEXT NOT NULL);
CREATE INDEX entries_phone ON entries(phone_number, phone_code);
"""


class SnapshotError(Exception):
    """A snapshot file cannot be read or the comparison makes no sense; one sentence."""


def kind_from_name(name: str) -> ListKind:
    for kind, text in KIND_NAMES.items():
        if name.strip().lower() in (text, kind.value.lower(), "sms"):
            return kind
    raise SnapshotError(f"{name!r} is not a list; use dnc or sms-opt-out.")


@dataclass(frozen=True, slots=True)
class SnapshotEntry:
    """One entry as the snapshot keeps it (every field a string, compared as such)."""

    id: str
    phone_number: str
    phone_code: str
    campaign_id: str
    campaign_name: str
    purpose: str
    reason: str
    insert_date: str

    @classmethod
    def from_record(cls, r: OptOutRecord) -> SnapshotEntry:
        return cls(
            r.id,
            r.phone_number,
            r.phone_code,
            r.scope.api_campaign_id,
            r.campaign_name,
            r.purpose,
            r.reason,
            r.insert_date,
        )

    @property
    def scope(self) -> Scope:
        return Scope.from_api(self.campaign_id, self.purpose)


FIELDS = tuple(f.name for f in fields(SnapshotEntry))
# The meta key of the entries' digest (:func:`entries_digest`), stored when a snapshot is saved:
# a flipped byte in a stored value passes SQLite's checks when no index holds it (black-box
# bb16 F9: a one-digit flip in a number diffed as "1 changed"). It finds damage, not a forger,
# who can recompute it.
DIGEST_KEY = "entries_sha256"


def entries_digest(rows: Iterable[Sequence[object]]) -> str:
    """SHA-256 of the entries' :data:`FIELDS` values, in the order stored (rowid)."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(("\x1f".join(map(str, row)) + "\x1e").encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class SnapshotPart:
    """One search the snapshot was read with, and what it yielded."""

    scope: str
    reported: int
    fetched: int
    unreachable: int


@dataclass
class SnapshotData:
    """A list's contents at one time, in memory (a taken snapshot, or "now").

    ``unread`` is how many entries the service counted that could not be read (None: the
    reported total less the entries held, for data built by hand), ``not_given`` how many of
    them (at most) the service counted but its pages did not give; ``list_changed`` says
    the list was written to while it was read (``total_at_end``: the count when it ended).
    """

    kind: ListKind
    scope: Scope | None  # None: the whole list
    connection: str
    base_url: str
    taken_at: str  # UTC ISO 8601
    reported_total: int
    entries: list[SnapshotEntry] = field(default_factory=list)
    parts: list[SnapshotPart] = field(default_factory=list)
    path: Path | None = None
    unread: int | None = None
    list_changed: bool = False
    total_at_end: int | None = None
    not_given: int = 0

    @property
    def unreachable(self) -> int:
        """Entries of the list this copy could not read (0: it is complete)."""
        if self.unread is not None:
            return self.unread
        return max(0, self.reported_total - len(self.entries))

    @property
    def label(self) -> str:
        where = scope_words(self.scope)
        source = self.path.name if self.path is not None else "now"
        return f"{KIND_NAMES[self.kind]} {where} at {self.taken_at} ({source})"


def unread_reason(data: SnapshotData) -> str:
    """Why the entries a copy could not read were not read, for the sentence saying how many:
    the paging cap's reason only for those the service's short pages do not account for."""
    short = min(data.not_given, data.unreachable)
    if not short:
        return "no search of the service reaches them"
    if short >= data.unreachable:
        return f"the service counted them but did not give them: {SHORT_PAGES}"
    return (
        f"the service counted up to {short:,} of them but did not give them, as {SHORT_PAGES}; "
        "no search of the service reaches the rest"
    )


def _query(scope: Scope | None) -> DncQuery:
    return DncQuery(scope=scope) if scope is not None else DncQuery()


def _parts(read: SplitRead) -> list[SnapshotPart]:
    """The searches run, each with what it held, was read of and left unread, and one more
    for the rows no search of the split held (those the plain search reached are read)."""
    parts = [
        SnapshotPart(
            "whole list" if p.label == "all" else p.label,
            p.planned,
            p.read + p.found_later,
            p.missing,
        )
        for p in read.parts
    ]
    if read.gap:
        parts.append(
            SnapshotPart("in no search of the split", read.gap, read.gap_found, read.gap_missing)
        )
    return parts


def fetch_list(
    api: ApiClient,
    kind: ListKind,
    scope: Scope | None = None,
    *,
    connection: str = "",
    concurrency: int = DEFAULT_CONCURRENCY,
    cancel: threading.Event | None = None,
    progress: Progress = no_progress,
) -> SnapshotData:
    """Every entry of the list (or one scope of it), read as an export reads it.

    ``concurrency`` (1 to 32) requests at most are in flight: the split's counts that many at
    a time, and its parts that many at a time, each part's pages one after the other (so a
    list written to meanwhile is noticed and the part read again). The entries, their order,
    the parts and the counts are those of one request after the other: the parts' entries are
    taken in the split's order whatever part's answer came first."""
    split = SplitSearch(
        api,
        SearchKind.DNC if kind is ListKind.DNC else SearchKind.SMS,
        _query(scope),
        cancel=cancel,
        page_size=PAGE_SIZE,
        concurrency=concurrency,
    )
    split.limits = limits_of(kind)
    taken = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    progress(0, 0, "Counting the list's entries")
    with split.cancellable():  # a cancel ends a request waiting for its answer too
        total, leaves = split.plan()
    data = SnapshotData(kind, scope, connection, api.base_url, taken, total)
    entries = data.entries

    def keep(label: str, item: DncEntry | SmsOptOut) -> None:
        if isinstance(item, DncEntry):
            record = OptOutRecord.from_dnc(item)
        else:
            record = OptOutRecord.from_sms(item)
        entries.append(SnapshotEntry.from_record(record))
        if len(entries) % PAGE_SIZE == 0:
            progress(
                len(entries),
                max(total, len(entries)),
                f"Read {len(entries):,} of {total:,} entries",
            )

    with split.cancellable():
        read = split.read(total, leaves, keep)
    data.unread = read.unreachable
    data.not_given = read.not_given
    data.list_changed = read.list_changed
    data.total_at_end = read.total_at_end
    data.parts = _parts(read)
    progress(len(entries), max(total, len(entries)), f"Read {len(entries):,} of {total:,} entries")
    return data


def _slug(kind: ListKind, scope: Scope | None) -> str:
    where = "all" if scope is None else re.sub(r"[^A-Za-z0-9]+", "-", str(scope)).strip("-")
    return f"{KIND_NAMES[kind]}-{where or 'purpose'}"


def _scope_text(scope: Scope | None) -> str:
    """A snapshot's scope as its file keeps it: "" the whole list, ``purpose`` every purpose
    (``purpose:`` with nothing after it is no scope :meth:`Scope.parse` reads back)."""
    if scope is None:
        return ""
    if scope.is_purpose and not scope.purpose_text:
        return "purpose"
    return str(scope)


def _scope_read(text: str) -> Scope | None:
    if not text:
        return None
    if text == "purpose":
        return Scope.purpose("")
    return Scope.parse(text)


def scope_words(scope: Scope | None) -> str:
    """A snapshot's scope said to a person: ``whole list``, ``purpose (every purpose)`` or the
    scope as ``--scope`` writes it."""
    if scope is None:
        return "whole list"
    if scope.is_purpose and not scope.purpose_text:
        return "purpose (every purpose)"
    return str(scope)


def save_snapshot(data: SnapshotData, directory: Path) -> Path:
    """Write the snapshot to a new file in ``directory`` and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = data.taken_at.replace("-", "").replace(":", "").replace(".", "-")
    path = directory / f"{_slug(data.kind, data.scope)}-{stamp}.sqlite3"
    n = 2
    while path.exists():
        path = directory / f"{_slug(data.kind, data.scope)}-{stamp}-{n}.sqlite3"
        n += 1
    _remove_stale_parts(directory)
    tmp = path.with_name(path.name + ".part")
    tmp.unlink(missing_ok=True)
    try:
        _write(data, tmp)
        # Owner-only, like the rest of the data dir: the file lists people's numbers.
        with contextlib.suppress(OSError):
            os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        # Stopped (Ctrl+C, SIGTERM) or failed (a full disk): each snapshot's name is its own,
        # so nothing else would ever remove the part written (black-box B23 F4).
        for left in (tmp, tmp.with_name(tmp.name + "-journal")):
            with contextlib.suppress(OSError):
                left.unlink(missing_ok=True)
        raise
    data.path = path
    return path


def _remove_stale_parts(directory: Path) -> None:
    """Remove the ``.part`` files of snapshots that never ended (the process killed, the
    machine off), once they are :data:`STALE_PART_AGE` old: a younger one may be another
    process's snapshot being written now."""
    now = time.time()
    for part in directory.glob("*.sqlite3.part"):
        with contextlib.suppress(OSError):
            if now - part.stat().st_mtime >= STALE_PART_AGE:
                part.unlink()


def _write(data: SnapshotData, tmp: Path) -> None:
    """The snapshot's SQLite file at ``tmp``."""
    db = sqlite3.connect(tmp)
    try:
        db.executescript(_SCHEMA)
        meta = {
            "format": "dnc-desk-snapshot-1",
            "kind": KIND_NAMES[data.kind],
            "scope": _scope_text(data.scope),
            "connection": data.connection,
            "base_url": data.base_url,
            "taken_at": data.taken_at,
            "reported_total": str(data.reported_total),
            "unreachable": str(data.unreachable),
            "list_changed": "yes" if data.list_changed else "no",
            "total_at_end": "" if data.total_at_end is None else str(data.total_at_end),
            "not_given": str(data.not_given),
        }
        rows = [tuple(getattr(e, f) for f in FIELDS) for e in data.entries]
        meta[DIGEST_KEY] = entries_digest(rows)
        db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        db.executemany(
            "INSERT INTO parts VALUES (?, ?, ?, ?)",
            [(p.scope, p.reported, p.fetched, p.unreachable) for p in data.parts],
        )
        db.executemany(f"INSERT INTO entries VALUES ({', '.join('?' * len(FIELDS))})", rows)
        db.commit()
    finally:
        db.close()


def take_snapshot(
    api: ApiClient,
    kind: ListKind,
    scope: Scope | None,
    directory: Path,
    *,
    connection: str = "",
    concurrency: int = DEFAULT_CONCURRENCY,
    cancel: threading.Event | None = None,
    progress: Progress = no_progress,
) -> SnapshotData:
    data = fetch_list(
        api,
        kind,
        scope,
        connection=connection,
        concurrency=concurrency,
        cancel=cancel,
        progress=progress,
    )
    save_snapshot(data, directory)
    return data


def _connect(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise SnapshotError(f"There is no snapshot file {path}.")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    except sqlite3.Error:
        raise SnapshotError(f"{path} is not a DNC Desk snapshot.") from None
    return db


def load_snapshot(path: Path, *, entries: bool = True) -> SnapshotData:
    """Read a snapshot file (with its entries unless ``entries`` is False)."""
    db = _connect(path)
    try:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("format") != "dnc-desk-snapshot-1":
            raise SnapshotError(f"{path} is not a DNC Desk snapshot.")
        scope = _scope_read(meta["scope"])
        data = SnapshotData(
            kind_from_name(meta["kind"]),
            scope,
            meta["connection"],
            meta["base_url"],
            meta["taken_at"],
            int(meta["reported_total"]),
            path=path,
            unread=int(meta["unreachable"]) if meta.get("unreachable") else None,
            list_changed=meta.get("list_changed") == "yes",
            total_at_end=int(meta["total_at_end"]) if meta.get("total_at_end") else None,
            not_given=int(meta.get("not_given") or 0),
        )
        data.parts = [SnapshotPart(*row) for row in db.execute("SELECT * FROM parts")]
        if entries:
            # A damaged index page answers the reads below all the same (black-box bb12 F7):
            # a snapshot compared as evidence must be whole, not only readable.
            if not _whole(db):
                raise sqlite3.DatabaseError("integrity_check")
            rows = db.execute(f"SELECT {', '.join(FIELDS)} FROM entries ORDER BY rowid").fetchall()
            if not _as_saved(meta, rows):
                raise SnapshotError(_not_as_saved(path))
            data.entries = [SnapshotEntry(*row) for row in rows]
    except sqlite3.Error:
        # Bytes damaged inside the file (a text that is no longer UTF-8, a broken page): named,
        # without SQLite's words quoting the damaged bytes (black-box B37 F3).
        raise SnapshotError(
            f"{path} is a damaged DNC Desk snapshot: its entries could not be read. Keep it "
            "for review, and compare another copy."
        ) from None
    finally:
        db.close()
    return data


def _whole(db: sqlite3.Connection) -> bool:
    """SQLite's integrity check, not its quick check, which does not compare the index with
    the table: a digit flipped in a stored number passed it (black-box bb16 F9). On 100,000
    entries it takes about 70 ms to the quick check's 15 (reading them takes about 80)."""
    return bool(db.execute("PRAGMA integrity_check").fetchall() == [("ok",)])


def _as_saved(meta: dict[str, str], rows: Iterable[Sequence[object]]) -> bool:
    """Whether ``rows`` are the entries the snapshot was saved with; True for one saved
    before snapshots kept their digest (the integrity check is all there is for it)."""
    kept = meta.get(DIGEST_KEY)
    return kept is None or entries_digest(rows) == kept


def _not_as_saved(path: Path) -> str:
    return (
        f"{path} is a damaged DNC Desk snapshot: its entries are not those it was saved with "
        "(their digest, kept in it when it was saved, differs). Keep it for review, and compare "
        "another copy."
    )


def list_snapshots(directory: Path) -> list[SnapshotData]:
    """Every readable snapshot in ``directory`` (metadata only), oldest first."""
    return scan_snapshots(directory)[0]


def scan_snapshots(directory: Path) -> tuple[list[SnapshotData], list[Path]]:
    """:func:`list_snapshots`, and the ``*.sqlite3`` files of ``directory`` it leaves out as
    not readable as snapshots, for whoever must say so (evidence: black-box B37 F4)."""
    out: list[SnapshotData] = []
    unreadable: list[Path] = []
    for path in sorted(directory.glob("*.sqlite3")) if directory.is_dir() else []:
        try:
            out.append(load_snapshot(path, entries=False))
        except (SnapshotError, KeyError, ValueError):
            unreadable.append(path)
    return sorted(out, key=lambda s: s.taken_at), unreadable


def integrity_problem(path: Path) -> str | None:
    """None when SQLite's integrity check finds the snapshot file whole and its entries are
    those it was saved with (:data:`DIGEST_KEY`); else "" when it found it damaged, or why
    when the file could not be checked. A page damaged on disk may still answer a search, so
    reading it is no proof it is whole."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if not _whole(db):
                return ""
            meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
            rows = db.execute(f"SELECT {', '.join(FIELDS)} FROM entries ORDER BY rowid")
            return None if _as_saved(meta, rows) else "its entries are not those it was saved with"
        finally:
            db.close()
    except sqlite3.Error as exc:
        return str(exc)


def entries_for_number(path: Path, national: str, phone_code: str) -> list[SnapshotEntry]:
    """The snapshot's entries holding the text ``national`` under ``phone_code``, or under any
    phone code when it is ``""``: as a live search of the list finds them, so that evidence
    finds in a snapshot the entries it finds on the list (a form with the country code in the
    digits, "447911129992" kept under code 1, is searched under every code: black-box R2 #6)."""
    where, args = "phone_number = ?", [national]
    if phone_code:
        where, args = f"{where} AND phone_code = ?", [national, phone_code]
    db = _connect(path)
    try:
        rows = db.execute(f"SELECT {', '.join(FIELDS)} FROM entries WHERE {where}", args).fetchall()
    finally:
        db.close()
    return [SnapshotEntry(*row) for row in rows]


# ---------------------------------------------------------------------------------- diff


@dataclass(frozen=True, slots=True)
class EntryChange:
    before: SnapshotEntry
    after: SnapshotEntry
    fields: tuple[str, ...]


@dataclass
class SnapshotDiff:
    """What changed between two copies of a list, keyed by entry id."""

    old: str
    new: str
    added: list[SnapshotEntry]
    removed: list[SnapshotEntry]
    changed: list[EntryChange]
    # Entries of the list each copy could not read (an incomplete snapshot): never compared,
    # and an entry missing from one side may be among the other side's unread ones.
    old_not_read: int = 0
    new_not_read: int = 0
    service: str = ""  # the base URL both copies were read from
    # Ids of the added and removed entries the other copy may hold unread (its search that
    # could hold them left entries unread): the rest are certain, part by part.
    not_certain: frozenset[str] = frozenset()

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    @property
    def complete(self) -> bool:
        """Whether both copies held every entry of the list, so every entry was compared."""
        return not (self.old_not_read or self.new_not_read)

    def certain(self, entry: SnapshotEntry) -> bool:
        """Whether ``entry``, counted as added or removed, surely is."""
        return entry.id not in self.not_certain


def not_read_warning(result: SnapshotDiff) -> str:
    """The sentence saying entries were not compared ("" when both copies are complete)."""
    if result.complete:
        return ""

    def entries(n: int) -> str:
        return f"{n:,} {'entry' if n == 1 else 'entries'}"

    return (
        "Not every entry was compared: the older copy could not read "
        f"{entries(result.old_not_read)} of the list and the newer one "
        f"{entries(result.new_not_read)} (an incomplete snapshot), so differences among them "
        "are not known, and an entry counted as added or removed may only be one the other "
        "copy could not read."
    )


def same_service(old: tuple[str, str], new: tuple[str, str]) -> str:
    """The service two copies were read from, each given as (label, base URL): its base URL
    as evidence compares it, or :class:`SnapshotError` naming both services. Entries of two
    services share ids by chance only: matching them counted unrelated entries as changed
    (black-box R4 #1). A copy that does not record its base URL is taken as the other's."""
    (old_label, old_url), (new_label, new_url) = old, new
    urls = normalize_base_url(old_url), normalize_base_url(new_url)
    if all(urls) and urls[0] != urls[1]:
        raise SnapshotError(
            f"These are copies of different services: {old_label} of the service at "
            f"{urls[0]} and {new_label} of the service at {urls[1]}; compare copies of one "
            "service."
        )
    return urls[0] or urls[1]


def diff(old: SnapshotData, new: SnapshotData) -> SnapshotDiff:
    """Added, removed and changed entries (changed: same id, any field differs)."""
    if old.kind is not new.kind:
        # With the next step, as the refusal of two services gives it (black-box bb2 F11).
        raise SnapshotError(
            f"These are copies of different lists: {old.label} and {new.label}; compare two "
            "copies of one list."
        )
    if old.scope != new.scope:
        # One list read over two scopes (black-box B9 #9: the whole DNC list against its
        # purpose entries was "different lists"): entries outside the narrower scope would
        # all count as added or removed.
        raise SnapshotError(
            f"These are copies of one list over different scopes: {old.label} and "
            f"{new.label}; compare copies of the same scope (dnc-desk snapshot takes --scope)."
        )
    service = same_service((old.label, old.base_url), (new.label, new.base_url))
    before = {e.id: e for e in old.entries}
    after = {e.id: e for e in new.entries}
    changed = []
    for key in before.keys() & after.keys():
        a, b = before[key], after[key]
        if a != b:
            changed.append(
                EntryChange(a, b, tuple(f for f in FIELDS if getattr(a, f) != getattr(b, f)))
            )

    def order(e: SnapshotEntry) -> tuple[int, str]:
        return (len(e.id), e.id)

    added = sorted((after[k] for k in after.keys() - before.keys()), key=order)
    removed = sorted((before[k] for k in before.keys() - after.keys()), key=order)
    return SnapshotDiff(
        old.label,
        new.label,
        added,
        removed,
        sorted(changed, key=lambda c: order(c.before)),
        old.unreachable,
        new.unreachable,
        service,
        _not_certain(added, old) | _not_certain(removed, new),
    )


def _not_certain(entries: list[SnapshotEntry], other: SnapshotData) -> frozenset[str]:
    """The ids of ``entries`` (missing from ``other``) that ``other`` may hold unread.

    Only the insert day is sought: an update may move an entry to another scope, country code
    or reason, so its part in the other copy is any with its day (black-box bb11 F7: entries
    whose part both copies read whole were "may be one of them")."""
    from app.core.read_whole import Probe, read_whole_for  # it reads SnapshotData

    if not other.unreachable:
        return frozenset()
    return frozenset(
        e.id for e in entries if not read_whole_for(other, Probe(insert_date=e.insert_date))
    )


# Black-box B32 F6: an entry's insert_date is the service's clock (the API does not say its
# zone), read beside the copies' UTC times as if it were one clock.
INSERT_DATE_LABEL = "insert_date (service's clock)"
DIFF_TIMES_NOTE = (
    "Older and Newer: when each copy was taken (UTC); insert_date: the service's clock "
    "(the API does not say its time zone)."
)


def _field_headers(prefix: str) -> list[str]:
    return [prefix + (INSERT_DATE_LABEL if f == "insert_date" else f) for f in FIELDS]


def _entry_scope(entry: SnapshotEntry) -> str:
    """``entry``'s scope as an export's scope column writes it (``global``, ``campaign:ID``,
    ``purpose:TEXT``)."""
    return scope_written(entry.scope, entry.purpose)


def write_diff_xlsx(result: SnapshotDiff, path: Path) -> None:
    """Summary, Added, Removed and Changed sheets.

    Every entry field is a text cell with its exact text; one that could start a formula
    (``+Sales``, ``-called twice``) carries the quotePrefix style (see :mod:`app.core.xlsx_safe`).
    """
    wb = SafeWorkbook(quote_prefix=True, beside=path)
    summary = wb.add_sheet("Summary", (14, 80))
    for row in (
        ("Older", result.old),
        ("Newer", result.new),
        ("Added", len(result.added)),
        ("Removed", len(result.removed)),
        ("Changed", len(result.changed)),
        ("Older: not read", result.old_not_read),
        ("Newer: not read", result.new_not_read),
        ("Service", result.service),
        ("Times", DIFF_TIMES_NOTE),
    ):
        summary.append(row)
    if not result.complete:
        summary.append(("Warning", not_read_warning(result)))
    for title, rows, other_unread, other in (
        ("Added", result.added, result.old_not_read, "older"),
        ("Removed", result.removed, result.new_not_read, "newer"),
    ):
        # Re-test S2 #2: 5,225 entries the newer copy could not read were listed as removed,
        # with nothing on their rows to say they may still be on the list.
        unsure = (
            f"no: the {other} copy could not read {other_unread:,} entries of the list, "
            "and this may be one of them"
        )
        sheet = wb.add_sheet(title, text_columns=(FIELDS.index("phone_number"),))
        # The scope as export and --scope write it (black-box bb5 S1: counsel read which list
        # an entry was in from campaign_id 0, -1 or N alone).
        sheet.append((*_field_headers(""), "scope", "certain"))
        for entry in rows:
            certain = "yes" if result.certain(entry) else unsure
            sheet.append([*(getattr(entry, f) for f in FIELDS), _entry_scope(entry), certain])
    changed_headers = [
        "id",
        "changed fields",
        *_field_headers("old ")[1:],
        *_field_headers("new ")[1:],
    ]
    phones = [changed_headers.index(f"{age} phone_number") for age in ("old", "new")]
    changed = wb.add_sheet("Changed", text_columns=phones)
    changed.append(changed_headers)
    for change in result.changed:
        changed.append(
            [
                change.before.id,
                ", ".join(change.fields),
                *(getattr(change.before, f) for f in FIELDS[1:]),
                *(getattr(change.after, f) for f in FIELDS[1:]),
            ]
        )
    wb.save(path)


def diff_json(result: SnapshotDiff) -> dict[str, object]:
    def entry(e: SnapshotEntry) -> dict[str, str]:
        return {f: getattr(e, f) for f in FIELDS}

    return {
        "service": result.service,
        "old": result.old,
        "new": result.new,
        "added": [entry(e) for e in result.added],
        "removed": [entry(e) for e in result.removed],
        "changed": [
            {
                "id": c.before.id,
                "fields": list(c.fields),
                "before": entry(c.before),
                "after": entry(c.after),
            }
            for c in result.changed
        ],
        "old_not_read": result.old_not_read,
        "new_not_read": result.new_not_read,
        # False when an entry counted may only be one the other copy did not read.
        "added_certain": all(result.certain(e) for e in result.added),
        "removed_certain": all(result.certain(e) for e in result.removed),
    }
