"""``dnc-desk export dnc|sms-opt-out --out PATH.xlsx|PATH.csv [filters]``: a whole search out.

Every page is read; a search bigger than the service's paging limit is split so every row
comes out, and rows that still cannot be reached are counted on stderr, in ``--json`` and in
the xlsx About sheet. Exit 0 when the export was written, 1 when it could not be, 130 when
interrupted (the partial file is removed).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from app.api.client import DncQuery
from app.api.errors import ApiError
from app.api.models import ReasonFilter
from app.api.paging import Cancelled
from app.api.scope import Scope, ScopeError
from app.cli.connection_args import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    add_connection_arguments,
    describe_api_error,
    emit_json,
    fail,
    open_session,
)
from app.core.export_job import ExportJob, ExportProgress, ListKind, describe_query
from app.core.paths import AppPaths

_REASONS = {
    "any": ReasonFilter.ANY,
    "blank": ReasonFilter.BLANK,
    "not-blank": ReasonFilter.NOT_BLANK,
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("list", choices=[k.value for k in ListKind], help="the list to export")
    parser.add_argument("--out", type=Path, required=True, metavar="PATH", help=".xlsx or .csv")
    filters = parser.add_argument_group("filters")
    filters.add_argument("--scope", help="global, campaign:ID or purpose[:TEXT]")
    filters.add_argument("--phone-number", default="")
    filters.add_argument("--phone-code", default="")
    filters.add_argument("--insert-date", default="", help="YYYY-MM-DD")
    filters.add_argument("--reason", choices=sorted(_REASONS), default="any")
    filters.add_argument("--purpose", default="")
    filters.add_argument("--id", default="")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    add_connection_arguments(parser)


def _query(args: argparse.Namespace) -> DncQuery:
    scope: Scope | None = None
    if args.scope:
        text = args.scope.strip()
        try:
            scope = Scope.purpose("") if text.lower() == "purpose" else Scope.parse(text)
        except ScopeError as exc:
            raise CliError(str(exc), EXIT_USAGE) from exc
    return DncQuery(
        id=args.id,
        scope=scope,
        phone_number=args.phone_number,
        phone_code=args.phone_code,
        insert_date=args.insert_date,
        reason=_REASONS[args.reason],
        purpose=args.purpose,
    )


@contextmanager
def _cancel_on_signal(cancel: threading.Event) -> Iterator[None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        cancel.set()

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def run(args: argparse.Namespace) -> int:
    paths = AppPaths.default()
    try:
        if args.out.suffix.lower() not in (".xlsx", ".csv"):
            raise CliError("--out must end in .xlsx or .csv.", EXIT_USAGE)
        query = _query(args)
        session = open_session(args, paths)
    except CliError as exc:
        return fail(str(exc), exc.status)
    cancel = threading.Event()
    show = not args.json and sys.stderr.isatty()

    def progress(p: ExportProgress) -> None:
        if show:
            total = f"/{p.total:,}" if p.total is not None else ""
            print(f"\r{p.rows:,}{total} rows   ", end="", file=sys.stderr, flush=True)

    job = ExportJob(
        session.api,
        ListKind(args.list),
        query,
        args.out,
        connection_name=session.connection.name,
        progress=progress,
        cancel=cancel,
    )
    try:
        with _cancel_on_signal(cancel):
            result = job.run()
    except Cancelled:
        return fail(
            "Interrupted: the export was cancelled and no file was written.", EXIT_INTERRUPTED
        )
    except ApiError as exc:
        return fail(describe_api_error(exc, session.connection))
    except OSError as exc:
        return fail(f"{args.out} could not be written: {exc}.")
    finally:
        session.close()
        session.journal.close()
    if show:
        print(file=sys.stderr)
    if args.json:
        emit_json(
            {
                "rows": result.rows,
                "total": result.total,
                "unreachable": result.unreachable,
                "path": str(result.path),
                "filters": describe_query(query),
                "searches": len(result.parts),
            }
        )
    else:
        print(f"Exported {result.rows:,} rows to {result.path}")
    if result.unreachable:
        print(
            f"Warning: {result.unreachable:,} matching rows could not be reached because of the "
            "service's paging limit; narrow the filters to export them.",
            file=sys.stderr,
        )
    return EXIT_OK
