"""``dnc-desk jobs [--all] [--json]``: the import and removal jobs in the jobs folder.

By default only the jobs that can be resumed (rows left to send; not cancelled, not a dry
run), newest first, each with the command that resumes it; ``--all`` lists every job file.
The table's NAME cell carries the job's note; a dry run's DONE cell says none was sent.
A job whose file says it is running is ``running`` when a process holds its run lock now
(:func:`app.core.job_catalog.run_by`: that process is named, and the job is not to be
resumed while it runs) and ``interrupted`` when none does (it was killed, or crashed).
A job whose rows were not all read from its file (its staging was killed: black-box B14 F1)
is ``stopped while reading its file (nothing sent)``: it is never offered for a resume.
Read-only: listing takes no lock and writes nothing. Exit status 0; 1 when the data folder
cannot be made or its jobs folder cannot be read (one sentence naming it and why).
"""

from __future__ import annotations

import argparse
import contextlib
import os
from pathlib import Path
from typing import Any

from app.cli import jobs_cancel
from app.cli.connection_args import EXIT_OK, emit_json
from app.cli.import_cmd import (
    ENDED,
    command_of,
    restart_command,
    restart_sentence,
    resume_command,
)
from app.cli.main import signals_held
from app.cli.output_paths import nearest_existing
from app.core.job_catalog import (
    STOPPED_READING,
    JobInfo,
    job_state,
    job_state_code,
    list_jobs,
    run_by,
)
from app.core.job_lock import Holder
from app.core.job_store import JobStatus, Outcome
from app.core.paths import (
    DATA_ENV,
    AppPaths,
    DataFolderError,
    path_text,
    terminal_text,
    unusable_folder,
)

_HEADERS = ("JOB", "KIND", "STATUS", "DONE", "STARTED (UTC)", "NAME", "FILE")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--all",
        action="store_true",
        help="list every job (finished, cancelled, dry runs too), not only those that can be "
        "resumed",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    actions = parser.add_subparsers(dest="jobs_action", metavar="ACTION")
    cancel = actions.add_parser(
        "cancel",
        help="cancel a job no process runs (paused, interrupted, never run): its rows not sent "
        "end not attempted, its report is written",
        description="Cancel a job no process runs (paused, interrupted, never run), as a cancel "
        "during its run does: its rows not sent end not attempted (cancelled before it was "
        "sent), its report is written, and it no longer holds up a new job of its file.",
    )
    jobs_cancel.add_arguments(cancel)
    # Listing reads job files only: no job's own state changes its exit (black-box s31: jobs
    # said no exit status).
    parser.epilog = (
        "`dnc-desk jobs cancel JOB` cancels a job (see its --help). "
        "Exit status: 0 listed (also when there is no job, or a job file cannot be read: the "
        "listing says so); 1 the data folder cannot be made or its jobs folder cannot be read; "
        "2 a bad argument; 130, 143 or 129 Ctrl+C, SIGTERM or SIGHUP stopped the listing."
    )


def _started(info: JobInfo) -> str:
    return str(info.meta.get("started") or "")


def _runner(holder: Holder | None) -> dict[str, Any] | None:
    if holder is None:
        return None
    return {"pid": holder.pid or None, "host": holder.host, "since": holder.started}


def _report_missing(info: JobInfo) -> bool:
    """Whether an ended job has no report where its run writes one (black-box B19 F3: a run
    killed while writing it left a finished job with only a ``.part`` file, and nothing said
    so); ``--resume`` writes it again."""
    if info.error or info.staging or info.status not in {s.value for s in ENDED}:
        return False
    return not (info.report.is_file() or info.path.with_suffix(".xlsx").is_file())


def _again(info: JobInfo) -> str:
    """The command that resumes the job, or writes its missing report again."""
    return resume_command(command_of(info.kind), info.meta, info.path)


def _missing_report_sentence(info: JobInfo) -> str:
    return (
        f"Job {info.job_id} has no report (its run was stopped while writing it, or the file "
        f"was moved); write it again with: {_again(info)}"
    )


