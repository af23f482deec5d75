"""The xlsx report of an import or removal job: a Summary sheet and a Rows sheet.

Written from the job file alone, so a resumed job (or the GUI's job list) can rewrite it at any
time. Phone numbers are text cells and every cell passes :mod:`app.core.xlsx_safe`.

A row's business days run from its request date to its insertion, or to today for a row not
honoured (not sent, invalid, failed): an invalid row whose number is valid keeps its request
date and lateness, and counts among the late requests, which the Summary then says; one whose
number is not one keeps its date, what the file said, with no business days. A request
dated after that day has no business days (the column is empty; the row's note says why). The
Summary's Sheet of a text file (CSV, TSV, TXT) is "(text file)", which has no sheets. The
Summary counts the rows whose phone cell a spreadsheet had damaged (:data:`DAMAGED`, stored in
the job's meta when the file was checked), whose Damage note says what was done with each.
A removal's Summary counts, when there are any, its valid rows whose number is in no number
range in use today, looked up as written (:data:`VALID_AS_WRITTEN`, stored in the job's meta):
they are sent, and end invalid unless the list holds them (black-box V4 #1).

Already-present rows whose number's first day on the list a look-up could not tell are counted
to a later day than they may have been honoured on; the report puts a sentence saying how many
(and how many of the late requests), naming the first rows, among the job meta's ``warnings``,
which the Summary and the CLI's notes and ``--json`` ``warnings`` show
(:func:`unchecked_sentence`). A removal with a lead status counts the leads the service
re-statused although their number stays on the DNC list through another entry, as the rows'
messages name them (:class:`StillListed`): the Summary's count, the job meta's
(:data:`LEADS_STILL_LISTED`) and a sentence among its ``warnings`` naming the first rows and
leads (black-box B9 #1).

An import row's Scope names the purpose its insert carries, sent or to send, when its scope
does not (``global, purpose 'Fundraising'``; :func:`scope_shown`): a global or campaign row's
Purpose cell is written to the service too (re-test R1 #4). In the Scope cell, not a column of
its own, so the columns keep their places for whoever reads them by position.

A job that reads reasons (a reason column, or a default ``--reason``: :func:`reads_reasons`)
has one more column in its Rows sheet, after all the others: Reason, the reason each row is
sent with (:func:`reason_sent`): an import row's, the entry's; a removal row's, the one its
file gives for taking it off, which the change journal's note of its delete carries too
(black-box B9 #3: it was only in the job file; B10 #8: a dry run did not show a reason an
encoding had garbled). Last, and only then, so the columns before it keep their places, from
the left and from the right, for whoever reads them by position.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.api.errors import code_info
from app.core.job_store import JobRow, JobStatus, JobStore, Outcome, RowState
from app.core.lead_lookup import NOT_CHECKED, still_listed_in
from app.core.paths import utf8_text
from app.core.sheet_check import (
    RowList,
    blank_row_message,
    looked_up_as_written,
)
from app.core.sheet_dates import (
    LATE_SENTENCE,
    LIMIT_BUSINESS_DAYS,
    business_days_between,
    late_sentence,
)
from app.core.sheet_mapping import REPORT_HEADER_START
from app.core.sheet_scope import EVERY_PURPOSE_WRITTEN
from app.core.staging_notes import (
    UNCHECKED_DATE_ROWS,
    UncheckedDates,
    unchecked_dates_said,
)
from app.core.xlsx_safe import SafeWorkbook

# The first seven are what tells a DNC Desk report when one is read back (sheet_mapping).
ROW_COLUMNS = (
    *REPORT_HEADER_START,
    "Damage note",
    "Request date",
    "Business days to insertion",
    "Late",
)
# A removal's Rows sheet: it reads no request date and honours no request, so it has no
# Request date, business days to insertion or lateness (an always-empty column misled).
REMOVAL_COLUMNS = ROW_COLUMNS[: ROW_COLUMNS.index("Damage note") + 1]
# Last in either, in a job that reads reasons (reads_reasons), with its width.
REASON_COLUMN = "Reason"
_REASON_WIDTH = 40
SHEET_ROW_LIMIT = 1_048_575  # data rows under the header
# A run of this many blank rows or more is one line of the Rows sheet ("202–1048575"): a stray
# value far below a sheet's data (a key pressed in A1048576) made a million of them, an 18 MB
# report that took a minute to write and that nobody could scroll to the row after them. A
# shorter run is listed row by row, where a blank row among numbers may be a number deleted.
BLANK_RUN_LINE = 100
log = logging.getLogger(__name__)
_WIDTHS = (10, 22, 16, 10, 30, 18, 60, 50, 12, 12, 8)
# Kept text when re-typed in Excel (no lost leading zero, no 2.02555E+09): the cell as the
# file had it (written as text) and the normalized number.
_TEXT_COLUMNS = (ROW_COLUMNS.index("Original value"), ROW_COLUMNS.index("Normalized number"))
# Rows whose number is on (or, for removals, off) the list: the request has been honoured.
_HONOURED = {Outcome.INSERTED.value, Outcome.ALREADY_PRESENT.value, Outcome.REMOVED.value}
# Rows an import measures to the day an entry put their number on the list (``honoured_on``).
_MEASURED_TO_ENTRY = {Outcome.ALREADY_PRESENT.value, Outcome.INSERTED.value}
# Import rows whose insert was sent, or is to be ("" for a pending or dry-run row): the rows
# whose purpose the report shows (:func:`purpose_sent`).
_SENDS_PURPOSE = {
    Outcome.INSERTED.value,
    Outcome.ALREADY_PRESENT.value,
    Outcome.FAILED.value,
    Outcome.NOT_ATTEMPTED.value,
    "",
}
# Rows whose insert or delete was sent, or is to be: the rows whose reason the report shows.
_SENDS_REASON = _SENDS_PURPOSE | {Outcome.REMOVED.value, Outcome.NOT_FOUND.value}

# What an import row ending ``already_present`` says when its number may be on the list by
# this job's own doing, not from before the job (see app.core.import_job): each names an
# attempt of this job that may have inserted it. Kept here, where the rows are counted, as the
# texts stored in job files: changing one would stop older files' rows being counted.
RESENT_PRESENT = (
    "sent again when the job was resumed; the list already had it (most likely from the first send)"
)
# RESENT_PRESENT as job files written before 2026-11-23 hold it (it said "interrupted" of a job
# the app had paused itself too).
RESENT_PRESENT_BEFORE = (
    "sent again after the job was interrupted; the list already had it "
    "(most likely from the first send)"
)
# An earlier attempt got no answer saying whether it was done (a timeout, a dropped connection,
# a 5xx, an answer that is not the API's JSON), then the retry found the number listed: that
# attempt may have inserted it.
RETRIED_PRESENT = (
    "on the list when the request was retried; an earlier attempt got no answer saying whether "
    "it was done, so that attempt may have inserted it"
)
# RETRIED_PRESENT as job files written before 2026-11-24 hold it (it said every such attempt's
# answer was lost, of a 500 or an "OK" body too: black-box R1 #2).
RETRIED_PRESENT_BEFORE = (
    "on the list when the request was retried; the answer to an earlier attempt was lost, "
    "so that attempt may have inserted it"
)
# The insert ended in an error that leaves its fate open (its answer lost, a 5xx), and a
# look-up right after it found the number listed.
FOUND_AFTER_ERROR = (
    "on the list: the insert ended with an error, and a look-up right after it found the "
    "number listed, so an attempt of this job may have inserted it"
)
# RESENT_PRESENT of a row whose earlier insert the change journal holds no sign of having left
# the process (the app killed after journaling it, before its request went out, waiting on the
# rate limit, say: black-box B14 F2): "from the first send" would claim a request that may
# never have been made. An entry that came after the job started is most likely that attempt's.
RESUMED_PRESENT = (
    "sent when the job was resumed (an earlier attempt, interrupted, may have reached the "
    "service); the list already had it (most likely from that interrupted attempt, which would "
    "then have reached the service)"
)
MAYBE_INSERTED_TEXTS = (
    RESENT_PRESENT,
    RESUMED_PRESENT,
    RESENT_PRESENT_BEFORE,
    RETRIED_PRESENT,
    RETRIED_PRESENT_BEFORE,
    FOUND_AFTER_ERROR,
)
# The job meta's (and job summary's) count of those rows.
MAYBE_INSERTED = "already_present_maybe_inserted"
MAYBE_INSERTED_LABEL = (
    "already_present: of which may have been inserted by this job (an attempt got no answer "
    "saying whether it was done, or the insert ended in an error)"
)
# What an import row ending ``already_present`` says when a look-up of when its number was
# first on the list failed (see app.core.import_job): it is counted to the day the job found
# the number, or, the other look-up having failed, to the later entry found. Kept here, as the
# texts stored in job files, where such rows are counted (:func:`unchecked_sentence`).
FIRST_LISTED_UNCHECKED = "when the number was first on the list could not be checked"
EARLIER_UNCHECKED = "whether an earlier entry put the number on the list could not be checked"
UNCHECKED_TEXTS = (FIRST_LISTED_UNCHECKED, EARLIER_UNCHECKED)
# Why a look-up made for a row's lateness was not made: the job's stop cut it short. A resume
# makes it (JobStore.set_recheck), so such rows are counted apart from failed look-ups
# (:func:`stopped_sentence`).
LOOK_UP_STOPPED = "the look-up was stopped with the job"
# The job meta's counts of those rows, of them the late requests, and the sentence the report
# put among the job's warnings (replaced when the report is written again).
PRESENT_UNCHECKED = "already_present_unchecked"
LATE_UNCHECKED = "late_requests_unchecked"
UNCHECKED_NOTE = "unchecked_note"
# The rows a sentence names before "and N more".
_ROWS_NAMED = 5
# A dry run counts a request late to today: it does not look the numbers up, and a number the
# list already holds counts to the day it was first listed, so a real run may count fewer
# (black-box B4 #1: a dry run's 2 late requests were 1 when the file ran).
DRY_RUN_LATE_LABEL = "Late requests in a dry run"
DRY_RUN_LATE_NOTE = (
    "counted to today; a number already on the list is late only to the day it was first "
    "listed, which a real run looks up, so it may count fewer"
)
# A removal's valid rows whose number is in no number range in use today, looked up as
# written (sheet_check.looked_up_as_written): the job meta's count (the CLI's ``--json`` key),
# and the Summary's label and the CLI's words for them (black-box V4 #1: a dry run said
# "invalid: 0" of rows a real run makes invalid unless the list holds them).
VALID_AS_WRITTEN = "valid_as_written"
AS_WRITTEN_SAID = (
    "not a valid number today, looked up as written: removed if the list holds it, else invalid"
)
VALID_AS_WRITTEN_LABEL = (
    "Valid rows whose number is not valid today, looked up as written: removed if the list "
    "holds it, else invalid"
)
# The late requests on invalid rows, which are not sent: the job meta's count and its label.
LATE_INVALID = "late_requests_invalid"
LATE_INVALID_LABEL = (
    f"Requests later than {LIMIT_BUSINESS_DAYS} business days: of which on invalid rows (not sent)"
)
# What an already-present row says when its verdict is counted to its entry's day on the
# service's clock, whose zone no entry this job inserted could tell, and a day either way
# would change it (app.core.import_job.SERVICE_DAY_UNSURE): the job meta's (and JSON's) count
# of those of them among the late requests, and the Summary's label for it (black-box B32).
SERVICE_ZONE_UNKNOWN = "'s date is the service's, whose time zone the spec does not give"
LATE_NOT_CERTAIN = "late_requests_not_certain"
LATE_NOT_CERTAIN_LABEL = (
    f"Requests later than {LIMIT_BUSINESS_DAYS} business days: of which not certain (counted "
    "to an entry's day by the service's clock, whose time zone is not known)"
)
# The rows of any outcome whose phone cell a spreadsheet had damaged (a lost leading 0, a
# decimal comma, digits past 15: CheckSummary.damaged), as staging counted them: the job meta's
# count, which the Summary, the CLI's text and its ``--json`` show (black-box P2 #4: the
# Damage note column alone left a reader to count them). A job file without it (made before
# the count was kept) shows none.
DAMAGED = "damaged"
DAMAGED_LABEL = "Phone cells damaged by a spreadsheet (see the Damage note column)"
# A removal with a lead status: the leads the service re-statused although the number stays on
# the DNC list through its other entries (a global removal sets a lead in a campaign whose own
# entry stays: lead_lookup.still_covered), which make a number still listed look callable
# unless the status is a DNC status (LEAD_STATUS_DNC)
# (black-box B9 #1: said only in the row's message). Counted from the rows' messages
# (lead_lookup.still_listed_in): the job meta's count (the CLI's ``--json`` key), the Summary's
# label, and the sentence the report puts among the job's ``warnings`` (replaced when the
# report is written again), which the Summary, the CLI's stderr and ``--json`` show.
LEADS_STILL_LISTED = "leads_still_listed"
STILL_LISTED_LABEL = (
    "Leads set to the lead status although the number stays on the DNC list through its other "
    "entries (check their status)"
)
STILL_LISTED_NOTE = "still_listed_note"
# The job meta's flag of whether the removal's lead status is a DNC status on the service
# (``/status/search``'s ``dnc``), kept when staging checked the status: a lead set to one does
# not look callable while its number stays listed, so the warning does not say it does
# (black-box bb15). A job file without it (staged before it was kept, or by a dry run without a
# connection) reads as before.
LEAD_STATUS_DNC = "lead_status_dnc"
# The leads named for each row in that sentence before "and N more".
_LEADS_NAMED = 3


def _date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10]) if text else None
    except ValueError:
        return None


def local_day(stamp: str) -> dt.date | None:
    """The day, on this computer's clock, of ``stamp`` (a UTC time as the job file and the
    change journal write it, ``2026-11-25 03:10:00`` or ``2026-11-25T03:10:00.000000Z``): a
    row's insertion day, as the request dates it is compared with are read in this computer's
    time zone (black-box B28 F1: west of UTC, rows inserted in the evening were counted to
    the next day, a day late). A stamp without a time is its own day."""
    if len(stamp) <= 10:
        return _date(stamp)
    try:
        when = dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return _date(stamp)
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.astimezone().date()


def request_day(row: JobRow) -> dt.date | None:
    """The day of ``row``'s request as :func:`lateness` reads it; None without one."""
    return _date(row.request_date)


