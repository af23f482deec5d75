"""The run lock of a job: one runner at a time sends a job's rows.

Two runners of one job (a ``--resume`` from a second terminal or a cron job while the first
import still runs, or two resumes in one app) would each take the rows still ``pending`` and
send many of them twice; the second to see an answer then records "already present" for a
number this very job inserted, which is false evidence. So whoever runs a job's rows holds
this lock for the whole run (:func:`app.core.job_exec.execute` does), and a second runner is
refused with :class:`JobBusy`, whose ``str()`` is one sentence.

The lock is an OS lock on a file beside the job file (``<job>.dncjob.lock``): ``fcntl.flock``
on POSIX, ``msvcrt.locking`` on Windows. The OS drops it when the process ends, however it ends
(a SIGKILL, a crash, a power cut), so a dead runner never leaves a lock to clear by hand. The
holder writes its pid, host and start time into the file for the refusal's sentence, and
removes the file when it lets go. Inside one process the lock is also kept in a table, so two
runners in one process are refused even where the OS would let one process take its own
lock twice (``flock`` emulated with POSIX record locks on a network drive).

A job is also locked by its id (``job_id`` in its meta), with a second lock file of the same
kind in the app's locks folder (``<data>/locks/<job_id>.lock``, :attr:`AppPaths.locks_dir`):
a copy of a job file (backed up, mailed, moved by hand) carries the id of the job it was
copied from, and resuming the copy while the original runs would send the same rows twice
just as surely. The path lock is taken first, then the id lock; a runner refused either one
holds neither, and the refusal is the same sentence.

A lock only keeps two runners apart while both run. A copy made *before* the original ran on
(or finished) holds rows as pending that the original has since sent, and resuming it later
sends them again and calls this job's own inserts "already present". So beside its id lock a
runner keeps a record of the file it ran from and how it ended (``<data>/locks/<job_id>.ran``,
JSON). A runner of another file with the same id is refused (:class:`JobCopied`) when that
job ended finished or cancelled, or when the file it last ran from is still there (and holds no
other job now); a job file that was moved (the recorded file is gone, or another job's file is
at its name) runs, and the record follows it.

That record is in the data folder, which a runner with another data folder (another user,
another ``DNC_DESK_DATA_DIR`` or ``XDG_DATA_HOME``) does not see. So the job file carries the
same fact itself: :func:`app.core.job_exec.execute` stores in its meta, under this lock at the
start of each run, the file it runs from (``ran_from``, a real path) and when (``ran_at``).
A copy holds the path of the file it was copied from, and :func:`acquire`, given it, refuses
the copy (:class:`JobCopied`, the same sentence) while that file is still there and is a job
file with the same id (read through a read-only SQLite connection; no lock is taken on it). A
moved file (the recorded file gone, or no longer that job) runs, and records its new path. The
data folder's record still counts: it covers an original that finished and was deleted.

The file alone misses an original that finished and was then moved away (archived): the copy,
run from another data folder, finds no file at the recorded path and no record of its own. So
the meta also names the locks folder each run ran under (``ran_locks``), and :func:`acquire`
reads that folder's record of the job too, refusing the copy by it as by its own folder's
record (the job finished or cancelled since, or the file it last ran from still there). That
record also says when the job last ran, which the copy's ``ran_at`` (the start of the last run
the copy saw) does not: the refusal names that time.

A file moved on again misses that record too: paused under data folder A, moved and run on
(to its end) under B, its copy taken in A's time names A alone, whose record still says the
job paused at a file now gone. So a run whose meta names another locks folder than its own
writes that folder's record too, as its own (the file it runs from, how it ended), adding
the locks folder it runs under (``locks``); a reader follows those names on to the newest
record, however often the file moved.

Staging, a dry run, reading a job and rewriting its report do not take the lock. A command
that checks things before a run (``--resume`` asks the service first) may :func:`reserve` it
first, so that a busy job is refused before those checks; the run's :func:`acquire` in the same
thread is then handed the reserved lock.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import re
import socket
import sqlite3
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from app.core.job_runner import JobAborted
from app.core.paths import AppPaths

LOCK_SUFFIX = ".lock"
RAN_SUFFIX = ".ran"
_ENDED_FOR_GOOD = frozenset({"finished", "cancelled"})
# Windows locks are mandatory: the byte locked lies past the holder's note, which stays readable.
_WINDOWS_LOCK_OFFSET = 1 << 20
_NOTE_MAX = 4096
# A job id used as a file name as it is; any other id (a hand-edited job file) is hashed.
_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


class JobBusy(JobAborted):
    """Another runner is sending this job's rows; ``str()`` is one sentence.

    A :class:`JobAborted`: nothing was sent, the job file is unchanged, and the job can be
    resumed once the other runner has finished or been stopped.
    """

    def __init__(self, message: str, holder: Holder | None = None) -> None:
        super().__init__(message)
        self.holder = holder


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a job's run lock, as its lock file says."""

    pid: int
    host: str
    started: str  # UTC, ISO 8601

    def process(self) -> str:
        """``pid 4242``, with ``on HOST`` when the lock was taken on another host."""
        if self.host and self.host != socket.gethostname():
            return f"pid {self.pid} on {self.host}"
        return f"pid {self.pid}"

    def since(self) -> str:
        """The start in UTC, as the job list's STARTED column and the job files keep times:
        ``07:41 UTC`` today (in UTC), else ``2025-05-02 07:41 UTC`` (black-box B32 F3: local
        time with no zone or date was shown beside STARTED (UTC))."""
        try:
            start = dt.datetime.fromisoformat(self.started).astimezone(dt.UTC)
        except ValueError:
            return ""
        if start.date() == dt.datetime.now(dt.UTC).date():
            return start.strftime("%H:%M UTC")
        return start.strftime("%Y-%m-%d %H:%M UTC")


