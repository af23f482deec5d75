"""The job file: one SQLite file per import or removal job, written as the job runs.

It holds what the job is (file, sheet, mapping, target, scope, name, note, connection name and
base URL — never the token) and one row per sheet row: source row number, original value,
normalized number, country code, scope, state and outcome (and, for a row found already on the
list, the day its number was first there: ``honoured_on``). The runner marks a row ``sending``
(committed) before its request and writes the outcome after, so after a crash or a SIGKILL the
only rows that may be sent again are those left ``sending`` — at most the requests that were in
flight. WAL mode keeps those two commits per row cheap. Only one runner at a time sends a
job's rows: it holds the job's run lock (:mod:`app.core.job_lock`, a file beside this one).

The meta read back (:meth:`JobStore.meta`) names the job's file, name and note as text that can
be written anywhere (:func:`readable_meta`): a job staged before file names were shown by
:func:`~app.core.paths.path_text` may hold a name that is not valid UTF-8, which crashed its
resume in the journal, the report and the JSON answer (black-box R5 #1).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import errno
import functools
import json
import os
import secrets
import socket
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from app.api.scope import Scope, ScopeKind
from app.core.paths import (
    DATA_ENV,
    AppPaths,
    DataFolderError,
    path_text,
    unusable_folder,
    utf8_text,
)

SUFFIX = ".dncjob"
# Staging's marks in the meta (B14 F1). A job file is made (JobStore.create) before its rows are
# read and stored, so a process killed in between leaves a file with none or some of its rows:
# run as it is, it sent only those and called the job finished. ``staged`` is False from the
# file's making until staging's last write (job_staging), after every row is stored, sets it
# True in the same commit as its counts and warnings. A file without ``staged`` was made by an
# earlier version, whose stagings had no mark to tell: it runs as it did. ``staging_by`` names
# the process reading the file, to tell a staging going on now from one that was stopped.
STAGED = "staged"
STAGING_BY = "staging_by"
# The bytes (hex) of the path of the file a job was made from, kept when the meta's ``file``
# (the path as text: path_text) is not the path itself; see job_catalog.source_path.
SOURCE_PATH_BYTES = "source_path_bytes"


def readable_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """``meta`` with its ``file``, ``name`` and ``note`` as text that can be written anywhere;
    a ``file`` that was not keeps its bytes under :data:`SOURCE_PATH_BYTES`."""
    file = meta.get("file")
    if isinstance(file, str) and (shown := path_text(file)) != file:
        meta["file"] = shown
        with contextlib.suppress(UnicodeEncodeError):  # a surrogate that stood for no byte
            meta.setdefault(SOURCE_PATH_BYTES, os.fsencode(file).hex())
    for key in ("name", "note"):
        if isinstance(value := meta.get(key), str):
            meta[key] = utf8_text(value)
    return meta


class Outcome(StrEnum):
    """The one outcome every row ends in."""

    INSERTED = "inserted"
    ALREADY_PRESENT = "already_present"
    REMOVED = "removed"
    NOT_FOUND = "not_found"
    INVALID = "invalid"
    DUPLICATE = "duplicate_in_file"
    BLANK = "blank"
    FAILED = "failed"
    NOT_ATTEMPTED = "not_attempted"


class RowState(StrEnum):
    PENDING = "pending"
    SENDING = "sending"
    DONE = "done"


class JobStatus(StrEnum):
    READY = "ready"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    DRY_RUN = "dry_run"


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rows (
    seq INTEGER PRIMARY KEY,
    row_number INTEGER NOT NULL,
    original TEXT NOT NULL,
    national TEXT NOT NULL DEFAULT '',
    phone_code TEXT NOT NULL DEFAULT '',
    scope TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    purpose TEXT NOT NULL DEFAULT '',
    request_date TEXT NOT NULL DEFAULT '',
    damage TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL,
    outcome TEXT NOT NULL DEFAULT '',
    code TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT '',
    done_at TEXT NOT NULL DEFAULT '',
    honoured_on TEXT NOT NULL DEFAULT '',
    recheck TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS rows_state ON rows(state, seq);
"""