def lateness(
    request_date: str, done_at: str, outcome: str, honoured_on: str = ""
) -> tuple[int | None, bool]:
    """Business days from the consumer's request to insertion, and whether past the limit.

    A row not honoured yet is measured against today, so an unsent late row still shows late.
    A duplicate row is neither: its number is honoured (and measured) on its first row, as
    the check counts it, so a late number is counted once. An already-present row with
    ``honoured_on`` (the day its number was first on the list, see
    :func:`app.core.import_job.insert_sender`) is measured to that day, and one listed on or
    before the request's day was honoured at once: 0 days. So is an inserted campaign or
    purpose row with ``honoured_on``: the day a global entry, which covers its campaign or
    purpose too, was on the list before its insertion (black-box N3 #1).
    """
    received = _date(request_date)
    if received is None or outcome == Outcome.DUPLICATE.value:
        return None, False
    listed = _date(honoured_on) if outcome in _MEASURED_TO_ENTRY else None
    if listed is not None and listed <= received:
        return 0, False
    inserted = listed or (local_day(done_at) if outcome in _HONOURED else None)
    end = inserted or dt.date.today()
    if received > end:
        # No count of days (its note says so). Compared as dates: the Saturday after a Friday
        # insertion has no business day between them, yet is after it (black-box Q3 #1).
        return None, False
    days = business_days_between(received, end)
    return days, days > LIMIT_BUSINESS_DAYS


