"""The local change journal: every write the app makes, before and after the call.

Rows live in SQLite (WAL, synchronous=NORMAL) and are hash-chained: each row stores
``hash = sha256(canonical JSON of its content + prev_hash)`` and the ``prev_hash`` of the row
before it, so editing a row, or deleting one in the middle, is detectable by ``verify()``.

A chain alone cannot show that its *last* rows were deleted (the shortened chain is still a
valid chain). The ``chain_head`` table therefore keeps the last id, last hash and row count,
updated in the same transaction as every append. What that proves: rows removed or edited with
a SQL tool (or a damaged file) are detected as long as the head row was not rewritten to match.
What it does not prove: someone who deliberately recomputes the hashes and rewrites the head, or
who replaces the whole file with an older copy, produces a journal that verifies; detecting that
needs the head hash anchored outside this file (e.g. printed in exported reports).

Writes are serialised by one lock (the import engine writes from many worker threads) and by
``BEGIN IMMEDIATE``, which also keeps the chain linear if a second app instance opens the file.

A journal is checked each time it is opened, before anything is written to it (black-box pass
L4 #4: a journal with a few bytes of garbage in an old page was written to by an import, after
which no entry could be read back; one emptied to 0 bytes was taken for a new one). An
existing file of 0 bytes, one SQLite's ``PRAGMA quick_check`` finds damaged, and one SQLite
cannot read at all are refused with one sentence (:class:`JournalError`). ``quick_check``
reads every page (not the indexes' contents, which ``integrity_check`` compares as well): about
0.07 s for a 100,000-entry journal (52 MB) whose pages are in the system's cache, 0.6 s when
none is. The app never leaves a 0-byte journal of its own: a new one is built under another
name and linked into place whole.

Text is stored as :func:`~app.core.paths.utf8_text` gives it: a file name that is not valid
UTF-8 (a job's ``file``) is kept with its undecodable bytes as ``\\xNN``, where it could not be
hashed or stored at all (black-box R5 #1).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import getpass
import hashlib
import json
import os
import re
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from app.core.paths import utf8_text
from app.core.redaction import SECRETS
from app.core.xlsx_safe import SafeCsvWriter, SafeWorkbook

GENESIS_HASH = "0" * 64
HASH_VERSION = "dnc-desk-journal-1"
# Rows that name who wrote them (``actor``) are hashed under this version, with the actor;
# a row without one (written before actors were recorded) is hashed as it always was, so
# every existing journal verifies unchanged. Blanking a new row's actor breaks its hash.
HASH_VERSION_ACTOR = "dnc-desk-journal-2"

PHASE_INTENT = "intent"
PHASE_OUTCOME = "outcome"
# One-row records that have no separate result (job start/finish, gate override).
PHASE_EVENT = "event"

_COLUMNS = (
    "id",
    "time",
    "phase",
    "ref",
    "connection",
    "base_url",
    "operation",
    "target",
    "phone",
    "before",
    "after",
    "outcome",
    "error",
    "job",
    "note",
    "actor",
    "prev_hash",
    "hash",
)
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM journal"
# Copied from an intent into its outcome row so filters by phone, job or operation find both.
_INTENT_FIELDS = ("connection", "base_url", "operation", "target", "phone", "job")
# Intents still waiting for their outcome, kept in memory to avoid a lookup per outcome.
_OPEN_INTENTS_CACHE = 50_000
# The page size of a new journal. Every commit writes each page it changed to the WAL whole,
# and an entry changes about 7 (its table's, the chain head's, one in each index): 27.5 KB in
# 4 KB pages, and an import row's intent and outcome are two commits (black-box B17 F1: with
# the job file, 5.8 GB written for a 100,000-row import); 9 KB in 1 KB pages, with reads,
# verify() and the check on opening about as fast. A journal made before keeps its 4 KB
# pages: an existing file's page size changes only by rewriting it whole.
PAGE_SIZE = 1024
_PLACEHOLDERS = ", ".join("?" * len(_COLUMNS))
_INSERT = f"INSERT INTO journal ({', '.join(_COLUMNS)}) VALUES ({_PLACEHOLDERS})"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    id INTEGER PRIMARY KEY,
    time TEXT NOT NULL,
    phase TEXT NOT NULL,
    ref INTEGER,
    connection TEXT NOT NULL,
    base_url TEXT NOT NULL,
    operation TEXT NOT NULL,
    target TEXT NOT NULL,
    phone TEXT NOT NULL,
    before TEXT,
    after TEXT,
    outcome TEXT NOT NULL,
    error TEXT NOT NULL,
    job TEXT NOT NULL,
    note TEXT NOT NULL,
    actor TEXT NOT NULL DEFAULT '',
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_phone ON journal(phone) WHERE phone != '';
CREATE INDEX IF NOT EXISTS journal_operation ON journal(operation);
CREATE INDEX IF NOT EXISTS journal_time ON journal(time);
CREATE INDEX IF NOT EXISTS journal_job ON journal(job) WHERE job != '';
CREATE TABLE IF NOT EXISTS chain_head (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    last_id INTEGER NOT NULL,
    last_hash TEXT NOT NULL,
    rows INTEGER NOT NULL
);
"""

EXPORT_HEADERS = (
    "Entry",
    "Time (UTC)",
    "Phase",
    "Answers entry",
    "Connection",
    "Base URL",
    "Operation",
    "Target",
    "Phone",
    "Before",
    "After",
    "Outcome",
    "Error",
    "Job",
    "Note",
    "Actor",
    "Previous hash",
    "Hash",
)


class JournalError(Exception):
    """The journal could not be read or written; ``str()`` is one sentence for the user."""


# SQLite's primary result codes (the low byte of an extended code) for a damaged file and for a
# full disk.
_DAMAGED_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
# What quick_check reports at most: the first problems say the file is damaged, and a badly
# damaged file would list thousands.
_CHECK_PROBLEMS = 3


def _primary_code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def _move_aside(path: Path, kept: str = "it is the record of earlier changes") -> str:
    """What to do with a journal that cannot be used: it holds the only record of the app's
    earlier changes, so it is kept, and moved with its WAL files (a -wal left behind would be
    read into the new journal)."""
    return (
        f"Keep the file for review ({kept}) and move it aside, "
        f"with {path.name}-wal and {path.name}-shm if they are beside it, so a new journal is "
        "started."
    )


def damaged_journal(path: Path, detail: str, reader: str = "") -> str:
    """The sentence refusing a journal SQLite finds damaged; ``reader`` is what the refusal
    means for a command that only reads it (see :class:`ChangeJournal`)."""
    then = reader or "entries written to it now could not be read back, so nothing was sent"
    return f"The change journal at {path} is damaged ({detail}): {then}. {_move_aside(path)}"


def _one_line(problems: Iterable[str]) -> str:
    text = "; ".join(" ".join(str(p).split()) for p in problems)
    return text if len(text) <= 200 else text[:199] + "…"


@dataclass(frozen=True)
class JournalEntry:
    """One journal row. ``phase`` is "intent", "outcome" (``ref`` = the intent) or "event"."""

    id: int
    time: str
    phase: str
    ref: int | None
    connection: str
    base_url: str
    operation: str
    target: str
    phone: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    outcome: str
    error: str
    job: str
    note: str
    prev_hash: str
    hash: str
    # Who wrote the row (``login@host``); "" for rows written before actors were recorded.
    actor: str = ""