def job_entry(info: JobInfo, holder: Holder | None) -> dict[str, Any]:
    """One job as ``--json`` lists it."""
    resumable = info.resumable and holder is None
    missing = _report_missing(info)
    # A job stopped while reading its file is never sent: its rows read so far are not pending
    # (a script summing "pending" counted them: black-box bb2 F9); it is started again instead.
    stopped = not info.error and info.staging == STOPPED_READING
    return {
        "job": info.job_id,
        "job_file": str(info.path),
        "kind": info.kind,
        "name": str(info.meta.get("name") or ""),
        "file": str(info.meta.get("file") or ""),
        "status": info.status or None,
        "state": job_state(info, holder),
        # ``state`` is worded for a person; scripts test this word (one of STATE_CODES).
        "state_code": job_state_code(info, holder),
        "rows": info.rows,
        "done": info.done,
        "pending": 0 if stopped else info.pending,
        "created": info.meta.get("created"),
        "started": info.meta.get("started"),
        "finished": info.meta.get("finished"),
        "note": str(info.meta.get("note") or ""),
        "resumable": resumable,
        "resume": _again(info) if resumable else None,
        "restart": restart_command(info.meta) if stopped else None,
        "running": _runner(holder),
        "error": info.error or None,
        "report_missing": missing,
        # The command that writes a missing report again (re-test U3 F3: "resume" is null for
        # an ended job, so --json named no way to get it back).
        "write_report": _again(info) if missing else None,
    }


def _who(holder: Holder) -> str:
    """``pid 4242`` (``on HOST`` when another host's), or ``another process``."""
    if not holder.pid:
        return "another process"
    who = holder.process()
    since = holder.since()
    return f"{who}, since {since}" if since else who


def _shown_state(info: JobInfo, holder: Holder | None) -> str:
    if holder is not None:
        return f"running now ({_who(holder)})"
    state = job_state(info, holder)
    return "ready (not started)" if state == "ready" and not _started(info) else state


# A note longer than this is cut in the table (``--json`` and the report have it whole): one
# long note would push every row's file off the screen.
NOTE_SHOWN = 80


def _named(info: JobInfo) -> str:
    """The NAME cell: the job's name and its note, on one line (black-box Q2 #8: the note,
    which issue 4 asks the job list to show, was only in ``--json``)."""
    name = str(info.meta.get("name") or "")
    note = " ".join(str(info.meta.get("note") or "").split())
    if not note:
        return name
    if len(note) > NOTE_SHOWN:
        note = note[: NOTE_SHOWN - 1].rstrip() + "…"
    return f"{name} (note: {note})" if name else f"(note: {note})"


def _row(info: JobInfo, holder: Holder | None) -> tuple[str, ...]:
    if info.error:
        return (info.path.stem, "?", "unreadable", "", "", info.error, str(info.path))
    created = info.meta.get("created", "?")
    if info.staging:
        # Its rows stored so far are "pending": none was sent, and none will be (B14 F1).
        done = "none sent"
        started = f"not started (created {created})"
    elif info.status == JobStatus.DRY_RUN.value:
        # Its checked rows are "done" in the file, but a dry run sends none (Q2 #8: "7/8").
        done = f"none sent ({info.rows:,} {'row' if info.rows == 1 else 'rows'})"
        started = f"dry run (created {created})"
    else:
        done = f"{info.done:,}/{info.rows:,}"
        # Rows a cancel or a stop ended unsent are "done" too: a cancelled job read
        # "2,000/2,000" with 783 never sent (black-box bb15).
        if unsent := info.counts.get(Outcome.NOT_ATTEMPTED.value, 0):
            done += f" ({unsent:,} not attempted)"
        started = _started(info) or f"not started (created {created})"
    return (
        info.job_id,
        info.kind or "?",
        _shown_state(info, holder),
        done,
        started,
        _named(info),
        str(info.meta.get("file") or ""),
    )


def _table(cells: list[tuple[str, ...]]) -> list[str]:
    # A name, note or file name is shown with its control characters escaped: a newline in
    # one broke its row in two, an ESC sequence cleared the screen (black-box bb2 F16).
    rows = [tuple(terminal_text(cell) for cell in row) for row in cells]
    widths = [max(len(r[i]) for r in [_HEADERS, *rows]) for i in range(len(_HEADERS))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
        for r in [_HEADERS, *rows]
    ]


# What a data folder that cannot be used stops here: `jobs` sends nothing (black-box bb2 F3).
NOT_LISTED = "no job can be listed"


