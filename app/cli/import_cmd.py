"""``dnc-desk import FILE --into dnc|sms-opt-out --scope …``: a spreadsheet into a list.

Also holds the parts ``dnc-desk remove`` shares (arguments, signals, output), since a removal
is the same job run backwards. Exit 0 when the job ran to its end (even with invalid rows),
1 when it could not run, 2 for bad arguments (``--phone-column`` naming no column of the
sheet, or two, ``--sheet`` naming no sheet, ``--resume`` of a removal, an empty or blank
``--phone-code``, ``--sheet``, ``--phone-column``, ``--ignore-column`` or ``--purpose``, among
them), and 128 + the signal's number when a signal paused the job: 130 for SIGINT (Ctrl+C), 143
for SIGTERM, 129 for SIGHUP (the job is paused and the command to resume it is printed); SIGHUP
or SIGINT ignored as the command started (``nohup … &``) stays ignored, and the job runs on. Once
the job's run has ended, a signal changes neither the output nor the exit status.

A job keeps its pace: ``--concurrency`` and ``--rate-limit`` are stored in the job's meta and
used again by ``--resume`` unless given again (the account's limit has not changed). A report
that cannot be written where asked once the rows were sent, or whose path holds a report
another job wrote there after this job started (two jobs given the same ``--report``), goes
to the jobs folder instead, and the result says so: the job itself ran, so the counts are
still printed.

A job that starts sending says its id and the command that resumes it on stderr at once,
before any row is sent, so even a SIGKILL leaves it in a redirected output. Then, still before
the first row, it says the job's warnings from staging (hidden rows, other sheets or columns
holding phone numbers, a Country column not read, one purpose spelled several ways, …) as
``note:`` lines, so a run can be stopped (Ctrl+C pauses it) before the rows go; a ``--resume``
says them again. The result lists them too, once each (a dry run's result, printed at once, is
the only place a dry run says them). Notes about a run
that are not the job's own (another job made from the same file can still be resumed and
writes elsewhere: it is named; one writing to the same list and scope refuses the run instead;
the file a resumed job was made from has changed since) are printed on stderr when found, as
``note:`` lines, and ``--json`` lists them in ``warnings`` too.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import os
import re
import shlex
import signal
import socket
import sqlite3
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, Final

from app.api.client import ApiClient, DncQuery
from app.api.errors import ApiError
from app.api.models import Page
from app.api.paging import next_offset
from app.api.scope import GLOBAL_CAMPAIGN_ID, Scope, ScopeError
from app.cli.campaign_list import campaigns_listed
from app.cli.connection_args import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    EmptyOption,
    StopSignal,
    add_connection_arguments,
    begin_checks,
    describe_api_error,
    emit_json,
    end_checks,
    fail,
    interrupt_status,
    named_by_url,
    open_session,
    refuse_empty_options,
    token_source,
    warn,
)
from app.cli.disk_space import disk_full, full_where
from app.cli.main import NOTHING_SENT, outcome_decided, stop_signals_taken, terminal_gone
from app.cli.output_paths import check_report_path, same_file
from app.cli.working_line import working
from app.core import phones
from app.core.connections import Connection
from app.core.entry_validation import MAX_TEXT
from app.core.job_catalog import (
    SOURCE_SHA256,
    JobInfo,
    SameFileJob,
    claim_beside,
    discard_unrun,
    job_state,
    made_from,
    run_by,
    same_file_refusal,
    source_change,
    source_fingerprint,
    staging_state,
    unstaged_sentence,
    writes_to,
)
from app.core.job_exec import (
    JobOnAnotherService,
    claim_report,
    file_stamp,
    finish_dry_run,
    job_summary,
    on_start,
    refuse_another_service,
    report_destination,
    report_path,
    write_job_report,
)
from app.core.job_lock import JobBusy, JobLock, reserve
from app.core.job_report import (
    AS_WRITTEN_SAID,
    DAMAGED,
    DRY_RUN_LATE_NOTE,
    LEADS_STILL_LISTED,
    MAYBE_INSERTED_LABEL,
    STILL_LISTED_NOTE,
    TEXT_FILE_SHEET,
    VALID_AS_WRITTEN,
    as_written_count,
    sheet_shown,
    still_listed_count,
    write_report,
)
from app.core.job_runner import JobAborted, JobControl, JobProgress, TokenRefused
from app.core.job_staging import (
    OTHER_SHEETS_WARNING,
    PURPOSE_PAGE,
    PURPOSE_PAGES,
    JobSettings,
    ListPurposes,
    MappingError,
    shown_text,
)
from app.core.job_store import SUFFIX as JOB_SUFFIX
from app.core.job_store import JobStatus, JobStore
from app.core.paths import AppPaths, path_text, terminal_text
from app.core.redaction import SECRETS
from app.core.session import Session, read_over
from app.core.sheet_check import CheckSummary, Target
from app.core.sheet_guard import sniff_kind
from app.core.sheet_header import read_preview
from app.core.sheet_mapping import (
    STAND_IN_SEPARATOR,
    ColumnError,
    Role,
    column_said,
    propose_from_preview,
)
from app.core.sheet_reader import open_sheet, path_too_long
from app.core.sheet_scope import CampaignDirectory, names_no_campaign, visible_text
from app.core.sheet_types import SheetError
from app.core.unread_phones import UNREAD_PHONES_WARNING
from app.core.wording import counted, joined

StageFn = Callable[..., tuple[JobStore, CheckSummary]]
RunFn = Callable[..., JobStatus]

DEFAULT_CONCURRENCY = 8
# Statuses after which a job sends nothing more.
ENDED = (JobStatus.FINISHED, JobStatus.CANCELLED, JobStatus.DRY_RUN)


def _whole_number(text: str, rule: str) -> int:
    # argparse names the type function in its own message ("invalid _rate value"): each
    # says the option's rule instead.
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give {rule}.") from None


def _concurrency(text: str) -> int:
    """``--concurrency N``: requests in flight, 1 to 32."""
    rule = "the number of requests in flight, from 1 to 32"
    value = _whole_number(text, rule)
    if not 1 <= value <= 32:
        raise argparse.ArgumentTypeError(f"{value} is out of range; give {rule}.")
    return value


def _rate(text: str) -> int:
    """``--rate-limit N``: requests a minute, 1 or more, or 0 for no limit: a resume keeps the
    job's limit unless given again, and a limit once given could not be lifted (black-box
    B25-6: only a huge number took it off)."""
    rule = "the most requests a minute, 1 or more, or 0 for no limit"
    value = _whole_number(text, rule)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is not 0 or more; give {rule}.")
    return value


IMPORT_SCOPE_HELP = (
    "global, campaign:ID, campaign:NAME or purpose:TEXT: the scope of rows naming none (a "
    "row's own Scope or Campaign cell wins)"
)


def add_job_arguments(
    parser: argparse.ArgumentParser, *, note_help: str = "", scope_help: str = IMPORT_SCOPE_HELP
) -> None:
    """Arguments shared by import and remove (``note_help``: the command's own ``--note``
    help, when the note is more than optional; ``scope_help``: what the command does with
    ``--scope`` and a row's own scope)."""
    parser.add_argument(
        "file",
        nargs="?",
        type=Path,
        help="the spreadsheet: xlsx, xlsm, xlsb, xls, ods, csv, tsv, tab or txt",
    )
    # Not argparse's required=: a --resume gives neither, the job has its own.
    parser.add_argument("--scope", help=f"{scope_help} (required, except with --resume)")
    parser.add_argument(
        "--sheet",
        metavar="NAME",
        help="the sheet to read (default: the first visible sheet with phone numbers)",
    )
    parser.add_argument(
        "--phone-column",
        metavar="NAME",
        help="the phone column: its header (case and spacing ignored), or column:C or #3 by "
        "position; a bare letter (C) counts only when no header has that name",
    )
    parser.add_argument(
        "--ignore-column",
        action="append",
        metavar="NAME",
        help="a column no role reads, named as --phone-column names one (repeatable): one the "
        "guess misreads, such as an SMS platform's Campaign column naming its own campaigns, "
        "so that --scope applies to every row",
    )
    parser.add_argument(
        "--phone-code",
        metavar="CODE",
        help="country code for numbers without one (default 1)",
    )
    parser.add_argument(
        "--concurrency",
        type=_concurrency,
        metavar="N",
        help=f"requests in flight, 1-32 (default {DEFAULT_CONCURRENCY}; --resume keeps the job's)",
    )
    parser.add_argument(
        "--rate-limit",
        type=_rate,
        metavar="N",
        help="at most N requests per minute, 0 for no limit (--resume keeps the job's)",
    )
    parser.add_argument("--dry-run", action="store_true", help="check the file, send nothing")
    parser.add_argument(
        "--report",
        # Text, not a Path: Path("") is ".", which was refused as a folder (black-box B4 #A).
        metavar="PATH",
        help="where to write the xlsx report (missing folders are created)",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace a file already at --report (never the file being read)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--name", default="", help="a name for the job")
    parser.add_argument("--note", default="", help=note_help or "why, on whose request")
    parser.add_argument("--resume", metavar="JOB", help="finish an interrupted job (id or file)")
    add_connection_arguments(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_job_arguments(parser)
    parser.add_argument(
        "--into",
        choices=[t.value for t in Target],
        help="the list to import into (required, except with --resume)",
    )
    parser.add_argument("--reason", default="", help="reason for rows without one")
    # None when not given: an empty one given is refused (refuse_blank_options).
    parser.add_argument("--purpose", default=None, help="purpose for rows without one")
    parser.epilog = job_epilog("invalid rows")


def job_epilog(rows_ended: str) -> str:
    """Import's and remove's exit statuses for ``--help`` (black-box s31: only snapshot, diff,
    evidence and health said theirs); ``rows_ended``: the rows that end without being sent
    and still leave the job run to its end."""
    return (
        f"Exit status: 0 the job ran to its end ({rows_ended} are in its report: a result, "
        "not a failure), a --dry-run included, and a --resume of a job that had already ended; "
        "1 it could not run (a missing file, a refused token, a service that cannot be "
        "reached) or stopped before its end (the job is kept, and the command that resumes it "
        "is printed); 2 a bad argument (nothing sent); 130, 143 or 129 Ctrl+C, SIGTERM or "
        "SIGHUP paused the job (the command that resumes it is printed)."
    )


def check_text_length(option: str, text: str) -> str:
    """``--reason`` / ``--purpose`` text the service can store (it refuses over MAX_TEXT)."""
    if len(text) > MAX_TEXT:
        raise CliError(
            f"{option} is {len(text):,} characters long; the service takes at most {MAX_TEXT}.",
            EXIT_USAGE,
        )
    return text


@dataclasses.dataclass(frozen=True)
class CampaignByName:
    """``--scope campaign:NAME``: a campaign named as the file's cells may name it, resolved
    against the service's campaign list (:func:`resolve_campaign_name`) once it is fetched."""

    given: str  # --scope as written
    name: str


def _scope_refusal(text: str, why: str) -> CliError:
    return CliError(f"The scope {text!r} given with --scope {why}.", EXIT_USAGE)


# The forms of --scope each command takes, for the sentence refusing one left out or empty.
_SCOPE_FORMS = "global, campaign:ID, campaign:NAME or purpose:TEXT"
_SCOPE_FORMS_REMOVAL = "global, campaign:ID, campaign:NAME, purpose:TEXT or purpose (every purpose)"


class PurposeMissing(CliError):
    """``--scope purpose`` of an import without ``--purpose``: refused, and the file's Purpose
    column, if it has one, named (:func:`purpose_column_sentence`)."""


def purpose_column_sentence(path: Path, sheet: str | None) -> str:
    """How a file's Purpose column becomes each row's scope, or ``""`` when its first rows
    show no such column (or cannot be read: the file's own refusal comes later). A file of
    Phone and Purpose columns run with ``--scope purpose`` was refused for want of --purpose,
    with no word that a Scope column saying ``purpose`` takes each row's Purpose cell as its
    scope (black-box bb4 F5a)."""
    try:
        with open_sheet(path, sheet) as source:
            mapping = propose_from_preview(read_preview(source))
    except (OSError, ValueError, TypeError, SheetError):
        return ""
    if mapping.purpose is None:
        return ""
    column = column_said(mapping.headers, mapping.purpose)
    if mapping.scope is not None:
        scope = column_said(mapping.headers, mapping.scope)
        return (
            f"In {path_text(path.name)}, a row whose Scope cell ({scope}) says 'purpose' is "
            f"imported under its own purpose, from {column}: "
            "give --scope global (or a campaign) for rows whose Scope cell is empty."
        )
    return (
        f"{path_text(path.name)} has a purpose column, {column}, which is each row's scope "
        "only beside a Scope column saying 'purpose': to import each row under its own "
        "purpose, add a Scope column with 'purpose' on those rows and give --scope global "
        "for rows whose Scope cell is empty."
    )


def parse_scope(text: str | None, purpose: str, *, removal: bool = False) -> Scope | CampaignByName:
    """``--scope`` (and ``--purpose`` for the bare word ``purpose``), invisible characters and
    surrounding spaces removed. Only the bare word ``purpose`` of a removal means every purpose:
    ``purpose:`` with nothing after it (an empty ``$PURPOSE`` in a script) is refused.
    ``campaign:`` followed by anything but an id names a campaign by its name: a
    :class:`CampaignByName`, for :func:`preflight` to resolve."""
    forms = _SCOPE_FORMS_REMOVAL if removal else _SCOPE_FORMS
    if text is None:
        raise CliError(f"--scope is required: {forms}.", EXIT_USAGE)
    text = visible_text(text)
    purpose = visible_text(purpose)
    if not text:
        # Said as every other option given empty is (an empty shell variable, B30 F10).
        raise CliError(f"--scope was given without a scope: give {forms}.", EXIT_USAGE)
    low = text.lower()
    if low == "purpose" and purpose:
        return Scope.purpose(check_text_length("--purpose", purpose))
    if removal and low == "purpose":
        # The service deletes a number's entries for every purpose at once; a removal may ask
        # for exactly that (a named purpose refuses numbers listed for other purposes too).
        return Scope.purpose("")
    if low == "purpose":
        # The README's own form (black-box Q3 #7: it was refused as "not a scope").
        raise PurposeMissing(
            f"--purpose is missing: --scope {text!r} alone is not a scope an import can "
            "write to; give the purpose with --purpose TEXT, or write --scope purpose:TEXT.",
            EXIT_USAGE,
        )
    if low.startswith("purpose:") and not visible_text(text.split(":", 1)[1]):
        every = " (to remove every purpose, give --scope purpose)" if removal else ""
        raise CliError(f"--scope {text!r} names no purpose: write purpose:TEXT{every}.", EXIT_USAGE)
    if names_no_campaign(text):
        raise _scope_refusal(
            text, "names no campaign: write campaign:ID or campaign:NAME (its id or its name)"
        )
    if low.startswith("campaign:"):
        named = visible_text(text.split(":", 1)[1])
        if named == GLOBAL_CAMPAIGN_ID:
            raise _scope_refusal(
                text,
                "names campaign 0, which is the global scope: write --scope global, or "
                "campaign:ID or campaign:NAME for a campaign",
            )
        if not named.isdigit():
            return CampaignByName(text, named)
    try:
        scope = Scope.parse(text)
    except ScopeError as exc:
        raise _scope_refusal(
            text, "is not a scope: write global, campaign:ID, campaign:NAME or purpose:TEXT"
        ) from exc
    if scope.is_purpose:
        scope = Scope.purpose(visible_text(scope.purpose_text))
        check_text_length("The purpose of --scope", scope.purpose_text)
        # Every row without a scope cell would be invalid (the rows' check, like this one,
        # ignores case): two options that contradict each other are a bad argument.
        if purpose and purpose.casefold() != scope.purpose_text.casefold():
            raise CliError(
                f"--scope {text!r} and --purpose {purpose!r} name different purposes: "
                "leave out --purpose (rows without a purpose take the scope's) or give both the "
                "same purpose.",
                EXIT_USAGE,
            )
    return scope


def resolve_campaign_name(
    campaigns: CampaignDirectory, wanted: CampaignByName, connection: Connection
) -> Scope:
    """The campaign ``--scope campaign:NAME`` names, matched as the file's campaign cells are
    (:meth:`CampaignDirectory.ids_named`); refused when no campaign, or more than one, has that
    name."""
    alike = campaigns.ids_named(wanted.name)
    if not alike:
        # Listing the service's campaigns, as the refusal of an unknown id does (black-box
        # bb16 F7: a CLI-only officer who mistyped a name had no way to see them).
        head = (
            f"No campaign on the service at {connection.base_url} is named {wanted.name!r} "
            f"(--scope {wanted.given})"
        )
        theirs = campaigns_listed(campaigns, wanted.name)
        if theirs is None:
            raise CliError(f"{head}; it has no campaign at all: give another --scope.", EXIT_USAGE)
        raise CliError(
            f"{head}; {theirs}: give one's id (campaign:ID) or its name as the service lists "
            "it (campaign:NAME).",
            EXIT_USAGE,
        )
    if len(alike) > 1:
        # Each as the service spells it (black-box pass L3 #8: 'Spring Renewals' and 'spring
        # renewals' were said to be "all named 'SPRING RENEWALS'", as typed).
        listed = {cid: name for name, cid in campaigns.named if cid in alike}
        if all(visible_text(listed.get(cid, "")) == wanted.name for cid in alike):
            which = f"{joined(alike)} on the service at {connection.base_url} are all named"
        else:
            each = joined([f"{cid} ({listed.get(cid, '')!r})" for cid in alike])
            which = (
                f"{each} on the service at {connection.base_url} all have, case and "
                "surrounding spaces aside, the name"
            )
        raise CliError(
            f"Campaigns {which} {wanted.name!r}, so --scope {wanted.given} does not say which: "
            "give --scope campaign:ID with the id of the one you mean.",
            EXIT_USAGE,
        )
    return Scope.campaign(alike[0])


# Options that, given empty or blank, would silently mean what leaving them out means (an
# empty shell variable in a script: `--phone-code "$CODE"`): each is refused instead, saying
# what to give. An empty --phone-code read every number of the file as code 1's (black-box
# P2 #5); an empty --sheet or --phone-column read what the guess picks; an empty --purpose
# wrote entries with no purpose; an empty --ignore-column was refused as a header no column
# has. Each: (dest, option, what was not given, what to give, what leaving it out does).
# --reason is not among them: a blank reason is one the list holds and searches (an
# export's --reason blank), and it decides neither which number is listed nor where.
_NOT_BLANK: Final = (
    (
        "phone_code",
        "--phone-code",
        "a code",
        "the country calling code of the numbers written without one (for example 1 or 44)",
        "for the default, 1",
    ),
    (
        "sheet",
        "--sheet",
        "a sheet",
        "the name of the sheet to read",
        "to read the first visible sheet with phone numbers",
    ),
    (
        "phone_column",
        "--phone-column",
        "a column",
        "the phone column's header, or column:C or #3 by position",
        "to have the phone column found",
    ),
    (
        "ignore_column",
        "--ignore-column",
        "a column",
        "the header of the column to ignore, or column:C or #3 by position",
        "to have every column read as found",
    ),
    (
        "purpose",
        "--purpose",
        "a purpose",
        "the purpose of the rows without one",
        "for rows without a purpose to carry none (or the scope's)",
    ),
    # Either given empty made a dry run offline without a word (its campaign names and
    # purposes then go unchecked).
    (
        "connection",
        "--connection",
        "a name",
        "the name of a saved connection",
        "for a dry run without a connection",
    ),
    (
        "base_url",
        "--base-url",
        "a URL",
        "the service's base URL (the token in the environment variable DNC_DESK_TOKEN)",
        "for a dry run without a connection",
    ),
)


_REPORT_OPTION: EmptyOption = (
    "report",
    "--report",
    "a path",
    "the .xlsx file to write the report to",
    "to have it written beside the job file",
)


def refuse_blank_options(args: argparse.Namespace) -> None:
    """Refuse an option of :data:`_NOT_BLANK` given empty or blank (spaces or invisible
    characters only), before the file is read or a connection opened."""
    for dest, option, noun, give, left_out in _NOT_BLANK:
        value = getattr(args, dest, None)
        values = value if isinstance(value, list) else [value]
        if any(v is not None and not visible_text(v) for v in values):
            raise CliError(
                f"{option} was given without {noun}: give {give}, or leave the option out "
                f"{left_out}.",
                EXIT_USAGE,
            )


def parse_phone_code(text: str) -> str:
    """``--phone-code``: a country calling code ("1", "+44", "0044") or a region ("GB")."""
    code = phones.normalize_code(text.strip())
    if code is None:
        raise CliError(
            f"--phone-code {text!r} is not a country calling code (for example 1 or 44).",
            EXIT_USAGE,
        )
    return code


# The campaign list a job starts with is fetched this many times over (each with the client's
# retries) while the service fails it: one failing read refused a whole job that the run's own
# handling of faults would have finished (black-box pass H3, at 60 % errors).
PREFLIGHT_ROUNDS = 2


def preflight(
    api: ApiClient,
    connection: Connection,
    scope: Scope | CampaignByName | None,
    action: str = "",
) -> tuple[CampaignDirectory, Scope | None]:
    """Check the token and the service before reading the file; fetch its campaign list.
    Returns it and the job's scope, a campaign named by its name resolved to its id.

    The list is fetched once per job: staging resolves campaign names and checks campaign ids
    in the file against it. ``action`` leads a refusal's sentence ("Import of a.csv not
    started").
    """
    try:
        campaigns = CampaignDirectory(read_over(api.campaigns, PREFLIGHT_ROUNDS))
    except ApiError as exc:
        raise CliError(describe_api_error(exc, connection, action)) from exc
    if (
        scope is not None
        and not isinstance(scope, CampaignByName)
        and scope.is_campaign
        and scope.campaign_id not in campaigns.ids
        and campaigns.ids_named(scope.campaign_id)
    ):
        # Digits no campaign has as its id name the campaign named so, as a file's cells do
        # (black-box B21 F4: campaign:2024 was "no campaign 2024" beside campaign 15 '2024').
        given = f"campaign:{scope.campaign_id}"
        scope = CampaignByName(given, scope.campaign_id)
    if isinstance(scope, CampaignByName):
        scope = resolve_campaign_name(campaigns, scope, connection)
    if scope is not None and scope.is_campaign and scope.campaign_id not in campaigns.ids:
        # With the next step, as the refusal of an unknown name gives it (black-box bb2 F11).
        raise _no_such_campaign(campaigns, scope.campaign_id, connection)
    return campaigns, scope


def _no_such_campaign(campaigns: CampaignDirectory, given: str, connection: Connection) -> CliError:
    """``--scope campaign:ID`` naming no campaign: refused listing the service's, as audit's
    refusal does, for a person with only the CLI (black-box bb12 F3)."""
    head = f"The service at {connection.base_url} has no campaign {given}"
    listed = campaigns_listed(campaigns, given)
    if listed is None:
        return CliError(f"{head}; it has no campaign at all: give another --scope.", EXIT_USAGE)
    return CliError(
        f"{head}; {listed}: give one's id (campaign:ID) or its name (campaign:NAME).",
        EXIT_USAGE,
    )


def _spaced(text: str) -> str:
    return " ".join(text.split())


def purpose_spellings(text: str) -> list[str]:
    """``text`` as typed, then as a list most often writes a purpose another way: its spaces
    single, lower case, Title Case, UPPER CASE, each word capitalised, the first only."""
    found: list[str] = []
    for base in dict.fromkeys((text, _spaced(text))):
        lower = base.casefold()
        words = " ".join(word.capitalize() for word in base.split(" "))
        for spelling in (base, lower, base.title(), base.upper(), words, lower.capitalize()):
            if spelling not in found:
                found.append(spelling)
    return found


def _list_name(target: Target) -> str:
    return "DNC list" if target is Target.DNC else "SMS opt-out list"


def read_list_purposes(
    api: ApiClient, target: Target, connection: Connection, action: str
) -> ListPurposes:
    """The purposes of the target list, read when first compared (:class:`ListPurposes`):
    its purpose entries page by page, at most PURPOSE_PAGES pages; past that, a text is also
    searched for by :func:`purpose_spellings`, one entry each. A failing read refuses the job
    (``action`` leads the sentence), before anything is sent."""
    every = DncQuery(scope=Scope.purpose(""))  # campaign_id -1: every purpose's entries

    def page(query: DncQuery, offset: int, limit: int) -> Page[Any]:
        if target is Target.DNC:
            return api.search_dnc(query, offset=offset, limit=limit)
        return api.search_sms(query, offset=offset, limit=limit)

    def read(query: DncQuery, offset: int, limit: int) -> Page[Any]:
        try:
            return read_over(functools.partial(page, query, offset, limit), PREFLIGHT_ROUNDS)
        except ApiError as exc:
            raise CliError(describe_api_error(exc, connection, action)) from exc

    def load() -> tuple[list[str], bool]:
        texts: dict[str, None] = {}
        offset = 0
        for _ in range(PURPOSE_PAGES):
            got = read(every, offset, PURPOSE_PAGE)
            texts.update(dict.fromkeys(str(entry.purpose) for entry in got.items))
            # A page shorter than asked ends the read only at the service's total (black-box
            # R1: a service giving 999 of 1,000 rows left the rest of the purposes unread).
            following = next_offset(offset, PURPOSE_PAGE, len(got.items), got.total, None)
            if following is None:
                # An empty page before the service's total leaves purposes unread: each text
                # is then looked up by its spellings (re-test U1 #3).
                end = offset + len(got.items)
                return list(texts), got.total is None or end >= got.total
            offset = following
        # Every entry read when the service counts no more than that.
        return list(texts), got.total is not None and got.total <= offset

    def search(text: str) -> list[str]:
        found: dict[str, None] = {}
        for spelling in purpose_spellings(text):
            query = DncQuery(scope=Scope.purpose(spelling))
            # A service comparing purposes without case may answer with another spelling.
            found.update(dict.fromkeys(str(e.purpose) for e in read(query, 0, 1).items))
        return list(found)

    return ListPurposes(_list_name(target), load, search)


# What bash needs written out inside $'…' (a tab is invisible in "…"; \ ' as escapes).
_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\\": "\\\\", "'": "\\'"}


def option_exactly(option: str, purpose: str) -> str:
    """``--scope "purpose:Loan  Offers"`` or ``--purpose "…"``: the option giving ``purpose``
    exactly, quoted so its spaces show; ``$'…'`` with escapes when a tab, a combining mark or
    a character the shell would read inside double quotes is in it."""
    value = purpose if option == "--purpose" else f"purpose:{purpose}"
    if all(
        c.isprintable() and c not in '"$`\\!' and not unicodedata.category(c).startswith("M")
        for c in value
    ):
        return f'{option} "{value}"'
    escaped = ""
    for c in value:
        if c in _ESCAPES:
            escaped += _ESCAPES[c]
        elif c.isprintable() and not unicodedata.category(c).startswith("M"):
            escaped += c
        else:
            escaped += f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}"
    return f"{option} $'{escaped}'"


def shell_word(word: str) -> str:
    """``word`` quoted for the shell as :func:`shlex.quote` does, or as ``$'…'`` with escapes
    when a character that steers a terminal is in it (a file name with ESC or a newline:
    black-box bb2 F16), so the printed command neither reaches the terminal raw nor stops
    naming the same file when pasted."""
    if terminal_text(word) == word:
        return shlex.quote(word)
    escaped = "".join(_ESCAPES.get(c) or terminal_text(c) for c in word)
    return f"$'{escaped}'"


def check_purpose_spelling(
    purposes: ListPurposes, texts: Sequence[tuple[str, str]], connection: Connection
) -> None:
    """Refuse a purpose of ``--scope purpose:TEXT`` or ``--purpose TEXT`` that the target list
    has only spelled otherwise (:func:`~app.core.job_staging.purpose_key`: case, white space,
    Unicode form): the service keeps purposes as written, so rows sent under it would be a
    purpose of their own that the dialer's campaigns do not use, and a removal would find none
    of the entries meant (black-box pass L3 #2, re-test M2 #2). Each of the list's spellings is
    named with the option giving it exactly. ``texts``: (purpose, the option as typed)."""
    for text, given in texts:
        listed = purposes.spellings(text)
        if not listed or text in listed:
            continue
        one = len(listed) == 1
        names = joined([shown_text(p) for p in listed])
        option, _, _ = given.partition(" ")
        # What a person types loses the spaces around it and invisible characters.
        fixes = [option_exactly(option, p) for p in listed if visible_text(p) == p]
        lost = [shown_text(p) for p in listed if visible_text(p) != p]
        said = (
            f"The {purposes.list_name} on the service at {connection.base_url} has "
            f"{'the purpose' if one else 'the purposes'} {names}, not {shown_text(text)} "
            f"({given}): the service keeps a purpose as it is written, so {shown_text(text)} "
            "would be another purpose."
        )
        if fixes:
            which = "it" if one else "the one meant"
            said += f" Give {which} exactly as the list has it: {' or '.join(fixes)}."
        if lost:
            said += (
                f" {joined(lost)} cannot be given in an option: the spaces around a purpose "
                "typed (and invisible characters in it) are left out; correct the spelling on "
                "the list."
            )
        raise CliError(said, EXIT_USAGE)


def purpose_options(args: argparse.Namespace, job: JobSettings) -> list[tuple[str, str]]:
    """The purposes the options give the job, each with the option as typed: ``--scope
    purpose:TEXT`` (or ``--purpose TEXT`` with the bare ``--scope purpose``), and a
    ``--purpose`` for rows naming a purpose scope without a purpose."""
    out: list[tuple[str, str]] = []
    if job.scope.is_purpose and job.scope.purpose_text:
        out.append((job.scope.purpose_text, _purpose_given(args)))
    if job.purpose and all(job.purpose != text for text, _ in out):
        out.append((job.purpose, f"--purpose {job.purpose}"))
    return out


@contextmanager
def interrupts_pause(control: JobControl) -> Iterator[StopSignal]:
    """SIGINT, SIGTERM and SIGHUP suspend the job cleanly instead of killing it mid-row
    (SIGINT and SIGHUP not when ignored as the command started: ``nohup … &``); the
    :class:`StopSignal` yielded says which one did, for the exit status. Once the run has
    ended its outcome is decided: a signal after it changes nothing (``outcome_decided``)."""
    stopped = StopSignal()

    def handler(signum: int, frame: FrameType | None) -> None:
        stopped.record(signum)
        if signum == getattr(signal, "SIGHUP", None):
            terminal_gone()
        if not control.suspended.is_set():
            # Said at once: requests already sent get two seconds to be answered, then their
            # connections are shut (the runner's stop); a resume settles their rows. The report
            # is written after, each unsent row too: about 10 s for 60,000 here (black-box P1
            # #1: a minute's silence on a busy machine read as a hang).
            say(
                "Interrupted: pausing the job; no new request is sent, and requests not "
                "answered within 2 s are abandoned (a resume settles their rows); then the "
                "job's report is written, every row in it, which takes some seconds when tens "
                "of thousands are left to send."
            )
        else:
            # A second Ctrl+C went unanswered, and read as ignored (black-box R5 #11).
            say(
                "Still pausing: the job is paused once the requests sent are settled and its "
                "report is written; the command then ends by itself."
            )
        control.suspend()

    for sig in stop_signals_taken():
        signal.signal(sig, handler)
    try:
        yield stopped
    finally:
        # Not the handlers from before (Ctrl+C raising): what is printed now is the outcome.
        outcome_decided()


def say(sentence: str) -> None:
    """A sentence on stderr from a signal handler, which must not raise: a terminal gone (a
    SIGHUP's) refuses the write, and the job's pause matters more than the sentence."""
    with contextlib.suppress(OSError, ValueError):
        print(sentence, file=sys.stderr, flush=True)


# How often a job the service has stopped answering says so again on stderr.
WAITING_EVERY: Final = 30.0


def progress_printer(rows: bool) -> Callable[[JobProgress], None]:
    """The job's progress on stderr: its rows on one line rewritten in place when ``rows`` (a
    terminal, no --json), and in any case a line when the service has answered nothing for a
    while, then every WAITING_EVERY seconds (black-box L4 #8: a hung service ran for minutes
    with nothing said)."""
    last = [0.0]
    waiting_said = [-WAITING_EVERY]

    def show(p: JobProgress) -> None:
        now = time.monotonic()
        if p.waiting is not None and now - waiting_said[0] >= WAITING_EVERY:
            waiting_said[0] = now
            lead = "\n" if rows else ""  # off the rows' line, which is rewritten in place
            print(f"{lead}{p.waiting.text()}", file=sys.stderr, flush=True)
        elif p.waiting is None:
            waiting_said[0] = -WAITING_EVERY  # a new silence is said at once
        if not rows or (now - last[0] < 1.0 and p.done < p.total):
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


def restart_command(meta: Mapping[str, Any]) -> str:
    """The command that starts again the job of ``meta``, whose rows were not all read, with
    every option its job file keeps, each quoted for the shell."""
    kind = str(meta.get("kind") or "import")
    words = ["dnc-desk", command_of(kind), str(meta.get("file") or "FILE")]
    if kind != "removal":
        words += ["--into", str(meta.get("target") or "dnc")]
    scope = str(meta.get("scope") or "global")
    words += ["--scope", "purpose" if scope == "purpose:" else scope]
    for option, key in (
        ("--sheet", "sheet"),
        ("--phone-code", "phone_code"),
        ("--reason", "reason"),
        ("--purpose", "purpose"),
        ("--note", "note"),
        ("--lead-status", "lead_status"),
    ):
        if value := str(meta.get(key) or ""):
            words += [option, value]
    name, file_name = str(meta.get("name") or ""), Path(str(meta.get("file") or "")).name
    if name and name.lower() != f"{kind} of {path_text(file_name)}".lower():
        words += ["--name", name]
    report, job_id = str(meta.get("report") or ""), str(meta.get("job_id") or "")
    if report and not same_file(AppPaths.default().jobs_dir / f"{job_id}.xlsx", Path(report)):
        words += ["--report", report]
    connection, base_url = str(meta.get("connection", "")), str(meta.get("base_url", ""))
    if base_url:
        words += service_words(connection, base_url)
    if meta.get("concurrency") and meta["concurrency"] != DEFAULT_CONCURRENCY:
        words += ["--concurrency", str(meta["concurrency"])]
    if meta.get("rate_limit"):
        words += ["--rate-limit", str(meta["rate_limit"])]
    return " ".join(shell_word(w) for w in words)


def service_words(connection: str, base_url: str) -> list[str]:
    """The option naming a job's service in every command printed for the person to paste:
    ``--base-url URL`` for a job given one (named after the URL as typed, /v1 and all; its
    token is then DNC_DESK_TOKEN's again), else ``--connection NAME``. Never a token."""
    if named_by_url(connection, base_url):
        return ["--base-url", base_url]
    return ["--connection", connection]


def pasted_options(connection: Connection | None, dry_run: bool) -> tuple[str, ...]:
    """What a new job's printed commands (another sheet's import) end with: its service, as
    :func:`service_words` names it, and ``--dry-run`` when it is one, so that the command
    pasted checks that sheet as this run checked its own (black-box bb12 F1)."""
    words = service_words(connection.name, connection.base_url) if connection else []
    return (*words, *(["--dry-run"] if dry_run else []))


def restart_sentence(meta: Mapping[str, Any]) -> str:
    """Why the job of ``meta`` (its rows not all read) is not run, and the command that starts
    it again in full (black-box B30 F9: "start the import again (dnc-desk import big.csv …)"
    gave a command nobody could paste)."""
    return unstaged_sentence(
        meta,
        f" with: {restart_command(meta)} (adding any other option it was started with, such "
        "as --phone-column or --ignore-column, which the job file does not keep)",
    )


def resume_hint(command: str, store: JobStore) -> str:
    return resume_command(command, store.meta(), store.path)


def resume_command(command: str, meta: dict[str, Any], path: Path) -> str:
    """``dnc-desk import --resume JOB --base-url URL …``: the command that runs the job
    (``meta``, from the job file ``path``) on, on its own service and at its own pace."""
    connection, base_url = str(meta.get("connection", "")), str(meta.get("base_url", ""))
    where = " ".join(shell_word(w) for w in service_words(connection, base_url))
    pace = ""
    if meta.get("concurrency") and meta["concurrency"] != DEFAULT_CONCURRENCY:
        pace += f" --concurrency {meta['concurrency']}"
    if meta.get("rate_limit"):
        pace += f" --rate-limit {meta['rate_limit']}"
    return f"dnc-desk {command} --resume {_job_named(meta, path)} {where}{pace}"


def _job_named(meta: Mapping[str, Any], path: Path) -> str:
    """How ``--resume`` finds the job file ``path``: its id when it is in the jobs folder
    under that id, else its path (black-box R5 #5: a job file moved elsewhere and resumed by
    its path was named by its id, which then found "no job … to resume")."""
    job_id = str(meta.get("job_id") or "")
    if not path.is_file():  # not a file (an id as typed): nothing else to name it by
        return job_id or str(path)
    if job_id and same_file(AppPaths.default().jobs_dir / f"{job_id}{JOB_SUFFIX}", path):
        return job_id
    return shell_word(str(path.expanduser().absolute()))


def command_of(kind: str) -> str:
    """The subcommand that runs a job of ``kind`` (``import``, ``removal``)."""
    return "remove" if kind == "removal" else "import"


def _strong(meta: Mapping[str, Any]) -> frozenset[str]:
    """Staging's sentences said as ``warning:``: on a column of phone numbers not read (a
    consumer's other number left off the list: black-box bb4 F4) and on other sheets laid out
    as the one read (a month-per-sheet workbook's other months: black-box bb4 #7)."""
    return frozenset(
        str(meta[key]) for key in (UNREAD_PHONES_WARNING, OTHER_SHEETS_WARNING) if meta.get(key)
    )


def _said_as(sentence: str, strong: frozenset[str]) -> str:
    """``warning`` for one of :func:`_strong`'s sentences, else ``note``."""
    return "warning" if sentence in strong else "note"


def say_note(sentence: str) -> None:
    """``note: SENTENCE`` on stderr, flushed: said before a long run, not after it."""
    print(SECRETS.redact(f"note: {terminal_text(sentence)}"), file=sys.stderr, flush=True)


def note_now(notes: list[str], sentence: str) -> None:
    """A note about this run: said on stderr at once (before a long run, not after it) and
    kept in ``notes`` for the ``--json`` object's ``warnings``."""
    notes.append(sentence)
    say_note(sentence)


def say_still_listed(store: JobStore) -> None:
    """``warning: SENTENCE`` on stderr once a removal's run ended (finished, paused or stopped,
    its report written), when the service re-statused leads on its numbers that stay on the
    DNC list through other entries (:class:`app.core.job_report.StillListed`): a number still
    listed looks callable there, unless the status is a DNC status (black-box B9 #1: only the
    rows' messages in the report said so). Said under ``--json`` too, whose ``warnings`` and
    ``leads_still_listed`` hold it, and by the text result's notes, which a user may keep in a
    file."""
    if said := store.meta().get(STILL_LISTED_NOTE):
        warn(f"warning: {said}")


def staging_warnings(meta: Mapping[str, Any]) -> list[str]:
    """What staging warned of, as the job file holds it: the campaign ids it could not
    check, then its own warnings (hidden rows, other sheets or columns holding phone numbers,
    a Country column not read, one purpose spelled several ways, …)."""
    warnings = [str(meta["campaign_check"])] if meta.get("campaign_check") else []
    return warnings + [str(w) for w in meta.get("warnings") or []]


def other_jobs_note(
    jobs_dir: Path, store: JobStore, kind: str, file: Path, sha256: str, *, dry_run: bool
) -> list[str]:
    """A sentence for each job of ``kind`` made from ``file`` (or a file with its content)
    that can still be resumed: the user may mean to resume it rather than start again.

    Only a job writing where this one does (the same list, the same scope) is offered as the
    one to finish instead; one writing elsewhere is named as such, with its resume command,
    as this job does not do its work (black-box P1 #4: a paused import of a file into the SMS
    opt-out list was offered "to finish it instead" of a new import of it into the DNC list)."""
    sentences = []
    this_job = "this dry run" if dry_run else f"this {kind}"
    if dry_run:
        this = "this dry run sends nothing and leaves it as it is"
    else:
        this = f"this {kind} is a new job, which sends every row again"
    ours = writes_to(store.meta())
    for other in made_from(jobs_dir, file, kind, sha256):
        if other.path.resolve() == store.path.resolve():
            continue
        holder = run_by(other)
        progress = f"{other.done:,} of {counted(other.rows, 'row', 'rows')} done"
        # The file that job was made from, which may be a copy of this one (black-box R4 #7:
        # a job made from big3.csv was said to be made from big3copy.csv).
        source = Path(str(other.meta.get("file") or file)).name
        made = f"Job {other.job_id}, made from {source} on {other.meta.get('created', '?')} UTC"
        theirs = writes_to(other.meta)
        elsewhere = (
            f"it writes to {theirs}, not to {ours} as {this_job} does" if theirs != ours else ""
        )
        if holder is not None:
            pid = f"pid {holder.pid}" if holder.pid else "another process"
            tail = elsewhere or this
            sentences.append(f"{made}, is being run now ({pid}; {progress}); {tail}.")
            continue
        command = resume_command(command_of(kind), other.meta, other.path)
        state = f"{job_state(other, None)}, {progress}"
        if elsewhere:
            sentences.append(
                f"{made}, can still be resumed ({state}) with {command}; {elsewhere}, so "
                f"{this_job} does not finish it."
            )
            continue
        sentences.append(
            f"{made}, can still be resumed ({state}): to finish it instead, run {command}; {this}."
        )
    return sentences


def same_file_sentence(other: SameFileJob, action: str) -> str:
    """Why a new job is not run beside ``other`` (:func:`same_file_job`), with the command that
    finishes it: one sentence led by ``action``."""
    command = resume_command(command_of(other.info.kind), other.info.meta, other.info.path)
    cancel = f"dnc-desk jobs cancel {other.info.job_id}"
    return same_file_refusal(other, action, f"finish it with {command}", cancel)


def job_pace(args: argparse.Namespace, store: JobStore | None) -> dict[str, int]:
    """Settle ``args.concurrency`` and ``args.rate_limit``: as given, else the job's own (on
    ``--resume``), else the defaults. Returns what was given, for the caller to store in the
    job for later resumes once it holds the job (a refused resume changes nothing)."""
    meta = store.meta() if store is not None else {}
    given: dict[str, int] = {}
    if args.concurrency is None:
        stored = meta.get("concurrency")
        args.concurrency = stored if isinstance(stored, int) else DEFAULT_CONCURRENCY
    else:
        given["concurrency"] = args.concurrency
    if args.rate_limit is None:
        stored = meta.get("rate_limit")
        args.rate_limit = stored if isinstance(stored, int) and stored > 0 else None
    else:
        given["rate_limit"] = args.rate_limit
        args.rate_limit = args.rate_limit or None  # 0: no limit, kept so for later resumes
    return given


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def report_fallback(store: JobStore, exc: OSError) -> None:
    """The report could not be written at its path (``exc``): write it to the jobs folder.

    The job's meta then names the new place (so ``--resume`` and the result print a report
    that exists) and keeps the place asked for and why, for the result's warning.
    """
    wanted = report_path(store)
    fallback = store.path.with_suffix(".xlsx")
    if wanted.expanduser().resolve() == fallback.resolve():
        store.set_meta({"report_error": f"{wanted}: {_reason(exc)}"})
        return
    try:
        write_report(store, fallback)
    except OSError as second:
        store.set_meta({"report_error": f"{wanted}: {_reason(exc)}; {fallback}: {_reason(second)}"})
        return
    store.set_meta(
        {"report": str(fallback), "report_moved": {"from": str(wanted), "reason": _reason(exc)}}
    )


def ensure_report(store: JobStore) -> None:
    """Write an ended job's report again if its file is gone (or was never written); a file
    another job wrote at its path since is left alone (see :func:`report_destination`)."""
    if report_destination(store).is_file():
        return
    try:
        write_job_report(store)
    except OSError as exc:
        report_fallback(store, exc)


# A column as ColumnMapping.describe() names it: "Notes (column E)", or "column E" when the
# column has no header text. Greedy, so a header that itself ends in "(column …)" stays whole.
_NAMED_COLUMN = re.compile(r"(?P<name>.*) \(column (?P<letter>[A-Z]+)\)", re.DOTALL)
_BARE_COLUMN = re.compile(r"column [A-Z]+")
# Between the columns of one entry: those tried in turn (campaign_when_empty), or those set
# aside ("ignored (as asked)").
_COLUMN_SEPARATOR = re.compile(f"({re.escape(STAND_IN_SEPARATOR)}|, )")


def stored_mapping(meta: dict[str, Any]) -> dict[str, str]:
    """Role → column name, as staging stored it in the job's meta
    (:meth:`~app.core.sheet_mapping.ColumnMapping.describe`), in the roles' fixed order."""
    stored = meta.get("mapping")
    if not isinstance(stored, dict):
        return {}
    order = {role.value: float(i) for i, role in enumerate(Role)}
    # A column read when another's cell is empty ("campaign_when_empty") right after it.
    order |= {f"{role}_when_empty": i + 0.5 for role, i in order.items()}
    return {str(k): str(v) for k, v in sorted(stored.items(), key=lambda kv: order.get(kv[0], 99))}


def _columns_shown(described: str) -> str:
    """``'Campaign Name' (C)`` for ``Campaign Name (column C)``; several columns (those tried
    in turn, ``…, then …``, or those set aside, ``…, …``) each so. A header holding a comma
    stays whole: a piece is a column only once it ends as one does."""
    shown: list[str] = []
    pending = ""
    for piece in _COLUMN_SEPARATOR.split(described):
        pending += piece
        named = _NAMED_COLUMN.fullmatch(pending)
        if named:
            shown.append(f"{named['name']!r} ({named['letter']})")
        elif _BARE_COLUMN.fullmatch(pending) or _COLUMN_SEPARATOR.fullmatch(pending):
            shown.append(pending)
        else:
            continue
        pending = ""
    return "".join([*shown, pending])


def sheet_read(meta: dict[str, Any]) -> str | None:
    """The workbook sheet the job read, as the report's Summary names it; None for a text file,
    which has no sheets (the Summary's "(text file)"), or a job whose meta does not say."""
    shown = sheet_shown(meta)
    if not shown or (shown == TEXT_FILE_SHEET and meta.get("sheet") != TEXT_FILE_SHEET):
        return None
    return shown


def columns_read_line(meta: dict[str, Any]) -> str:
    """``columns read: phone = 'Phone' (B), reason = 'Notes' (E)``: which column was read as
    what, and the sheet of a workbook (:func:`sheet_read`; a text file has none to say).
    Empty for a job whose meta holds no mapping."""
    mapping = stored_mapping(meta)
    if not mapping:
        return ""
    parts = []
    for role, column in mapping.items():
        parts.append(f"{role.replace('_', ' ')} = {_columns_shown(column)}")
    sheet = sheet_read(meta)
    where = f" from sheet {sheet!r}" if sheet is not None else ""
    return f"columns read{where}: " + ", ".join(parts)


def result_summary(store: JobStore, notes: Sequence[str] = ()) -> dict[str, Any]:
    """The job's counts plus ``damaged`` (the rows whose phone cell a spreadsheet had
    damaged, :data:`~app.core.job_report.DAMAGED`), ``mapping`` (role → column name, as the
    job's meta holds it), ``sheet`` (the workbook sheet read, None for a text file:
    :func:`sheet_read`) and
    ``warnings``: sentences about what the check could not do, where the report went if
    not where it was asked for, and this run's ``notes`` (:func:`note_now`). ``report`` is
    None when no report file exists (a path that does not exist is never printed)."""
    meta = store.meta()
    # Said on stderr before the run too (_announcer), but kept once here: the result is the
    # record a user keeps.
    warnings = staging_warnings(meta)
    summary = job_summary(store)
    removal = meta.get("kind") == "removal"
    if removal:
        # Stored by the report (as late_requests is); counted when no report has stored it.
        as_written = as_written_count(store)
        shown: dict[str, Any] = {}
        for key, value in summary.items():
            shown[key] = value
            if key == "valid":  # beside the count it is part of
                shown[VALID_AS_WRITTEN] = as_written
        summary = shown
        # Leads the service re-statused although the number stays listed (black-box B9 #1).
        summary[LEADS_STILL_LISTED] = still_listed_count(store)
        # The --json contract names these for imports and removals alike: a removal's are 0.
        summary = {
            **summary,
            "inserted": 0,
            "already_present": 0,
            "already_present_maybe_inserted": 0,
        }
    report = Path(summary["report"])
    moved = meta.get("report_moved")
    if not report.is_file():
        summary["report"] = None
        why = f": {meta['report_error']}" if meta.get("report_error") else ""
        warnings.append(f"No report was written{why}.")
    elif isinstance(moved, dict):
        warnings.append(
            f"The report could not be written to {moved.get('from')} ({moved.get('reason')}); "
            f"it was written to the jobs folder instead: {report}."
        )
    if summary["rows"] == 0:
        name = Path(str(meta.get("file", ""))).name
        header = meta.get("header_row")
        below = f" below its header (row {header})" if header else ""
        verb = "remove" if removal else "import"
        warnings.append(f"{name} has no data rows{below}: nothing to {verb}.")
    warnings += notes
    # None for a job file made before the count was kept (or by the import wizard).
    damaged = meta.get(DAMAGED) if isinstance(meta.get(DAMAGED), int) else None
    mapping = stored_mapping(meta)
    return {
        **summary,
        DAMAGED: damaged,
        "mapping": mapping,
        "sheet": sheet_read(meta),
        "warnings": warnings,
    }


def print_result(
    store: JobStore, args: argparse.Namespace, headline: str, notes: Sequence[str] = ()
) -> None:
    """The result on stdout: one JSON object with ``--json`` (this run's ``notes`` among its
    warnings), else the headline, the columns read, the counts and the job's notes (this
    run's were said on stderr as they were found)."""
    summary = result_summary(store, notes if args.json else ())
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
        if k in summary
    ]
    if "removed" in summary:
        # A removal inserts nothing and has no 10-business-day limit: not printed.
        keys = [k for k in keys if k not in ("inserted", "already_present", "late_requests")]
    print(terminal_text(headline))
    # Which column was read as what, before the counts that rest on it.
    if columns := columns_read_line(store.meta()):
        print(f"  {columns}")
    print("  " + ", ".join(_count_text(k, summary) for k in keys))
    if summary[DAMAGED]:
        # Each row's Damage note says what was read from its cell, or why it was refused; the
        # count says there are such rows to look at (black-box P2 #4).
        print(
            f"  phone cells damaged by a spreadsheet: {summary[DAMAGED]:,} (see the report's "
            "Damage note column)"
        )
    strong = _strong(store.meta())
    for warning in summary["warnings"]:
        print(f"  {_said_as(warning, strong)}: {terminal_text(warning)}")
    report = terminal_text(summary["report"] or "none (see the note above)")
    print(f"  report: {report}")
    print(f"  job: {summary['job']}")


# Why some already-present rows may be the job's own inserts, in the words of the report's
# Summary label (black-box P1 #3: the printed line said only "an answer was lost" of rows sent
# again after a 5xx, a refused connection or a resume after a kill).
MAYBE_INSERTED_WHY: Final = MAYBE_INSERTED_LABEL.rpartition(" (")[2].removesuffix(")")


def _count_text(key: str, summary: Mapping[str, Any]) -> str:
    label = key.replace("_", " ")
    if key == "pending" and summary["status"] == JobStatus.DRY_RUN:
        # A dry run's valid rows are not waiting, as nothing will send them; they are what a
        # real run would send (N2 #7): fewer than the valid rows when some are left unsent (a
        # removal's hidden rows).
        label = "would be sent"
    text = f"{label}: {summary[key]:,}"
    if key == "valid" and (as_written := summary.get(VALID_AS_WRITTEN)):
        # A removal's rows in no number range in use today are sent, to be looked up as
        # written: most end invalid, which "invalid: 0" hid before the run (black-box V4 #1).
        text += f" (of which {as_written:,} {AS_WRITTEN_SAID})"
    if key == "late_requests" and summary[key] and summary["status"] == JobStatus.DRY_RUN:
        text += f" ({DRY_RUN_LATE_NOTE})"
    if key == "late_requests" and (unsure := summary.get("late_requests_not_certain")):
        # Counted to an entry's day by the service's clock, whose zone is unknown (black-box B32).
        text += f" (of which {unsure:,} not certain: see the note on the service's clock)"
    maybe = summary.get("already_present_maybe_inserted") or 0
    if key == "already_present" and maybe:
        # Not all of them were on the list before the job (see job_report.maybe_inserted).
        text += f" (of which {maybe:,} may have been inserted by this job: {MAYBE_INSERTED_WHY})"
    return text


# Options that shape a new job; a resumed job keeps its own (dest, how it is written).
# --concurrency, --rate-limit, --json and the connection options apply to a resume too.
_NEW_JOB_OPTIONS = (
    ("file", "A file"),
    ("scope", "--scope"),
    ("into", "--into"),
    ("sheet", "--sheet"),
    ("phone_column", "--phone-column"),
    ("ignore_column", "--ignore-column"),
    ("phone_code", "--phone-code"),
    ("reason", "--reason"),
    ("purpose", "--purpose"),
    ("lead_status", "--lead-status"),
    ("include_hidden", "--include-hidden"),
    ("per_row_scope", "--per-row-scope"),
    ("report", "--report"),
    ("overwrite", "--overwrite"),
    ("dry_run", "--dry-run"),
    ("name", "--name"),
    ("note", "--note"),
)


# Options whose default is "": given empty, they are as if left out.
_EMPTY_BY_DEFAULT = frozenset({"name", "note", "reason"})


def _option_given(args: argparse.Namespace, dest: str) -> bool:
    value = getattr(args, dest, None)
    if value == "":
        # An empty --scope "" (an empty shell variable) is given too: not taken as left out.
        return dest not in _EMPTY_BY_DEFAULT
    return value is not None and value is not False and value != []


def refuse_new_job_options(args: argparse.Namespace) -> None:
    """Refuse, with ``--resume``, the options a resume would otherwise drop without a word."""
    given = [name for dest, name in _NEW_JOB_OPTIONS if _option_given(args, dest)]
    if not given:
        return
    names = joined(given)
    verb = "does" if len(given) == 1 else "do"
    raise CliError(
        f"{names} {verb} not apply to --resume: the job keeps the settings it was created with.",
        EXIT_USAGE,
    )


def _hold_job(store: JobStore, meta: Mapping[str, Any]) -> JobLock:
    """The job's run lock, for its run to be handed once the checks against the service are
    done: a job another process runs is refused at once, naming it (black-box B30 F2: with the
    service not answering, the refusal came after 91 s, and blamed the service)."""
    try:
        return reserve(
            store.path,
            str(meta.get("job_id", "")),
            ran_from=str(meta.get("ran_from") or ""),
            ran_at=str(meta.get("ran_at") or ""),
            ran_locks=str(meta.get("ran_locks") or ""),
        )
    except JobBusy as exc:
        raise CliError(str(exc)) from exc


def _refuse_another_service(meta: Mapping[str, Any], session: Session) -> None:
    """Refuse a resume given another service than its job's before the first request, which
    would carry this service's token to it (black-box bb12 F9)."""
    try:
        refuse_another_service(meta, session.connection.base_url)
    except JobOnAnotherService as exc:
        raise CliError(str(exc), EXIT_FAILED) from exc


def _resume_args(args: argparse.Namespace, store: JobStore) -> argparse.Namespace:
    """Use the job's own connection unless the command line names one."""
    if args.connection or args.base_url:
        return args
    meta = store.meta()
    resumed = argparse.Namespace(**vars(args))
    connection, base_url = str(meta.get("connection", "")), str(meta.get("base_url", ""))
    if not named_by_url(connection, base_url):
        resumed.connection = connection
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
    validate: Callable[[Session, JobSettings, str], None] | None = None,
    check_args: Callable[[argparse.Namespace], None] | None = None,
) -> int:
    """The shared body of ``import`` and ``remove``. ``check_args`` refuses (raises
    :class:`CliError`) the command's own bad arguments for a new job, before anything is read
    or sent; ``validate`` checks the job's settings against the service (its third argument
    leads a refusal's sentence: "Removal of a.csv not started")."""
    paths = AppPaths.default()
    store: JobStore | None = None
    session: Session | None = None
    held: JobLock | None = None  # a --resume's run lock, taken before the service is asked
    new_pace: dict[str, int] = {}  # a --resume's newly given pace, stored once it runs
    kind = "import" if command == "import" else "removal"
    notes: list[str] = []  # this run's notes, said on stderr when found (note_now)
    sending = False  # whether the job's run has begun (signals then pause it)
    no_room = False  # whether a full disk stopped the job's run
    try:
        if args.report is not None:
            refuse_empty_options(args, (_REPORT_OPTION,))
            args.report = Path(args.report)
        if args.resume:
            refuse_new_job_options(args)
            try:
                located = JobStore.locate(paths.jobs_dir, args.resume)
                store = JobStore(located)
                store.meta()
            except FileNotFoundError as exc:
                raise _no_job(args.resume) from exc
            except sqlite3.DatabaseError as exc:
                raise CliError(
                    f"{located} is not a DNC Desk job file, or it is damaged ({exc}); nothing "
                    "was sent.",
                    EXIT_USAGE,
                ) from exc
            meta = store.meta()
            if meta.get("kind") != kind:
                raise _other_kind(args.resume, kind, meta)
            if staging_state(meta):
                # Its rows were never all read (B14 F1): said before a connection is opened,
                # so a service that cannot be reached is not what the person reads.
                raise CliError(restart_sentence(meta), EXIT_FAILED)
            if meta.get("status") in ENDED:
                ensure_report(store)
                ended = already_ended_sentence(meta)
                # The headline in text; under --json a warning, as the counts are the old ones,
                # and a key a script can test (B25-8: only the warning said the job had ended).
                if args.json:
                    emit_json({**result_summary(store, [ended]), "already_ended": True})
                else:
                    print_result(store, args, ended)
                return EXIT_OK
            held = _hold_job(store, meta)
            new_pace = job_pace(args, store)
            session = open_session(
                _resume_args(args, store), paths, requests_per_minute=args.rate_limit
            )
            job_id = meta.get("job_id", args.resume)
            _refuse_another_service(meta, session)
            begin_checks(session.api)  # until the run starts: said when silent, given up
            preflight(session.api, session.connection, None, f"Job {job_id} not resumed")
            if change := source_change(meta):
                # The rows were read into the job when it was made: those are what is sent.
                note_now(
                    notes,
                    f"{meta.get('file')} {change}; job {job_id} sends the rows it read from it "
                    "when it was made, not the file as it is now.",
                )
        else:
            if args.file is None:
                raise CliError(f"Give the file to {command}, or --resume JOB.", EXIT_USAGE)
            if str(args.file) == "-" and not args.file.exists():
                # It said ".../-  does not exist." (black-box R5 #12): a job's rows are read
                # again for its report and kept for a resume, which a pipe cannot give.
                raise CliError(
                    f"Standard input is not read: save the rows to a file and give its name "
                    f"to {command} (a .csv, .txt or spreadsheet).",
                    EXIT_USAGE,
                )
            refuse_blank_options(args)
            try:
                given_scope = parse_scope(
                    args.scope, getattr(args, "purpose", None) or "", removal=command == "remove"
                )
            except PurposeMissing as missing:
                if column := purpose_column_sentence(args.file, args.sheet):
                    raise CliError(f"{missing} {column}", missing.status) from None
                raise
            connected = bool(args.connection or args.base_url)
            if isinstance(given_scope, CampaignByName) and args.dry_run and not connected:
                raise CliError(
                    f"The scope {given_scope.given!r} given with --scope names a campaign by "
                    "its name, and a dry run without --connection or --base-url has no "
                    "campaign list to find it in: give the campaign's id (campaign:ID), or "
                    "the connection.",
                    EXIT_USAGE,
                )
            args.phone_code = parse_phone_code(args.phone_code or "1")
            if check_args is not None:
                check_args(args)  # before the file is read (--sheet looks at its kind)
            if too_long := path_too_long(args.file):
                raise CliError(too_long)
            if args.file.is_dir():
                raise CliError(
                    f"{path_text(args.file.name)} is a folder, not a file: give the path of the "
                    f"spreadsheet to {command}."
                )
            if args.sheet and args.file.is_file() and sniff_kind(args.file).container == "text":
                raise CliError(
                    f"--sheet {args.sheet} does not apply to {path_text(args.file.name)}: "
                    "a text file has one table.",
                    EXIT_USAGE,
                )
            # A campaign named by its name has its id once the service's list is fetched.
            scope = given_scope if isinstance(given_scope, Scope) else Scope.global_()
            job = settings(args, scope)
            if args.report is not None:
                # Checked after the other arguments: it creates the report's missing folders.
                args.report = check_report_path(
                    args.report,
                    source=args.file,
                    overwrite=args.overwrite,
                    jobs_dir=paths.jobs_dir,
                )
                job = dataclasses.replace(job, report=args.report)
            # What is at the path now may be replaced (--overwrite); a file another job
            # writes there later is not (job_exec.report_destination).
            claimed = file_stamp(args.report) if args.report is not None else None
            job_pace(args, None)
            what = "Dry run" if args.dry_run else kind.capitalize()
            action = f"{what} of {path_text(args.file.name)} not started"
            # Without a connection (an offline dry run) campaign ids cannot be checked: the
            # staging counts them and the result says so.
            lookup = CampaignDirectory.unchecked()
            connection: Connection | None = None
            if not args.dry_run or connected:
                session = open_session(args, paths, requests_per_minute=args.rate_limit)
                # Until the run starts (staging reads the list's purposes too): a silent
                # service is said, and given up on (re-test R2 #1).
                begin_checks(session.api)
                connection = session.connection
                lookup, resolved = preflight(session.api, connection, given_scope, action)
                if resolved is not None and resolved != job.scope:
                    job = dataclasses.replace(job, scope=resolved)
                # Read once, when first compared: here for the options' purposes, else when
                # staging meets a row naming one (a job writing no purpose never reads them).
                purposes = read_list_purposes(session.api, job.target, connection, action)
                job = dataclasses.replace(job, list_purposes=purposes)
                if given_purposes := purpose_options(args, job):
                    check_purpose_spelling(purposes, given_purposes, connection)
                    if partly := purposes.partly_read_sentence("the purposes of the options"):
                        note_now(notes, partly)
                if validate is not None:
                    validate(session, job, action)
            else:
                for text, _ in purpose_options(args, job):
                    note_now(
                        notes,
                        f"The purpose {text!r} was not compared with the list's purposes, as "
                        "there was no connection to search it; a run with a connection refuses "
                        "it when the list has it only in another case, spacing or Unicode form.",
                    )
            # The file as it is read, so a resume can tell when it was changed since.
            fingerprint = source_fingerprint(args.file)
            job = dataclasses.replace(
                job,
                extra={**job.extra, **fingerprint},
                pasted_options=pasted_options(connection, args.dry_run),
            )
            working_shown = not args.json and sys.stderr.isatty()
            shown_name = terminal_text(path_text(job.file.name))
            with working(f"Reading and checking {shown_name}…", sys.stderr, shown=working_shown):
                store, _ = stage_fn(
                    job, paths.jobs_dir, connection=connection, campaign_lookup=lookup
                )
            if not args.dry_run and (other := claim_beside(store, paths.jobs_dir)):
                refusal = same_file_sentence(other, action)
                discard_unrun(store)
                store = None
                raise CliError(refusal)
            if args.report is not None:
                claim_report(store, claimed)
            for sentence in other_jobs_note(
                paths.jobs_dir,
                store,
                kind,
                args.file,
                str(fingerprint.get(SOURCE_SHA256, "")),
                dry_run=args.dry_run,
            ):
                note_now(notes, sentence)
            if args.dry_run:
                try:
                    with working("Writing the report…", sys.stderr, shown=working_shown):
                        finish_dry_run(store)
                except OSError as exc:
                    report_fallback(store, exc)
                print_result(store, args, f"Dry run of {shown_name}: nothing was sent.", notes)
                return EXIT_OK
            # The job's pace, for --resume and its hint.
            store.set_meta({"concurrency": args.concurrency, "rate_limit": args.rate_limit})
        assert session is not None and store is not None
        end_checks(session.api)  # the run says the service's silence itself
        sending = True
        control = JobControl()
        rows_shown = not args.json and sys.stderr.isatty()
        show = progress_printer(rows_shown)
        aborted = ""
        stopped = StopSignal()
        try:
            announce = _announcer(command, store, new_pace, resumed=bool(args.resume))
            with interrupts_pause(control) as stopped, on_start(announce):
                status = run_fn(
                    store, session, concurrency=args.concurrency, control=control, progress=show
                )
        except JobBusy as exc:
            # Another runner has the job: nothing was sent here, so no resume hint, and the
            # job's stored pace stays as that runner's.
            return fail(str(exc))
        except TokenRefused as exc:
            # Which token, as the refusal before a run says it (black-box L2 #6).
            aborted = f"{str(exc).rstrip().rstrip('.')} ({token_source(session.connection)})"
        except JobAborted as exc:
            aborted = str(exc) or "The job stopped before its end."
        except (sqlite3.Error, OSError) as exc:
            if disk_full(exc) and JobStatus(store.status) not in (*ENDED, JobStatus.PAUSED):
                # Mid-run: the job stays to be resumed, and --json gives its counts and the
                # command that resumes it, as for any other stop (black-box L4 #5's leftover).
                no_room = True
                full = full_where(exc)
                aborted = (
                    f"{full[0].upper()}{full[1:]}, so the {command} stopped; what was saved "
                    "before it is kept: free some space first."
                )
            elif isinstance(exc, OSError):
                # The rows were sent but the report could not be written where asked.
                status, aborted = _after_report_error(store, session, control, exc)
            else:
                raise
        if new_pace and not no_room:  # a full disk would refuse this write too
            store.set_meta(new_pace)  # this run's pace, for the next resume and its hint
        if rows_shown:
            print(file=sys.stderr)
        say_still_listed(store)
        if aborted:
            if not aborted.rstrip().endswith((".", "!", "?")):
                aborted = aborted.rstrip() + "."  # a service's own words may end bare
            sentence = f"{aborted} Resume with: {resume_hint(command, store)}"
            if args.json:
                result = result_summary(store, notes)
                if result["status"] == JobStatus.RUNNING.value:
                    # The file says running (a full disk refused the status's write), but this
                    # run has stopped: what `dnc-desk jobs` lists it as from now on.
                    result["status"] = "interrupted"
                emit_json(
                    {
                        **result,
                        "resume": resume_hint(command, store),
                        "error": sentence,
                        "exit_status": EXIT_FAILED,
                    }
                )
            else:
                _print_paused(store, args)
            warn(sentence)
            return EXIT_FAILED
        if status is JobStatus.PAUSED:
            if args.json:
                emit_json({**result_summary(store, notes), "resume": resume_hint(command, store)})
            else:
                _print_paused(store, args)
            warn(f"Interrupted: job paused. Resume with: {resume_hint(command, store)}")
            return stopped.exit_status()
        meta = store.meta()
        if stopped.signum is not None:
            # The signal came once the last row was answered: "pausing the job" was said, so
            # is what it came to (black-box R5 #3).
            warn(
                f"The job had already sent its last row when interrupted: it has "
                f"{status.value}, and nothing is left to resume."
            )
        print_result(store, args, job_headline(meta, status.value), notes)
        return EXIT_OK
    except CliError as exc:
        return fail(str(exc), exc.status)
    except KeyboardInterrupt as exc:  # Ctrl+C, or SIGTERM (app.cli.main.Terminated)
        if sending:
            raise
        # Decided before it is printed: a second Ctrl+C meanwhile printed a second refusal
        # (a second JSON object), or replaced this one's sentence and status.
        outcome_decided()
        if not args.resume:
            return fail(_interrupted_before_run(command, store, args), interrupt_status(exc))
        if store is not None:
            sentence, fields = resume_interrupted(command, store, new_pace)
        else:
            sentence, fields = resume_interrupted_named(command, args.resume)
        return refuse_interrupted(sentence, fields, interrupt_status(exc), json_output=args.json)
    except MappingError as exc:
        return fail(exc.cli_text, EXIT_USAGE if _names_no_column(exc) else EXIT_FAILED)
    except SheetError as exc:
        return fail(str(exc), EXIT_USAGE if _names_no_sheet(exc, args) else EXIT_FAILED)
    except BrokenPipeError:
        # Whoever read the output went away (`… --json | head`): no file is at fault, and
        # cli.main ends quietly with 141, as a shell's SIGPIPE does (re-test R2 #4).
        raise
    except OSError as exc:
        return fail(f"A file could not be written or read: {exc}.")
    finally:
        if held is not None:
            held.release()  # the run was refused before it began (or let go of it already)
        try:
            if store is not None:
                store.close()
        except sqlite3.Error as exc:
            # The answers not yet saved cannot be saved: their rows are still "sending" in the
            # job file, which the resume the sentence gave settles.
            if not (no_room and disk_full(exc)):
                raise
        finally:
            if session is not None:
                session.close()
                session.journal.close()


