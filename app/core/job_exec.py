"""Run a staged job to its end: journal events, the run loop, the report, the summary.

Imports and removals differ only in the function that sends one row; everything around it
(the run lock, the start and finish events in the change journal, timing, the report) is here.

Each run records in the job's meta the file it runs from (``ran_from``, a real path, and
``ran_at``) and the locks folder it runs under (``ran_locks``), under the run lock: a copy of
the file then knows what it is a copy of, and where the job's later runs are recorded, in any
data folder (:mod:`app.core.job_lock`). A report path that belongs to another job file (the
one this file was copied from: the report beside it, named as it is) is not written over:
this run's report goes beside this job file, and the meta says so (``report_moved``).

Nor is a report another job wrote: the meta records what was at the report path when the job
claimed it (``report_claim``: nothing, or the file an ``--overwrite`` was given for) and what
this job last wrote there (``report_written``); a file at the path that is neither was put
there by someone else after this job started (two jobs given the same ``--report``), so this
job's report goes beside its job file instead, with ``report_moved`` saying why. So does a
folder made at the path meanwhile, said as such.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import shutil
import sqlite3
import stat
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from app.core import job_lock
from app.core.connections import normalize_base_url
from app.core.job_catalog import (
    SOURCE_SHA256,
    SOURCE_SIZE,
    staging_state,
    unstaged_sentence,
)
from app.core.job_report import (
    LATE_NOT_CERTAIN,
    MAYBE_INSERTED,
    RunningReport,
    late_count,
    late_not_certain_count,
    maybe_inserted_count,
    write_report,
)
from app.core.job_runner import JobControl, JobProgress, JobRunner, SendFn
from app.core.job_store import SUFFIX, JobStatus, JobStore, utc_now
from app.core.journal import JournalError
from app.core.session import Session

# Job meta keys: what was at the report path when the job claimed it, and what the job itself
# last wrote there (each {"path": …} with a file stamp, see file_stamp).
REPORT_CLAIM = "report_claim"
REPORT_WRITTEN = "report_written"
ANOTHER_JOBS_REPORT = "another job wrote its report there after this job started"

Stamp = dict[str, int]


def report_path(store: JobStore) -> Path:
    meta = store.meta()
    return Path(meta.get("report") or store.path.with_suffix(".xlsx"))


def file_stamp(path: Path) -> Stamp | None:
    """What tells one file at ``path`` from another written there later (every report is
    saved under a new inode, see :meth:`SafeWorkbook.save`); None when nothing is there."""
    try:
        st = path.expanduser().stat()
    except OSError:
        return None
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "ino": st.st_ino}


def claim_report(store: JobStore, was: Stamp | None) -> None:
    """Record that the job's report path held ``was`` (None: nothing) when the job took it:
    that file may be replaced (``--overwrite`` said so), any other one is not this job's."""
    store.set_meta({REPORT_CLAIM: {"path": str(report_path(store)), "was": was}})


def _claim_if_unclaimed(store: JobStore) -> None:
    # A job staged elsewhere (the window) claims its path when it first writes or runs.
    if not isinstance(store.meta().get(REPORT_CLAIM), dict):
        claim_report(store, file_stamp(report_path(store)))


def _written_by_another(store: JobStore, path: Path) -> bool:
    """Whether the file at ``path`` is neither the one there when the job claimed the path
    nor the one this job last wrote there: another job's report, written since."""
    now = file_stamp(path)
    meta = store.meta()
    claim = meta.get(REPORT_CLAIM)
    if now is None or not isinstance(claim, dict) or claim.get("path") != str(path):
        return False
    written = meta.get(REPORT_WRITTEN)
    last = (
        written.get("stamp")
        if isinstance(written, dict) and written.get("path") == str(path)
        else None
    )
    return now not in (claim.get("was"), last)


def _not_a_file(store: JobStore, path: Path) -> str:
    """Why no report can be written at ``path``, when something other than a file is there
    now (a folder); ``""`` when a file or nothing is."""
    try:
        mode = path.expanduser().stat().st_mode
    except OSError:
        return ""
    if stat.S_ISREG(mode):
        return ""
    what = "a folder" if stat.S_ISDIR(mode) else "not a file (a pipe, a socket, a device)"
    claim = store.meta().get(REPORT_CLAIM)
    if (
        isinstance(claim, dict)
        and claim.get("path") == str(path)
        and claim.get("was") != file_stamp(path)
    ):
        return f"that path is now {what}, made there after this job started"
    return f"that path is {what}"