def row_lateness(row: JobRow) -> tuple[int | None, bool]:
    """:func:`lateness` of ``row``; none for an invalid row whose number is not one (no
    normalized number): its request date is what the file said (black-box Q3 #6), but there
    is no number to honour the request for, so it is not counted, as the check does not."""
    if row.outcome == Outcome.INVALID.value and not row.national:
        return None, False
    return lateness(row.request_date, row.done_at, row.outcome, row.honoured_on)


# The check's note of a request date after the day it checked the file (its "insertion
# date"; app.core.sheet_check), and the outcomes whose rows then count business days to the
# day they ended (an already-present one's, the import's words say).
AFTER_INSERTION_NOTE = re.compile(re.escape("the request date is after the insertion date"))
_COUNTED_WHEN_SENT = (Outcome.INSERTED, Outcome.ALREADY_PRESENT)


def settled_message(row: JobRow, outcome: Outcome, done: dt.date) -> str:
    """``row``'s staged message with its late-request sentence made true of how it ended on
    ``done``.

    Staging counts a late request to the day the file was checked ("…, when the file was
    checked"); rows are sent later, on a resume days later. An inserted row says how many
    business days before that day it was honoured, and a row the check did not find late but
    is late when it ends says so too. A row not honoured
    (failed, not attempted) keeps the check's sentence. The staged message is returned
    unchanged for a row with no request date.

    A row found on the list has the check's sentence taken out and none put in: how late its
    request was depends on when the number was first on the list, which only a look-up of its
    entries tells, so the import's own words for the row say it
    (:func:`app.core.import_job.insert_sender`; black-box L3 #1: numbers listed years before
    their requests were counted late to the day the job found them).

    An inserted row measured to an entry from before its insertion keeps the sentence counting
    to its insertion here: ``row`` is the job file's row as the runner took it up, before the
    send set its ``honoured_on``. The report leaves that sentence out (:func:`message_shown`).
    """
    staged = row.message
    received = _date(row.request_date)
    if received is None:
        return staged
    after = AFTER_INSERTION_NOTE.search(staged)
    if after is not None and received <= done and outcome in _COUNTED_WHEN_SENT:
        # After the day the file was checked, not after the day it ended (a resume days
        # later): it has its business days now, so its note no longer holds (B28 F4).
        staged = _without(staged, after, row.row_number)
    days = business_days_between(received, done)
    late = days > LIMIT_BUSINESS_DAYS
    found = LATE_SENTENCE.search(staged)
    if outcome is Outcome.INSERTED:
        before = f"its insertion on {done:%Y-%m-%d}"
    elif outcome is Outcome.ALREADY_PRESENT:
        late, before = False, ""  # the import's words for the row say it (see above)
    elif found is not None or not late:
        return staged
    else:
        before = f"{done:%Y-%m-%d}, when this row ended without being inserted"
    sentence = late_sentence(received, days, before) if late else ""
    if found is None:
        if not sentence:
            return staged
        return f"{staged}; {sentence}" if staged else f"row {row.row_number}: {sentence}"
    if sentence:
        return f"{staged[: found.start()]}{sentence}{staged[found.end() :]}"
    # No longer late (a clock set back), or found on the list (see above): the sentence goes.
    return _without(staged, found, row.row_number)


# The parts of staging_notes.unchecked_dates_sentence, each naming its rows (rows_named).
_NAMED = r"rows? [^()]*"
_UNREAD_PART = re.compile(
    rf"(?:1 row's request date|[\d,]+ rows' request dates) could not be read \(({_NAMED})\)"
)
_AFTER_PART = re.compile(
    rf"(?:1 row's request date|[\d,]+ rows' request dates|[\d,]+) (?:is|are) after the "
    rf"insertion date \(({_NAMED})\)"
)
_UNDATED_PART = re.compile(rf"(?:1 row has|[\d,]+ rows have) no request date \(({_NAMED})\)")


def _rows_read(named: str) -> RowList | None:
    """The rows staging_notes.rows_named wrote as ``named`` ("rows 7, 8, …, 16 and 5 more");
    None when it is not a list of rows."""
    items = re.split(r", | and ", named.split(" ", 1)[1])
    more = items.pop().split()[0] if items[-1].endswith(" more") else "0"
    if not all(item.isdigit() for item in items) or not more.replace(",", "").isdigit():
        return None
    first = [int(item) for item in items]
    return RowList(len(first) + int(more.replace(",", "")), first)


def _part(pattern: re.Pattern[str], warning: str) -> RowList | None:
    found = pattern.search(warning)
    return _rows_read(found.group(1)) if found is not None else RowList()


def after_dates_revised(warning: str, after: RowList) -> str | None:
    """The check's warning on request dates whose limit was not checked
    (:func:`~app.core.staging_notes.unchecked_dates_sentence`) with its rows after the
    insertion date made ``after`` ("" when no row is left in it), or None when ``warning`` is
    not that sentence naming such rows.

    It is written when the file is checked; a row dated after that day and inserted on or
    after its date (a resume days later) has its business days, and its note goes
    (:func:`settled_message`), so the warning must not name it (black-box B28 F4). The other
    parts are read back from the sentence, which is taken for it only when they write it
    again word for word.

    Only for a job file staged before staging kept the sentence's rows
    (:data:`~app.core.staging_notes.UNCHECKED_DATE_ROWS`), which the report says it again
    of."""
    unread, future, undated = (
        _part(p, warning) for p in (_UNREAD_PART, _AFTER_PART, _UNDATED_PART)
    )
    if unread is None or future is None or undated is None:
        return None
    rows = UncheckedDates(unread, future, undated)
    if not future.count or unchecked_dates_said(rows) != warning:
        return None
    rows.after = after
    return unchecked_dates_said(rows)


def without_after_note(message: str, row_number: int) -> str:
    """``message`` (row ``row_number``'s) without the check's note that its request date is
    after the insertion date (:data:`AFTER_INSERTION_NOTE`), if any."""
    found = AFTER_INSERTION_NOTE.search(message)
    return message if found is None else _without(message, found, row_number)


def _without(message: str, found: re.Match[str], row_number: int) -> str:
    """``message`` without the sentence ``found``, and its separator; "" when only the row's
    "row N: " would be left."""
    head, tail = message[: found.start()], message[found.end() :]
    if head.endswith("; "):
        head = head[:-2]
    elif tail.startswith("; "):
        tail = tail[2:]
    rest = f"{head}{tail}"
    return "" if rest == f"row {row_number}: " else rest


# The sentence :func:`settled_message` gives an inserted row, counting to its insertion.
_INSERTION_SENTENCE = re.compile(
    r"request received \d{4}-\d{2}-\d{2}, \d+ business days before its insertion on "
    r"(\d{4}-\d{2}-\d{2}) \(limit \d+\)"
)


