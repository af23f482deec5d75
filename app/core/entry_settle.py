"""Settling a one-entry add whose first answer was lost (the window's Add dialog).

An insert sent, its answer cut off, then retried, gets "already on the list" (code 6008) for
the entry its own first attempt made. An import job looks the entry up and says so
(:data:`app.core.job_report.RETRIED_PRESENT`); this does the same for a single add: it reads
the number back in the scope asked and journals what it found beside the write's outcome, so
the officer, the journal and an evidence pack say the entry is on the list, made by this add,
not a bare "failed" (black-box bb3 F3).

An entry found as asked is this add's only when it is not older than the add: one whose insert
date is before the add began, by more than the service's unknown time zone allows
(the clock slack an import job allows, 26 hours), was on the list already, and is said
and journaled so (a ``.checked`` event holding ``listed_before``), not as made by this add
(black-box bb16 F10: an entry of 2023 "confirmed" a lost-answer add of today).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from app.api.client import DncQuery
from app.api.errors import ApiError, ConflictError
from app.api.models import DncEntry, SmsOptOut, WriteResult, WriteStatus, listed_by
from app.core.entry_validation import EntryKind, ValidEntry
from app.core.import_job import _CLOCK_SLACK
from app.core.journal import PHASE_INTENT
from app.core.session import Session, e164, fate_open, journal_target, read_over

Entry = DncEntry | SmsOptOut
# Reads are harmless to repeat: a flaky service should not leave the add unsettled.
_LOOK_UP_ROUNDS = 3


@dataclass(frozen=True, slots=True)
class LostAnswerAdd:
    """What the look-up after a lost answer found: ``entry`` is the one matching the add as
    asked that the add may have made (None if none, or if the one found was listed before the
    add began), ``words`` the sentence for the officer and the journal."""

    entry: Entry | None
    words: str


class NotAsAsked(Exception):
    """An add or edit whose retry was told the number is already listed, after a lost answer,
    and whose look-up found no entry holding what was asked (or one listed before the add
    began, which the add did not make): ``error`` is the service's
    answer, ``words`` what the look-up found (kept apart, so the service is not quoted as
    saying it)."""

    def __init__(self, error: ApiError, words: str) -> None:
        self.error = error
        self.words = words
        super().__init__(f"{error}; a look-up after it found the number {words}")


def lost_answer_conflict(exc: BaseException) -> bool:
    """Whether an add ended "already on the list" only after an earlier attempt of it got no
    answer saying whether it was done: that attempt may well have made the entry."""
    return isinstance(exc, ConflictError) and exc.earlier_attempt_lost


def _kind_name(kind: EntryKind) -> str:
    return "dnc" if kind is EntryKind.DNC else "sms"


def _list_name(kind: EntryKind) -> str:
    return "DNC list" if kind is EntryKind.DNC else "SMS opt-out list"


def _as_asked(entry: Entry, valid: ValidEntry) -> bool:
    purpose_ok = not valid.scope.is_purpose or entry.purpose == (
        valid.purpose or valid.scope.purpose_text
    )
    return entry.reason == valid.reason and purpose_ok


def _now_utc() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def _listed_before(entry: Entry, began: dt.datetime) -> bool:
    """Whether ``entry`` was on the list before an add that began at ``began`` (naive UTC): its
    insert date (the service's clock, a bare date as its day's end) older by more than any time
    zone's offset. An undated entry, or one within that margin, may be the add's own."""
    when = listed_by(entry.insert_date)
    return when is not None and when < began - _CLOCK_SLACK


def _before_words(entry: Entry, listed: str) -> str:
    """The look-up's finding for an entry older than the add, as a clause after "found"."""
    reason = f"reason “{entry.reason}”" if entry.reason else "no reason"
    return (
        f"already on the {listed} since {entry.insert_date} (entry {entry.id}, {reason}), "
        "before this add began: this add did not make it"
    )


def _record_before(
    session: Session, event: str, valid: ValidEntry, error: ApiError, entry: Entry, words: str
) -> None:
    """Journal a look-up that found the entry listed before the add (``.checked``, not
    ``.settled``: the add did not make it)."""
    details = {"error": str(error), "listed_before": entry.as_dict(), "words": words}
    _record(session, event, valid, details)


def _entry_text(entry: Entry) -> str:
    reason = f"reason “{entry.reason}”" if entry.reason else "no reason"
    when = f", inserted {entry.insert_date}" if entry.insert_date else ""
    return f"entry {entry.id} ({reason}{when})"