@dataclass(frozen=True)
class ChainVerdict:
    """Result of ``ChangeJournal.verify``; ``rows`` counts the entries checked (up to the
    first bad one), ``message`` is one sentence for the user."""

    ok: bool
    rows: int
    first_bad_id: int | None
    message: str


# Entries read at a time by :meth:`ChangeJournal.matching`.
_EXPORT_PAGE = 5000

# Of a chain broken all through (a file rewritten by another program), the entries named.
_BREAKS_KEPT = 10_000
_BREAKS_SAID = 5


@dataclass(frozen=True)
class ChainCheck:
    """Result of ``ChangeJournal.check_chain``: the whole chain, every break in it.

    ``breaks`` maps the id of each entry at a break to why (at most ``_BREAKS_KEPT`` of
    them; ``broken`` counts them all), so an evidence pack can mark the entries it holds;
    ``message`` is one sentence for the user."""

    ok: bool
    rows: int
    breaks: Mapping[int, str]
    broken: int
    message: str
    # What the chain head records (None when it is missing): the last entry's hash and the
    # entries counted, which an officer keeps elsewhere to tell later whether the journal's end
    # was cut off and the head rewritten to match (the file alone cannot show that).
    head_hash: str | None = None
    head_entries: int | None = None


@dataclass(frozen=True)
class _Link:
    """An entry of the chain that is at a break: its id, the id of the entry before it (0 for
    none), whether its ``prev_hash`` is that entry's hash, and whether its own hash matches."""

    entry_id: int
    after: int
    follows: bool
    matches: bool


class _ChainWalk:
    """One pass over the chain, oldest entry first, shared by ``verify`` (which stops at the
    first break) and ``check_chain`` (which goes on past each): :meth:`links` yields each entry
    at a break; ``rows``, ``last_id`` and ``last_hash`` are where the walk has got to. After a
    break the walk goes on from the stored hash, so one edited entry breaks at that entry
    alone."""

    def __init__(self) -> None:
        self.rows = 0
        self.last_id = 0
        self.last_hash = GENESIS_HASH

    @staticmethod
    def head(db: sqlite3.Connection) -> tuple[int, str, int] | None:
        """The chain head (last id, last hash, row count), or None when it was deleted (its
        row, or its table)."""
        if "chain_head" not in _tables(db):
            return None
        found: tuple[int, str, int] | None = db.execute(
            "SELECT last_id, last_hash, rows FROM chain_head"
        ).fetchone()
        return found

    def links(self, db: sqlite3.Connection) -> Iterator[_Link]:
        if "journal" not in _tables(db):
            return  # dropped: said by _entries_dropped, and the head's count shows what went
        for raw in db.execute(f"{_SELECT} ORDER BY id"):
            # Positional access: _SELECT lists _COLUMNS, ending in prev_hash, hash.
            entry_id, prev_hash, stored_hash = raw[0], raw[-2], raw[-1]
            self.rows += 1
            link = _Link(
                entry_id,
                self.last_id,
                follows=prev_hash == self.last_hash,
                matches=hash_values(raw[:-1]) == stored_hash,
            )
            if entry_id != self.last_id + 1 or not link.follows or not link.matches:
                yield link
            self.last_hash = stored_hash
            self.last_id = entry_id


def _tables(db: sqlite3.Connection) -> set[str]:
    """The names of the journal file's own tables (not the temp schema's)."""
    return {
        str(r[0]) for r in db.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")
    }


_ENTRIES_DROPPED = "the table holding its entries was deleted"


def _span(first: int, last: int) -> str:
    """Entries ``first`` to ``last`` as a subject with its verb: "entry 6 was", "entries 3
    to 5 were"."""
    if first == last:
        return f"entry {first:,} was"
    return f"entries {first:,} {'and' if last == first + 1 else 'to'} {last:,} were"


def _deleted_said(gaps: Sequence[tuple[int, int]]) -> str:
    """The sentence naming the entries missing from the middle of the chain."""
    if len(gaps) == 1:
        return f"{_span(*gaps[0])} deleted"
    count = sum(b - a + 1 for a, b in gaps)
    named = ", ".join(_ids(a, b) for a, b in gaps[:_BREAKS_SAID])
    return f"{count:,} entries were deleted ({named}{', …' if len(gaps) > _BREAKS_SAID else ''})"


def _ids(first: int, last: int) -> str:
    if first == last:
        return f"{first:,}"
    return f"{first:,}{', ' if last == first + 1 else ' to '}{last:,}"


def _edited_said(edited: Sequence[int]) -> str:
    """The sentence naming the entries that do not match their own hash."""
    if len(edited) == 1:
        return f"entry {edited[0]:,} was edited (it does not match its hash)"
    named = ", ".join(f"{i:,}" for i in edited[:_BREAKS_SAID])
    more = ", …" if len(edited) > _BREAKS_SAID else ""
    return f"{len(edited):,} entries were edited ({named}{more}: they do not match their hash)"


@dataclass(frozen=True)
class _HeadEnd:
    """How the chain's end disagrees with the chain head: the sentence, why the last entry
    is marked ("" when it is not), and the entry :meth:`ChangeJournal.verify` names."""

    said: str
    marks_last: str
    first_bad_id: int | None


def _head_end(
    head: tuple[int, str, int] | None, recorded: int, last_id: int, last_hash: str
) -> _HeadEnd | None:
    """Compare the chain's end with its head; None when they agree.

    ``recorded`` is the entries read plus those found missing between them: with nothing else
    done, the head's row count. Only when the head's last id is past the last entry and its
    count is that many more were the latest entries deleted; any other disagreement is the
    head itself edited (or the file swapped for another copy), not a deletion."""
    if head is None:
        return _HeadEnd(
            "its record of the last entry is missing (the chain head was deleted)", "", None
        )
    head_id, head_hash, head_rows = head
    latest = head_id - last_id
    if latest > 0 and head_rows == recorded + latest:
        noun = "entry" if head_rows == 1 else "entries"
        said = (
            f"the latest {_span(last_id + 1, head_id)} deleted (the chain head records "
            f"{head_rows:,} {noun} up to entry {head_id:,})"
        )
        return _HeadEnd(said, f"{_span(last_id + 1, head_id)} deleted after it", last_id + 1)
    if head_rows == recorded and head_id == last_id and head_hash == last_hash:
        return None
    return _HeadEnd(
        f"the chain head does not match the entries (the head records {head_rows:,} "
        f"{'entry' if head_rows == 1 else 'entries'} up to entry {head_id:,}"
        f"{'' if head_hash == last_hash else ' with another hash'}; the journal has "
        f"{recorded:,} up to entry {last_id:,}): the head was edited, or the file replaced "
        "with another copy",
        "it does not match the recorded chain head",
        head_id or None,
    )


