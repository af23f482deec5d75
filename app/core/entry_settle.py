"""Settling a one-entry add whose first answer was lost (the window's Add dialog).

An insert sent, its answer cut off, then retried, gets "already on the list" (code 6008) for
the entry its own first attempt made. An import job looks the entry up and says so
(:data:`app.core.job_report.RETRIED_PRESENT`); this does the same for a single add: it reads
the number back in the scope asked and journals what it found beside the write's outcome, so
the officer, the journal and an evidence pack say the entry is on the list, made by this add,
not a bare "failed" (black-box bb3 F3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.api.client import DncQuery
from app.api.errors import ApiError, ConflictError
from app.api.models import DncEntry, SmsOptOut, WriteResult, WriteStatus
from app.core.entry_validation import EntryKind, ValidEntry
from app.core.journal import PHASE_INTENT
from app.core.session import Session, e164, journal_target, read_over

Entry = DncEntry | SmsOptOut
# Reads are harmless to repeat: a flaky service should not leave the add unsettled.
_LOOK_UP_ROUNDS = 3


@dataclass(frozen=True, slots=True)
class LostAnswerAdd:
    """What the look-up after a lost answer found: ``entry`` is the one matching the add as
    asked (None if none), ``words`` the sentence for the officer and the journal."""

    entry: Entry | None
    words: str


class NotAsAsked(Exception):
    """An add or edit whose retry was told the number is already listed, after a lost answer,
    and whose look-up found no entry holding what was asked: ``error`` is the service's
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
    session: Session, kind: EntryKind, valid: ValidEntry, error: ApiError
) -> LostAnswerAdd:
    """Read the number back in the scope the add asked for, journal what was found (a
    ``<kind>.insert.settled`` event, as an import job journals its retried rows) and say it.
    A look-up that fails is journaled as such and raised."""
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
