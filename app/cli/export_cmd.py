"""``dnc-desk export dnc|sms-opt-out --out PATH.xlsx|PATH.csv [filters]``: a whole search out.

Every page is read; a search bigger than the service's paging limit is split so every row
comes out, and rows that still cannot be reached are counted on stderr, in ``--json`` and in
the xlsx About sheet. A list written to during the export (a removal job running) is
reported as changed (``list_changed`` in ``--json``, a warning on stdout) and never blamed on
the paging limit. Exit 0 when the export was written (even from a changing list), 1 when it
could not be, 2 for bad arguments, and 128 + the signal's number when a signal cancelled it:
130 for SIGINT (Ctrl+C), 143 for SIGTERM, 129 for SIGHUP (the partial file is removed); SIGHUP
or SIGINT ignored as the command started (``nohup … &``) stays ignored. Every
such stop, from the arguments' check to the last page, says the same sentence (one JSON object
under ``--json``, a second signal adding none); a signal once the file is written leaves it, and
the result is printed (exit 0).

An export that stops on an error (the service failing, a full disk) removes its partial file
too, and its sentence says the export stopped and that no file was written (or, with
``--overwrite``, that the file already there was left as it was). An export writes nothing to
the service, so it does not open the change journal: a damaged journal does not stop it.

Filters the service would refuse are refused first, as bad arguments (black-box pass N1 #6): a
campaign the campaign list lacks, an ``--id`` that is not a number, a purpose longer than the
service takes; an option given empty or blank (an empty shell variable), which would export the
whole list as if it were left out (R4 #2). ``--scope`` is read as snapshot and health read it
(:func:`parse_scope`, :func:`resolve_scope`), and ``filters`` in ``--json`` and the About
sheet's Filters say a campaign given by name as typed, its id beside it (W5 #3). A purpose
filter matching nothing, where the list has the purpose spelled otherwise (case, spaces,
Unicode form), is refused naming the list's spelling, as import and remove refuse it (N1 #4):
an empty file would say no entry has it. A slow export says so on stderr (N1 #8): no answer
from the service for QUIET_AFTER seconds (or, while its connections are refused, that no
connection to it could be made, as a job says: S19 W1), and its rows so far every SAY_EVERY
seconds when no progress line is shown.

A ``--phone-number`` refused only because it is in no number range in use today (UK 7911600927
under 44) is searched as written under its code, as a removal looks it up
(:func:`app.core.evidence.searched_as_written`): the list may hold it, and ``--id`` alone
reached it (black-box B5 #2). stderr says it is not a valid number today and how it was
searched, and ``filters`` (``--json``, the About sheet) say it beside the number. Other invalid
numbers (letters, too short) are still refused (exit 2).

A ``--phone-code`` of 1 to 4 digits that is no country's calling code (999) is searched as
written when the list holds entries under it, and stderr says so; refused (exit 2) when it holds
none (black-box B27 F2: the warning on rows an export could not reach advised ``--phone-code``
for them, and export refused their code). A campaign the campaign list lacks stays refused: the
service refuses a search by its id too, and the warning no longer advises ``--scope`` for it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import errno
import signal
import sys
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType
from typing import Any

from app.api.client import ApiClient, DncQuery
from app.api.errors import ApiError, ValidationError
from app.api.models import Page, ReasonFilter
from app.api.paging import Cancelled, next_offset
from app.api.scope import Scope, ScopeError
from app.cli.connection_args import (
    CONNECTION_OPTIONS,
    EXIT_OK,
    EXIT_USAGE,
    SCOPE_HELP,
    CliError,
    EmptyOption,
    StopSignal,
    add_connection_arguments,
    describe_api_error,
    emit_json,
    fail,
    interrupt_status,
    open_client,
    refuse_empty_options,
    service_checks,
)
from app.cli.main import (
    interrupted_sentence,
    outcome_decided,
    stop_signals_taken,
    terminal_gone,
)
from app.cli.output_paths import check_export_path
from app.core import phones
from app.core.connections import Connection
from app.core.entry_validation import MAX_TEXT
from app.core.export_job import (
    DayFilterRefused,
    ExportJob,
    ExportProgress,
    ExportResult,
    ListKind,
    Silence,
    change_warning,
    describe_query,
    replaced_warning,
    unreachable_warning,
)
from app.core.paths import AppPaths
from app.core.sheet_scope import visible_text

_REASONS = {
    "any": ReasonFilter.ANY,
    "blank": ReasonFilter.BLANK,
    "not-blank": ReasonFilter.NOT_BLANK,
}
# An export the service has answered nothing for this long says so on stderr, and again every
# SAY_EVERY seconds while it lasts, as import and remove do; with no progress line on a
# terminal, the rows so far are said every SAY_EVERY seconds too.
QUIET_AFTER = 10.0
SAY_EVERY = 30.0

_OUT_OPTION: EmptyOption = ("out", "--out", "a path", "the .xlsx or .csv file to write", "")

_EXPORT_OPTIONS: tuple[EmptyOption, ...] = (
    ("scope", "--scope", "a scope", SCOPE_HELP, "to export every scope"),
    (
        "phone_number",
        "--phone-number",
        "a number",
        "the number to export the entries of",
        "to export every number",
    ),
    (
        "phone_code",
        "--phone-code",
        "a code",
        "a country calling code (for example 1 or 44)",
        "to export every country calling code",
    ),
    ("insert_date", "--insert-date", "a date", "the day as YYYY-MM-DD", "to export every day"),
    ("purpose", "--purpose", "a purpose", "the purpose text", "to export every purpose"),
    ("id", "--id", "an id", "an entry's id (the id column of an export)", "to export every entry"),
    *CONNECTION_OPTIONS,
)


def parse_scope(text: str | None, option: str = "--scope") -> Scope | CampaignNamed | None:
    """``--scope`` as export, snapshot and health read it: None when left out, a
    :class:`CampaignNamed` for ``campaign:NAME`` (resolved by :func:`resolve_scope`), the bare
    word ``purpose`` for every purpose. Refused (exit 2) in one sentence naming every form."""
    if text is None:
        return None
    written = visible_text(text)
    named = _campaign_named(written)
    if named:
        return CampaignNamed(written, named)
    try:
        scope = Scope.purpose("") if written.lower() == "purpose" else Scope.parse(written)
    except ScopeError as exc:
        low = written.lower()
        if low.startswith(("campaign:", "purpose:")):
            raise CliError(f"{option} {written!r}: {exc}.", EXIT_USAGE) from exc
        raise CliError(
            f"{option} {written!r} is not a scope; use {SCOPE_HELP}.", EXIT_USAGE
        ) from exc
    _text_length(f"{option} purpose:TEXT", scope.purpose_text)
    return scope


def resolve_scope(
    api: ApiClient, connection: Connection, scope: Scope | CampaignNamed | None, action: str
) -> Scope | None:
    """The scope to read: a campaign named by its name resolved against the service's campaign
    list as import resolves it, a campaign id the list lacks refused (exit 2: black-box N1
    #6); other scopes as they are, with no request."""
    if scope is None or (isinstance(scope, Scope) and not scope.is_campaign):
        return scope
    # Imported only here: the job modules it brings cost every other read a quarter second.
    from app.cli.import_cmd import CampaignByName, preflight

    wanted = CampaignByName(scope.given, scope.name) if isinstance(scope, CampaignNamed) else scope
    with service_checks(api):  # said when silent, and given up (re-test R2 #1)
        _, found = preflight(api, connection, wanted, action)
    return found


def scope_as_typed(scope: Scope | None, given: Scope | CampaignNamed | None) -> str:
    """A scope as the user typed it, with a campaign named by its name's id beside it
    (black-box R4 #9: a campaign given by name was said as campaign:1001 alone)."""
    if isinstance(given, CampaignNamed) and scope is not None:
        return f"{given.given} (id {scope.campaign_id})"
    if scope is not None and scope.is_purpose and not scope.purpose_text:
        return "purpose (every purpose)"
    return str(scope) if scope is not None else "all"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "list",
        choices=[k.value for k in ListKind],
        metavar="dnc|sms-opt-out",
        help="the list to export",
    )
    # Text, not a Path: Path("") is ".", which was refused as a folder (black-box B4 #A).
    parser.add_argument("--out", required=True, metavar="PATH", help=".xlsx or .csv")
    parser.add_argument("--overwrite", action="store_true", help="replace a file already at --out")
    filters = parser.add_argument_group("filters")
    # None when not given: each given empty is refused (refuse_empty_options), as import's.
    filters.add_argument("--scope", help=SCOPE_HELP)
    filters.add_argument(
        "--phone-number",
        metavar="NUMBER",
        help="one number, as written anywhere (+code or 00code, else read as --phone-code's)",
    )
    filters.add_argument(
        "--phone-code",
        metavar="CODE",
        help="country calling code (for example 1 or 44): entries of that code only",
    )
    filters.add_argument("--insert-date", metavar="YYYY-MM-DD", help="entries of that day")
    filters.add_argument(
        "--reason",
        choices=sorted(_REASONS),
        default="any",
        help="entries with a reason (not-blank), without one (blank), or either (any)",
    )
    filters.add_argument("--purpose", metavar="TEXT", help="entries of that purpose text")
    filters.add_argument("--id", metavar="ID", help="one entry by its id (the id column)")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    add_connection_arguments(parser)
    # Said as the commands with findings say theirs (black-box s31: export said none).
    parser.epilog = (
        "Exit status: 0 the file was written (also when the list changed during the export or "
        "some entries could not be reached: a warning says so); 1 it could not be written (the "
        "service failing, a refused token, a full disk: no partial file is left); 2 a bad "
        "argument (a filter refused before anything was read); 130, 143 or 129 Ctrl+C, "
        "SIGTERM or SIGHUP cancelled it (no file is left)."
    )