def utc_now() -> str:
    """Fixed-width UTC timestamps so string comparison is time order (used by filters)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return SECRETS.redact(utf8_text(value))
    if isinstance(value, Mapping):
        return {str(_redact_value(str(k))): _redact_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_redact_value(v) for v in value]
    return value


def _as_text(value: Any) -> str:
    return utf8_text(str(value))


_VALUES_ENCODER = json.JSONEncoder(
    sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_as_text
)


def _dump_mapping(value: Mapping[str, Any] | None) -> str | None:
    if value is None:
        return None
    # Redact the structure, not the JSON text: a secret with a quote or backslash in it
    # would be escaped in the JSON and no longer match. default=_as_text keeps odd values
    # (dates, Decimals, enums) recordable instead of failing the write.
    text = _VALUES_ENCODER.encode(_redact_value(value))
    # _as_text may have stringified an object that contains a secret.
    return SECRETS.redact(text)


def _load_mapping(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"unreadable": text}
    return value if isinstance(value, dict) else {"value": value}


# One encoder for every hash: json.dumps() with options builds a new encoder per call, which
# dominates verify() on a large journal.
_CANONICAL = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_HASHED_COLUMNS = tuple(c for c in _COLUMNS if c != "hash")


_ACTOR_AT = _HASHED_COLUMNS.index("actor")


def hash_values(values: Sequence[Any]) -> str:
    """sha256 over a canonical JSON array of the content columns and prev_hash, in
    ``_COLUMNS`` order (everything but the hash itself).

    The stored text of before/after is hashed as-is, so verification never depends on JSON
    re-serialisation being stable. The id is included so renumbering rows is detected too.
    A row without an actor is hashed without that column under the first version: exactly
    the input rows written before actors were recorded had.
    """
    actor = values[_ACTOR_AT]
    if actor:
        canonical = _CANONICAL.encode([HASH_VERSION_ACTOR, *values])
    else:
        rest = [*values[:_ACTOR_AT], *values[_ACTOR_AT + 1 :]]
        canonical = _CANONICAL.encode([HASH_VERSION, *rest])
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def row_hash(row: Mapping[str, Any]) -> str:
    return hash_values([row[c] for c in _HASHED_COLUMNS])


def _entry(row: sqlite3.Row | tuple[Any, ...]) -> JournalEntry:
    values = dict(zip(_COLUMNS, tuple(row), strict=True))
    values["before"] = _load_mapping(values["before"])
    values["after"] = _load_mapping(values["after"])
    return JournalEntry(**values)


# The forms a time bound is written in: a date, or a date and a time to the minute, second or
# fraction, with an optional Z or UTC offset (no offset: UTC). Others Python would read
# (20261125, 2026-11-25Z) were taken for midnight and an --until of them exported nothing of
# that day (black-box bb11 F5).
_TIME_FORM = re.compile(
    r"(?P<date>\d{4}-\d{2}-\d{2})"
    r"(?:[T ](?P<hm>\d{2}:\d{2})(?::(?P<s>\d{2})(?:\.(?P<f>\d{1,6}))?)?"
    r"(?P<zone>Z|[+-]\d{2}:\d{2})?)?",
    re.ASCII,
)
TIME_FORMS = (
    "a date (2026-11-22) or a date and time (2026-11-22T14:30, 2026-11-22T14:30:05Z, "
    "2026-11-22 14:30:05+01:00; without Z or an offset it is UTC)"
)


def time_bound(value: str, *, end: bool = False) -> str:
    """Turn a user/UI time bound into the stored format. As ``until`` (``end``) the bound is
    the end of what was written, exclusive: a date counts that whole day, a time to the minute
    that whole minute, to the second that second. Raises :class:`JournalError` naming a value
    in none of :data:`TIME_FORMS` (``journal export`` refuses it before a file is written)."""
    value = value.strip()
    if not value:
        return ""
    form = _TIME_FORM.fullmatch(value)
    try:
        if form is None:
            raise ValueError(value)
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise JournalError(f"{value!r} is not a date or time; write {TIME_FORMS}.") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    if end:
        parsed += _written_unit(form)
    return parsed.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _written_unit(form: re.Match[str]) -> timedelta:
    """The span the last part written covers: a day, a minute, a second or the fraction's."""
    if form["hm"] is None:
        return timedelta(days=1)
    if form["s"] is None:
        return timedelta(minutes=1)
    if form["f"] is None:
        return timedelta(seconds=1)
    return timedelta(microseconds=10 ** (6 - len(form["f"])))


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class _Pending:
    """A row waiting for the group commit, and what became of it."""

    __slots__ = ("copy_from", "done", "error", "id", "row", "wake")

    def __init__(self, row: dict[str, Any], copy_from: int | None) -> None:
        self.row = row
        self.copy_from = copy_from
        self.done = False
        self.id: int | None = None
        self.error: BaseException | None = None
        # Held from the start; released once, when the row is done or its owner must lead.
        self.wake = threading.Lock()
        self.wake.acquire()


