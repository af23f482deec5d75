"""``dnc-desk health [--scope SCOPE]``: the DNC and SMS opt-out lists' health, and their gaps.

Read-only: fixes (removing redundant campaign copies) are offered in the app, where the user
confirms them. ``--scope`` is read as export reads it. Exit status: 0 nothing found; 3
findings; 1 failed; 2 could not start.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.api.errors import ApiError
from app.cli.audit_connection import (
    EXIT_FAILED,
    EXIT_FINDINGS,
    EXIT_OK,
    ConnectionProblem,
    add_connection_arguments,
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
from app.cli.export_cmd import parse_scope, resolve_scope
from app.core.session import e164
from app.core.wording import counted

if TYPE_CHECKING:
    from app.core.list_health import CrossListGap, Finding, HealthReport
    from app.core.snapshots import SnapshotEntry


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scope", metavar="SCOPE", help=f"{SCOPE_HELP} (default: the whole lists)")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    add_connection_arguments(parser)
    # Said as the other commands with findings say it (black-box R4 #3).
    parser.epilog = (
        "Exit status: 0 nothing found; 3 findings (invalid numbers, redundant copies, entries "
        "for missing or inactive campaigns, blank reasons, near-duplicate purposes, insert "
        "dates in the future or gaps between the lists, or entries that could not be read, "
        "among which findings are not known: a finding, not a failure); 1 failed; "
        "2 a bad argument; 130, 143 or 129 stopped by Ctrl+C, SIGTERM or SIGHUP (it only "
        "reads, so nothing changed)."
    )


# How many entries each finding and gap names in the text output; --json names them all.
NAMED_AT_MOST = 10


def _fail(message: str, status: int) -> int:
    return fail(message, status, prefix="dnc-desk health: ")


def _report_json(report: HealthReport) -> dict[str, object]:
    return {
        "reported_total": report.reported_total,
        "checked": report.checked,
        "unreachable": report.unreachable,
        "ages": report.ages,
        "findings": {
            f.code: {
                "title": f.title,
                "count": len(f.entries),
                "fixable": f.fixable,
                "entries": [
                    {
                        "id": e.id,
                        "phone_number": e.phone_number,
                        "phone_code": e.phone_code,
                        "scope": str(e.scope),
                        "why": f.details.get(e.id, ""),
                    }
                    for e in f.entries
                ],
            }
            for f in report.findings
        },
    }


def _print_named(lines: Sequence[str]) -> None:
    """The first :data:`NAMED_AT_MOST` of ``lines``, indented under their finding, and how many
    more --json names."""
    for line in lines[:NAMED_AT_MOST]:
        print(f"    {line}")
    more = len(lines) - NAMED_AT_MOST
    if more > 0:
        print(f"    … and {more:,} more: see --json")


def _name_entries(finding: Finding) -> None:
    # Every finding names its entries (black-box s31: "Numbers not valid for their country
    # code: 1" named none, so an officer had to run --json to act on it).
    lines = []
    for e in finding.entries:
        why = finding.details.get(e.id, "")
        lines.append(f"{_number(e)} ({e.scope}, id {e.id}){f': {why}' if why else ''}")
    _print_named(lines)


def _number(entry: SnapshotEntry) -> str:
    """The number with its country code, as export and evidence show it (black-box bb11 F9:
    bare digits hid a +44 number, and one number under +1 and +44 read as a contradiction)."""
    return e164(entry.phone_number, entry.phone_code) or entry.phone_number


def _name_gap(entries: Sequence[SnapshotEntry], list_name: str) -> None:
    # The id is the entry's on the one list it is on: the other has none to give.
    if entries:
        print(f"  on {list_name} only:")
        _print_named([f"{_number(e)} ({list_name} id {e.id})" for e in entries])


def _gap_entry(entry: SnapshotEntry) -> dict[str, str]:
    return {
        "phone_number": entry.phone_number,
        "phone_code": entry.phone_code,
        "scope": str(entry.scope),
        "id": entry.id,
    }


def _gap_json(gap: CrossListGap) -> dict[str, object]:
    return {
        "scope": gap.scope,
        "sms_not_dnc": [_gap_entry(e) for e in gap.sms_not_dnc],
        "dnc_not_sms": [_gap_entry(e) for e in gap.dnc_not_sms],
        "sms_not_known": len(gap.sms_not_known),
        "dnc_not_known": len(gap.dnc_not_known),
    }


def _gap_line(gap: CrossListGap) -> str:
    line = (
        f"{gap.scope}: {len(gap.sms_not_dnc):,} on SMS opt-out only, "
        f"{len(gap.dnc_not_sms):,} on DNC only"
    )
    if gap.not_known:
        line += (
            f"; not known: {len(gap.sms_not_known):,} on SMS opt-out and "
            f"{len(gap.dnc_not_known):,} on DNC whose entries on the other list were not all read"
        )
    return line


def run(args: argparse.Namespace) -> int:
    # Imported here: they pull in phonenumbers and openpyxl, which `dnc-desk --help`
    # (it builds every subcommand's options) should not pay for.
    from app.core.list_health import check_health, not_known_warning

    try:
        # As export reads them (black-box R4 #2): an empty option refused, not taken as left
        # out, campaign:NAME and the bare purpose taken.
        refuse_empty_options(args, (SCOPE_OPTION, *CONNECTION_OPTIONS))
        given = parse_scope(args.scope)
    except CliError as exc:
        return _fail(str(exc), exc.status)
    try:
        ctx = open_context(args)
    except ConnectionProblem as exc:
        return _fail(str(exc), exc.status)
    try:
        scope = resolve_scope(ctx.api, ctx.connection, given, "The lists were not read")
        check = check_health(ctx.api, scope)
    except CliError as exc:
        return _fail(str(exc), exc.status)
    except ApiError as exc:
        # A refused token says where it came from, as import and export say it.
        return _fail(
            describe_api_error(exc, ctx.connection, "The lists could not be read"),
            EXIT_FAILED,
        )
    finally:
        ctx.close()
    found = any(f.entries for r in (check.dnc, check.sms) for f in r.findings) or bool(check.gaps)
    # Entries not read: findings among them are not known, so no "nothing found" (bb11 F8).
    warning = not_known_warning(check)
    if args.json:
        data = {
            "dnc": _report_json(check.dnc),
            "sms_opt_out": _report_json(check.sms),
            "gaps": [_gap_json(g) for g in check.gaps],
            "warning": warning or None,
        }
        emit_json(data)
    else:
        for name, report in (("DNC", check.dnc), ("SMS opt-out", check.sms)):
            total = counted(report.reported_total, "entry", "entries")
            print(f"{name}: {report.checked:,} of {total} checked")
            for f in report.findings:
                if f.entries:
                    fix = " (fixable in the app)" if f.fixable else ""
                    print(f"  {f.title}: {len(f.entries):,}{fix}")
                    _name_entries(f)
        for g in check.gaps:
            print(_gap_line(g))
            _name_gap(g.sms_not_dnc, "SMS opt-out")
            _name_gap(g.dnc_not_sms, "DNC")
    if warning:
        print(f"Warning: {warning}", file=sys.stderr if args.json else sys.stdout)
    return EXIT_FINDINGS if found or warning else EXIT_OK