def _phone_filter(number: str, code: str) -> tuple[str, str, str]:
    """The number and code to search for, from a number written any way a person writes it,
    and, for a number in no range in use today searched as written, what stderr says of it
    (``""`` for a valid number).

    As in the list view's filter: without ``--phone-code`` a number must carry ``+code``
    (or ``00code``), else it is read as US/Canada.
    """
    number, code = number.strip(), code.strip()
    if code:
        found = phones.normalize_code(code)
        if found is None:
            if not number and (digits := unlisted_code(code)):
                # Searched as written: the list may hold entries under it (_check_code).
                return "", digits, ""
            raise CliError(_not_a_code(code), EXIT_USAGE)
        code = found
    if not number:
        return "", code, ""
    # Imported only here: the evidence module brings openpyxl, which an export without a
    # number filter (to CSV) does not need.
    from app.core.evidence import search_number

    searched = search_number(number, code)
    if searched.refused:
        raise CliError(f"--phone-number {number!r}: {searched.refused}.", EXIT_USAGE)
    return searched.national, searched.phone_code, searched.as_written


def _not_a_code(code: str) -> str:
    return f"--phone-code {code!r} is not a country calling code (for example 1 or 44)."


def unlisted_code(code: str) -> str:
    """The digits of a ``--phone-code`` that is no country's calling code but is one the
    service takes (1 to 4 digits, a ``+`` before them allowed); "" for any other text."""
    digits = code.strip().removeprefix("+")
    return digits if digits.isascii() and digits.isdigit() and len(digits) <= 4 else ""