class ChangeJournal:
    """Append-only, hash-chained record of the app's writes to the service; thread-safe."""

    def __init__(self, path: Path, *, reader: str = "", read_only: bool = False) -> None:
        """``reader``: for a command that only reads the journal (an evidence pack), what
        refusing an emptied or damaged one means for it ("none of its entries are in the
        pack"), said in place of "nothing was sent", which is true only of a write (black-box
        bb2 F15).

        ``read_only`` (``journal verify`` and ``export``): the file must exist and is opened
        with SQLite's ``mode=ro``, with nothing made, migrated or seeded, so checking the
        evidence never changes it (black-box bb11 F1: verifying a wiped journal gave it a new
        chain head, and a dropped table was made anew). A -wal beside it is still read."""
        self._path = path
        self._read_only = read_only
        self._lock = threading.Lock()
        self._queue_lock = threading.Lock()
        self._writing = False
        self._intents: dict[int, tuple[Any, ...]] = {}
        self._queue: list[_Pending] = []
        self._read_lock = threading.Lock()
        self._chain_said = False
        self._actor = SECRETS.redact(utf8_text(current_actor()))
        if path.is_dir():
            raise JournalError(_folder_not_journal(path, reader))
        if not read_only:
            path.parent.mkdir(parents=True, exist_ok=True)
            _remove_stale_parts(path)
        opened: list[sqlite3.Connection] = []
        try:
            if not path.exists() and read_only:
                raise JournalError(f"There is no change journal at {utf8_text(str(path))}.")
            if not path.exists():
                _create(path)
            elif path.stat().st_size == 0:
                raise JournalError(
                    f"The change journal at {path} is empty (0 bytes): the record of earlier "
                    "changes it held is gone, and a new journal is not started over it "
                    f"unnoticed, so {reader or 'nothing was sent'}. "
                    + _move_aside(path, "its dates may tell when it was emptied")
                )
            self._db = self._connect()
            opened.append(self._db)
            _check(self._db, path, reader)
            if not read_only:
                # A journal is made with its chain head (_create): one found without it was
                # emptied or edited, and is not given a new head that would hide it (bb11 F1).
                self._db.executescript(_SCHEMA)
                _add_actor_column(self._db)
                # A write that changes nothing (BEGIN IMMEDIATE alone succeeds on a file opened
                # read only): a file that cannot be written is refused now, in its own sentence
                # (_open_failure), not at the first change.
                self._db.execute("UPDATE chain_head SET rows = rows WHERE 0")
            # A separate connection for reads: WAL lets a long verify() or export read a
            # snapshot while the import threads keep appending.
            self._reader = self._connect()
            if read_only:
                _actor_as_blank(self._reader)
        except (sqlite3.Error, JournalError) as exc:
            for db in opened:
                db.close()
            if isinstance(exc, JournalError):
                raise
            raise JournalError(_open_failure(path, exc, reader)) from exc
        self._closed = False

    def _connect(self) -> sqlite3.Connection:
        if self._read_only:
            return _connect_read_only(self._path)
        db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA busy_timeout = 10000")
            db.execute("PRAGMA journal_mode = WAL")
            # NORMAL in WAL mode never corrupts the file; a power cut may lose the last
            # commits, which is accepted for a 2,000-write/s import.
            db.execute("PRAGMA synchronous = NORMAL")
        except BaseException:
            db.close()
            raise
        return db

    @property
    def path(self) -> Path:
        return self._path

    def __enter__(self) -> ChangeJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock, self._read_lock:
            if self._closed:
                return
            self._closed = True
            self._reader.close()
            self._db.close()

    # -- writing ----------------------------------------------------------------------

    def record_intent(
        self,
        *,
        connection: str,
        base_url: str,
        operation: str,
        target: str,
        phone: str = "",
        before: Mapping[str, Any] | None = None,
        after: Mapping[str, Any] | None = None,
        job: str = "",
        note: str = "",
    ) -> int:
        """Record a write the app is about to make; returns the id to pass to record_outcome."""
        return self._append(
            {
                "phase": PHASE_INTENT,
                "ref": None,
                "connection": connection,
                "base_url": base_url,
                "operation": operation,
                "target": target,
                "phone": phone,
                "before": before,
                "after": after,
                "outcome": "",
                "error": "",
                "job": job,
                "note": note,
            }
        )

    def record_outcome(
        self,
        intent_id: int,
        *,
        outcome: str,
        error: str = "",
        after: Mapping[str, Any] | None = None,
    ) -> int:
        """Record how the write of ``intent_id`` ended; the row repeats the intent's
        connection, operation, target, phone and job so filters find both rows."""
        if not outcome:
            raise JournalError("An outcome needs a result such as ok or failed.")
        return self._append(
            {
                "phase": PHASE_OUTCOME,
                "ref": intent_id,
                "before": None,
                "after": after,
                "outcome": outcome,
                "error": error,
                "note": "",
            },
            copy_from=intent_id,
        )

    def record_event(
        self,
        *,
        connection: str,
        base_url: str,
        operation: str,
        target: str = "",
        note: str = "",
        job: str = "",
        details: Mapping[str, Any] | None = None,
        phone: str = "",
        ref: int | None = None,
    ) -> int:
        """Record a one-row event (job start/finish, gate override, a look-up that settled a
        write's outcome); details go in ``after``; ``phone`` (E.164) when it is about one;
        ``ref`` the intent of the write the event settles (:meth:`latest_intent`), so the
        event is linked to that write as its outcome is (black-box B9 #4)."""
        return self._append(
            {
                "phase": PHASE_EVENT,
                "ref": ref,
                "connection": connection,
                "base_url": base_url,
                "operation": operation,
                "target": target,
                "phone": phone,
                "before": None,
                "after": details,
                "outcome": "",
                "error": "",
                "job": job,
                "note": note,
            }
        )

    def _append(self, fields: dict[str, Any], *, copy_from: int | None = None) -> int:
        if self._read_only:
            raise JournalError("The change journal was opened to be read only; nothing was sent.")
        row: dict[str, Any] = {}
        for key, value in fields.items():
            if key in ("before", "after"):
                row[key] = _dump_mapping(value)
            elif isinstance(value, str):
                row[key] = SECRETS.redact(utf8_text(value))
            else:
                row[key] = value
        pending = _Pending(row, copy_from)
        # Group commit (leader/follower): a caller that finds no write in progress becomes
        # the leader and writes every queued row in one transaction; the others sleep on
        # their own lock until their row is committed, or until they are handed the lead.
        # Each caller returns only after its own row is committed ("intent recorded before
        # the call" holds), but 16 import threads share commits instead of queueing for one
        # each, and only the threads whose rows were written are woken.
        with self._queue_lock:
            self._queue.append(pending)
            leading = not self._writing
            self._writing = True
        if not leading:
            pending.wake.acquire()
        if not pending.done:
            self._lead()
        if pending.error is not None:
            raise pending.error
        assert pending.id is not None
        return pending.id

    def _lead(self) -> None:
        with self._queue_lock:
            batch, self._queue = self._queue, []
        try:
            with self._lock:
                self._write_batch(batch)
        except BaseException as exc:
            # A bug or KeyboardInterrupt in the leader must not leave the followers with
            # neither an id nor an error.
            for item in batch:
                if item.error is None and item.id is None:
                    item.error = exc
        with self._queue_lock:
            for item in batch:
                item.done = True
            successor = self._queue[0] if self._queue else None
            if successor is None:
                self._writing = False
        for item in batch:
            item.wake.release()
        if successor is not None:
            successor.wake.release()

    def _write_batch(self, batch: list[_Pending]) -> None:
        """Chain and insert a batch in one transaction.

        The statements per batch are fixed (no per-row execute): every sqlite3 call releases
        the GIL, and with 16 busy threads getting it back costs more than the SQL itself.
        """
        db = self._db
        written: list[_Pending] = []
        try:
            if self._closed:
                raise JournalError("The change journal is closed; restart the app.")
            db.execute("BEGIN IMMEDIATE")
            try:
                head = db.execute(
                    "SELECT last_id, last_hash FROM chain_head WHERE one = 1"
                ).fetchone()
                if head is None:
                    raise JournalError(
                        "The change journal's chain head is missing, so new entries cannot be "
                        "chained; keep the file for review and start a new one."
                    )
                last_id, last_hash = int(head[0]), str(head[1])
                # One time per batch: its rows are committed together.
                now = utc_now()
                self._load_intents(db, batch)
                for pending in batch:
                    row = pending.row
                    if pending.copy_from is not None:
                        source = self._intents.get(pending.copy_from)
                        if source is None:
                            pending.error = JournalError(
                                f"Entry {pending.copy_from} is not a recorded intent, so no "
                                "outcome can be recorded for it."
                            )
                            continue
                        row.update(zip(_INTENT_FIELDS, source, strict=True))
                    row["id"] = last_id + 1
                    row["time"] = now
                    row["actor"] = self._actor
                    row["prev_hash"] = last_hash
                    row["hash"] = row_hash(row)
                    last_id, last_hash = row["id"], row["hash"]
                    written.append(pending)
                db.executemany(_INSERT, [tuple(p.row[c] for c in _COLUMNS) for p in written])
                db.execute(
                    "UPDATE chain_head SET last_id = ?, last_hash = ?, rows = rows + ? "
                    "WHERE one = 1",
                    (last_id, last_hash, len(written)),
                )
                db.execute("COMMIT")
            except BaseException:
                # COMMIT itself may have failed after SQLite already ended the transaction.
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            if _primary_code(exc) == sqlite3.SQLITE_FULL:
                # A full disk is not damage: the entries before are kept (L4 #5).
                why = f": the disk holding {self._path.parent} is full ({exc})"
                then = "Free some space and try again."
            else:
                why = f" ({exc})"
                then = "Check free disk space and try again."
            for pending in batch:
                # Only an intent's failure stops its change: an outcome or event is written
                # after a request went out, which may have made the change (black-box B35 F1).
                phase = pending.row["phase"]
                if phase == PHASE_INTENT:
                    said = "the change was not made"
                elif phase == PHASE_OUTCOME:
                    said = "what became of a change already sent was not recorded"
                else:
                    said = "this event was not recorded"
                failure = JournalError(
                    f"The change journal could not be written{why}; {said}. {then}"
                )
                failure.__cause__ = exc
                pending.error = pending.error or failure
        except JournalError as exc:
            self._fail(batch, exc)
        else:
            for pending in written:
                pending.id = int(pending.row["id"])
                if pending.row["phase"] == PHASE_INTENT:
                    self._remember_intent(pending.id, pending.row)
                elif pending.copy_from is not None:
                    # One outcome per intent is the normal case; a second one still works
                    # through the database lookup.
                    self._intents.pop(pending.copy_from, None)

    @staticmethod
    def _fail(batch: list[_Pending], error: JournalError) -> None:
        for pending in batch:
            pending.error = pending.error or error

    def _remember_intent(self, intent_id: int, row: Mapping[str, Any]) -> None:
        self._intents[intent_id] = tuple(row[k] for k in _INTENT_FIELDS)
        if len(self._intents) > _OPEN_INTENTS_CACHE:
            # Intents whose outcome never came (crash, cancelled job) must not grow memory
            # forever; dicts keep insertion order, so this drops the oldest.
            del self._intents[next(iter(self._intents))]

    def _load_intents(self, db: sqlite3.Connection, batch: list[_Pending]) -> None:
        """Fetch the intents this batch answers that are not cached (e.g. written before a
        restart). An outcome never shares a batch with its intent: the caller only learns
        the intent's id once that intent is committed."""
        wanted = {
            p.copy_from
            for p in batch
            if p.copy_from is not None and p.copy_from not in self._intents
        }
        if not wanted:
            return
        ids = sorted(wanted)
        placeholders = ", ".join("?" * len(ids))
        for found in db.execute(
            f"SELECT id, {', '.join(_INTENT_FIELDS)} FROM journal "
            f"WHERE phase = ? AND id IN ({placeholders})",
            (PHASE_INTENT, *ids),
        ):
            self._intents[int(found[0])] = tuple(found[1:])

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._read_lock:
            if self._closed:
                raise JournalError("The change journal is closed; restart the app.")
            try:
                self._reader.execute("BEGIN")
                try:
                    yield self._reader
                finally:
                    if self._reader.in_transaction:
                        self._reader.execute("COMMIT")
            except sqlite3.Error as exc:
                raise JournalError(self._unreadable(exc)) from exc

    def _unreadable(self, exc: sqlite3.Error) -> str:
        """Why a read failed, for the user. A journal whose entries table was deleted is said
        to be altered, as :meth:`verify` says it, not as SQLite's "no such table: journal"
        (black-box bb11: ``journal export`` and the window's list said only that)."""
        with contextlib.suppress(sqlite3.Error):
            if "journal" not in _tables(self._reader):
                return (
                    f"The change journal at {utf8_text(str(self._path))} was altered: "
                    f"{_ENTRIES_DROPPED}, so none of its entries can be read. Keep the file as "
                    "it is for review."
                )
        return f"The change journal could not be read ({exc})."

    def verify(self) -> ChainVerdict:
        """Recompute the whole chain and compare its end with the chain head; stop at the
        first entry that does not follow the one before it or does not match its hash."""
        walk = _ChainWalk()
        with self._read() as db:
            if "journal" not in _tables(db):
                return self._broken(0, None, _ENTRIES_DROPPED)
            head = walk.head(db)
            for link in walk.links(db):
                if not link.follows:
                    gone = link.entry_id > link.after + 1
                    return self._broken(
                        walk.rows,
                        link.entry_id,
                        f"{_span(link.after + 1, link.entry_id - 1)} deleted (entry "
                        f"{link.entry_id} does not follow the entry before it)"
                        if gone
                        else f"entry {link.entry_id} does not follow the entry before it "
                        "(one of the two was rewritten)",
                    )
                if not link.matches:
                    return self._broken(
                        walk.rows,
                        link.entry_id,
                        f"entry {link.entry_id} does not match its hash (it was edited)",
                    )
        rows, last_id, expected_prev = walk.rows, walk.last_id, walk.last_hash
        end = _head_end(head, rows, last_id, expected_prev)
        if end is not None:
            return self._broken(rows, end.first_bad_id, end.said)
        noun = "entry" if rows == 1 else "entries"
        return ChainVerdict(True, rows, None, f"The change journal is intact ({rows:,} {noun}).")

    @staticmethod
    def _broken(rows: int, first_bad_id: int | None, why: str) -> ChainVerdict:
        return ChainVerdict(False, rows, first_bad_id, f"The change journal was altered: {why}.")

    def check_chain(self) -> ChainCheck:
        """Recompute the whole chain like :meth:`verify`, but go on past a break and name
        every entry at one (black-box R4 #4: an evidence pack showed an entry edited with
        SQLite as if it were the record): an entry that does not match its hash, one that
        does not follow the entry before it (both are named: either may have been rewritten
        with a new hash), one after deleted entries, and the last entry when it does not
        match the chain head. After a break the chain is followed from the stored hash, so
        one edited entry marks that entry alone. Entries missing from the middle are said as
        deleted there, not as the latest deleted: the head's row count still counts them.

        About 0.75 s per 100,000 entries (the same pass as :meth:`verify`), read from a
        snapshot while entries are appended."""
        breaks: dict[int, str] = {}
        broken = 0
        # The ids missing between entries (first, last): deleted from the middle of the chain.
        gaps: list[tuple[int, int]] = []
        edited: list[int] = []

        def mark(entry_id: int, why: str) -> None:
            nonlocal broken
            if entry_id in breaks:
                breaks[entry_id] += f"; {why}"
                return
            broken += 1
            if len(breaks) < _BREAKS_KEPT:
                breaks[entry_id] = why

        walk = _ChainWalk()
        with self._read() as db:
            dropped = "journal" not in _tables(db)
            head = walk.head(db)
            for link in walk.links(db):
                entry_id, last_id = link.entry_id, link.after
                if entry_id > last_id + 1:
                    gaps.append((last_id + 1, entry_id - 1))
                    mark(entry_id, f"{_span(last_id + 1, entry_id - 1)} deleted before it")
                elif not link.follows:
                    if last_id:
                        mark(last_id, f"the entry after it ({entry_id:,}) does not follow it")
                    mark(
                        entry_id,
                        "it does not follow the entry before it"
                        + (f" ({last_id:,})" if last_id else ""),
                    )
                if not link.matches:
                    edited.append(entry_id)
                    mark(entry_id, "it does not match its hash (it was edited)")
        rows, last_id, expected_prev = walk.rows, walk.last_id, walk.last_hash
        said = [_ENTRIES_DROPPED] if dropped else []
        if gaps:
            said.append(_deleted_said(gaps))
        if edited:
            said.append(_edited_said(edited))
        end = _head_end(head, rows + sum(b - a + 1 for a, b in gaps), last_id, expected_prev)
        if end is not None:
            said.append(end.said)
            if last_id and end.marks_last:
                mark(last_id, end.marks_last)
        noun = "entry" if rows == 1 else "entries"
        head_hash, head_entries = (None, None) if head is None else (str(head[1]), int(head[2]))
        if not breaks and not said:
            message = f"The change journal is intact ({rows:,} {noun} checked)."
            return ChainCheck(True, rows, {}, 0, message, head_hash, head_entries)
        if broken:
            said.append(
                f"{broken:,} {'entry is' if broken == 1 else 'entries are'} at a break in its "
                f"chain ({', '.join(f'{i:,}' for i in list(breaks)[:_BREAKS_SAID])}"
                f"{', …' if broken > _BREAKS_SAID else ''})"
            )
        message = f"The change journal was altered ({rows:,} {noun} checked): {'; '.join(said)}."
        return ChainCheck(False, rows, breaks, broken, message, head_hash, head_entries)

    def chain_warning(self) -> str | None:
        """The sentence saying the chain is broken, the first time it is asked of this
        journal and found so (:meth:`check_chain`); None when it is intact or was said.

        For a job start: the job still runs (its own entries are chained on from the head
        as ever), and whoever reads its report knows breaks before it are not its doing."""
        with self._lock:
            if self._chain_said:
                return None
            self._chain_said = True
        found = self.check_chain()
        return None if found.ok else found.message

    @staticmethod
    def _where(
        text: str,
        operation: str,
        phone: str,
        since: str,
        until: str,
        job: str,
        max_id: int | None = None,
    ) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        if max_id is not None:
            clauses.append("id <= ?")
            params.append(max_id)
        if text.strip():
            pattern = f"%{_like_escape(text.strip())}%"
            searched = (
                "target",
                "phone",
                "note",
                "error",
                "operation",
                "job",
                "before",
                "after",
                "actor",
            )
            clauses.append(
                "(" + " OR ".join(f"COALESCE({c}, '') LIKE ? ESCAPE '\\'" for c in searched) + ")"
            )
            params.extend([pattern] * len(searched))
        if operation.strip():
            op = operation.strip()
            # "dnc.*" or "dnc." select a family of operations.
            if op.endswith(("*", ".")):
                clauses.append("operation LIKE ? ESCAPE '\\'")
                params.append(_like_escape(op.rstrip("*")) + "%")
            elif "|" in op:
                # "dnc.insert|dnc.insert.settled|…": any of them (see operation_filter).
                ops = [o.strip() for o in op.split("|")]
                clauses.append(f"operation IN ({', '.join('?' * len(ops))})")
                params.extend(ops)
            else:
                clauses.append("operation = ?")
                params.append(op)
        if phone.strip():
            clauses.append("phone = ?")
            params.append(phone.strip())
        if job.strip():
            clauses.append("job = ?")
            params.append(job.strip())
        lower = time_bound(since, end=False)
        if lower:
            clauses.append("time >= ?")
            params.append(lower)
        upper = time_bound(until, end=True)
        if upper:
            clauses.append("time < ?")  # time_bound's end is exclusive
            params.append(upper)
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params

    def unanswered_intents(self, job: str) -> list[JournalEntry]:
        """The job's intents that have no outcome (the process stopped while they were in
        flight or waiting to be sent), oldest first."""
        if not job:
            return []
        with self._read() as db:
            ids = [
                row[0]
                for row in db.execute(
                    "SELECT id FROM journal WHERE job = ? AND phase = ?"
                    " EXCEPT SELECT ref FROM journal WHERE job = ? AND phase = ?",
                    (job, PHASE_INTENT, job, PHASE_OUTCOME),
                )
            ]
            entries: list[JournalEntry] = []
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ", ".join("?" * len(chunk))
                cursor = db.execute(f"{_SELECT} WHERE id IN ({marks}) ORDER BY id", chunk)
                entries += [_entry(r) for r in cursor]
        return entries

    def latest_intent(
        self, *, job: str, operation: str, target: str, phone: str = ""
    ) -> int | None:
        """The id of ``job``'s latest intent of ``operation`` (``dnc.delete``) on ``target``
        (``dnc:+1303… scope=global``), or None: the write a look-up or a job's conclusion
        about it settles. Searched by ``phone`` (its index) when given, else by the job."""
        if not job:
            return None
        sql = "SELECT id FROM journal WHERE job = ? AND phase = ? AND +operation = ? AND target = ?"
        params: list[Any] = [job, PHASE_INTENT, operation, target]
        if phone:
            sql += " AND phone = ? AND phone != ''"
            params.append(phone)
        else:
            # The job's partial index holds only rows with a job: without this term SQLite
            # cannot use it and scans the whole journal (code review RV).
            sql += " AND job != ''"
        with self._read() as db:
            found = db.execute(f"{sql} ORDER BY id DESC LIMIT 1", params).fetchone()
        return None if found is None else int(found[0])

    def write_outcomes(
        self, *, job: str, operation: str, phone: str, outcome: str = ""
    ) -> list[JournalEntry]:
        """The recorded outcomes of ``job``'s writes ``operation`` (``dnc.insert``) of
        ``phone`` (E.164), newest first; with ``outcome``, only those that ended so."""
        return self.job_writes(
            job=job, operation=operation, phone=phone, phase=PHASE_OUTCOME, outcome=outcome
        )

    def job_writes(
        self, *, job: str, operation: str, phone: str, phase: str = "", outcome: str = ""
    ) -> list[JournalEntry]:
        """``job``'s entries of writes ``operation`` (``dnc.delete``) of ``phone`` (E.164),
        intents and outcomes (or those of ``phase``; with ``outcome``, those that ended so),
        newest first.

        A resumed job asks this of each row it sends again, so it must stay cheap on a
        journal of millions of entries: the query names the phone index's own condition
        (``phone != ''``, which a bound value does not imply) and keeps the operation index out
        of the choice (``+operation``), so it searches one number's entries rather than every
        insert's or delete's."""
        if not (job and phone):
            return []
        sql = f"{_SELECT} WHERE phone = ? AND phone != '' AND job = ? AND +operation = ?"
        params: list[Any] = [phone, job, operation]
        if phase:
            sql += " AND phase = ?"
            params.append(phase)
        if outcome:
            sql += " AND outcome = ?"
            params.append(outcome)
        with self._read() as db:
            return [_entry(r) for r in db.execute(f"{sql} ORDER BY id DESC", params)]

    def query(
        self,
        *,
        text: str = "",
        operation: str = "",
        phone: str = "",
        since: str = "",
        until: str = "",
        job: str = "",
        limit: int = 1000,
        offset: int = 0,
        max_id: int | None = None,
    ) -> list[JournalEntry]:
        """Matching entries, newest first.

        Entries are appended while a view pages through them, which shifts offsets; pass
        ``max_id`` (the newest id of the first page) to page over a fixed set.
        """
        where, params = self._where(text, operation, phone, since, until, job, max_id)
        with self._read() as db:
            cursor = db.execute(
                f"{_SELECT}{where} ORDER BY id DESC LIMIT ? OFFSET ?",
                (*params, max(0, limit), max(0, offset)),
            )
            return [_entry(r) for r in cursor]

    def count(
        self,
        *,
        text: str = "",
        operation: str = "",
        phone: str = "",
        since: str = "",
        until: str = "",
        job: str = "",
        max_id: int | None = None,
    ) -> int:
        where, params = self._where(text, operation, phone, since, until, job, max_id)
        with self._read() as db:
            (n,) = db.execute(f"SELECT COUNT(*) FROM journal{where}", params).fetchone()
        return int(n)

    def operations(self) -> list[str]:
        """The operations this journal holds entries of, sorted (read from their index)."""
        with self._read() as db:
            return sorted(str(r[0]) for r in db.execute("SELECT DISTINCT operation FROM journal"))

    def get(self, entry_id: int) -> JournalEntry | None:
        with self._read() as db:
            raw = db.execute(f"{_SELECT} WHERE id = ?", (entry_id,)).fetchone()
        return _entry(raw) if raw is not None else None

    def matching(
        self,
        *,
        text: str = "",
        operation: str = "",
        phone: str = "",
        since: str = "",
        until: str = "",
        job: str = "",
        cancelled: Callable[[], bool] = lambda: False,
    ) -> Iterator[JournalEntry]:
        """Every entry matching the filter, newest first, read a page at a time over the set
        there was at the first page (entries appended meanwhile are not included), for an
        export of the window or of ``dnc-desk journal export``; stops when ``cancelled``."""
        offset = 0
        max_id: int | None = None
        while not cancelled():
            page = self.query(
                text=text,
                operation=operation,
                phone=phone,
                since=since,
                until=until,
                job=job,
                limit=_EXPORT_PAGE,
                offset=offset,
                max_id=max_id,
            )
            if page and max_id is None:
                max_id = page[0].id
            yield from page
            if len(page) < _EXPORT_PAGE:
                return
            offset += len(page)

    # -- export -----------------------------------------------------------------------

    def export_xlsx(self, path: Path, entries: Iterable[JournalEntry]) -> int:
        """Write entries to an xlsx file (atomically) and return how many were written.

        Phone numbers and every other text go in as text cells with their exact text (secrets
        redacted); text that could start a formula (``+12025550123``, ``-called twice``,
        ``=HYPERLINK(…)``) carries Excel's quotePrefix style instead of a leading ``'`` (see
        :mod:`app.core.xlsx_safe`). Entry ids stay numbers so the sheet sorts them right. The
        rows stream to a ``.part`` file beside ``path`` as they are written, not to ``$TMPDIR``.
        """
        book = SafeWorkbook(quote_prefix=True, beside=path)
        try:
            sheet = book.add_sheet(
                "Change journal",
                (8, 28, 9, 9, 16, 28, 16, 40, 16, 40, 40, 16, 40, 20, 40, 24, 20, 20),
                text_columns=(EXPORT_HEADERS.index("Phone"),),
            )
            sheet.append(EXPORT_HEADERS)
            written = 0
            for entry in entries:
                sheet.append(_export_row(entry))
                written += 1
        except BaseException:
            book.discard()
            raise
        book.save(path)
        return written