class JobCopied(JobBusy):
    """This job file is a copy of one that ran on without it; ``str()`` is one sentence.

    A :class:`JobBusy` for its callers: nothing was sent and the file is unchanged, and
    resuming this file is not the way on (the sentence names the file that is).
    """


def lock_path(job_path: Path) -> Path:
    return job_path.with_name(job_path.name + LOCK_SUFFIX)


def id_lock_path(job_id: str, locks_dir: Path | None = None) -> Path:
    """The lock file of the job ``job_id`` in the app's locks folder (or ``locks_dir``),
    whichever file holds it."""
    name = (
        job_id
        if _PLAIN_ID.fullmatch(job_id)
        else ("job-" + hashlib.sha256(job_id.encode("utf-8", "surrogatepass")).hexdigest()[:32])
    )
    return (locks_dir or AppPaths.default().locks_dir) / (name + LOCK_SUFFIX)


def locks_folder() -> str:
    """The locks folder a run now takes its id lock in, as the job's meta records it
    (``ran_locks``)."""
    return os.path.realpath(AppPaths.default().locks_dir)


def _key(job_path: Path) -> str:
    return os.path.normcase(os.path.realpath(job_path))


def _id_key(job_id: str) -> str:
    return "id:" + job_id


def _job_name(job_path: Path, job_id: str) -> str:
    return job_id or job_path.stem


class JobLock:
    """A held run lock; :meth:`release` (or leaving the ``with`` block) lets go."""

    def __init__(
        self,
        job_path: Path,
        files: list[tuple[int, Path]],
        keys: list[str],
        holder: Holder,
        id_path: Path | None = None,
    ) -> None:
        self.job_path = job_path
        self.path = lock_path(job_path)
        self.id_path = id_path  # None for a job without an id
        self.holder = holder
        self.thread = threading.get_ident()
        self._files = files  # (fd, lock file), in the order taken
        self._keys = keys
        # How the run ended ("finished", "cancelled", "paused"), for the record of the id.
        self.ended = ""
        # The id lock file of this job in the locks folder its last run used, when that is
        # another folder: its record follows this run too (see the module's note).
        self.forward_path: Path | None = None
        # Taken by :func:`reserve` for a run this thread has not begun: no record is written
        # until :func:`acquire` hands it over, and letting go of it then writes none.
        self.reserved = False

    @property
    def held(self) -> bool:
        return bool(self._files)

    def release(self) -> None:
        with _table_lock:
            if self._files and self.id_path is not None and not self.reserved:
                # Still under the id lock: no other runner reads the record meanwhile.
                with contextlib.suppress(OSError):  # the locks must go whatever happens
                    _write_ran(self.id_path, self.job_path, self.ended or "stopped")
                if self.forward_path is not None:
                    with contextlib.suppress(OSError):
                        _write_ran(
                            self.forward_path,
                            self.job_path,
                            self.ended or "stopped",
                            self.id_path.parent,
                        )
            files, self._files = self._files, []
            for key in self._keys:
                if _held.get(key) is self:
                    del _held[key]
            _release_all(files)

    def __enter__(self) -> JobLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# Run locks this process holds, by job file and by job id; guarded by _table_lock.