def _announcer(
    command: str, store: JobStore, new_pace: dict[str, int], *, resumed: bool
) -> Callable[[], None]:
    """The line saying the job runs and how to resume it, then staging's warnings as
    ``note:`` lines, said once the run holds the job and before any row is sent (not when it
    has no row to send: its result follows at once), and flushed: a run killed
    (SIGKILL, a crash, a power cut) leaves the id and the way on even in a file its output
    went to. A resume's command has the pace it runs at, stored in the job here, as the
    run holds it: ``dnc-desk jobs`` gives the same command after a SIGKILL (black-box Q2 #8:
    it left out ``--concurrency 32``, stored only once the run ended)."""

    def announce() -> None:
        if new_pace:
            # A write that fails (a full disk) is tried again when the run ends.
            with contextlib.suppress(sqlite3.Error):
                store.set_meta(new_pace)
        if next(store.unfinished(chunk=1), None) is None:
            # Nothing to send (every row invalid, or a duplicate): the job ends without
            # sending, so a resume it offered would be none (black-box B4 #C).
            return
        meta = store.meta()
        hint = resume_command(command, {**meta, **new_pace}, store.path)
        how = "resumed" if resumed else "started"
        print(
            SECRETS.redact(
                f"Job {meta.get('job_id')} {how}: if it stops before its end, resume it "
                f"with: {hint}"
            ),
            file=sys.stderr,
            flush=True,
        )
        # Then, before the first row, what staging warned of (black-box F3, session 19: a
        # real run said "the rows spell one purpose 3 ways" or "the Country column was not
        # read" only in its result, once all the rows had gone). After the id line, not
        # before it: that line is what a SIGKILL must leave, and the warnings, last above the
        # progress, are what a Ctrl+C decides on, with the way to resume just above. A resume
        # says them again in full rather than "the job's N warnings are in its report": whoever
        # resumes may not have seen the first run (a nohup log gone, a colleague resuming
        # from `dnc-desk jobs`, days later), the rows still to send carry the same fault, and
        # this is the last moment to stop before they go.
        strong = _strong(meta)
        for sentence in staging_warnings(meta):
            if _said_as(sentence, strong) == "warning":
                text = SECRETS.redact(f"warning: {terminal_text(sentence)}")
                print(text, file=sys.stderr, flush=True)
            else:
                say_note(sentence)

    return announce