def _check_code(api: ApiClient, kind: ListKind, code: str, connection: Connection) -> str:
    """A ``--phone-code`` that is no country's is exported only when the list holds entries
    under it, and stderr's note says so; refused (exit 2) when it holds none, or the service
    refuses the code. Black-box B27 F2: the export's warning on rows it could not reach said
    ``--phone-code CODE`` exports them, and export refused ``--phone-code 999``, the code the
    list's entries held, so they could not be exported at all."""
    query = DncQuery(phone_code=code)
    try:
        with service_checks(api):
            page: Page[Any] = (
                api.search_dnc(query, offset=0, limit=1)
                if kind is ListKind.DNC
                else api.search_sms(query, offset=0, limit=1)
            )
    except ValidationError as exc:
        raise CliError(
            f"{_not_a_code(code)} The service refused a search of it: "
            f"{describe_api_error(exc, connection, 'Export not started')}",
            EXIT_USAGE,
        ) from exc
    except ApiError as exc:  # the service failing: not a bad argument
        raise CliError(describe_api_error(exc, connection, "Export not started")) from exc
    held = page.total if page.total is not None else len(page.items)
    if not held:
        raise CliError(
            f"{_not_a_code(code)} The {kind.title} holds no entry under it either.", EXIT_USAGE
        )
    entries = "entry" if held == 1 else "entries"
    return (
        f"--phone-code {code!r} is not a country calling code, but the {kind.title} holds "
        f"{held:,} {entries} under it: they are exported as the list holds them."
    )