def export_csv(path: Path, entries: Iterable[JournalEntry]) -> int:
    """Write entries to a CSV file with the columns of :meth:`ChangeJournal.export_xlsx`
    (atomically, via a ``.part`` file beside ``path``) and return how many were written.
    Every cell is neutralised against formula injection (:func:`app.core.xlsx_safe.csv_cell`):
    ``+12025550123`` is written ``'+12025550123``, as the other CSV exports write it."""
    written = 0
    with SafeCsvWriter(path) as sheet:
        sheet.append(EXPORT_HEADERS)
        for entry in entries:
            sheet.append(_export_row(entry))
            written += 1
    return written


# The writes the app journals, whether or not a journal holds one yet (its events, such as
# ``dnc.insert.settled``, are known from the entries that hold them).
WRITE_OPERATIONS = (
    "dnc.insert",
    "dnc.delete",
    "dnc.update",
    "sms.insert",
    "sms.delete",
    "sms.update",
    "lead.update",
    "campaign.status",
    "job.start",
    "job.resume",
    "job.pause",
    "job.finish",
    "gate.override",
)


# The events a look-up journals to settle a write whose answer was lost: ``dnc.insert.settled``
# (it was made, or not) and ``dnc.insert.checked`` (the look-up could not tell).
SETTLING_EVENTS = ("settled", "checked")