def message_shown(row: JobRow) -> str:
    """``row``'s message as the report writes it: an inserted row measured to another day
    than its insertion (``honoured_on``: a global entry older than its insertion honoured its
    campaign or purpose row's request) loses the sentence counting to its insertion, which
    its own words measuring it to that entry contradict (re-test R1 #5: "14 business days
    before its insertion … (limit 10); on the list since 2023-06-08 (global entry 1), before
    the request was received: not late").

    Done here, from the job file, as ``honoured_on`` is set when the row is sent, after the
    runner took the row up and before :func:`settled_message` counts it to its insertion."""
    message = row.message
    if row.outcome != Outcome.INSERTED.value or not row.honoured_on:
        return message
    found = _INSERTION_SENTENCE.search(message)
    if found is None or found.group(1) == row.honoured_on[:10]:
        return message
    return _without(message, found, row.row_number)


def purpose_sent(row: JobRow) -> str:
    """The purpose an import row's insert carries (sent, or to send), as
    :func:`app.core.import_job.insert_sender` sends it: its own (a Purpose cell, ``--purpose``)
    or its purpose scope's; "" for a row not sent (invalid, blank, a duplicate, which may name
    another purpose than the row that is sent)."""
    if row.outcome not in _SENDS_PURPOSE:
        return ""
    if row.purpose:
        return row.purpose
    scope = row.scope.strip()
    return scope.removeprefix("purpose:") if scope.startswith("purpose:") else ""


def reads_reasons(meta: Mapping[str, Any]) -> bool:
    """Whether the job's rows carry reasons: its file has a reason column, or it has a
    default reason (``--reason``), the only places a row's reason comes from."""
    return bool(meta.get("reason")) or "reason" in (meta.get("mapping") or {})


def reason_sent(row: JobRow) -> str:
    """The reason a row is sent with (sent, or to send): an import row's, the entry's reason
    (its cell, else the job's ``--reason``, as staging stored it, cut to the service's
    limit), or a removal row's, the reason its file gives, which its delete's journal note
    carries; "" for a row not sent (invalid, blank, a duplicate, which may give another
    reason than the row that is sent), as :func:`purpose_sent` says no purpose of it."""
    return row.reason if row.outcome in _SENDS_REASON else ""


# What a pending row says when its request was sent and not settled before the job stopped
# (it is "sending" in the job file): no answer came, or an error did and the look-up that would
# have told whether it was done failed too. It may have been done; a resume settles it.
SENT_NO_ANSWER = (
    "sent before the job stopped and not settled (no answer came, or the service failed it and "
    "a look-up could not tell whether it was done): whether it was done is not known until the "
    "job is resumed, which settles it"
)


# The job meta's rows (seq as text -> what the row says) whose write the service answered by
# refusing the token, so nothing was done: pending again, for the resume to send (the runner
# writes it when the token is refused mid-run, and clears it when the job runs again).
TOKEN_REFUSED_ROWS = "token_refused_rows"  # noqa: S105
# The same for rows the service refused with HTTP 429 for its rate limit, pending when the job
# stopped (the runner writes it when a run ends paused, and clears it when the job runs again).
RATE_LIMITED_ROWS = "rate_limited_rows"


def unsent_said(meta: Mapping[str, Any]) -> dict[str, str]:
    """What the job's pending rows say of their last send (seq as text -> text): the token
    refused, or the service's rate limit (re-test U1 #9: such rows said nothing)."""
    return {**(meta.get(RATE_LIMITED_ROWS) or {}), **(meta.get(TOKEN_REFUSED_ROWS) or {})}


def _unsent_message(row: JobRow, refused: Mapping[str, str] | None = None) -> str:
    """A pending row's message: its staged note, and whether its request was sent (and, when
    the service refused the token for it, or refused it for its rate limit, that: black-box
    R1 #7, re-test U1 #9)."""
    said = (refused or {}).get(str(row.seq), "")
    if row.state != RowState.SENDING.value:
        if said:
            return f"{row.message}; {said}" if row.message else said
        return row.message
    return f"{row.message}; {SENT_NO_ANSWER}" if row.message else SENT_NO_ANSWER


def late_count(store: JobStore) -> int:
    if store.meta().get("kind") == "removal":
        return 0
    return sum(1 for r in store.rows() if row_lateness(r)[1])


def late_not_certain_count(store: JobStore) -> int:
    """How many late requests are not certain (:data:`LATE_NOT_CERTAIN`): as the report
    stored it, else counted from the job file's rows."""
    meta = store.meta()
    stored = meta.get(LATE_NOT_CERTAIN)
    if isinstance(stored, int):
        return stored
    if meta.get("kind") == "removal":
        return 0
    return sum(1 for r in store.rows() if service_day_unsure(r) and row_lateness(r)[1])


def maybe_inserted(row: JobRow) -> bool:
    """Whether ``row`` ended ``already_present`` with its number perhaps put on the list by
    this job (an attempt whose answer was lost, or a look-up after an error found it): not
    evidence that the number was on the list before the job."""
    return maybe_inserted_said(row.outcome, row.message)


def maybe_inserted_said(outcome: str, message: str) -> bool:
    """:func:`maybe_inserted` of a row ending with ``outcome`` and ``message`` (the job's run
    counts them as it ends rows, for its progress)."""
    return outcome == Outcome.ALREADY_PRESENT.value and any(
        text in message for text in MAYBE_INSERTED_TEXTS
    )


def unchecked(row: JobRow) -> bool:
    """Whether ``row`` ended ``already_present`` without its request checked against when its
    number was first on the list (a look-up failed), so counted to a later day than it may
    have been honoured on."""
    return (
        row.outcome == Outcome.ALREADY_PRESENT.value
        and any(text in row.message for text in UNCHECKED_TEXTS)
        and not look_ups_stopped(row)
    )


def look_ups_stopped(row: JobRow) -> bool:
    """Whether the job's stop cut short a look-up ``row``'s lateness depends on (whether an
    earlier entry honoured its request), which a resume makes (:data:`LOOK_UP_STOPPED`)."""
    return row.outcome in (
        Outcome.INSERTED.value,
        Outcome.ALREADY_PRESENT.value,
    ) and (LOOK_UP_STOPPED in row.message)


def stopped_sentence(stopped: RowsNamed, late: RowsNamed, late_total: int, paused: bool) -> str:
    """The job's warning for rows :func:`look_ups_stopped` (``stopped``; ``late`` those of
    them counted late, of ``late_total``), or "" for none: not a failed look-up, but one the
    pause left for the resume (black-box B28 F2)."""
    if not stopped.count:
        return ""
    n = stopped.count
    text = (
        f"{n} {'row' if n == 1 else 'rows'} inserted or already present had "
        f"{'its' if n == 1 else 'their'} look-ups of an earlier entry of the number (when it "
        "was first on the list, on the global list or in another written form) stopped with "
        f"the job, so {'its request is' if n == 1 else 'their requests are'} counted to "
        f"{'its' if n == 1 else 'their'} insertion or to the day the job found the number"
        f"{' until the job is resumed, which makes those look-ups' if paused else ''}: "
        f"{stopped}."
    )
    if late.count:
        k = late.count
        text += (
            f" {k} of the {late_total} late requests {'is' if k == 1 else 'are'} among them "
            f"({late}): {'it' if k == 1 else 'they'} may have been honoured sooner."
        )
    return text


def service_day_unsure(row: JobRow) -> bool:
    """Whether ``row`` ended ``already_present`` with its lateness counted to its entry's day
    by the service's clock, which a day either way on this computer's would change."""
    return row.outcome == Outcome.ALREADY_PRESENT.value and SERVICE_ZONE_UNKNOWN in row.message