@dataclass(frozen=True)
class CampaignNamed:
    """``--scope campaign:NAME``: ``given`` as written, ``name`` the campaign's name."""

    given: str
    name: str


def _campaign_named(text: str) -> str:
    """The campaign name of ``--scope campaign:NAME``; empty for any other scope (an id is
    parsed as a scope)."""
    head, sep, rest = text.partition(":")
    named = visible_text(rest)
    if head.strip().lower() != "campaign" or not sep or named.isdigit():
        return ""
    return named


def _text_length(option: str, text: str) -> None:
    """A purpose filter the service can compare (it refuses one over MAX_TEXT)."""
    if len(text) > MAX_TEXT:
        raise CliError(
            f"{option} is {len(text):,} characters long; the service takes at most {MAX_TEXT}.",
            EXIT_USAGE,
        )


def _query(args: argparse.Namespace, scope: Scope | None) -> tuple[DncQuery, str]:
    """The search the arguments describe, ``scope`` being ``--scope`` read already (a campaign
    named by its name resolved), and what stderr says of a ``--phone-number`` in no number
    range in use today, searched as written (``""`` for any other)."""
    purpose = args.purpose or ""
    _text_length("--purpose", purpose)
    entry_id = (args.id or "").strip()
    if entry_id and not entry_id.isdigit():
        raise CliError(
            f"--id {args.id!r} is not an entry id: the service's ids are whole numbers (the id "
            "column of an export).",
            EXIT_USAGE,
        )
    phone_number, phone_code, as_written = _phone_filter(
        args.phone_number or "", args.phone_code or ""
    )
    insert_date = (args.insert_date or "").strip()
    if insert_date:
        try:
            insert_date = dt.date.fromisoformat(insert_date).isoformat()
        except ValueError as exc:
            raise CliError(
                f"--insert-date {args.insert_date!r} is not a date; write it as YYYY-MM-DD.",
                EXIT_USAGE,
            ) from exc
    query = DncQuery(
        id=entry_id,
        scope=scope,
        phone_number=phone_number,
        phone_code=phone_code,
        insert_date=insert_date,
        reason=_REASONS[args.reason],
        purpose=purpose,
    )
    return query, as_written