def _read_back(session: Session, kind: EntryKind, query: DncQuery) -> list[Entry]:
    """The entries of ``kind``'s list matching ``query``, the search asked again when the
    service fails it."""

    def read() -> list[Entry]:
        if kind is EntryKind.DNC:
            return list(session.api.iter_dnc(query))
        return list(session.api.iter_sms(query))

    return read_over(read, _LOOK_UP_ROUNDS)


def look_up_lost_add(
    session: Session,
    kind: EntryKind,
    valid: ValidEntry,
    error: ApiError,
    began: dt.datetime | None = None,
) -> LostAnswerAdd:
    """Read the number back in the scope the add asked for, journal what was found (a
    ``<kind>.insert.settled`` event, as an import job journals its retried rows) and say it.
    An entry as asked listed before ``began`` (when the add began, naive UTC; now if not
    given) is a ``.checked`` event: the add did not make it. A look-up that fails is journaled
    as such and raised."""
    query = DncQuery(
        scope=valid.scope,
        phone_number=valid.phone_number,
        phone_code=valid.phone_code,
        purpose=valid.purpose if valid.scope.is_purpose else "",
    )
    name = _kind_name(kind)
    try:
        found = _read_back(session, kind, query)
    except ApiError as failed:
        details = {"error": str(error), "look_up_error": failed.describe()}
        _record(session, f"{name}.insert.checked", valid, details)
        raise
    listed = _list_name(kind)
    match = next((e for e in found if _as_asked(e, valid)), None)
    if match is not None and _listed_before(match, began or _now_utc()):
        words = f"{_before_words(match, listed)}; the retry's “already listed” was that entry"
        _record_before(session, f"{name}.insert.checked", valid, error, match, words)
        return LostAnswerAdd(None, words)
    if match is not None:
        words = (
            f"on the {listed} as asked, {_entry_text(match)}: the first attempt of this add "
            "got no answer, and its retry was told the number was already listed, so that "
            "first attempt made it"
        )
    elif found:
        words = (
            f"on the {listed}, but not as this add asked (reason “{valid.reason}”): "
            + "; ".join(_entry_text(e) for e in found)
            + "; the first attempt got no answer, so whether it made this entry is not known"
        )
    else:
        words = (
            f"not on the {listed} in that scope: the first attempt got no answer and the "
            "retry was told the number was already listed, yet a look-up right after found "
            "no entry; search the list, then add it again if it is missing"
        )
    if found:
        _record(session, f"{name}.insert.settled", valid, {"settled": words})
    else:
        # A look-up that found nothing: the pack then says "not inserted", from it.
        _record(session, f"{name}.insert.checked", valid, {"error": str(error), "listed_after": []})
    return LostAnswerAdd(match, words)


def _record(session: Session, event: str, valid: ValidEntry, details: Mapping[str, object]) -> None:
    """Journal ``event`` about this add, referring to its intent: the dialog's write has no
    job, which :meth:`Session.record_settled` finds the intent by, and an unlinked event
    would leave the evidence pack's "Settled" at "not known" (black-box bb3 F3)."""
    write = event.rsplit(".", 1)[0]
    target = journal_target(write.split(".")[0], valid.phone_number, valid.phone_code, valid.scope)
    phone = e164(valid.phone_number, valid.phone_code)
    _record_event(session, event, write, target, phone, details)


def _record_event(
    session: Session,
    event: str,
    write: str,
    target: str,
    phone: str,
    details: Mapping[str, object],
) -> None:
    """Journal ``event`` referring to the newest intent of ``write`` on ``target`` made
    outside a job: the dialog's write that just ended."""
    rows = session.journal.query(operation=write, phone=phone, limit=50)
    intent = next(
        (
            e.id
            for e in rows
            if e.phase == PHASE_INTENT and e.operation == write and e.target == target and not e.job
        ),
        None,
    )
    session.journal.record_event(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation=event,
        target=target,
        details=details,
        phone=phone,
        ref=intent,
    )


def settled_result(error: ApiError, settled: LostAnswerAdd) -> WriteResult:
    """The result the Add dialog reports for an add its earlier attempt made."""
    entry_id = settled.entry.id if settled.entry is not None else ""
    return WriteResult(
        WriteStatus.ALREADY_PRESENT,
        entry_id,
        error.attempts,
        settled.words,
        earlier_attempt_lost=True,
    )


def _as_edited(entry: Entry, valid: ValidEntry) -> bool:
    """Whether ``entry`` holds what the edit asked for (a blank purpose leaves the stored one
    for a DNC entry, so it is compared only when given)."""
    purpose_ok = not valid.purpose or entry.purpose == valid.purpose
    return (entry.phone_number, entry.phone_code, entry.scope, entry.reason) == (
        valid.phone_number,
        valid.phone_code,
        valid.scope,
        valid.reason,
    ) and purpose_ok


