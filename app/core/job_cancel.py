"""Cancel a job that no process runs (paused, interrupted, or made and never run): what
``dnc-desk jobs cancel`` does. Before it, the only way to give up such a job was to move its
job file out of the jobs folder, which left its rows without an outcome and no report.

The job ends as a cancel during its run ends it, through the runner's own cancel
(:class:`~app.core.job_runner.JobRunner` with its control cancelled before any row is taken
up: no request is made): its unsent rows end ``not_attempted`` ("cancelled before it was
sent"), its status is ``cancelled`` (so it no longer holds up a new job of its file), its
report is written and the change journal records its end.

A row whose write may have reached the service is never called not attempted: one in flight
when its process stopped whose intent the change journal has (not ended "not_attempted"),
and a removal row of a purpose whose entry another row's delete, answered, may have taken (a
cancel during the run settles that one from the journal as removed). Only a resume settles
those (it looks each up), so the cancel is refused, changing nothing, and says to resume
first (:class:`WritesLeftOpen`).

With no change journal in the data folder (deleted, moved, lost) nothing can say which rows
in flight were sent: every row the job file shows in flight is taken as maybe sent (black-box
bb16 F8: such rows were called not attempted). No journal is made for the cancel's end: a new
one would hold that end alone and verify intact over the missing record of the job's writes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core import job_lock
from app.core.job_exec import report_path, write_job_report
from app.core.job_runner import JobControl, JobRunner, RowResult, sent_before_in
from app.core.job_store import JobRow, JobStatus, JobStore, RowState, scope_from_text, utc_now
from app.core.journal import ChangeJournal, JournalError
from app.core.paths import path_text
from app.core.session import e164, journal_target
from app.core.sheet_check import Target

# Rows a refusal names before "and N more".
ROWS_NAMED = 5

# The statuses of a job that has ended: nothing is left to cancel.
ENDED = (JobStatus.FINISHED, JobStatus.CANCELLED, JobStatus.DRY_RUN)

# The change journal's event of a job's end names who ended it so (a run's end names none).
CANCELLED_BY = "dnc-desk jobs cancel"


class WritesLeftOpen(Exception):
    """The job has rows whose write may have reached the service; ``rows`` are they, in
    sheet order. Nothing was changed."""

    def __init__(self, rows: list[JobRow]) -> None:
        super().__init__(f"{len(rows)} rows whose write may have reached the service")
        self.rows = rows


class NoJournal(WritesLeftOpen):
    """:class:`WritesLeftOpen` with no change journal to read: ``rows`` are every row the job
    file shows in flight (and, for a removal, every row of a number another row sent)."""


def busy_sentence(job: str, exc: job_lock.JobBusy, how_to_stop: str) -> str:
    """Why a job another process runs now is not cancelled, and what to do; ``how_to_stop``
    says how that run is paused where the sentence is read ("Ctrl+C in its terminal pauses
    it", "Pause, or Ctrl+C in its terminal")."""
    if exc.holder is None:
        return f"{exc} Job {job} was not cancelled."
    return (
        f"Job {job} is being run now by {exc.holder.process()}, so it cannot be cancelled from "
        f"here: stop that run ({how_to_stop}), then cancel it again; nothing was changed."
    )


@dataclass(frozen=True, slots=True)
class CancelOutcome:
    """How :func:`cancel_job` left the job: ``status`` is its status now; ``already`` says it
    had ended before (nothing was changed); ``not_attempted`` how many rows this cancel ended
    so; ``report`` where its report is."""

    status: JobStatus
    already: bool
    not_attempted: int
    report: Path
    # Why the change journal could not record the job's end ("" when it did): the job is
    # cancelled all the same, which its file and report say.
    not_journaled: str = ""
    # There was no change journal, and none was made to record the end in (``not_journaled``
    # then says so): the data folder's record of the job's writes is missing.
    no_journal: bool = False


def journal_for_cancel(path: Path) -> ChangeJournal | None:
    """The change journal at ``path``, to read the job's writes from and record its end in;
    None when there is none, for none is made there (see the module's docstring). Raises
    :class:`JournalError` when it cannot be read."""
    return ChangeJournal(path) if path.exists() or path.is_symlink() else None


def no_journal_words(path: Path) -> str:
    """Why a cancel with no journal at ``path`` recorded its end in none."""
    return (
        f"there is no change journal at {path_text(path)}, and none was made for it: a new "
        "one would hide that the record of the job's earlier writes is missing. If the "
        "journal was moved, put it back; dnc-desk journal verify says what is missing"
    )


def _journal_kind(store: JobStore) -> tuple[str, str]:
    """The list the job writes to as the change journal names it, and its write's operation."""
    meta = store.meta()
    if meta.get("kind") == "removal":
        return "dnc", "dnc.delete"
    kind = "dnc" if meta.get("target") == Target.DNC.value else "sms"
    return kind, f"{kind}.insert"


def _taken_by_another_delete(journal: ChangeJournal, job_id: str, row: JobRow) -> bool:
    """Whether a pending removal row of a purpose may have had its entry taken by an answered
    delete this job sent for another purpose of the number (the service's delete in purpose
    scope takes every purpose at once): its run's cancel settles it from the journal's
    intent, which a cancel with no connection leaves to a resume (removal_job's on_cancel)."""
    scope = scope_from_text(row.scope)
    if not scope.is_purpose:
        return False
    prefix = journal_target("dnc", row.national, row.phone_code, Scope.purpose(""))
    phone = e164(row.national, row.phone_code)
    answered = journal.job_writes(
        job=job_id, operation="dnc.delete", phone=phone, phase="outcome", outcome="ok"
    )
    return any(e.target.startswith(prefix) for e in answered)


def _in_flight_unread(store: JobStore) -> list[JobRow]:
    """With no journal to read: the rows the job file shows in flight, and for a removal the
    pending rows of a purpose whose number another row of the job took up (its delete, in
    purpose scope, may have taken their entry)."""
    taken: set[tuple[str, str]] = set()
    if store.meta().get("kind") == "removal":
        taken = {
            (r.national, r.phone_code) for r in store.rows() if r.state != RowState.PENDING.value
        }

    def left_open(row: JobRow) -> bool:
        if row.state == RowState.SENDING.value:
            return True
        pending = row.state == RowState.PENDING.value
        number = (row.national, row.phone_code)
        return pending and number in taken and scope_from_text(row.scope).is_purpose

    return [row for row in store.rows() if left_open(row)]


def writes_left_open(store: JobStore, journal: ChangeJournal | None) -> list[JobRow]:
    """The job's unsent rows whose write may have reached the service (see the module's
    docstring), in sheet order; with no ``journal``, every row that may have been sent."""
    if journal is None:
        return _in_flight_unread(store)
    job_id = str(store.meta().get("job_id", ""))
    kind, operation = _journal_kind(store)
    sent_before = sent_before_in(journal, job_id, kind, operation)
    removal = operation == "dnc.delete"

    def left_open(row: JobRow) -> bool:
        if row.state == RowState.SENDING.value:
            return bool(sent_before(row))
        pending = row.state == RowState.PENDING.value
        return removal and pending and _taken_by_another_delete(journal, job_id, row)

    return [row for row in store.rows() if left_open(row)]


def rows_named(rows: list[JobRow]) -> str:
    """``row 12 (+12025550112)``, ``rows 12 (+1…), 13 (+1…) and 4 more``."""
    shown = [f"{r.row_number} ({e164(r.national, r.phone_code) or r.original})" for r in rows]
    named = ", ".join(shown[:ROWS_NAMED])
    more = len(rows) - min(len(rows), ROWS_NAMED)
    head = "row" if len(rows) == 1 else "rows"
    return f"{head} {named}" + (f" and {more:,} more" if more else "")


def open_writes_sentence(
    job: str, rows: list[JobRow], resume: str, cancel: str, no_journal: Path | None = None
) -> str:
    """Why job ``job`` was not cancelled (:class:`WritesLeftOpen` of ``rows``) and what to do:
    ``resume`` says how to resume it (the CLI's command, the window's button), ``cancel`` how
    to cancel it after (both lead with their own preposition or colon). ``no_journal``: the
    journal's path, for :class:`NoJournal` (there is none to read)."""
    one = len(rows) == 1
    if no_journal is not None:
        return (
            f"Job {job} was not cancelled: there is no change journal at "
            f"{path_text(no_journal)} (deleted or moved?), so nothing shows whether "
            f"{rows_named(rows)}, which the job file shows "
            f"{'was' if one else 'were'} being sent when the job stopped (or whose entry "
            "another row's delete may have taken), reached the service; calling "
            f"{'it' if one else 'them'} not attempted could be untrue. If the journal was "
            "moved, put it back. Else resume the job first, which looks each of them up and "
            f"settles it before any other row: {resume}, and cancel it after {cancel}"
        )
    return (
        f"Job {job} was not cancelled: the change journal shows a write of "
        f"{rows_named(rows)} that may have reached the service (the job stopped while "
        f"{'it was' if one else 'they were'} being sent, or another row's delete "
        "may have taken its entry), so calling "
        f"{'it' if one else 'them'} not attempted could be untrue. Resume the job "
        f"first, which looks each of them up and settles it before any other row: {resume}, "
        f"and cancel it after {cancel}"
    )


def _never_called(row: JobRow, resent: bool) -> RowResult:
    """The runner's send: its control is cancelled before its first row, so it sends none."""
    raise AssertionError(f"a cancelled job sent row {row.row_number}")


def cancel_job(
    store: JobStore,
    journal: ChangeJournal | None,
    decided: Callable[[], None] = lambda: None,
    journal_path: Path | None = None,
) -> CancelOutcome:
    """Cancel the job of ``store``, which no process may be running: raises
    :class:`~app.core.job_lock.JobBusy` when one is, and :class:`WritesLeftOpen` when a row's
    write may have reached the service (:class:`NoJournal` when ``journal`` is None: there is
    none, at ``journal_path``), changing nothing either way. ``decided`` is called
    once the job is to be cancelled, before anything is written (the CLI stops taking
    signals there: the cancel is not to be cut in two)."""
    meta = store.meta()
    job_id = str(meta.get("job_id", ""))
    with job_lock.acquire(
        store.path,
        job_id,
        ran_from=str(meta.get("ran_from") or ""),
        ran_at=str(meta.get("ran_at") or ""),
        ran_locks=str(meta.get("ran_locks") or ""),
    ) as lock:
        status = JobStatus(store.status)
        if status in ENDED:
            lock.ended = status.value
            return CancelOutcome(status, True, 0, write_job_report_if_missing(store))
        if open_rows := writes_left_open(store, journal):
            raise (NoJournal if journal is None else WritesLeftOpen)(open_rows)
        decided()
        before = store.counts()["not_attempted"]
        control = JobControl()
        control.cancel()
        status = JobRunner(store, _never_called, control=control).run()
        lock.ended = status.value
        store.set_meta({"finished": utc_now()})
        report = write_job_report(store)
        now = store.counts()["not_attempted"] - before
        if journal is None:
            unrecorded = no_journal_words(journal_path or Path("journal.sqlite3"))
            return CancelOutcome(status, False, now, report, unrecorded, no_journal=True)
        return CancelOutcome(status, False, now, report, _record_end(journal, store, meta))


def _record_end(journal: ChangeJournal, store: JobStore, meta: dict[str, Any]) -> str:
    """Record the cancelled job's end as its run's end is recorded; why it could not be
    recorded (a full disk), else ""."""
    try:
        journal.record_event(
            connection=str(meta.get("connection", "")),
            base_url=str(meta.get("base_url", "")),
            operation="job.finish",
            target=f"{meta.get('kind', 'job')} {meta.get('file', '')}",
            note=str(meta.get("note", "")),
            job=str(meta.get("job_id", "")),
            details={
                "name": meta.get("name", ""),
                "status": store.status,
                "counts": store.counts(),
                "cancelled_by": CANCELLED_BY,
            },
        )
    except JournalError as exc:
        return str(exc)
    return ""


def write_job_report_if_missing(store: JobStore) -> Path:
    """The ended job's report, written again when it is not where it goes."""
    path = report_path(store)
    return path if path.is_file() else write_job_report(store)
