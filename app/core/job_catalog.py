"""The job files on this machine, listed with what each job is and how far it got.

Read-only: each file is opened with SQLite's ``mode=ro`` so listing never competes with a job
that is writing its file. A job whose file says ``running`` but that no process is running is
*interrupted* (the app or the machine stopped under it); the caller knows which jobs it runs,
and :func:`run_by` tells whether any process holds a job's run lock
(:mod:`app.core.job_lock`) now.

A job also remembers the file it was made from as it was then (:func:`source_fingerprint`,
stored in the job's meta by whoever stages it), so a resume can say when that file has been
changed or replaced since (:func:`source_change`): the job sends the rows it read then.

The meta's ``file`` is the file's path as text (:func:`app.core.paths.path_text`), which every
report, message and JSON answer shows; a name that is not valid UTF-8 also keeps its bytes
(:func:`source_meta`), from which :func:`source_path` finds the file again (black-box R5 #1).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import hashlib
import json
import os
import socket
import sqlite3
import stat as file_mode
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core import job_lock
from app.core.job_lock import Holder
from app.core.job_store import (
    SOURCE_PATH_BYTES,
    STAGED,
    STAGING_BY,
    SUFFIX,
    JobStatus,
    JobStore,
    Outcome,
    readable_meta,
)
from app.core.paths import path_text
from app.core.wording import counted

# The meta keys of the source file's fingerprint (see source_fingerprint).
SOURCE_SIZE = "source_size"
SOURCE_MTIME_NS = "source_mtime_ns"
SOURCE_SHA256 = "source_sha256"

# What staging_state says of a job whose rows were not all stored (see job_store.STAGED).
READING = "reading"
STOPPED_READING = "stopped"
STOPPED_READING_STATE = "stopped while reading its file (nothing sent)"
READING_STATE = "reading its file"


@dataclass(frozen=True)
class JobInfo:
    """One job file: its meta (name, note, file, target…), status and rows per outcome."""

    path: Path
    meta: dict[str, Any]
    counts: dict[str, int]
    error: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def job_id(self) -> str:
        return str(self.meta.get("job_id") or self.path.stem)

    @property
    def status(self) -> str:
        return str(self.meta.get("status", ""))

    @property
    def kind(self) -> str:
        return str(self.meta.get("kind", ""))

    @property
    def rows(self) -> int:
        return sum(self.counts.values())

    @property
    def pending(self) -> int:
        return self.counts.get("pending", 0)

    @property
    def done(self) -> int:
        return self.rows - self.pending

    @functools.cached_property
    def staging(self) -> str:
        """``""`` for a job whose rows were all stored, else :func:`staging_state`'s word; asked
        once per reading of the job file (it may ask the OS whether a process is alive, and the
        Jobs tab asks it for every cell it paints)."""
        return staging_state(self.meta)

    @property
    def resumable(self) -> bool:
        """Rows are left to send, all of the file's rows were stored, and the job was neither
        cancelled nor a dry run."""
        return (
            self.pending > 0
            and not self.staging
            and self.status
            in (
                JobStatus.READY.value,
                JobStatus.RUNNING.value,
                JobStatus.PAUSED.value,
            )
        )

    @property
    def report(self) -> Path:
        return Path(self.meta.get("report") or self.path.with_suffix(".xlsx"))


def read_job(path: Path, *, with_counts: bool = True) -> JobInfo:
    """Meta and counts of one job file (its meta only, every count 0, without ``with_counts``);
    a file that cannot be read gets ``error`` set."""
    # A file with no -wal beside it is open nowhere (a runner keeps one while it has the file
    # open) and holds every commit: read as immutable, so listing leaves no -wal or -shm
    # file beside a job file it only looked at (as job_lock.read_job_id reads one).
    wal = path.with_name(path.name + "-wal").exists()
    uri = Path(os.path.abspath(path)).as_uri() + ("?mode=ro" if wal else "?mode=ro&immutable=1")
    try:
        db = sqlite3.connect(uri, uri=True, timeout=5)
    except sqlite3.Error as exc:
        return JobInfo(path, {}, {}, error=f"cannot be read: {exc}")
    try:
        meta = readable_meta(
            {k: json.loads(v) for k, v in db.execute("SELECT key, value FROM meta")}
        )
        found = (
            db.execute(
                "SELECT CASE WHEN state = 'done' THEN outcome ELSE 'pending' END, count(*)"
                " FROM rows GROUP BY 1"
            ).fetchall()
            if with_counts
            else []
        )
    except (sqlite3.Error, ValueError) as exc:
        return JobInfo(path, {}, {}, error=f"cannot be read: {exc}")
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.close()
    counts = {o.value: 0 for o in Outcome}
    counts["pending"] = 0
    for key, n in found:
        counts[str(key)] = int(n)
    return JobInfo(path, meta, counts)


def list_jobs(jobs_dir: Path, *, with_counts: bool = True) -> list[JobInfo]:
    """Every job file in ``jobs_dir``, newest first (``with_counts=False``: meta only)."""
    if not jobs_dir.is_dir():
        return []
    files: Iterable[Path] = sorted(jobs_dir.glob(f"*{SUFFIX}"), reverse=True)
    jobs = [read_job(p, with_counts=with_counts) for p in files]
    jobs.sort(key=lambda j: str(j.meta.get("created", "")), reverse=True)
    return jobs


def run_by(info: JobInfo) -> Holder | None:
    """Who holds the job's run lock now (its file's or its id's), or None when no process
    runs it. The holder may be this very process (the window running the job).

    A lock file is there only while a runner holds it, or after one was killed (the OS let
    go of its lock, the file stays). A file naming a process of this host that is gone is
    such a leftover, and is not touched; any other (a live process, another host, a note not
    written yet) is tested by asking for a shared lock without waiting, let go at once. That
    test is the only moment a runner starting then could find the lock taken, and it happens
    only for a file whose process is alive (its pid reused) or unknown.
    """
    files = [job_lock.lock_path(info.path)]
    job_id = str(info.meta.get("job_id") or "")
    if job_id:
        with contextlib.suppress(OSError):
            files.append(job_lock.id_lock_path(job_id))
    for path in files:
        holder = _holder(path)
        if holder is not None:
            return holder
    return None


def _holder(path: Path) -> Holder | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None  # no lock file: nobody holds it
    try:
        note = _read_note(fd)
        if note is not None and note.host == socket.gethostname() and not _alive(note.pid):
            return None  # left by a runner that was killed: the OS let go of its lock
        if _locked(fd):
            return note or Holder(pid=0, host="", started="")
        return None
    finally:
        os.close(fd)


def _read_note(fd: int) -> Holder | None:
    try:
        data = json.loads(os.read(fd, 4096).decode())
        return Holder(int(data["pid"]), str(data.get("host", "")), str(data.get("started", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


if sys.platform == "win32":

    def _alive(pid: int) -> bool:
        return True  # os.kill would end the process: the lock test below decides

    def _locked(fd: int) -> bool:
        import msvcrt

        try:
            os.lseek(fd, 1 << 20, os.SEEK_SET)  # job_lock's byte, past the note
            msvcrt.locking(fd, msvcrt.LK_NBRLCK, 1)
        except OSError:
            return True
        with contextlib.suppress(OSError):
            os.lseek(fd, 1 << 20, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return False

else:
    import fcntl

    def _alive(pid: int) -> bool:
        if pid <= 0:
            return True  # no pid to go by: the lock test decides
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except OSError:
            return True  # there, but another user's
        return True

    def _locked(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError:
            return False  # a file system without locks: no runner could hold one either
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False


def staging_state(meta: Mapping[str, Any]) -> str:
    """``""`` when the job's rows were all read from its file and stored (or its file was made
    by a version that did not mark it: job_store.STAGED); else :data:`READING` while the
    process reading them runs, :data:`STOPPED_READING` when it stopped before the end (killed:
    nothing of the job was sent, and only some of its rows, or none, are in its file)."""
    if meta.get(STAGED) is not False:
        return ""
    by = meta.get(STAGING_BY)
    pid = by.get("pid") if isinstance(by, dict) else None
    host = by.get("host") if isinstance(by, dict) else None
    if not isinstance(pid, int) or pid <= 0:
        return STOPPED_READING
    if pid == os.getpid() and host == socket.gethostname():
        return READING  # this process (the window staging it on a worker thread)
    if host != socket.gethostname() or sys.platform == "win32":
        # Another host's process cannot be asked, and on Windows _alive cannot tell: a staging
        # lasts seconds or minutes, so one made within the hour is taken as going on. Only the
        # words depend on it: either way the job is not run, and its file is not removed.
        return READING if _recent(meta) else STOPPED_READING
    return READING if _alive(pid) else STOPPED_READING


# A staging of another host (or on Windows) is taken as going on for this long after the job
# was made; later, as stopped.
_STAGING_HOURS = 1


def _recent(meta: Mapping[str, Any]) -> bool:
    created = _utc(str(meta.get("created") or ""))
    if created is None:
        return False
    return dt.datetime.now(dt.UTC) - created < dt.timedelta(hours=_STAGING_HOURS)


def unstaged_sentence(meta: Mapping[str, Any], again: str) -> str:
    """Why a job whose rows were not all stored (:func:`staging_state`) cannot be run, ending
    with ``again`` (how to start it again: the CLI's command, the window's words)."""
    job_id = str(meta.get("job_id") or "")
    file = str(meta.get("file") or "its file")
    kind = "removal" if meta.get("kind") == "removal" else "import"
    if staging_state(meta) == READING:
        return (
            f"Job {job_id} is still reading {file} and nothing of it has been sent; it starts "
            "sending once its rows are read, in the process that reads them."
        )
    return (
        f"Job {job_id} stopped while reading {file}, before its rows were all stored, so "
        f"nothing of it was sent and it cannot be resumed: start the {kind} again{again}."
    )


def job_state(info: JobInfo, holder: Holder | None) -> str:
    """The job's status as a person reads it: ``running`` when a process runs it now,
    ``interrupted`` when its file says running but none does (it was killed, or crashed),
    :data:`STOPPED_READING_STATE` or :data:`READING_STATE` for one whose rows were not all
    read from its file (:func:`staging_state`), else ``ready``, ``paused``, ``finished``,
    ``cancelled`` or ``dry run`` (``unreadable`` for a file that cannot be read)."""
    code = job_state_code(info, holder)
    return _STATE_SAID.get(code, code.replace("_", " "))


# What job_state_code gives, one word each, for scripts (``jobs --json``'s ``state_code``):
# job_state's phrases may be reworded, these are not.
STATE_CODES = (
    "ready",
    "running",
    "interrupted",
    "paused",
    "finished",
    "cancelled",
    "dry_run",
    "reading",
    "stopped_reading",
    "unreadable",
)
_STATE_SAID = {READING: READING_STATE, "stopped_reading": STOPPED_READING_STATE}


def job_state_code(info: JobInfo, holder: Holder | None) -> str:
    """:func:`job_state` as one of :data:`STATE_CODES`: ``reading`` or ``stopped_reading`` for
    a job whose rows were not all read from its file, ``dry_run`` for a dry run."""
    if info.error:
        return "unreadable"
    if holder is not None:
        return "running"
    if staging := info.staging:
        return READING if staging == READING else "stopped_reading"
    if info.status == JobStatus.RUNNING.value:
        return "interrupted"
    return info.status


def source_fingerprint(path: Path) -> dict[str, Any]:
    """The meta a job keeps of the file it is made from: its size, modification time and
    SHA-256 (empty when the file cannot be read)."""
    try:
        stat = path.stat()
        if not file_mode.S_ISREG(stat.st_mode):
            # A named pipe would be waited on for ever (a shell's <(…) read up) before staging
            # refuses it in one sentence (sheet_reader.resolve_sheet_path).
            return {}
        digest = hashlib.sha256()
        with path.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                digest.update(chunk)
    except OSError:
        return {}
    return {
        SOURCE_SIZE: stat.st_size,
        SOURCE_MTIME_NS: stat.st_mtime_ns,
        SOURCE_SHA256: digest.hexdigest(),
    }


def source_meta(path: Path) -> dict[str, str]:
    """The meta naming the file a job is made from: ``file`` (text to show) and, when that is
    not the path itself, the path's bytes."""
    shown = path_text(path)
    if shown == str(path):
        return {"file": shown}
    return {"file": shown, SOURCE_PATH_BYTES: os.fsencode(path).hex()}


