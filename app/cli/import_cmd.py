"""``dnc-desk import FILE --into dnc|sms-opt-out --scope …``: a spreadsheet into a list.

Also holds the parts ``dnc-desk remove`` shares (arguments, signals, output), since a removal
is the same job run backwards. Exit 0 when the job ran to its end (even with invalid rows),
1 when it could not run, 2 for bad arguments, 130 when interrupted (the job is paused and
the command to resume it is printed).
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from app.api.client import ApiClient
from app.api.errors import ApiError
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
from app.cli.output_paths import check_report_path
from app.core import phones
from app.core.connections import Connection
from app.core.job_exec import finish_dry_run, job_summary
from app.core.job_runner import JobAborted, JobControl, JobProgress
from app.core.job_staging import JobSettings, MappingError
from app.core.job_store import JobStatus, JobStore
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.sheet_check import CheckSummary, Target
from app.core.sheet_guard import sniff_kind
from app.core.sheet_scope import CampaignDirectory
from app.core.sheet_types import SheetError

StageFn = Callable[..., tuple[JobStore, CheckSummary]]
RunFn = Callable[..., JobStatus]


def _concurrency(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 32:
        raise argparse.ArgumentTypeError("concurrency must be between 1 and 32")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be a positive number")
    return value


def add_job_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments shared by import and remove."""
    parser.add_argument("file", nargs="?", type=Path, help="xlsx, xlsm, xlsb, xls, ods, csv or txt")
    parser.add_argument(
        "--scope", help="global, campaign:ID or purpose:TEXT (a scope column in the file wins)"
    )
    parser.add_argument("--sheet", metavar="NAME", help="the sheet to read (default: the first)")
    parser.add_argument(
        "--phone-column",
        metavar="NAME",
        help="the phone column: its header (case and spacing ignored), or column:C or #3 by "
        "position; a bare letter (C) counts only when no header has that name",
    )
    parser.add_argument(
        "--phone-code", metavar="CODE", default="1", help="country code for numbers without one"
    )
    parser.add_argument("--concurrency", type=_concurrency, default=8, help="1-32 (default 8)")
    parser.add_argument(
        "--rate-limit", type=_positive, metavar="N", help="at most N requests per minute"
    )
    parser.add_argument("--dry-run", action="store_true", help="check the file, send nothing")
    parser.add_argument(
        "--report", type=Path, metavar="PATH", help="where to write the xlsx report"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--name", default="", help="a name for the job")
    parser.add_argument("--note", default="", help="why, on whose request")
    parser.add_argument("--resume", metavar="JOB", help="finish an interrupted job (id or file)")
    add_connection_arguments(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_job_arguments(parser)
    parser.add_argument("--into", choices=[t.value for t in Target], help="the list to import into")
    parser.add_argument("--reason", default="", help="reason for rows without one")
    parser.add_argument("--purpose", default="", help="purpose for rows without one")


def parse_scope(text: str | None, purpose: str) -> Scope:
    if not text:
        raise CliError("--scope is required: global, campaign:ID or purpose:TEXT.", EXIT_USAGE)
    if text.strip().lower() == "purpose" and purpose:
        return Scope.purpose(purpose)
    try:
        return Scope.parse(text)
    except ScopeError as exc:
        raise CliError(str(exc), EXIT_USAGE) from exc


def parse_phone_code(text: str) -> str:
    """``--phone-code``: a country calling code ("1", "+44", "0044") or a region ("GB")."""
    code = phones.normalize_code(text.strip())
    if code is None:
        raise CliError(
            f"--phone-code {text!r} is not a country calling code (for example 1 or 44).",
            EXIT_USAGE,
        )
    return code


def preflight(api: ApiClient, connection: Connection, scope: Scope | None) -> CampaignDirectory:
    """Check the token and the service before reading the file; fetch its campaign list.

    The list is fetched once per job: staging resolves campaign names and checks campaign ids
    in the file against it.
    """
    try:
        campaigns = CampaignDirectory(api.campaigns())
    except ApiError as exc:
        raise CliError(describe_api_error(exc, connection)) from exc
    if scope is not None and scope.is_campaign and scope.campaign_id not in campaigns.ids:
        raise CliError(f"The service has no campaign {scope.campaign_id}.", EXIT_USAGE)
    return campaigns


@contextmanager
def interrupts_pause(control: JobControl) -> Iterator[None]:
    """SIGINT and SIGTERM suspend the job cleanly instead of killing it mid-row."""

    def handler(signum: int, frame: FrameType | None) -> None:
        control.suspend()

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def progress_printer(enabled: bool) -> Callable[[JobProgress], None] | None:
    if not enabled:
        return None
    last = [0.0]

    def show(p: JobProgress) -> None:
        now = time.monotonic()
        if now - last[0] < 1.0 and p.done < p.total:
            return
        last[0] = now
        eta = f", about {p.eta_seconds:.0f} s left" if p.eta_seconds is not None else ""
        print(
            f"\r{p.done:,}/{p.total:,} rows, {p.rows_per_second:.0f} rows/s{eta}   ",
            end="",
            file=sys.stderr,
            flush=True,
        )

    return show


def resume_hint(command: str, store: JobStore) -> str:
    meta = store.meta()
    connection, base_url = meta.get("connection", ""), meta.get("base_url", "")
    where = f"--base-url {base_url}" if connection == base_url else f'--connection "{connection}"'
    return f"dnc-desk {command} --resume {meta.get('job_id', store.path)} {where}"


def result_summary(store: JobStore) -> dict[str, Any]:
    """The job's counts plus ``warnings``: sentences about what the check could not do."""
    meta = store.meta()
    warnings = [str(meta["campaign_check"])] if meta.get("campaign_check") else []
    summary = job_summary(store)
    if summary["rows"] == 0:
        name = Path(str(meta.get("file", ""))).name
        header = meta.get("header_row")
        below = f" below its header (row {header})" if header else ""
        verb = "remove" if meta.get("kind") == "removal" else "import"
        warnings.append(f"{name} has no data rows{below}: nothing to {verb}.")
    return {**summary, "warnings": warnings}


def print_result(store: JobStore, args: argparse.Namespace, headline: str) -> None:
    summary = result_summary(store)
    if args.json:
        emit_json(summary)
        return
    keys = [
        k
        for k in (
            "rows",
            "valid",
            "invalid",
            "duplicates_in_file",
            "blank",
            "inserted",
            "already_present",
            "removed",
            "not_found",
            "failed",
            "not_attempted",
            "pending",
            "late_requests",
        )
        # A dry run's valid rows are not waiting: nothing will send them.
        if k in summary and not (k == "pending" and summary["status"] == JobStatus.DRY_RUN)
    ]
    print(headline)
    print("  " + ", ".join(f"{k.replace('_', ' ')}: {summary[k]:,}" for k in keys))
    for warning in summary["warnings"]:
        print(f"  note: {warning}")
    print(f"  report: {summary['report']}")
    print(f"  job: {summary['job']}")


def _resume_args(args: argparse.Namespace, store: JobStore) -> argparse.Namespace:
    """Use the job's own connection unless the command line names one."""
    if args.connection or args.base_url:
        return args
    meta = store.meta()
    resumed = argparse.Namespace(**vars(args))
    if meta.get("connection") and meta.get("connection") != meta.get("base_url"):
        resumed.connection = meta["connection"]
    else:
        resumed.base_url = meta.get("base_url")
    return resumed


def run_job_command(
    args: argparse.Namespace,
    *,
    command: str,
    settings: Callable[[argparse.Namespace, Scope], JobSettings],
    stage_fn: StageFn,
    run_fn: RunFn,
    validate: Callable[[Session, JobSettings], None] | None = None,
) -> int:
    """The shared body of ``import`` and ``remove``."""
    paths = AppPaths.default()
    store: JobStore | None = None
    session: Session | None = None
    try:
        if args.resume:
            try:
                store = JobStore(JobStore.locate(paths.jobs_dir, args.resume))
            except FileNotFoundError as exc:
                raise CliError(f"There is no job {args.resume!r} to resume.", EXIT_USAGE) from exc
            meta = store.meta()
            kind = "import" if command == "import" else "removal"
            if meta.get("kind") != kind:
                raise CliError(f"Job {args.resume} is not a{'n' if kind[0] == 'i' else ''} {kind}.")
            if meta.get("status") in (JobStatus.FINISHED, JobStatus.CANCELLED, JobStatus.DRY_RUN):
                print_result(store, args, f"Job {meta['job_id']} has already ended.")
                return EXIT_OK
            session = open_session(
                _resume_args(args, store), paths, requests_per_minute=args.rate_limit
            )
            preflight(session.api, session.connection, None)
        else:
            if args.file is None:
                raise CliError(f"Give the file to {command}, or --resume JOB.", EXIT_USAGE)
            scope = parse_scope(args.scope, getattr(args, "purpose", ""))
            args.phone_code = parse_phone_code(args.phone_code)
            if args.sheet and args.file.is_file() and sniff_kind(args.file).container == "text":
                raise CliError(
                    f"--sheet {args.sheet} does not apply to {args.file.name}: "
                    "a text file has one table.",
                    EXIT_USAGE,
                )
            if args.report is not None:
                args.report = check_report_path(args.report)
            job = settings(args, scope)
            # Without a connection (an offline dry run) campaign ids cannot be checked: the
            # staging counts them and the result says so.
            lookup = CampaignDirectory.unchecked()
            connection: Connection | None = None
            if not args.dry_run or args.connection or args.base_url:
                session = open_session(args, paths, requests_per_minute=args.rate_limit)
                connection = session.connection
                lookup = preflight(session.api, session.connection, scope)
                if validate is not None:
                    validate(session, job)
            store, _ = stage_fn(job, paths.jobs_dir, connection=connection, campaign_lookup=lookup)
            if args.dry_run:
                finish_dry_run(store)
                print_result(store, args, f"Dry run of {job.file.name}: nothing was sent.")
                return EXIT_OK
        assert session is not None and store is not None
        control = JobControl()
        show = progress_printer(not args.json and sys.stderr.isatty())
        try:
            with interrupts_pause(control):
                status = run_fn(
                    store, session, concurrency=args.concurrency, control=control, progress=show
                )
        except JobAborted as exc:
            if show is not None:
                print(file=sys.stderr)
            if args.json:
                emit_json({**result_summary(store), "resume": resume_hint(command, store)})
            return fail(f"{exc} Resume with: {resume_hint(command, store)}")
        if show is not None:
            print(file=sys.stderr)
        if status is JobStatus.PAUSED:
            if args.json:
                emit_json({**result_summary(store), "resume": resume_hint(command, store)})
            print(
                f"Interrupted: job paused. Resume with: {resume_hint(command, store)}",
                file=sys.stderr,
            )
            return EXIT_INTERRUPTED
        meta = store.meta()
        print_result(store, args, f"{meta.get('name')}: {status.value}.")
        return EXIT_OK
    except CliError as exc:
        return fail(str(exc), exc.status)
    except MappingError as exc:
        return fail(exc.cli_text)
    except SheetError as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(f"A file could not be written or read: {exc}.")
    finally:
        if store is not None:
            store.close()
        if session is not None:
            session.close()
            session.journal.close()


def _import_settings(args: argparse.Namespace, scope: Scope) -> JobSettings:
    if not args.into:
        raise CliError("--into is required: dnc or sms-opt-out.", EXIT_USAGE)
    return JobSettings(
        file=args.file,
        scope=scope,
        target=Target(args.into),
        sheet=args.sheet,
        phone_column=args.phone_column,
        phone_code=args.phone_code,
        reason=args.reason,
        purpose=args.purpose,
        name=args.name,
        note=args.note,
        report=args.report,
    )


def run(args: argparse.Namespace) -> int:
    from app.core.import_job import run_import, stage_import

    return run_job_command(
        args,
        command="import",
        settings=_import_settings,
        stage_fn=stage_import,
        run_fn=run_import,
    )