def not_certain_sentence(unsure: RowsNamed, late: RowsNamed, late_total: int) -> str:
    """The job's warning for rows :func:`service_day_unsure` (``unsure``; ``late`` those of
    them counted late, of ``late_total``), or "" for none: each row says so, but the late
    count said nothing of them (black-box B32 leftover)."""
    if not unsure.count:
        return ""
    n, k = unsure.count, late.count
    text = (
        f"{n} already-present {'row is' if n == 1 else 'rows are'} counted to "
        f"{'its' if n == 1 else 'their'} entry's day by the service's clock, whose time zone "
        "no entry this job inserted could tell, and a day either way on this computer's clock "
        f"would change {'its' if n == 1 else 'their'} verdict: {unsure}."
    )
    if k:
        text += (
            f" {k} of the {late_total} late requests {'is' if k == 1 else 'are'} among them "
            f"({late}): a day earlier would make {'it' if k == 1 else 'them'} not late."
        )
    if n > k:
        m = n - k
        text += (
            f" {'The other' if k else ('It' if m == 1 else 'They')}"
            f"{'' if not k or m == 1 else f' {m}'} {'is' if m == 1 else 'are'} counted not "
            "late, though a day later would make "
            f"{'it' if m == 1 else 'them'} late."
        )
    return text


class RowsNamed:
    """A count of rows and the source rows of the first :data:`_ROWS_NAMED` of them."""

    def __init__(self) -> None:
        self.count = 0
        self.first: list[int] = []

    def add(self, row_number: int) -> None:
        self.count += 1
        if len(self.first) < _ROWS_NAMED:
            self.first.append(row_number)

    def __str__(self) -> str:
        named = ", ".join(str(n) for n in self.first)
        more = self.count - len(self.first)
        word = "row" if self.count == 1 else "rows"
        return f"{word} {named} and {more} more" if more > 0 else f"{word} {named}"


class RefusedCampaigns:
    """An import's failed rows whose campaign the service refused as invalid, by scope, and
    the rows the job inserted in those campaigns (black-box B33-2: a campaign deleted while
    the job ran left 87 rows failed with "code 6026 (invalid campaign id)", no warning, exit
    0). Which code says so is the API's table's (DNC's 6026, the SMS opt-out list's 6006)."""

    def __init__(self, target: str) -> None:
        self._path = f"/{target}/insert"
        self.refused: dict[str, int] = {}
        self.codes: dict[str, str] = {}
        self.inserted: dict[str, int] = {}

    def add(self, r: JobRow) -> None:
        if r.outcome == Outcome.FAILED.value and r.code.isdigit():
            info = code_info(self._path, int(r.code))
            if info is not None and info.field == "campaign_id":
                self.refused[r.scope] = self.refused.get(r.scope, 0) + 1
                self.codes[r.scope] = r.code
        elif r.outcome == Outcome.INSERTED.value and r.scope.startswith("campaign:"):
            self.inserted[r.scope] = self.inserted.get(r.scope, 0) + 1

    def sentence(self) -> str:
        """The job's warning naming each such campaign, or "" for none."""
        if not self.refused:
            return ""
        named = "; ".join(
            f"{scope.removeprefix('campaign:')} ({n} row{'' if n == 1 else 's'}"
            + (f", after {self.inserted[scope]} inserted in it" if self.inserted.get(scope) else "")
            + ")"
            for scope, n in sorted(self.refused.items())
        )
        codes = ", ".join(sorted(set(self.codes.values())))
        return (
            f"The service refused campaign{'' if len(self.refused) == 1 else 's'} {named} as "
            f"invalid (code {codes}): the campaign may have been removed while the job ran. Those "
            "rows are failed and their numbers not on the list in that campaign: check the "
            "campaign, and import them (the report's failed rows) under another scope."
        )


def unchecked_sentence(present: RowsNamed, late: RowsNamed, late_total: int) -> str:
    """The job's warning for already-present rows :func:`unchecked` (``present``; ``late``
    those of them counted late, of ``late_total`` late requests), or "" for none: the rows' own
    words are easy to miss among many (re-test M2 #3: 7 of 9 late requests were late only for
    a failed look-up, and the job had no warning)."""
    if not present.count:
        return ""
    n = present.count
    text = (
        f"{n} already-present {'row' if n == 1 else 'rows'} could not be checked against the "
        "day the number was first on the list (a look-up failed), so "
        f"{'its request is' if n == 1 else 'their requests are'} counted to the day the job "
        f"found the number or to the later entry found: {present}."
    )
    if late.count:
        k = late.count
        text += (
            f" {k} of the {late_total} late requests {'is' if k == 1 else 'are'} among them "
            f"({late}): {'it' if k == 1 else 'they'} may have been honoured "
            "sooner, even before the request was received."
        )
    elif late_total:
        text += f" None of the {late_total} late requests is among them."
    return text


class StillListed:
    """A removal's rows whose leads the service re-statused although the number stays on the
    DNC list (:func:`~app.core.lead_lookup.still_listed_in`): the rows, the leads, the scopes
    of the entries left, and the first :data:`_ROWS_NAMED` rows with their leads named."""

    def __init__(self) -> None:
        self.rows = 0
        self.leads = 0
        self.scopes: list[str] = []
        self.first: list[str] = []

    def add(self, row: JobRow) -> None:
        found = still_listed_in(row.message)
        if not found.leads:
            return
        self.rows += 1
        self.leads += found.leads
        self.scopes += [x for x in found.scopes if x not in self.scopes]
        if len(self.first) < _ROWS_NAMED:
            named = ", ".join(found.named[:_LEADS_NAMED])
            if (more := found.leads - min(len(found.named), _LEADS_NAMED)) > 0:
                named += f" and {more} more"
            self.first.append(f"row {row.row_number} ({named})")

    def sentence(self, lead_status: str, dnc: bool | None = None) -> str:
        """The job's warning of these rows, ``""`` for none. ``dnc``: whether the service
        flags ``lead_status`` as a DNC status (None: not known), which decides whether a
        number still listed looks callable."""
        if not self.leads:
            return ""
        n, rows = self.leads, self.rows
        named = "; ".join(self.first)
        if (more := rows - len(self.first)) > 0:
            named += f"; and {more} more {'row' if more == 1 else 'rows'}"
        which = "it" if n == 1 else "they"
        # Leads whose number's other entries could not be looked up are counted too (B29 F1),
        # said apart from the scopes found: "not checked" is no entry.
        scopes = [x for x in self.scopes if x != NOT_CHECKED]
        unchecked = (
            "whether the number stays on the DNC list through another entry could not be "
            "checked (the look-up of its entries failed)"
        )
        if not scopes:
            why = f", and {unchecked}"
            callable_clause = ", so a number still listed would now look callable"
        else:
            listed = (
                f" although the number stays on the DNC list through its other "
                f"{'entry' if len(scopes) == 1 else 'entries'} ({', '.join(scopes)})"
            )
            why = f"{listed}{f' (or, for some, {unchecked})' if NOT_CHECKED in self.scopes else ''}"
            callable_clause = ", so a number still listed there now looks callable"
        why += _dnc_status_clause(lead_status, n) if dnc else callable_clause
        return (
            f"{n} {'lead' if n == 1 else 'leads'} on {rows} removed "
            f"{'number' if rows == 1 else 'numbers'} {'was' if n == 1 else 'were'} set to "
            f"{lead_status or 'the lead status'} by the service{why}: "
            f"{named}. Check {'its' if n == 1 else 'their'} status on the service; each row's "
            f"message names its leads, and the change journal has every one with the status "
            f"{which} had."
        )


