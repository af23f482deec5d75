"""``dnc-desk audit campaign ID|NAME``: check a campaign's leads against the DNC and SMS lists.

Exit status: 0 clean; 3 conflicts (or numbers that cannot be checked) were found; 1 the audit
failed while running; 2 it could not start (connection, token, unknown or
ambiguous campaign, options).
The report is always written (to the reports folder unless ``--out`` says where) and the
outcome is stored for the campaign list and the launch gate.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.api.client import ApiClient
from app.api.errors import ApiError, NotFoundError, ServerError, TransportError
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
from app.cli.campaign_list import campaign_words, campaigns_listed
from app.cli.connection_args import (
    CONNECTION_OPTIONS,
    CliError,
    describe_api_error,
    emit_json,
    fail,
    refuse_empty_options,
    service_checks,
)
from app.cli.main import outcome_decided
from app.cli.output_paths import check_out_path
from app.core.connections import Connection
from app.core.sheet_scope import CampaignDirectory, visible_text
from app.core.wording import counted


def _download_pages(text: str) -> int:
    """``--max-download-pages N``, 0 or more: 0 looks every number up, whatever the scope's
    size (forced look-ups). Less than 0 was taken as 0 without a word, and a word got
    argparse's "invalid int value" (black-box B4 #B)."""
    rule = "the most pages a scope is downloaded in, 0 or more (0: look every number up)"
    try:
        value = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give {rule}.") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is not 0 or more; give {rule}.")
    return value


def _campaign_given(text: str) -> str:
    """The audited campaign as typed: its id or its name (black-box bb8: a name was refused as
    "not a campaign id" while export and health take ``campaign:NAME``)."""
    return visible_text(text)


def _unknown_campaign(campaigns: CampaignDirectory, given: str, where: str) -> CliError:
    """No campaign has ``given`` as its id or its name: refused naming the ones there are (or
    those close to it), so the officer can pick one without the window."""
    head = f"The service at {where} has no campaign with the id or name {given!r}"
    listed = campaigns_listed(campaigns, given)
    if listed is None:
        return CliError(f"{head}; it has no campaign at all.", EXIT_USAGE)
    pick = "give one's id or its name (dnc-desk audit campaign ID|NAME)"
    return CliError(f"{head}; {listed}: {pick}.", EXIT_USAGE)


def resolve_campaign(campaigns: CampaignDirectory, given: str, where: str) -> str:
    """The id of the campaign ``given`` names: a campaign's id first, else its name matched as
    ``campaign:NAME`` is (:meth:`CampaignDirectory.ids_named`: case and surrounding spaces
    aside); an unknown or ambiguous one refused (exit 2) naming the campaigns to pick from."""
    if given in campaigns.ids:
        return given
    alike = campaigns.ids_named(given)
    if len(alike) == 1:
        return alike[0]
    if alike:
        raise CliError(
            f"Campaigns {campaign_words(campaigns, alike)} on the service at {where} all "
            f"have the name {given!r}: give the id of the one you mean "
            "(dnc-desk audit campaign ID).",
            EXIT_USAGE,
        )
    raise _unknown_campaign(campaigns, given, where)


def _campaign_id(api: ApiClient, connection: Connection, given: str) -> str:
    """The campaign list fetched (as import's preflight fetches it) and ``given`` resolved."""
    # Imported only here, as export's resolve_scope does: the job modules cost a quarter second.
    from app.cli.import_cmd import preflight

    with service_checks(api):
        campaigns, _ = preflight(api, connection, None, "The audit could not start")
    return resolve_campaign(campaigns, given, connection.base_url)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    targets = parser.add_subparsers(dest="audit_target", metavar="TARGET", required=True)
    campaign = targets.add_parser(
        "campaign",
        help="audit one campaign by id or name",
        description="Audit one campaign, given by its id or its name.",
    )
    campaign.add_argument(
        "campaign_id",
        metavar="ID|NAME",
        help="the campaign's id, or its name (case and surrounding spaces aside)",
    )
    campaign.add_argument("--out", metavar="PATH.xlsx", help="where to write the xlsx report")
    campaign.add_argument(
        "--overwrite", action="store_true", help="replace a file already at --out"
    )
    campaign.add_argument("--json", action="store_true", help="print the result as JSON")
    campaign.add_argument(
        "--concurrency",
        type=concurrency_arg,
        default=8,
        metavar="N",
        help="requests in flight (default 8)",
    )
    campaign.add_argument(
        "--max-download-pages",
        type=_download_pages,
        default=None,
        metavar="N",
        help="look numbers up one by one in any scope that needs more than N pages to download "
        "(0: in every scope)",
    )
    add_connection_arguments(campaign)
    # Said as the commands with findings say theirs (black-box s31: audit said none); on
    # `audit --help` too, where a script's author looks first.
    parser.epilog = campaign.epilog = (
        "Exit status: 0 clean; 3 not clean (conflicts, numbers that cannot be checked, or "
        "opt-out entries not read: a finding, not a failure; the report names them); 1 failed "
        "(the service failing, a refused token, a report that cannot be written); 2 a bad "
        "argument, or a campaign id or name the service does not know (or that two campaigns "
        "share); 130, 143 or 129 Ctrl+C, SIGTERM or SIGHUP stopped it (no report written)."
    )


