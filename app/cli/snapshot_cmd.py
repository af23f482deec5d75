"""``dnc-desk snapshot dnc|sms-opt-out [--scope SCOPE]``: save a full copy of a list.

Exit status: 0 saved complete; 3 saved, but the offset cap left entries unreachable (the
count is in the output and in the file); 1 failed while reading or writing; 2 could not start.
"""

from __future__ import annotations

import argparse

from app.api.errors import ApiError
from app.api.scope import Scope, ScopeError
from app.cli.audit_connection import (
    EXIT_FAILED,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    ConnectionProblem,
    add_connection_arguments,
    concurrency_arg,
    open_context,
)
from app.cli.connection_args import emit_json, fail


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "list", choices=("dnc", "sms-opt-out"), metavar="dnc|sms-opt-out", help="which list to copy"
    )
    parser.add_argument(
        "--scope", metavar="SCOPE", help="global, campaign:ID or purpose:TEXT (default: all)"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--concurrency", type=concurrency_arg, default=8, metavar="N", help="pages in flight"
    )
    add_connection_arguments(parser)


def _fail(message: str, status: int) -> int:
    return fail(message, status, prefix="dnc-desk snapshot: ")


def run(args: argparse.Namespace) -> int:
    # Imported here: they pull in phonenumbers and openpyxl, which `dnc-desk --help`
    # (it builds every subcommand's options) should not pay for.
    from app.core.snapshots import kind_from_name, take_snapshot

    try:
        scope = Scope.parse(args.scope) if args.scope else None
    except ScopeError as exc:
        return _fail(f"{exc}.", EXIT_USAGE)
    try:
        ctx = open_context(args)
    except ConnectionProblem as exc:
        return _fail(str(exc), exc.status)
    try:
        data = take_snapshot(
            ctx.api,
            kind_from_name(args.list),
            scope,
            ctx.paths.snapshots_dir,
            connection=ctx.session.connection.name,
            concurrency=args.concurrency,
        )
    except ApiError as exc:
        return _fail(f"The snapshot could not be taken: {exc.describe()}.", EXIT_FAILED)
    except OSError as exc:
        return _fail(f"The snapshot could not be saved ({exc}).", EXIT_FAILED)
    finally:
        ctx.close()
    assert data.path is not None
    if args.json:
        out = {
            "path": str(data.path),
            "list": args.list,
            "scope": str(scope) if scope is not None else "all",
            "taken_at": data.taken_at,
            "entries": len(data.entries),
            "reported_total": data.reported_total,
            "unreachable": data.unreachable,
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
        missing = (
            f" ({data.unreachable:,} unreachable under the offset cap)" if data.unreachable else ""
        )
        print(
            f"Saved {len(data.entries):,} of {data.reported_total:,} entries{missing}: {data.path}"
        )
    return EXIT_FINDINGS if data.unreachable else EXIT_OK