def report_destination(store: JobStore) -> Path:
    """Where the job's report is written now: its path, or beside its job file when another
    job wrote its report at that path since this job claimed it, or a folder was made there
    (the meta then says which)."""
    path = report_path(store)
    fallback = store.path.with_suffix(".xlsx").resolve()
    if path.expanduser().resolve() == fallback:
        return path
    # A folder is no other job's report (black-box Q3 #6: one made at --report was said to be).
    reason = _not_a_file(store, path)
    if not reason and _written_by_another(store, path):
        reason = ANOTHER_JOBS_REPORT
    if not reason:
        return path
    store.set_meta({"report": str(fallback), "report_moved": {"from": str(path), "reason": reason}})
    return fallback


def _staging_path(store: JobStore) -> Path:
    """Where a report is written before it is moved to its path, beside the job file: the
    move is the moment the path is taken, and another job's report is looked for just then."""
    return store.path.with_name(store.path.stem + ".report-part.xlsx")


def publish_report(store: JobStore, written: Path) -> Path:
    """Move the report ``written`` (at :func:`_staging_path`) to :func:`report_destination`
    and record it as this job's; returns where it went. Raises OSError naming that place
    (the staged file removed) when it cannot go there."""
    dest = report_destination(store)
    try:
        if not _link_if_free(store, written, dest):
            dest = report_destination(store)  # taken just now by another job
            _replace(written, dest)
    except OSError as exc:
        written.unlink(missing_ok=True)
        if exc.filename == str(dest) and exc.filename2 is None:
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), str(dest)) from exc
    store.set_meta({REPORT_WRITTEN: {"path": str(dest), "stamp": file_stamp(dest)}})
    return dest


def _link_if_free(store: JobStore, written: Path, dest: Path) -> bool:
    """Put ``written`` at ``dest`` when nothing is there, without ever replacing a file that
    appears there meanwhile (a hard link fails when the name is taken); False when one did.
    Where nothing should be there is not asked, or no hard link can be made (another disk),
    the file is moved there by :func:`_replace`."""
    if file_stamp(dest) is not None:
        _replace(written, dest)
        return True
    dest = dest.expanduser()
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(written, dest)
    except FileExistsError:
        return False
    except OSError:
        _replace(written, dest)
        return True
    written.unlink(missing_ok=True)
    return True


def _replace(written: Path, dest: Path) -> None:
    dest = dest.expanduser()
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(written, dest)
        return
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
    # Another disk: copied beside it first, so no reader sees half a report under its name.
    part = dest.with_name(dest.name + ".part")
    try:
        shutil.copyfile(written, part)
        os.replace(part, dest)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    written.unlink(missing_ok=True)


def write_job_report(store: JobStore) -> Path:
    """Write the job's report where it goes (:func:`report_destination`); returns the path."""
    _claim_if_unclaimed(store)
    return publish_report(store, write_report(store, _staging_path(store)))


def job_summary(store: JobStore) -> dict[str, Any]:
    """Counts for the CLI's JSON and the GUI's job list.

    An import's ``already_present`` counts every row whose number the service had when it
    was sent; ``already_present_maybe_inserted`` counts those of them that may be on the list
    by this job's own doing (an attempt whose answer was lost, or a look-up after an error
    found it: :func:`app.core.job_report.maybe_inserted`). Only the difference is known to
    have been on the list before the job. ``late_requests_not_certain`` counts those of
    ``late_requests`` measured to an entry's day by the service's clock, whose time zone could
    not be learnt, which a day earlier would make not late
    (:func:`app.core.job_report.service_day_unsure`); 0 for a removal.
    """
    meta = store.meta()
    counts = store.counts()
    rows = sum(counts.values())
    not_checked_valid = counts["invalid"] + counts["duplicate_in_file"] + counts["blank"]
    out: dict[str, Any] = {
        "job": meta.get("job_id", ""),
        "job_file": str(store.path),
        "name": meta.get("name", ""),
        "note": meta.get("note", ""),
        "status": meta.get("status", ""),
        "rows": rows,
        "valid": rows - not_checked_valid,
        "invalid": counts["invalid"],
        "duplicates_in_file": counts["duplicate_in_file"],
        "blank": counts["blank"],
    }
    if meta.get("kind") == "removal":
        out["removed"] = counts["removed"]
        out["not_found"] = counts["not_found"]
    else:
        out["inserted"] = counts["inserted"]
        out["already_present"] = counts["already_present"]
        # Stored by the report (as late_requests is); counted when no report has stored it.
        maybe = meta.get(MAYBE_INSERTED)
        out[MAYBE_INSERTED] = maybe if isinstance(maybe, int) else maybe_inserted_count(store)
    out["failed"] = counts["failed"]
    out["not_attempted"] = counts["not_attempted"]
    out["pending"] = counts["pending"]
    # The report stores its count; counting again would read every row a second time.
    late = meta.get("late_requests")
    out["late_requests"] = int(late) if isinstance(late, int) else late_count(store)
    # Of them, those counted to an entry's day by the service's clock, whose zone is unknown.
    out[LATE_NOT_CERTAIN] = late_not_certain_count(store)
    out["report"] = str(report_path(store))
    return out