_ROW_COLUMNS = (
    "seq",
    "row_number",
    "original",
    "national",
    "phone_code",
    "scope",
    "reason",
    "purpose",
    "request_date",
    "damage",
    "state",
    "outcome",
    "code",
    "message",
    "done_at",
    "honoured_on",
)


def scope_text(scope: Scope) -> str:
    return str(scope)


def scope_from_text(text: str) -> Scope:
    """The inverse of :func:`scope_text`, including a purpose scope without its text."""
    if text.startswith("purpose:"):
        return Scope(ScopeKind.PURPOSE, purpose_text=text.split(":", 1)[1])
    return Scope.parse(text)


@dataclass(frozen=True, slots=True)
class JobRow:
    """One sheet row as the job file keeps it."""

    seq: int
    row_number: int
    original: str
    national: str
    phone_code: str
    scope: str
    reason: str
    purpose: str
    request_date: str
    damage: str
    state: str
    outcome: str
    code: str
    message: str
    done_at: str
    # An already-present row's request honoured on this day (YYYY-MM-DD) rather than the day
    # it ended: when its number was first on the list (set by the import, see set_honoured).
    honoured_on: str = ""


@dataclass(frozen=True, slots=True)
class NewRow:
    """A checked row to stage: ``outcome`` empty for a row to send, else its final outcome."""

    row_number: int
    original: str
    national: str = ""
    phone_code: str = ""
    scope: str = ""
    reason: str = ""
    purpose: str = ""
    request_date: str = ""
    damage: str = ""
    outcome: str = ""
    message: str = ""


# Every commit writes each page it changed to the WAL whole: a row's "sending" mark and the
# outcome committed with it change about 3 pages (the row's, and the state index's where the
# row leaves and where it enters), 12.7 KB a row in 4 KB pages (black-box B17 F1: with the
# journal, 5.8 GB written for a 100,000-row import); 3.6 KB in 1 KB pages. Its rows are short:
# staging 100,000 of them takes about as long, in a file about a fifth bigger.
PAGE_SIZE = 1024

# Marks a row's recheck (JobStore.set_recheck) handed out by JobStore.unfinished and marked
# sending by the runner (JobStore.mark_sending): its message is its staged note again, and a
# send takes it up.
_TAKEN = "taken:"
# A recheck not handed out yet (one handed out and never taken up, its row sent again as one
# in flight, is settled so: see JobStore.unfinished).
_RECHECK_LEFT = f"recheck != '' AND recheck NOT LIKE '{_TAKEN}%'"

# Up to this many outcomes go in mark_sending's single statement (well under SQLite's limit
# of 32,766 parameters); more (rare: after a pause) take a transaction of two statements.
_ONE_STATEMENT_ROWS = 64


@functools.lru_cache(maxsize=_ONE_STATEMENT_ROWS)
def _update_rows_sql(rows: int) -> str:
    """One UPDATE for ``rows`` (seq, state, outcome, message, code, done_at) parameter groups;
    a NULL leaves the column as it is (the "sending" mark changes only the state)."""
    values = ", ".join(["(?, ?, ?, ?, ?, ?)"] * rows)
    return (
        f"WITH v(seq, state, outcome, message, code, done_at) AS (VALUES {values}) "
        "UPDATE rows SET state = v.state, outcome = coalesce(v.outcome, rows.outcome),"
        " message = coalesce(v.message, rows.message), code = coalesce(v.code, rows.code),"
        " done_at = coalesce(v.done_at, rows.done_at) FROM v WHERE rows.seq = v.seq"
    )


def new_job_id(kind: str) -> str:
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    return f"{kind}-{stamp}-{secrets.token_hex(3)}"


