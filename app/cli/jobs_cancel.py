"""``dnc-desk jobs cancel JOB [--json]``: cancel a job that no process runs (paused,
interrupted, or made and never run), as a cancel during its run does
(:func:`app.core.job_cancel.cancel_job`): its unsent rows end "not attempted (cancelled before
it was sent)", its report is written, and it no longer holds up a new job of its file. Before
it, the only way was to move the job file out of the jobs folder.

Refused, changing nothing (exit 1), when a process runs the job now, when a row's write may
have reached the service (resume it first: the resume settles those rows), or when the job
was stopped while reading its file (nothing of it was sent, and it holds up nothing). A job
that had ended already is left as it is (exit 0, saying so).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from app.cli.connection_args import EXIT_FAILED, EXIT_OK, EXIT_USAGE, emit_json, fail
from app.cli.import_cmd import already_ended_sentence, command_of, restart_sentence
from app.cli.import_cmd import resume_command as _resume_command
from app.cli.main import outcome_decided
from app.core.job_cancel import (
    CancelOutcome,
    NoJournal,
    WritesLeftOpen,
    busy_sentence,
    cancel_job,
    journal_for_cancel,
    open_writes_sentence,
)
from app.core.job_catalog import READING, staging_state
from app.core.job_exec import job_summary
from app.core.job_lock import JobBusy
from app.core.job_store import SUFFIX, JobRow, JobStore
from app.core.journal import JournalError
from app.core.paths import AppPaths, path_text
from app.core.wording import counted


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "job",
        metavar="JOB",
        help="the job to cancel: its id as `dnc-desk jobs` lists it (or its job file), as "
        "--resume takes it",
    )
    # SUPPRESS: `jobs --json cancel JOB` keeps the --json given before the action.
    parser.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="print one JSON object"
    )
    parser.epilog = (
        "Exit status: 0 cancelled (also when the job had ended already: nothing is changed, "
        "and it says so); 1 not cancelled, nothing changed: a process runs the job now, a "
        "row's write may have reached the service (resume the job first; with no change "
        "journal, any row in flight when the job stopped counts), the job was "
        "stopped while reading its file, or its job file or the change journal cannot be "
        "read; 2 a bad argument, or no job with that id; 130, 143 or 129 Ctrl+C, SIGTERM or "
        "SIGHUP stopped it before anything was changed."
    )


def _no_job(job: str, jobs_dir: Path) -> tuple[str, int]:
    given = Path(job)
    if given.suffix != SUFFIX and given.name == job:
        return (
            f"There is no job {job!r} to cancel in {path_text(jobs_dir)}; dnc-desk jobs --all "
            "lists every job with its id.",
            EXIT_USAGE,
        )
    return f"There is no job file {path_text(given)}; nothing was cancelled.", EXIT_FAILED


def _open_writes_sentence(store: JobStore, rows: list[JobRow], no_journal: Path | None) -> str:
    meta = store.meta()
    job = str(meta.get("job_id", store.path.stem))
    resume = _resume_command(command_of(str(meta.get("kind", ""))), meta, store.path)
    return open_writes_sentence(
        job,
        rows,
        f"{resume} (Ctrl+C then pauses it)",
        f"with: dnc-desk jobs cancel {job}",
        no_journal,
    )


def _said(store: JobStore, outcome: CancelOutcome) -> str:
    job = store.meta().get("job_id", store.path.stem)
    if outcome.already:
        return already_ended_sentence(store.meta()).replace(
            "nothing was sent.", "nothing was changed."
        )
    rows = counted(outcome.not_attempted, "row", "rows")
    return (
        f"Job {job} cancelled: {rows} not sent end not attempted (cancelled before it was "
        f"sent); it no longer holds up a new job of its file. Report: {outcome.report}"
    )


def _damaged(path: Path, exc: sqlite3.DatabaseError) -> str:
    return (
        f"{path_text(path)} is not a DNC Desk job file, or it is damaged ({exc}); nothing was "
        "cancelled."
    )


def run(args: argparse.Namespace) -> int:
    paths = AppPaths.default()
    try:
        located = JobStore.locate(paths.jobs_dir, args.job)
    except FileNotFoundError:
        return fail(*_no_job(args.job, paths.jobs_dir))
    try:
        store = JobStore(located)
    except sqlite3.DatabaseError as exc:
        return fail(_damaged(located, exc))
    try:
        meta = store.meta()
    except sqlite3.DatabaseError as exc:
        store.close()
        return fail(_damaged(located, exc))
    with store:
        job = str(meta.get("job_id") or located.stem)
        if (staging := staging_state(meta)) == READING:
            return fail(
                f"Job {job} is being read from its file by another process now; nothing of it "
                "was sent and nothing was cancelled: stop that process if it is not wanted."
            )
        if staging:
            return fail(
                f"Job {job} was not cancelled: nothing of it was sent, and it holds up no new "
                f"job of its file. {restart_sentence(meta)}"
            )
        try:
            journal = journal_for_cancel(paths.journal_db)
            try:
                outcome = cancel_job(store, journal, outcome_decided, paths.journal_db)
            finally:
                if journal is not None:
                    journal.close()
        except JobBusy as exc:
            return fail(busy_sentence(job, exc, "Ctrl+C in its terminal pauses it"))
        except WritesLeftOpen as exc:
            missing = paths.journal_db if isinstance(exc, NoJournal) else None
            return fail(_open_writes_sentence(store, exc.rows, missing))
        except JournalError as exc:
            return fail(f"{exc} Job {job} was not cancelled.")
        said = _said(store, outcome)
        warnings = []
        if outcome.no_journal:
            warnings.append(
                f"The cancel of job {job} is not recorded in a change journal: "
                f"{outcome.not_journaled}. The job file and its report say it was cancelled."
            )
            print(f"warning: {warnings[0]}", file=sys.stderr)
        elif outcome.not_journaled:
            warnings.append(
                f"The change journal could not record the cancel of job {job} "
                f"({outcome.not_journaled}); the job file and its report say it was "
                "cancelled: free some space, then check the journal with dnc-desk journal "
                "verify."
            )
            print(f"warning: {warnings[0]}", file=sys.stderr)
        if getattr(args, "json", False):
            emit_json(
                {
                    **job_summary(store),
                    "cancelled": not outcome.already,
                    "already_ended": outcome.already,
                    "rows_cancelled": outcome.not_attempted,
                    "message": said,
                    "warnings": warnings,
                }
            )
        else:
            print(said)
    return EXIT_OK