def finish_dry_run(store: JobStore) -> Path:
    store.set_status(JobStatus.DRY_RUN, finished=utc_now())
    return write_job_report(store)


# Called by execute() once the run holds the job and before it sends a row (see on_start).
_ON_START: ContextVar[Callable[[], None] | None] = ContextVar("job_on_start", default=None)


@contextlib.contextmanager
def on_start(callback: Callable[[], None]) -> Iterator[None]:
    """Within this block, :func:`execute` calls ``callback`` once it holds the job's run lock
    and before any row is sent: the CLI says there how to resume the job, which a run refused
    (another runner has the job, another service) must not say."""
    token = _ON_START.set(callback)
    try:
        yield
    finally:
        _ON_START.reset(token)


def execute(
    store: JobStore,
    session: Session,
    send: SendFn,
    *,
    concurrency: int,
    control: JobControl | None = None,
    progress: Callable[[JobProgress], None] | None = None,
) -> JobStatus:
    """Send the job's unfinished rows and rewrite its report, whatever happens.

    Holds the job's run lock (:mod:`app.core.job_lock`) from before the start event to after
    the finish event; raises :class:`~app.core.job_lock.JobBusy` (a ``JobAborted``), having
    sent and written nothing, when another runner holds it. A job that another runner ended
    after the caller last looked at it is not run again: its status is returned as it is.

    Raises :class:`~app.core.job_runner.JobAborted` (after writing the report) when the
    service refuses the token or stops answering.
    """
    meta = store.meta()
    if staging_state(meta):
        raise JobNotStaged(not_staged_sentence(meta))
    with job_lock.acquire(
        store.path,
        str(meta.get("job_id", "")),
        ran_from=str(meta.get("ran_from") or ""),
        ran_at=str(meta.get("ran_at") or ""),
        ran_locks=str(meta.get("ran_locks") or ""),
    ) as lock:
        ended = store.status
        if ended in (JobStatus.FINISHED, JobStatus.CANCELLED, JobStatus.DRY_RUN):
            lock.ended = str(ended)
            return JobStatus(ended)
        refuse_another_service(meta, session.connection.base_url)
        store.set_meta(
            {
                "ran_from": os.path.realpath(store.path),
                "ran_at": utc_now(),
                "ran_locks": job_lock.locks_folder(),
            }
        )
        _keep_others_report(store)
        _claim_if_unclaimed(store)
        # Before the front end says the job started: killed right after that line, the job
        # is then "interrupted" in the job list, not "ready" as if it never ran (black-box
        # B19 F1). The runner keeps it running until it ends.
        resuming = bool(meta.get("started"))
        store.set_meta(
            {"status": JobStatus.RUNNING.value, **({} if resuming else {"started": utc_now()})}
        )
        if (started := _ON_START.get()) is not None:
            started()
        status = _execute(store, session, send, concurrency, control, progress, resuming)
        lock.ended = status.value
        return status


class JobNotStaged(job_lock.JobBusy):
    """The job's rows were not all read from its file and stored (its staging was killed, or
    is going on in another process: job_catalog.staging_state); ``str()`` is one sentence.

    A :class:`~app.core.job_lock.JobBusy` for its callers: nothing was sent or journaled, and
    the job is not to be resumed (black-box B14 F1: it sent the rows stored, or none, and was
    reported finished).
    """


def not_staged_sentence(meta: dict[str, Any]) -> str:
    """Why the job of ``meta`` is not run (:class:`JobNotStaged`), with the command that starts
    it again."""
    command = "remove" if meta.get("kind") == "removal" else "import"
    file = str(meta.get("file") or "FILE")
    return unstaged_sentence(meta, f" (dnc-desk {command} {shlex.quote(file)} …)")


class JobOnAnotherService(job_lock.JobBusy):
    """The job was started on another service than the session's; ``str()`` is one sentence.

    A :class:`~app.core.job_lock.JobBusy` for its callers: nothing was sent, and resuming it
    here is not the way on (the sentence names the service that is).
    """


_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