def utc_now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


def _not_writable(path: Path, new: bool) -> DataFolderError | None:
    """Why the job file ``path`` (``new``: to be made), or the folder it is in, cannot be
    written, as the refusal to raise; None when both can be (the file is then damaged or not a
    job file). Black-box R5 #4: a resume in a data folder on a read-only file system called
    the job file damaged."""
    folder = path.parent
    try:
        fd, probe = tempfile.mkstemp(prefix=".write-test-", dir=folder)
        os.close(fd)
        os.unlink(probe)
        if not new:
            with path.open("r+b"):
                pass
    except OSError as exc:
        failure = exc
    else:
        return None
    data = AppPaths.locate()
    if new and Path(os.path.abspath(folder)) == data.jobs_dir:
        # As AppPaths.ensure says it of the data folder (a new job in it).
        named = OSError(failure.errno, failure.strerror, os.fspath(data.jobs_dir))
        return DataFolderError(
            unusable_folder(data.data_dir, "data folder", DATA_ENV, data.jobs_dir, named)
        )
    held = "it" if failure.filename == os.fspath(path) else f"its folder {path_text(folder)}"
    if failure.errno == errno.EROFS:
        why = "it is on a read-only file system"
    elif failure.errno in (errno.EACCES, errno.EPERM):
        why = f"{held} may not be written (permission denied)"
    else:
        why = f"{held} cannot be written ({failure.strerror or failure})"
    if new:
        return DataFolderError(
            f"The job file {path_text(path)} cannot be made: {why}; nothing was sent."
        )
    where = "the folder" if held != "it" else "it"
    return DataFolderError(
        f"The job file {path_text(path)} cannot be written: {why}; the file is not damaged, "
        f"and nothing was sent. Make {where} writable, or copy the job file to a folder that "
        "can be written and give the copy's path to --resume."
    )