def filters_typed(
    args: argparse.Namespace, query: DncQuery, scope_said: str, as_written: str = ""
) -> dict[str, str]:
    """``--json``'s ``filters``: :func:`describe_query`'s, with ``--phone-number`` and
    ``--phone-code`` as typed, and beside a number the form searched when it differs, as a
    campaign named by its name has its id beside it: ``+44 20 7946 0009 (searched as
    2079460009 under phone code 44)``. The searched form alone, with a ``phone_code`` nobody
    typed, was not "as typed" (black-box B4 #F). A number in no range in use today
    (``as_written``, what :func:`_phone_filter` said of it) says so, and that it was searched
    as written."""
    out = describe_query(query, scope_said)
    number = (args.phone_number or "").strip()
    code = (args.phone_code or "").strip()
    searched = f"{query.phone_number} under phone code {query.phone_code}"
    if number and as_written:
        # In no number range in use today (B5 #2): said, as the search is of it as written.
        out["phone_number"] = (
            f"{number} (not a valid number today: searched as written, {searched})"
        )
    elif number:
        if number == query.phone_number and code == query.phone_code:
            out["phone_number"] = number
        elif number == query.phone_number:
            out["phone_number"] = f"{number} (searched under phone code {query.phone_code})"
        else:
            out["phone_number"] = f"{number} (searched as {searched})"
    if not code:
        out.pop("phone_code", None)
    elif number or code == query.phone_code:
        out["phone_code"] = code  # a number's parentheses say the code searched
    else:
        out["phone_code"] = f"{code} (searched as {query.phone_code})"
    return out


def _end_progress_line(shown: bool) -> None:
    """Ends the progress line, so a failure's sentence starts a line of its own."""
    if shown:
        print(file=sys.stderr)


@contextmanager
def _cancel_on_signal(cancel: threading.Event) -> Iterator[StopSignal]:
    """SIGINT, SIGTERM and SIGHUP cancel the export at once, its partial file removed
    (SIGINT and SIGHUP not when ignored as the command started: ``nohup … &``); the
    :class:`StopSignal` yielded says which one did, for the exit status. The block ends
    with the outcome printed: a signal after it changes nothing (``outcome_decided``)."""
    stopped = StopSignal()

    def handler(signum: int, frame: FrameType | None) -> None:
        stopped.record(signum)
        if signum == getattr(signal, "SIGHUP", None):
            terminal_gone()
        cancel.set()

    for sig in stop_signals_taken():
        signal.signal(sig, handler)
    try:
        yield stopped
    finally:
        # Not the handlers from before, which raise: a second Ctrl+C once the cancellation
        # was printed printed it again, in a second JSON object.
        outcome_decided()


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


def _purpose_filter(args: argparse.Namespace, query: DncQuery) -> tuple[str, str]:
    """The purpose the export filters on and the option that gave it, as typed; ("", "")
    without one."""
    if query.purpose:
        return query.purpose, f"--purpose {args.purpose}"
    if query.scope is not None and query.scope.is_purpose and query.scope.purpose_text:
        return query.scope.purpose_text, f"--scope {args.scope.strip()}"
    return "", ""