def operation_filter(text: str, held: Iterable[str]) -> str:
    """The ``operation`` filter of :meth:`ChangeJournal.query` for what a person wrote: one
    operation (``dnc.insert``) the app writes or the journal ``held`` holds, with the events
    settling its writes (``dnc.insert.settled`` and ``.checked``: black-box bb16 F11, an export
    of the inserts left out the look-up that said whether a lost-answer insert was made), or a
    family, written ``dnc``, ``dnc.`` or ``dnc.*`` (every operation starting ``dnc.``). Raises
    :class:`JournalError` naming the known ones for any other text (black-box bb11 F6: ``dnc``
    and ``bogus`` exported nothing, exit 0)."""
    op = text.strip()
    if not op:
        return ""
    known = sorted({*WRITE_OPERATIONS, *held})
    if op in known:
        if op.rpartition(".")[2] in SETTLING_EVENTS:
            return op
        return "|".join([op, *(f"{op}.{event}" for event in SETTLING_EVENTS)])
    family = op.removesuffix("*").removesuffix(".")
    if family and any(k.startswith(family + ".") for k in known):
        return family + ".*"
    families = sorted({k.split(".", 1)[0] for k in known})
    raise JournalError(
        f"{op!r} is no operation of the change journal; give one of {', '.join(known)}, or a "
        f"family for all of its operations ({', '.join(families)}; dnc, dnc. and dnc.* are "
        "the same)."
    )