def source_path(meta: Mapping[str, Any]) -> Path | None:
    """The file the job was made from, found again from :func:`source_meta`'s meta (or from a
    job made before it, whose ``file`` is the path); None when the meta names none."""
    raw = meta.get(SOURCE_PATH_BYTES)
    if isinstance(raw, str) and raw:
        with contextlib.suppress(ValueError):
            return Path(os.fsdecode(bytes.fromhex(raw)))
    name = str(meta.get("file") or "")
    return Path(name) if name else None


def source_change(meta: dict[str, Any]) -> str:
    """How the file a job was made from (``meta["file"]``) differs from when the job was made,
    as a clause to follow the file's name ("is no longer there", "has changed: …"), or ``""``
    when it has not (or nothing can be told). A job without a fingerprint (made by an older version)
    counts a modification time after the job was made."""
    path = source_path(meta)
    if path is None:
        return ""
    try:
        stat = path.stat()
    except FileNotFoundError:
        return "is no longer there"
    except OSError:
        return ""
    if not path.is_file():
        return "is no longer a file"
    size, mtime, digest = (meta.get(k) for k in (SOURCE_SIZE, SOURCE_MTIME_NS, SOURCE_SHA256))
    when = _utc_minute(stat.st_mtime)
    if isinstance(size, int) and isinstance(mtime, int):
        if stat.st_size == size and stat.st_mtime_ns == mtime:
            return ""
        if stat.st_size != size:
            return f"has changed: it is {stat.st_size:,} bytes now, {size:,} then (modified {when})"
        if isinstance(digest, str) and digest:
            now = source_fingerprint(path).get(SOURCE_SHA256)
            if now is None or now == digest:
                return ""  # touched or copied over with the same content
        return f"has changed (modified {when}, after the job was made)"
    created = _utc(str(meta.get("created") or ""))
    if created is not None and stat.st_mtime > created.timestamp() + 1:
        return f"was modified {when}, after the job was made"
    return ""


