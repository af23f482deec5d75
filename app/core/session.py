"""A connection in use: its API client for reads, and journaled writes.

Every write DNC Desk makes to the service goes through :class:`Session`, which records an
intent row in the change journal before the call and an outcome row after it, so even a
crash between the two leaves a trace that the write may have happened.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from app.api.client import ApiClient
from app.api.errors import (
    ApiError,
    AuthError,
    ConflictError,
    RateLimitedError,
    ServerError,
    TransportError,
)
from app.api.errors import ClientClosed as ApiClientClosed
from app.api.models import Campaign, DncEntry, Lead, SmsOptOut, WriteResult, WriteStatus
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.api.transport import before_first_write
from app.core.connections import Connection
from app.core.journal import ChangeJournal, JournalError
from app.core.phones import normalize_with_default
from app.core.sheet_damage import drops_trunk_zero

T = TypeVar("T")

# Added to a journal outcome's error when the write's answer (not found, already present) came
# after an earlier attempt that got no answer saying whether it was done (none, a 5xx, an answer
# that is not the API's JSON).
EARLIER_ATTEMPT_MAY_HAVE_DONE = (
    "an earlier attempt got no answer saying whether it was done, so that attempt may have "
    "done this write"
)
# Said instead when it was an earlier send of a job's row whose fate was left open (an error,
# then a look-up that failed too): the answer to this send (already present, not found) may be
# that send's doing, and evidence read from the journal must not count it as the list's state
# before the job (a pre-seeded number's row otherwise looked listed before the job in the journal
# while its report row said the job may have inserted it).
EARLIER_SEND_MAY_HAVE_DONE = (
    "an earlier send of this row ended with an error and a look-up that failed too, so that "
    "send may have done this write"
)


def code_in_digits(digits: str, phone_code: str) -> str:
    """The national number ``digits`` write with their country code inside them
    ("17205550202" under code 1, "447911123456" under 44: an entry made by hand or by another
    tool, which the service takes as it is), else ``""``: also when the digits read as a
    national number of their own (a German "4915112345678" is one), so no reading is guessed."""
    if not phone_code or len(digits) <= len(phone_code) or not digits.startswith(phone_code):
        return ""
    national = digits[len(phone_code) :]
    parsed = normalize_with_default(digits, phone_code, stored=True)
    if parsed.ok and parsed.phone_code == phone_code and parsed.national == national:
        return national
    return ""


def e164(phone_number: str, phone_code: str) -> str:
    digits = "".join(ch for ch in phone_number if ch.isdigit())
    if digits[:1] == "0" and drops_trunk_zero(phone_code):
        # An entry kept with its trunk 0 ("02079460000"): the journal names it as E.164 does,
        # so a search for the number finds it.
        digits = digits[1:]
    elif national := code_in_digits(digits, phone_code):
        # Kept with its country code in the digits ("17205550202"): likewise (black-box L2 #2).
        digits = national
    return f"+{phone_code}{digits}" if digits else ""


def journal_target(kind: str, phone_number: str, phone_code: str, scope: Scope) -> str:
    """What the change journal names a write of a number in a scope by ("dnc:+1303… scope=
    global"): a job looking for its earlier writes of a row names it the same way."""
    return f"{kind}:{e164(phone_number, phone_code) or phone_number} scope={scope}"


# The outcome of a write the service refused for its rate limit (HTTP 429).
RATE_LIMIT_REFUSED = "not done (HTTP 429: refused for the service's rate limit)"

CANCELLED_AFTER_LOST_ANSWER = (
    "cancelled while waiting to send it again: an earlier attempt was sent and its answer "
    "lost, so it may have been done"
)


def fate_open(error: ApiError) -> bool:
    """Whether a write that ended in ``error`` may still have been done: no answer to a request
    that was sent, a 5xx or an answer that is not the API's JSON (the service may fail after
    the write), or any error after an earlier attempt got no answer saying whether it was done.
    A refused token never is."""
    if isinstance(error, AuthError):
        return False
    return (
        (isinstance(error, TransportError) and error.sent)
        or isinstance(error, ServerError)
        or error.earlier_attempt_lost
        or error.earlier_send_open
    )


def read_over(read: Callable[[], T], rounds: int, also: tuple[type[ApiError], ...] = ()) -> T:
    """``read()``, tried ``rounds`` times over (each with the client's own retries) while the
    service fails it (a 5xx, no answer, or one of ``also``); the last failure is raised. For
    reads a job cannot go on without, where one exhausted retry would fail a row or the whole
    job (black-box passes H1 and H3): a read is harmless to repeat."""
    again: tuple[type[ApiError], ...] = (ServerError, TransportError, *also)
    for _ in range(rounds - 1):
        try:
            return read()
        except again:
            continue
    return read()


def cancelled_after_refusals(refused: int, not_done: bool = True) -> str:
    """What a write stopped after ``refused`` attempts refused with HTTP 429 did: nothing
    (said unless ``not_done`` is False: an attempt before those may have done it)."""
    times = "once" if refused == 1 else f"{refused} times"
    text = (
        f"refused {times} for the service's rate limit (HTTP 429), then cancelled before it "
        "was sent again"
    )
    return f"{text}; not done" if not_done else text


class WriteNotJournaled(JournalError):
    """A write's row in the change journal could not be written (a full disk).

    ``may_be_done``: the request went out before the journal failed (its outcome's row could
    not be written), so the change may have been made and whoever sent it must settle it (a
    job keeps the row for its resume to look up); False: nothing was sent."""

    def __init__(self, text: str, *, may_be_done: bool) -> None:
        super().__init__(text)
        self.may_be_done = may_be_done


class ClientClosed(ApiClientClosed):
    """A write asked of a session whose API client was closed (its token was replaced, or
    another connection opened): refused before anything was sent or journaled; ``str()`` is
    one sentence naming the write."""


# What a refused write was, by journal operation ("dnc.insert"): {phone} or {target} filled in.
_WRITE_WORDS = {
    "dnc.insert": "Adding {phone} to the DNC list",
    "sms.insert": "Adding {phone} to the SMS opt-out list",
    "dnc.delete": "Removing {phone} from the DNC list",
    "dnc.update": "Changing the DNC entry ({target})",
    "sms.update": "Changing the SMS opt-out entry ({target})",
    "lead.update": "Setting the status of {target}",
    "campaign.status": "Changing the status of {target}",
}


def closed_client_sentence(operation: str, target: str, phone: str) -> str:
    """Why a write on a closed client was not made, naming it and what to do."""
    words = _WRITE_WORDS.get(operation, "The change {target}")
    action = words.format(phone=phone or target, target=target)
    return (
        f"{action} was not sent: this connection's API client was closed (its token was "
        "replaced, or another connection was opened); do it again."
    )


class Session:
    """Reads go to ``session.api``; writes go through the methods here and are journaled."""

    def __init__(self, connection: Connection, api: ApiClient, journal: ChangeJournal) -> None:
        self.connection = connection
        self.api = api
        self.journal = journal

    def __repr__(self) -> str:
        return f"Session({self.connection.name!r}, {self.connection.base_url!r})"

    def close(self) -> None:
        self.api.close()

    def record_look_up(
        self,
        operation: str,
        target: str,
        phone: str,
        error: ApiError | str,
        details: Mapping[str, Any],
        *,
        job: str = "",
        note: str = "",
    ) -> None:
        """Journal a look-up made to settle a write that ended in ``error`` (or the answer it
        got: a "not found" after a lost answer), a read, so an event beside the write's
        outcome: what it found, or its own error, in ``details``. ``operation`` is the write's
        and what the look-up is ("dnc.delete.checked"); the event refers to the write it
        settles (:meth:`_settles`)."""
        details = {"error": str(error), **details}
        ref = self._settles(operation, target, phone, job)
        self._event(operation, target, phone, details, job, note, ref)

    def record_settled(
        self,
        kind: str,
        operation: str,
        phone_number: str,
        phone_code: str,
        scope: Scope,
        settled: str,
        *,
        job: str = "",
        note: str = "",
    ) -> None:
        """Journal (as ``kind.operation``: "dnc.insert.settled") what a job concluded of a write
        of ``phone_number`` in ``scope`` after its recorded outcome (a look-up found
        the entry older than the job; a number listed just before a delete gone on its retry),
        so the number's evidence says it beside that outcome (re-test J2: the journal kept
        "that attempt may have done this write" where the report said otherwise)."""
        target = journal_target(kind, phone_number, phone_code, scope)
        phone = e164(phone_number, phone_code)
        event = f"{kind}.{operation}"
        ref = self._settles(event, target, phone, job)
        self._event(event, target, phone, {"settled": settled}, job, note, ref)

    def _settles(self, event: str, target: str, phone: str, job: str) -> int | None:
        """The intent of the write an event ``event`` ("dnc.delete.settled") settles: the
        job's latest intent of that write ("dnc.delete") on ``target``, so evidence links the
        event to the write rather than leaving a "failed" outcome unexplained beside it
        (black-box B9 #4: the event's ref was NULL). None when the job has none."""
        write = event.rsplit(".", 1)[0]
        found = self.journal.latest_intent(job=job, operation=write, target=target, phone=phone)
        if found is None and phone:
            # An intent filed under another written form of the number: the same target.
            found = self.journal.latest_intent(job=job, operation=write, target=target)
        return found

    def _event(
        self,
        operation: str,
        target: str,
        phone: str,
        details: Mapping[str, Any],
        job: str,
        note: str,
        ref: int | None = None,
    ) -> None:
        self.journal.record_event(
            connection=self.connection.name,
            base_url=self.connection.base_url,
            operation=operation,
            target=target,
            job=job,
            note=note,
            details=details,
            phone=phone,
            ref=ref,
        )

    def _journaled(
        self,
        operation: str,
        target: str,
        call: Callable[[], WriteResult],
        *,
        phone: str = "",
        before: Mapping[str, Any] | None = None,
        after: Mapping[str, Any] | None = None,
        job: str = "",
        note: str = "",
        earlier_send_open: bool = False,
    ) -> WriteResult:
        """``call()``, its intent and outcome in the journal. ``earlier_send_open``: an earlier
        send of the same write (a job's row sent again) ended with its fate open.

        The intent is recorded when the request's connection is claimed, just before it is
        sent (:func:`~app.api.transport.before_first_write`), or as the write ends when it
        never got that far (cancelled, an error before any send). Raises
        :class:`ClientClosed`, having journaled nothing, when the client was closed before
        then: an intent would end "failed" (black-box bb1 F7) or "not sent" for a request
        never made, although the token's replacement closed it while the write waited (a
        paused job's gate); once the intent is recorded, the close lets the request go."""
        if self.api.closed:
            raise ClientClosed(closed_client_sentence(operation, target, phone))
        recorded: list[int] = []

        def intent() -> int:
            if not recorded:
                recorded.append(self._intent(operation, target, phone, before, after, job, note))
            return recorded[0]

        try:
            with before_first_write(intent):
                result = call()
        except WriteNotJournaled:
            raise
        except Cancelled as stopped:
            outcome, error = "not_attempted", "cancelled before the request was sent"
            if stopped.maybe_done:
                outcome, error = "unknown", CANCELLED_AFTER_LOST_ANSWER
            elif stopped.refused:
                error = cancelled_after_refusals(stopped.refused)
            self._outcome(intent(), stopped.maybe_done, outcome=outcome, error=error)
            raise
        except RateLimitedError as exc:
            # Refused unread: nothing changed, and a job sends the row again later, so "failed"
            # would misstate it; unless an earlier attempt's answer was lost (it may be done).
            if exc.earlier_attempt_lost:
                self._outcome(intent(), True, outcome="failed", error=str(exc))
            else:
                error = f"{exc}; {RATE_LIMIT_REFUSED}"
                self._outcome(intent(), False, outcome="refused", error=error)
            raise
        except ApiError as exc:
            if earlier_send_open:
                exc.earlier_send_open = True
            outcome = "failed"
            if (
                isinstance(exc, ConflictError)
                and exc.earlier_attempt_lost
                and operation.endswith(".insert")
            ):
                # An insert retried after a lost answer and told "already listed", as a job's
                # already_present_ok insert records it: the lost attempt may well have made the
                # entry, so "failed" would misstate it (black-box bb3 F3).
                outcome = WriteStatus.ALREADY_PRESENT.value
            self._outcome(intent(), True, outcome=outcome, error=str(exc))
            raise
        except ApiClientClosed as closed:
            if not recorded:
                # Closed before the write's first request was sent: nothing to journal.
                raise ClientClosed(closed_client_sentence(operation, target, phone)) from closed
            # Closed while a retry waited (its backoff): this attempt never left, an earlier
            # one did.
            error = closed_client_sentence(operation, target, phone)
            if closed.attempted:
                error = f"{error} An earlier attempt was sent, so it may have been done."
            outcome = "unknown" if closed.attempted else "not_attempted"
            self._outcome(intent(), closed.attempted, outcome=outcome, error=error)
            raise
        except Exception as exc:
            self._outcome(intent(), True, outcome="failed", error=f"{type(exc).__name__}: {exc}")
            raise
        outcome = "ok" if result.status is WriteStatus.DONE else result.status.value
        detail = result.message if result.status is not WriteStatus.DONE else ""
        if result.status is not WriteStatus.DONE:
            # "Not found" / "already present" may be that attempt's (or send's) own doing.
            if result.earlier_attempt_lost:
                detail = "; ".join(x for x in (detail, EARLIER_ATTEMPT_MAY_HAVE_DONE) if x)
            elif earlier_send_open:
                detail = "; ".join(x for x in (detail, EARLIER_SEND_MAY_HAVE_DONE) if x)
        if result.retried:
            detail = (detail + f" (answered after {result.attempts} attempts)").strip()
        self._outcome(
            intent(),
            True,
            outcome=outcome,
            error=detail,
            after={"id": result.id} if result.id else None,
        )
        return result

    def _intent(
        self,
        operation: str,
        target: str,
        phone: str,
        before: Mapping[str, Any] | None,
        after: Mapping[str, Any] | None,
        job: str,
        note: str,
    ) -> int:
        try:
            return self.journal.record_intent(
                connection=self.connection.name,
                base_url=self.connection.base_url,
                operation=operation,
                target=target,
                phone=phone,
                before=before,
                after=after,
                job=job,
                note=note,
            )
        except JournalError as exc:
            raise WriteNotJournaled(str(exc), may_be_done=False) from exc

    def _outcome(
        self,
        intent: int,
        may_be_done: bool,
        *,
        outcome: str,
        error: str = "",
        after: Mapping[str, Any] | None = None,
    ) -> None:
        """Record how the write of ``intent`` ended; a journal that cannot record it raises
        :class:`WriteNotJournaled` (``may_be_done``: the request may have made the change, so
        its error must not say it was not made: black-box B35 F1)."""
        try:
            self.journal.record_outcome(intent, outcome=outcome, error=error, after=after)
        except JournalError as exc:
            raise WriteNotJournaled(str(exc), may_be_done=may_be_done) from exc

    def _insert(
        self,
        kind: str,
        phone_number: str,
        phone_code: str,
        scope: Scope,
        reason: str,
        purpose: str,
        already_present_ok: bool,
        job: str,
        note: str,
        cancel: threading.Event | None,
        stop_before_send: threading.Event | None = None,
        earlier_send_open: bool = False,
    ) -> WriteResult:
        """An insert into the DNC (``kind="dnc"``) or SMS opt-out (``"sms"``) list.

        ``stop_before_send`` cancels the insert only until its first attempt is sent (see
        :meth:`~app.api.transport.Transport.call`); the intent then ends ``not_attempted``.
        """
        insert = self.api.insert_dnc if kind == "dnc" else self.api.insert_sms
        values = {
            "phone_number": phone_number,
            "phone_code": phone_code,
            "campaign_id": scope.api_campaign_id,
            "reason": reason,
            "purpose": purpose or (scope.purpose_text if scope.is_purpose else ""),
        }
        return self._journaled(
            f"{kind}.insert",
            journal_target(kind, phone_number, phone_code, scope),
            lambda: insert(
                phone_number,
                phone_code,
                scope,
                reason=reason,
                purpose=purpose,
                already_present_ok=already_present_ok,
                cancel=cancel,
                stop_before_send=stop_before_send,
            ),
            phone=e164(phone_number, phone_code),
            after=values,
            job=job,
            note=note,
            earlier_send_open=earlier_send_open,
        )

    # ------------------------------------------------------------------ DNC
    def insert_dnc(
        self,
        phone_number: str,
        phone_code: str,
        scope: Scope,
        *,
        reason: str = "",
        purpose: str = "",
        already_present_ok: bool = True,
        job: str = "",
        note: str = "",
        cancel: threading.Event | None = None,
        stop_before_send: threading.Event | None = None,
        earlier_send_open: bool = False,
    ) -> WriteResult:
        return self._insert(
            "dnc",
            phone_number,
            phone_code,
            scope,
            reason,
            purpose,
            already_present_ok,
            job,
            note,
            cancel,
            stop_before_send,
            earlier_send_open,
        )

    def update_dnc(
        self,
        before: DncEntry,
        *,
        phone_number: str | None = None,
        phone_code: str | None = None,
        scope: Scope | None = None,
        reason: str | None = None,
        purpose: str | None = None,
        note: str = "",
    ) -> WriteResult:
        changes: dict[str, str] = {}
        for key, value in (
            ("phone_number", phone_number),
            ("phone_code", phone_code),
            ("reason", reason),
            ("purpose", purpose),
        ):
            if value is not None:
                changes[key] = value
        if scope is not None:
            changes["campaign_id"] = scope.api_campaign_id
        after = {**before.as_dict(), **changes}
        return self._journaled(
            "dnc.update",
            f"dnc id={before.id}",
            lambda: self.api.update_dnc(
                before.id,
                phone_number=phone_number,
                phone_code=phone_code,
                scope=scope,
                reason=reason,
                purpose=purpose,
            ),
            phone=e164(phone_number or before.phone_number, phone_code or before.phone_code),
            before=before.as_dict(),
            after=after,
            note=note,
        )

    def delete_dnc(
        self,
        phone_number: str,
        phone_code: str,
        scope: Scope,
        *,
        lead_status: str | None = None,
        before: DncEntry | Sequence[DncEntry] | None = None,
        leads: Sequence[Lead] | None = None,
        not_found_ok: bool = False,
        job: str = "",
        note: str = "",
        cancel: threading.Event | None = None,
        stop_before_send: threading.Event | None = None,
        phone: str = "",
        earlier_send_open: bool = False,
    ) -> WriteResult:
        """Remove a number from a scope; ``note`` is the removal reason the user gave.

        ``phone`` (E.164) is the number the journal files the delete under, when the caller
        knows it better than ``phone_number``'s digits tell it (an entry kept in another
        written form, see :func:`code_in_digits`); by default :func:`e164` of them.

        ``before`` is what the journal's intent keeps so the removal can be undone: one entry
        (its values), or every entry the call removes, as looked up just before it (a
        purpose-scope delete removes the number's entry for every purpose). A sequence is
        recorded as the request's target plus ``entries``, one dict per entry (id, purpose,
        reason, insert date …), even when it is empty. Without ``before`` the intent holds
        the request's parameters.

        ``leads`` (with a ``lead_status``): the leads the delete re-statuses, as looked up
        just before it; the intent keeps each one's id, list and status before the change as
        ``leads``, so the re-status can be traced and undone.
        """
        details: dict[str, str] = {
            "phone_number": phone_number,
            "phone_code": phone_code,
            "campaign_id": scope.api_campaign_id,
        }
        recorded: dict[str, Any]
        if before is None:
            recorded = details
        elif isinstance(before, DncEntry):
            recorded = before.as_dict()
        else:
            recorded = {**details, "entries": [entry.as_dict() for entry in before]}
        if leads is not None:
            recorded = {
                **recorded,
                "leads": [
                    {"id": lead.id, "list_id": lead.list_id, "status": lead.status}
                    for lead in leads
                ],
            }
        if lead_status:
            details["update_lead_status"] = "true"
            details["lead_status"] = lead_status
        phone = phone or e164(phone_number, phone_code)
        return self._journaled(
            "dnc.delete",
            f"dnc:{phone or phone_number} scope={scope}",
            lambda: self.api.delete_dnc(
                phone_number,
                phone_code,
                scope,
                lead_status=lead_status,
                not_found_ok=not_found_ok,
                cancel=cancel,
                stop_before_send=stop_before_send,
            ),
            phone=phone,
            before=recorded,
            after=details if lead_status else None,
            job=job,
            note=note,
            earlier_send_open=earlier_send_open,
        )

    # ------------------------------------------------------------------ SMS opt-out
    def insert_sms(
        self,
        phone_number: str,
        phone_code: str,
        scope: Scope,
        *,
        reason: str = "",
        purpose: str = "",
        already_present_ok: bool = True,
        job: str = "",
        note: str = "",
        cancel: threading.Event | None = None,
        stop_before_send: threading.Event | None = None,
        earlier_send_open: bool = False,
    ) -> WriteResult:
        return self._insert(
            "sms",
            phone_number,
            phone_code,
            scope,
            reason,
            purpose,
            already_present_ok,
            job,
            note,
            cancel,
            stop_before_send,
            earlier_send_open,
        )

    def update_sms(
        self,
        before: SmsOptOut,
        *,
        phone_number: str | None = None,
        phone_code: str | None = None,
        scope: Scope | None = None,
        reason: str | None = None,
        purpose: str | None = None,
        note: str = "",
    ) -> WriteResult:
        number = phone_number or before.phone_number
        code = phone_code or before.phone_code
        new_scope = scope or before.scope
        after = {
            **before.as_dict(),
            "phone_number": number,
            "phone_code": code,
            "campaign_id": new_scope.api_campaign_id,
        }
        if reason is not None:
            after["reason"] = reason
        if purpose is not None:
            after["purpose"] = purpose
        return self._journaled(
            "sms.update",
            f"sms id={before.id}",
            lambda: self.api.update_sms(
                before.id,
                phone_number=number,
                phone_code=code,
                scope=new_scope,
                reason=reason,
                purpose=purpose,
            ),
            phone=e164(number, code),
            before=before.as_dict(),
            after=after,
            note=note,
        )

    # ------------------------------------------------------------------ leads, campaigns
    def restatus_lead(
        self,
        lead: Lead,
        status: str,
        *,
        job: str = "",
        note: str = "",
        cancel: threading.Event | None = None,
        phone: str | None = None,
    ) -> WriteResult:
        """Set ``lead``'s status, journaled with its old one. ``phone`` (E.164) is the number
        the journal files the update under: a removal's number, whichever field of the lead
        holds it and however it is written there; by default the lead's phone number field."""
        return self._journaled(
            "lead.update",
            f"lead id={lead.id}",
            lambda: self.api.update_lead(lead.id, status=status, cancel=cancel),
            phone=phone or e164(lead.phone_number, lead.phone_code or "1"),
            before={"id": lead.id, "list_id": lead.list_id, "status": lead.status},
            after={"id": lead.id, "list_id": lead.list_id, "status": status},
            job=job,
            note=note,
        )

    def set_campaign_status(
        self, campaign: Campaign, active: bool, *, note: str = ""
    ) -> WriteResult:
        return self._journaled(
            "campaign.status",
            f"campaign id={campaign.id} ({campaign.name})",
            lambda: self.api.set_campaign_status(campaign.id, active),
            before={"id": campaign.id, "active": campaign.active},
            after={"id": campaign.id, "active": active},
            note=note,
        )