def _interrupted_before_run(command: str, store: JobStore | None, args: argparse.Namespace) -> str:
    """The sentence for a signal before a new job's run began: nothing was sent (a resume's
    is :func:`resume_interrupted`)."""
    if store is None or args.dry_run:
        return NOTHING_SENT
    return (
        f"Interrupted before job {store.meta().get('job_id')} sent any row: resume it with: "
        f"{resume_hint(command, store)}"
    )


# A resume stopped before its run began sends nothing, but its job may have sent thousands of
# rows before: "before the job started: nothing was sent" and "before job … sent any row"
# (black-box B14 F3) read as if nothing of the job had ever gone.
RESUME_NOT_SENT = "Interrupted before this resume sent anything"


def _rows(n: int, what: str) -> str:
    return f"{n:,} row{'' if n == 1 else 's'} {what}"


def resume_interrupted(
    command: str, store: JobStore, pace: Mapping[str, int] | None = None
) -> tuple[str, dict[str, Any]]:
    """The sentence for a ``--resume`` stopped before its run began, and the ``--json``
    object's fields beside ``error`` and ``exit_status`` (the job's counts as they are, and
    ``resume``): the job is as this run found it, with what it had done, what is left and the
    command that resumes it (with the pace this run was given)."""
    meta = store.meta()
    job = meta.get("job_id") or store.path.name
    status = str(meta.get("status") or "")
    if status in {s.value for s in ENDED}:
        # Taken as the run read its status: its own sentence says it ended, not this one.
        return (
            f"{RESUME_NOT_SENT}: job {job} has already ended ({status.replace('_', ' ')}), "
            "and nothing of it is left to resume.",
            result_summary(store),
        )
    if staging_state(meta):
        # Never resumable (its rows were not all read): its own sentence says what to do
        # (review RV2 #1: "is still not started …; resume it with: …").
        return f"{RESUME_NOT_SENT}. {restart_sentence(meta)}", result_summary(store)
    kind = str(meta.get("kind") or "")
    own = command_of(kind) if kind in ("import", "removal") else command
    counts = store.counts()
    holder = run_by(JobInfo(store.path, meta, counts))
    if holder is not None and (holder.pid, holder.host) != (os.getpid(), socket.gethostname()):
        # Another process runs it now: resuming it too would be refused (review RV2 #1).
        return (
            f"{RESUME_NOT_SENT}: job {job} is being run by another process "
            f"({holder.process()}); wait for it to finish or stop it first.",
            result_summary(store),
        )
    if kind == "removal":
        done = [_rows(counts["removed"], "removed")]
        if counts["not_found"]:
            done.append(f"{counts['not_found']:,} not found")
    else:
        done = [_rows(counts["inserted"], "inserted")]
        if counts["already_present"]:
            done.append(f"{counts['already_present']:,} already present")
    if counts["failed"]:
        done.append(f"{counts['failed']:,} failed")
    done.append(f"{counts['pending']:,} left")
    # As `dnc-desk jobs` lists it: a file left saying "running" by a run killed is interrupted.
    state = {
        JobStatus.RUNNING.value: "interrupted",
        JobStatus.READY.value: "not started",
    }.get(status, status)
    hint = resume_command(own, {**meta, **(pace or {})}, store.path)
    sentence = (
        f"{RESUME_NOT_SENT}: job {job} is still {state} ({', '.join(done)}); resume it with: {hint}"
    )
    fields = result_summary(store)
    if fields["status"] == JobStatus.RUNNING.value:
        fields["status"] = "interrupted"
    return sentence, {**fields, "resume": hint}