def look_up_lost_edit(
    session: Session, kind: EntryKind, entry_id: str, valid: ValidEntry, error: ApiError
) -> LostAnswerAdd:
    """As :func:`look_up_lost_add` for an edit of entry ``entry_id`` whose retry was told the
    number is already listed (its own first attempt, unanswered, may have moved it there):
    reads the entry back by id and journals what it holds."""
    name = _kind_name(kind)
    query = DncQuery(id=entry_id)
    write = f"{name}.update"
    target = f"{name} id={entry_id}"
    try:
        found = [e for e in _read_back(session, kind, query) if e.id == entry_id]
    except ApiError as failed:
        details = {"error": str(error), "look_up_error": failed.describe()}
        _record_event(session, f"{write}.checked", write, target, "", details)
        raise
    match = next((e for e in found if _as_edited(e, valid)), None)
    facts: dict[str, object] = {"error": str(error)}
    if match is not None:
        words = (
            f"saved: {_entry_text(match)} now holds what this edit asked; its first attempt "
            "got no answer and its retry was told the number was already listed, so that "
            "first attempt made the change"
        )
        phone = e164(match.phone_number, match.phone_code)
        _record_event(session, f"{write}.settled", write, target, phone, {"settled": words})
    elif found:
        words = (
            f"not holding what this edit asked: {_entry_text(found[0])} has the number "
            f"{found[0].phone_number} in {found[0].scope}; the first attempt got no answer, "
            "so reopen the entry to check it"
        )
        facts["found"] = found[0].as_dict()
        _record_event(session, f"{write}.checked", write, target, "", facts)
    else:
        words = f"gone: entry {entry_id} is no longer on the list; search for the number"
        facts["found"] = None
        _record_event(session, f"{write}.checked", write, target, "", facts)
    return LostAnswerAdd(match, words)


# --------------------------------------------------------------------------- unanswered writes
# An add or edit whose last attempt itself got no answer saying whether it was done (the
# connection broke, a 5xx): nothing told the service's "already listed" apart, so without a
# look-up the dialog said "Not saved" and the journal "failed" for a change the service had
# made (black-box bb10 F6). The look-up settles it, as a lost-answer delete's does.
SAVED, NOT_SAVED, NOT_KNOWN = "saved", "not saved", "not known"
# What the officer and the list's status bar read before the entry an add or edit made.
CONFIRMED = "(answer lost; confirmed by a look-up)"


@dataclass(frozen=True, slots=True)
class Unanswered:
    """What the look-up after an unanswered add or edit found: ``state`` is :data:`SAVED`
    (``entry`` holds what was asked), :data:`NOT_SAVED` or :data:`NOT_KNOWN`; ``words`` the
    finding as a clause ("entry 16 unchanged (reason “old”): …") for the officer."""

    state: str
    words: str
    entry: Entry | None = None


class LostAnswerNotSaved(Exception):
    """An add or edit that ended in ``error`` with no answer saying whether it was done, whose
    look-up found it not made (or could not tell): ``settled`` says which."""

    def __init__(self, error: ApiError, settled: Unanswered) -> None:
        self.error = error
        self.settled = settled
        super().__init__(f"{error}; a look-up right after found {settled.words}")


def unanswered(exc: BaseException) -> bool:
    """Whether a write ended in an error that leaves open whether the service made it (no
    answer to a sent request, a 5xx, any error after an attempt like that), other than the
    "already listed" a retry gets after one (:func:`lost_answer_conflict` settles that)."""
    return isinstance(exc, ApiError) and fate_open(exc) and not lost_answer_conflict(exc)