def _dnc_status_clause(lead_status: str, leads: int) -> str:
    """What :meth:`StillListed.sentence` says, in place of "looks callable", of ``leads`` set
    to a DNC status: they are not callable, but the status they had was replaced in a scope
    the removal did not take the number off."""
    one = leads == 1
    return (
        f"; {lead_status or 'the lead status'} is a do-not-call status on the service, so "
        f"{'it does' if one else 'they do'} not look callable, but the status "
        f"{'it' if one else 'they'} had was replaced"
    )


def maybe_inserted_count(store: JobStore) -> int:
    """How many of the job's ``already_present`` rows :func:`maybe_inserted` counts."""
    if store.meta().get("kind") == "removal":
        return 0
    return sum(1 for r in store.rows() if maybe_inserted(r))


# A removal's purpose scope without text, as the report says it: the job file keeps it as
# "purpose:", which a reader took for a purpose left blank (black-box L2 #5); read back by
# sheet_scope, which holds the words.
EVERY_PURPOSE = EVERY_PURPOSE_WRITTEN


def scope_shown(scope: str, removal: bool, purpose: str = "") -> str:
    """A scope as the report writes it: the job file's text (``global``, ``campaign:12``,
    ``purpose:Surveys``), but a removal's ``purpose:`` (every purpose's entry taken off) as
    :data:`EVERY_PURPOSE`. An import's ``purpose:`` row takes its purpose from its own cell,
    so it stays as it is.

    ``purpose``: the purpose an import row's insert carries (:func:`purpose_sent`), said after
    a scope that does not name it (``global, purpose 'Fundraising'``)."""
    if removal and scope.strip() == "purpose:":
        return EVERY_PURPOSE
    if purpose and scope != f"purpose:{purpose}":
        return f"{scope}, purpose {purpose!r}"
    return scope


# The Summary's rows for the job's --purpose and --reason (rows naming none take them).
DEFAULT_PURPOSE_LABEL = "Default purpose (rows naming none)"
DEFAULT_REASON_LABEL = "Default reason (rows giving none)"
# The --phone-code numbers written without a code were read under (black-box B22 F6: the
# Summary did not say, so a report of a +44 run read as a +1 one unless every row was read).
DEFAULT_CODE_LABEL = "Default country code (numbers written without one)"


def summary_rows(
    meta: dict[str, Any],
    counts: dict[str, int],
    late: int,
    maybe: int = 0,
    late_invalid: int = 0,
    as_written: int = 0,
    still_listed: int = 0,
    late_not_certain: int = 0,
) -> list[list[object]]:
    """The Summary sheet as (label, value) rows; also used for the CLI's human output.

    ``maybe``: the import's ``already_present`` rows this job may have inserted
    (:func:`maybe_inserted`), said on the row after the ``already_present`` count, so that
    count is not read as how many numbers were on the list before the job. ``late_invalid``:
    the late requests on invalid rows (not sent), said on the row after the late count when
    there are any. ``as_written``: a removal's valid rows looked up as written
    (:data:`VALID_AS_WRITTEN`), said after the count of rows to send when there are any.
    ``still_listed``: a removal's leads re-statused although the number stays listed
    (:data:`LEADS_STILL_LISTED`), said for every removal with a lead status that ran.
    ``late_not_certain``: the late requests counted to an entry's day by the service's clock
    (:func:`service_day_unsure`), said after the late count when there are any."""
    mapping = meta.get("mapping") or {}
    rows: list[list[object]] = [
        ["Job", meta.get("job_id", "")],
        ["Kind", meta.get("kind", "")],
        ["Name", meta.get("name", "")],
        ["Note", meta.get("note", "")],
        ["File", meta.get("file", "")],
        ["Sheet", sheet_shown(meta)],
        ["Header row", meta.get("header_row") or "none"],
        ["Mapping", "; ".join(f"{k}: {v}" for k, v in mapping.items())],
        ["Target", meta.get("target", "")],
        ["Scope", scope_shown(str(meta.get("scope", "")), meta.get("kind") == "removal")],
    ]
    # The --purpose and --reason given for rows whose cells name none: the evidence of what
    # was sent, which the Summary left out (black-box Q3 #5: only "Scope | global"). A purpose
    # scope's purpose is its Scope already.
    if code := str(meta.get("phone_code") or ""):
        rows.append([DEFAULT_CODE_LABEL, f"+{code}"])
    purpose, reason = str(meta.get("purpose") or ""), str(meta.get("reason") or "")
    if purpose and meta.get("scope") != f"purpose:{purpose}":
        rows.append([DEFAULT_PURPOSE_LABEL, purpose])
    if reason:
        rows.append([DEFAULT_REASON_LABEL, reason])
    if meta.get("lead_status"):
        rows.append(["Lead status set on removal", meta["lead_status"]])
    rows += [
        ["Connection", meta.get("connection", "")],
        ["Service", meta.get("base_url", "")],
        ["Status", meta.get("status", "")],
        ["Started (UTC)", meta.get("started", "")],
        ["Finished (UTC)", meta.get("finished", "")],
        ["Rows", sum(counts.values())],
    ]
    for outcome in Outcome:
        if counts.get(outcome.value) or outcome.value in _always(meta):
            rows.append([outcome.value, counts.get(outcome.value, 0)])
        if outcome is Outcome.ALREADY_PRESENT and meta.get("kind") != "removal":
            rows.append([MAYBE_INSERTED_LABEL, maybe])
    if counts.get("pending"):
        label = "valid (dry run: not sent)" if meta.get("status") == "dry_run" else "pending"
        rows.append([label, counts["pending"]])
    if as_written:
        rows.append([VALID_AS_WRITTEN_LABEL, as_written])
    if (
        meta.get("kind") == "removal"
        and meta.get("lead_status")
        and meta.get("status") != "dry_run"
    ):
        # 0 said too: the removal looked, and found none (a dry run looks nothing up).
        rows.append([STILL_LISTED_LABEL, still_listed])
    if isinstance(damaged := meta.get(DAMAGED), int):
        rows.append([DAMAGED_LABEL, damaged])
    if meta.get("kind") != "removal":
        # The limit is on honouring a request (an insertion); a removal has none to meet.
        rows.append([f"Requests later than {LIMIT_BUSINESS_DAYS} business days", late])
        if late_not_certain:
            rows.append([LATE_NOT_CERTAIN_LABEL, late_not_certain])
        if late_invalid:
            rows.append([LATE_INVALID_LABEL, late_invalid])
        if late and meta.get("status") == "dry_run":
            rows.append([DRY_RUN_LATE_LABEL, DRY_RUN_LATE_NOTE])
    # What the file holds that the job does not take as expected (hidden rows, other sheets
    # or columns of numbers), and campaign ids left unchecked: the evidence must say so too.
    notes = [meta["campaign_check"]] if meta.get("campaign_check") else []
    notes += list(meta.get("warnings") or [])
    many = len(notes) > 1
    rows += [[f"Warning {n}" if many else "Warning", str(note)] for n, note in enumerate(notes, 1)]
    return [[label, _summary_cell(value)] for label, value in rows]


def valid_as_written(r: JobRow) -> bool:
    """Whether ``r`` is a valid row (not invalid, a duplicate or blank) of a removal whose
    number, in no number range in use today, is looked up as written."""
    if r.outcome in (Outcome.INVALID.value, Outcome.DUPLICATE.value, Outcome.BLANK.value):
        return False
    return looked_up_as_written(r.message)


def as_written_count(store: JobStore) -> int:
    """How many of a removal's valid rows are looked up as written: as its report stored it
    (:data:`VALID_AS_WRITTEN` in the meta), else counted from the job file's rows."""
    stored = store.meta().get(VALID_AS_WRITTEN)
    if isinstance(stored, int):
        return stored
    return sum(valid_as_written(r) for r in store.rows())