_table_lock = threading.Lock()
_held: dict[str, JobLock] = {}


def acquire(
    job_path: Path,
    job_id: str = "",
    *,
    ran_from: str = "",
    ran_at: str = "",
    ran_locks: str = "",
) -> JobLock:
    """Take the run lock of the job file ``job_path`` and, given one, of the job id ``job_id``
    (any file carrying it), or raise :class:`JobBusy` at once holding neither.

    ``ran_from``, ``ran_at`` and ``ran_locks`` are what the job file's meta says of the file
    it last ran from, when, and the locks folder that run used: :class:`JobCopied` is raised
    when that is another job file of this job, still there (this file is a copy of it), or
    when that locks folder's record of the job says it ran on from another file since."""
    return _take(job_path, job_id, ran_from, ran_at, ran_locks, reserve=False)


def reserve(
    job_path: Path,
    job_id: str = "",
    *,
    ran_from: str = "",
    ran_at: str = "",
    ran_locks: str = "",
) -> JobLock:
    """Take the run lock as :func:`acquire` does (or raise :class:`JobBusy` at once), for a
    run this thread begins later: the :func:`acquire` of that run, in this thread, is handed
    this lock rather than refused, and lets go of it when it ends.

    A ``--resume`` takes it before it asks the service anything: a second one, while another
    process runs the job, is refused at once naming that process, not after the checks
    against a service that may not answer (black-box B30 F2); and no other runner can start
    the job between those checks and its run. :meth:`JobLock.release` lets go of a lock never
    handed over (the checks refused the run) without writing a record of a run."""
    return _take(job_path, job_id, ran_from, ran_at, ran_locks, reserve=True)


def _take(
    job_path: Path, job_id: str, ran_from: str, ran_at: str, ran_locks: str, *, reserve: bool
) -> JobLock:
    keys = [_key(job_path)] + ([_id_key(job_id)] if job_id else [])
    name = _job_name(job_path, job_id)
    with _table_lock:
        if not reserve and (reserved := _reserved_here(keys)) is not None:
            reserved.reserved = False
            if reserved.id_path is not None:
                reserved.forward_path = _record_running(
                    reserved.id_path, job_path, job_id, ran_locks
                )
            return reserved
        for key in keys:
            mine = _held.get(key)
            if mine is not None:
                since = mine.holder.since()
                raise JobBusy(
                    f"Job {name} is already being run by this program"
                    f"{f' (since {since})' if since else ''}; "
                    "wait for it to finish or stop it first.",
                    mine.holder,
                )
        holder = Holder(
            pid=os.getpid(),
            host=socket.gethostname(),
            started=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        )
        id_path = id_lock_path(job_id) if job_id else None
        forward: Path | None = None
        taken: list[tuple[int, Path]] = []
        try:
            for path in [lock_path(job_path)] + ([id_path] if id_path is not None else []):
                fd, other = _os_acquire(path)
                if fd is None:
                    raise JobBusy(_busy_sentence(name, other), other)
                taken.append((fd, path))
                _write_note(fd, holder)
            if id_path is not None:
                _refuse_a_copy(id_path, job_path, job_id, name)
                _refuse_a_copy_by_its_meta(
                    job_path, job_id, name, ran_from, ran_at, ran_locks or str(id_path.parent)
                )
                if not reserve:
                    forward = _record_running(id_path, job_path, job_id, ran_locks)
        except BaseException:
            _release_all(taken)
            raise
        lock = JobLock(job_path, taken, keys, holder, id_path)
        lock.forward_path = forward
        lock.reserved = reserve
        for key in keys:
            _held[key] = lock
        return lock