def refuse_interrupted(
    sentence: str, fields: Mapping[str, Any], status: int, *, json_output: bool
) -> int:
    """A resume's refusal for a stop before its run: ``sentence`` on stderr and, under
    ``--json``, one object with the job's ``fields`` (its counts, ``resume``) beside ``error``
    and ``exit_status``, as a job stopped mid-run gives them. Returns ``status``."""
    warn(sentence)
    if json_output:
        emit_json({**fields, "error": sentence, "exit_status": status})
    return status


def resume_interrupted_named(command: str, job: str) -> tuple[str, dict[str, Any]]:
    """:func:`resume_interrupted` for the job ``--resume`` named (its id or file), stopped
    before it was opened; a job that cannot be read is named as given."""
    try:
        with JobStore(JobStore.locate(AppPaths.default().jobs_dir, job)) as store:
            return resume_interrupted(command, store)
    except (OSError, sqlite3.Error, KeyError, ValueError):
        return f"{RESUME_NOT_SENT}: job {job} is as it was.", {}


def already_ended_sentence(meta: Mapping[str, Any]) -> str:
    """What a ``--resume`` of an ended job says: when it ended, and that this run sent
    nothing (B25-8: "has already ended." left it open whether the resume had sent rows)."""
    job = meta.get("job_id")
    if meta.get("status") == JobStatus.DRY_RUN.value:
        return f"Job {job} is a dry run: it sends nothing, and nothing was sent."
    when = f" at {meta['finished']} UTC" if meta.get("finished") else ""
    verb = "had already finished" if meta.get("status") == "finished" else "was already cancelled"
    return f"Job {job} {verb}{when}; nothing was sent."


