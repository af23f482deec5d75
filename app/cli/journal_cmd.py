"""``dnc-desk journal verify|export``: check and export the change journal from a terminal.

The window's Change journal tab verifies the hash chain and exports entries; an officer on a
server had no way to do either (black-box bb8: only ``evidence --json`` said
``journal_verified``). Both read the journal in the data folder (``DNC_DESK_DATA_DIR``) and
need no connection. Neither makes a journal where there is none: ``verify`` then says there
is no journal yet (exit 0: nothing was recorded, so nothing was altered; the sentence names
the folder, in case it is the wrong one) and ``export`` refuses (exit 1: no file is written).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app.cli.connection_args import EXIT_FAILED, EXIT_OK, EXIT_USAGE, CliError, emit_json, fail
from app.cli.output_paths import check_export_path
from app.core.journal import (
    ChangeJournal,
    JournalError,
    export_csv,
    journal_phone,
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
    export.add_argument("--number", metavar="NUMBER", default="", help="only this number's")
    export.add_argument(
        "--operation",
        metavar="OP",
        default="",
        help="only this operation (dnc.insert, sms.delete…; dnc. for a family)",
    )
    export.add_argument("--overwrite", action="store_true", help="replace a file at --out")
    export.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    verify.epilog = (
        "Exit status: 0 the journal is intact (also when there is no journal yet: nothing was "
        "recorded, so nothing was altered; the output says so); 3 it was altered (the entries "
        "at each break are named); 1 the journal cannot be read; 2 a bad argument; " + _SIGNALS
    )
    export.epilog = (
        "Exit status: 0 exported (also when no entry matches: the file has the headers only); "
        "1 there is no journal yet, it cannot be read or the file cannot be written; 2 a bad "
        "argument (a file already at --out without --overwrite, a date that is none); " + _SIGNALS
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


def _open(path: Path, stopped: str) -> ChangeJournal:
    """The journal at ``path``; ``stopped`` says what an emptied or damaged one stops."""
    try:
        return ChangeJournal(path, reader=stopped)
    except JournalError as exc:
        raise CliError(str(exc)) from exc


def run(args: argparse.Namespace) -> int:
    path = AppPaths.locate().journal_db
    try:
        if args.journal_action == "verify":
            return _verify(path, json_output=args.json)
        return _export(path, args)
    except CliError as exc:
        return fail(str(exc), exc.status)


def _times(journal: ChangeJournal, rows: int) -> tuple[str | None, str | None]:
    """The time of the oldest and the newest entry (None when there is none)."""
    if not rows:
        return None, None
    newest = journal.query(limit=1)
    oldest = journal.query(limit=1, offset=journal.count() - 1)
    return (oldest[0].time if oldest else None), (newest[0].time if newest else None)


def _verify(path: Path, *, json_output: bool) -> int:
    if not path.exists():
        said = _no_journal(path)
        if json_output:
            emit_json(_verify_json(path, False, True, 0, None, None, said, {}, 0))
        else:
            print(said)
        return EXIT_OK
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
            _verify_json(
                path, True, check.ok, check.rows, first, last, said, check.breaks, check.broken
            )
        )
        return status
    print(f"Change journal: {path_text(path)}")
    print(f"Entries checked: {check.rows:,}" + (f", from {first} to {last}" if first else ""))
    print(said)
    shown = list(check.breaks.items())[:_BREAKS_SHOWN]
    for entry_id, why in shown:
        print(f"  entry {entry_id}: {why}")
    if check.broken > len(shown):
        print(f"  … and {check.broken - len(shown):,} more entries at a break (--json lists them).")
    return status


def _verify_json(
    path: Path,
    exists: bool,
    intact: bool,
    rows: int,
    first: str | None,
    last: str | None,
    message: str,
    breaks: Any,
    broken: int,
) -> dict[str, Any]:
    return {
        "journal": str(path),
        "journal_exists": exists,
        "intact": intact,
        "entries_checked": rows,
        "first_time": first,
        "last_time": last,
        "message": message,
        "entries_at_break": [{"id": i, "why": why} for i, why in breaks.items()],
        "entries_at_break_count": broken,
        "exit_status": EXIT_OK if intact else EXIT_ALTERED,
    }


def _export(path: Path, args: argparse.Namespace) -> int:
    out = Path(args.out)
    suffix = out.suffix.lower()
    if suffix not in (".xlsx", ".csv"):
        raise CliError(
            f"--out {args.out} must end in .xlsx or .csv (the journal is written as an Excel "
            "workbook or a CSV file).",
            EXIT_USAGE,
        )
    try:
        time_bound(args.since)
        time_bound(args.until, end=True)
    except JournalError as exc:
        raise CliError(f"--since/--until: {exc}", EXIT_USAGE) from exc
    if not path.exists():
        raise CliError(_no_journal(path) + " Nothing was exported.", EXIT_FAILED)
    out = check_export_path(out, overwrite=args.overwrite)
    journal = _open(path, "nothing was exported")
    try:
        entries = journal.matching(
            operation=args.operation,
            phone=journal_phone(args.number),
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