def _reserved_here(keys: list[str]) -> JobLock | None:
    """The lock :func:`reserve` took in this thread for the job ``keys`` name, if any
    (every key held by it: a lock of the file alone does not stand for another id's)."""
    locks = [_held.get(key) for key in keys]
    first = locks[0]
    if first is None or not first.reserved or first.thread != threading.get_ident():
        return None
    return first if all(lock is first for lock in locks) else None


def _record_running(id_path: Path, job_path: Path, job_id: str, ran_locks: str) -> Path | None:
    """Record that the job runs from ``job_path`` (also in the locks folder its last run used,
    whose id lock file is returned, when that is another folder)."""
    with contextlib.suppress(OSError):  # a read-only disk loses the record only
        _write_ran(id_path, job_path, "running")
    forward = _forward_path(job_id, ran_locks, id_path)
    if forward is not None:
        with contextlib.suppress(OSError):
            _write_ran(forward, job_path, "running", id_path.parent)
    return forward


def ran_path(id_path: Path) -> Path:
    """The record of the file a job (by its id lock file) last ran from."""
    return id_path.with_name(id_path.name.removesuffix(LOCK_SUFFIX) + RAN_SUFFIX)


@dataclass(frozen=True, slots=True)
class _Ran:
    """A locks folder's record of a job: the file it last ran from, how that run ended (or
    "running"), and when (UTC, ISO 8601)."""

    path: str
    ended: str
    time: str
    locks: str = ""  # the locks folder that run used, when it is not this record's own


# Hops followed from one locks folder's record to the next: a guard, not a limit a person meets.
_MAX_FORWARDS = 32


def _read_ran(id_path: Path) -> _Ran | None:
    """The newest record of the job whose id lock file (in one locks folder) is ``id_path``:
    that folder's record, or the one it names in a locks folder the job ran under after it.
    None when the job never ran under that locks folder, or the record cannot be read."""
    found = _read_one_ran(id_path)
    seen = {os.path.normcase(os.path.realpath(id_path.parent))}
    while found is not None and found.locks and len(seen) < _MAX_FORWARDS:
        folder = os.path.normcase(os.path.realpath(found.locks))
        if folder in seen:
            break
        seen.add(folder)
        newer = _read_one_ran(Path(found.locks) / id_path.name)
        if newer is None:
            break  # that data folder gone (or on another machine): this record is the newest
        found = newer
    return found