def _check_purpose_spelling(
    job: ExportJob, args: argparse.Namespace, connection: Connection
) -> None:
    """Refuse a purpose filter that matches nothing when the list has the purpose spelled
    otherwise (black-box pass N1 #4: ``purpose:Müller`` typed with a precomposed ü, the list's
    with a combining mark, exported 0 rows with exit 0). As import and remove compare it
    (:func:`~app.core.job_staging.purpose_key`), from the entries the filter leaves out
    without the purpose, then by searching the usual spellings and both Unicode forms."""
    text, given = _purpose_filter(args, job.query)
    if not text or job.count_matches():
        return
    # Imported only here: the job modules cost every other export a quarter of a second.
    from app.cli.import_cmd import option_exactly, purpose_spellings
    from app.core.job_staging import PURPOSE_PAGE, PURPOSE_PAGES, ListPurposes, shown_text

    query = job.query
    scope = query.scope
    if scope is not None and scope.is_purpose:
        scope = Scope.purpose("")
    every = replace(query, scope=scope, purpose="")

    def found(q: DncQuery, offset: int, limit: int) -> tuple[list[str], int | None]:
        """The purposes of a page's entries, and the service's total."""
        # The export's own request, so a signal ends it as it ends the export's.
        got: Page[Any] = job.search(q, offset, limit)
        return [e.purpose for e in got.items], got.total

    def page(q: DncQuery, offset: int, limit: int) -> list[str]:
        return found(q, offset, limit)[0]

    def load() -> tuple[list[str], bool]:
        texts: dict[str, None] = {}
        offset = 0
        for _ in range(PURPOSE_PAGES):
            got, total = found(every, offset, PURPOSE_PAGE)
            texts.update(dict.fromkeys(got))
            # A page shorter than asked ends the read only at the service's total (black-box
            # R1: a service giving 999 of 1,000 rows left the rest of the purposes unread).
            following = next_offset(offset, PURPOSE_PAGE, len(got), total, None)
            if following is None:
                # An empty page before the service's total leaves purposes unread: each text
                # is then looked up by its spellings (re-test U1 #3).
                return list(texts), total is None or offset + len(got) >= total
            offset = following
        return list(texts), False

    def search(wanted: str) -> list[str]:
        found: dict[str, None] = {}
        for spelling in purpose_spellings(wanted):
            for form in dict.fromkeys(
                unicodedata.normalize(f, spelling) for f in ("NFC", "NFD", "NFKC")
            ):
                found.update(dict.fromkeys(page(replace(every, purpose=form), 0, 1)))
        return list(found)

    try:
        listed = ListPurposes(ListKind(args.list).title, load, search).spellings(text)
    except ApiError as exc:
        raise CliError(describe_api_error(exc, connection, "Export not started")) from exc
    if not listed or text in listed:
        return
    option = given.partition(" ")[0]
    fixes = [
        option_exactly(option, p)
        if option == "--purpose" or p == p.strip()
        else f"--scope purpose {option_exactly('--purpose', p)}"
        for p in listed
    ]
    one = len(listed) == 1
    names = ", ".join(shown_text(p) for p in listed)
    raise CliError(
        f"Export not started: the {ListKind(args.list).title} on the service at "
        f"{connection.base_url} has {'the purpose' if one else 'the purposes'} {names}, not "
        f"{shown_text(text)} ({given}), and the service matches a purpose exactly as it is "
        f"written, so the export would hold none of {'its' if one else 'their'} entries. Give "
        f"{'it' if one else 'the one meant'} exactly as the list has it: {' or '.join(fixes)}.",
        EXIT_USAGE,
    )


def _watch(job: ExportJob, done: threading.Event, rows_shown: bool, url: str) -> Callable[[], None]:
    """A watcher of a running export (run on a thread of its own until ``done`` is set):
    says on stderr when the service has answered nothing for QUIET_AFTER seconds, again
    every SAY_EVERY seconds while that lasts, and, unless ``rows_shown`` (the terminal's
    progress line), how far the export is every SAY_EVERY seconds (black-box pass N1 #8:
    101 s and four minutes of silence). While the search is being split no row is read, so
    the terminal's progress line says nothing: the same notice is said there too (black-box
    B15 #3: five minutes of a blank terminal)."""
    started = time.monotonic()

    def watch() -> None:
        quiet_said = -SAY_EVERY
        progress_said = started
        lead = "\n" if rows_shown else ""  # off the progress line, rewritten in place
        while not done.wait(min(1.0, QUIET_AFTER / 2, SAY_EVERY / 2)):
            if job.cancel.is_set():
                # Stopping: "still trying" or "running for" would say otherwise (B23 F1).
                return
            now = time.monotonic()
            quiet = job.quiet(QUIET_AFTER)
            if quiet is None:
                quiet_said = -SAY_EVERY  # a new silence is said at once
            elif now - quiet_said >= SAY_EVERY:
                quiet_said = now
                print(f"{lead}{_quiet_text(quiet, url)}", file=sys.stderr, flush=True)
            # Looking for the rows no part held writes few rows or none: the progress line
            # stands still, so the notice says what runs (black-box B27 F6).
            splitting = job.planned_total is None or job.reaching
            if (splitting or not rows_shown) and now - progress_said >= SAY_EVERY:
                progress_said = now
                # No progress line is on the terminal before the first row: nothing to leave.
                print(f"Export {_so_far(job, now - started)}", file=sys.stderr, flush=True)

    return watch