def _no_job(resume: str) -> CliError:
    """The refusal of a ``--resume`` that finds no job: a path given that is not there (or is
    a folder) is a missing input file (1, as the docs' exit statuses say); an id that names
    no job in the jobs folder stays a bad argument (2)."""
    given = Path(resume)
    if not _names_a_path(resume):
        # Where the ids are is the next step (black-box bb2 F4).
        return CliError(
            f"There is no job {resume!r} to resume; dnc-desk jobs lists the jobs that can be "
            "resumed, each with the command that resumes it (--all lists every job).",
            EXIT_USAGE,
        )
    if given.is_dir():
        return CliError(
            f"{path_text(given)} is a folder, not a job file; nothing was sent.", EXIT_FAILED
        )
    if given.exists():
        return CliError(
            f"{path_text(given)} is not a job file (its name does not end in {JOB_SUFFIX}); "
            "nothing was sent.",
            EXIT_FAILED,
        )
    return CliError(f"There is no job file {path_text(given)}; nothing was sent.", EXIT_FAILED)


def _names_a_path(resume: str) -> bool:
    """Whether ``--resume`` was given a file's path rather than a job's id (ids hold no
    separator and no suffix)."""
    separators = {os.sep} | ({os.altsep} if os.altsep else set())
    return any(sep in resume for sep in separators) or resume.endswith(JOB_SUFFIX)