def still_listed_count(store: JobStore) -> int:
    """A removal's leads re-statused although the number stays listed: as its report stored
    it (:data:`LEADS_STILL_LISTED` in the meta), else counted from the job file's rows."""
    meta = store.meta()
    if meta.get("kind") != "removal":
        return 0
    stored = meta.get(LEADS_STILL_LISTED)
    if isinstance(stored, int):
        return stored
    return sum(still_listed_in(r.message).leads for r in store.rows())


def _summary_cell(value: object) -> object:
    # An empty cell would read as a missing value; say so instead. A job made before names
    # were shown by path_text may hold a file name that is not valid UTF-8 (R5 #1).
    if value in ("", None):
        return "(none)"
    return utf8_text(value) if isinstance(value, str) else value


# Text files: their reader names the one table after the file, which is no sheet. Job files
# written before staging said so (an empty "sheet") are known by the file's name.
TEXT_FILE_SHEET = "(text file)"
_TEXT_SUFFIXES = (".csv", ".tsv", ".txt")


def sheet_shown(meta: dict[str, Any]) -> str:
    """The Summary's Sheet: the sheet's name, or :data:`TEXT_FILE_SHEET` for a text file
    (which the CLI's "columns read" line names no sheet for either)."""
    if "sheet" not in meta:
        return ""
    sheet = str(meta.get("sheet") or "")
    file = Path(str(meta.get("file") or ""))
    if not sheet or (sheet == file.stem and file.suffix.casefold() in _TEXT_SUFFIXES):
        return TEXT_FILE_SHEET
    return sheet


def _always(meta: dict[str, Any]) -> set[str]:
    common = {"invalid", "duplicate_in_file", "blank", "failed", "not_attempted"}
    if meta.get("kind") == "removal":
        return common | {"removed", "not_found"}
    return common | {"inserted", "already_present"}


def write_report(store: JobStore, path: Path) -> Path:
    """Write (or rewrite) the report of the job in ``store`` to ``path``."""
    return ReportWriter(store, path).finish()