def _service(base_url: str) -> str:
    """A service address as it compares: no trailing slash or /v1 (in any case), scheme and
    host lowercase, no default port (re-test J2: ``HTTP://HOST:80/v1/`` was refused as another
    service than ``http://host``)."""
    url = normalize_base_url(base_url)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url.lower()
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address, as a URL writes it
    shown = "" if port is None or port == _DEFAULT_PORTS.get(scheme) else f":{port}"
    return f"{scheme}://{host}{shown}{parts.path}"


def refuse_another_service(meta: Mapping[str, Any], here: str) -> None:
    """A job's rows go to the service it was started on: half a job on one account and half
    on another, under a report naming the first, is false evidence. ``here`` is the base URL
    a resume was given; URLs only are compared, so a front end calls this before its first
    request (black-box bb12 F9: the token of one service went to the other before this said
    no)."""
    started_on = str(meta.get("base_url") or "")
    if not started_on or _service(started_on) == _service(here):
        return
    connection = str(meta.get("connection") or "")
    # A job started with --base-url is named after its URL: naming it again as a connection
    # repeated the URL (black-box B4 #10).
    named = (
        f" (connection {connection!r})"
        if connection and _service(connection) != _service(started_on)
        else ""
    )
    raise JobOnAnotherService(
        f"Job {meta.get('job_id', '')} was started on {started_on}{named}, not on {here}; "
        "its rows go only to the service it was started on, so resume it there."
    )


def others_report(store: JobStore) -> Path | None:
    """The job file the stored report path belongs to when that is not this job file: the
    report beside a job file and named as it is (``jobs/<id>.xlsx`` for ``jobs/<id>.dncjob``),
    as a copy of a job file made elsewhere, or under another name, still names."""
    report = report_path(store).expanduser()
    owner = report.with_suffix(SUFFIX)
    if not owner.is_file():
        return None
    try:
        if os.path.samefile(owner, store.path):
            return None
    except OSError:
        return None
    return owner


def _keep_others_report(store: JobStore) -> None:
    """Send this run's report beside this job file when the stored path is another job
    file's report (a copy would write over the original's); the meta says so, as the CLI's
    result does for a report that could not be written where asked."""
    owner = others_report(store)
    if owner is None:
        return
    wanted = report_path(store)
    store.set_meta(
        {
            "report": str(store.path.with_suffix(".xlsx").resolve()),
            "report_moved": {
                "from": str(wanted),
                "reason": f"it belongs to the job file {owner}",
            },
        }
    )


# The outcome of a journal intent whose process stopped before its answer was recorded.
UNANSWERED = "unknown"
UNANSWERED_TEXT = (
    "no answer was recorded: the app stopped (killed, crashed or lost power) while this "
    "request was in flight or about to be sent, so it may or may not have been done; the "
    "resumed job sends the row again"
)


def _close_unanswered(session: Session, job_id: str) -> None:
    """Give the job's intents left without an outcome by a run that was killed the outcome
    ``unknown``, before the resumed run sends those rows again: the journal then says of every
    write it recorded how it ended, as far as anyone can know."""
    for intent in session.journal.unanswered_intents(job_id):
        session.journal.record_outcome(intent.id, outcome=UNANSWERED, error=UNANSWERED_TEXT)


def _source_fingerprint(meta: Mapping[str, Any]) -> dict[str, Any]:
    """The file's SHA-256 and size as they were when the job was read from it, for its start
    event: the journal then ties its writes to one version of the file (black-box bb5 F3),
    with no second read of a file that may be 100 MB. Those of a job made before the
    fingerprint was kept are not known, and left out."""
    found: dict[str, Any] = {}
    if isinstance(digest := meta.get(SOURCE_SHA256), str) and digest:
        found["file_sha256"] = digest
    if isinstance(size := meta.get(SOURCE_SIZE), int):
        found["file_size"] = size
    return found