# A journal is made in milliseconds: a part of one older than this was left by a process
# killed while making it (black-box B19 F4: they stayed for good, readable by others).
_STALE_PART_SECONDS = 3600.0


def _remove_stale_parts(path: Path) -> None:
    """Delete what :func:`_create` of a killed process left beside ``path`` (its ``.new`` file
    and that file's -wal and -shm), once old enough that no process can still be making it."""
    cutoff = time.time() - _STALE_PART_SECONDS
    # Only _create's names: <journal>.<pid>-<thread>.new and its -wal and -shm (re-test U3
    # F2: "journal.sqlite3.copy.new", a person's file, went too).
    made = re.compile(re.escape(path.name) + r"\.[0-9]+-[0-9]+\.new(?:-wal|-shm)?")
    try:
        names = [n for n in os.listdir(path.parent) if made.fullmatch(n)]
    except OSError:
        return
    for name in names:
        part = path.with_name(name)
        with contextlib.suppress(OSError):
            if part.stat().st_mtime < cutoff:
                part.unlink()


def _create(path: Path) -> None:
    """Build a new journal under another name and link it into place whole, so a journal of
    0 bytes is never one the app left (a process stopped between creating the file and
    writing its first page) and can be refused as emptied."""
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size:
        # SQLite would read it into the new journal as if it were that journal's.
        raise JournalError(
            f"{wal} is the write-ahead part of a change journal that is no longer at {path}, "
            "so nothing was sent: move it next to that journal (it holds its latest entries), "
            "or aside, so a new journal is started."
        )
    new = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.new")
    try:
        db = sqlite3.connect(new, isolation_level=None)
        try:
            db.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # before WAL writes the header
            db.execute("PRAGMA journal_mode = WAL")  # kept in the file's header
            db.executescript(_SCHEMA)
            db.execute(
                "INSERT INTO chain_head (one, last_id, last_hash, rows) VALUES (1, 0, ?, 0)",
                (GENESIS_HASH,),
            )
        finally:
            db.close()  # the last connection: its WAL is folded in and removed
        # Phone numbers and people's data: owner-only, like the rest of the data dir.
        with contextlib.suppress(OSError):
            os.chmod(new, 0o600)
        try:
            os.link(new, path)
        except FileExistsError:
            pass  # another instance made it first: that one is used
        except OSError:
            # A file system without hard links: replaced whole all the same.
            if not path.exists():
                os.replace(new, path)
    finally:
        for leftover in (new, new.with_name(new.name + "-wal"), new.with_name(new.name + "-shm")):
            with contextlib.suppress(OSError):
                leftover.unlink()