def _can_be_made(paths: AppPaths, missing: Path) -> None:
    """Refuse a data folder whose first missing folder, ``missing``, cannot be made, as
    :meth:`AppPaths.ensure` says it; the probe folder is removed at once."""
    # Made and removed as one step: a stop between the two would leave an empty folder.
    with signals_held():
        try:
            missing.mkdir(mode=0o700)
        except FileExistsError:  # made meanwhile (another command): usable
            return
        except OSError as exc:
            raise DataFolderError(
                unusable_folder(
                    paths.data_dir, "data folder", DATA_ENV, paths.jobs_dir, exc, stopped=NOT_LISTED
                )
            ) from exc
        with contextlib.suppress(OSError):
            missing.rmdir()


def _jobs_readable(paths: AppPaths) -> None:
    try:
        os.scandir(paths.jobs_dir).close()
    except OSError as exc:
        raise DataFolderError(
            f"The jobs folder {path_text(paths.jobs_dir)} cannot be read "
            f"({exc.strerror or exc}), so no job can be listed: make it readable, or point "
            f"{DATA_ENV} at another data folder."
        ) from exc


def listing_paths() -> AppPaths:
    """The folders to list jobs from, creating none (black-box R5 #13: a listing made the
    jobs, locks, reports and snapshots folders). One that could not be made or read is
    refused as every command refuses it: a data folder under a file, or in ``/proc``, was
    listed as holding no job, exit 0 (black-box B23 F5)."""
    paths = AppPaths.locate()
    existing, missing = nearest_existing(paths.jobs_dir)
    if not existing.is_dir():
        # A file where a folder should be: ensure() names it, as every command does.
        return AppPaths.default(NOT_LISTED)
    if existing == paths.jobs_dir:
        _jobs_readable(paths)
    else:
        _can_be_made(paths, missing)
    return paths


def run(args: argparse.Namespace) -> int:
    if getattr(args, "jobs_action", None) == "cancel":
        return jobs_cancel.run(args)
    paths = listing_paths()
    jobs_dir = paths.jobs_dir
    every = list_jobs(jobs_dir)
    holders = {info.path: (None if info.error else run_by(info)) for info in every}
    shown = every if args.all else [j for j in every if j.resumable and not j.error]
    unreadable = [j for j in every if j.error]
    no_report = [j for j in every if _report_missing(j)]
    if args.json:
        emit_json(
            {
                "jobs_folder": str(jobs_dir),
                "all": bool(args.all),
                "jobs": [job_entry(j, holders[j.path]) for j in shown],
                "not_listed": len(every) - len(shown),
                # Listed with or without --all, as the text says them either way.
                "reports_missing": [job_entry(j, holders[j.path]) for j in no_report],
            }
        )
        return EXIT_OK
    if shown:
        what = "Every job" if args.all else "Jobs that can be resumed"
        print(f"{what}, newest first ({jobs_dir}):")
        for line in _table([_row(j, holders[j.path]) for j in shown]):
            print(f"  {line}")
        to_resume = [j for j in shown if j.resumable and not j.error]
        if to_resume:
            print("To resume:")
        for info in to_resume:
            holder = holders[info.path]
            if holder is not None:
                print(
                    f"  {info.job_id} is being run now by {_who(holder)}; resume it only once "
                    "that has stopped."
                )
            else:
                print(f"  {_again(info)}")
        unread = [j for j in shown if not j.error and j.staging == STOPPED_READING]
        if unread:
            print("Not to be resumed:")
        for info in unread:
            print(f"  {terminal_text(restart_sentence(info.meta))}")
    elif args.all:
        print(f"There are no jobs in {jobs_dir}.")
    else:
        print(f"No job can be resumed ({jobs_dir}).")
    for info in no_report:
        print(_missing_report_sentence(info))
    if not args.all:
        stopped = [j for j in every if not j.error and j.staging == STOPPED_READING]
        others = len(every) - len(shown) - len(unreadable) - len(stopped)
        if len(stopped) == 1:
            print(
                "1 job stopped while reading its file, so nothing of it was sent: start it "
                "again with the same file (--all lists it)."
            )
        elif stopped:
            print(
                f"{len(stopped):,} jobs stopped while reading their files, so nothing of them "
                "was sent: start them again with the same files (--all lists them)."
            )
        if others:
            print(
                f"{others:,} other job{'s' if others != 1 else ''} cannot be resumed (finished, "
                "cancelled, dry runs, nothing left to send); --all lists every job."
            )
        if unreadable:
            print(
                f"{len(unreadable):,} job file{'s' if len(unreadable) != 1 else ''} cannot be "
                "read; --all lists them."
            )
    return EXIT_OK