def _quiet_text(quiet: Silence, url: str) -> str:
    """The line of an export the service has answered nothing for a while: worded as a
    running job words it, a service refusing connections not one that does not answer (S19
    W1)."""
    since = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=quiet.seconds)
    if quiet.refused:
        return (
            f"No connection to the service could be made for {quiet.seconds:.0f} s (since "
            f"{since:%H:%M:%S} UTC; trying {url}); the export is still trying."
        )
    return (
        f"No answer from the service for {quiet.seconds:.0f} s (since {since:%H:%M:%S} UTC; "
        f"waiting on {url}); the export is still trying."
    )


def _so_far(job: ExportJob, seconds: float) -> str:
    rows, total = job.rows_written, job.planned_total
    if total is None:
        searches = job.counted
        return (
            f"running for {seconds:.0f} s: splitting the search into parts the service's paging "
            f"reaches, {searches:,} {'search' if searches == 1 else 'searches'} counted so far."
        )
    written = f"running for {seconds:.0f} s: {rows:,} of {total:,} rows written so far"
    if not job.reaching:
        return f"{written}."
    looking = f"{written}; looking for the rows no search of the split reached"
    if job.gap_counting:
        done, bound = job.gap_counted, max(job.gap_bound, job.gap_counted)
        return (
            f"{looking}: counting them, {done:,} of up to {bound:,} "
            f"{'search' if bound == 1 else 'searches'} counted."
        )
    pages = job.gap_pages
    return (
        f"{looking}: reading the searches that may hold them, {pages:,} "
        f"{'page' if pages == 1 else 'pages'} read (rows written already are not written again)."
    )


# Every stop says the same, whenever it comes (black-box Q2 #5: stopped before the export
# began it said only "Interrupted."): the partial file is removed, so none is left.
CANCELLED = interrupted_sentence("export")


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except KeyboardInterrupt as exc:
        # Ctrl+C or SIGTERM (app.cli.main) before the export took signals itself: checking
        # the arguments, connecting, looking up a campaign; nothing was written yet.
        outcome_decided()
        return fail(CANCELLED, interrupt_status(exc))