# (dest, option, what was not given, what to give, what leaving it out does): see
# app.cli.connection_args.refuse_empty_options.
_EMPTY_REFUSED = (
    (
        "campaign_id",
        "audit campaign",
        "an id or name",
        "the id or the name of the campaign to audit",
        "",
    ),
    (
        "out",
        "--out",
        "a path",
        "the .xlsx file to write the report to",
        "to write it to the reports folder",
    ),
)


def _fail(message: str, status: int) -> int:
    return fail(message, status, prefix="dnc-desk audit: ")


def run(args: argparse.Namespace) -> int:
    # Imported here: they pull in phonenumbers and openpyxl, which `dnc-desk --help`
    # (it builds every subcommand's options) should not pay for.
    from app.core.audit_records import AuditRecords
    from app.core.audit_report import result_json, save_outcome, scope_text
    from app.core.audit_run import AuditOptions, run_audit

    try:
        # Given empty, each would be taken as left out (black-box R4 #2).
        refuse_empty_options(args, (*_EMPTY_REFUSED, *CONNECTION_OPTIONS))
        given = _campaign_given(args.campaign_id)
    except CliError as exc:
        return _fail(str(exc), exc.status)
    out = Path(args.out).expanduser() if args.out else None
    if out is not None and out.suffix.lower() != ".xlsx":
        return _fail("The report must be an .xlsx file (--out PATH.xlsx).", EXIT_USAGE)
    if out is not None:
        # It reads only the service and its .sqlite3 records, which an .xlsx --out is not.
        try:
            out = check_out_path(out, overwrite=args.overwrite, what="report")
        except CliError as exc:
            return _fail(str(exc), exc.status)
    try:
        ctx = open_context(args)
    except ConnectionProblem as exc:
        return _fail(str(exc), exc.status)
    try:
        try:
            campaign_id = _campaign_id(ctx.api, ctx.connection, given)
        except CliError as exc:
            return _fail(str(exc), exc.status)
        try:
            result = run_audit(
                ctx.api,
                campaign_id,
                connection=ctx.connection.name,
                options=AuditOptions(args.concurrency, args.max_download_pages),
            )
        except NotFoundError as exc:
            # The core's words are a fragment: "there is no campaign with id 9999." was said
            # in lower case (black-box B4 #B).
            # ... and says where the ids are, as the refusal of a non-number does (bb2 F4).
            return _fail(
                f"{exc.message[:1].upper()}{exc.message[1:]}; the window's Campaigns & audit "
                "tab lists the service's campaigns with their ids.",
                EXIT_USAGE,
            )
        except ApiError as exc:
            # A refused token says where it came from, as import and export say it.
            sentence = describe_api_error(exc, ctx.connection, "The audit could not finish")
            if isinstance(exc, ServerError | TransportError):
                # Every read was already asked again: say what is left to do (bb7 #1).
                sentence = (
                    f"{sentence.rstrip('.')}; each read was asked again and no report was "
                    "written: run the audit again later, or with a lower --concurrency."
                )
            return _fail(sentence, EXIT_FAILED)
        try:
            with AuditRecords.in_data_dir(ctx.paths.data_dir) as records:
                report, sha = save_outcome(result, records, ctx.paths.reports_dir, out)
            # Written and recorded: a stop from here on changes nothing, as the interrupt's
            # sentence says neither was done (black-box B23 F8).
            outcome_decided()
        except OSError as exc:
            where = out or ctx.paths.reports_dir
            return _fail(f"The report could not be written to {where} ({exc}).", EXIT_FAILED)
    finally:
        ctx.close()
    if args.json:
        emit_json(result_json(result, report, sha))
    else:
        verdict = "clean" if result.clean else "NOT clean"
        print(
            f"Campaign {result.campaign_name} (id {result.campaign_id}): {verdict}. "
            f"{counted(len(result.lists), 'list', 'lists')}, "
            f"{counted(result.leads, 'lead', 'leads')}, "
            f"{counted(result.numbers, 'number', 'numbers')} checked, "
            f"{counted(len(result.conflicts), 'conflict', 'conflicts')}, "
            f"{counted(len(result.unparseable), 'unparseable number', 'unparseable numbers')}"
            # Entries the service counted but did not give: not clean (re-test U1 #2).
            + (
                f", {counted(result.unread, 'opt-out entry', 'opt-out entries')} not read"
                if result.unread
                else ""
            )
            # Look-ups the service failed in every round (black-box bb7 #1).
            + (
                f", {counted(result.not_checked, 'number', 'numbers')} not checked (the "
                "service failed their searches): run the audit again."
                if result.not_checked
                else "."
            )
        )
        for s in result.sources:
            # As the report says it (black-box R4 #9: the every-purpose scope printed as
            # "DNC purpose::").
            print(f"  {s.kind.value} {scope_text(s.scope)}: {s.strategy.value} ({s.why})")
        print(f"Report: {report}")
    return EXIT_OK if result.clean else EXIT_FINDINGS
