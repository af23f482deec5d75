"""``dnc-desk export dnc|sms-opt-out --out PATH.xlsx|PATH.csv [filters]``: a whole search out.

Every page is read; a search bigger than the service's paging limit is split so every row
comes out, and rows that still cannot be reached are counted on stderr, in ``--json`` and in
the xlsx About sheet. A list written to during the export (a removal job running) is
reported as changed (``list_changed`` in ``--json``, a warning on stdout) and never blamed on
the paging limit. Exit 0 when the export was written (even from a changing list), 1 when it
could not be, 2 for bad arguments, and 128 + the signal's number when a signal cancelled it:
130 for SIGINT (Ctrl+C), 143 for SIGTERM (the partial file is removed).

An export that stops on an error (the service failing, a full disk) removes its partial file
too, and its sentence says the export stopped and that no file was written (or, with
``--overwrite``, that the file already there was left as it was). An export writes nothing to
the service, so it does not open the change journal: a damaged journal does not stop it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import errno
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
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    StopSignal,
    add_connection_arguments,
    describe_api_error,
    emit_json,
    fail,
    open_client,
)
from app.cli.output_paths import check_export_path
from app.core import phones
from app.core.export_job import (
    ExportJob,
    ExportProgress,
    ListKind,
    change_warning,
    describe_query,
    unreachable_warning,
)
from app.core.paths import AppPaths
from app.core.sheet_scope import visible_text

_REASONS = {
    "any": ReasonFilter.ANY,
    "blank": ReasonFilter.BLANK,
    "not-blank": ReasonFilter.NOT_BLANK,
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "list",
        choices=[k.value for k in ListKind],
        metavar="dnc|sms-opt-out",
        help="the list to export",
    )
    parser.add_argument("--out", type=Path, required=True, metavar="PATH", help=".xlsx or .csv")
    parser.add_argument("--overwrite", action="store_true", help="replace a file already at --out")
    filters = parser.add_argument_group("filters")
    filters.add_argument(
        "--scope",
        help="global, campaign:ID, campaign:NAME, purpose:TEXT or purpose (every purpose)",
    )
    filters.add_argument("--phone-number", default="")
    filters.add_argument("--phone-code", default="")
    filters.add_argument("--insert-date", default="", help="YYYY-MM-DD")
    filters.add_argument("--reason", choices=sorted(_REASONS), default="any")
    filters.add_argument("--purpose", default="")
    filters.add_argument("--id", default="")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    add_connection_arguments(parser)


def _phone_filter(number: str, code: str) -> tuple[str, str]:
    """The number and code to search for, from a number written any way a person writes it.

    As in the list view's filter: without ``--phone-code`` a number must carry ``+code``
    (or ``00code``), else it is read as US/Canada.
    """
    number, code = number.strip(), code.strip()
    if code:
        found = phones.normalize_code(code)
        if found is None:
            raise CliError(
                f"--phone-code {code!r} is not a country calling code (for example 1 or 44).",
                EXIT_USAGE,
            )
        code = found
    if not number:
        return "", code
    result = phones.normalize(number, code or (None if number.startswith(("+", "00")) else "1"))
    if not result.ok:
        raise CliError(f"--phone-number {number!r}: {result.reason}.", EXIT_USAGE)
    return result.national, result.phone_code


def _campaign_named(text: str) -> str:
    """The campaign name of ``--scope campaign:NAME``; empty for any other scope (an id is
    parsed as a scope)."""
    head, sep, rest = text.partition(":")
    named = visible_text(rest)
    if head.strip().lower() != "campaign" or not sep or named.isdigit():
        return ""
    return named


def _query(args: argparse.Namespace, scope: Scope | None = None) -> DncQuery:
    """The search the arguments describe; ``scope``, when given, is ``--scope`` resolved
    already (a campaign named by its name)."""
    if args.scope and scope is None:
        text = args.scope.strip()
        try:
            scope = Scope.purpose("") if text.lower() == "purpose" else Scope.parse(text)
        except ScopeError as exc:
            raise CliError(str(exc), EXIT_USAGE) from exc
    phone_number, phone_code = _phone_filter(args.phone_number, args.phone_code)
    insert_date = args.insert_date.strip()
    if insert_date:
        try:
            insert_date = dt.date.fromisoformat(insert_date).isoformat()
        except ValueError as exc:
            raise CliError(
                f"--insert-date {args.insert_date!r} is not a date; write it as YYYY-MM-DD.",
                EXIT_USAGE,
            ) from exc
    return DncQuery(
        id=args.id,
        scope=scope,
        phone_number=phone_number,
        phone_code=phone_code,
        insert_date=insert_date,
        reason=_REASONS[args.reason],
        purpose=args.purpose,
    )


def _end_progress_line(shown: bool) -> None:
    """Ends the progress line, so a failure's sentence starts a line of its own."""
    if shown:
        print(file=sys.stderr)