def _utc(text: str) -> dt.datetime | None:
    try:
        return dt.datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(tzinfo=dt.UTC)
    except ValueError:
        return None


def _utc_minute(timestamp: float) -> str:
    # UTC as the job file's times and the lock's: a local time with no zone read as UTC beside
    # them by whoever compares it with the job's start (black-box B32).
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def made_from(jobs_dir: Path, path: Path, kind: str, sha256: str = "") -> list[JobInfo]:
    """The jobs of ``kind`` in ``jobs_dir`` that can be resumed and were made from the file
    ``path`` (the same file, or one with the same content when both fingerprints say so),
    newest first. Only the jobs whose meta matches are counted (their rows read)."""
    try:
        here = os.path.normcase(os.path.realpath(path))
    except OSError:
        here = ""
    found = []
    for job in list_jobs(jobs_dir, with_counts=False):
        if job.error or job.kind != kind:
            continue
        if job.status not in (
            s.value for s in (JobStatus.READY, JobStatus.RUNNING, JobStatus.PAUSED)
        ):
            continue
        theirs = source_path(job.meta)
        same = theirs is not None and os.path.normcase(os.path.realpath(theirs)) == here
        if not same and sha256:
            same = job.meta.get(SOURCE_SHA256) == sha256
        if same:
            info = read_job(job.path)
            if info.resumable:
                found.append(info)
    return found