class ReportWriter:
    """A job's report, its Rows sheet written in row order as far as rows are final.

    :meth:`advance` writes the rows from the last one written up to the first row not done
    (done rows never change within a run), so a running job can have its report written
    while it sends, and only the last rows are left for :meth:`finish`, which writes the
    rest, then the Summary (counts as they are then), and saves. Nothing is on disk under
    ``path`` until :meth:`finish`; :meth:`discard` gives the report up. Meanwhile the rows
    stream to ``<path>.<random>.part`` beside it, never to ``$TMPDIR`` (a report can hold a
    million phone numbers; see :mod:`app.core.xlsx_safe`): all a killed process leaves, which
    the next report written to ``path`` deletes.
    """

    def __init__(self, store: JobStore, path: Path) -> None:
        self._store = store
        self._path = path
        meta = store.meta()
        self._removal = meta.get("kind") == "removal"
        columns: tuple[str, ...] = REMOVAL_COLUMNS if self._removal else ROW_COLUMNS
        self._widths: tuple[int, ...] = _WIDTHS[: len(columns)]
        self._reasons = reads_reasons(meta)
        if self._reasons:
            columns += (REASON_COLUMN,)
            self._widths += (_REASON_WIDTH,)
        self._columns = columns
        self._book = SafeWorkbook(quote_prefix=True, beside=path)
        self._summary = self._book.add_sheet("Summary", (36, 90))
        self._rows = self._book.add_sheet("Rows", self._widths, text_columns=_TEXT_COLUMNS)
        self._rows.append(self._columns)
        self._in_sheet = 0
        self._after = 0  # the seq of the last row written
        # Pending rows the service refused the token for, or refused for its rate limit (read
        # again by finish, which writes the pending rows).
        self._token_refused: dict[str, str] = unsent_said(meta)
        self.late = 0
        self.maybe_inserted = 0  # already_present rows this job may have inserted
        self.late_invalid = 0  # late requests on invalid rows (not sent)
        self.as_written = 0  # a removal's valid rows looked up as written (VALID_AS_WRITTEN)
        # Source rows of already-present rows not checked against the list's dates, and of
        # those counted late (see unchecked).
        self.unchecked = RowsNamed()
        self.late_unchecked = RowsNamed()
        # The same for inserted or already-present rows whose look-ups the job's stop cut
        # short (see look_ups_stopped).
        self.stopped = RowsNamed()
        self.late_stopped = RowsNamed()
        # And for already-present rows whose verdict hangs on the service's day (see
        # service_day_unsure).
        self.unsure = RowsNamed()
        self.late_unsure = RowsNamed()
        self._unchecked_note_before = ""
        # Rows whose note still says their request date is after the insertion date (see
        # after_dates_revised), and whether the check's warning naming them was revised.
        self.after_dates = RowList()
        self._dates_revised = False
        self.refused_campaigns = RefusedCampaigns(str(meta.get("target") or "dnc"))
        self.still_listed = StillListed()  # a removal's rows of leads still listed
        self._still_listed_before = ""
        # Blank rows not written yet: the first BLANK_RUN_LINE of a run, then only counted.
        self._blanks: list[JobRow] = []
        self._blank_last = 0
        self._blank_count = 0
        # Rows done whose look-ups a resume makes again (JobStore.set_recheck) get their last
        # words only then: the rows from the first of them are left to finish.
        self._hold = store.first_recheck()

    def advance(self, limit: int = 2000) -> int:
        """Write up to ``limit`` more rows, stopping at the first row not done; returns how
        many were written."""
        written = 0
        for r in self._store.rows_after(self._after, limit):
            if r.state != RowState.DONE.value or (self._hold is not None and r.seq >= self._hold):
                break
            self._append(r, "")
            written += 1
        return written

    def finish(self) -> Path:
        """Write the remaining rows and the Summary, and save; returns the path."""
        meta = self._store.meta()
        # A dry run's rows to send are valid, not waiting: nothing will send them.
        unsent = "valid (dry run)" if meta.get("status") == "dry_run" else "pending"
        self._token_refused = unsent_said(meta)
        try:
            for r in self._store.rows(after=self._after):
                self._append(r, unsent)
            self._flush_blanks()
            counts = self._store.counts()
            meta = self._with_unchecked_note(meta)
            rows = summary_rows(
                meta,
                counts,
                self.late,
                self.maybe_inserted,
                self.late_invalid,
                self.as_written,
                self.still_listed.leads,
                self.late_unsure.count,
            )
            for row in rows:
                self._summary.append(row)
            self._book.save(self._path)
        except BaseException:
            self._book.discard()
            raise
        meta_counts: dict[str, Any] = {"late_requests": self.late}
        if self._removal:
            meta_counts[VALID_AS_WRITTEN] = self.as_written
            meta_counts[LEADS_STILL_LISTED] = self.still_listed.leads
            if meta.get(STILL_LISTED_NOTE) or self._still_listed_before:
                meta_counts["warnings"] = meta.get("warnings") or []
                meta_counts[STILL_LISTED_NOTE] = meta.get(STILL_LISTED_NOTE) or ""
        else:
            meta_counts[MAYBE_INSERTED] = self.maybe_inserted
            meta_counts[LATE_INVALID] = self.late_invalid
            meta_counts[PRESENT_UNCHECKED] = self.unchecked.count
            meta_counts[LATE_UNCHECKED] = self.late_unchecked.count
            meta_counts[LATE_NOT_CERTAIN] = self.late_unsure.count
            if meta.get(UNCHECKED_NOTE) or self._unchecked_note_before or self._dates_revised:
                meta_counts["warnings"] = meta.get("warnings") or []
                meta_counts[UNCHECKED_NOTE] = meta.get(UNCHECKED_NOTE) or ""
            if self._dates_revised and UNCHECKED_DATE_ROWS in meta:
                meta_counts[UNCHECKED_DATE_ROWS] = meta[UNCHECKED_DATE_ROWS]
        self._store.set_meta(meta_counts)
        return self._path

    def _with_unchecked_note(self, meta: dict[str, Any]) -> dict[str, Any]:
        """``meta`` with :func:`unchecked_sentence` among its ``warnings`` (which the
        Summary, the CLI's notes and its JSON ``warnings`` show), in place of the sentence an
        earlier report put there; a removal's with :meth:`StillListed.sentence` so."""
        if self._removal:
            before = self._still_listed_before = str(meta.get(STILL_LISTED_NOTE) or "")
            kept = [w for w in meta.get("warnings") or [] if not before or w != before]
            flag = meta.get(LEAD_STATUS_DNC)
            said = self.still_listed.sentence(
                str(meta.get("lead_status") or ""), flag if isinstance(flag, bool) else None
            )
            return {**meta, "warnings": [*kept, *([said] if said else [])], STILL_LISTED_NOTE: said}
        before = self._unchecked_note_before = str(meta.get(UNCHECKED_NOTE) or "")
        meta, warnings = self._dates_warnings(
            meta, [w for w in meta.get("warnings") or [] if not before or w != before]
        )
        paused = meta.get("status") == JobStatus.PAUSED.value
        note = " ".join(
            x
            for x in (
                unchecked_sentence(self.unchecked, self.late_unchecked, self.late),
                stopped_sentence(self.stopped, self.late_stopped, self.late, paused),
                not_certain_sentence(self.unsure, self.late_unsure, self.late),
                self.refused_campaigns.sentence(),
            )
            if x
        )
        if note:
            warnings.append(note)
        return {**meta, "warnings": warnings, UNCHECKED_NOTE: note}

    def _dates_warnings(
        self, meta: dict[str, Any], warnings: list[str]
    ) -> tuple[dict[str, Any], list[str]]:
        """``meta`` and ``warnings`` with the check's sentence on request dates after the
        insertion date naming only the rows still after theirs: said again of the rows
        staging kept (:data:`~app.core.staging_notes.UNCHECKED_DATE_ROWS`, which then name
        those rows), or, in a job file staged before they were kept, of its words read back
        (:func:`after_dates_revised`)."""
        stored = UncheckedDates.from_stored(meta.get(UNCHECKED_DATE_ROWS))
        out = []
        for warning in warnings:
            if stored is None:
                revised = after_dates_revised(warning, self.after_dates)
            elif stored.after.count and warning == unchecked_dates_said(stored):
                stored.after = self.after_dates
                revised = unchecked_dates_said(stored)
                meta = {**meta, UNCHECKED_DATE_ROWS: stored.stored()}
            else:
                revised = None
            if revised is not None and revised != warning:
                self._dates_revised = True
                warning = revised
            if warning:
                out.append(warning)
        return meta, out

    def discard(self) -> None:
        self._book.discard()

    def _append(self, r: JobRow, unsent: str) -> None:
        if (
            r.outcome == Outcome.BLANK.value
            and not (r.original or r.damage or r.request_date)
            and r.message == blank_row_message(r.row_number)
        ):
            if self._blanks and (
                r.row_number != self._blank_last + 1 or r.scope != self._blanks[0].scope
            ):
                self._flush_blanks()
            if len(self._blanks) < BLANK_RUN_LINE:
                self._blanks.append(r)
            self._blank_last = r.row_number
            self._blank_count += 1
            self._after = r.seq
            return
        self._flush_blanks()
        self._write(r, unsent)

    def _flush_blanks(self) -> None:
        """Write the blank rows held back: row by row, or a long run as one line."""
        blanks, count, last = self._blanks, self._blank_count, self._blank_last
        self._blanks, self._blank_count = [], 0
        if count < BLANK_RUN_LINE:
            for r in blanks:
                self._write(r, "")
            return
        first = blanks[0]
        self._new_line()
        cells: list[object] = [
            f"{first.row_number}–{last}",
            "",
            "",
            "",
            scope_shown(first.scope, self._removal, ""),
            Outcome.BLANK.value,
            f"rows {first.row_number:,} to {last:,}: {count:,} blank rows",
            "",
        ]
        if not self._removal:
            cells += ["", "", ""]
        if self._reasons:
            cells.append("")  # none of these rows is sent
        self._rows.append(cells)

    def _new_line(self) -> None:
        if self._in_sheet == SHEET_ROW_LIMIT:
            # Excel shows at most 1,048,576 rows a sheet; a bigger job goes on "Rows 2"…
            self._in_sheet = 0
            self._rows = self._book.add_sheet(
                f"Rows {self._book.sheet_count}", self._widths, text_columns=_TEXT_COLUMNS
            )
            self._rows.append(self._columns)
        self._in_sheet += 1

    def _write(self, r: JobRow, unsent: str) -> None:
        self._new_line()
        cells: list[object] = [
            r.row_number,
            r.original,
            r.national,
            r.phone_code,
            scope_shown(r.scope, self._removal, "" if self._removal else purpose_sent(r)),
            r.outcome or unsent,
            _unsent_message(r, self._token_refused)
            if not r.outcome and unsent == "pending"
            else message_shown(r),
            r.damage,
        ]
        if not self._removal:
            cells.append(r.request_date)
            days, is_late = row_lateness(r)
            self.late += is_late
            if is_late and r.outcome == Outcome.INVALID.value:
                self.late_invalid += 1
            self.maybe_inserted += maybe_inserted(r)
            self.refused_campaigns.add(r)
            if unchecked(r):
                self.unchecked.add(r.row_number)
                if is_late:
                    self.late_unchecked.add(r.row_number)
            if look_ups_stopped(r):
                self.stopped.add(r.row_number)
                if is_late:
                    self.late_stopped.add(r.row_number)
            if service_day_unsure(r):
                self.unsure.add(r.row_number)
                if is_late:
                    self.late_unsure.add(r.row_number)
            if r.outcome != Outcome.DUPLICATE.value and AFTER_INSERTION_NOTE.search(r.message):
                self.after_dates.add(r.row_number)
            cells += [days, "late" if is_late else ""]
        else:
            self.as_written += valid_as_written(r)
            self.still_listed.add(r)
        if self._reasons:
            cells.append(reason_sent(r))
        self._rows.append(cells)
        self._after = r.seq


class RunningReport:
    """A job's report written while it runs: a thread moves its :class:`ReportWriter` along
    the rows that are done, so the job's end only writes the last ones (10,000 rows of
    report cost about 1 s of openpyxl, which the end of a job no longer waits for).

    :meth:`finish` stops the thread and writes the report out; should the thread have failed,
    the report is written again from the job file, so any error is the final write's own.
    """

    INTERVAL = 0.5  # seconds between looks at the job file
    BATCH = 200  # rows written between looks at the stop flag

    def __init__(self, store: JobStore, path: Path) -> None:
        self._store = store
        self._path = path
        self._writer = ReportWriter(store, path)
        self._stop = threading.Event()
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._follow, name="dnc-report", daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        try:
            while not self._stop.wait(self.INTERVAL):
                while not self._stop.is_set() and self._writer.advance(self.BATCH) == self.BATCH:
                    pass
        except Exception as exc:  # the final write starts over and reports its own error
            self._failed = exc

    def finish(self) -> Path:
        self._stop.set()
        self._thread.join()
        if self._failed is None:
            return self._writer.finish()
        log.warning("writing the report as the job ran failed (%s); writing it again", self._failed)
        self._writer.discard()
        return write_report(self._store, self._path)
