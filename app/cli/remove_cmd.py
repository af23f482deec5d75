"""``dnc-desk remove FILE --scope … [--lead-status CODE]``: numbers taken off the DNC list.

The same job as an import, run backwards: numbers not on the list end as ``not_found``.
With ``--lead-status`` the leads on each removed number get that status (checked against the
service's statuses before anything is sent). Rows hidden in the file are left on the list, and
a phone column found hidden in it is refused, unless ``--include-hidden`` is given. A row whose
Scope or Campaign cells name another scope than ``--scope`` is invalid unless
``--per-row-scope`` is given.

A removal takes opt-outs off the do-not-call list, so a real run needs ``--note`` (why, on
whose request: kept in the job, its report and the change journal); a ``--dry-run`` sends
nothing and needs none, and ``--resume`` runs on with the job's own note.

A real run says what import's does before its first row is sent (the job's id and the
command that resumes it, then the job's warnings, such as the hidden rows left on the list, as
``note:`` lines). Exit statuses are import's (:mod:`app.cli.import_cmd`): 0 when the job ran to
its end, 1 when it could not run, 2 for bad arguments (a missing ``--note``, an empty
``--lead-status``, ``--phone-code``, ``--sheet`` or ``--phone-column``, ``--phone-column``
naming no column of the sheet), 130 when Ctrl+C (SIGINT) paused the job, 143 when SIGTERM did
and 129 when SIGHUP did.
"""

from __future__ import annotations

import argparse

from app.api.errors import ApiError
from app.api.scope import Scope
from app.cli.connection_args import EXIT_USAGE, CliError, describe_api_error
from app.cli.import_cmd import add_job_arguments, job_epilog, run_job_command
from app.core.job_staging import JobSettings
from app.core.session import Session
from app.core.sheet_scope import visible_text

NOTE_REQUIRED = (
    "A removal needs --note saying why these numbers are taken off the list and on whose "
    "request (it is kept in the report and the change journal); a --dry-run needs none."
)


INTO_REFUSED = (
    "remove works on the DNC list only and takes no --into (the service's API has no delete "
    "for SMS opt-outs): leave the option out to take the numbers off the DNC list"
)


class _RefuseInto(argparse.Action):
    """``--into``, which import takes, refused as a usage error saying why (black-box B31:
    ``remove FILE --into sms-opt-out`` got only "unrecognized arguments", as if removing SMS
    opt-outs were a matter of spelling)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        raise argparse.ArgumentError(self, INTO_REFUSED)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_job_arguments(
        parser,
        scope_help="global, campaign:ID, campaign:NAME, purpose:TEXT or purpose (every "
        "purpose): the scope to remove from; a row whose Scope or Campaign cell names another "
        "scope is invalid unless --per-row-scope",
        note_help="why these numbers are taken off the list, on whose request (required, "
        "except for --dry-run; kept in the report and the change journal)",
    )
    parser.add_argument(
        "--lead-status",
        metavar="CODE",
        # None when not given: an empty one given is refused (_check_args), not taken as none.
        default=None,
        help="set the leads on each removed number to this lead status",
    )
    parser.add_argument(
        "--include-hidden",
        action="store_true",
        help="also remove the rows hidden or filtered out in the file (left on the list "
        "otherwise), and read a phone column hidden in the file (refused otherwise, unless "
        "--phone-column names it)",
    )

    parser.add_argument("--into", nargs="?", action=_RefuseInto, help=argparse.SUPPRESS)
    parser.add_argument(
        "--per-row-scope",
        action="store_true",
        help="take each row's scope from the file's Scope/Campaign columns (--scope for rows "
        "naming none); otherwise a row naming another scope than --scope is invalid",
    )
    parser.epilog = job_epilog("invalid rows and numbers not on the list")


def _settings(args: argparse.Namespace, scope: Scope) -> JobSettings:
    return JobSettings(
        file=args.file,
        scope=scope,
        sheet=args.sheet,
        phone_column=args.phone_column,
        ignore_columns=tuple(args.ignore_column or ()),
        phone_code=args.phone_code,
        name=args.name,
        note=args.note.strip(),
        report=args.report,
        lead_status=visible_text(args.lead_status or ""),
        include_hidden=args.include_hidden,
        scope_from_rows=args.per_row_scope,
    )


LEAD_STATUS_EMPTY = (
    "--lead-status was given without a status: give the lead status to set the leads on the "
    "removed numbers to (a code the service knows, such as DNC), or leave the option out to "
    "leave the leads as they are."
)


def _check_args(args: argparse.Namespace) -> None:
    """A real removal says why: a missing or blank ``--note`` (spaces or invisible characters
    only) is refused before the file is read or a connection opened. So is an empty or blank
    ``--lead-status``, as an unknown one is: taken as none, the numbers would be removed and
    their leads left as they were without a word (black-box N3 #5)."""
    if args.lead_status is not None and not visible_text(args.lead_status):
        raise CliError(LEAD_STATUS_EMPTY, EXIT_USAGE)
    if not args.dry_run and not visible_text(args.note):
        raise CliError(NOTE_REQUIRED, EXIT_USAGE)


def _validate(session: Session, job: JobSettings, action: str) -> None:
    from app.core.removal_job import LeadStatusError, find_lead_status

    if not job.lead_status:
        return
    try:
        found = find_lead_status(session.api, job.lead_status)
        job.lead_status, job.lead_status_dnc = found.status, found.dnc
    except LeadStatusError as exc:
        raise CliError(str(exc), EXIT_USAGE) from exc
    except ApiError as exc:
        raise CliError(describe_api_error(exc, session.connection, action)) from exc


def run(args: argparse.Namespace) -> int:
    from app.core.removal_job import run_removal, stage_removal

    return run_job_command(
        args,
        command="remove",
        settings=_settings,
        stage_fn=stage_removal,
        run_fn=run_removal,
        validate=_validate,
        check_args=_check_args,
    )