def _other_kind(given: str, kind: str, meta: dict[str, Any]) -> CliError:
    """``import --resume`` of a removal (or the reverse): the command that resumes it."""
    theirs = str(meta.get("kind") or "")
    job = str(meta.get("job_id") or given)
    wanted = f"a{'n' if kind[0] == 'i' else ''} {kind}"
    if not theirs:
        # Black-box L2 #4: a copy of a running job's file, whose latest data is still in the
        # "-wal" file beside the original, was called "not a removal".
        return CliError(
            f"{given} does not say what kind of job it is, so it is not resumed: it may be a "
            "copy of a job file taken while its job ran (the job's latest data is then in the "
            'original\'s "-wal" file beside it) or a damaged file; resume the original job '
            "file, by its id, once it has stopped. Nothing was sent.",
            EXIT_USAGE,
        )
    if theirs not in ("import", "removal"):
        return CliError(f"Job {given} is not {wanted}.", EXIT_USAGE)
    article = "an" if theirs == "import" else "a"
    # Re-test M2 #6: the command given for an ended job only said it had ended.
    status = str(meta.get("status") or "")
    if status == JobStatus.DRY_RUN.value:
        return CliError(
            f"Job {job} is a dry run of {article} {theirs}, not {wanted}; a dry run sends "
            f"nothing and cannot be resumed: run dnc-desk {command_of(theirs)} on the file "
            "without --dry-run.",
            EXIT_USAGE,
        )
    if status in {s.value for s in ENDED}:
        return CliError(
            f"Job {job} is {article} {theirs}, not {wanted}, and it has already ended "
            f"({status}): nothing of it is left to resume.",
            EXIT_USAGE,
        )
    # The job's own service, as every other resume command names it (black-box L2 #7: a
    # command copied from here failed for want of --base-url).
    if meta.get("base_url") or meta.get("connection"):
        command = resume_command(command_of(theirs), meta, Path(given))
    else:  # a dry run made with no connection has no service to name
        command = f"dnc-desk {command_of(theirs)} --resume {job}"
    return CliError(
        f"Job {job} is {article} {theirs}, not {wanted}: resume it with {command}.", EXIT_USAGE
    )