def settle_unanswered_add(
    session: Session,
    kind: EntryKind,
    valid: ValidEntry,
    error: ApiError,
    began: dt.datetime | None = None,
) -> Unanswered:
    """Look the number up in the scope an unanswered add asked for and journal the finding
    beside the add's outcome: listed as asked is a ``<kind>.insert.settled`` event (made by
    this add); listed as asked since before ``began`` (when the add began, naive UTC; now if
    not given), not listed or a failed look-up a ``<kind>.insert.checked`` one."""
    name, listed = _kind_name(kind), _list_name(kind)
    query = DncQuery(
        scope=valid.scope,
        phone_number=valid.phone_number,
        phone_code=valid.phone_code,
        purpose=valid.purpose if valid.scope.is_purpose else "",
    )
    base = {"error": str(error)}
    try:
        found = _read_back(session, kind, query)
    except ApiError as failed:
        _record(
            session, f"{name}.insert.checked", valid, {**base, "look_up_error": failed.describe()}
        )
        return Unanswered(NOT_KNOWN, _look_up_failed(failed))
    match = next((e for e in found if _as_asked(e, valid)), None)
    if match is not None and _listed_before(match, began or _now_utc()):
        words = f"the number {_before_words(match, listed)}"
        _record_before(session, f"{name}.insert.checked", valid, error, match, words)
        return Unanswered(NOT_SAVED, words, None)
    if match is not None:
        words = f"added {CONFIRMED}: {_entry_text(match)} is on the {listed} as asked"
        _record(session, f"{name}.insert.settled", valid, {**base, "settled": words})
        return Unanswered(SAVED, words, match)
    if found:
        words = (
            f"the number on the {listed} in that scope, but not as this add asked (reason "
            f"“{valid.reason}”): " + "; ".join(_entry_text(e) for e in found) + "; so this add "
            "did not make it: open that entry to change it"
        )
        settled = {**base, "settled": f"on the {listed}, not as this add asked: {words}"}
        _record(session, f"{name}.insert.settled", valid, settled)
        return Unanswered(NOT_SAVED, words, None)
    _record(session, f"{name}.insert.checked", valid, {**base, "listed_after": []})
    words = f"the number not on the {listed} in that scope: the add was not made; add it again"
    return Unanswered(NOT_SAVED, words)


def _fields(entry: Entry | ValidEntry) -> tuple[str, str, str, str, str]:
    scope = entry.scope.api_campaign_id
    return (entry.phone_number, entry.phone_code, scope, entry.reason, entry.purpose)


def settle_unanswered_edit(
    session: Session, kind: EntryKind, before: Entry, valid: ValidEntry, error: ApiError
) -> Unanswered:
    """Read entry ``before.id`` back after an unanswered edit and journal the finding beside
    the edit's outcome: holding what was asked is a ``<kind>.update.settled`` event; unchanged,
    changed otherwise, gone or a failed look-up a ``<kind>.update.checked`` one."""
    name = _kind_name(kind)
    write, target = f"{name}.update", f"{name} id={before.id}"
    phone = e164(before.phone_number, before.phone_code)
    base: dict[str, object] = {"error": str(error)}

    def journal(event: str, details: Mapping[str, object], at: str = phone) -> None:
        _record_event(session, f"{write}.{event}", write, target, at, {**base, **details})

    try:
        found = [e for e in _read_back(session, kind, DncQuery(id=before.id)) if e.id == before.id]
    except ApiError as failed:
        journal("checked", {"look_up_error": failed.describe()})
        return Unanswered(NOT_KNOWN, _look_up_failed(failed))
    if not found:
        journal("checked", {"found": None})
        words = f"entry {before.id} no longer on the list: search the list for the number"
        return Unanswered(NOT_KNOWN, words)
    entry = found[0]
    if _as_edited(entry, valid):
        words = f"saved {CONFIRMED}: {_entry_text(entry)} holds what this edit asked"
        journal("settled", {"settled": words}, e164(entry.phone_number, entry.phone_code))
        return Unanswered(SAVED, words, entry)
    if _fields(entry) == _fields(before):
        journal("checked", {"found": entry.as_dict(), "unchanged": True})
        words = f"{_entry_text(entry)} unchanged: the edit was not made; save it again"
        return Unanswered(NOT_SAVED, words)
    journal("checked", {"found": entry.as_dict()})
    words = (
        f"{_entry_text(entry)} holding neither what it held nor what this edit asked (number "
        f"{entry.phone_number} in {entry.scope}): someone else may have changed it; reopen it"
    )
    return Unanswered(NOT_KNOWN, words)


def _look_up_failed(failed: ApiError) -> str:
    return (
        f"nothing, as it failed too ({failed.describe()}): whether the change was made is not "
        "known; search the list for the number before you save again"
    )


def saved_after_look_up(error: ApiError, settled: Unanswered) -> WriteResult:
    """The result the dialog reports for an unanswered add or edit its look-up found made
    (``earlier_attempt_lost``: the list's status bar then quotes ``settled.words``)."""
    entry_id = settled.entry.id if settled.entry is not None else ""
    return WriteResult(
        WriteStatus.DONE, entry_id, error.attempts, settled.words, earlier_attempt_lost=True
    )


def saved_or_raise(error: ApiError, settled: Unanswered) -> WriteResult:
    """The saved result of an unanswered write whose look-up found it made; else
    :class:`LostAnswerNotSaved` carrying what the look-up found."""
    if settled.state != SAVED:
        raise LostAnswerNotSaved(error, settled) from error
    return saved_after_look_up(error, settled)