class JobStore:
    """One job file. Rows are marked and closed from the runner's worker threads and read from
    others (a GUI poll); one lock guards the shared connection, another the queue of outcomes
    not committed yet."""

    def __init__(self, path: Path) -> None:
        self.path = path
        new = not path.exists()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        # Outcomes not committed yet; their own lock, so recording one never waits for a commit.
        self._done_lock = threading.Lock()
        self._done: list[tuple[str, str, str, str, str, int]] = []
        # Rows with a recheck unfinished() handed out, not yet marked sending: seq -> their
        # recheck and staged note, written to the job file by mark_sending.
        self._handed: dict[int, tuple[str, str]] = {}
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.DatabaseError as exc:
            if (refusal := _not_writable(path, new)) is not None:
                raise refusal from exc
            raise
        try:
            if new:
                # Set before WAL mode writes the file's header; an existing file keeps its own.
                self._db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            self._db.execute("PRAGMA journal_mode = WAL")
            # NORMAL in WAL survives a killed process (only a power cut can lose the last
            # commits).
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute("PRAGMA busy_timeout = 10000")
            self._db.executescript(_SCHEMA)
            self._add_columns()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            # SQLite says "unable to open database file" both for a damaged file and for one
            # it may not write beside (WAL makes -wal and -shm files): tell them apart.
            if (refusal := _not_writable(path, new)) is not None:
                raise refusal from exc
            raise
        if new:
            with contextlib.suppress(OSError):
                os.chmod(path, 0o600)

    def _add_columns(self) -> None:
        """Give a job file written before rows had ``honoured_on`` or ``recheck`` the column
        (empty: its rows count to the day they ended, as they did, and have nothing to
        redo)."""
        for column in ("honoured_on", "recheck"):
            columns = {str(c[1]) for c in self._db.execute("PRAGMA table_info(rows)")}
            if column in columns:
                continue
            try:
                self._db.execute(f"ALTER TABLE rows ADD COLUMN {column} TEXT NOT NULL DEFAULT ''")
            except sqlite3.OperationalError:
                # Another process opening the same file added it first.
                columns = {str(c[1]) for c in self._db.execute("PRAGMA table_info(rows)")}
                if column not in columns:
                    raise

    @classmethod
    def create(cls, jobs_dir: Path, job_id: str, meta: Mapping[str, Any]) -> JobStore:
        path = jobs_dir / f"{job_id}{SUFFIX}"
        if path.exists():
            raise FileExistsError(f"job file {path} already exists")
        store = cls(path)
        store.set_meta(
            {
                **meta,
                "job_id": job_id,
                "status": JobStatus.READY.value,
                STAGED: False,
                STAGING_BY: {"pid": os.getpid(), "host": socket.gethostname()},
            }
        )
        return store

    @classmethod
    def locate(cls, jobs_dir: Path, job: str) -> Path:
        """A job file by id (as printed by the CLI) or by path."""
        candidate = Path(job)
        if candidate.suffix == SUFFIX and candidate.is_file():
            return candidate
        by_id = jobs_dir / f"{job}{SUFFIX}"
        if by_id.is_file():
            return by_id
        raise FileNotFoundError(f"no job {job!r} in {jobs_dir}")

    def close(self) -> None:
        with self._lock:
            try:
                self.flush()
            finally:
                # Closed even when the last commit fails (a full disk): its rows are still
                # "sending" in the file, which a resume settles.
                self._db.close()

    def __enter__(self) -> JobStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- meta ---------------------------------------------------------------------------

    def set_meta(self, values: Mapping[str, Any]) -> None:
        rows = [(k, json.dumps(v)) for k, v in values.items()]
        with self._lock:
            done = self._take_done()
            try:
                self._db.execute("BEGIN")
                self._write(done)
                self._db.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", rows)
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback(done)
                raise

    def meta(self) -> dict[str, Any]:
        with self._lock:
            rows = self._db.execute("SELECT key, value FROM meta").fetchall()
        return readable_meta({k: json.loads(v) for k, v in rows})

    @property
    def status(self) -> str:
        return str(self.meta().get("status", ""))

    def set_status(self, status: JobStatus, **extra: Any) -> None:
        self.set_meta({"status": status.value, **extra})

    # -- staging ------------------------------------------------------------------------

    def add_rows(self, rows: Iterable[NewRow], batch: int = 5000) -> int:
        """Stage checked rows in one transaction per ``batch``; returns how many."""
        sql = (
            "INSERT INTO rows(row_number, original, national, phone_code, scope, reason, purpose,"
            " request_date, damage, state, outcome, message, done_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        count = 0
        chunk: list[tuple[Any, ...]] = []
        now = utc_now()

        def flush() -> None:
            with self._lock:
                self._db.execute("BEGIN")
                self._db.executemany(sql, chunk)
                self._db.execute("COMMIT")
            chunk.clear()

        for r in rows:
            final = bool(r.outcome)
            chunk.append(
                (
                    r.row_number,
                    r.original,
                    r.national,
                    r.phone_code,
                    r.scope,
                    r.reason,
                    r.purpose,
                    r.request_date,
                    r.damage,
                    RowState.DONE.value if final else RowState.PENDING.value,
                    r.outcome,
                    r.message,
                    now if final else "",
                )
            )
            count += 1
            if len(chunk) >= batch:
                flush()
        if chunk:
            flush()
        return count

    def restage(
        self, numbers: Iterable[int], change: Callable[[JobRow], tuple[str, str]], chunk: int = 500
    ) -> int:
        """Give the rows still to send whose sheet row numbers are ``numbers`` the request date
        and message ``change`` returns for each, in one transaction; returns how many.

        For staging only, before the job is sent: a number's earliest request date can come
        from a row after its first, which is stored by then (see
        :attr:`~app.core.sheet_check.CheckedRow.replaced`). An index on the row numbers, made
        for this and dropped after it, finds them without a pass over the rows for each.
        """
        wanted = list(numbers)
        if not wanted:
            return 0
        columns = ", ".join(_ROW_COLUMNS)
        count = 0
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.execute("CREATE INDEX restage_rows ON rows(row_number)")
                for start in range(0, len(wanted), chunk):
                    part = wanted[start : start + chunk]
                    found = self._db.execute(
                        f"SELECT {columns} FROM rows WHERE row_number IN"
                        f" ({', '.join('?' * len(part))}) AND state = ? AND outcome = ''",
                        (*part, RowState.PENDING.value),
                    ).fetchall()
                    rows = [JobRow(*values) for values in found]
                    changed = [(*change(row), row.seq) for row in rows]
                    self._db.executemany(
                        "UPDATE rows SET request_date = ?, message = ? WHERE seq = ?", changed
                    )
                    count += len(changed)
                self._db.execute("DROP INDEX restage_rows")
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        return count

    # -- running ------------------------------------------------------------------------

    def unfinished(self, chunk: int = 500) -> Iterator[JobRow]:
        """Rows still to send (``sending`` ones first: they were in flight when the job
        stopped), read in chunks so a huge job never sits in memory; then the rows done whose
        look-ups the job's stop cut short (:meth:`set_recheck`), each with its staged note
        back as its message (what the runner keeps in front of what the send says), "done"
        still: the sender makes its look-ups again (black-box B28 F2)."""
        yield from self._rows_in(RowState.SENDING, chunk)
        yield from self._rows_in(RowState.PENDING, chunk)
        last = 0
        while True:
            with self._lock:
                found = self._db.execute(
                    f"SELECT {', '.join(_ROW_COLUMNS)}, recheck FROM rows"
                    f" WHERE {_RECHECK_LEFT} AND state = ? AND seq > ? ORDER BY seq LIMIT ?",
                    (RowState.DONE.value, last, chunk),
                ).fetchall()
            if not found:
                return
            for *values, recheck in found:
                row = JobRow(*values)
                staged = str(json.loads(recheck).get("staged", ""))
                # Taken up in the job file only when the runner marks it sending: a look at
                # whether any row is left (the CLI's next(unfinished())) takes nothing
                # (black-box B28: it took a paused job's only recheck, which then was lost).
                with self._lock:
                    self._handed[row.seq] = (recheck, staged)
                yield dataclasses.replace(row, message=staged)
            last = found[-1][0]

    def set_recheck(self, seq: int, what: Mapping[str, Any]) -> None:
        """Record that row ``seq``'s look-ups were cut short by the job's stop, with what
        the sender needs to make them again on resume (its staged note, what its send said):
        see :meth:`unfinished`. Committed now, ahead of the row's outcome."""
        with self._lock:
            self._db.execute(
                "UPDATE rows SET recheck = ? WHERE seq = ?", (json.dumps(dict(what)), seq)
            )

    def take_recheck(self, seq: int) -> dict[str, Any] | None:
        """What :meth:`set_recheck` recorded for row ``seq`` that :meth:`unfinished` handed
        out, cleared (None when nothing is)."""
        with self._lock:
            found = self._db.execute("SELECT recheck FROM rows WHERE seq = ?", (seq,)).fetchone()
            if not found or not str(found[0]).startswith(_TAKEN):
                return None
            self._db.execute("UPDATE rows SET recheck = '' WHERE seq = ?", (seq,))
        return dict(json.loads(str(found[0])[len(_TAKEN) :]))

    def first_recheck(self) -> int | None:
        """The first row with look-ups left for a resume or being made again
        (:meth:`set_recheck`; None: none): "done" still, its message is not its last."""
        with self._lock:
            found = self._db.execute("SELECT min(seq) FROM rows WHERE recheck != ''").fetchone()
        return None if found is None or found[0] is None else int(found[0])

    def rechecks(self) -> int:
        """How many done rows have look-ups left for a resume (:meth:`set_recheck`)."""
        with self._lock:
            found = self._db.execute(
                f"SELECT count(*) FROM rows WHERE {_RECHECK_LEFT} AND state = ?",
                (RowState.DONE.value,),
            ).fetchone()
        return int(found[0])

    def _rows_in(self, state: RowState, chunk: int) -> Iterator[JobRow]:
        last = 0
        while True:
            with self._lock:
                batch = self._db.execute(
                    f"SELECT {', '.join(_ROW_COLUMNS)} FROM rows"
                    " WHERE state = ? AND seq > ? ORDER BY seq LIMIT ?",
                    (state.value, last, chunk),
                ).fetchall()
            if not batch:
                break
            for values in batch:
                yield JobRow(*values)
            last = batch[-1][0]

    def mark_sending(self, seq: int) -> None:
        """Commit ``seq`` as in flight, together with the outcomes written since the last
        commit: one transaction per request instead of two (the store alone: 1.7x rows/s).

        The usual case (a few outcomes and one mark) is a single UPDATE statement, committed
        on its own: every statement releases and retakes the GIL, and with 16 import threads
        each retake can wait behind another thread, while the other workers queue for the
        next row (measured: 0.66 -> 0.3 ms per mark in a 16-wide import).
        """
        with self._lock:
            done = self._take_done()
            handed = self._handed.pop(seq, None)
            try:
                if handed is not None:
                    # A done row's recheck taken up (see unfinished), with its mark.
                    recheck, staged = handed
                    self._db.execute("BEGIN")
                    self._write(done)
                    self._db.execute(
                        "UPDATE rows SET state = ?, message = ?, recheck = ? WHERE seq = ?",
                        (RowState.SENDING.value, staged, _TAKEN + recheck, seq),
                    )
                    self._db.execute("COMMIT")
                elif len(done) < _ONE_STATEMENT_ROWS:
                    marks: list[Any] = [seq, RowState.SENDING.value, None, None, None, None]
                    for state, outcome, message, code, done_at, done_seq in done:
                        marks += [done_seq, state, outcome, message, code, done_at]
                    self._db.execute(_update_rows_sql(1 + len(done)), marks)
                else:
                    self._db.execute("BEGIN")
                    self._write(done)
                    self._db.execute(
                        "UPDATE rows SET state = ? WHERE seq = ?", (RowState.SENDING.value, seq)
                    )
                    self._db.execute("COMMIT")
            except BaseException:
                self._rollback(done)
                if handed is not None:
                    self._handed[seq] = handed
                raise

    def mark_pending(self, seq: int) -> None:
        """Put ``seq`` back to pending: it was stopped before its request was sent, so a resume
        sends it as a first send (not "sent again"). Committed now, with the queued outcomes."""
        with self._lock:
            done = self._take_done()
            try:
                self._db.execute("BEGIN")
                self._write(done)
                self._db.execute(
                    "UPDATE rows SET state = ? WHERE seq = ? AND state = ?",
                    (RowState.PENDING.value, seq, RowState.SENDING.value),
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback(done)
                raise

    def mark_done(self, seq: int, outcome: Outcome, message: str = "", code: str = "") -> None:
        """Record an outcome; it is committed with the next :meth:`mark_sending` or
        :meth:`flush`, so a crash in between only means that row is sent again (idempotent).

        Takes only the small lock of the outcome queue, so a worker never waits here for
        another worker's commit."""
        entry = (RowState.DONE.value, outcome.value, message, code, utc_now(), seq)
        with self._done_lock:
            self._done.append(entry)

    def set_honoured(self, seq: int, day: str) -> None:
        """Record the day (YYYY-MM-DD, or "" for none) row ``seq``'s request was honoured when
        that is not the day it ends: an already-present number was on the list before the job
        found it. Committed now, ahead of the row's outcome (a crash in between sends the row
        again, which records it again)."""
        with self._lock:
            self._db.execute("UPDATE rows SET honoured_on = ? WHERE seq = ?", (day, seq))

    def _flush_to_read(self) -> None:
        """Commit the queued outcomes before a read. On a full disk they stay queued (for a
        later commit; a resume settles their rows, still "sending" in the file) and the read
        shows what is saved, which is what a resume goes on from: a job stopped by a full disk
        can still say its counts."""
        try:
            self.flush()
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF != sqlite3.SQLITE_FULL:
                raise

    def _take_done(self) -> list[tuple[str, str, str, str, str, int]]:
        with self._done_lock:
            done, self._done = self._done, []
        return done

    def _rollback(self, done: list[tuple[str, str, str, str, str, int]]) -> None:
        """Undo a failed commit and queue its outcomes again, ahead of newer ones."""
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")
        with self._done_lock:
            self._done[:0] = done

    def _write(self, done: list[tuple[str, str, str, str, str, int]]) -> None:
        if done:
            self._db.executemany(
                "UPDATE rows SET state = ?, outcome = ?, message = ?, code = ?, done_at = ?"
                " WHERE seq = ?",
                done,
            )

    def flush(self) -> None:
        """Commit the outcomes not committed yet."""
        with self._lock:
            done = self._take_done()
            if not done:
                return
            try:
                self._db.execute("BEGIN")
                self._write(done)
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback(done)
                raise

    def mark_not_attempted(self, message: str) -> int:
        """Close every row never sent (a cancelled job); returns how many. ``message`` follows
        a row's staged note (a damaged cell, a late request), which the report keeps."""
        with self._lock:
            self.flush()
            cur = self._db.execute(
                "UPDATE rows SET state = ?, outcome = ?, done_at = ?,"
                " message = CASE WHEN message = '' THEN ? ELSE message || '; ' || ? END"
                " WHERE state IN (?, ?)",
                (
                    RowState.DONE.value,
                    Outcome.NOT_ATTEMPTED.value,
                    utc_now(),
                    message,
                    message,
                    RowState.PENDING.value,
                    RowState.SENDING.value,
                ),
            )
        return cur.rowcount

    # -- reading ------------------------------------------------------------------------

    def rows_after(self, seq: int, limit: int) -> list[JobRow]:
        """Up to ``limit`` rows after ``seq``, in order, as this store last wrote them.

        Unlike :meth:`rows` it commits nothing: a report written while the job runs reads
        through it without adding commits to the workers' path (outcomes queued and not yet
        committed show as their rows' earlier state).
        """
        with self._lock:
            batch = self._db.execute(
                f"SELECT {', '.join(_ROW_COLUMNS)} FROM rows WHERE seq > ? ORDER BY seq LIMIT ?",
                (seq, limit),
            ).fetchall()
        return [JobRow(*values) for values in batch]

    def counts(self) -> dict[str, int]:
        """Rows per outcome, plus ``pending`` for rows not done yet."""
        with self._lock:
            self._flush_to_read()
            rows = self._db.execute(
                "SELECT CASE WHEN state = 'done' THEN outcome ELSE 'pending' END, count(*)"
                " FROM rows GROUP BY 1"
            ).fetchall()
        out = {o.value: 0 for o in Outcome}
        out["pending"] = 0
        for key, n in rows:
            out[str(key)] = int(n)
        return out

    def rows(self, chunk: int = 5000, *, after: int = 0) -> Iterator[JobRow]:
        """Every row in sheet order (those after seq ``after``), streamed."""
        self._flush_to_read()
        last = after
        while True:
            with self._lock:
                batch = self._db.execute(
                    f"SELECT {', '.join(_ROW_COLUMNS)} FROM rows"
                    " WHERE seq > ? ORDER BY seq LIMIT ?",
                    (last, chunk),
                ).fetchall()
            if not batch:
                return
            for values in batch:
                yield JobRow(*values)
            last = batch[-1][0]