@dataclass(frozen=True)
class SameFileJob:
    """A job of the same file and target as a new one, which the new one must not run beside:
    ``holder`` is who runs it now (None when nobody does); ``starting`` says it was just made
    by a process still alive that has not run it yet (it may be reading its file still)."""

    info: JobInfo
    holder: Holder | None
    starting: bool = False


def same_file_job(jobs_dir: Path, own: JobInfo) -> SameFileJob | None:
    """The job in ``jobs_dir`` that the new job ``own`` (just staged, not run) would send the
    same rows beside, or None: one of its kind made from its file (or the same content), into
    the same list and scope, that is running now or can be resumed (black-box S31 bb4 #6: two
    imports of one file started at once each inserted rows the other then recorded as already
    there, and neither named the other).

    Two jobs started at once each see the other just made and not run yet: one that passed
    this check already (:func:`claim_beside`) goes on, else the earlier (by creation time,
    then id), so exactly one of them runs. A job left by a process
    that is gone counts whatever its age: it is there to be resumed."""
    here = _real(source_path(own.meta))
    sha256 = str(own.meta.get(SOURCE_SHA256) or "")
    ours = (own.kind, own.meta.get("target"), own.meta.get("scope"))
    for job in list_jobs(jobs_dir, with_counts=False):
        if job.error or job.path.resolve() == own.path.resolve() or job.job_id == own.job_id:
            continue
        if (job.kind, job.meta.get("target"), job.meta.get("scope")) != ours:
            continue
        if not _same_source(job.meta, here, sha256):
            continue
        holder = run_by(job)
        if holder is None and job.status not in _UNFINISHED:
            continue
        if holder is None and _just_started(job.meta):
            if job.meta.get(CHECKED_BESIDE) or _order(job.meta) < _order(own.meta):
                return SameFileJob(read_job(job.path), None, starting=True)
            continue
        info = read_job(job.path)
        if holder is not None or info.resumable:
            return SameFileJob(info, holder)
    return None


_UNFINISHED = tuple(s.value for s in (JobStatus.READY, JobStatus.RUNNING, JobStatus.PAUSED))


def _real(path: Path | None) -> str:
    if path is None:
        return ""
    try:
        return os.path.normcase(os.path.realpath(path))
    except OSError:
        return ""


def _same_source(meta: Mapping[str, Any], here: str, sha256: str) -> bool:
    """The job of ``meta`` was made from the file ``here`` (a real path), or from one whose
    SHA-256 is ``sha256``."""
    if here and _real(source_path(meta)) == here:
        return True
    return bool(sha256) and meta.get(SOURCE_SHA256) == sha256