def _read_one_ran(id_path: Path) -> _Ran | None:
    try:
        record = json.loads(ran_path(id_path).read_text(encoding="utf-8"))
        return _Ran(
            str(record["path"]),
            str(record["ended"]),
            str(record["time"]),
            str(record.get("locks") or ""),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _forward_path(job_id: str, ran_locks: str, id_path: Path) -> Path | None:
    """The id lock file of the job in the locks folder ``ran_locks`` its last run used, when
    that is another folder than ``id_path``'s and is still there (none is made)."""
    if not ran_locks or not os.path.isdir(ran_locks):
        return None
    if os.path.normcase(os.path.realpath(ran_locks)) == os.path.normcase(
        os.path.realpath(id_path.parent)
    ):
        return None
    return id_lock_path(job_id, Path(ran_locks))


def _refuse_a_copy(id_path: Path, job_path: Path, job_id: str, name: str) -> None:
    """Raise :class:`JobCopied` when the job last ran from another file that still counts."""
    record = _read_ran(id_path)
    if record is not None:
        _refuse_by_record(record, job_path, job_id, name)


def _refuse_by_record(record: _Ran, job_path: Path, job_id: str, name: str) -> None:
    if record.path == _key(job_path):
        return
    if record.ended in _ENDED_FOR_GOOD:
        raise JobCopied(
            f"Job {name} was already {record.ended} on {record.time} from {record.path}; this "
            "file is a copy made before that, and resuming it would send its rows again."
        )
    if os.path.isfile(record.path) and read_job_id(Path(record.path)) in (None, job_id):
        # A file there that holds another job now: this one was moved, and that name reused.
        # One that cannot be read as a job still counts: the record says this job ran there.
        raise JobCopied(_copy_sentence(name, record.path, _utc_text(record.time)))


def _utc_text(iso: str) -> str:
    """``2026-11-24 22:41:07 UTC`` for an ISO 8601 time (as the meta's ``ran_at`` reads)."""
    try:
        return dt.datetime.fromisoformat(iso).astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    except ValueError:
        return iso


def _copy_sentence(name: str, other: str, when: str) -> str:
    return (
        f"Job {name} last ran from {other} ({when}); resume that file instead: this one is "
        "a copy, and resuming it would send again the rows that one has sent since."
    )


def _refuse_a_copy_by_its_meta(
    job_path: Path, job_id: str, name: str, ran_from: str, ran_at: str, ran_locks: str
) -> None:
    """Raise :class:`JobCopied` when the job file says it last ran from another file that is
    still there and still holds this job (whatever data folder that run used), or when the
    locks folder that run used says the job ran on from another file since.

    A locks folder that is not there (the job file carried to another machine, or that data
    folder deleted) says nothing, and the copy is judged by its recorded file alone: refusing
    it would leave a job file moved to another machine no way to finish, and whether the
    original ran on there cannot be known from here."""
    record = _read_ran(id_lock_path(job_id, Path(ran_locks))) if ran_locks else None
    if _another_file_of_the_job(job_path, job_id, ran_from):
        last = ran_at and f"{ran_at} UTC"
        if record is not None and record.path == os.path.normcase(os.path.realpath(ran_from)):
            last = _utc_text(record.time)  # when it last ran, not when the copy's run began
        raise JobCopied(_copy_sentence(name, ran_from, last or "earlier"))
    if record is not None:
        _refuse_by_record(record, job_path, job_id, name)


def _another_file_of_the_job(job_path: Path, job_id: str, ran_from: str) -> bool:
    """Whether ``ran_from`` is another file than ``job_path``, still there, holding this job."""
    if not ran_from or os.path.normcase(os.path.realpath(ran_from)) == _key(job_path):
        return False
    try:
        if not os.path.isfile(ran_from) or os.path.samefile(ran_from, job_path):
            return False  # moved (or the same file by another name)
    except OSError:
        pass  # this file not there yet (a caller's own path): compare the ids
    # Another job's file at that name now: this one was moved.
    return read_job_id(Path(ran_from)) == job_id


def read_job_id(job_path: Path) -> str | None:
    """The ``job_id`` in the meta of the job file ``job_path``, or None when it is not a
    readable job file. Read-only, taking no run lock: that file may be another runner's.

    A file with no ``-wal`` beside it holds every commit in the file itself and is read as
    immutable, so reading it leaves no ``-wal`` or ``-shm`` file beside it; one that has a
    ``-wal`` (open elsewhere, or a runner that was killed) is read through it."""
    wal = job_path.with_name(job_path.name + "-wal").exists()
    uri = Path(os.path.abspath(job_path)).as_uri() + ("?mode=ro" if wal else "?mode=ro&immutable=1")
    try:
        db = sqlite3.connect(uri, uri=True, timeout=10)
    except sqlite3.Error:
        return None
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'job_id'").fetchone()
    except sqlite3.Error:
        return None
    finally:
        db.close()
    if row is None:
        return None
    try:
        value = json.loads(row[0])
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, str) else None


def _write_ran(id_path: Path, job_path: Path, ended: str, locks: Path | None = None) -> None:
    """Write the record beside ``id_path``; ``locks``, the locks folder the run uses, when
    that is not ``id_path``'s (a record kept for an earlier data folder of the job)."""
    record = {
        "path": _key(job_path),
        "ended": ended,
        "time": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        **({"locks": os.path.realpath(locks)} if locks is not None else {}),
    }
    target = ran_path(id_path)
    temp = target.with_name(target.name + ".tmp")
    temp.write_text(json.dumps(record), encoding="utf-8")
    os.replace(temp, target)