def _run(args: argparse.Namespace) -> int:
    paths = AppPaths.default()
    try:
        refuse_empty_options(args, (_OUT_OPTION,))
        args.out = Path(args.out)
        if args.out.expanduser().is_dir():
            # Said as what it is, not as a name lacking .xlsx (black-box R5 #12).
            raise CliError(
                f"--out {args.out} is a folder; give a file name ending in .xlsx or .csv.",
                EXIT_USAGE,
            )
        if args.out.suffix.lower() not in (".xlsx", ".csv"):
            raise CliError("--out must end in .xlsx or .csv.", EXIT_USAGE)
        refuse_empty_options(args, _EXPORT_OPTIONS)
        given = parse_scope(args.scope)
        # Checked before connecting; a campaign named by its name is resolved below.
        query, as_written = _query(args, given if isinstance(given, Scope) else None)
        args.out = check_export_path(args.out, overwrite=args.overwrite)
        connection, api = open_client(args, paths)
    except CliError as exc:
        return fail(str(exc), exc.status)
    if as_written:
        # The note starts "not a valid … number" (only such refusals are searched as written).
        print(f"--phone-number {args.phone_number.strip()!r} is {as_written}.", file=sys.stderr)
    try:
        # A campaign the service lacks is a bad argument, not a service failure (N1 #6).
        query = replace(query, scope=resolve_scope(api, connection, given, "Export not started"))
        if (
            query.phone_code
            and not query.phone_number
            and phones.normalize_code(query.phone_code) != query.phone_code
        ):
            note = _check_code(api, ListKind(args.list), query.phone_code, connection)
            print(note, file=sys.stderr)
    except CliError as exc:
        api.close()
        return fail(str(exc), exc.status)
    cancel = threading.Event()
    show = not args.json and sys.stderr.isatty()

    def progress(p: ExportProgress) -> None:
        if show:
            total = f"/{p.total:,}" if p.total is not None else ""
            print(f"\r{p.rows:,}{total} rows   ", end="", file=sys.stderr, flush=True)

    scope_said = scope_as_typed(query.scope, given)
    job = ExportJob(
        api,
        ListKind(args.list),
        query,
        args.out,
        connection_name=connection.name,
        scope_said=scope_said,
        filters_typed=filters_typed(args, query, scope_said, as_written),
        progress=progress,
        cancel=cancel,
    )
    existed = args.out.exists()
    done = threading.Event()
    url = f"{api.base_url.rstrip('/')}/v1{job.limits.endpoint}"
    watcher = threading.Thread(
        target=_watch(job, done, show, url), name="dnc-export-watch", daemon=True
    )
    # The handlers stay until the result is printed: a signal once the file is written does
    # not undo it, and the result says what was written (exit 0).
    with _cancel_on_signal(cancel) as stopped:
        try:
            watcher.start()
            with job.cancellable():  # the purpose's look-ups too
                _check_purpose_spelling(job, args, connection)
            result = job.run()
        except CliError as exc:
            return fail(str(exc), exc.status)
        except DayFilterRefused as exc:
            # Found out before any row was read or the file written: a filter this service
            # cannot take, as a campaign it lacks is (exit 2).
            _end_progress_line(show)
            return fail(f"Export not started: {exc}.", EXIT_USAGE)
        except Cancelled:
            _end_progress_line(show)
            return fail(CANCELLED, stopped.exit_status())
        except ApiError as exc:
            _end_progress_line(show)
            return fail(describe_api_error(exc, connection, _stopped(args.out, existed)))
        except OSError as exc:
            _end_progress_line(show)
            return fail(_write_failure(args.out, existed, exc))
        finally:
            done.set()
            api.close()
        _print_result(args, query, result, show, scope_said, as_written)
    return EXIT_OK


def _print_result(
    args: argparse.Namespace,
    query: DncQuery,
    result: ExportResult,
    show: bool,
    scope: str,
    as_written: str,
) -> None:
    if show:
        print(file=sys.stderr)
    if args.json:
        emit_json(
            {
                "rows": result.rows,
                "total": result.total,
                "unreachable": result.unreachable,
                "path": str(result.path.resolve()),
                "filters": filters_typed(args, query, scope, as_written),
                "searches": len(result.parts),
                # An empty list's export reads no page: this says the service was asked.
                "counting_searches": result.counted,
                "list_changed": result.list_changed,
                "total_at_end": result.total_at_end,
                "possibly_missing": result.possibly_missing,
                # Column -> values whose control characters the xlsx holds as U+FFFD, as the
                # warning and the About sheet say (black-box B27: not in the JSON).
                "characters_replaced": dict(result.replaced),
                "forms_not_searched": result.forms_not_searched,
            }
        )
    else:
        rows = "row" if result.rows == 1 else "rows"
        print(f"Exported {result.rows:,} {rows} to {result.path}")
    changed = change_warning(result)
    if changed:
        # On stdout beside the count; with --json stdout holds only the JSON (list_changed).
        print(f"Warning: {changed}.", file=sys.stderr if args.json else sys.stdout)
    if result.unreachable:
        print(f"Warning: {unreachable_warning(result)}", file=sys.stderr)
    if note := result.forms_not_searched:
        # Beside the count, as the forms searched are (on stderr with --json: it has the key).
        print(f"Note: {note}.", file=sys.stderr if args.json else sys.stdout)
    replaced = replaced_warning(result)
    if replaced:
        print(f"Warning: {replaced}.", file=sys.stderr)
    # Out before the handlers go: a signal after them would lose what is still buffered.
    sys.stdout.flush()