# SQLite's codes for a WAL journal opened read only where its -shm cannot be made.
_NO_SHARED_MEMORY = frozenset({sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY})


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """``path`` opened read only (``mode=ro``: a -wal beside it is read, and the -wal and -shm
    SQLite shares with a writer may be made beside it, the journal itself never written).

    In a folder this user cannot write to (a copy on read-only media, another user's data
    folder) SQLite cannot make the -shm a WAL journal is read with; when no -wal holds entries
    not yet in the file, no process is writing it and the file alone is the journal, so it is
    read as one that cannot change (``immutable=1``)."""
    uri = path.absolute().as_uri()
    db = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA busy_timeout = 10000")
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.Error as exc:
        db.close()
        if _primary_code(exc) not in _NO_SHARED_MEMORY:
            raise
        wal = path.with_name(path.name + "-wal")
        if wal.exists() and wal.stat().st_size:
            raise JournalError(
                f"The change journal at {utf8_text(str(path))} cannot be read by this user: its "
                f"latest entries are in {wal.name} beside it, which SQLite reads only with a "
                f"{path.name}-shm file it cannot make in that folder ({exc}). Run the command as "
                "the user who writes the journal, or copy the journal with its -wal file to a "
                "folder this user can write to and read the copy."
            ) from exc
    return sqlite3.connect(
        f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None, check_same_thread=False
    )


def _actor_as_blank(db: sqlite3.Connection) -> None:
    """Read a journal made before actors were recorded, opened read only (its ``actor`` column
    is not added): a temporary view of the same name, in the connection's own temp schema
    (which SQLite searches first), gives each row its ``''``, under which it was hashed."""
    names = [str(r[1]) for r in db.execute("PRAGMA main.table_info(journal)")]
    if not names or "actor" in names:
        return
    shown = ", ".join("'' AS actor" if c == "actor" else c for c in _COLUMNS)
    db.execute(f"CREATE TEMP VIEW journal AS SELECT {shown} FROM main.journal")


def _folder_not_journal(path: Path, reader: str) -> str:
    """The sentence refusing a journal path that is a folder (black-box bb11 F3: it was said
    to be a permission to give)."""
    return (
        f"The change journal at {utf8_text(str(path))} is a folder, not a journal file, so "
        f"{reader or 'nothing was sent'}. Look at what the folder holds and move it aside; "
        "DNC Desk keeps its journal in a file of that name."
    )


def _add_actor_column(db: sqlite3.Connection) -> None:
    """Give a journal made before actors were recorded its ``actor`` column; its rows keep
    ``''``, under which they hash as they were written."""
    names = {str(r[1]) for r in db.execute("PRAGMA table_info(journal)")}
    if "actor" not in names:
        db.execute("ALTER TABLE journal ADD COLUMN actor TEXT NOT NULL DEFAULT ''")


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):  # no passwd entry nor login variables
        return ""


def _host_name() -> str:
    try:
        return socket.gethostname()
    except OSError:
        return ""


@functools.cache
def current_actor() -> str:
    """Who writes this process's journal rows: ``login@host`` (black-box bb5 F2: counsel
    asking who removed a number got only "someone with this data folder"). Looked up once
    per process: rows are written per imported row. A part that cannot be told is
    ``unknown``, so the row still says what is known."""
    login = " ".join(_login_name().split()) or "unknown"
    host = " ".join(_host_name().split()) or "unknown"
    return f"{login}@{host}"


def _check(db: sqlite3.Connection, path: Path, reader: str) -> None:
    """Refuse a journal SQLite finds damaged, before anything is written to it."""
    try:
        found = [str(row[0]) for row in db.execute(f"PRAGMA quick_check({_CHECK_PROBLEMS})")]
    except sqlite3.DatabaseError as exc:
        if _primary_code(exc) in _DAMAGED_CODES or "malformed" in str(exc):
            raise JournalError(damaged_journal(path, str(exc), reader)) from exc
        raise
    if found != ["ok"]:
        found_text = "SQLite's check found: " + _one_line(found)
        raise JournalError(damaged_journal(path, found_text, reader))


def _open_failure(path: Path, exc: sqlite3.Error, reader: str) -> str:
    code = _primary_code(exc)
    if code in _DAMAGED_CODES:
        return damaged_journal(path, str(exc), reader)
    locked = _unwritable_file(path)
    if locked:
        return locked
    if code == sqlite3.SQLITE_FULL:
        return (
            f"The change journal at {path} cannot be opened: the disk holding it is full "
            f"({exc}), so nothing was sent. Free some space and try again."
        )
    return (
        f"The change journal at {path} cannot be opened ({exc}); check the disk and the "
        "file's permissions."
    )


def _unwritable_file(path: Path) -> str:
    """The sentence refusing a journal whose file, or its -wal or -shm, cannot be written, in
    a folder that can (the folder itself is checked before: AppPaths.check_writable); "" when
    each can be. SQLite says only "attempt to write a readonly database" and advice to check
    permissions does not help an immutable file (black-box B35 F5/F6)."""
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            with file.open("r+b"):
                pass
        except FileNotFoundError:
            continue
        except OSError as exc:
            named = "it" if file == path else f"{file.name} beside it"
            if exc.errno == errno.EROFS:
                why, remedy = f"{named} is on a read-only file system", "mount its disk read-write"
            elif exc.errno == errno.EPERM:
                why = (
                    f"writing to {named} is not permitted (an immutable attribute or a security "
                    "policy)"
                )
                remedy = "have that restriction lifted"
            else:
                said = "permission denied" if exc.errno == errno.EACCES else exc.strerror
                why = f"this user may not write to {named} ({said or exc})"
                remedy = "give this user write permission on it"
            return (
                f"The change journal at {utf8_text(str(path))} cannot be written: {why}; nothing "
                f"was sent. To go on, {remedy}; the journal is the record of earlier changes, so "
                "keep it."
            )
    return ""


def _export_row(entry: JournalEntry) -> list[Any]:
    # Redacted here, neutralised and fitted to Excel's cell limit by the SafeSheet.
    def text(value: str) -> str:
        return SECRETS.redact(value)

    def mapping(value: dict[str, Any] | None) -> str:
        if value is None:
            return ""
        return text(json.dumps(value, sort_keys=True, ensure_ascii=False, default=str))

    return [
        entry.id,
        text(entry.time),
        text(entry.phase),
        entry.ref,
        text(entry.connection),
        text(entry.base_url),
        text(entry.operation),
        text(entry.target),
        text(entry.phone),
        mapping(entry.before),
        mapping(entry.after),
        text(entry.outcome),
        text(entry.error),
        text(entry.job),
        text(entry.note),
        text(entry.actor),
        text(entry.prev_hash),
        text(entry.hash),
    ]