def _just_started(meta: Mapping[str, Any]) -> bool:
    """The job is being staged, or was staged and not run yet, by a process of this host that
    is still alive: a new job about to run, as the one asking may be."""
    if staging_state(meta) == READING:
        return True
    by = meta.get(STAGING_BY)
    if meta.get("ran_at") or meta.get("status") != JobStatus.READY.value:
        return False
    if not isinstance(by, dict) or by.get("host") != socket.gethostname():
        return False
    pid = by.get("pid")
    return isinstance(pid, int) and pid > 0 and (pid == os.getpid() or _alive(pid))


def _order(meta: Mapping[str, Any]) -> tuple[str, str]:
    return (str(meta.get("created") or ""), str(meta.get("job_id") or ""))


def same_file_refusal(other: SameFileJob, action: str, finish: str, cancel: str) -> str:
    """Why a new job is not run beside ``other``, a job of the same file and target running
    now, just started or left to resume, and what to do: one sentence led by ``action``;
    ``finish`` says how to finish a job left to resume, ``cancel`` how to cancel it to start
    anew (the CLI's commands, the window's words)."""
    info = other.info
    name = f" ({info.meta['name']})" if info.meta.get("name") else ""
    made = (
        f"job {info.job_id}{name}, made from {Path(str(info.meta.get('file') or '?')).name} "
        f"on {info.meta.get('created', '?')} UTC, sends the same rows to {writes_to(info.meta)}"
    )
    progress = f"{info.done:,} of {counted(info.rows, 'row', 'rows')} done"
    wait = "wait for it to end, then look at its report, so that no row is sent twice."
    if other.holder is not None:
        who = f"pid {other.holder.pid}" if other.holder.pid else "another process"
        return f"{action}: {made} and is running now ({who}; {progress}); {wait}"
    if other.starting:
        return (
            f"{action}: {made} and was started a moment ago by another process, which is "
            f"still reading or sending it; {wait}"
        )
    return (
        f"{action}: {made} and is not finished ({job_state(info, None)}, {progress}); {finish}, "
        f"so that no row is sent twice; to start anew instead, cancel it first: {cancel}."
    )


def writes_to(meta: Mapping[str, Any]) -> str:
    """The list and scope a job writes to, as a sentence names them: "the DNC list (scope
    global)"."""
    lists = {"dnc": "the DNC list", "sms-opt-out": "the SMS opt-out list"}
    target = str(meta.get("target") or "dnc")
    return f"{lists.get(target, f'the list {target!r}')} (scope {meta.get('scope') or '?'})"


# Set in the meta of a job just staged once it passed same_file_job (see claim_beside).
CHECKED_BESIDE = "checked_beside"
# The lock file in the jobs folder that claim_beside holds.
BESIDE_LOCK = "same-file-check.lock"


def claim_beside(store: JobStore, jobs_dir: Path) -> SameFileJob | None:
    """:func:`same_file_job` for the job just staged in ``store``; when it finds none, the job
    is marked as having passed it, so the check of any other job of its file refuses that
    one. Check and mark are one step under a lock file in ``jobs_dir``: two jobs of one file
    started in the same second each passed the check before the other was marked, and the
    later one to check went on beside the other when its id came first (both ran)."""
    with job_lock.folder_lock(jobs_dir / BESIDE_LOCK):
        other = same_file_job(jobs_dir, read_job(store.path))
        if other is None:
            store.set_meta({CHECKED_BESIDE: True})
        return other


def refuse_beside(store: JobStore, jobs_dir: Path, action: str, finish: str, cancel: str) -> None:
    """Remove the job just staged in ``store`` and raise :class:`SameFileRefused` when
    :func:`claim_beside` finds one it must not run beside (the window's wizard and removal
    dialog, which stage then send in one go); ``finish`` and ``cancel`` as
    :func:`same_file_refusal` takes them."""
    other = claim_beside(store, jobs_dir)
    if other is not None:
        sentence = same_file_refusal(other, action, finish, cancel)
        discard_unrun(store)
        raise SameFileRefused(sentence)


class SameFileRefused(Exception):
    """A new job refused beside another of the same file; ``str()`` is one sentence."""


def discard_unrun(store: JobStore) -> None:
    """Remove a job just staged and never run (nothing of it was sent), with SQLite's files."""
    store.close()
    sqlite_files = (store.path.with_name(store.path.name + x) for x in ("-wal", "-shm"))
    for path in (store.path, *sqlite_files):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