def _names_no_sheet(exc: SheetError, args: argparse.Namespace) -> bool:
    """Whether ``exc`` refuses ``--sheet`` for naming no sheet of the workbook (or two that
    differ only in case): a bad argument (exit 2), as ``--phone-column`` naming no column is.
    The reader's sentence is all that tells it from a file that cannot be read."""
    text = str(exc)
    return bool(args.sheet) and (
        " has no sheet named " in text or "which differ only in case; give the sheet name" in text
    )


def job_headline(meta: Mapping[str, Any], status: str) -> str:
    """``Import of a.csv: finished.``: the result's first line, the job's name leading it.
    A default name starts with a capital there, as every other line does, that of a job staged
    before it was stored with one ("import of a.csv") too (black-box B30 F11: a fresh run and a
    resume of one job said "Import of" and "import of"); a name given with --name is as
    written."""
    name = str(meta.get("name", ""))
    if name.startswith(f"{meta.get('kind')} of "):
        name = name[:1].upper() + name[1:]
    return f"{name}: {status}."


def _print_paused(store: JobStore, args: argparse.Namespace) -> None:
    """A paused job's counts on stdout, as a finished job's (``--json`` has them too), before
    the sentence on stderr that says how to resume it."""
    print_result(store, args, job_headline(store.meta(), "paused"))
    sys.stdout.flush()


