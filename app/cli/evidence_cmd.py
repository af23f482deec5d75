"""``dnc-desk evidence NUMBER``: everything DNC Desk can see about one number, as an xlsx pack.

Snapshots are those of this service; an incomplete one that does not hold the number says
"not known" (``null`` in ``--json``), not "no" (black-box pass Q2 #2). Exit status: 0 the
number is on no list; 3 it is on a DNC or SMS opt-out list (the pack says where), or what
the service holds of it is not fully known (entries it counted but did not give, a search it
failed even asked again: the pack names them); 1 failed while reading or writing; 2 could
not start (unparseable number, connection).

"On no list" is only of the written forms each list was searched in
(:func:`app.core.evidence.gather_evidence`): ``--json`` gives them (``dnc_forms_searched``,
``sms_forms_searched``), and the printed summary says them of a list where nothing was found
(an empty ``"dnc": []`` said nothing of what was searched: fixer F4's note on black-box P2 #3).

A number refused only because it is in no number range in use today (UK 7911600927 under 44)
is searched as written under its code, as a removal looks it up
(:func:`app.core.evidence.searched_as_written`): stderr says it is not a valid number today and
how it was searched, and so does the pack's Summary (black-box B5 #2: refused, exit 2, though
the list held it). Other invalid numbers (letters, too short) are still refused (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.api.errors import ApiError
from app.cli.audit_connection import (
    EXIT_FAILED,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    ConnectionProblem,
    add_connection_arguments,
    open_context,
)
from app.cli.connection_args import (
    CONNECTION_OPTIONS,
    CliError,
    describe_api_error,
    emit_json,
    fail,
    refuse_empty_options,
)
from app.cli.main import outcome_decided
from app.cli.output_paths import check_out_path
from app.core.wording import counted

if TYPE_CHECKING:
    from app.core.audit_types import OptOutRecord
    from app.core.evidence import JobFacts


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("number", help="the phone number, as written anywhere")
    # None when not given (read as 1): given empty it is refused (black-box R4 #2).
    parser.add_argument("--phone-code", help="country calling code (default 1)")
    parser.add_argument("--out", metavar="PATH.xlsx", help="where to write the evidence pack")
    parser.add_argument("--overwrite", action="store_true", help="replace a file already at --out")
    parser.add_argument("--json", action="store_true", help="print a summary as JSON")
    add_connection_arguments(parser)
    parser.epilog = (
        "Exit status: 0 the number is on no list; 3 it is on a DNC or SMS opt-out list (a "
        "finding, not a failure: the pack says where), or the service counted entries for it "
        "that it did not give, or a search failed even asked again (the pack names it); 1 "
        "failed; 2 a bad argument; 130, 143 or 129 stopped by Ctrl+C, SIGTERM or SIGHUP (no "
        "pack written)."
    )


def _entry(e: OptOutRecord) -> dict[str, str]:
    """An entry as ``--json`` gives it; its ``insert_date`` is the service's clock (black-box
    B32 F6: the pack had it, the JSON did not)."""
    return {"id": e.id, "scope": str(e.scope), "reason": e.reason, "insert_date": e.insert_date}


# (dest, option, what was not given, what to give, what leaving it out does): see
# app.cli.connection_args.refuse_empty_options.
_EMPTY_REFUSED = (
    ("number", "evidence", "a number", "the phone number to gather the evidence of", ""),
    (
        "phone_code",
        "--phone-code",
        "a code",
        "the number's country calling code (for example 1 or 44)",
        "for the default, 1",
    ),
    (
        "out",
        "--out",
        "a path",
        "the .xlsx file to write the evidence pack to",
        "to write it to the reports folder",
    ),
)


def _fail(message: str, status: int) -> int:
    return fail(message, status, prefix="dnc-desk evidence: ")


def _job_details(facts: JobFacts | None) -> dict[str, Any] | None:
    if facts is None:
        return None
    return {
        "job": facts.job,
        "name": facts.name,
        "job_file": str(facts.job_file) if facts.job_file is not None else None,
        "row": facts.row_number,
        "request_date": facts.request_date or None,
        "business_days": facts.business_days,
        "late": facts.late if facts.business_days is not None else None,
        "report": str(facts.report) if facts.report is not None else None,
    }


def run(args: argparse.Namespace) -> int:
    # Imported here: they pull in phonenumbers and openpyxl, which `dnc-desk --help`
    # (it builds every subcommand's options) should not pay for.
    from app.core.evidence import (
        EvidenceError,
        gather_evidence,
        lead_forms_text,
        searches_not_read_lines,
        write_evidence_xlsx,
    )

    try:
        # Given empty, each was taken as left out: an empty --phone-code searched under code
        # 1 (black-box R4 #2).
        refuse_empty_options(args, (*_EMPTY_REFUSED, *CONNECTION_OPTIONS))
    except CliError as exc:
        return _fail(str(exc), exc.status)
    out = Path(args.out).expanduser() if args.out else None
    if out is not None and out.suffix.lower() != ".xlsx":
        return _fail("The evidence pack must be an .xlsx file (--out PATH.xlsx).", EXIT_USAGE)
    if out is not None:
        # Its reads (the journal, snapshots) are .sqlite3 files, which an .xlsx --out is not.
        try:
            out = check_out_path(out, overwrite=args.overwrite, what="evidence pack")
        except CliError as exc:
            return _fail(str(exc), exc.status)
    try:
        ctx = open_context(args, read_journal=True)
    except ConnectionProblem as exc:
        return _fail(str(exc), exc.status)
    try:
        pack = gather_evidence(
            ctx.api,
            ctx.journal,
            ctx.paths.snapshots_dir,
            args.number,
            "1" if args.phone_code is None else args.phone_code,
            connection=ctx.connection.name,
            code_given=args.phone_code is not None,
            search_as_written=True,
            jobs_dir=ctx.paths.jobs_dir,
        )
        # Said in the pack's Summary: a pack made without the journal must not read as one
        # whose number was never written.
        pack.journal_not_read = ctx.journal_problem
        if pack.as_written:
            # Before the pack is written: said even when writing it fails. The note starts
            # "not a valid … number" (only such refusals are searched as written).
            print(f"{args.number!r} is {pack.as_written}.", file=sys.stderr)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        report = out or ctx.paths.reports_dir / f"evidence-{pack.e164.lstrip('+')}-{stamp}.xlsx"
        sha = write_evidence_xlsx(pack, report)
        # In place now: a stop from here on changes nothing, as the interrupt's sentence
        # says no file was written (black-box B23 F8).
        outcome_decided()
    except EvidenceError as exc:
        return _fail(str(exc), EXIT_USAGE)
    except ApiError as exc:
        # A refused token as export and remove say it (black-box pass Q2 #5).
        sentence = describe_api_error(exc, ctx.connection, "The evidence could not be gathered")
        return _fail(sentence, EXIT_FAILED)
    except OSError as exc:
        return _fail(f"The evidence pack could not be written ({exc}).", EXIT_FAILED)
    finally:
        ctx.close()
    summary = {
        "number": pack.e164,
        "dnc": [_entry(e) for e in pack.dnc],
        "sms_opt_out": [_entry(e) for e in pack.sms],
        # Entries the service counted for the number that could not be read (re-test U1 #5).
        "dnc_not_read": pack.dnc_not_read,
        "sms_not_read": pack.sms_not_read,
        # Searches the service failed even asked again, by list ("dnc", "sms_opt_out",
        # "leads"), each search with why: nothing is known of them (black-box bb3 F5).
        "searches_not_read": pack.searches_not_read,
        "dnc_forms_searched": pack.dnc_searched,
        "sms_forms_searched": pack.sms_searched,
        "leads": [{"id": h.lead.id, "field": h.field, "status": h.lead.status} for h in pack.leads],
        # The texts the leads' phone fields were searched for: a lead writing the number any
        # other way is not in "leads" (black-box B37 F2).
        "lead_forms_searched": pack.lead_forms_searched,
        # The leads' status codes whose names the service's status search failed to give, each
        # with its failure: their leads' status name is not known, not blank (B36 F1).
        "status_names_not_read": pack.status_names_not_read,
        "journal_entries": len(pack.journal),
        "journal_entries_other_services": pack.other_service_journal,
        # Whether the change journal's hash chain held (null: no journal was read), and the
        # pack's entries at a break in it (black-box R4 #4).
        "journal_verified": pack.journal_verified,
        "journal_chain": pack.journal_chain_text,
        "journal_entries_at_break": sorted(pack.journal_breaks),
        # Each write of the number with its recorded outcome and what it settled as: a look-up
        # after a lost answer or a job's conclusion is journaled apart from the outcome, which
        # read alone said "failed" of a delete the service did (black-box B9 #4).
        "writes": [
            {
                "entry": w.intent.id,
                "time": w.intent.time,
                "operation": w.intent.operation,
                "target": w.intent.target,
                "job": w.intent.job,
                # Who made the write (login@host); "" when it was made before this was kept.
                "actor": w.intent.actor,
                "outcome": w.outcome.outcome if w.outcome is not None else None,
                "recorded": w.recorded,
                "settled": w.result,
                "settled_because": w.words,
                "settled_by_entry": w.event,
                # A write a job made (an insert, a removal's delete or lead re-status): the
                # job, and while its job file is in the data folder its row, an insert's
                # request and the report (black-box B9 #8, B20 F3); null for other writes.
                "job_details": _job_details(pack.jobs.get(w.intent.id)),
            }
            for w in pack.writes
        ],
        "writes_by_settled": pack.settled_counts,
        # null: an incomplete snapshot without the number does not say it was not listed.
        "snapshots": {s.path.name: s.listed for s in pack.snapshots},
        # Snapshot files that could not be read (damaged, or no snapshot), each with why: not
        # consulted, so nothing is known of them (black-box B37 F4).
        "snapshots_not_read": pack.snapshots_not_read,
        "report": str(report.resolve()),
        "report_sha256": sha,
    }
    if args.json:
        emit_json(summary)
    else:
        print(
            f"{pack.e164}: {counted(len(pack.dnc), 'DNC entry', 'DNC entries')}, "
            f"{counted(len(pack.sms), 'SMS opt-out', 'SMS opt-outs')}, "
            f"{counted(len(pack.leads), 'lead', 'leads')}, "
            f"{counted(len(pack.journal), 'journal entry', 'journal entries')}, "
            f"listed in {sum(1 for s in pack.snapshots if s.listed)} of "
            f"{counted(len(pack.snapshots), 'snapshot', 'snapshots')}."
        )
        if pack.other_service_journal:
            print(
                f"{pack.other_service_journal} journal entries of writes to other services "
                "were left out."
            )
        if pack.journal_verified is False or pack.journal_not_read:
            print(pack.journal_chain_text)
        if pack.writes:
            counts = ", ".join(f"{n} {result}" for result, n in pack.settled_counts.items())
            print(f"Writes recorded in the change journal, as settled: {counts}.")
        for snap in pack.snapshots:
            if snap.listed is None:
                print(f"Snapshot {snap.path.name}: listed {snap.listed_text}.")
        for name, why in pack.snapshots_not_read.items():
            print(f"Snapshot {name} could not be read ({why}): not consulted.")
        if pack.other_service_snapshots:
            n = pack.other_service_snapshots
            print(
                f"{n} {'snapshot' if n == 1 else 'snapshots'} of other services (another base "
                "URL) not consulted."
            )
        for found, label, searched, unread, part in (
            (pack.dnc, "No DNC entry", pack.dnc_searched, pack.dnc_not_read, "dnc"),
            (pack.sms, "No SMS opt-out", pack.sms_searched, pack.sms_not_read, "sms_opt_out"),
        ):
            if unread:
                what = "DNC entries" if label == "No DNC entry" else "SMS opt-outs"
                print(
                    f"{unread:,} {what} the service counted for the number could not be read "
                    "(it answered empty pages before its total): whether the number is listed "
                    "there is not fully known."
                )
            elif not found and searched and not pack.not_read_in(part):
                print(f"{label} in the written forms searched: {searched}.")
        # After the lists' lines, before the pack's path: a failed list search is said as
        # plainly as entries not read (bb3 F5).
        for line in searches_not_read_lines(pack):
            print(line)
        if not pack.leads and not pack.not_read_in("leads"):
            forms = lead_forms_text(pack.lead_forms_searched)
            print(f"No lead in the written forms searched: {forms}.")
        for code, why in pack.status_names_not_read.items():
            print(
                f"Status {code}: its name could not be read ({why}), so the status name of "
                "its leads is not known."
            )
        print(f"Evidence pack: {report.resolve()}")
    # Not fully known (entries not given, a search failed) is never "on no list" (bb3 F5).
    return EXIT_FINDINGS if pack.dnc or pack.sms or not pack.fully_known else EXIT_OK
