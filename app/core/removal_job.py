"""Bulk removal: a file of numbers taken off the DNC list, the import pipeline run backwards.

Each row is deleted in its scope (from the file's scope column or the job's scope) through the
journaled :class:`Session`, optionally re-statusing the leads on that number to a lead status the
service knows (checked against ``/status/search`` before anything is sent). A number that is
not on the list is reported as ``not_found``, not as an error.

``/dnc/delete`` in purpose scope removes the number's entry for *every* purpose. So before a
purpose-scope row is sent, the number's purpose entries are looked up
(every purpose's entry): a row naming one purpose (``purpose:Surveys``)
whose number is also listed for another purpose is not sent and ends ``failed``, saying which
other purposes would have gone, unless other rows of the file still to be sent ask for each of
them (:class:`FileAsks`; black-box B5 #4: a row for "Sales" and one for "Surveys" of a number
listed for both were both refused, each for the other's purpose). Then the first of those rows
is sent, its delete taking every purpose (its message names the rows asking for the others),
and each other row, finding the number gone, ends ``removed``, saying which row's delete took
its entry (:func:`_taken_for_purpose`, read from that delete's journal intent, which lists
every entry taken; the conclusion is journaled under the row's own scope), on a resume too,
and when the job is cancelled before the row is sent (S19 A1: it said "not attempted" of an
entry gone; only a delete the journal has answered "ok" counts, and no request is made). A
row asking for a purpose that ended without removing the number (refused, failed, or to be
sent again later) asks for nothing meanwhile, so no entry goes that a row reported kept. A
row naming a purpose the number is not listed for, while it
is for others, ends ``not_found`` and nothing is sent. Purposes are compared exactly, as the
service stores them ("surveys" is another purpose than "Surveys"). A purpose scope without text
means every purpose (only the whole job's scope can be that: the check refuses such a row).
A global or campaign row is looked up the same way (one search per written form): a number not
listed in that scope ends ``not_found`` with nothing sent, its message naming the written forms
looked up (an entry kept in another form may still list it), and the delete's journal
``before`` holds the entry it takes off (id, reason, insert date). Whenever a delete is sent,
the journal's ``before`` holds every entry looked up, so each can be put back and the opt-out's
record outlives its removal.

A number the list keeps in more than one written form in the row's scope (as the app writes
it, with its trunk 0, with its country code in the digits, with the code and trunk 0, after the
exit code 00 or 011: :func:`written_forms`, every one looked up on every row; an import of the
number while another form is listed makes that state) is taken off in each,
one delete a form, each journaled with the entries it takes; the row ends ``removed`` once
every form is gone, its message naming each form and its entries (black-box N5: it was
refused). A form with the country code in its digits is looked up under every phone code, as
evidence looks it up (:func:`app.core.dnc_removal.form_searches`): an entry "447911129992" kept
under code 1 is +44 7911 129992, deleted under code 1 and named so ("on the list as 447911129992
under phone code 1, …"; black-box R2 #6: evidence attributed it to the number, the removal left
it listed). An entry found so that reads as another valid number under its own code is not the
number (:func:`~app.core.dnc_removal.names_number`, as evidence decides) and is left, the row
saying so. A row naming one purpose deletes only the forms listed for that purpose. When one of
the deletes fails, the row says which forms were deleted and which are still listed; a later
send of the row (in the run, or on resume) looks every form up again and deletes only those
still listed, and an earlier delete of a form found gone whose answer the journal lacks is
settled there.

A row that re-statuses leads (the job has a lead status) ends with every lead of the number in
the status: those holding it, in any phone field, as the app writes it and (a country that
drops a trunk 0) with the 0, in lead_lookup's written forms (:func:`number_leads`, the leads
evidence attributes to the number). Just before its deletes it looks them up, and the leads
each delete will re-status (:func:`leads_to_restatus`, on the number as that delete sends it:
the service re-statuses the leads holding those digits). Every delete carries the lead status;
its journal ``before`` keeps the leads whose status it changes as ``leads`` (id, list id, old
status), a lead two deletes re-status in the first's only. The number's leads no delete done
re-statused (its form not listed: a number listed only as "13035550140" or, for the UK, only
without its trunk 0, black-box B3 #1, #2) are then set by their own journaled
``/leads/update``, filed under the row's number. The row's message names every lead so set,
with its old status, and apart those already in it (no change journaled); a campaign's row
finding no lead of the number in the campaign's lists says so, and names the number's leads
found in other campaigns' lists, which its delete leaves as they are (black-box B5 #3). A lead
update the service refuses leaves the row ``removed`` (its number is off the list), saying
which lead kept its status (one it fails or never answers: that it may not have been set), and
to set it on the service. A row sent again and found removed by this job's earlier delete names the
leads the journal has that delete and that send set, and sets those of the number still not
in the status. Without a lead status no lead is looked up. The service sets every lead on
the number, whatever scope the delete took off: the leads a delete so set that the number's
other entries still list (a lead in a campaign whose own entry stays, after a global removal)
are named in the row's message and journaled as a ``dnc.delete.leads_still_listed`` event
(:data:`STILL_LISTED_EVENT`), and the report counts them and warns of them
(:class:`app.core.job_report.StillListed`; black-box B9 #1).

A row whose number is in no number range in use today, its length right for its country
(:func:`app.core.sheet_check.listed_as_written`: the check stages it with that refusal and
says it is looked up as written), is looked up and deleted like any row: removed, its message
says first that it was removed as listed; not listed, it ends ``invalid`` (black-box B5 #2: an
entry the service holds as UK 7911600927 could not be removed).

A row in flight when the job last stopped says "sent again" only when the change journal has a
delete of it this job sent (not one cancelled before it was sent): the job file marks a row
``sending`` before its look-ups, so a kill while they ran leaves rows whose delete was never
sent (black-box B3 #3).

A delete answered "not found" after an earlier attempt of it got no answer saying whether it
was done (a timeout, a dropped connection, a 5xx, an answer that is not the API's JSON: the
service may fail after deleting), for a number the look-up just before found on the list, ends
``removed``: that attempt most likely removed it (and re-statused its leads), the retry found it
gone (black-box R1 #3: after a 500 or a 200 "OK" such rows ended ``not_found``). The change
journal keeps that conclusion beside the delete's "not found".

A delete answered "not found" with no such attempt before it, for a number the look-up just
before found listed, contradicts that look-up: the number is looked up once more. Still listed,
the delete was not done (:class:`NotDone`: sent again later in the run, a few times at most,
then ``failed``, saying what the service answered); gone, the row ends ``not_found`` saying the
service answered so although the number had been listed (black-box R1 #4: such a row said "not
on the list" while the entry stayed).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from app.api.client import ApiClient, DncQuery
from app.api.errors import (
    ApiError,
    AuthError,
    NotFoundError,
    RateLimitedError,
    ServerError,
    TransportError,
)
from app.api.models import DncEntry, Lead, LeadStatus, WriteResult, WriteStatus
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.dnc_removal import (
    FormKind,
    FormSearch,
    form_searches,
    names_number,
    purpose_names,
    quote_purposes,
    refused_forms_text,
    refuses_form,
    removed_purposes_text,
    stored_forms,
)
from app.core.job_exec import execute, write_job_report
from app.core.job_runner import (
    RESENT,
    JobControl,
    JobProgress,
    NotDone,
    RowResult,
    Sender,
    SendFn,
    Unfinished,
    Unsettled,
    journal_sent_before,
)
from app.core.job_staging import JobSettings, MappingError, open_mapped, stage
from app.core.job_store import (
    JobRow,
    JobStatus,
    JobStore,
    Outcome,
    RowState,
    scope_from_text,
)
from app.core.journal import JournalEntry
from app.core.lead_lookup import (
    NOT_CHECKED,
    Covered,
    changed_by,
    covered_by,
    lead_numbers,
    leads_to_restatus,
    not_checked_sentence,
    not_set_text,
    number_leads_apart,
    restatus_text,
    restatused_by,
    still_covered_sentence,
    still_listed_in,
    with_still_listed,
)
from app.core.phones import is_valid
from app.core.session import Session, e164, fate_open, journal_target
from app.core.sheet_check import CheckSummary, Target
from app.core.wording import joined

# What a removed row whose number is in no number range in use today says first (black-box B5
# #2): its staged message gave the refusal, and said it would be looked up as written.
REMOVED_AS_LISTED = (
    "removed as listed: the list held the number as written, though it is not a valid number today"
)

# The journal event of the leads a delete re-statused although the number's other entries
# still list them (delete_sender's still_listed).
STILL_LISTED_EVENT = "dnc.delete.leads_still_listed"

RESENT_NOT_FOUND = (
    "sent again when the job was resumed; the number was no longer on the list "
    "(most likely removed by the first send)"
)
# RESENT_NOT_FOUND of a row whose earlier delete the change journal holds no sign of having
# left the process (the app killed after journaling it, before its request went out: black-box
# B14 F2): "the first send" would claim a request that may never have been made.
RESUMED_NOT_FOUND = (
    "sent when the job was resumed (an earlier attempt, interrupted, may have reached the "
    "service); the number was no longer on the list (most likely removed by that interrupted "
    "attempt, which would then have reached the service)"
)


def _resent_not_found(resent: str) -> str:
    """What a row sent on resume (in ``resent``'s words) says when its number is gone."""
    return RESENT_NOT_FOUND if resent == RESENT else RESUMED_NOT_FOUND


def not_listed_text(
    looked_up: Sequence[FormSearch],
    row: JobRow,
    resent: str = "",
    others: Sequence[DncEntry] = (),
) -> str:
    """The message of a row whose number none of ``looked_up`` (the written forms searched,
    under the row's phone code) holds in the row's scope: it says so of those forms only, as
    an entry kept in another form may still list the number (black-box P2 #3: "not on the
    list" was said of entries kept as "00447911123482"). ``others``: entries holding one of
    those texts that read as another number under their phone code, left on the list (a
    German "4915112345678" under 49 for +49 151 12345678): named, as the forms are listed."""
    # Said as searched: a form with the country code in its digits under any phone code
    # (the message said "under phone code 1" of those too), as the evidence pack says it.
    own = [search.number for search in looked_up if search.phone_code]
    any_code = [search.number for search in looked_up if not search.phone_code]
    parts = [f"{joined(own)} under phone code {row.phone_code}"] if own else []
    if any_code:
        parts.append(f"{joined(any_code)} under any phone code")
    forms = "; ".join(parts)
    if resent:
        text = f"{_resent_not_found(resent)}; written forms looked up: {forms}"
    else:
        text = (
            f"not on the list in this scope in the written forms looked up: {forms} (looked up "
            "before the delete; nothing was sent)"
        )
    if others:
        text += f"; {others_left_text(others)}"
    return text


def others_left_text(others: Sequence[DncEntry]) -> str:
    """What a row says of ``others`` (see :func:`not_listed_text`), left on the list; "" for
    none. A removed row says it too (regression check V2 #10: +49 151 12345678 removed, the
    entry 4915112345678 under 49 left without a word, though the README says the row says so)."""
    if not others:
        return ""
    kept = list(dict.fromkeys(f"{e.phone_number} under phone code {e.phone_code}" for e in others))
    one = len(kept) == 1
    return (
        f"{'the entry as' if one else 'the entries as'} {joined(kept)} "
        f"{'was' if one else 'were'} left: read under {'its' if one else 'their'} phone "
        f"code, {'it is' if one else 'they are'} another number than this one"
    )


# A delete answered "not found" after an earlier attempt that got no answer saying whether it
# was done (none, a 5xx, an answer not the API's JSON), for a number looked up on the list just
# before it: most likely that attempt removed it (re-test J2: another party deleting it in that
# moment, the attempt never reaching the service, looks the same).
REMOVED_BY_LOST_ATTEMPT = (
    "removed, most likely by this job's earlier attempt: the number was on the list when "
    "looked up just before the delete, that attempt got no answer saying whether it was done "
    "and the retry found it gone"
)
# A delete answered "not found" with no such attempt before it, for a number the look-up just
# before found listed (black-box R1 #4): what the service answered, then what a look-up after
# it found.
CONTRADICTED_NOT_FOUND = (
    'the service answered the delete "not found" ({answer}) although a look-up just before '
    "listed the number in this scope"
)
STILL_LISTED_AFTER = (
    "not removed: " + CONTRADICTED_NOT_FOUND + ", and a look-up right after it still lists it"
)
GONE_AFTER = (
    "no longer on the list: " + CONTRADICTED_NOT_FOUND + "; a look-up right after it found it "
    "gone, so it was taken off the list then, by this delete or by someone else, which cannot "
    "be told"
)
LISTED_UNKNOWN_AFTER = (
    "not known whether removed: " + CONTRADICTED_NOT_FOUND + ", and a look-up right after it "
    "failed ({why})"
)


def not_found_text(result: WriteResult, resent: str, listed: bool) -> str:
    """The message of a row whose delete was answered "not found" (and not counted removed).

    Only an attempt that got no answer saying whether it was done
    (``result.earlier_attempt_lost``) is said to leave it open: a retry after a 429 got an
    answer, so nothing of the kind is claimed then.
    ``listed``: the look-up just before the delete found the number on the list.
    """
    if resent:
        text = _resent_not_found(resent)
    elif result.earlier_attempt_lost:
        # Not listed when looked up (no delete is sent for such a number since pass G; kept for
        # a caller that sends one): the open attempt had nothing to take.
        text = (
            "not on the list in this scope when the request was retried; an earlier attempt "
            "got no answer saying whether it was done, so that attempt may have removed it"
            if listed
            else "not on the list in this scope (looked up before the delete)"
        )
    elif listed and result.retried:
        text = (
            "not on the list in this scope when the delete was answered, although it was "
            "when looked up just before"
        )
    else:
        text = "not on the list in this scope"
    if result.retried:
        text += f"; answered after {result.attempts} attempts"
    return text


# A row sent again when the job was resumed, found gone, whose earlier delete the change
# journal keeps with the entries listed then (see _deleted_before).
REMOVED_BEFORE_INTERRUPTION = (
    "removed by this job's delete sent before the job stopped: the number was on the "
    "list then (the change journal has that delete and the entries it took) and gone when the "
    "job went on"
)
# A row sent again after its delete ended with an error and the look-up after it failed too
# (Unsettled), found gone by the look-up before the second delete.
REMOVED_BY_UNSETTLED_DELETE = (
    "removed: this job's earlier delete ended with an error and a look-up right after it "
    "failed too; sent again, the number was no longer on the list in this scope, so that "
    "delete was done (the change journal has it)"
)
# Said on such a row when the look-up before the second delete fails as well.
UNSETTLED_DELETE = (
    "this job's earlier delete of the number ended with an error and a look-up right after it "
    "failed too, so whether it was removed is not known"
)


def _open_again(error: ApiError) -> None:
    """Say on ``error`` (a look-up before a second delete failed) that the first delete's fate
    is still open: "nothing was deleted" is then said of this send only (black-box L4 #12: it
    stood beside "whether it was removed is not known" as if both were of the one number)."""
    error.message = error.message.replace(NOTHING_DELETED, NO_DELETE_THIS_TIME)
    error.add_detail(UNSETTLED_DELETE)


# What a row whose deletes were done says when the job stopped before its leads were all set
# to the lead status ({0}), as a stopped job's sentence names it; the resume sets them.
LEFT_UNFINISHED = (
    "the job stopped after the delete and before the number's leads were all set to {0}"
)
# What such a row, found gone when sent again, says if the job is cancelled before its leads
# were looked up.
# What a row whose deletes and lead updates were done says when the job stopped before the
# look-up of whether the number's other entries still list its leads; the resume makes it.
LEFT_UNCHECKED = (
    "the job stopped after the delete and before whether the number's other entries still "
    "list its leads set to {0} was looked up"
)
# Why such a row, the job cancelled then, counts those leads as not checked.
COVER_NOT_LOOKED_UP = "the job was stopped first"
LEADS_NOT_LOOKED_UP = (
    "its leads were not looked up nor set to {0}, as the job was cancelled first; set those "
    "of the number not in {0} on the service (its lead update)"
)


# What a look-up before a delete that failed says of it, and, for a row an earlier delete of
# which was left open, what it says instead.
NOTHING_DELETED = "(nothing was deleted)"
NO_DELETE_THIS_TIME = "(so no delete was sent this time)"


class LeadStatusError(MappingError):
    """The lead status asked for does not exist on the service."""


def check_lead_status(api: ApiClient, code: str) -> str:
    """The service's spelling of lead status ``code``; raises LeadStatusError if unknown."""
    return find_lead_status(api, code).status


def find_lead_status(api: ApiClient, code: str) -> LeadStatus:
    """The service's lead status ``code`` (its spelling and flags: whether it is a DNC status
    decides how the job's warning on leads still listed reads); raises LeadStatusError if
    unknown."""
    wanted = code.strip()
    if not wanted:
        raise LeadStatusError("Give the lead status's code.")
    statuses = api.search_statuses(wanted)
    for status in statuses:
        if status.status.casefold() == wanted.casefold():
            return status
    raise LeadStatusError(
        f"The service has no lead status {wanted!r}; {_candidates(api, wanted, statuses)}"
    )


# Enough candidates to spot a typo by; more would bury the sentence.
MAX_CANDIDATES = 10


def _candidates(api: ApiClient, wanted: str, holding_it: list[LeadStatus]) -> str:
    """The statuses like ``wanted`` (those whose code or name holds its longest beginning that
    finds any; ``holding_it`` those found for the whole of it), as the refusal's advice; or
    where to look them up when none is found.

    Never a blank search: the spec makes the query required, so listing every status is not a
    thing the API offers (black-box B36 F1).
    """
    for end in range(len(wanted), 0, -1):
        found = holding_it if end == len(wanted) else api.search_statuses(wanted[:end])
        if found:
            shown = sorted(found, key=lambda s: s.status)[:MAX_CANDIDATES]
            more = len(found) - len(shown)
            listed = ", ".join(f"{s.status} ({s.name})" if s.name else s.status for s in shown)
            tail = f" and {more} more" if more > 0 else ""
            return (
                f"statuses whose code or name holds {wanted[:end]!r}: {listed}{tail}. "
                "Give one of them, as its code."
            )
    return (
        "no status's code or name holds any beginning of it. Search the statuses by code or "
        "name in the window (a removal's 'Set the status of the leads with these numbers to…')."
    )


def stage_removal(
    settings: JobSettings,
    jobs_dir: Path,
    *,
    connection: Connection | None,
    campaign_lookup: Mapping[str, str] | None = None,
    reports_dir: Path | None = None,
) -> tuple[JobStore, CheckSummary]:
    """Check the file and write a new removal job file (nothing is sent).

    The report goes to ``settings.report``, else to ``reports_dir`` named after the job's id.

    Without a connection (a dry run), a lead status cannot be checked against the service's
    statuses: the job's warnings say so, as they say that campaign ids were not checked
    (black-box N3 #5: a dry run with an unknown status said nothing of it)."""
    settings.target = Target.DNC
    store, summary = stage(
        settings,
        jobs_dir,
        kind="removal",
        connection=connection,
        campaign_lookup=campaign_lookup,
        reports_dir=reports_dir,
    )
    if connection is None and settings.lead_status:
        warnings = [str(w) for w in store.meta().get("warnings") or []]
        store.set_meta({"warnings": [*warnings, status_unchecked(settings.lead_status)]})
    return store, summary


def status_unchecked(lead_status: str) -> str:
    """The warning of a removal staged with no connection to check ``lead_status`` against."""
    return (
        f"The lead status {lead_status!r} was not checked against the service's lead "
        "statuses, as there was no connection; a run with a connection refuses a status the "
        "service does not have."
    )


def other_purposes_refusal(others: list[str], asked: Mapping[str, list[int]] | None = None) -> str:
    """The message of a row not sent because the delete would also take ``others``; ``asked``:
    those of them other rows of the file ask for (purpose -> row numbers), said apart from
    those none asks for."""
    noun = "purpose" if len(others) == 1 else "purposes"
    text = (
        f"not removed: the number is also on the list for {noun} {quote_purposes(others)}, "
        "and the service removes every purpose at once"
    )
    if asked:
        unasked = [p for p in others if p not in asked]
        text += f"; {asked_text(asked)}, not for {quote_purposes(unasked)}, so nothing was sent"
    return text + "; remove it with scope purpose (all purposes) to take them all off"


def asked_text(asked: Mapping[str, list[int]]) -> str:
    """What a row says of the other purposes of its number the file's other rows ask for
    (purpose -> their row numbers), ``""`` for none."""
    if not asked:
        return ""
    numbers = sorted({n for rows in asked.values() for n in rows})
    noun = "purpose" if len(asked) == 1 else "purposes"
    rows = f"{'row' if len(numbers) == 1 else 'rows'} {joined([str(n) for n in numbers])}"
    return f"the file asks for {noun} {quote_purposes(list(asked))} too ({rows})"


def taken_text(purpose: str, rows: list[int], named: str, ids: list[str]) -> str:
    """The message of a row naming purpose ``named``, found gone, whose entries (``ids``) this
    job's delete for ``purpose`` took (``rows``: the file's rows naming that purpose)."""
    by = f" ({'row' if len(rows) == 1 else 'rows'} {joined([str(n) for n in rows])})"
    entries = f"{'entry' if len(ids) == 1 else 'entries'} {joined(ids)}"
    return (
        f"removed by this job's delete of the number for purpose {purpose!r}{by if rows else ''}"
        f": the service removes every purpose at once, and that delete took its entry for "
        f"purpose {named!r} ({entries}) too, as this row asks; the change journal has that "
        "delete and the entries it took"
    )


class FileAsks:
    """The purposes a removal's rows ask a number to be taken off for, so that a row naming
    one purpose of a number also listed for others is sent when the file asks for each of
    those too (black-box B5 #4: one row for "Sales" and one for "Surveys" of a number listed
    for both were both refused, each for the other's purpose). The service's delete in purpose
    scope takes every purpose at once, so the first of those rows takes them all, and the
    others find the number gone (:func:`_taken_for_purpose`).

    A purpose counts as asked while a row naming it is still to be sent in this run (pending,
    or being sent): one that ended without removing the number (refused, failed, or left to be
    sent again later) no longer asks, so no entry goes that a row reported as kept. Only
    numbers named under more than one purpose are kept."""

    def __init__(self, rows: Iterable[JobRow]) -> None:
        self._guard = threading.Lock()
        # number -> purpose -> the (seq, row number) of the rows naming it
        by_number: dict[str, dict[str, list[tuple[int, int]]]] = {}
        open_rows: set[int] = set()
        for row in rows:
            if row.outcome in _NEVER_SENT or not row.scope.startswith("purpose:"):
                continue
            purpose = scope_from_text(row.scope).purpose_text
            if not purpose:
                continue
            asks = by_number.setdefault(_number_key(row), {})
            asks.setdefault(purpose, []).append((row.seq, row.row_number))
            if row.state != RowState.DONE.value:
                open_rows.add(row.seq)
        self._asks = {number: asks for number, asks in by_number.items() if len(asks) > 1}
        self._kept = {seq for asks in self._asks.values() for x in asks.values() for seq, _ in x}
        self._open = open_rows & self._kept

    def asked(self, row: JobRow, purposes: Iterable[str]) -> dict[str, list[int]]:
        """Of ``purposes``, those other rows of ``row``'s number still to be sent ask for,
        each with their row numbers."""
        asks = self._asks.get(_number_key(row), {})
        found: dict[str, list[int]] = {}
        with self._guard:
            for purpose in purposes:
                if rows := [n for seq, n in asks.get(purpose, []) if seq in self._open]:
                    found[purpose] = rows
        return found

    def kept(self, row: JobRow) -> bool:
        """Whether ``row`` names one of several purposes the file asks its number off for."""
        return row.seq in self._kept

    def rows_of(self, row: JobRow, purpose: str) -> list[int]:
        """The row numbers of the file's rows naming ``purpose`` for ``row``'s number."""
        return [n for _, n in self._asks.get(_number_key(row), {}).get(purpose, [])]

    def sending(self, row: JobRow) -> None:
        """``row`` is being sent (again): it asks for its purpose until it ends."""
        if row.seq in self._kept:
            with self._guard:
                self._open.add(row.seq)

    def ended(self, row: JobRow) -> None:
        """``row``'s send ended (its number removed, or a result or error that may keep it)."""
        with self._guard:
            self._open.discard(row.seq)


# Outcomes a row is staged with, never sent: such a row asks for nothing.
_NEVER_SENT = frozenset({Outcome.INVALID.value, Outcome.DUPLICATE.value, Outcome.BLANK.value})


def _number_key(row: JobRow) -> str:
    return e164(row.national, row.phone_code) or row.national


def _entries(
    session: Session, row: JobRow, scope: Scope, stop: threading.Event | None = None
) -> tuple[list[tuple[Form, list[DncEntry]]], list[FormSearch], list[DncEntry], list[FormSearch]]:
    """What the deletes of ``row`` in ``scope`` take off the list, looked up just before them:
    each written form the list keeps the number in (what a delete must send) with its entries:
    in a purpose scope every purpose's entry (the service deletes them all at once), else the
    scope's own. The journal keeps them (id, reason, insert date), as the record of an opt-out
    must outlive its removal. A read, so ``stop`` cancels it at any point (raising Cancelled).

    The service matches a number's text exactly, and an entry made by hand or by another tool
    may keep a country's trunk 0 (UK "02079460000" for +44 20 7946 0000), or hold the country
    code inside the digits (US "17205550202" under phone code 1, UK "447911123456" under 44;
    the service takes both): the number is looked up in those forms too (:func:`written_forms`),
    so it is not reported "not on the list" while it stays on it (black-box L2 #2). Every form
    listed is returned, in :func:`written_forms` order: one delete takes one form off, so a
    number listed in two forms gets two (black-box N5: it was refused, and an import makes
    that state). Returned beside them: the forms looked up, and the entries found that are not
    the number (see below).

    The rarer forms (country code and trunk 0, exit code 00 or 011 in the digits: "4407911123481",
    "00447911123482", "0012125550408") are looked up on every row, whatever the usual ones
    found: a row is not reported "not on the list" while the number is listed so (black-box P2
    #3), nor "removed" while such an entry beside the usual one keeps it listed (X4: P2 #3 looked
    them up only for a row found in no usual form, to save a search a form). The service
    matches a number's text exactly, so each form costs a search; every form of the list is
    one the number can be kept in and evidence lists it, so none is left out.

    The searches and the entries taken for the number are evidence's
    (:func:`app.core.dnc_removal.form_searches`, :func:`~app.core.dnc_removal.names_number`):
    a form with the country code in its digits is looked up under every phone code, and an
    entry so kept under another code ("447911129992" under code 1 for +44 7911 129992) is a
    form of its own, deleted under the code it is kept under (black-box R2 #6: evidence
    attributed it to the number, the removal never looked there and left it listed). An entry
    whose digits read as another valid number under its code is not the number, and is left.

    Last, the forms the service refused to search as a phone number format it does not take
    (:func:`app.core.dnc_removal.refuses_form`): it keeps no entry so, and the row's message
    says they were not looked up (black-box B36 F3: each such row failed); the forms
    returned as looked up are the others.
    """
    found: dict[Form, list[DncEntry]] = {}
    others: list[DncEntry] = []
    searched: list[FormSearch] = []
    refused: list[FormSearch] = []
    try:
        for search in form_searches(row.national, row.phone_code):
            try:
                listed = _listed(session, Form(search.number, search.phone_code), scope, stop)
            except ApiError as exc:
                if not refuses_form(exc, search):
                    raise
                refused.append(search)
                continue
            searched.append(search)
            kept: dict[Form, list[DncEntry]] = {}
            for entry in listed:
                if names_number(entry.phone_number, entry.phone_code, row.national, row.phone_code):
                    kept.setdefault(Form(search.number, entry.phone_code), []).append(entry)
                else:
                    others.append(entry)
            # Under the number's own code first, then the others by code.
            for form in sorted(kept, key=lambda f: (f.code != row.phone_code, f.code)):
                found[form] = kept[form]
    except TransportError as exc:
        # Only the look-up went unanswered, so nothing was deleted: sent again later in the
        # run (NotDone), and its message must not say the delete may have been done.
        raise NotDone(
            TransportError(
                exc.endpoint,
                f"looking the number up before its delete (nothing was deleted): {exc.message}",
                timeout=exc.timeout,
                sent=False,
            ),
            before_write=True,
        ) from exc
    except ServerError as exc:
        # Nothing was deleted: sent again later (a failing service still pauses the job).
        raise NotDone(
            ServerError(
                exc.endpoint,
                f"looking the number up before its delete (nothing was deleted): {exc.message}",
                http_status=exc.http_status,
            ),
            before_write=True,
        ) from exc
    return list(found.items()), searched, others, refused


def written_forms(national: str, phone_code: str) -> list[str]:
    """The texts a DNC entry of the number may hold, as the service matches them, in the order
    they are looked up (:func:`app.core.dnc_removal.stored_forms`)."""
    return list(stored_forms(national, phone_code))


class Form(NamedTuple):
    """One written form the list keeps a row's number in, as a delete must name it: the text
    and the phone code it is kept under (another code than the row's for an entry such as
    "447911129992" under code 1, which is +44 7911 129992: black-box R2 #6)."""

    number: str
    code: str


def _label(form: Form, row: JobRow) -> str:
    """``form`` as a row's message names it: its text, and its phone code when not the row's."""
    if form.code == row.phone_code:
        return form.number
    return f"{form.number} under phone code {form.code or '(none)'}"


def form_text(form: Form, row: JobRow) -> str:
    """What a removed row says of the form its entry was deleted in, ``""`` for the app's own."""
    if not (words := _form_words(form, row)):
        return ""
    return f"on the list as {_label(form, row)}, {words}; deleted in that form"


@dataclass(frozen=True, slots=True)
class _Sent:
    """How one delete of a row went: ``first`` says how it was done (or why it found nothing),
    ``last`` how many attempts its answer took."""

    outcome: Outcome
    first: str = ""
    last: str = ""
    code: str = ""


def _count_words(count: int) -> str:
    return {2: "two", 3: "three"}.get(count, str(count))


def _form_words(form: Form, row: JobRow) -> str:
    """How ``form`` writes the row's number, ``""`` for the app's own form."""
    code = row.phone_code
    kind = stored_forms(row.national, code).get(form.number, FormKind.CODE)
    return {
        FormKind.APP: "",
        FormKind.TRUNK: "its trunk 0 kept",
        FormKind.CODE: f"its country code {code} written in the digits",
        FormKind.CODE_TRUNK: f"its country code {code} and its trunk 0 written in the digits",
        FormKind.EXIT_00: f"written with 00 and its country code {code}",
        FormKind.EXIT_011: f"written with 011 and its country code {code}",
        FormKind.EXIT_00_TRUNK: f"written with 00, its country code {code} and its trunk 0",
        FormKind.EXIT_011_TRUNK: f"written with 011, its country code {code} and its trunk 0",
    }[kind]


def _in_forms_order(forms: list[Form], row: JobRow) -> list[Form]:
    """``forms`` in the order they are looked up, one kept under the row's code first."""
    order = written_forms(row.national, row.phone_code)

    def key(form: Form) -> tuple[int, bool, str]:
        at = order.index(form.number) if form.number in order else len(order)
        return (at, form.code != row.phone_code, form.code)

    return sorted(forms, key=key)


def _asked_forms(
    scope: Scope, forms: list[tuple[Form, list[DncEntry]]]
) -> tuple[list[tuple[Form, list[DncEntry]]], list[tuple[Form, list[DncEntry]]]]:
    """The forms a row naming a purpose deletes (those listed for it) and, apart, those listed
    only for other purposes: deleting one of these would take only other purposes, so it is
    left. With no form listed for it, every form is kept, for :func:`_purpose_refusal`."""
    named = scope.purpose_text if scope.is_purpose else ""
    if not named:
        return forms, []
    asked = [(n, es) for n, es in forms if any(e.purpose == named for e in es)]
    if not asked:
        return forms, []
    return asked, [(n, es) for n, es in forms if not any(e.purpose == named for e in es)]


def _left_text(row: JobRow, left: list[tuple[Form, list[DncEntry]]]) -> str:
    """What a row says of the forms it left, as listed only for other purposes."""
    texts = []
    for form, entries in left:
        names = purpose_names(entries)
        noun = "purpose" if len(names) == 1 else "purposes"
        texts.append(
            f"the number's entry as {_label(form, row)}, for {noun} {quote_purposes(names)} "
            "only, was left on the list"
        )
    return "; ".join(texts)


def _forms_result(
    row: JobRow,
    scope: Scope,
    earlier: Mapping[Form, bool],
    forms: list[tuple[Form, list[DncEntry]]],
    results: list[tuple[Form, _Sent]],
    left: list[tuple[Form, list[DncEntry]]],
    lead_status: str,
    leads_said: str,
    leads_covered: str,
    resent: str,
    asked: str = "",
) -> RowResult:
    """The result of a row whose number was taken off in more than one written form, each by
    its own delete (``results``, in the order sent), some perhaps by an earlier send of the
    row (``earlier``): the message names each form and the entries it held, and
    (``leads_said``, ``leads_covered``) what it says of the leads set to ``lead_status``
    (``asked``: as :func:`_removed_parts`)."""
    entries_of = dict(forms)
    descs = []
    for form in _in_forms_order([*earlier, *entries_of], row):
        words = [_form_words(form, row)]
        if form in entries_of:
            ids = [entry.id for entry in entries_of[form]]
            words.insert(0, f"{'entry' if len(ids) == 1 else 'entries'} {joined(ids)}")
        else:
            words.append("deleted by this job's earlier delete of it")
        descs.append(f"{_label(form, row)} ({'; '.join(w for w in words if w)})")
    count = _count_words(len(descs))
    parts = [f"on the list in {count} written forms, each taken off by its own delete: "]
    parts[0] += joined(descs)
    for form, sent in results:
        if said := "; ".join(x for x in (sent.first, sent.last) if x):
            parts.append(f"{_label(form, row)}: {said}")
    done = {form for form, sent in results if sent.outcome is Outcome.REMOVED}
    if not done and not earlier:
        return RowResult(Outcome.NOT_FOUND, "; ".join(parts))
    before = [entry for _, entries in forms for entry in entries]
    parts += _removed_parts(scope, before, lead_status, leads_said, resent, asked)
    parts.append(leads_covered)
    parts.append(_left_text(row, left))
    return RowResult(Outcome.REMOVED, "; ".join(x for x in parts if x))


def _forms_left_text(
    row: JobRow, gone: list[Form], failed: Form, unknown: bool, unsent: list[Form]
) -> str:
    """What a row whose number is listed in several written forms says when the delete of
    ``failed`` ended in an error: which forms are gone (``gone``), which are still listed, and
    (``unknown``) whether ``failed`` was deleted is not known."""
    said = []
    names = [_label(form, row) for form in gone]
    if gone:
        said.append(f"{joined(names)} {'was' if len(gone) == 1 else 'were'} deleted")
    if unknown:
        said.append(f"whether {_label(failed, row)} was deleted is not known")
    still = [_label(form, row) for form in ([*unsent] if unknown else [failed, *unsent])]
    if still:
        said.append(f"{joined(still)} {'is' if len(still) == 1 else 'are'} still on the list")
    count = _count_words(len(gone) + 1 + len(unsent))
    text = f"the number was on the list in {count} written forms, each taken off by its own "
    text += f"delete: {joined(said)}"
    if unsent:
        unsent_names = joined([_label(form, row) for form in unsent])
        text += (
            f" (the delete of {unsent_names} was not sent, as the one of "
            f"{_label(failed, row)} failed)"
        )
    return text


def _say_on(error: ApiError | NotDone | Unsettled, text: str) -> None:
    """Add ``text`` to what the row of ``error`` says, wherever the runner takes it from."""
    if isinstance(error, NotDone):
        error.error.add_detail(text)
        error.said = f"{error.said}; {text}"
        if (final := error.final) is not None:
            error.final = RowResult(final.outcome, f"{final.message}; {text}", final.code)
    elif isinstance(error, Unsettled):
        error.error.add_detail(text)
    else:
        error.add_detail(text)


def _job_deletes(session: Session, job_id: str, phone: str) -> list[JournalEntry]:
    """This job's journaled deletes of ``phone`` (E.164), intents and outcomes, newest first:
    what a row sent again asks of its earlier sends."""
    return session.journal.job_writes(job=job_id, operation="dnc.delete", phone=phone)


def _deleted_forms(
    session: Session, job_id: str, row: JobRow, scope: Scope, listed: list[Form]
) -> dict[Form, bool]:
    """The written forms of ``row``'s number this job sent a delete of in ``scope`` while they
    were listed, as the change journal keeps the deletes, and that are not ``listed`` now:
    each with whether the journal has that delete's "ok" (else it has no answer recorded, or
    an error, and the form's being gone settles it)."""
    phone = e164(row.national, row.phone_code)
    target = journal_target("dnc", row.national, row.phone_code, scope)
    forms = written_forms(row.national, row.phone_code)
    entries = _job_deletes(session, job_id, phone)
    answered = {e.ref for e in entries if e.phase == "outcome" and e.outcome == "ok"}
    found: dict[Form, bool] = {}
    for entry in reversed(entries):  # oldest first
        before = entry.before or {}
        form = Form(str(before.get("phone_number", "")), str(before.get("phone_code", "")))
        if entry.phase != "intent" or entry.target != target or not before.get("entries"):
            continue
        if form.number in forms and form not in listed:
            found[form] = found.get(form, False) or entry.id in answered
    return found


def _with_forms_note(conclusion: str, earlier: Mapping[Form, bool], row: JobRow) -> str:
    """``conclusion`` of a row found gone, naming the forms when this job deleted several."""
    if len(earlier) < 2:
        return conclusion
    count = _count_words(len(earlier))
    return (
        f"{conclusion}; the change journal has this job's deletes of it in {count} written "
        f"forms, {joined([_label(f, row) for f in _in_forms_order(list(earlier), row)])}"
    )


def _settled_form_text(form: Form, row: JobRow) -> str:
    """What the journal concludes of this job's earlier delete of one form of ``row``'s number
    found gone when the row was sent again, while another form was still listed."""
    words = _form_words(form, row)
    return (
        f"the number's entry as {_label(form, row)}{f' ({words})' if words else ''} was "
        "removed by this job's earlier delete of that form, whose answer did not say it was "
        "done or was not recorded: it was no longer on the list when the row was sent again "
        "(the change journal has that delete and the entries it took)"
    )


def _listed(
    session: Session,
    form: Form,
    scope: Scope,
    stop: threading.Event | None = None,
) -> list[DncEntry]:
    """The entries a delete of ``form`` (as written, under its code) in ``scope`` takes off:
    every purpose's in a purpose scope (the service deletes them all at once), else the
    scope's own. A form with no code is searched under every code."""
    wanted = Scope.purpose("") if scope.is_purpose else scope
    query = DncQuery(scope=wanted, phone_number=form.number, phone_code=form.code)
    return list(session.api.iter_dnc(query, cancel=stop))


# How many times a removal's row looks up the number's entries left after its deletes (each
# with the client's retries) before saying its leads' cover was not checked: as often as a
# row's look-ups before its delete are tried in a run (sent, then twice more).
_COVER_TRIES = 3


def _left_entries(
    session: Session, row: JobRow, stop: threading.Event | None = None
) -> list[DncEntry]:
    """The entries of ``row``'s number left on the list, in every scope and every written
    form it may be kept in (the searches :func:`_entries` makes, with no scope): a lead
    holding the number in one form is covered by an entry of another just the same."""
    left: dict[str, DncEntry] = {}
    for search in form_searches(row.national, row.phone_code):
        query = DncQuery(phone_number=search.number, phone_code=search.phone_code)
        try:
            found = list(session.api.iter_dnc(query, cancel=stop))
        except ApiError as exc:
            # A form the service refuses holds no entry there (the row's message says so).
            if refuses_form(exc, search):
                continue
            raise
        for entry in found:
            if names_number(entry.phone_number, entry.phone_code, row.national, row.phone_code):
                left.setdefault(entry.id, entry)
    return list(left.values())


def _other_purposes(scope: Scope, entries: list[DncEntry]) -> list[str]:
    """The purposes of ``entries`` other than the one a purpose-scope row names (exactly: the
    service keeps "surveys" as another purpose than "Surveys"); none for a row naming none."""
    named = scope.purpose_text
    if not named:
        return []
    return [p for p in purpose_names(entries) if p != named]


def _purpose_refusal(
    scope: Scope, entries: list[DncEntry], asked: Mapping[str, list[int]] | None = None
) -> RowResult | None:
    """The row's result when its purpose delete must not be sent, else None. ``asked``: the
    other purposes of the number the file's other rows still to be sent ask for (purpose ->
    row numbers): a delete that takes only those and the row's own is sent (black-box B5 #4)."""
    named = scope.purpose_text
    if not named or not entries:
        # No text: every purpose was asked for. Nothing listed: the delete answers "not
        # found" (worded by the caller, including after a lost answer or a resend).
        return None
    # Exactly: the service keeps "surveys" as another purpose than "Surveys".
    others = [p for p in purpose_names(entries) if p != named]
    if not others:
        return None
    if len(others) == len(purpose_names(entries)):
        # The asked purpose is not listed; deleting would only take the other purposes.
        text = (
            f"not on the list for purpose {named!r}; the number's entries for "
            f"{'purpose' if len(others) == 1 else 'purposes'} {quote_purposes(others)} "
            "were left on the list (nothing was sent)"
        )
        return RowResult(Outcome.NOT_FOUND, text)
    asked = {p: rows for p, rows in (asked or {}).items() if p in others}
    if all(p in asked for p in others):
        return None
    return RowResult(Outcome.FAILED, other_purposes_refusal(others, asked))


@dataclass(frozen=True, slots=True)
class _LeadPlan:
    """The leads a row with a lead status sets, looked up before its deletes: ``by_form``, those
    each delete re-statuses (the service's rule, :func:`restatused_by`; a lead two deletes
    re-status is the first's in the order sent, so it is journaled and named once), and
    ``own``, the number's leads (:func:`number_leads`), each of which ends in the status: one
    that no delete done re-statused (its form not listed, or found gone) is set by its own
    ``/leads/update``."""

    by_form: dict[Form, list[Lead]]
    own: list[Lead]
    # The number's leads found outside the row's scope (a campaign's: in other campaigns'
    # lists), left as they are: named when none in it was found (black-box B5 #3).
    others: list[Lead] = field(default_factory=list)


def _lookup_leads(
    session: Session,
    row: JobRow,
    forms: Sequence[Form],
    scope: Scope,
    lead_status: str,
    stop: threading.Event | None,
) -> _LeadPlan | RowResult:
    """The leads the row's deletes of ``forms`` (in the order sent; each as the list keeps it,
    text and phone code, which is what a delete sends) will re-status and the number's own
    (:class:`_LeadPlan`), or the row's result when they cannot be looked up.

    The number's own leads are looked up as it is written with and without a trunk 0; a form
    with the country code (or exit code) in its digits, listed, by its own text (under the code
    it is kept under), the delete of it re-statusing the leads holding those digits.

    A row whose leads cannot be looked up is not sent: deleting without knowing which leads
    get re-statused (and from what status) would leave the change untraceable and not
    undoable. A refused look-up ends the row ``failed`` at once, saying so; an unanswered one
    or a 5xx sends the row again later in the run (:class:`NotDone`: nothing was deleted),
    then it is held like any unanswered row (resent on resume, else ``failed``), its message
    saying that nothing was deleted; a failing service (5xx, 429) or a refused token stops
    the job as for any row.
    """
    try:
        own, others = number_leads_apart(session.api, row.national, row.phone_code, scope, stop)
        written = set(lead_numbers(row.national, row.phone_code))
        by_form: dict[Form, list[Lead]] = {}
        seen: set[str] = set()
        for form in forms:
            if form.code == row.phone_code and form.number in written:
                leads = [lead for lead in own if restatused_by(lead, form.number, form.code)]
            else:
                leads = leads_to_restatus(session.api, form.number, form.code, scope, stop)
            by_form[form] = [lead for lead in leads if lead.id not in seen]
            seen.update(lead.id for lead in leads)
        return _LeadPlan(by_form, own, others)
    except (AuthError, RateLimitedError):
        raise
    except ServerError as exc:
        text = f"looking up the leads to set to {lead_status} (nothing was deleted): {exc.message}"
        error = ServerError(exc.endpoint, text, http_status=exc.http_status)
        raise NotDone(error, before_write=True) from exc
    except TransportError as exc:
        text = f"looking up the leads to set to {lead_status} (nothing was deleted): {exc.message}"
        unanswered = TransportError(exc.endpoint, text, timeout=exc.timeout, sent=False)
        raise NotDone(unanswered, before_write=True) from exc
    except ApiError as exc:
        code = "" if exc.code is None else str(exc.code)
        text = (
            f"not removed: the leads this removal would set to {lead_status} could not be "
            f"looked up first, so no delete was sent ({exc.describe()})"
        )
        return RowResult(Outcome.FAILED, text, code)


def _removed_parts(
    scope: Scope,
    before: list[DncEntry],
    lead_status: str,
    leads_said: str,
    resent: str,
    asked: str = "",
) -> list[str]:
    """What a removed row's message says besides how it was removed (``leads_said``: what it
    says of the leads set to ``lead_status``; ``asked``: which other rows of the file ask for
    the other purposes it took, :func:`asked_text`)."""
    parts = []
    if scope.is_purpose and (purposes := removed_purposes_text(before)):
        parts.append(purposes)
    if asked:
        parts.append(asked)
    if lead_status:
        parts.append(leads_said)
    if resent:
        parts.append(resent)
    return parts


def _earlier_leads(
    session: Session, job_id: str, row: JobRow, lead_status: str
) -> tuple[str, set[str]]:
    """What this job's earlier deletes of ``row``'s number, and the lead updates of its earlier
    send, re-statused, as their journal intents list the leads (``""`` without a lead status),
    and the ids of those leads: a row removed by those deletes names its leads as a row removed
    on the spot does (black-box pass H3: a lead set SALE→DNCREQ by a delete whose answer was
    lost went unnamed in the report). Every delete of a number listed in several forms carries
    the lead status, each listing the leads it changes (black-box B3 #1)."""
    if not lead_status:
        return "", set()
    phone = e164(row.national, row.phone_code)
    listed: dict[str, Lead] = {}
    deletes = _job_deletes(session, job_id, phone)
    updates = session.journal.job_writes(job=job_id, operation="lead.update", phone=phone)
    updated = {e.ref for e in updates if e.phase == "outcome" and e.outcome == "ok"}
    for entry in reversed([*deletes, *updates]):
        before = entry.before or {}
        if entry.phase != "intent":
            continue
        if entry.operation == "lead.update":
            if entry.id not in updated:
                continue
            kept = [before]
        elif before.get("entries"):
            kept = list(before.get("leads") or [])
        else:
            continue
        for x in kept:
            lead_id = str(x.get("id", ""))
            listed.setdefault(
                lead_id,
                Lead(lead_id, str(x.get("list_id", "")), str(x.get("status", "")),
                     "", "", "", "", "", ""),
            )  # fmt: skip
    if not listed:
        return "", set()
    leads = sorted(listed.values(), key=lambda lead: (len(lead.id), lead.id))
    text = restatus_text(leads, lead_status)
    return f"{text} (as the change journal's record of that delete lists them)", set(listed)


def _leads_with_other_row(rows: list[int], lead_status: str) -> str:
    """What a row whose entry another row's delete took says of the leads that delete set
    to ``lead_status``: they are named, counted and journaled once, on that row."""
    where = f"{'row' if len(rows) == 1 else 'rows'} {joined([str(n) for n in rows])}"
    return (
        f"its leads were set to {lead_status} by that delete and are named and counted with "
        f"{where if rows else 'the row that sent it'}, once"
    )


def _taken_for_purpose(
    session: Session, job_id: str, row: JobRow, scope: Scope, *, answered: bool = False
) -> tuple[str, list[str]] | None:
    """For a row naming a purpose whose number is gone: the purpose of this job's delete (of
    another row: a delete for another purpose, sent) that took the number's entry for the
    row's purpose, as its journal intent lists the entries it took, and those entries' ids;
    None when no such delete was sent. The service's delete in purpose scope takes every
    purpose at once, and the file asked for each (:class:`FileAsks`). ``answered``: only a
    delete whose journal outcome is "ok" counts (no look-up found the number gone)."""
    named = scope.purpose_text
    if not scope.is_purpose or not named:
        return None
    own = journal_target("dnc", row.national, row.phone_code, scope)
    prefix = journal_target("dnc", row.national, row.phone_code, Scope.purpose(""))
    entries = _job_deletes(session, job_id, e164(row.national, row.phone_code))
    unsent = {e.ref for e in entries if e.phase == "outcome" and e.outcome == "not_attempted"}
    ok = {e.ref for e in entries if e.phase == "outcome" and e.outcome == "ok"}
    for entry in reversed(entries):  # oldest first
        if entry.phase != "intent" or entry.id in unsent or entry.target == own:
            continue
        if answered and entry.id not in ok:
            continue
        if not entry.target.startswith(prefix):
            continue
        took = [x for x in (entry.before or {}).get("entries") or [] if x.get("purpose") == named]
        if took:
            return entry.target[len(prefix) :], [str(x.get("id", "")) for x in took]
    return None


def _deleted_before(session: Session, job_id: str, row: JobRow) -> bool:
    """Whether this job sent a delete of ``row``'s number (in either written form) while the
    number was listed, as the change journal keeps it: the delete's intent names the entries
    the look-up before it found. For a row sent again when the job was resumed and found
    gone, that earlier delete is what removed it."""
    # e164() names a form kept with its trunk 0 as the number itself: one query finds both.
    phone = e164(row.national, row.phone_code)
    return any(
        entry.phase == "intent" and (entry.before or {}).get("entries")
        for entry in _job_deletes(session, job_id, phone)
    )


def _checked_after_error(
    session: Session,
    row: JobRow,
    scope: Scope,
    form: Form,
    error: ApiError,
    job_id: str,
    note: str,
) -> RowResult | None:
    """After a delete ended in an error that leaves its fate open (no answer to a request
    that was sent, a 5xx, or any error after an earlier attempt got no answer saying whether
    it was done), the number is looked up again: gone means the service did the delete
    (``removed``), still listed means it did not (:class:`NotDone`: sent again later in the
    run, a few times at most, then ``failed``). The look-up is journaled as an event beside
    the delete's "failed" outcome. None when the error leaves nothing open (the row goes on
    as the error says); a look-up that fails too raises :class:`Unsettled` (the row is sent
    again later in the run)."""
    if not fate_open(error):
        return None
    # The row's own number: the form the list keeps it in may not tell it (see e164).
    phone = e164(row.national, row.phone_code)

    def journal(details: dict[str, Any]) -> None:
        target = journal_target("dnc", row.national, row.phone_code, scope)
        session.record_look_up(
            "dnc.delete.checked", target, phone, error, details, job=job_id, note=note
        )

    try:
        left = _listed(session, form, scope)
    except Cancelled:
        # The job was stopped (its requests stop, this look-up's included): the delete's fate
        # stays open, the row "sending", and the resume's look-up settles it (black-box L4 #8).
        error.add_detail(
            "the job was stopped before a look-up could tell whether the number was removed"
        )
        raise Unsettled(error) from None
    except ApiError as failed:
        journal({"look_up_error": str(failed)})
        error.add_detail(
            f"a look-up right after it failed too ({failed.message}), so whether the number "
            "was removed is not known"
        )
        # Sending the row again is safe: its look-up before the delete finds the number gone
        # (that delete was done) or still listed (deleted then), which settles it.
        raise Unsettled(error) from failed
    journal({"listed_after": [entry.id for entry in left]})
    if left:
        said = (
            f"not removed: the delete ended with an error ({error.describe()}) and a look-up "
            "right after it found the number still on the list"
        )
        # Not done, so safe to send again (its look-ups run again first): the runner sends it
        # again later in the run, a few times at most, then it ends failed.
        code = "" if error.code is None else str(error.code)
        raise NotDone(error, said, RowResult(Outcome.FAILED, said, code))
    return RowResult(
        Outcome.REMOVED,
        f"removed: the delete ended with an error ({error.describe()}), but a look-up right "
        "after it found the number gone, so the service did it",
    )


class _NumberLocks:
    """One lock per number while a row of it is being sent, so two rows of one number (a
    removal from the global list and from a campaign, with ``--per-row-scope``) are not sent
    at once. Sent at once, both looked up the number's leads before either delete, and both
    rows said a lead went NEW→CALLBK, the second untruly: by its delete the lead was CALLBK
    (black-box N3 #7b). One after the other, the second finds it CALLBK and says so, and its
    delete's journal intent lists no change of it. Rows of other numbers never wait."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        # number -> (its lock, how many rows hold or wait for it)
        self._locks: dict[str, tuple[threading.Lock, int]] = {}

    @contextmanager
    def held(self, number: str) -> Iterator[None]:
        with self._guard:
            lock, users = self._locks.get(number, (threading.Lock(), 0))
            self._locks[number] = (lock, users + 1)
        try:
            with lock:
                yield
        finally:
            with self._guard:
                users = self._locks[number][1] - 1
                if users:
                    self._locks[number] = (lock, users)
                else:
                    del self._locks[number]


def delete_note(note: str, row: JobRow) -> str:
    """The change journal's note of ``row``'s delete: the job's ``note``, then the reason the
    row's file gives for taking the number off (``"<note> (row 7: consent re-obtained)"``,
    ``"<note> (row 7)"`` without one), which was kept only in the job file (black-box B9 #3).
    The job's note comes first and unchanged, so a search for it finds every delete of the
    job."""
    reason = row.reason.strip()
    # The row is named even with no reason: kept only in the job file, outside the hash
    # chain, it was lost with that file (black-box bb5 F3).
    said = f"row {row.row_number}: {reason}" if reason else f"row {row.row_number}"
    return f"{note} ({said})" if note else said


def delete_sender(
    session: Session,
    job_id: str,
    note: str,
    lead_status: str,
    stop: threading.Event | None = None,
    *,
    resumed: bool = False,
    cancelled: threading.Event | None = None,
    asks: FileAsks | None = None,
    shared: Collection[str] = frozenset(),
    deferred: dict[int, _Deferred] | None = None,
) -> SendFn:
    """The function that sends one row of a removal job.

    ``stop`` (the job's :attr:`JobControl.stop`) cancels a row before its delete is sent (while
    it waits for its turn under the rate limit, or during its look-ups), never once the
    delete's first attempt was sent: the row is then pending again.

    With a ``lead_status``, the leads the deletes will re-status and the number's own are
    looked up just before them (:func:`_lookup_leads`), a resent row's too: each delete's
    journal intent keeps those whose status it changes (``before["leads"]``), the number's
    leads no delete re-statused are set by ``/leads/update`` after them, and the row's message
    lists them all, and the ones already in the status apart. A row whose leads cannot be
    looked up is not sent. Without a lead status no lead is looked up.

    The job's stop coming after a row's deletes and before its lead updates were sent leaves
    the row ``sending`` (:class:`Unfinished`): the resume sends it again, finds the number
    gone and sets the leads still not in the status (issue 4, S18 H1: the row ended
    ``removed`` with those leads unset, and the resume never went back for them). When the
    stop is a cancel (``cancelled``, the job's :attr:`JobControl.cancelled`), no resume will
    come: the row ends ``removed``, naming each lead not set and saying how to set it.

    ``asks``: the purposes the job's rows ask each number to be taken off for
    (:class:`FileAsks`): a row naming one purpose of a number also listed for others is sent
    when other rows still to be sent ask for each of those.

    ``shared``: the numbers the job sends several rows of (:func:`_shared_numbers`), whose
    leads said to stay listed are journaled by :func:`_settle_shared` once those rows all
    ended, ``deferred`` keeping them until then.
    """
    deferred = {} if deferred is None else deferred

    # List id -> campaign id, for still_covered (read once per run, then as lists appear).
    campaigns_of_lists: dict[str, str] = {}
    # Rows this run left Unsettled: an earlier delete of theirs may have been done.
    unsettled: set[int] = set()
    # Rows of this run a send of which deleted some of the number's written forms and then
    # failed: the next send finds fewer forms listed, and names those from the journal.
    partly: set[int] = set()
    numbers = _NumberLocks()
    # Whether this job sent a delete of a row's number in its scope before (the journal's
    # intent not ended "not_attempted"): the runner's words of a failed row ask it too.
    sent_before = journal_sent_before(session, job_id, "dnc", "dnc.delete")
    # Rows of this run whose look-up of the leads still listed the job's stop cut short.
    unchecked: set[int] = set()
    # The note of the written forms the service refused to search, by row (:func:`_entries`).
    refusals: dict[int, str] = {}

    def send(row: JobRow, resent: bool) -> RowResult:
        lost_before = row.seq in unsettled
        unsettled.discard(row.seq)
        unchecked.discard(row.seq)
        try:
            # Rows of one number (in several scopes) one at a time: each looks up the leads
            # after the other's delete, so what it says they were is what it found.
            with numbers.held(e164(row.national, row.phone_code) or row.national):
                if asks is None:
                    return noted(row, as_listed(row, send_row(row, resent, lost_before)))
                asks.sending(row)
                try:
                    return noted(row, as_listed(row, send_row(row, resent, lost_before)))
                finally:
                    # Ended, or to be sent again later: until then it asks for nothing, so
                    # a row of another purpose of the number deletes no entry this one may
                    # report as kept.
                    asks.ended(row)
        except Unfinished as exc:
            exc.result = as_listed(row, exc.result)
            raise
        except Unsettled:
            unsettled.add(row.seq)
            raise
        except NotDone as exc:
            if not (lost_before and exc.before_write):
                raise
            # This send's look-ups failed, but the earlier delete's fate is still open.
            _open_again(exc.error)
            unsettled.add(row.seq)
            raise Unsettled(exc.error) from exc
        except ApiError as exc:
            if not lost_before or isinstance(exc, AuthError):
                raise
            # A look-up before this second delete failed: the first one's fate is still open.
            _open_again(exc)
            unsettled.add(row.seq)
            raise Unsettled(exc) from exc

    def noted(row: JobRow, result: RowResult) -> RowResult:
        """``result`` saying last which written forms of the number the service refused to
        search (:func:`_entries`), once, whatever the row's outcome."""
        if not (note := refusals.pop(row.seq, "")):
            return result
        return replace(result, message="; ".join(x for x in (result.message, note) if x))

    def as_listed(row: JobRow, result: RowResult) -> RowResult:
        """``result``, saying first, of a row removed whose number is in no range in use today
        (looked up as written: sheet_check's AS_WRITTEN), that its entry was removed as listed."""
        if result.outcome is not Outcome.REMOVED or is_valid(row.national, row.phone_code):
            return result
        said = "; ".join(x for x in (REMOVED_AS_LISTED, result.message) if x)
        return replace(result, message=said)

    def settled(row: JobRow, scope: Scope, conclusion: str) -> None:
        """Journal that an earlier delete of ``row``'s number (of a killed run, or one whose
        fate a look-up could not settle) was done: its journal outcome says "unknown" or
        "failed", and no delete is sent again to say otherwise (black-box L2 #3: the evidence
        of a number removed by a killed run showed only that "unknown")."""
        session.record_settled(
            "dnc",
            "delete.settled",
            row.national,
            row.phone_code,
            scope,
            conclusion,
            job=job_id,
            note=note,
        )

    def send_row(row: JobRow, in_flight: bool, lost_before: bool) -> RowResult:
        scope = scope_from_text(row.scope)
        # The job file marks a row "sending" before its look-ups, so a kill while they ran
        # leaves one whose delete was never sent: it says it was sent on resume only when the
        # journal has a delete of it that may have been sent (black-box B3 #3: 39 rows said
        # so, 8 had been sent), and "sent again" only when one went out (B14 F2).
        resent = sent_before(row) if in_flight else ""
        forms, searched, others, unsearched = _entries(session, row, scope, stop)
        refusals[row.seq] = refused_forms_text(unsearched)
        # The forms this job deleted in an earlier send of the row, gone now (a journal read,
        # made only for a row that may have been sent before: a job's stop can come between
        # a row's deletes, leaving it pending): its message names them, and a delete of one
        # whose outcome the journal lacks is settled.
        earlier: dict[Form, bool] = {}
        if resumed or resent or lost_before or row.seq in partly:
            listed_forms = [form for form, _ in forms]
            earlier = _deleted_forms(session, job_id, row, scope, listed_forms)
        partly.discard(row.seq)
        before = [entry for _, entries in forms for entry in entries]
        if lost_before and not before:
            # Listed before this job's earlier delete, gone now: that delete was done.
            conclusion = _with_forms_note(REMOVED_BY_UNSETTLED_DELETE, earlier, row)
            settled(row, scope, conclusion)
            return gone_result(row, scope, conclusion)
        forms, left = _asked_forms(scope, forms)
        before = [entry for _, entries in forms for entry in entries]
        asked: dict[str, list[int]] = {}
        if asks is not None and (others_asked := _other_purposes(scope, before)):
            asked = asks.asked(row, others_asked)
        refused = _purpose_refusal(scope, before, asked) if scope.is_purpose else None
        if refused is not None:
            return refused
        if not before:
            if resent and _deleted_before(session, job_id, row):
                conclusion = _with_forms_note(REMOVED_BEFORE_INTERRUPTION, earlier, row)
                settled(row, scope, conclusion)
                return gone_result(row, scope, conclusion)
            if (took := _taken_for_purpose(session, job_id, row, scope)) is not None:
                # Another row's delete took this row's purpose with its own (B5 #4).
                purpose, ids = took
                rows = [] if asks is None else asks.rows_of(row, purpose)
                conclusion = taken_text(purpose, rows, scope.purpose_text, ids)
                settled(row, scope, conclusion)
                return gone_result(row, scope, conclusion, taken_by=rows)
            # Nothing to take off (nor to journal): no delete is sent, in a purpose scope too
            # (every purpose's entries were looked up). A delete sent for nothing, once under
            # faults, was "removed" by the look-up after its error finding the number gone.
            text = not_listed_text(searched, row, resent, others)
            if not resent and not is_valid(row.national, row.phone_code):
                # A number in no range in use today, looked up as written (sheet_check's
                # AS_WRITTEN): not listed, it is the invalid number the check found.
                return RowResult(Outcome.INVALID, text)
            return RowResult(Outcome.NOT_FOUND, text)
        for form, done in earlier.items():
            if not done:
                # Its delete's journal outcome says "unknown" or "failed" (or is missing, the
                # process killed), and it is not sent again to say otherwise.
                settled(row, scope, _settled_form_text(form, row))
        # Every delete carries the lead status and re-statuses the leads holding its own
        # digits; the number's leads none of them re-statuses (a form not listed) are set
        # after them (black-box B3 #1, #2). The app's form (else the first listed) goes last.
        order = [*forms[1:], forms[0]]
        plan: _LeadPlan | None = None
        if lead_status:
            # Before any delete: a row whose leads cannot be looked up is not sent at all.
            looked_up = _lookup_leads(
                session, row, [form for form, _ in order], scope, lead_status, stop
            )
            if isinstance(looked_up, RowResult):
                return looked_up
            plan = looked_up
        if len(forms) == 1 and not earlier:
            form, entries = forms[0]
            leads = None if plan is None else plan.by_form[form]
            sent = delete_form(row, scope, form, entries, leads, lead_status, resent, lost_before)
            if sent.outcome is not Outcome.REMOVED:
                return RowResult(sent.outcome, sent.first, sent.code)
            said, covered, stopped = set_leads(row, scope, plan, {form})
            parts = [
                sent.first,
                form_text(form, row),
                *_removed_parts(scope, entries, lead_status, said, resent, asked_text(asked)),
                covered,
                sent.last,
                _left_text(row, left),
                others_left_text(others),
            ]
            return finished(
                row, RowResult(Outcome.REMOVED, "; ".join(x for x in parts if x)), stopped
            )
        results: list[tuple[Form, _Sent]] = []
        for form, entries in order:
            try:
                sent = delete_form(
                    row,
                    scope,
                    form,
                    entries,
                    None if plan is None else plan.by_form[form],
                    lead_status,
                    resent,
                    lost_before,
                    named=True,
                )
            except (ApiError, NotDone, Unsettled) as exc:
                gone = [*earlier, *(n for n, s in results if s.outcome is Outcome.REMOVED)]
                if gone:
                    partly.add(row.seq)
                unsent = [n for n, _ in order[len(results) + 1 :]]
                text = _forms_left_text(row, gone, form, isinstance(exc, Unsettled), unsent)
                _say_on(exc, text)
                raise
            results.append((form, sent))
        taken = {form for form, sent in results if sent.outcome is Outcome.REMOVED}
        said, covered, stopped = ("", "", [])
        if taken or earlier:
            said, covered, stopped = set_leads(row, scope, plan, taken)
        result = _forms_result(
            row,
            scope,
            earlier,
            forms,
            results,
            left,
            lead_status,
            said,
            covered,
            resent,
            asked_text(asked),
        )
        if not others or result.outcome is not Outcome.REMOVED:
            return finished(row, result, stopped)
        message = "; ".join(x for x in (result.message, others_left_text(others)) if x)
        return finished(row, replace(result, message=message), stopped)

    def gone_result(
        row: JobRow, scope: Scope, conclusion: str, taken_by: list[int] | None = None
    ) -> RowResult:
        """A row found gone when sent again, removed by this job's earlier delete: it names
        the leads that delete and the earlier send re-statused (as the change journal has
        them) and sets the number's leads still not in the status (the send that was to set
        them may have stopped after its deletes).

        ``taken_by``: the rows whose delete for another purpose took this row's entry. Those
        rows name, count and journal the leads that delete re-statused, so this one only
        points to them (black-box bb5 F1: one lead was named on both rows, counted twice as
        still listed and journaled twice)."""
        if not lead_status:
            return RowResult(Outcome.REMOVED, conclusion)
        earlier_text, named = _earlier_leads(session, job_id, row, lead_status)
        if taken_by is not None and named:
            earlier_text = _leads_with_other_row(taken_by, lead_status)
        try:
            plan = _lookup_leads(session, row, [], scope, lead_status, stop)
        except Cancelled:
            # The number is off the list: pending again, the next send would find it so as a
            # first send and say "not on the list", its leads left unset.
            said = f"{conclusion}; {earlier_text}" if earlier_text else conclusion
            raise Unfinished(
                RowResult(Outcome.REMOVED, f"{said}; {LEADS_NOT_LOOKED_UP.format(lead_status)}"),
                LEFT_UNFINISHED.format(lead_status),
            ) from None
        if isinstance(plan, RowResult):
            # The delete was done: the row is removed, saying its leads could not be checked.
            text = plan.message.replace(
                "not removed: the leads this removal would set", "the leads this removal sets"
            )
            text = text.replace("so no delete was sent", "so none was set now")
            return RowResult(
                Outcome.REMOVED, "; ".join(x for x in (conclusion, earlier_text, text) if x)
            )
        rest = _LeadPlan({}, [lead for lead in plan.own if lead.id not in named], plan.others)
        # Those the earlier send changed are checked for cover too: its check may never have
        # run (the job stopped after its deletes).
        journaled = _journaled_leads(session, job_id, e164(row.national, row.phone_code))
        before = changed_by([x for i, x in journaled.items() if i in named], lead_status)
        if taken_by is not None:
            before = []  # checked for cover, counted and journaled by the row that took it
        said, covered, stopped = "", "", list[Lead]()
        if rest.own:
            said, covered, stopped = set_leads(row, scope, rest, set(), before)
        elif before:
            covered = covered_text(row, scope, [], before, lead_status)
        parts = (conclusion, earlier_text, said, covered)
        return finished(row, RowResult(Outcome.REMOVED, "; ".join(x for x in parts if x)), stopped)

    def finished(row: JobRow, result: RowResult, stopped: list[Lead]) -> RowResult:
        """``result`` of ``row``, whose deletes were done, ``stopped`` the leads the job's stop
        kept from being set: none, and its look-up of the leads still listed made, it is the
        row's; else the row is left for the resume (:class:`Unfinished`), or, the job
        cancelled, it names them and how to set them (the look-up not made, it counts them as
        not checked: :func:`covered_text`)."""
        check_stopped = row.seq in unchecked
        unchecked.discard(row.seq)
        if not stopped and not check_stopped:
            return result
        final = result
        if stopped:
            final = replace(result, message=f"{result.message}; {cancelled_leads_text(stopped)}")
        if cancelled is not None and cancelled.is_set():
            return final
        left = LEFT_UNFINISHED if stopped else LEFT_UNCHECKED
        raise Unfinished(final, left.format(lead_status))

    def cancelled_leads_text(stopped: list[Lead]) -> str:
        leads = sorted(stopped, key=lambda x: (len(x.id), x.id))
        named = joined([f"lead {x.id} (list {x.list_id}, {x.status})" for x in leads])
        one = len(leads) == 1
        return (
            f"not set to {lead_status}, as the job was cancelled before "
            f"{'its update was' if one else 'their updates were'} sent, so "
            f"{'it keeps its' if one else 'each keeps its'} status: {named}; set "
            f"{'it' if one else 'each'} to {lead_status} on the service (its lead update)"
        )

    def set_leads(
        row: JobRow,
        scope: Scope,
        plan: _LeadPlan | None,
        done: set[Form],
        earlier: Sequence[Lead] = (),
    ) -> tuple[str, str, list[Lead]]:
        """After the row's deletes (``done``: those that took their form off): each of the
        number's leads no done delete re-statused is set to the lead status by its own
        journaled ``/leads/update`` (one already in it is left, no request), and what the row
        says of every lead set or left, and of those the number's other entries still cover;
        last, the leads the job's stop kept from being set (none sent once it came; see
        :func:`finished`). ``("", "", [])`` without a lead status. ``earlier``: the leads an
        earlier send of the row changed, checked for cover with those of this one.

        An update that ends with no answer saying whether it was done (a timeout after it was
        sent, a 5xx, each after the client's own retries) may have set the lead: the row says
        so, not that the lead keeps its status (S18 H1b), and, as for every lead not set, to
        set it on the service."""
        if plan is None or not lead_status:
            return "", "", []
        covered_ids = {lead.id for form in done for lead in plan.by_form.get(form, [])}
        by_delete = [lead for form in done for lead in plan.by_form.get(form, [])]
        written: list[Lead] = []
        same: list[Lead] = []
        failed: list[str] = []
        unanswered: list[str] = []
        stopped: list[Lead] = []
        for lead in plan.own:
            if lead.id in covered_ids:
                continue
            if lead.status == lead_status:
                same.append(lead)
                continue
            if stopped:
                stopped.append(lead)  # the job stopped: none is sent (nor journaled) now
                continue
            try:
                # Filed under the row's number, as its deletes are, whichever field of the
                # lead holds it and however it is written there.
                session.restatus_lead(
                    lead,
                    lead_status,
                    job=job_id,
                    note=note,
                    phone=e164(row.national, row.phone_code),
                )
            except ApiError as exc:
                text = f"lead {lead.id} (list {lead.list_id}): {exc.describe()}"
                (unanswered if fate_open(exc) else failed).append(text)
                continue
            except Cancelled:
                stopped.append(lead)
                continue
            written.append(lead)
        leads = sorted([*by_delete, *written, *same], key=lambda x: (len(x.id), x.id))
        said = restatus_text(leads, lead_status, scope, plan.others, row.phone_code)
        if not_set := not_set_text(failed, unanswered, lead_status):
            said += f"; {not_set}"
        # Once, after every delete of the row and its lead updates: an entry of another form
        # the row deletes after the first is not taken to cover a lead (it is going), and one
        # in any form the number is kept in is (black-box B29 F3: a lead holding the number
        # with its country code was checked against that form's entries alone).
        changed = [*earlier, *changed_by(by_delete, lead_status), *written]
        covered = covered_text(row, scope, sorted(done), changed, lead_status)
        return said, covered, stopped

    def covered_text(
        row: JobRow, scope: Scope, deleted: list[Form], changed: list[Lead], status: str
    ) -> str:
        """Which of ``changed`` (set to ``status`` by the row's ``deleted`` forms' deletes and
        its lead updates) the number's entries left on the list, in any form it is kept in,
        still cover (:func:`covered_by`); the covered ones journaled (:func:`still_listed`).

        The look-up is tried as a row's look-ups are in a run (:data:`_COVER_TRIES` times,
        each with the client's retries); still failing, or the job stopped, ``changed`` are
        said and journaled as not checked (:func:`not_checked_sentence`), which the report
        counts and warns of with those still listed (black-box B29 F1: they were counted as
        none, while a lead in a campaign whose entry stays looked callable there). The job
        stopped first, the row is left for the resume to look them up (:func:`finished`), or,
        the job cancelled, says and journals them as not checked."""
        if not changed:
            return ""
        why = ""
        covered: list[Covered] = []
        for _ in range(_COVER_TRIES):
            try:
                left = _left_entries(session, row, stop)
                covered = covered_by(session.api, left, changed, campaigns_of_lists, stop)
                why = ""
                break
            except Cancelled:
                # Said as not checked, so a row the job's cancel ends counts them (black-box
                # B29: the row said only that they were not looked up, and no count, warning
                # or journal event had them); a pause leaves the row for the resume, which
                # finds the number gone and makes the look-up (gone_result, :func:`finished`).
                why = COVER_NOT_LOOKED_UP
                if cancelled is not None and cancelled.is_set():
                    unknown = [(lead, [NOT_CHECKED]) for lead in changed]
                    still_listed(row, scope, deleted, unknown, status, why)
                else:
                    unchecked.add(row.seq)
                return not_checked_sentence(changed, status, why)
            except (TransportError, ServerError) as exc:
                why = exc.describe()  # unanswered or failed: tried again
            except ApiError as exc:
                why = exc.describe()  # refused (a 4xx, the token, a rate limit held out)
                break
        if why:
            unknown = [(lead, [NOT_CHECKED]) for lead in changed]
            still_listed(row, scope, deleted, unknown, status, why)
            return not_checked_sentence(changed, status, why)
        if covered:
            still_listed(row, scope, deleted, covered, status)
        return still_covered_sentence(covered, status)

    def still_listed(
        row: JobRow,
        scope: Scope,
        deleted: list[Form],
        covered: list[Covered],
        status: str,
        not_checked: str = "",
    ) -> None:
        """:func:`_journal_still_listed` now, or for a number the job sends other rows of,
        once they all ended (:func:`_settle_shared`): one may take off the entry said to
        cover these leads. Kept until then with the leads as they were before."""
        if _number_key(row) in shared:
            deferred[row.seq] = _Deferred(deleted, [lead for lead, _ in covered])
            return
        args = (row, scope, deleted, covered, status, not_checked)
        _journal_still_listed(session, job_id, note, *args)

    def delete_form(
        row: JobRow,
        scope: Scope,
        form: Form,
        entries: list[DncEntry],
        leads: list[Lead] | None,
        status: str,
        resent: str,
        lost_before: bool,
        named: bool = False,
    ) -> _Sent:
        """One delete: ``form`` (one form the list keeps the row's number in) in ``scope``,
        ``status`` the lead status it sets (``""`` none). ``named``: the row has more than one
        form, so a conclusion the journal keeps names this one."""
        try:
            result = session.delete_dnc(
                form.number,
                # The code it is kept under: the service deletes by text and code.
                form.code,
                scope,
                lead_status=status or None,
                before=entries,
                # Only the leads whose status it changes: one already in it is no change.
                leads=None if leads is None else changed_by(leads, status),
                not_found_ok=True,
                job=job_id,
                note=delete_note(note, row),
                stop_before_send=stop,
                # Filed under the row's number, whatever form the list keeps it in.
                phone=e164(row.national, row.phone_code),
            )
        except ApiError as exc:
            if lost_before:
                exc.earlier_send_open = True  # that of the earlier pass: its fate is open
            checked = _checked_after_error(session, row, scope, form, exc, job_id, note)
            if checked is None:
                raise
            return _Sent(checked.outcome, checked.message, code=checked.code)
        first = ""
        if result.status is WriteStatus.NOT_FOUND:
            if entries and not result.earlier_attempt_lost:
                # Listed just before, and no attempt of this job since can have taken it.
                return contradicted(row, scope, form, result)
            if not (result.earlier_attempt_lost and entries):
                return _Sent(Outcome.NOT_FOUND, not_found_text(result, resent, bool(entries)))
            # The number was listed just before the delete and an attempt that got no answer
            # saying whether it was done came between: most likely that attempt removed it (the
            # retry found it gone). The journal's outcome is the retry's "not found": the
            # conclusion goes beside it.
            first = REMOVED_BY_LOST_ATTEMPT
            said = f"{first} (its entry as {_label(form, row)})" if named else first
            settled(row, scope, said)
        last = f"answered after {result.attempts} attempts" if result.retried else ""
        return _Sent(Outcome.REMOVED, first, last)

    def contradicted(row: JobRow, scope: Scope, form: Form, result: WriteResult) -> _Sent:
        """A delete answered "not found" for a number the look-up just before listed, with no
        attempt of this job between that may have taken it: looked up once more, and the row
        says what the service answered and what that look-up found (black-box R1 #4). The
        look-up is journaled beside the delete's "not found", as after a delete's error."""
        answer = result.message or "not found"
        if result.retried:
            answer += f"; answered after {result.attempts} attempts"
        phone = e164(row.national, row.phone_code)
        target = journal_target("dnc", row.national, row.phone_code, scope)
        error = NotFoundError("/dnc/delete", answer)
        try:
            left = _listed(session, form, scope, stop)
        except ApiError as failed:
            session.record_look_up(
                "dnc.delete.checked",
                target,
                phone,
                error,
                {"look_up_error": str(failed)},
                job=job_id,
                note=note,
            )
            # Not known whether it is still listed: the row fails, saying so (a job sends no
            # delete of a number it cannot say is listed).
            error.message = LISTED_UNKNOWN_AFTER.format(answer=answer, why=failed.describe())
            raise error from failed
        session.record_look_up(
            "dnc.delete.checked",
            target,
            phone,
            error,
            {"listed_after": [entry.id for entry in left]},
            job=job_id,
            note=note,
        )
        if not left:
            return _Sent(Outcome.NOT_FOUND, GONE_AFTER.format(answer=answer))
        said = STILL_LISTED_AFTER.format(answer=answer)
        # Not done, so safe to send again (its look-ups run again first): sent again later in
        # the run, a few times at most, then it ends failed saying so.
        raise NotDone(error, said, RowResult(Outcome.FAILED, said))

    def on_cancel(row: JobRow) -> RowResult | None:
        """A row never sent, the job cancelled: removed when a delete this job sent for another
        row of the file asking for its number's other purpose took its entry, as that delete's
        journal intent and "ok" lists it (S19 A1: it ended "not attempted", as though its
        entry were still listed); else None. No request: the journal is the evidence."""
        if asks is None or not asks.kept(row):
            return None
        scope = scope_from_text(row.scope)
        took = _taken_for_purpose(session, job_id, row, scope, answered=True)
        if took is None or not (rows := asks.rows_of(row, took[0])):
            return None
        conclusion = taken_text(took[0], rows, scope.purpose_text, took[1])
        settled(row, scope, conclusion)
        earlier = _earlier_leads(session, job_id, row, lead_status)[0] if lead_status else ""
        return as_listed(
            row, RowResult(Outcome.REMOVED, "; ".join(x for x in (conclusion, earlier) if x))
        )

    return Sender(send, sent_before, on_cancel)


def _journal_still_listed(
    session: Session,
    job_id: str,
    note: str,
    row: JobRow,
    scope: Scope,
    deleted: Sequence[Form],
    covered: Sequence[Covered],
    status: str,
    not_checked: str = "",
) -> None:
    """Journal, filed under the row's number, every lead the row's deletes (of the
    ``deleted`` forms) and lead updates made ``status`` although the number's other entries
    still list it, and their scopes (black-box B9 #1: only the row's message in the report
    said so, and a number still on a campaign's list looked callable there); or, with
    ``not_checked`` saying why, those whose cover could not be looked up. A read's finding,
    so an event beside the delete's outcome; the report counts such rows from their
    messages."""
    session.journal.record_event(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation=STILL_LISTED_EVENT,
        target=journal_target("dnc", row.national, row.phone_code, scope),
        phone=e164(row.national, row.phone_code),
        job=job_id,
        note=note,
        details={
            "row": row.row_number,
            "lead_status": status,
            "deleted": [{"phone_number": f.number, "phone_code": f.code} for f in deleted],
            **({"not_checked": not_checked} if not_checked else {}),
            "leads": [
                {
                    "id": lead.id,
                    "list_id": lead.list_id,
                    "status_before": lead.status,
                    "still_listed_by": scopes,
                }
                for lead, scopes in covered
            ],
        },
    )


@dataclass(frozen=True, slots=True)
class _Deferred:
    """A row's leads set to the lead status and said to stay listed (or not checked), whose
    journal event waits for the job's other rows of the number: the forms its deletes took
    off and the leads, with the status each had before."""

    deleted: list[Form]
    leads: list[Lead]


def _journaled_leads(session: Session, job_id: str, phone: str) -> dict[str, Lead]:
    """The leads this job's deletes and lead updates of ``phone`` changed, as the change
    journal's intents list them, each with the status it had before the first."""
    deletes = _job_deletes(session, job_id, phone)
    updates = session.journal.job_writes(job=job_id, operation="lead.update", phone=phone)
    leads: dict[str, Lead] = {}
    for entry in reversed([*deletes, *updates]):  # oldest first: the status it had first
        if entry.phase != "intent":
            continue
        before = entry.before or {}
        kept = [before] if entry.operation == "lead.update" else list(before.get("leads") or [])
        for x in kept:
            lead_id = str(x.get("id", ""))
            leads.setdefault(
                lead_id,
                Lead(lead_id, str(x.get("list_id", "")), str(x.get("status", "")),
                     "", "", "", "", "", ""),
            )  # fmt: skip
    return leads


def _shared_numbers(store: JobStore) -> set[str]:
    """The numbers (:func:`_number_key`) of which the job sends more than one row (with
    ``--per-row-scope``, a number's global and campaign rows)."""
    seen: set[str] = set()
    shared: set[str] = set()
    for row in _sent_rows(store):
        key = _number_key(row)
        (shared if key in seen else seen).add(key)
    return shared


def _sent_rows(store: JobStore) -> Iterator[JobRow]:
    """The job's rows to send or sent: not those staging ended (invalid, blank, duplicate)."""
    staged = {Outcome.INVALID.value, Outcome.DUPLICATE.value, Outcome.BLANK.value}
    return (row for row in store.rows() if row.outcome not in staged)


def _settle_shared(
    store: JobStore,
    session: Session,
    shared: set[str],
    deferred: Mapping[int, _Deferred],
) -> bool:
    """Decide, once every row of a number the job sends several rows of has ended, which
    leads its rows said stay listed (or were not checked) still do: a later row of the job
    may have taken off the entry said to cover them (black-box B29 F2: a global row, then the
    number's campaign row, left "stays on the DNC list through its other entry (Campaign
    1006)", counted and journaled, though the job had removed that entry). Each row's
    message says what is found now, and its journal event is recorded then, once (on
    ``--resume`` too: a row's leads not kept from an earlier run are read from the
    journal's intents). A look-up failing leaves the row as it said. Whether a message
    changed: the report is to be written again."""
    meta = store.meta()
    job_id, note, status = (
        str(meta["job_id"]),
        str(meta.get("note", "")),
        str(meta.get("lead_status", "")),
    )
    events = session.journal.query(operation=STILL_LISTED_EVENT, job=job_id, limit=100000)
    journaled = {(e.after or {}).get("row") for e in events}
    groups: dict[str, list[JobRow]] = {}
    for row in _sent_rows(store):
        if (key := _number_key(row)) in shared:
            groups.setdefault(key, []).append(row)
    campaigns_of_lists: dict[str, str] = {}
    changed = False
    for rows in groups.values():
        if any(row.state != RowState.DONE.value for row in rows):
            continue  # some still to be sent (a paused job): decided when they end
        for row in rows:
            found = still_listed_in(row.message)
            if not found.leads or row.row_number in journaled:
                continue
            scope = scope_from_text(row.scope)
            kept = deferred.get(row.seq)
            if kept is not None:
                leads, deleted = kept.leads, kept.deleted
            else:
                known = _journaled_leads(session, job_id, e164(row.national, row.phone_code))
                leads = [_named_lead(text, known) for text in found.named]
                deleted = []
            try:
                left = _left_entries(session, row)
                covered = covered_by(session.api, left, leads, campaigns_of_lists)
            except (ApiError, Cancelled):
                said = [(lead, found.scopes) for lead in leads]
                _journal_still_listed(session, job_id, note, row, scope, deleted, said, status)
                continue
            if covered:
                _journal_still_listed(session, job_id, note, row, scope, deleted, covered, status)
            if found.leads > len(leads):
                continue  # more leads than it names, none kept: its words stay
            message = with_still_listed(row.message, still_covered_sentence(covered, status))
            if message != row.message:
                store.mark_done(row.seq, Outcome(row.outcome), message, row.code)
                changed = True
    if changed:
        store.flush()
    return changed


_LEAD_NAMED = re.compile(r"lead ([^ ]+) \(list ([^)]*)\)")


def _named_lead(text: str, known: Mapping[str, Lead]) -> Lead:
    """The lead a message names as ``text`` ("lead 7 (list 1006)"), with its status before
    as the journal has it."""
    found = _LEAD_NAMED.fullmatch(text)
    lead_id, list_id = (found.group(1), found.group(2)) if found else (text, "")
    return known.get(lead_id) or Lead(lead_id, list_id, "", "", "", "", "", "", "")


def run_removal(
    store: JobStore,
    session: Session,
    *,
    concurrency: int = 8,
    control: JobControl | None = None,
    progress: Callable[[JobProgress], None] | None = None,
) -> JobStatus:
    meta = store.meta()
    lead_status = str(meta.get("lead_status", ""))
    shared = _shared_numbers(store) if lead_status else set()
    deferred: dict[int, _Deferred] = {}
    send = delete_sender(
        session,
        str(meta["job_id"]),
        str(meta.get("note", "")),
        lead_status,
        control.stop if control is not None else None,
        # Set once a run started: a row of this run may have been sent by an earlier one.
        resumed=bool(meta.get("started")),
        cancelled=control.cancelled if control is not None else None,
        asks=FileAsks(store.rows()),
        shared=shared,
        deferred=deferred,
    )
    status = execute(
        store, session, send, concurrency=concurrency, control=control, progress=progress
    )
    if shared and _settle_shared(store, session, shared, deferred):
        write_job_report(store)
    return status


def count_numbers(settings: JobSettings) -> int:
    """How many rows of ``settings.file`` carry something in the phone column, below the header.

    Read before a bulk removal is confirmed, so a person removing more than a hundred
    numbers can be asked to type the count, as for a removal picked in the list view. The sheet
    and the phone column are the ones the removal will use: :func:`open_mapped` with the same
    settings (``sheet``, ``phone_column``, ``phone_code``), so the count is of the rows it
    sends. A file with no phone column counts 0 (staging it gives the reason).
    """
    try:
        # The count needs no warnings about other sheets, so they are not read.
        source, mapping = open_mapped(
            settings.file.expanduser().resolve(), settings, probe_others=False
        )
    except MappingError:
        return 0
    with source:
        column = mapping.phone
        if column is None:
            return 0
        first_data_row = (mapping.header_row or 0) + 1
        # Hidden rows are left on the list unless included: they are not counted either. The
        # reader knows whether a row is hidden by the time it hands the row out.
        hidden = None if settings.include_hidden else source.notes.hidden_rows
        count = 0
        for number, cells in source.iter_rows():
            if number < first_data_row or column >= len(cells):
                continue
            if hidden and number in hidden:
                continue
            value = cells[column]
            if value is not None and str(value).strip():
                count += 1
        return count