def _names_no_column(exc: MappingError) -> bool:
    """Whether ``exc`` refuses ``--phone-column`` for naming no column of the sheet (or two):
    a bad argument (exit 2), unlike a file with no phone column. Staging raises it from the
    :class:`ColumnError` (its cause, or only its context once re-raised ``from None`` after
    the workbook's other sheets were tried)."""
    return (
        exc.bad_argument
        or isinstance(exc.__cause__, ColumnError)
        or (exc.__cause__ is None and isinstance(exc.__context__, ColumnError))
    )


def _after_report_error(
    store: JobStore, session: Session, control: JobControl, exc: OSError
) -> tuple[JobStatus, str]:
    """The job's status and abort sentence (``""`` if none) after ``exc`` escaped the run.

    Once the run loop has ended, the only file the run writes is the report: it goes to the
    jobs folder instead, and the journal gets the end event the failed write skipped.
    A job still marked running failed inside the loop: ``exc`` is raised again.
    """
    status = JobStatus(store.status)
    if status not in (*ENDED, JobStatus.PAUSED):
        raise exc
    report_fallback(store, exc)
    meta = store.meta()
    aborted = ""
    if status is JobStatus.PAUSED and not control.suspended.is_set():
        aborted = str(meta.get("stopped_because") or "The job stopped before its end.")
    session.journal.record_event(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation="job.pause" if status is JobStatus.PAUSED else "job.finish",
        target=f"{meta.get('kind', 'job')} {meta.get('file', '')}",
        note=str(meta.get("note", "")),
        job=str(meta.get("job_id", "")),
        details={
            "name": meta.get("name", ""),
            "status": store.status,
            "counts": store.counts(),
            "report": str(report_path(store)),
            "report_error": f"{exc.filename or ''}: {_reason(exc)}",
        },
    )
    return status, aborted


def _purpose_given(args: argparse.Namespace) -> str:
    """The option that gave the job's purpose, as typed: ``--scope purpose:TEXT``, or
    ``--purpose TEXT`` with the bare ``--scope purpose``."""
    scope = visible_text(args.scope or "")
    if scope.casefold() == "purpose" and getattr(args, "purpose", None):
        return f"--purpose {args.purpose}"
    return f"--scope {scope}"


def _import_settings(args: argparse.Namespace, scope: Scope) -> JobSettings:
    if not args.into:
        raise CliError("--into is required: dnc or sms-opt-out.", EXIT_USAGE)
    # As cells are: invisible characters and surrounding spaces are not part of the text.
    args.reason = check_text_length("--reason", visible_text(args.reason))
    args.purpose = check_text_length("--purpose", visible_text(args.purpose or ""))
    return JobSettings(
        file=args.file,
        scope=scope,
        target=Target(args.into),
        sheet=args.sheet,
        phone_column=args.phone_column,
        ignore_columns=tuple(args.ignore_column or ()),
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