@contextmanager
def _cancel_on_signal(cancel: threading.Event) -> Iterator[StopSignal]:
    """SIGINT and SIGTERM cancel the export between pages; the :class:`StopSignal` yielded
    says which one did, for the exit status."""
    stopped = StopSignal()

    def handler(signum: int, frame: FrameType | None) -> None:
        stopped.record(signum)
        cancel.set()

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stopped
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _stopped(out: Path, existed: bool) -> str:
    """How a failed export's sentence begins: it stopped, and what is at ``out`` now."""
    part = out.with_name(out.name + ".part")
    if part.exists():  # its removal failed too
        left = f"{part.name} was left beside it, incomplete: delete it"
    elif existed:
        left = f"no file was written, and the {out.name} already there is as it was"
    else:
        left = "no file was written"
    return f"The export to {out} stopped and {left}"


def _write_failure(out: Path, existed: bool, exc: OSError) -> str:
    why = exc.strerror or str(exc)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return (
            f"{_stopped(out, existed)}: the disk holding it is full ({why}). Free some space "
            "and export again."
        )
    where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(out) else ""
    return f"{_stopped(out, existed)}: it could not be written ({why}{where})."


def run(args: argparse.Namespace) -> int:
    paths = AppPaths.default()
    try:
        if args.out.suffix.lower() not in (".xlsx", ".csv"):
            raise CliError("--out must end in .xlsx or .csv.", EXIT_USAGE)
        named = _campaign_named(args.scope or "")
        query = _query(args, Scope.global_() if named else None)
        args.out = check_export_path(args.out, overwrite=args.overwrite)
        connection, api = open_client(args, paths)
    except CliError as exc:
        return fail(str(exc), exc.status)
    if named:
        # Resolved as import resolves it, against the service's campaign list (imported only
        # here: the job modules it brings cost every other export a quarter of a second).
        from app.cli.import_cmd import CampaignByName, preflight

        wanted = CampaignByName(args.scope.strip(), named)
        try:
            _, scope = preflight(api, connection, wanted, "Export not started")
        except CliError as exc:
            api.close()
            return fail(str(exc), exc.status)
        query = _query(args, scope)
    cancel = threading.Event()
    show = not args.json and sys.stderr.isatty()

    def progress(p: ExportProgress) -> None:
        if show:
            total = f"/{p.total:,}" if p.total is not None else ""
            print(f"\r{p.rows:,}{total} rows   ", end="", file=sys.stderr, flush=True)

    job = ExportJob(
        api,
        ListKind(args.list),
        query,
        args.out,
        connection_name=connection.name,
        progress=progress,
        cancel=cancel,
    )
    existed = args.out.exists()
    stopped = StopSignal()
    try:
        with _cancel_on_signal(cancel) as stopped:
            result = job.run()
    except Cancelled:
        _end_progress_line(show)
        return fail(
            "Interrupted: the export was cancelled and no file was written.",
            stopped.exit_status(),
        )
    except ApiError as exc:
        _end_progress_line(show)
        return fail(describe_api_error(exc, connection, _stopped(args.out, existed)))
    except OSError as exc:
        _end_progress_line(show)
        return fail(_write_failure(args.out, existed, exc))
    finally:
        api.close()
    if show:
        print(file=sys.stderr)
    if args.json:
        emit_json(
            {
                "rows": result.rows,
                "total": result.total,
                "unreachable": result.unreachable,
                "path": str(result.path.resolve()),
                "filters": describe_query(query),
                "searches": len(result.parts),
                "list_changed": result.list_changed,
                "total_at_end": result.total_at_end,
                "possibly_missing": result.possibly_missing,
            }
        )
    else:
        print(f"Exported {result.rows:,} rows to {result.path}")
    changed = change_warning(result)
    if changed:
        # On stdout beside the count; with --json stdout holds only the JSON (list_changed).
        print(f"Warning: {changed}.", file=sys.stderr if args.json else sys.stdout)
    if result.unreachable:
        print(f"Warning: {unreachable_warning(result)}", file=sys.stderr)
    return EXIT_OK
