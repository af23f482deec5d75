"""Import a spreadsheet of numbers into the DNC list or the SMS opt-out list.

:func:`stage_import` reads and checks the file into a new job file; :func:`run_import` sends the
rows still to send (a fresh job or a resumed one) through the journaled :class:`Session`.
An entry the list already has counts as done ("already present"), never as a failure.

"Already present" is not always "on the list before the job": when the answer to an earlier
attempt of the insert was lost (or the row was in flight when the job was interrupted), the
retry's "already present" may be that attempt's own doing. Such a row ends
``already_present`` saying so, and the job's summary and report count those rows apart
(``already_present_maybe_inserted``, :func:`app.core.job_report.maybe_inserted`).

An insert that ends in an error leaving its fate open (no answer to a request that was sent,
a 5xx, or any error after an earlier attempt's answer was lost) is followed by a look-up of
the number in the row's scope (:func:`_checked_after_error`, as a removal does): listed, the row
ends ``already_present`` (which attempt, or who, put it there cannot be known, so it is counted
among those this job may have inserted); not listed, the insert was not done and the row is
sent again later in the run (:class:`~app.core.job_runner.NotDone`, a few times at most; then
it goes on as the error leaves it: held, then ``failed``, or kept for a resume when the
service keeps failing), saying what the look-up found. When the look-up fails too, the row is
sent again later in the run (:class:`~app.core.job_runner.Unsettled`): a second insert is
harmless, and its answer settles what the look-up could not. The look-up is a read: the
journal records it as an event (``dnc.insert.checked`` / ``sms.insert.checked``) beside the
insert's ``failed`` outcome, so the number's evidence shows it.

A row that was in flight when the job stopped (``sending`` in the job file: its outcome not
committed) is first looked for in the change journal (:func:`_journal_answer`: this job's
inserts of its number in its scope, :meth:`ChangeJournal.job_writes`, one search of the phone
index a row). When the service's "done" answer is recorded, the row ends ``inserted`` as that
answer says, naming the entry, and is not sent again (black-box N5 #3: a SIGKILL just after the
answer was journaled left the row to be sent again, found "already present" and counted among
those the job may have inserted, while the journal held its insert's "ok"). Its insertion is
the journal's day, which its lateness counts to (``honoured_on``) when the resume is on a later
day. When an "already present" answer is recorded instead, the row ends ``already_present``
and is not sent again either (black-box P1 #2: three such rows were sent a second insert on
the resume after a SIGKILL); it is measured as any already-present row is. That answer may be
the echo of an earlier attempt of this job whose fate was left open (no answer recorded, a
failure no look-up settled, an answer lost before a retry): the row is then counted among
those the job may have inserted, and its entry looked up, as a row answered so while the job
ran would be.

Such a row says it was sent on resume (and an "already present" answer that it may be an
earlier attempt's doing) only when the journal has an insert of it that may have been sent
(:func:`~app.core.job_runner.journal_sent_before`): the job file marks a row ``sending``
before its trunk-0 look-up, so one killed or stopped during it was never sent, and its resume
is its first send (S18 H1b: such rows said "sent again" by the job file's state). It says
"sent again" only when the journal shows an earlier request of it went out (an answer, a lost
answer, an error was recorded); an insert journaled before its request and cut by the kill may
never have left the process (black-box B14 F2: the service received the row once), so such a
row says it "may have reached the service".

After an "already present" answer that an earlier attempt of this job may have caused, the
number's entries are looked up to name the entry and its date; the service failing that
look-up (a 429, a 5xx, no answer) has it made again, :data:`LOOK_UP_ROUNDS` times in all
(black-box N5 #2: a look-up refused for the rate limit left the row without its entry, and the
journal without its ``insert.settled`` event). When it still fails, or the job's stop cuts it
short (a stopping job sends no new request), the row says why it names no entry.

A row found already on the list with a request date is measured to the day its number was
first on the list (the oldest entry's insert date, from a look-up), not to the day the job
found it: an entry from before the request means the request was honoured at once. For a row in
a campaign or purpose scope that is the earliest of its entries there and on the global list
(a global entry covers every campaign and purpose). A row inserted in a campaign or purpose
scope whose request, counted to its insertion, is late is measured the same way to the number's
global entry from before its insertion, when there is one (that row alone costs the look-up).
A row whose request is still late, inserted or already present, then looks up the number's
other written forms ("17025550133" for +1 702 555 0133, "447911123456" under any phone code:
:func:`app.core.dnc_removal.form_searches`, as removals and evidence do) in its scope and, for a
campaign or purpose row, on the global list, and is measured to an older entry found so, its
words naming the form (black-box B9 #2, B12 #11: a number listed since 2024 as 17025550133 was
inserted again as 7025550133 and its request called late). Rows not late cost none of these.
The day goes in the job file
(``honoured_on``), which the report's lateness counts to; when a look-up fails, the row keeps
the day the job found it (or its scope's entry), saying why, and the report's Summary counts
such rows (:mod:`app.core.job_report`).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from app.api.client import DncQuery
from app.api.errors import ApiError, RateLimitedError, ServerError, TransportError
from app.api.models import (
    DncEntry,
    SmsOptOut,
    WriteStatus,
    is_bare_date,
    listed_by,
    parse_timestamp,
)
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.dnc_removal import (
    SMS_NEEDS_CODE,
    FormKind,
    FormSearch,
    form_searches,
    names_number,
    refused_forms_text,
    refuses_form,
)
from app.core.job_exec import execute
from app.core.job_report import (
    EARLIER_UNCHECKED,
    FIRST_LISTED_UNCHECKED,
    FOUND_AFTER_ERROR,
    LOOK_UP_STOPPED,
    RESENT_PRESENT,
    RESUMED_PRESENT,
    RETRIED_PRESENT,
    SERVICE_ZONE_UNKNOWN,
    local_day,
    request_day,
)
from app.core.job_runner import (
    RESENT,
    JobControl,
    JobProgress,
    NotDone,
    RowResult,
    Sender,
    Unsettled,
    journal_sent_before,
)
from app.core.job_staging import JobSettings, stage
from app.core.job_store import (
    JobRow,
    JobStatus,
    JobStore,
    Outcome,
    RowState,
    scope_from_text,
)
from app.core.journal import PHASE_EVENT, PHASE_INTENT, PHASE_OUTCOME, JournalEntry
from app.core.session import (
    EARLIER_ATTEMPT_MAY_HAVE_DONE,
    EARLIER_SEND_MAY_HAVE_DONE,
    Session,
    e164,
    fate_open,
    journal_target,
)
from app.core.sheet_check import CheckSummary, Target
from app.core.sheet_damage import drops_trunk_zero
from app.core.sheet_dates import LIMIT_BUSINESS_DAYS, business_days_between, late_sentence


def stage_import(
    settings: JobSettings,
    jobs_dir: Path,
    *,
    connection: Connection | None,
    campaign_lookup: Mapping[str, str] | None = None,
) -> tuple[JobStore, CheckSummary]:
    """Check the file and write a new import job file (nothing is sent)."""
    return stage(
        settings, jobs_dir, kind="import", connection=connection, campaign_lookup=campaign_lookup
    )


# A row whose number the list keeps with its country's trunk 0 (see _listed_with_trunk_zero).
TRUNK_ZERO_PRESENT = (
    "already on the list as {form}, written with its trunk 0 (entered by hand or by another "
    "tool); not inserted again in another form"
)
# An insert sent again after an attempt whose fate could not be settled (Unsettled) that
# inserted the number: so that attempt had not.
INSERTED_WHEN_SENT_AGAIN = (
    "inserted when sent again: an earlier send of it got no answer saying whether it was done "
    "and a look-up could not tell whether it had been done"
)


# An already-present row whose entry was inserted before the job started: no attempt of this
# job put it there, whatever became of their answers (see _entry_words).
BEFORE_JOB = "already on the list before this job (entry {id}, inserted {date})"
# What an already-present row that this job may have inserted says of the entry a look-up
# found (the service's date: older than the job by less than _CLOCK_SLACK, or newer).
FOUND_ENTRY = "entry {id} found, inserted {date} by the service's clock"
# A row in flight when the job stopped whose insert's answer the change journal holds: said
# after the answer's own words ("inserted as entry 12", "already on the list").
ANSWER_RECORDED = (
    "the service's answer ({time} UTC) was recorded in the change journal before the job "
    "stopped, so the row was not sent again"
)
ANSWERED_BEFORE_STOP = "inserted{entry}: " + ANSWER_RECORDED
# Such a row's words when its answer was "already present" and no attempt of this job before
# it was left open (see _journal_answer): on the list before the job sent it.
PRESENT_BEFORE_STOP = "already on the list: " + ANSWER_RECORDED
# A resumed row found listed whose entry the change journal shows another job inserted (that
# job's answered insert names the entry): not this job's doing, whatever its interrupted
# attempt became (B25-5: two jobs of one number under one journal, the second's row called
# "may have been inserted by this job" by the entry's recent date alone).
OTHER_JOB_INSERTED = (
    "already on the list: inserted by job {job} (entry {id}, inserted {date}; its answer "
    "was recorded in the change journal at {time} UTC), not by this job"
)
# Recorded outcomes of an attempt that leave whether it inserted the number open (as does none
# recorded: the process ended while it was in flight): "unknown" (stopped after an answer was
# lost) and "failed" (unless a look-up right after found the number not listed).
_OPEN_OUTCOMES = ("unknown", "failed")
# An already-present row this job may have inserted whose look-up for its entry failed.
ENTRY_NOT_LOOKED_UP = "its entry could not be looked up ({why})"
# How many times a look-up for such a row's entry is made while the service fails it (each
# with the client's own retries): a read is harmless to repeat.
LOOK_UP_ROUNDS = 3
# The service's insert dates are its own clock's (the spec does not say its time zone): an entry
# counts as older than the job only when it is older by more than any time zone's offset.
_CLOCK_SLACK = dt.timedelta(hours=26)


def _listed_entries(
    session: Session,
    target: Target,
    row: JobRow,
    scope: Scope,
    number: str = "",
    stop: threading.Event | None = None,
) -> list[DncEntry] | list[SmsOptOut]:
    """The entries an insert of ``row`` in ``scope`` would collide with: the number as the
    insert sends it (or as ``number`` writes it), in that scope (and, in a purpose scope, that
    purpose)."""
    purpose = (row.purpose or scope.purpose_text) if scope.is_purpose else ""
    query = DncQuery(
        scope=scope,
        phone_number=number or row.national,
        phone_code=row.phone_code,
        purpose=purpose,
    )
    if target is Target.DNC:
        return list(session.api.iter_dnc(query, cancel=stop))
    return list(session.api.iter_sms(query, cancel=stop))


def row_note(note: str, row_number: int) -> str:
    """The change journal's note of a row's write: the job's note, then the file row it came
    from (``"<note> (row 7)"``), which was otherwise kept only in the job file, outside the
    hash chain (black-box bb5 F3). The note comes first and unchanged, so a search for it
    still finds every write of the job."""
    return f"{note} (row {row_number})" if note else f"row {row_number}"


def job_start(meta: Mapping[str, Any]) -> dt.datetime | None:
    """When the job first ran (or, before it has, when it was staged), in UTC: no entry older
    than that is its doing."""
    return parse_timestamp(str(meta.get("started") or meta.get("created") or ""))


def _entry_words(
    entries: Sequence[DncEntry | SmsOptOut], since: dt.datetime | None
) -> tuple[str, str]:
    """What an already-present row says of ``entries``: :data:`BEFORE_JOB` for the oldest one
    inserted before ``since`` (the job's start, less :data:`_CLOCK_SLACK`), else ``""``; and
    otherwise :data:`FOUND_ENTRY` for the oldest one found (so the person can judge what the
    slack leaves open), else ``""``.

    An "already present" answer after a lost answer or an interruption then says the number
    was listed before, not that this job may have listed it (black-box pass H1: entries from
    2019 and 2022 were counted among those the job may have inserted)."""
    if not entries:
        return "", ""
    # A bare date ("2026-11-24") counts as its day's end: the entry may be this job's own
    # (black-box B32 F1: entries this job inserted were called "before this job").
    dated = [(when, e) for e in entries if (when := listed_by(e.insert_date)) is not None]
    oldest = min(dated, key=lambda pair: pair[0]) if dated else None
    if oldest is not None and since is not None and oldest[0] < since - _CLOCK_SLACK:
        return BEFORE_JOB.format(id=oldest[1].id, date=oldest[1].insert_date), ""
    first = oldest[1] if oldest is not None else entries[0]
    return "", FOUND_ENTRY.format(id=first.id, date=first.insert_date or "(no date)")


def _other_jobs_entry(
    session: Session,
    kind: str,
    row: JobRow,
    scope: Scope,
    job_id: str,
    entries: Sequence[DncEntry | SmsOptOut],
    since: dt.datetime | None,
) -> str:
    """:data:`OTHER_JOB_INSERTED` naming another job whose answered insert of ``row``'s
    number in ``scope`` (on this service) the change journal holds for each of ``entries``
    (the oldest named), else "": then no attempt of this job made any of them.

    The journal's query of one number under any job cannot use its phone index, so this is
    asked only of the few rows a resume finds in flight, and only of entries since the job
    began (less the clock's slack): an older one is "before this job" already."""
    if not entries:
        return ""
    phone = e164(row.national, row.phone_code)
    target = journal_target(kind, row.national, row.phone_code, scope)
    bound = since - _CLOCK_SLACK if since is not None else None
    theirs: dict[str, JournalEntry] = {}
    for w in session.journal.query(
        operation=f"{kind}.insert",
        phone=phone,
        since=bound.isoformat() if bound is not None else "",
        limit=10_000,
    ):
        entry_id = str((w.after or {}).get("id") or "")
        if (
            entry_id
            and w.phase == PHASE_OUTCOME
            and w.outcome == "ok"
            and w.job
            and w.job != job_id
            and w.target == target
            and w.base_url == session.connection.base_url
        ):
            theirs.setdefault(entry_id, w)
    if not all(str(e.id) in theirs for e in entries):
        return ""
    dated = [(when, e) for e in entries if (when := parse_timestamp(e.insert_date)) is not None]
    first = min(dated, key=lambda pair: pair[0])[1] if dated else entries[0]
    answer = theirs[str(first.id)]
    try:
        time = f"{dt.datetime.fromisoformat(answer.time):%Y-%m-%d %H:%M:%S}"
    except ValueError:
        time = answer.time
    return OTHER_JOB_INSERTED.format(
        job=answer.job, id=first.id, date=first.insert_date or "(no date)", time=time
    )


class _OtherJobsInserts:
    """The journal targets of inserts another job of this data folder got answered "done" on
    this service since this job started, read from the change journal as the job goes: an
    already-present row of one of those numbers is named as that job's doing, not as listed
    before this job (black-box B33-1: two imports of one list at once). Each read pages back
    from the newest entry to the last one read (by id: a filtered query would scan the
    journal), in pages growing from a few entries (a read per already-present row: what was
    written since the last, mostly this job's own entries)."""

    _FIRST_PAGE, _LAST_PAGE = 16, 1024

    def __init__(self, session: Session, kind: str, job_id: str, since: dt.datetime) -> None:
        self._session, self._operation, self._job_id = session, f"{kind}.insert", job_id
        self._lock = threading.Lock()
        # The start is kept to the second: an insert in that second may precede the job.
        start = (since.replace(tzinfo=dt.UTC) if since.tzinfo is None else since) + dt.timedelta(
            seconds=1
        )
        self._start = start.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        self._read_to = 0  # the newest journal id read
        self._targets: set[str] = set()

    def __contains__(self, target: str) -> bool:
        with self._lock:
            newest, below, size = self._read_to, None, self._FIRST_PAGE
            while True:
                page = self._session.journal.query(limit=size, max_id=below)
                for w in page:
                    if w.id <= self._read_to or w.time < self._start:
                        page = []
                        break
                    newest = max(newest, w.id)
                    if (
                        w.operation == self._operation
                        and w.phase == PHASE_OUTCOME
                        and w.outcome == "ok"
                        and w.job
                        and w.job != self._job_id
                        and w.base_url == self._session.connection.base_url
                    ):
                        self._targets.add(w.target)
                if len(page) < size:
                    break
                below, size = page[-1].id - 1, min(size * 2, self._LAST_PAGE)
            self._read_to = newest
            return target in self._targets


def _present_text(words: tuple[str, str], maybe: str) -> str:
    """The row's words for an entry ``words`` (:func:`_entry_words`) names: the entry older
    than the job, or ``maybe`` (an entry this job may have made) naming the entry found."""
    before, found = words
    if before:
        return before
    return f"{maybe}; {found}" if found else maybe


def _listed_with_trunk_zero(
    session: Session,
    target: Target,
    row: JobRow,
    scope: Scope,
    stop: threading.Event | None,
) -> tuple[str, list[DncEntry] | list[SmsOptOut], FormSearch | None]:
    """The number as the list keeps it with its country's trunk 0 ("02079460009" for +44 20
    7946 0009), when it is listed so in the row's scope, else "", and its entries so listed;
    last, that search when the service refused it as a DNC phone number format it does not
    take (:func:`app.core.dnc_removal.refuses_form`): it keeps no entry so, and the row is
    inserted, saying the form was not looked up (black-box B36 F3: every UK row failed).

    The service matches a number's text exactly, and an entry made by hand or by another
    tool may keep the trunk 0: inserting the number as the app writes it would add a second
    entry for the same line (both block calls, but the list then holds it twice, and list
    health flags one as malformed). Removals and evidence find that form too. A failed
    look-up sends nothing: an unanswered one or a 5xx sends the row again later in the run
    (:class:`~app.core.job_runner.NotDone`), any other error ends it as the error says; both
    say nothing was inserted.
    """
    if not drops_trunk_zero(row.phone_code) or row.national.startswith("0"):
        return "", [], None
    form = "0" + row.national
    search = FormSearch(form, FormKind.TRUNK, row.phone_code)
    try:
        listed = _listed_entries(session, target, row, scope, form, stop)
    except TransportError as exc:
        unanswered = TransportError(
            exc.endpoint,
            f"looking the number up with its trunk 0 before its insert (nothing was inserted): "
            f"{exc.message}",
            timeout=exc.timeout,
            sent=False,
        )
        raise NotDone(unanswered, before_write=True) from exc
    except ServerError as exc:
        exc.add_detail(
            "while looking the number up with its trunk 0 before its insert (nothing was inserted)"
        )
        raise NotDone(exc, before_write=True) from exc
    except ApiError as exc:
        # The SMS search's 6006 is another error (invalid campaign id).
        if target is Target.DNC and refuses_form(exc, search):
            return "", [], search
        exc.add_detail(
            "while looking the number up with its trunk 0 before its insert (nothing was inserted)"
        )
        raise
    return (form, listed, None) if listed else ("", [], None)


@dataclass(frozen=True, slots=True)
class _Answered:
    """This job's insert of a row's number in its scope as the change journal recorded its
    answer (:func:`_journal_answer`)."""

    # "ok" (the service inserted it) or "already_present".
    outcome: str
    # The entry the "ok" named ("" when none, or for "already present").
    entry_id: str
    # When the answer was recorded (None: the journal's time did not parse; ``time`` says it).
    when: dt.datetime | None
    time: str
    # For "already present": whether an attempt of this job at or before the answered one
    # was left open, so that the answer may be that attempt's own doing.
    echo: bool

    @property
    def words(self) -> str:
        """The sentence saying the answer was recorded before the stop."""
        return ANSWER_RECORDED.format(time=self.time_text)

    @property
    def done_on(self) -> dt.date | None:
        """The answer's day, when before today (the row's insertion, for its lateness)."""
        # The journal's time is UTC; the insertion's day is this computer's (B28 F1).
        day = local_day(self.time) if self.when is not None else None
        today = dt.date.today()
        return day if day and day < today else None

    def inserted(self) -> RowResult:
        text = ANSWERED_BEFORE_STOP.format(
            entry=f" as entry {self.entry_id}" if self.entry_id else "", time=self.time_text
        )
        return RowResult(Outcome.INSERTED, text, done_on=self.done_on)

    @property
    def time_text(self) -> str:
        """When the answer was recorded, as the row says it (UTC)."""
        return f"{self.when:%Y-%m-%d %H:%M:%S}" if self.when is not None else self.time


def _journal_answer(
    session: Session, kind: str, row: JobRow, scope: Scope, job_id: str
) -> _Answered | None:
    """The answer the change journal recorded for this job's insert of ``row``'s number in its
    scope: its newest "done" ("ok"), else its newest "already present"; None when the journal
    holds neither. For a row that was in flight when the job stopped: the answer can be
    recorded and the process killed before the job file committed the row's outcome.

    An "already present" answer is an ``echo`` when an attempt of this job at or before it
    was left open (:data:`_OPEN_OUTCOMES`, or an answer lost before a retry of that attempt,
    which its recorded outcome says): that attempt may have put the number on the list. A
    "failed" attempt is settled, not open, when a look-up journaled after it
    (``{kind}.insert.checked``) found the number not listed."""
    phone = e164(row.national, row.phone_code)
    target = journal_target(kind, row.national, row.phone_code, scope)
    writes = [
        w
        for w in session.journal.job_writes(job=job_id, operation=f"{kind}.insert", phone=phone)
        if w.target == target
    ]
    answers = [w for w in writes if w.phase == PHASE_OUTCOME]
    answer = next((w for w in answers if w.outcome == "ok"), None) or next(
        (w for w in answers if w.outcome == WriteStatus.ALREADY_PRESENT.value), None
    )
    if answer is None:
        return None
    try:
        when: dt.datetime | None = dt.datetime.fromisoformat(answer.time)  # journal.utc_now()
    except ValueError:
        when = None
    if answer.outcome == "ok":
        entry_id = str((answer.after or {}).get("id") or "")
        return _Answered(answer.outcome, entry_id, when, answer.time, echo=False)
    echo = _left_open(session, f"{kind}.insert.checked", phone, job_id, writes, answer)
    return _Answered(answer.outcome, "", when, answer.time, echo)


def _left_open(
    session: Session,
    checked: str,
    phone: str,
    job_id: str,
    writes: Sequence[JournalEntry],
    answer: JournalEntry,
) -> bool:
    """Whether an attempt among ``writes`` (one job's inserts of one number in one scope,
    intents and outcomes) at or before the one ``answer`` answered was left open: its answer
    lost before a retry (its outcome says so), or, before it, an attempt whose outcome is
    none or one of :data:`_OPEN_OUTCOMES`, unless a ``checked`` look-up found the number not
    listed after it."""
    outcomes = {w.ref: w for w in writes if w.phase == PHASE_OUTCOME}
    checks: list[JournalEntry] | None = None
    for intent in (w for w in writes if w.phase == PHASE_INTENT and w.id <= (answer.ref or 0)):
        outcome = outcomes.get(intent.id)
        if outcome is not None and (
            EARLIER_ATTEMPT_MAY_HAVE_DONE in outcome.error
            or EARLIER_SEND_MAY_HAVE_DONE in outcome.error
        ):
            return True
        if intent.id == answer.ref or (
            outcome is not None and outcome.outcome not in _OPEN_OUTCOMES
        ):
            continue
        if outcome is not None and outcome.outcome == "failed":
            if checks is None:
                checks = session.journal.job_writes(
                    job=job_id, operation=checked, phone=phone, phase=PHASE_EVENT
                )
            if _found_not_listed(checks, answer.target, outcome.id, answer.id):
                continue
        return True
    return False


def _found_not_listed(checks: Sequence[JournalEntry], target: str, after: int, before: int) -> bool:
    """Whether one of ``checks`` (``insert.checked`` events) of ``target`` journaled between
    entries ``after`` and ``before`` found the number not listed: the failed attempt before it
    did not insert it (:func:`_checked_after_error`)."""
    return any(
        c.target == target and after < c.id < before and (c.after or {}).get("listed_after") == []
        for c in checks
    )


def _checked_after_error(
    session: Session,
    target: Target,
    row: JobRow,
    scope: Scope,
    error: ApiError,
    resent: str,
    job_id: str,
    note: str,
    since: dt.datetime | None = None,
) -> tuple[RowResult, list[DncEntry] | list[SmsOptOut]] | None:
    """After an insert ended in an error that leaves its fate open (no answer to a request
    that was sent, a 5xx, or any error after an earlier attempt's answer was lost), the
    number is looked up in the row's scope: listed means it is on the list
    (``already_present``: an attempt of this job may have put it there); not listed means the
    insert was not done: :class:`~app.core.job_runner.NotDone` is raised with the insert's
    error saying so (the runner sends the row again later; its sends count towards the stop
    for a service that keeps failing, so an outage still pauses the job). The look-up
    is journaled as an event beside the insert's "failed" outcome. Returns the row's result
    and the entries found; None when the error leaves nothing open (the row goes on as the
    error says); a look-up that fails too raises :class:`~app.core.job_runner.Unsettled` with
    the insert's error, saying so."""
    if not fate_open(error):
        return None
    kind = "dnc" if target is Target.DNC else "sms"
    phone = e164(row.national, row.phone_code)

    def journal(details: dict[str, Any]) -> None:
        target_text = journal_target(kind, row.national, row.phone_code, scope)
        session.record_look_up(
            f"{kind}.insert.checked", target_text, phone, error, details, job=job_id, note=note
        )

    try:
        entries = _listed_entries(session, target, row, scope)
    except ApiError as failed:
        journal({"look_up_error": str(failed)})
        # Inserting twice is harmless (a listed number is answered "already present"), so the
        # runner sends the row again later and that answer settles it.
        error.add_detail(
            f"a look-up right after it failed too ({failed.message}), so whether the number "
            "is on the list is not known"
        )
        raise Unsettled(error) from failed
    listed = [entry.id for entry in entries]
    journal({"listed_after": listed})
    if not listed:
        # Not done, so safe to send again: the runner sends it again later in the run (a few
        # times at most; then it goes on as the error leaves it: held, failed once other rows
        # are answered, or kept for a resume when the service keeps failing), saying what the
        # look-up found.
        error.add_detail(
            "a look-up right after it found the number not on the list, so it was not inserted"
        )
        # Settled: that attempt (or earlier send) did not insert it either.
        error.earlier_attempt_lost = error.earlier_send_open = False
        raise NotDone(error, _said(error)) from None
    found = _present_text(_entry_words(entries, since), FOUND_AFTER_ERROR)
    text = f"{found} (the insert's error: {_said(error)})"
    return RowResult(Outcome.ALREADY_PRESENT, f"{resent}; {text}" if resent else text), entries


def _said(error: ApiError) -> str:
    """The insert's error as its row says it."""
    if isinstance(error, TransportError):
        return f"no answer from the service: {error.describe()}"
    return error.describe()


# What an already-present row says of a request the number's oldest entry honoured at once
# (inserted before the request's day, or on it), or within the limit. {entry} names the entry:
# ENTRY, or GLOBAL_ENTRY when a row in a campaign or purpose was honoured by a global one.
LISTED_BEFORE_REQUEST = (
    "on the list{form} since {date} ({entry}), before the request was received: not late"
)
LISTED_ON_REQUEST_DAY = (
    "on the list{form} since {date} ({entry}), the day the request was received: not late"
)
LISTED_IN_TIME = (
    "on the list{form} since {date} ({entry}), {days} after the request was received: not late"
)
ENTRY = "entry {id}"
GLOBAL_ENTRY = "global entry {id}"
# Said after the words of a row honoured by a global entry, which its own scope's entry is not.
GLOBAL_COVERS = "a global entry covers every campaign and purpose"
# A late request's sentence counts to this day when the entry tells when the number was listed.
WHEN_LISTED = "{date}, when {entry} put the number on the list{form}"
# {form} above: the written form of an entry keeping the number otherwise than the app writes
# it ("17025550133" for +1 702 555 0133, found by :func:`_other_forms`), so a person can find it.
AS_FORM = " as {number}"
AS_FORM_CODE = " as {number} under phone code {code}"
WHEN_FOUND = "{date}, when the job found the number on the list"
# When the look-up for the entry's date fails: the row keeps the day the job found it.
FIRST_LISTED_UNKNOWN = (
    FIRST_LISTED_UNCHECKED + " ({why}), so the request is counted to the day the job found it"
)
# An inserted row in a campaign or purpose scope whose late request's look-up of the global
# list failed: counted to its insertion, though a global entry may have honoured it sooner.
GLOBAL_UNKNOWN = (
    "whether a global entry, which covers every campaign and purpose, put the number on the "
    "list sooner could not be checked ({why})"
)
# When one look-up found an entry after the request and the other (the row's scope, or the
# global list) failed: an earlier entry there may have honoured the request sooner.
EARLIER_UNKNOWN = EARLIER_UNCHECKED + " ({why})"
# An inserted row whose late request's look-up of the number's other written forms failed:
# counted to its insertion (or the entry found), though such an entry may be older.
OTHER_FORMS_UNKNOWN = (
    "whether an entry keeping the number in another written form put it on the list sooner "
    "could not be checked ({why})"
)
# What a failed look-up of another written form says (inside the sentences above).
FORM_LOOK_UP_FAILED = "the look-up of {number}{where} failed: {error}"
# Such a failure among the reasons of :data:`EARLIER_UNKNOWN` and :data:`FIRST_LISTED_UNKNOWN`.
IN_OTHER_FORM = "in another written form, {why}"
Entries = Sequence[DncEntry | SmsOptOut]
# The day a number was first on the list, the entry that put it there, whether that entry
# is a global one found for a row in another scope, and how the row says the entry's written
# form ("" for the form the row was sent in; :data:`AS_FORM` for another).
Listed = tuple[dt.date, DncEntry | SmsOptOut, bool, str]
# A service's clock is UTC-12 to UTC+14, in steps of 15 minutes; an entry this job inserted is
# stamped a moment before its answer came, so a stamp further than the tolerance from such a
# step is not believed (a retried insert is not used: its stamp may be an earlier attempt's).
_WEST_MOST, _EAST_MOST = dt.timedelta(hours=-12), dt.timedelta(hours=14)
_OFFSET_STEP, _OFFSET_TOLERANCE = dt.timedelta(minutes=15), dt.timedelta(minutes=3)
# How many entries this job inserted are looked up, at most, to learn the service's clock.
CLOCK_LOOK_UPS = 2
# An already-present row's lateness when its entry's day is the service's (its zone not
# learnt, or a date with no time) and a day either way would change the verdict.
SERVICE_DAY_UNSURE = (
    "not certain: {entry}" + SERVICE_ZONE_UNKNOWN + " (no entry this job inserted could "
    "tell it), and a day {way} on this computer's clock would make the request {verdict}"
)
# Said when an entry's insert date falls on another day on this computer's clock.
SERVICE_DAY_MOVED = "{entry} inserted {stamp} by the service's clock (UTC{offset}): {day} here"


class ServiceClock:
    """The service's clock against UTC, learnt from an entry this job inserted (its stamp
    against the UTC time its insert's answer came), so that an already-present row's entry is
    dated on this computer's clock, as an inserted row's insertion is (black-box B32 F2: with
    the service in another zone, one real day was late on one row and not late on another).
    Learnt only when a row's verdict hangs on it (a day's shift would change it), from the
    job's first inserts (:meth:`inserted`): at most :data:`CLOCK_LOOK_UPS` look-ups a run."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tries = 0
        self._inserted: list[tuple[JobRow, Scope, str, dt.datetime]] = []
        self.offset: dt.timedelta | None = None

    def inserted(self, row: JobRow, scope: Scope, entry_id: str, answered: dt.datetime) -> None:
        """Keep an entry this job inserted (``entry_id``: its id, "" for SMS), whose insert's
        answer came at ``answered`` (UTC), to learn the clock from if needed."""
        with self._lock:
            if self.offset is None and len(self._inserted) + self._tries < CLOCK_LOOK_UPS:
                self._inserted.append((row, scope, entry_id, answered))

    def learn_with(self, look_up: Callable[[JobRow, Scope], Entries]) -> None:
        """Learn the clock, unless known, from the entries kept (:meth:`inserted`), each
        looked up with ``look_up`` (an :class:`ApiError` leaves it unknown)."""
        with self._lock:  # one look-up at a time: the rows waiting are dated by it
            while self.offset is None and self._inserted and self._tries < CLOCK_LOOK_UPS:
                row, scope, entry_id, answered = self._inserted.pop(0)
                self._tries += 1
                try:
                    found = look_up(row, scope)
                except (ApiError, Cancelled):
                    continue
                # DNC answers the entry's id; an SMS insert answers nothing: its newest entry.
                mine = [e for e in found if e.id == entry_id] if entry_id else list(found)
                dated = [(when, e) for e in mine if (when := parse_timestamp(e.insert_date))]
                if dated:
                    self.learn(max(dated, key=lambda pair: pair[0])[1].insert_date, answered)

    def learn(self, stamp: str, answered: dt.datetime) -> None:
        """Take the offset ``stamp`` (an entry's insert date) shows against ``answered`` (the
        UTC time of its insert's answer), when it is a plausible one."""
        when = parse_timestamp(stamp)
        if when is None or is_bare_date(stamp):
            return
        gap = when - answered.astimezone(dt.UTC).replace(tzinfo=None)
        offset = _OFFSET_STEP * round(gap / _OFFSET_STEP)
        if abs(gap - offset) <= _OFFSET_TOLERANCE and _WEST_MOST <= offset <= _EAST_MOST:
            self.offset = offset

    def day(self, stamp: str) -> tuple[dt.date, bool] | None:
        """The day ``stamp`` falls on by this computer's clock, and whether that is certain
        (else it is the service's own day: its offset unknown, or a date with no time)."""
        when = parse_timestamp(stamp)
        if when is None:
            return None
        offset = self.offset
        if offset is None or is_bare_date(stamp):
            return when.date(), False
        return (when - offset).replace(tzinfo=dt.UTC).astimezone().date(), True

    def words(self, entry: str, stamp: str, received: dt.date, today: dt.date) -> str:
        """What a row measured to the entry dated ``stamp`` says of the clock: its day here
        when that is not the service's, or that a day's shift would change its verdict."""
        found = self.day(stamp)
        if found is None:
            return ""
        day, certain = found
        if not certain:
            way = _day_flips(received, today, day)
            if way is None:
                return ""
            said = "not late" if _is_late(received, min(day, today)) else "late"
            return SERVICE_DAY_UNSURE.format(entry=entry, way=way, verdict=said)
        offset = self.offset or dt.timedelta()
        if day == (parse_timestamp(stamp) or dt.datetime.min).date():
            return ""
        sign, size = ("-", -offset) if offset < dt.timedelta() else ("+", offset)
        hours, minutes = divmod(int(size.total_seconds()) // 60, 60)
        return SERVICE_DAY_MOVED.format(
            entry=entry, stamp=stamp, offset=f"{sign}{hours:02d}:{minutes:02d}", day=day
        )


def _day_flips(received: dt.date, today: dt.date, day: dt.date) -> str | None:
    """Which way ("earlier", "later") a day's shift gives a request received on ``received``,
    counted to ``day`` (capped at ``today``), another verdict; None when neither does."""
    late = _is_late(received, min(day, today))
    for way, shift in (("earlier", -1), ("later", 1)):
        if _is_late(received, min(day + dt.timedelta(days=shift), today)) != late:
            return way
    return None


def _is_late(received: dt.date, honoured: dt.date) -> bool:
    """Whether a request received on ``received`` and honoured on ``honoured`` is late."""
    return honoured > received and business_days_between(received, honoured) > LIMIT_BUSINESS_DAYS


def _first_listed(
    entries: Entries,
    is_global: bool = False,
    row: JobRow | None = None,
    clock: ServiceClock | None = None,
) -> Listed | None:
    """The day the oldest of ``entries`` was inserted (by the service's clock: a date-level
    comparison with a request is all it bears), with that entry; None when none has a date.
    With ``row``, an entry keeping the number in another written form than ``row``'s is said
    with its form (:data:`AS_FORM`)."""
    dated = [(when, e) for e in entries if (when := parse_timestamp(e.insert_date)) is not None]
    if not dated:
        return None
    when, entry = min(dated, key=lambda pair: pair[0])
    form = ""
    if row is not None and (entry.phone_number, entry.phone_code or row.phone_code) != (
        row.national,
        row.phone_code,
    ):
        form = (
            AS_FORM.format(number=entry.phone_number)
            if (entry.phone_code or row.phone_code) == row.phone_code
            else AS_FORM_CODE.format(number=entry.phone_number, code=entry.phone_code)
        )
    found = clock.day(entry.insert_date) if clock is not None else None
    return found[0] if found is not None else when.date(), entry, is_global, form


def _would_be_late(received: dt.date, day: dt.date, first: Listed | None) -> bool:
    """Whether a request received on ``received`` is late counted to ``first``'s day (the
    number's oldest entry found), or, with none found, to ``day`` (its insertion, or the day
    the job found it listed)."""
    return _is_late(received, min(first[0], day) if first is not None else day)


def _listing_words(
    received: dt.date,
    today: dt.date,
    first: Listed | None,
    why: str,
    unknown: str = "",
    clock: ServiceClock | None = None,
) -> tuple[str, str]:
    """What an already-present row with a request received on ``received`` says of its
    lateness, and the day its request was honoured (for the job file, "" for ``today``).

    ``first`` is the day its number was first on the list and that entry (None when the
    look-ups could not tell, ``why`` saying so): on or before the request's day means
    honoured at once; after it, counted to that day (capped at ``today``: the job found it
    listed). ``unknown``: why a look-up that might have found an earlier entry failed, said
    when ``first`` is after the request."""
    if first is None:
        words = FIRST_LISTED_UNKNOWN.format(why=why)
        days = business_days_between(received, today)
        if days > LIMIT_BUSINESS_DAYS:
            words = f"{late_sentence(received, days, WHEN_FOUND.format(date=today))}; {words}"
        return words, ""
    listed, entry, is_global, form = min(first[0], today), first[1], first[2], first[3]
    label = (GLOBAL_ENTRY if is_global else ENTRY).format(id=entry.id)
    if listed < received:
        text = LISTED_BEFORE_REQUEST.format(date=listed, entry=label, form=form)
    elif listed == received:
        text = LISTED_ON_REQUEST_DAY.format(date=listed, entry=label, form=form)
    else:
        days = business_days_between(received, listed)
        if days > LIMIT_BUSINESS_DAYS:
            when = WHEN_LISTED.format(date=listed, entry=label, form=form)
            text = late_sentence(received, days, when)
        else:
            text = LISTED_IN_TIME.format(
                date=listed, entry=label, days=_business_days(days), form=form
            )
        if unknown:
            text = f"{text}; {EARLIER_UNKNOWN.format(why=unknown)}"
    if clock is not None and (said := clock.words(label, entry.insert_date, received, today)):
        text = f"{text}; {said}"
    if is_global:
        text = f"{text}; {GLOBAL_COVERS}"
    return text, listed.isoformat()


def _business_days(days: int) -> str:
    """``days`` business days, said as a count of 1 is ("1 business day")."""
    return f"{days} business day{'' if days == 1 else 's'}"


class _Said(Protocol):
    """An already-present row's words from the entries a look-up found (None: it failed,
    ``why`` saying how)."""

    def __call__(self, entries: Entries | None, why: str = "") -> RowResult: ...


@dataclass(frozen=True, slots=True)
class _MaybeWords:
    """How an already-present row that an attempt of this job may have inserted is said,
    besides its entries (see ``_maybe_present`` in :func:`insert_sender`): kept in the job
    file with a look-up the job's stop cut short, so the resume says the row from the entries
    its own look-up finds, as a run not stopped does (black-box B28: the row kept "its entry
    could not be looked up (the look-up was stopped with the job)" after the resume's
    look-up found it)."""

    maybe: str
    before: str = ""
    extra: str = ""
    resumed: bool = False

    def kept(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def read(cls, kept: object) -> _MaybeWords | None:
        """The words :meth:`kept` wrote (None: none, as a job file of an earlier version)."""
        if not isinstance(kept, Mapping):
            return None
        return cls(
            str(kept.get("maybe", "")),
            str(kept.get("before", "")),
            str(kept.get("extra", "")),
            bool(kept.get("resumed", False)),
        )


@dataclass(frozen=True, slots=True)
class _Sent:
    """What sending an import row came to: its ``result``, the entries a look-up of the row's
    scope found on its way (None: none was made, or it failed), and, for a row whose words
    depend on its entries (an attempt of this job may have inserted it) and whose look-up
    failed, how to say it again from entries a later look-up finds (``again``, from
    ``words``)."""

    result: RowResult
    entries: Entries | None = None
    again: _Said | None = None
    words: _MaybeWords | None = None


def insert_sender(
    session: Session,
    target: Target,
    job_id: str,
    note: str,
    stop: threading.Event | None = None,
    since: dt.datetime | None = None,
    store: JobStore | None = None,
) -> Sender:
    """The function that sends one row of an import job.

    ``stop`` (the job's :attr:`JobControl.stop`) cancels a row's insert while it waits for its
    turn under the rate limit, never once its first attempt was sent: the row is then pending
    again, and its journal intent ``not_attempted``. An insert ending in an error that leaves
    its fate open is followed by a look-up of the number (:func:`_checked_after_error`).
    ``since`` is when the job started (:func:`job_start`): an "already present" answer that an
    earlier attempt of this job may have caused (its answer lost, the job interrupted) is
    looked up, and an entry inserted before then says so (:func:`_entry_words`).

    Every already-present row with a request date is measured to the day its number was
    first on the list (:func:`_listing_words`), from the entries a look-up above found or,
    when none was made (or it failed), one of its own: at most one look-up of its scope that
    answers (black-box L3 #1, re-test M2 #2: numbers listed years before their requests were
    counted to the day the job found them, late or not). A row in a campaign or purpose
    scope whose entry there is after its request also looks the number up on the global list,
    whose entry covers every campaign and purpose (re-test M2 #7: a campaign row was late at
    34 business days though the number had been on the global list since 2024). The day goes
    in ``store`` (:meth:`JobStore.set_honoured`), which the report's lateness counts to. A
    failed look-up keeps the row's outcome and today's count, saying it could not be checked
    (the report's Summary counts those rows: re-test M2 #3). An entry the date look-up finds
    from before the job also settles a row an attempt of this job might have inserted, its
    own look-up having failed (re-test M2 #4).

    A row inserted in a campaign or purpose scope whose request would be late counted to its
    insertion looks the number up on the global list too, and is measured as above to a
    global entry from before its insertion (black-box N3 #1: a campaign-1001 row was late at
    14 business days though the number had been on the global list since 2023). Rows not late
    cost no look-up. A failed look-up leaves it counted to its insertion, saying so.

    A row whose request is still late after those look-ups (inserted, in any scope, or already
    present) looks up the number's other written forms (:func:`_other_forms`) and is measured to
    an older entry kept so, naming its form (B9 #2, B12 #11: a number listed since 2024 as
    17025550133 was inserted as 7025550133 and its request called late). A failed search of
    them says so, as above.
    """
    insert = session.insert_dnc if target is Target.DNC else session.insert_sms
    kind = "dnc" if target is Target.DNC else "sms"
    # Rows this run left Unsettled: sent again, an earlier attempt of theirs may have been done.
    unsettled: set[int] = set()
    # The DNC written forms of a row's number the service refused to search, by row: said
    # once, last in the row's message (by ``send``).
    refusals: dict[int, list[FormSearch]] = {}

    def note_refused(row: JobRow, search: FormSearch) -> None:
        forms = refusals.setdefault(row.seq, [])
        if search not in forms:
            forms.append(search)

    # The job file marks a row "sending" before its trunk-0 look-up, so a row killed or
    # stopped during it was never sent: it says "sent again" only when the journal has an
    # insert of it sent (S18 H1b). Asked once a run, before the row's first send in it (after
    # it, that send's own insert would count); the runner's words of a failed row ask it too.
    went_out = journal_sent_before(session, job_id, kind, f"{kind}.insert")
    asked: dict[int, str] = {}
    clock = ServiceClock()
    others = _OtherJobsInserts(session, kind, job_id, since) if since is not None else None

    def _on_clock(received: dt.date, day: dt.date, first: Listed | None) -> Listed | None:
        """``first`` dated on this computer's clock when its verdict counted to it (or to
        ``day``) hangs on the service's clock, which is then learnt (:class:`ServiceClock`)."""
        if first is None or clock.offset is not None:
            return first
        if _day_flips(received, day, first[0]) is None:
            return first
        clock.learn_with(lambda r, s: _listed_entries(session, target, r, s, stop=stop))
        found = clock.day(first[1].insert_date)
        return (found[0], *first[1:]) if found is not None else first

    def sent_before(row: JobRow) -> str:
        if row.seq not in asked:
            asked[row.seq] = went_out(row)
        return asked[row.seq]

    def stopping() -> bool:
        """Whether the job is being stopped: a look-up failing then (its connection shut
        after the stop) was cut short by it, and is made again on resume."""
        return stop is not None and stop.is_set()

    def _look_up(row: JobRow, scope: Scope, rounds: int = 1) -> tuple[Entries | None, str]:
        """The row's entries in ``scope``, or None and why the look-up failed; made up to
        ``rounds`` times while the service fails it (a 429, a 5xx, no answer)."""
        for round_ in range(1, rounds + 1):
            try:
                return _listed_entries(session, target, row, scope, stop=stop), ""
            except (RateLimitedError, ServerError, TransportError) as exc:
                if stopping():
                    return None, LOOK_UP_STOPPED
                if round_ < rounds:
                    continue
                return None, f"the look-up failed: {exc.describe()}"
            except ApiError as exc:
                return (
                    None,
                    LOOK_UP_STOPPED if stopping() else f"the look-up failed: {exc.describe()}",
                )
            except Cancelled:
                return None, LOOK_UP_STOPPED
        raise AssertionError("rounds must be at least 1")

    def _other_forms(row: JobRow, scope: Scope) -> tuple[Listed | None, str]:
        """The oldest entry keeping the row's number in another written form than the one the
        insert sends (:func:`app.core.dnc_removal.form_searches`: "17025550133" under any
        phone code, "07911123456" under 44, ...), in ``scope`` and, for a campaign or purpose
        row, on the global list; each hit taken for the number only as a removal and evidence
        take it (:func:`~app.core.dnc_removal.names_number`). Also why a search failed ("" when
        none did): the searches stop at the first that fails (a failing service is asked no
        more). Made for rows whose request would be late only: one search per form and scope.
        A DNC form the service refuses to search (a phone number format it does not take:
        :func:`app.core.dnc_removal.refuses_form`) keeps no entry there: neither found nor a
        failure, it is left out and the row says so (black-box B36 F3)."""
        scopes = [scope] if scope.is_global else [scope, Scope.global_()]
        searches = [
            s for s in form_searches(row.national, row.phone_code) if s.kind is not FormKind.APP
        ]

        def iterate(query: DncQuery, cancel: threading.Event | None) -> Entries:
            if target is Target.DNC:
                return list(session.api.iter_dnc(query, cancel=cancel))
            return list(session.api.iter_sms(query, cancel=cancel))

        oldest: Listed | None = None
        for where in scopes:
            purpose = (row.purpose or scope.purpose_text) if where.is_purpose else ""
            for search in searches:
                if search in refusals.get(row.seq, []):
                    continue
                query = DncQuery(
                    scope=where,
                    phone_number=search.number,
                    phone_code=search.phone_code,
                    purpose=purpose,
                )
                try:
                    try:
                        found = iterate(query, stop)
                    except ApiError as exc:
                        # An SMS service that wants a phone code beside the number is asked
                        # under the number's own (as evidence does).
                        if search.phone_code or target is Target.DNC or exc.code != SMS_NEEDS_CODE:
                            raise
                        query = DncQuery(
                            scope=where,
                            phone_number=search.number,
                            phone_code=row.phone_code,
                            purpose=purpose,
                        )
                        found = iterate(query, stop)
                except ApiError as exc:
                    # The SMS search's 6006 is another error (invalid campaign id).
                    if target is Target.DNC and refuses_form(exc, search):
                        note_refused(row, search)
                        continue
                    if stopping():
                        return oldest, LOOK_UP_STOPPED
                    on = " on the global list" if where.is_global and not scope.is_global else ""
                    why = FORM_LOOK_UP_FAILED.format(
                        number=search.number, where=on, error=exc.describe()
                    )
                    return oldest, why
                except Cancelled:
                    return oldest, LOOK_UP_STOPPED
                mine = [
                    e
                    for e in found
                    if names_number(e.phone_number, e.phone_code, row.national, row.phone_code)
                ]
                first = _first_listed(mine, where.is_global and not scope.is_global, row, clock)
                if first is not None and (oldest is None or first[0] < oldest[0]):
                    oldest = first
        return oldest, ""

    def _with_lateness(
        row: JobRow, scope: Scope, sent: _Sent, found_on: dt.date | None = None
    ) -> RowResult:
        """``sent``'s result of an already-present row, saying how late its request was (see
        above); ``found_on``: the day an earlier run found it listed (its look-ups made again
        on resume), else today."""
        result, entries = sent.result, sent.entries
        received = request_day(row)
        today = min(found_on or dt.date.today(), dt.date.today())
        if received is None or received > today:
            # No request date, or one after today: no business days to count (the row's note
            # says why).
            if row.honoured_on and store is not None:  # from an earlier send of this row
                store.set_honoured(row.seq, "")
            if sent.words is not None:
                # No lateness to measure, but the row's words name its entry, which the
                # resume looks up when the stop cut this run's look-up short.
                _recheck_if_stopped(row, result, result.message, words=sent.words)
            return result
        why = ""
        if entries is None:
            entries, why = _look_up(row, scope)
            if entries is not None and sent.again is not None:
                result = sent.again(entries)
        first = _first_listed(entries, clock=clock) if entries is not None else None
        failed = why
        if first is None and not why:
            why = "a look-up found no entry of the number with an insert date"
        unknown = ""
        if not scope.is_global and (first is None or first[0] > received):
            # A global entry covers the row's campaign or purpose too, and may be older.
            global_entries, global_why = _look_up(row, Scope.global_())
            in_global = _first_listed(global_entries, True, clock=clock) if global_entries else None
            if in_global is not None and (first is None or in_global[0] < first[0]):
                first, unknown = in_global, f"in {scope}, {why}" if why else ""
            elif global_why:
                unknown = f"on the global list, {global_why}"
                if first is None:
                    why = f"{why}; {unknown}"
        first = _on_clock(received, today, first)
        if _would_be_late(received, today, first):
            # The number may have been on the list for years in another written form
            # ("17025550133"): a late row alone costs those searches (B9 #2, B12 #11).
            other, other_why = _other_forms(row, scope)
            if other is not None and (first is None or other[0] < first[0]):
                if first is None and failed:
                    unknown = "; ".join(x for x in (unknown, f"in {scope}, {failed}") if x)
                first = other
            if other_why:
                said = IN_OTHER_FORM.format(why=other_why)
                unknown = "; ".join(x for x in (unknown, said) if x)
                if first is None:
                    why = f"{why}; {said}"
        first = _on_clock(received, today, first)
        text, honoured = _listing_words(received, today, first, why, unknown, clock)
        if store is not None:
            store.set_honoured(row.seq, honoured)
        _recheck_if_stopped(row, result, why, unknown, words=sent.words)
        message = "; ".join(x for x in (result.message, text) if x)
        return RowResult(result.outcome, message, result.code)

    def _recheck_if_stopped(
        row: JobRow, result: RowResult, *whys: str, words: _MaybeWords | None = None
    ) -> None:
        """Leave the row's look-ups to the resume when the job's stop cut one short (``whys``
        say so): the row keeps its outcome, and the resume makes them again from what its send
        said (black-box B28 F2: a pause lost every look-up made after the inserts, and
        numbers listed long before their requests stayed late after the resume); ``words``:
        how to say the row again from the entries found (:class:`_MaybeWords`)."""
        if store is not None and any(LOOK_UP_STOPPED in why for why in whys):
            kept: dict[str, Any] = {"staged": row.message, "said": result.message}
            if words is not None:
                kept["words"] = words.kept()
            store.set_recheck(row.seq, kept)

    def _recheck(row: JobRow, scope: Scope) -> RowResult | None:
        """A done row's look-ups made again on resume (:meth:`JobStore.unfinished` hands it
        out, ``row.message`` its staged note), counted to the day its earlier run ended; None
        when it has none left."""
        again = store.take_recheck(row.seq) if store is not None else None
        if again is None:
            return None
        said = str(again.get("said", ""))
        ended = local_day(row.done_at)
        if row.outcome == Outcome.INSERTED.value:
            done_on = ended if ended is not None and ended < dt.date.today() else None
            result = RowResult(Outcome.INSERTED, said, done_on=done_on)
            return _inserted_lateness(row, scope, result)
        words = _MaybeWords.read(again.get("words"))
        if words is None:
            return _with_lateness(
                row, scope, _Sent(RowResult(Outcome.ALREADY_PRESENT, said)), ended
            )
        # Its entry's look-up was cut short too: made again, the row is said from what it
        # finds, as _send says it.
        return _with_lateness(row, scope, _said_from_look_up(row, scope, words), ended)

    def _inserted_lateness(row: JobRow, scope: Scope, result: RowResult) -> RowResult:
        """``result`` of an inserted row, measured to a global entry older than its insertion
        when its request, counted to the insertion, would be late and its scope is a campaign
        or a purpose (see above); the global list is looked up for such rows only, so an
        upload's other rows cost no request. Its insertion is today, or ``result.done_on``
        (an answer the change journal kept), which it is then counted to."""
        received = request_day(row)
        today = dt.date.today()
        inserted = min(result.done_on or today, today)
        honoured, text = "", ""
        if (
            received is not None
            and received <= inserted
            and business_days_between(received, inserted) > LIMIT_BUSINESS_DAYS
        ):
            first: Listed | None = None
            why = ""
            if not scope.is_global:
                entries, why = _look_up(row, Scope.global_())
                first = _first_listed(entries, True, clock=clock) if entries else None
                first = _on_clock(received, inserted, first)
            # An entry of the insertion's day honours it no sooner than the insertion did.
            if first is not None and first[0] >= inserted:
                first = None
            other_why = ""
            if _would_be_late(received, inserted, first):
                # An entry keeping the number in another written form ("17025550133") may
                # have honoured it long before: a late row alone costs those searches.
                other, other_why = _other_forms(row, scope)
                if (
                    other is not None
                    and other[0] < inserted
                    and (first is None or other[0] < first[0])
                ):
                    first = other
            unknown = "; ".join(
                x
                for x in (
                    f"on the global list, {why}" if why else "",
                    IN_OTHER_FORM.format(why=other_why) if other_why else "",
                )
                if x
            )
            if first is not None:
                first = _on_clock(received, inserted, first)
                text, honoured = _listing_words(received, inserted, first, "", unknown, clock)
            else:
                text = "; ".join(
                    x
                    for x in (
                        GLOBAL_UNKNOWN.format(why=why) if why else "",
                        OTHER_FORMS_UNKNOWN.format(why=other_why) if other_why else "",
                    )
                    if x
                )
            _recheck_if_stopped(row, result, why, other_why)
        if not honoured and inserted < today:
            honoured = inserted.isoformat()
        if store is not None and (honoured or row.honoured_on):
            # Also clears a day an earlier send of this row left (a resumed job).
            store.set_honoured(row.seq, honoured)
        if not text:
            return result
        message = "; ".join(x for x in (result.message, text) if x)
        return RowResult(result.outcome, message, result.code, result.done_on)

    def _maybe_present(row: JobRow, scope: Scope, how: _MaybeWords) -> _Said:
        """How an already-present row that an attempt of this job may have inserted is said
        from the entries a look-up found: ``maybe`` and the entry found, or, for an entry from
        before the job, that (after ``before``, when given); ``extra`` after either. A row
        ``resumed`` in flight whose entries the journal shows another job inserted says that
        job instead (:func:`_other_jobs_entry`), as an entry from before the job is said."""
        maybe, before, extra, resumed = how.maybe, how.before, how.extra, how.resumed

        def said(entries: Entries | None, why: str = "") -> RowResult:
            """The row's words for the entries found (None: the look-up failed, ``why`` saying
            how, so an attempt of this job may have inserted it, as far as the row can tell)."""
            words = _entry_words(entries, since) if entries is not None else ("", "")
            if entries and resumed and not words[0]:
                other = _other_jobs_entry(session, kind, row, scope, job_id, entries, since)
                words = (other, "") if other else words
            text = _present_text(words, maybe)
            if words[0] and before:
                text = f"{before}; {text}"
            if why:
                text = f"{text}; {ENTRY_NOT_LOOKED_UP.format(why=why)}"
            if entries:
                # The journal keeps what the look-up concluded, beside the retry's recorded
                # "already present": listed before the job, or most likely this job's own
                # earlier attempt (black-box L2 #3: a killed run's insert found on resume
                # left only the intent's "unknown").
                session.record_settled(
                    kind,
                    "insert.settled",
                    row.national,
                    row.phone_code,
                    scope,
                    words[0] or text,
                    job=job_id,
                    note=note,
                )
            return RowResult(Outcome.ALREADY_PRESENT, "; ".join(x for x in (text, extra) if x))

        return said

    def _settled_by(row: JobRow, scope: Scope, answered: _Answered) -> _Sent:
        """A row in flight when the job stopped, as the answer the journal recorded for it
        says (:func:`_journal_answer`): inserted; already present; or already present perhaps
        by an earlier attempt of this job, whose entry is then looked up as for a row
        answered so while the job ran."""
        if answered.outcome == "ok":
            return _Sent(answered.inserted())
        if not answered.echo:
            text = PRESENT_BEFORE_STOP.format(time=answered.time_text)
            return _Sent(RowResult(Outcome.ALREADY_PRESENT, text))
        how = _MaybeWords(RETRIED_PRESENT, "", answered.words, resumed=True)
        return _said_from_look_up(row, scope, how)

    def _said_from_look_up(row: JobRow, scope: Scope, how: _MaybeWords) -> _Sent:
        """An already-present row an attempt of this job may have inserted, said from what a
        look-up of its entries finds (:func:`_maybe_present`)."""
        said = _maybe_present(row, scope, how)
        found, why = _look_up(row, scope, LOOK_UP_ROUNDS)
        if found is not None:
            return _Sent(said(found), found)
        return _Sent(said(None, why), None, said, how)

    def send(row: JobRow, resent: bool) -> RowResult:
        result = _result(row, resent)
        if not (note := refused_forms_text(refusals.pop(row.seq, []))):
            return result
        return replace(result, message="; ".join(x for x in (result.message, note) if x))

    def _result(row: JobRow, resent: bool) -> RowResult:
        scope = scope_from_text(row.scope)
        if row.state == RowState.DONE.value and (rechecked := _recheck(row, scope)) is not None:
            return rechecked
        sent = _send(row, resent, scope)
        if sent.result.outcome is Outcome.ALREADY_PRESENT:
            return _with_lateness(row, scope, sent)
        if sent.result.outcome is Outcome.INSERTED:
            return _inserted_lateness(row, scope, sent.result)
        return sent.result

    def _send(row: JobRow, in_flight: bool, scope: Scope) -> _Sent:
        lost_before = row.seq in unsettled
        unsettled.discard(row.seq)
        # How it says it was sent on resume ("" for a first send: see sent_before).
        resent = sent_before(row) if in_flight else ""
        if resent and not lost_before:
            # In flight when the job stopped: its answer may be in the journal already.
            answered = _journal_answer(session, kind, row, scope, job_id)
            if answered is not None:
                return _settled_by(row, scope, answered)
        kept, entries, unsearched = (
            ("", [], None)
            if lost_before
            else _listed_with_trunk_zero(session, target, row, scope, stop)
        )
        if unsearched is not None:
            note_refused(row, unsearched)
        if kept:
            text = TRUNK_ZERO_PRESENT.format(form=kept)
            message = f"{resent}; {text}" if resent else text
            return _Sent(RowResult(Outcome.ALREADY_PRESENT, message), entries)
        try:
            result = insert(
                row.national,
                row.phone_code,
                scope,
                reason=row.reason,
                purpose=row.purpose,
                job=job_id,
                note=row_note(note, row.row_number),
                stop_before_send=stop,
                # That of the earlier pass: its fate is open (the journal says so).
                earlier_send_open=lost_before,
            )
        except ApiError as exc:
            if lost_before:
                exc.earlier_send_open = True  # that of the earlier pass: its fate is open
            try:
                checked = _checked_after_error(
                    session, target, row, scope, exc, resent, job_id, note, since
                )
            except Unsettled:
                unsettled.add(row.seq)
                raise
            if checked is None:
                raise
            return _Sent(*checked)
        answered_at = dt.datetime.now(dt.UTC)
        extra = f"answered after {result.attempts} attempts" if result.retried else ""
        if result.status is not WriteStatus.ALREADY_PRESENT:
            if not (result.retried or resent or lost_before):
                clock.inserted(row, scope, result.id, answered_at)
            text = resent
            if lost_before:
                text = "; ".join(x for x in (text, INSERTED_WHEN_SENT_AGAIN) if x)
            return _Sent(RowResult(Outcome.INSERTED, "; ".join(x for x in (text, extra) if x)))
        if not (resent or result.earlier_attempt_lost or lost_before):
            text = result.message or "already on the list"
            found: Entries | None = None
            if (
                others is not None
                and journal_target(kind, row.national, row.phone_code, scope) in others
            ):
                # Another job inserted it while this one ran: say which, not "before".
                found, _ = _look_up(row, scope)
                if found and (
                    other := _other_jobs_entry(session, kind, row, scope, job_id, found, since)
                ):
                    text = other
            return _Sent(
                RowResult(Outcome.ALREADY_PRESENT, "; ".join(x for x in (text, extra) if x)),
                found,
            )

        how = _MaybeWords(
            # "Most likely from the first send" only of a send known to have gone out.
            (RESENT_PRESENT if resent == RESENT else RESUMED_PRESENT)
            if resent
            else RETRIED_PRESENT,
            # Listed before the job: say how the row was sent on resume too.
            resent,
            extra,
            resumed=bool(resent),
        )
        # An earlier attempt of this job (its answer lost, the job interrupted) may well be
        # what put the number on the list, which matters when the insertion date is evidence:
        # the entry's date tells when it cannot have been.
        return _said_from_look_up(row, scope, how)

    return Sender(send, sent_before)


def run_import(
    store: JobStore,
    session: Session,
    *,
    concurrency: int = 8,
    control: JobControl | None = None,
    progress: Callable[[JobProgress], None] | None = None,
) -> JobStatus:
    """Send every unfinished row of the import job in ``store``; returns its new status."""
    meta = store.meta()
    send = insert_sender(
        session,
        Target(meta["target"]),
        str(meta["job_id"]),
        str(meta.get("note", "")),
        control.stop if control is not None else None,
        job_start(meta),
        store,
    )
    return execute(
        store, session, send, concurrency=concurrency, control=control, progress=progress
    )