def _release_all(files: list[tuple[int, Path]]) -> None:
    """Let go of the lock files taken, the last taken first; every one, whatever fails."""
    try:
        while files:
            fd, path = files.pop()
            _os_release(fd, path)
    finally:
        for fd, path in reversed(files):
            with contextlib.suppress(OSError):
                _os_release(fd, path)


def held_by_this_thread(job_path: Path) -> bool:
    """Whether this thread holds the job's run lock (a runner called inside :func:`execute`)."""
    with _table_lock:
        lock = _held.get(_key(job_path))
    return lock is not None and lock.thread == threading.get_ident()


def _busy_sentence(name: str, holder: Holder | None) -> str:
    who = ""
    if holder is not None:
        parts = [holder.process()]
        since = holder.since()
        if since:
            parts.append(f"since {since}")
        who = f" ({', '.join(parts)})"
    return (
        f"Job {name} is being run by another process{who}; wait for it to finish or stop it first."
    )


def _write_note(fd: int, holder: Holder) -> None:
    note = json.dumps({"pid": holder.pid, "host": holder.host, "started": holder.started})
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, note.encode())


def _read_note(fd: int) -> Holder | None:
    """The holder's note, or None while it is not written yet (or unreadable)."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        data = json.loads(os.read(fd, _NOTE_MAX).decode())
        return Holder(int(data["pid"]), str(data.get("host", "")), str(data.get("started", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


# A thread lock per folder_lock path, taken first: threads of one process then wait on each
# other whatever the system's file locks make of two opens of one file by one process.
_folder_threads: dict[str, threading.Lock] = {}
_folder_threads_lock = threading.Lock()


@contextlib.contextmanager
def folder_lock(path: Path) -> Iterator[None]:
    """Hold the lock file ``path`` for the block, waiting while another thread or process
    holds it: for a check and what it claims that two jobs must not both pass (two jobs of
    one file started in the same second, see job_catalog.claim_beside). The file is left in
    place, so every waiter locks the same file."""
    with _folder_threads_lock:
        in_process = _folder_threads.setdefault(os.path.normcase(str(path)), threading.Lock())
    with in_process:
        fd = _open(path)
        try:
            _os_wait_for(fd)
            yield
        finally:
            os.close(fd)  # lets the lock go with the file


def _open(path: Path) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    return os.open(path, flags, 0o600)


if sys.platform == "win32":
    import msvcrt

    def _os_acquire(path: Path) -> tuple[int | None, Holder | None]:
        fd = _open(path)
        try:
            os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            other = _read_note(fd)
            os.close(fd)
            return None, other
        return fd, None

    def _os_wait_for(fd: int) -> None:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # tries for 10 s, then raises
                return
            except OSError:
                continue

    def _os_release(fd: int, path: Path) -> None:
        try:
            with contextlib.suppress(OSError):
                os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        finally:
            os.close(fd)
        # Fails (and is left) when another runner opened it meanwhile: it is theirs now.
        with contextlib.suppress(OSError):
            os.unlink(path)

else:
    import fcntl

    def _os_wait_for(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)

    def _os_acquire(path: Path) -> tuple[int | None, Holder | None]:
        while True:
            fd = _open(path)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                other = _read_note(fd)
                os.close(fd)
                return None, other
            except BaseException:
                os.close(fd)
                raise
            # The holder before us removes the file as it lets go: a lock taken on a file
            # no longer at ``path`` locks nothing anyone else will open. Take the new one.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path))
            except FileNotFoundError:
                same = False
            if same:
                return fd, None
            os.close(fd)

    def _os_release(fd: int, path: Path) -> None:
        # Removed while still locked, so a runner that opened it meanwhile sees it is gone.
        try:
            with contextlib.suppress(OSError):
                os.unlink(path)
        finally:
            os.close(fd)
