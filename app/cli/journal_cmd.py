"""``dnc-desk journal verify|export``: check and export the change journal from a terminal.

The window's Change journal tab verifies the hash chain and exports entries; an officer on a
server had no way to do either (black-box bb8: only ``evidence --json`` said
``journal_verified``). Both read the journal in the data folder (``DNC_DESK_DATA_DIR``) and
need no connection. Neither makes a journal where there is none: ``verify`` then says there
is no journal yet (exit 0: nothing was recorded, so nothing was altered; the sentence names
the folder, in case it is the wrong one) and ``export`` refuses (exit 1: no file is written).
When the data folder's own job files show rows the service answered, a missing journal is
one deleted or moved, the simplest wipe of all: ``verify`` says it is missing, naming those
jobs, and exits 3 (black-box bb16 F2: it said "no change was sent from this data folder").
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app.cli.connection_args import EXIT_FAILED, EXIT_OK, EXIT_USAGE, CliError, emit_json, fail
from app.cli.output_paths import check_export_path
from app.core import phones
from app.core.job_catalog import JobInfo, list_jobs
from app.core.job_store import Outcome
from app.core.journal import (
    ChainCheck,
    ChangeJournal,
    JournalError,
    export_csv,
    operation_filter,
    time_bound,
)
from app.core.paths import DATA_ENV, AppPaths, path_text

# A break found is a finding, as audit's conflicts are: a script tells it from a failure.
EXIT_ALTERED = 3
# Of the entries at a break, how many the text names one per line (--json lists them all).
_BREAKS_SHOWN = 20
_SIGNALS = "130, 143 or 129 Ctrl+C, SIGTERM or SIGHUP stopped it."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="journal_action", metavar="ACTION", required=True)
    verify = actions.add_parser(
        "verify",
        help="recompute the hash chain and say whether any entry was edited or deleted",
        description="Recompute the change journal's hash chain, every entry, and say whether "
        "it is intact or where it was altered.",
    )
    verify.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    export = actions.add_parser(
        "export",
        help="write the journal's entries (or those matching filters) to xlsx or CSV",
        description="Write the change journal's entries, newest first, with the columns of "
        "the window's export (actor, hashes…), to an xlsx or CSV file.",
    )
    export.add_argument("--out", metavar="PATH", required=True, help="PATH.xlsx or PATH.csv")
    export.add_argument("--since", metavar="DATE", default="", help="from this date or time")
    export.add_argument(
        "--until", metavar="DATE", default="", help="up to this date (the whole day) or time"
    )
    export.add_argument("--job", metavar="JOB", default="", help="only this job's entries")
    export.add_argument(
        "--number",
        metavar="NUMBER",
        default="",
        help="only this number's (as written anywhere: +code or 00code, else --phone-code's)",
    )
    export.add_argument(
        "--phone-code",
        metavar="CODE",
        default="",
        help="the country calling code of a --number written without one (default 1)",
    )
    export.add_argument(
        "--operation",
        metavar="OP",
        default="",
        help="only this operation (dnc.insert, sms.delete…), with the look-up events that "
        "settle its writes (dnc.insert.settled, dnc.insert.checked); dnc or dnc. for a family",
    )
    export.add_argument("--overwrite", action="store_true", help="replace a file at --out")
    export.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    verify.epilog = (
        "Exit status: 0 the journal is intact (also when there is no journal yet: nothing was "
        "recorded, so nothing was altered; the output says so); 3 it was altered (the entries "
        "at each break are named), or it is missing while the data folder's job files show "
        "rows the service answered; 1 the journal cannot be read; 2 a bad argument; " + _SIGNALS
    )
    export.epilog = (
        "Exit status: 0 exported (also when no entry matches: the file has the headers only); "
        "1 there is no journal yet, it cannot be read (damaged, or altered with its entries "
        "table gone: verify exits 3 for it) or the file cannot be written; 2 a bad "
        "argument (a file already at --out without --overwrite, a date, number or operation "
        "that is none); " + _SIGNALS
    )
    parser.epilog = (
        "Exit status: 0 done (verify: intact); 3 verify found the journal altered; 1 the "
        "journal cannot be read or the file cannot be written; 2 a bad argument; " + _SIGNALS
    )


def _no_journal(path: Path) -> str:
    return (
        f"There is no change journal yet at {path_text(path)}: no change was sent from this "
        f"data folder. If changes were sent, check {DATA_ENV} names the data folder they were "
        "sent from (or the journal was deleted)."
    )


# Outcomes only the service's answer gives a row: a request of it was sent and journaled.
_ANSWERED = (Outcome.INSERTED, Outcome.ALREADY_PRESENT, Outcome.REMOVED, Outcome.NOT_FOUND)
# Of the jobs that show a missing journal was there, how many its sentence names.
_JOBS_NAMED = 3


def _answered(info: JobInfo) -> int:
    return sum(info.counts.get(o.value, 0) for o in _ANSWERED)


def jobs_that_sent(jobs_dir: Path) -> list[JobInfo]:
    """The job files in ``jobs_dir`` with rows the service answered, newest first."""
    return [info for info in list_jobs(jobs_dir) if not info.error and _answered(info)]


def _missing_journal(path: Path, jobs_dir: Path, jobs: list[JobInfo]) -> str:
    named = "; ".join(f"{j.job_id}: {_answered(j):,} rows" for j in jobs[:_JOBS_NAMED])
    more = len(jobs) - min(len(jobs), _JOBS_NAMED)
    noun = "job" if len(jobs) == 1 else "jobs"
    return (
        f"The change journal is missing: there is no file at {path_text(path)}, yet the jobs "
        f"folder {path_text(jobs_dir)} holds {len(jobs):,} {noun} whose rows the service "
        f"answered ({named}{f'; and {more:,} more' if more else ''}), each recorded in the "
        "journal when sent: it was deleted or moved. Put it back if it was moved; else keep "
        "those job files and their reports as they are, the only record left of those changes."
    )


def _not_there(path: Path, jobs_dir: Path, sent: list[JobInfo] | None = None) -> str:
    """Why there is no journal at ``path``: missing, when the job files in ``jobs_dir`` show
    rows the service answered (``sent``, when read already), else none made yet."""
    sent = jobs_that_sent(jobs_dir) if sent is None else sent
    return _missing_journal(path, jobs_dir, sent) if sent else _no_journal(path)


def _open(path: Path, stopped: str) -> ChangeJournal:
    """The journal at ``path``, read only (checking it never changes it); ``stopped`` says what
    an emptied or damaged one stops."""
    try:
        return ChangeJournal(path, reader=stopped, read_only=True)
    except JournalError as exc:
        raise CliError(str(exc)) from exc


def run(args: argparse.Namespace) -> int:
    paths = AppPaths.locate()
    path = paths.journal_db
    try:
        if args.journal_action == "verify":
            return _verify(path, paths.jobs_dir, json_output=args.json)
        return _export(path, paths.jobs_dir, args)
    except CliError as exc:
        return fail(str(exc), exc.status)


def _times(journal: ChangeJournal, rows: int) -> tuple[str | None, str | None]:
    """The time of the oldest and the newest entry (None when there is none)."""
    if not rows:
        return None, None
    newest = journal.query(limit=1)
    oldest = journal.query(limit=1, offset=journal.count() - 1)
    return (oldest[0].time if oldest else None), (newest[0].time if newest else None)


def _verify(path: Path, jobs_dir: Path, *, json_output: bool) -> int:
    if not path.exists():
        sent = jobs_that_sent(jobs_dir)
        said = _not_there(path, jobs_dir, sent)
        if json_output:
            check = ChainCheck(not sent, 0, {}, 0, said)
            emit_json(_verify_json(path, False, check, None, None))
        else:
            print(said)
        return EXIT_ALTERED if sent else EXIT_OK
    journal = _open(path, "it cannot be verified")
    try:
        check = journal.check_chain()
        first, last = _times(journal, check.rows)
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    finally:
        journal.close()
    if check.ok:
        said = check.message
    else:
        # As the window says it: the entries from the break on are not to be trusted.
        said = (
            f"{check.message} Keep a copy of the file {path_text(path)} and export the journal "
            "now (dnc-desk journal export); entries from the altered point on cannot be trusted."
        )
    status = EXIT_OK if check.ok else EXIT_ALTERED
    if json_output:
        emit_json(
            _verify_json(path, True, ChainCheck(**{**vars(check), "message": said}), first, last)
        )
        return status
    print(f"Change journal: {path_text(path)}")
    print(f"Entries checked: {check.rows:,}" + (f", from {first} to {last}" if first else ""))
    print(_head_line(check))
    print(said)
    shown = list(check.breaks.items())[:_BREAKS_SHOWN]
    for entry_id, why in shown:
        print(f"  entry {entry_id}: {why}")
    if check.broken > len(shown):
        print(f"  … and {check.broken - len(shown):,} more entries at a break (--json lists them).")
    return status


def _head_line(check: ChainCheck) -> str:
    """The chain head, to be kept elsewhere: the file alone cannot show that its latest entries
    were deleted and the head rewritten to match (black-box bb11 F2); a later verify whose
    entry of that number has another hash, or none, shows it."""
    if check.head_hash is None:
        return "Chain head: missing"
    noun = "entry" if check.head_entries == 1 else "entries"
    return (
        f"Chain head: {check.head_entries:,} {noun}, last hash {check.head_hash} (keep both "
        "elsewhere: a later journal must still have this hash at that entry)"
    )


def _verify_json(
    path: Path, exists: bool, check: ChainCheck, first: str | None, last: str | None
) -> dict[str, Any]:
    return {
        "journal": str(path),
        "journal_exists": exists,
        "intact": check.ok,
        "entries_checked": check.rows,
        "first_time": first,
        "last_time": last,
        "head_entries": check.head_entries,
        "head_hash": check.head_hash,
        "message": check.message,
        "entries_at_break": [{"id": i, "why": why} for i, why in check.breaks.items()],
        "entries_at_break_count": check.broken,
        "exit_status": EXIT_OK if check.ok else EXIT_ALTERED,
    }


def _export(path: Path, jobs_dir: Path, args: argparse.Namespace) -> int:
    out = Path(args.out)
    suffix = out.suffix.lower()
    if suffix not in (".xlsx", ".csv"):
        raise CliError(
            f"--out {args.out} must end in .xlsx or .csv (the journal is written as an Excel "
            "workbook or a CSV file).",
            EXIT_USAGE,
        )
    for option, value, end in (("--since", args.since, False), ("--until", args.until, True)):
        try:
            time_bound(value, end=end)
        except JournalError as exc:
            raise CliError(f"{option}: {exc}", EXIT_USAGE) from exc
    phone = _number(args.number, args.phone_code)
    if not path.exists():
        raise CliError(_not_there(path, jobs_dir) + " Nothing was exported.", EXIT_FAILED)
    journal = _open(path, "nothing was exported")
    try:
        held = journal.operations() if args.operation.strip() else []
        try:
            operation = operation_filter(args.operation, held)
        except JournalError as exc:
            raise CliError(f"--operation: {exc}", EXIT_USAGE) from exc
        out = check_export_path(out, overwrite=args.overwrite)
        entries = journal.matching(
            operation=operation,
            phone=phone,
            since=args.since,
            until=args.until,
            job=args.job,
        )
        written = (
            journal.export_xlsx(out, entries) if suffix == ".xlsx" else export_csv(out, entries)
        )
    except JournalError as exc:
        raise CliError(f"{exc} Nothing was exported.") from exc
    except OSError as exc:
        raise CliError(
            f"The journal export cannot be written to {path_text(out)} "
            f"({exc.strerror or exc}); nothing was exported."
        ) from exc
    finally:
        journal.close()
    noun = "entry" if written == 1 else "entries"
    said = f"Exported {written:,} journal {noun} to {path_text(out)}."
    if args.json:
        emit_json({"journal": str(path), "out": str(out), "entries": written, "message": said})
    else:
        print(said)
    return EXIT_OK


def _number(text: str, code: str) -> str:
    """``--number`` as the journal stores it (E.164), read as the Change journal tab reads it
    (:func:`app.core.evidence.journal_number`); "" for none. Refuses (exit 2) a bad
    ``--phone-code`` and text that is no phone number (black-box bb11 F4: ``hello`` and the (0)
    and 011 forms exported nothing, exit 0)."""
    # Imported here: the evidence module brings the API client, which an export does not need.
    from app.core.evidence import journal_number

    text, code = text.strip(), code.strip()
    if code:
        found = phones.normalize_code(code)
        if found is None:
            raise CliError(
                f"--phone-code {code!r} is not a country calling code (for example 1 or 44).",
                EXIT_USAGE,
            )
        code = found
    try:
        return journal_number(text, code)
    except JournalError as exc:
        raise CliError(
            f"--number {text!r}: {exc}. Write it with its country code (+44 20 7946 0402) or "
            "give --phone-code for a number written as dialled in its country.",
            EXIT_USAGE,
        ) from exc