def _execute(
    store: JobStore,
    session: Session,
    send: SendFn,
    concurrency: int,
    control: JobControl | None,
    progress: Callable[[JobProgress], None] | None,
    resuming: bool,
) -> JobStatus:
    meta = store.meta()
    job_id = str(meta.get("job_id", ""))
    interrupted_start = False
    if resuming:
        _close_unanswered(session, job_id)
        # A run killed after the job was marked started but before its start event was
        # committed left none: the job's first event is still its start (black-box B19 F1:
        # a journal whose first event of a job was "job.resume"), saying when the job was
        # started and that this run resumes it (re-test U3 F4).
        interrupted_start = session.journal.count(operation="job.start", job=job_id) == 0
        resuming = not interrupted_start
    first_run = {"started": meta.get("started"), "resumed": True} if interrupted_start else {}
    # The last report's count of rows this job may have inserted is stale once rows are sent
    # again: a run killed before its report is written must not leave it standing.
    if meta.get("kind") != "removal":
        store.set_meta({MAYBE_INSERTED: None})
    session.journal.record_event(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation=f"job.{'resume' if resuming else 'start'}",
        target=f"{meta.get('kind', 'job')} {meta.get('file', '')}",
        note=str(meta.get("note", "")),
        job=job_id,
        details={
            "name": meta.get("name", ""),
            "file": meta.get("file", ""),
            "target": meta.get("target", ""),
            "scope": meta.get("scope", ""),
            "rows_to_send": store.counts()["pending"],
            **_source_fingerprint(meta),
            **first_run,
        },
    )
    runner = JobRunner(store, send, concurrency=concurrency, control=control, progress=progress)
    status = JobStatus.PAUSED
    # Another job's report at the path is left alone: this one goes beside the job file.
    path = report_destination(store)
    # The last run's report says "paused" and its counts: beside a run that sends more it
    # would misstate what was sent, and stay so if this process is killed. The run writes a
    # new one when it ends, whatever the way it ends short of being killed; a killed run's
    # report is written by its resume.
    with contextlib.suppress(OSError):  # one that cannot go cannot be replaced either: said then
        path.unlink(missing_ok=True)
    report = RunningReport(store, _staging_path(store))
    stamp = _file_id(store.path)
    ran_to_its_end = False
    try:
        status = runner.run()
        ran_to_its_end = True
    finally:
        if status is not JobStatus.PAUSED:
            store.set_meta({"finished": utc_now()})
        gone = _job_file_gone(store.path, stamp)
        written: Path | None = None
        try:
            written = publish_report(store, report.finish())
        finally:
            if gone:
                _say_job_file_gone(store, gone, written or report_path(store))
        counts = store.counts()
        try:
            session.journal.record_event(
                connection=session.connection.name,
                base_url=session.connection.base_url,
                operation="job.finish" if status is not JobStatus.PAUSED else "job.pause",
                target=f"{meta.get('kind', 'job')} {meta.get('file', '')}",
                note=str(meta.get("note", "")),
                job=job_id,
                details={"name": meta.get("name", ""), "status": store.status, "counts": counts},
            )
        except JournalError:
            # A run stopped by the journal itself (a full disk: JobAborted says so) cannot
            # record its pause either; that error must not hide why it stopped.
            if ran_to_its_end:
                raise
    return status


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _job_file_gone(path: Path, stamp: tuple[int, int] | None) -> str:
    """How the job file at ``path`` (``stamp`` when the run started) left it while the job
    ran: ``"deleted or moved"``, ``"replaced by another file"``, or ``""`` when it is there.
    The run itself goes on into the file it opened, but no one finds that by its path."""
    if stamp is None:
        return ""
    try:
        now = _file_id(path) if path.exists() else None
    except OSError:
        return ""
    if now is None:
        return "deleted or moved"
    return "" if now == stamp else "replaced by another file"


def _say_job_file_gone(store: JobStore, how: str, report: Path) -> None:
    """Add to the job's warnings (the CLI's result and the GUI's list print them) that its
    file left its path while it ran (black-box L4 #13: a job whose file was deleted mid-run
    ended with its report written, and ``jobs --all`` then listed no job, unsaid)."""
    meta = store.meta()
    status = str(meta.get("status") or "")
    left = (
        " and the rows it had not sent cannot be resumed"
        if status in (JobStatus.PAUSED.value, JobStatus.RUNNING.value)
        else ""
    )
    sentence = (
        f"The job file {store.path} was {how} while the job ran, so the jobs list no longer "
        f"shows this job{left}; its outcomes are in the report {report}."
    )
    warnings = [str(w) for w in meta.get("warnings") or []]
    store.set_meta({"warnings": [*warnings, sentence], "job_file_gone": how})


def list_jobs(jobs_dir: Path) -> list[dict[str, Any]]:
    """Every job file's summary, newest first, for the GUI's job list and ``--resume``.

    A file that cannot be read (being written by another process, damaged) is listed with
    ``status`` ``unreadable`` rather than hiding it.
    """
    out: list[dict[str, Any]] = []
    # Ids are "<kind>-<UTC stamp>-<random>": order by the stamp, not by the kind.
    paths = sorted(jobs_dir.glob(f"*{SUFFIX}"), key=lambda p: p.stem.split("-", 1)[-1])
    for path in reversed(paths):
        try:
            with JobStore(path) as store:
                out.append(job_summary(store))
        except sqlite3.Error as exc:
            out.append(
                {"job": path.stem, "job_file": str(path), "status": "unreadable", "error": str(exc)}
            )
    return out
