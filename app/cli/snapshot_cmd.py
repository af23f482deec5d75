"""``dnc-desk snapshot dnc|sms-opt-out [--scope SCOPE]``: save a full copy of a list.

The list is read as ``export`` reads it: ``--scope`` too (``campaign:NAME`` resolved through
the service, the bare ``purpose`` for every purpose, an option given empty refused), and split
until every search can be read to its end, so a snapshot is complete unless the service lets no
search reach some entries. Exit status: 0 saved complete; 3 saved, but incomplete: entries no
search reached could not be read (their count is in the output and in the file, and evidence
and diff say what it does not hold is not known); 1 failed while reading or writing (a refused
token said as the other commands say it); 2 could not start.
"""

from __future__ import annotations

import argparse
import sys

from app.api.errors import ApiError
from app.cli.audit_connection import (
    EXIT_FAILED,
    EXIT_FINDINGS,
    EXIT_OK,
    ConnectionProblem,
    add_connection_arguments,
    concurrency_arg,
    open_context,
)
from app.cli.connection_args import (
    CONNECTION_OPTIONS,
    SCOPE_HELP,
    SCOPE_OPTION,
    CliError,
    describe_api_error,
    emit_json,
    fail,
    refuse_empty_options,
)
from app.cli.export_cmd import parse_scope, resolve_scope, scope_as_typed
from app.cli.main import outcome_decided
from app.core.wording import counted


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "list", choices=("dnc", "sms-opt-out"), metavar="dnc|sms-opt-out", help="which list to copy"
    )
    parser.add_argument("--scope", metavar="SCOPE", help=f"{SCOPE_HELP} (default: the whole list)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--concurrency",
        type=concurrency_arg,
        default=8,
        metavar="N",
        help="requests in flight, 1-32 (default 8): the split's counts and parts are read that "
        "many at a time; the copy is the same whatever N",
    )
    add_connection_arguments(parser)
    parser.epilog = (
        "Exit status: 0 saved, every entry read; 3 saved but incomplete (entries no search of "
        "the service reaches could not be read: the output says how many); 1 failed; 2 a bad "
        "argument; 130, 143 or 129 stopped by Ctrl+C, SIGTERM or SIGHUP (no snapshot saved)."
    )


def _fail(message: str, status: int) -> int:
    return fail(message, status, prefix="dnc-desk snapshot: ")


def run(args: argparse.Namespace) -> int:
    # Imported here: they pull in phonenumbers and openpyxl, which `dnc-desk --help`
    # (it builds every subcommand's options) should not pay for.
    from app.core.snapshots import kind_from_name, take_snapshot, unread_reason

    try:
        # As export reads them (black-box R4 #2, #5): an empty option refused, campaign:NAME
        # and the bare purpose taken.
        refuse_empty_options(args, (SCOPE_OPTION, *CONNECTION_OPTIONS))
        given = parse_scope(args.scope)
    except CliError as exc:
        return _fail(str(exc), exc.status)
    try:
        ctx = open_context(args)
    except ConnectionProblem as exc:
        return _fail(str(exc), exc.status)
    try:
        scope = resolve_scope(ctx.api, ctx.connection, given, "The snapshot was not taken")
        data = take_snapshot(
            ctx.api,
            kind_from_name(args.list),
            scope,
            ctx.paths.snapshots_dir,
            connection=ctx.connection.name,
            concurrency=args.concurrency,
        )
        # In place now: a stop from here on changes nothing, as the interrupt's sentence
        # says no file was written (black-box B23 F8).
        outcome_decided()
    except ApiError as exc:
        # A refused token as export and remove say it (black-box pass Q2 #5).
        sentence = describe_api_error(exc, ctx.connection, "The snapshot was not taken")
        return _fail(sentence, EXIT_FAILED)
    except CliError as exc:
        return _fail(str(exc), exc.status)
    except OSError as exc:
        return _fail(f"The snapshot could not be saved ({exc}).", EXIT_FAILED)
    finally:
        ctx.close()
    assert data.path is not None
    if args.json:
        out = {
            "path": str(data.path),
            "list": args.list,
            "scope": scope_as_typed(scope, given),
            "taken_at": data.taken_at,
            "entries": len(data.entries),
            "reported_total": data.reported_total,
            "unreachable": data.unreachable,
            "list_changed": data.list_changed,
            "total_at_end": data.total_at_end,
            "parts": [
                {
                    "scope": p.scope,
                    "reported": p.reported,
                    "fetched": p.fetched,
                    "unreachable": p.unreachable,
                }
                for p in data.parts
            ],
        }
        emit_json(out)
    else:
        total = counted(data.reported_total, "entry", "entries")
        print(f"Saved {len(data.entries):,} of {total}: {data.path}")
    if data.unreachable:
        n = data.unreachable
        print(
            f"Warning: the snapshot is incomplete: {n:,} {'entries' if n != 1 else 'entry'} of "
            f"the list could not be read ({unread_reason(data)}), so it cannot "
            "show whether a number among them was listed.",
            file=sys.stderr if args.json else sys.stdout,
        )
    if data.list_changed:
        end = data.reported_total if data.total_at_end is None else data.total_at_end
        print(
            f"Warning: the list changed while it was read ({data.reported_total:,} entries when "
            f"it started, {end:,} when it ended); entries added or removed meanwhile may be "
            "missing or included: take the snapshot again when no job is writing to it.",
            file=sys.stderr if args.json else sys.stdout,
        )
    return EXIT_FINDINGS if data.unreachable else EXIT_OK
