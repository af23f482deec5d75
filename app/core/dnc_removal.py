"""Remove DNC entries in bulk, journaled, with progress, cancel and one outcome per input.

A removal is the riskiest write DNC Desk makes (a number wrongly taken off the list can be
dialed), so every input ends in exactly one recorded outcome: removed, not found (someone
else already removed it; reported as such, not as an error), failed with the service's
reason, or not attempted because the user cancelled first.

``/dnc/delete`` names an entry by number + code + scope, not by id, and for purpose scope it
removes the number's entry for every purpose. Inputs that name the same target therefore
share one call and its outcome. Before a purpose-scope call the number's purpose entries are
looked up (:func:`purpose_entries`) and all of them go into the journal's ``before``, so each
one removed can be put back; the bulk removal job (:mod:`app.core.removal_job`) uses the same
look-up to refuse a removal for one purpose that would take other purposes with it. A
purpose-scope delete answered "not found" after an earlier attempt got no answer saying
whether it was done (none came, a 5xx, an answer not the API's JSON), for a number that look-up
found listed, counts as removed: that attempt removed it.

With a lead status, every lead of the picked entry's number (:func:`number_of`) ends in the
status, as in the bulk removal: the number's leads, written as the app writes it and, for a
country that drops a trunk 0, with the 0 (:func:`app.core.lead_lookup.number_leads`), and the
leads the delete will re-status (:func:`app.core.lead_lookup.leads_to_restatus`: those holding
the digits it sends) are looked up just before it (reads that cancelling stops before anything
is sent). The delete's journal intent keeps those whose status it changes (``before["leads"]``:
id, list id, old status); the number's leads no delete re-statused (an entry kept without the
trunk 0 leaves the leads typed with it, one kept with the country code in its digits those
typed without it) are then set by their own journaled ``/leads/update``, filed under the
number, with the old status kept for undo. The removed input's message names every lead set
with its old status, and apart the ones already in the status (no change is journaled for
them); a lead update the service refuses keeps its status, one it fails or never answers may
have been set, and the message says to set each on the service; a campaign's entry of a number
no lead of the campaign's lists was found holding names the number's leads found in other
campaigns' lists, which its delete leaves as they are (black-box B5 #3). Entries of one number
picked together are deleted one after another and their leads set once, after them: each lead
is journaled once. When the leads cannot be looked up no delete is sent: deleting without
knowing which leads it re-statuses, and from what status, would leave the change untraceable
and not undoable. Without a lead status no lead is looked up.

The written forms a DNC entry may keep a number in (:func:`stored_forms`), the searches that find
them (:func:`form_searches`) and which entries found so are the number (:func:`names_number`)
are defined here for the bulk removal and the evidence pack, so a removal looks up and deletes
the entries evidence attributes to the number, no more and no fewer (black-box R2 #6: an entry
"447911129992" kept under phone code 1 was in the evidence of +44 7911 129992, and a removal of
it did not look there). The service matches a number's text exactly and takes what another tool
or a person typed, country code, exit code or trunk 0 included, under any phone code.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Final

from app.api.client import ApiClient, DncQuery
from app.api.concurrency import bounded_map
from app.api.errors import (
    ApiError,
    AuthInvalidError,
    AuthMissingError,
    RateLimitedError,
    ValidationError,
)
from app.api.models import DncEntry, Lead, WriteResult, WriteStatus
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.core.lead_lookup import (
    changed_by,
    lead_numbers,
    leads_to_restatus,
    not_set_text,
    number_leads_apart,
    restatus_text,
    restatused_by,
)
from app.core.phones import normalize_with_default
from app.core.session import Session, e164, fate_open, read_over
from app.core.sheet_damage import drops_trunk_zero
from app.core.wording import joined

DEFAULT_CONCURRENCY = 8

Progress = Callable[[int, int], None]


def purpose_entries(
    api: ApiClient, phone_number: str, phone_code: str, cancel: threading.Event | None = None
) -> list[DncEntry]:
    """The number's purpose-scope entries, every purpose: what a purpose-scope delete removes.

    A read (``/dnc/search`` with campaign_id -1 and no purpose filter), made just before the
    delete so the journal can record each entry it takes off the list.
    """
    query = DncQuery(scope=Scope.purpose(""), phone_number=phone_number, phone_code=phone_code)
    return list(api.iter_dnc(query, cancel=cancel))


def purpose_names(entries: Sequence[DncEntry]) -> list[str]:
    """The distinct purposes of ``entries``, sorted; told apart exactly, as the service does.

    "Surveys" and "surveys" are two purposes on the service (it takes both for one number),
    and so are "Surveys" and "Surveys" with an invisible character: both are listed.
    """
    return sorted({entry.purpose for entry in entries}, key=lambda n: (n.casefold(), n))


def quote_purposes(names: Sequence[str]) -> str:
    """``'A'``, ``'A' and 'B'``, ``'A', 'B' and 'C'`` (a blank purpose as ``(blank)``)."""
    return joined([repr(n) if n else "(blank)" for n in names])


def removed_purposes_text(entries: Sequence[DncEntry]) -> str:
    """The row message naming the purposes a delete took, when it took more than one."""
    names = purpose_names(entries)
    if len(names) <= 1:
        return ""
    return f"removed for purposes {quote_purposes(names)}"


class FormKind(Enum):
    """How a stored text writes a number (its national digits ``N``, country code ``C``)."""

    APP = "N"
    TRUNK = "0N"
    CODE = "CN"
    CODE_TRUNK = "C0N"
    EXIT_00 = "00CN"
    EXIT_011 = "011CN"
    EXIT_00_TRUNK = "00C0N"
    EXIT_011_TRUNK = "011C0N"

    @property
    def carries_code(self) -> bool:
        """Whether the digits name the country themselves (then they name the number whatever
        the entry's phone code says, unless they read as another valid number under it)."""
        return self not in (FormKind.APP, FormKind.TRUNK)


# The most digits a phone number has (E.164), and the most the service takes in a search.
MAX_DIGITS: Final = 15


def stored_forms(national: str, phone_code: str) -> dict[str, FormKind]:
    """The texts a DNC entry of the number may hold, in the order they are looked up: as the
    app writes it; with the country's trunk 0 (a country that drops one: UK "07911123456");
    with the country code in the digits ("447911123456"), with it and the trunk 0
    ("4407911123456", "+44 (0)7911…" typed as digits); after the exit code 00 or the NANP one
    011 ("00447911123456", "011447911123456"), and either with the trunk 0 ("00330612345679",
    "011330612345679": black-box B3 #4, the 011 one was never looked up). A form past 15
    digits is left out (a UK mobile's 011 form with its trunk 0 has 16)."""
    code = phone_code
    trunk = drops_trunk_zero(code) and not national.startswith("0")
    pairs = [(national, FormKind.APP)]
    if trunk:
        pairs.append((f"0{national}", FormKind.TRUNK))
    pairs.append((f"{code}{national}", FormKind.CODE))
    if trunk:
        pairs.append((f"{code}0{national}", FormKind.CODE_TRUNK))
    pairs += [
        (f"00{code}{national}", FormKind.EXIT_00),
        (f"011{code}{national}", FormKind.EXIT_011),
    ]
    if trunk:
        pairs.append((f"00{code}0{national}", FormKind.EXIT_00_TRUNK))
        pairs.append((f"011{code}0{national}", FormKind.EXIT_011_TRUNK))
    forms: dict[str, FormKind] = {}
    for number, kind in pairs:
        # Past E.164's 15 digits no entry can hold it, and the service refuses the search
        # (code 6006), which sank a Brazilian mobile's evidence and removal (black-box R2 #4).
        if len(number) <= MAX_DIGITS:
            forms.setdefault(number, kind)
    return forms


@dataclass(frozen=True, slots=True)
class FormSearch:
    """One search for the number's entries: ``number`` the text, ``kind`` its form, and
    ``phone_code`` the code searched under, ``""`` for any code."""

    number: str
    kind: FormKind
    phone_code: str


# /sms-opt-out/search's "missing or invalid country code" (api-spec error table): a service
# that wants a phone code beside a phone number answers it to a search of a form under any
# code, which is then searched under the number's own (evidence, an import's late rows).
SMS_NEEDS_CODE: Final = 6026


# /dnc/search's "invalid phone format" (api-spec error table). A service strict on formats
# (one reading phone_number as the number beside its phone code, with no trunk 0 nor exit
# code) answers it to a search of such a form: it then keeps no entry in that form, so the
# number is not listed so there; the row is not failed for it (black-box B36 F3).
FORM_REFUSED: Final = 6006


def refuses_form(exc: ApiError, search: FormSearch) -> bool:
    """Whether ``exc``, the answer to a DNC search of ``search``, is the service refusing
    that written form's format: never for the app's own form (whose refusal stays an error:
    the app writes every entry so)."""
    return (
        isinstance(exc, ValidationError)
        and search.kind is not FormKind.APP
        and exc.code == FORM_REFUSED
    )


def refused_forms_text(refused: Sequence[FormSearch]) -> str:
    """The note of the written forms the service refused to search (:func:`refuses_form`),
    ``""`` for none: said once where the forms looked up are named."""
    if not refused:
        return ""
    numbers = joined([search.number for search in refused])
    return (
        f"not looked up in {numbers}: the service refuses that phone number format (code "
        f"{FORM_REFUSED}, invalid phone format), so it keeps no entry written so"
    )


def form_searches(national: str, phone_code: str) -> list[FormSearch]:
    """The searches that find the number's entries, one per :func:`stored_forms` form, in its
    order. A form with the country code in its digits names the country itself, so it is
    searched under every phone code: an entry "447911129992" kept under code 1 (typed by hand,
    made by another tool) is the UK number (black-box R2 #6). The app's and the trunk-0 form
    only under the number's code: under another code they write another country's number.
    What a search finds is the number only if :func:`names_number` says so."""
    return [
        FormSearch(number, kind, "" if kind.carries_code else phone_code)
        for number, kind in stored_forms(national, phone_code).items()
    ]


def names_number(phone_number: str, phone_code: str, national: str, code: str) -> bool:
    """Whether an entry holding ``phone_number`` under ``phone_code``, found by a search of
    :func:`form_searches` for ``national`` under ``code``, is that number: not when, read as
    stored under its own phone code, it is a valid number other than this one. "447911129992"
    under code 1, no US number, is the UK number; a German "4915112345678" under 49 reads as
    a German number of its own, so it is not taken for +49 151 12345678 (nor deleted with it)."""
    read = normalize_with_default(phone_number, phone_code or code, stored=True)
    return not read.ok or (read.phone_code, read.national) == (code, national)


class _LookupFailed(Exception):
    """The leads a delete would re-status could not be looked up: nothing was sent."""

    def __init__(self, text: str, cause: ApiError) -> None:
        super().__init__(text)
        self.text = text
        self.cause = cause


class Outcome(Enum):
    """How one input of a removal ended; exactly one per input."""

    REMOVED = "removed"
    NOT_FOUND = "not found"
    FAILED = "failed"
    NOT_ATTEMPTED = "not attempted"


@dataclass(frozen=True, slots=True)
class RemovalTarget:
    """What ``/dnc/delete`` needs, plus the entry as the user saw it (for the journal)."""

    phone_number: str
    phone_code: str
    scope: Scope
    entry: DncEntry | None = None

    @classmethod
    def of(cls, item: DncEntry | RemovalTarget) -> RemovalTarget:
        if isinstance(item, RemovalTarget):
            return item
        return cls(item.phone_number, item.phone_code, item.scope, item)

    @property
    def key(self) -> tuple[str, str, str]:
        # Purpose text is not part of the key: the service deletes every purpose at once.
        return (self.phone_number, self.phone_code, self.scope.api_campaign_id)


@dataclass(frozen=True, slots=True)
class RemovalOutcome:
    """``leads_refused`` and ``leads_unanswered``: of a removed input's number, the leads its
    own ``/leads/update`` did not set, the service refusing it or not answering whether it was
    done (the message names them): the window lists such inputs."""

    target: RemovalTarget
    outcome: Outcome
    message: str = ""
    error: BaseException | None = None
    leads_refused: int = 0
    leads_unanswered: int = 0
    # A "not found" on a retry after an attempt that got no answer saying whether it was done:
    # that attempt may have removed the entry, so it is not "already gone" (black-box bb3 F4).
    earlier_attempt_lost: bool = False
    # Failed before any delete was sent (its leads could not be looked up first): the change
    # journal has no delete for it, which the headline says (black-box bb6 F2).
    not_sent: bool = False


@dataclass(frozen=True, slots=True)
class _LeadsSaid:
    """What a number's removal says of its leads, and how many of its own lead updates the
    service refused or did not answer."""

    text: str = ""
    refused: int = 0
    unanswered: int = 0


@dataclass(slots=True)
class RemovalResult:
    """One outcome per input, in input order; ``job`` is the journal's job id."""

    outcomes: list[RemovalOutcome]
    job: str
    lead_status: str | None = None
    counts: dict[Outcome, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.counts = {o: 0 for o in Outcome}
        for item in self.outcomes:
            self.counts[item.outcome] += 1

    def count(self, outcome: Outcome) -> int:
        return self.counts[outcome]

    @property
    def problems(self) -> list[RemovalOutcome]:
        """Every input that was not removed (not found, failed, not attempted)."""
        return [o for o in self.outcomes if o.outcome is not Outcome.REMOVED]

    @property
    def complete(self) -> bool:
        return self.count(Outcome.FAILED) == 0 and self.count(Outcome.NOT_ATTEMPTED) == 0


def number_of(target: RemovalTarget) -> tuple[str, str]:
    """The number ``target``'s entry holds, ``(national, phone code)``: as it reads under its
    own phone code ("07911123456", "447911123456", "00447911123456" under 44 are all
    7911123456 under 44); one that reads as no valid number there, its digits as the journal
    files the entry (:func:`app.core.session.e164`: the trunk 0 or country code dropped)."""
    read = normalize_with_default(target.phone_number, target.phone_code, stored=True)
    if read.ok:
        return read.national, read.phone_code
    filed = e164(target.phone_number, target.phone_code)
    national = filed[1 + len(target.phone_code) :] if filed else target.phone_number
    return national, target.phone_code


@dataclass(slots=True)
class _Sent:
    """One delete of a number's: its answer (or the error it ended in), the purpose entries it
    took and the leads it re-statused, as looked up just before it (``None``: not looked up)."""

    result: WriteResult | None = None
    error: BaseException | None = None
    removed: list[DncEntry] | None = None
    leads: list[Lead] | None = None
    after: _LookedUp | None = None


@dataclass(frozen=True, slots=True)
class _LookedUp:
    """What a look-up right after a delete's "not found" following a lost answer found:
    ``listed`` the entries still on the list in its scope, None when the look-up failed too
    (``error``)."""

    listed: list[DncEntry] | None
    error: ApiError | None = None


# Reads are harmless to repeat: a flaky service should not leave the delete unsettled.
_LOOK_UP_ROUNDS = 3
# The settled event of a delete its retry found gone, the number gone at a look-up after it:
# the pack's Settled cell reads "removed — most likely by …" (black-box s31 fx9 note).
GONE_AFTER_LOST_ANSWER = (
    "removed, most likely by this delete's first attempt: that attempt got no answer saying "
    "whether it was done, its retry was answered not found, and a look-up right after found "
    "the number no longer on the list in this scope (it was listed when the entry was picked)"
)
# The settled event of a delete whose entries were listed just before it and gone on its retry.
REMOVED_BY_LOST_ATTEMPT = (
    "removed, most likely by this removal's earlier attempt: the number was on the list when "
    "looked up just before the delete, that attempt got no answer saying whether it was done "
    "and the retry found it gone"
)
# The settled event of a delete that ended in an error after an attempt whose answer said
# nothing of whether it was done, the number gone at a look-up right after (black-box bb6 F1).
GONE_AFTER_FAILURE = (
    "removed, most likely by this delete: it ended in an error after an attempt that got no "
    "answer saying whether it was done, and a look-up right after found the number no longer "
    "on the list in this scope (it was listed when the entry was picked)"
)


_Key = tuple[str, str, str]


# The job id of a removal given no job (the window's Delete dialog): it keeps no job file.
WINDOW_REMOVAL_JOB_PREFIX = "dnc-removal-"


def remove_dnc_entries(
    session: Session,
    items: Sequence[DncEntry | RemovalTarget],
    *,
    reason: str,
    lead_status: str | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    cancel: threading.Event | None = None,
    progress: Progress | None = None,
    job: str = "",
) -> RemovalResult:
    """Remove ``items`` through ``session`` (journaled, ``reason`` as the note).

    With ``lead_status`` every lead of each removed entry's number (:func:`number_of`) ends in
    that status: the delete sets those holding the digits it sends, and the others are set by
    their own ``/leads/update`` after the number's deletes. They are looked up first (journaled
    with their old status and named in the outcome's message), and an input whose leads cannot
    be looked up is not sent: it ends failed, saying so. The deletes of one number run one
    after another, so a lead is journaled once however many of its entries were picked.
    ``progress(done, total)`` counts inputs. Setting ``cancel`` starts no new call and stops
    the look-ups before a delete (nothing sent); deletes in flight finish, with the updates of
    their number's leads, and the rest end as not attempted.
    """
    note = reason.strip()
    if not note:
        raise ValueError("a removal needs a reason; it goes into the change journal")
    job = job or f"{WINDOW_REMOVAL_JOB_PREFIX}{uuid.uuid4().hex[:12]}"
    status = lead_status or ""
    targets = [RemovalTarget.of(item) for item in items]
    groups: dict[_Key, list[int]] = {}
    for index, target in enumerate(targets):
        groups.setdefault(target.key, []).append(index)
    # The deletes of one number, in input order: its leads are set once, after all of them.
    numbers: dict[tuple[str, str], list[_Key]] = {}
    for key, indexes in groups.items():
        numbers.setdefault(number_of(targets[indexes[0]]), []).append(key)
    outcomes: list[RemovalOutcome | None] = [None] * len(targets)
    total = len(targets)
    done = 0
    if progress is not None:
        progress(0, total)

    def remove(
        key: _Key,
        number: tuple[str, str],
        own: dict[str, tuple[list[Lead], list[Lead]]],
        restatused: dict[str, Lead],
    ) -> _Sent:
        """One delete; ``own``: the number's leads by scope, looked up once, with those found
        outside it; ``restatused``: the leads the number's deletes done so far re-statused,
        journaled by the first."""
        first = targets[groups[key][0]]
        if cancel is not None and cancel.is_set():
            raise Cancelled
        before: DncEntry | list[DncEntry] | None = first.entry
        removed: list[DncEntry] | None = None
        if first.scope.is_purpose:
            # The delete takes every purpose: journal each entry it removes, not only the
            # one picked (a read; cancelling it sends nothing).
            before = removed = purpose_entries(
                session.api, first.phone_number, first.phone_code, cancel
            )
        leads: list[Lead] | None = None
        if status:
            # Reads too: cancelling them sends nothing.
            try:
                # Asked again while the service fails it, past the client's own waits on a
                # 429 too: a read is harmless to repeat, and an input must not fail before its
                # delete for one (fx9 follow-up: 14 of 60 failed so at --drop-rate 0.6; a
                # rate-limited run's many look-ups per entry met 429s in a row).
                leads = read_over(
                    lambda: _delete_leads(session.api, first, number, own, cancel),
                    _LOOK_UP_ROUNDS,
                    also=(RateLimitedError,),
                )
            except ApiError as exc:
                raise _LookupFailed(
                    f"not removed: the leads this removal would set to {status} could not "
                    f"be looked up first, so no delete was sent ({exc.describe()})",
                    exc,
                ) from exc
            leads = [lead for lead in leads if lead.id not in restatused]
        try:
            result = session.delete_dnc(
                first.phone_number,
                first.phone_code,
                first.scope,
                lead_status=status or None,
                before=before,
                # Only the leads whose status it changes: one already in it is no change.
                leads=None if leads is None else changed_by(leads, status),
                not_found_ok=True,
                job=job,
                note=note,
                # No cancel here: cancelling between retries of a request that may have reached
                # the service would leave its outcome unknown. Calls in flight run to the end.
                # Filed under the number, as its leads' updates are, whatever form it is kept in.
                phone=e164(*number),
            )
        except ApiError as exc:
            if removed is not None or not fate_open(exc):
                raise
            # No answer said whether it was done (none came, a 5xx): look the number up, so
            # a delete the service did is not reported failed (black-box bb6 F1).
            gone = _look_up_after(session, first, number, exc, job, note, GONE_AFTER_FAILURE)
            return _Sent(None, exc, removed, leads, gone)
        after = None
        if removed is None and _lost_then_not_found(result):
            after = _look_up_after(session, first, number, result, job, note)
        elif removed and _lost_then_not_found(result):
            # Listed just before, gone on the retry: the outcome reads removed, so the journal
            # says so beside the delete's "not found" (black-box bb6 F2: the two disagreed).
            _journal_removed_by_lost_attempt(session, first, number, result, job, note)
        return _Sent(result, None, removed, leads, after)

    def remove_number(number: tuple[str, str]) -> tuple[dict[_Key, _Sent], _LeadsSaid]:
        """The number's deletes, then (with a lead status) the updates of its leads no delete
        done re-statused, and what the removed inputs' messages say of its leads."""
        sent: dict[_Key, _Sent] = {}
        own: dict[str, tuple[list[Lead], list[Lead]]] = {}
        restatused: dict[str, Lead] = {}
        taken: list[_Key] = []
        unsure: list[Lead] = []
        for key in numbers[number]:
            try:
                sent[key] = remove(key, number, own, restatused)
            except Exception as exc:  # this delete's outcome; the number's others still run
                sent[key] = _Sent(error=exc)
            one = sent[key]
            first = targets[groups[key][0]]
            if (
                _outcome(first, one.result, one.error, one.removed, one.after).outcome
                is Outcome.REMOVED
            ):
                taken.append(key)
                if one.error is None:
                    restatused.update((lead.id, lead) for lead in one.leads or [])
                else:
                    # Settled as removed by a look-up after its error: whether the delete set
                    # them is not known, so they are set by their own updates (bb6 F1).
                    unsure.extend(one.leads or [])
        if not status or not taken:
            return sent, _LeadsSaid()
        rest = {
            lead.id: lead
            for lead in [*(x for key in taken for x in own.get(key[2], ([], []))[0]), *unsure]
            if lead.id not in restatused
        }
        ordered = sorted(rest.values(), key=lambda x: (len(x.id), x.id))
        # Entries of one scope taken: a campaign's says which of the number's leads it left,
        # in other campaigns' lists, when none in its own was found (black-box B5 #3).
        scopes = {key[2] for key in taken}
        scope = targets[groups[taken[0]][0]].scope if len(scopes) == 1 else None
        others = own.get(taken[0][2], ([], []))[1] if scope is not None else []
        return sent, set_leads(list(restatused.values()), ordered, number, scope, others)

    def set_leads(
        by_delete: list[Lead],
        rest: list[Lead],
        number: tuple[str, str],
        scope: Scope | None,
        others: list[Lead],
    ) -> _LeadsSaid:
        """Set each of ``rest`` (the number's leads no delete done re-statused) to the status
        by its own journaled ``/leads/update`` (one already in it is left, no request), and say
        what became of every lead of the number (``scope``, ``others``: see
        :func:`app.core.lead_lookup.restatus_text`)."""
        written: list[Lead] = []
        same: list[Lead] = []
        failed: list[str] = []
        unanswered: list[str] = []
        for lead in rest:
            if lead.status == status:
                same.append(lead)
                continue
            try:
                # No cancel: the number is off the list, and its leads are to follow it.
                session.restatus_lead(lead, status, job=job, note=note, phone=e164(*number))
            except ApiError as exc:
                # One the service did not answer (a 5xx, no answer) may have been set: it is
                # not said to keep its status (S18 R1, as the bulk removal since S18 H1b).
                text = f"lead {lead.id} (list {lead.list_id}): {exc.describe()}"
                (unanswered if fate_open(exc) else failed).append(text)
                continue
            written.append(lead)
        leads = sorted([*by_delete, *written, *same], key=lambda x: (len(x.id), x.id))
        said = restatus_text(leads, status, scope, others)
        if not_set := not_set_text(failed, unanswered, status):
            said += f"; {not_set}"
        return _LeadsSaid(said, len(failed), len(unanswered))

    for finished in bounded_map(remove_number, list(numbers), concurrency=concurrency, stop=cancel):
        keys = numbers[finished.item]
        sent, said = finished.result or (
            {key: _Sent(error=finished.error) for key in keys},
            _LeadsSaid(),
        )
        for key in keys:
            one = sent[key]
            for index in groups[key]:
                outcome = _outcome(targets[index], one.result, one.error, one.removed, one.after)
                if status and outcome.outcome is Outcome.REMOVED:
                    message = "; ".join(p for p in (outcome.message, said.text) if p)
                    outcome = replace(
                        outcome,
                        message=message,
                        leads_refused=said.refused,
                        leads_unanswered=said.unanswered,
                    )
                outcomes[index] = outcome
            done += len(groups[key])
        if progress is not None:
            progress(done, total)
    final = [
        o if o is not None else RemovalOutcome(targets[i], Outcome.NOT_ATTEMPTED, "cancelled")
        for i, o in enumerate(outcomes)
    ]
    return RemovalResult(final, job, lead_status or None)


def _delete_leads(
    api: ApiClient,
    target: RemovalTarget,
    number: tuple[str, str],
    own: dict[str, tuple[list[Lead], list[Lead]]],
    cancel: threading.Event | None,
) -> list[Lead]:
    """The leads the delete of ``target`` re-statuses (:func:`restatused_by`), the number's own
    in its scope looked up first into ``own`` (by the scope's campaign id, with those found
    outside the scope: :func:`app.core.lead_lookup.number_leads_apart`): a delete of the
    number as a lead holds it (with or without its trunk 0) re-statuses some of them; one of
    another form (the country code in its digits) is looked up by its own text and code."""
    national, code = number
    scope = target.scope
    if scope.api_campaign_id not in own:
        own[scope.api_campaign_id] = number_leads_apart(api, national, code, scope, cancel)
    if target.phone_code == code and target.phone_number in lead_numbers(national, code):
        return [
            lead
            for lead in own[scope.api_campaign_id][0]
            if restatused_by(lead, target.phone_number, code)
        ]
    return leads_to_restatus(api, target.phone_number, target.phone_code, scope, cancel)


def _settled_under(target: RemovalTarget, number: tuple[str, str]) -> tuple[str, str]:
    """The phone and the journal target a delete's settling event is filed under: the
    delete's own, so evidence finds it beside the delete."""
    phone = e164(*number)
    return phone, f"dnc:{phone or target.phone_number} scope={target.scope}"


def _lost_then_not_found(result: WriteResult) -> bool:
    """Whether a delete was answered "not found" only on a retry after an attempt that got no
    answer saying whether it was done: that attempt may have removed the entry."""
    return result.status is WriteStatus.NOT_FOUND and result.earlier_attempt_lost


def _look_up_after(
    session: Session,
    target: RemovalTarget,
    number: tuple[str, str],
    said: WriteResult | ApiError,
    job: str,
    note: str,
    settled: str = GONE_AFTER_LOST_ANSWER,
) -> _LookedUp:
    """Look ``target``'s number up in its scope after its delete's retry was answered "not
    found", or after it ended in an error ``said`` with an answer lost (not looked up before
    it: a global or campaign entry, as the list showed it), and journal what was found beside
    the delete's outcome, under the delete's own target: gone is a ``dnc.delete.settled``
    event (``settled``: an attempt of it most likely removed it), still
    listed or a failed look-up a ``dnc.delete.checked`` one. Without it the evidence pack
    could only guess from the outcome what became of the entry."""
    phone, where = _settled_under(target, number)
    query = DncQuery(
        scope=target.scope, phone_number=target.phone_number, phone_code=target.phone_code
    )

    def journal(event: str, details: dict[str, object]) -> None:
        answer = said if isinstance(said, ApiError) else said.message
        session.record_look_up(event, where, phone, answer, details, job=job, note=note)

    try:
        listed = read_over(lambda: list(session.api.iter_dnc(query)), _LOOK_UP_ROUNDS)
    except ApiError as failed:
        journal("dnc.delete.checked", {"look_up_error": failed.describe()})
        return _LookedUp(None, failed)
    if listed:
        journal("dnc.delete.checked", {"listed_after": [entry.id for entry in listed]})
    else:
        journal("dnc.delete.settled", {"settled": settled})
    return _LookedUp(listed)


def _journal_removed_by_lost_attempt(
    session: Session,
    target: RemovalTarget,
    number: tuple[str, str],
    result: WriteResult,
    job: str,
    note: str,
) -> None:
    """A ``dnc.delete.settled`` event beside a delete answered "not found" on its retry whose
    entries were listed when looked up just before it: its earlier attempt removed them."""
    phone, where = _settled_under(target, number)
    details = {"settled": REMOVED_BY_LOST_ATTEMPT}
    session.record_look_up(
        "dnc.delete.settled", where, phone, result.message, details, job=job, note=note
    )


def _lost_answer_outcome(
    target: RemovalTarget, result: WriteResult, after: _LookedUp | None
) -> RemovalOutcome:
    """A delete not looked up before it, answered "not found" on its retry after a lost
    answer, as the look-up after it settled it."""
    answered = f"answered after {result.attempts} attempts"
    if after is not None and after.listed:
        ids = ", ".join(entry.id for entry in after.listed)
        return RemovalOutcome(
            target,
            Outcome.FAILED,
            f"still on the DNC list in this scope (entry {ids}): the retry of this delete was "
            "answered not found after an attempt that got no answer, yet a look-up right after "
            f"found the number listed, so the delete did not happen; remove it again; {answered}",
        )
    if after is not None and after.listed is not None:
        said = (
            "not on the list when the request was retried, and a look-up right after found it "
            "gone: this delete's first attempt, which got no answer saying whether it was done, "
            f"most likely removed it (the change journal says so); {answered}"
        )
    else:
        why = f" ({after.error.describe()})" if after is not None and after.error else ""
        said = (
            "not on the list when the request was retried; an earlier attempt got no answer "
            "saying whether it was done, so that attempt may have removed it, and a look-up "
            f"right after failed too{why}: search the list for the number; {answered}"
        )
    return RemovalOutcome(target, Outcome.NOT_FOUND, said, earlier_attempt_lost=True)


def _failed_lost_outcome(
    target: RemovalTarget, error: ApiError, after: _LookedUp
) -> RemovalOutcome:
    """A delete not looked up before it that ended in ``error`` after an attempt whose answer
    was lost (:func:`app.core.session.fate_open`), as the look-up after it settled it: gone is
    removed (most likely by this delete; its leads are then set as a removed input's are),
    still listed failed, and a failed look-up failed as not known."""
    if after.listed == []:
        return RemovalOutcome(
            target,
            Outcome.REMOVED,
            "removed, most likely by this delete: it ended in an error after an attempt that "
            "got no answer saying whether it was done, and a look-up right after found the "
            f"number gone (the change journal says so) ({error.describe()})",
            earlier_attempt_lost=True,
        )
    if after.listed:
        ids = ", ".join(entry.id for entry in after.listed)
        return RemovalOutcome(
            target,
            Outcome.FAILED,
            f"not removed: still on the DNC list in this scope (entry {ids}) at a look-up right "
            f"after the delete ended in an error, so the delete did not happen; remove it "
            f"again ({error.describe()})",
        )
    why = f" ({after.error.describe()})" if after.error is not None else ""
    return RemovalOutcome(
        target,
        Outcome.FAILED,
        "not known whether removed: the delete ended in an error after an attempt that got no "
        "answer saying whether it was done, so it may have removed the entry "
        f"({error.describe()}), and a look-up right after failed too{why}: search the list "
        "for the number and remove it again if it is still listed",
        earlier_attempt_lost=True,
    )


def _outcome(
    target: RemovalTarget,
    result: WriteResult | None,
    error: BaseException | None,
    removed: list[DncEntry] | None = None,
    after: _LookedUp | None = None,
) -> RemovalOutcome:
    """How one input ended; a removed one's message says nothing yet of its leads."""
    if isinstance(error, Cancelled):
        return RemovalOutcome(target, Outcome.NOT_ATTEMPTED, "cancelled before it was sent")
    if isinstance(error, _LookupFailed):
        # The error is kept only when it is a token problem (the progress dialog then asks for
        # a token and retries); else the message, which says no delete was sent, is what the
        # user reads (a kept error would be shown as a failed "Remove" instead).
        cause = error.cause
        token = cause if isinstance(cause, AuthMissingError | AuthInvalidError) else None
        return RemovalOutcome(target, Outcome.FAILED, error.text, token, not_sent=True)
    if isinstance(error, ApiError) and after is not None:
        return _failed_lost_outcome(target, error, after)
    if error is not None:
        return RemovalOutcome(target, Outcome.FAILED, str(error) or type(error).__name__, error)
    parts: list[str] = []
    if result is not None and result.status is WriteStatus.NOT_FOUND:
        if not result.earlier_attempt_lost:
            return RemovalOutcome(
                target, Outcome.NOT_FOUND, result.message or "not on the list (already removed?)"
            )
        if removed is not None and not removed:
            # Looked up just before the delete and not listed: the lost attempt had nothing
            # to take.
            return RemovalOutcome(
                target,
                Outcome.NOT_FOUND,
                "not on the list (looked up before the delete); answered after "
                f"{result.attempts} attempts",
            )
        if removed is None:
            # Not looked up just before the delete (a global or campaign entry, as the list
            # showed it): the look-up after it says what became of it.
            return _lost_answer_outcome(target, result, after)
        # Listed when looked up just before the delete: the lost attempt removed it.
        parts.append(
            "removed by this removal's earlier attempt: the number was on the list when looked "
            "up just before the delete, that attempt got no answer saying whether it was done "
            f"and the retry found it gone; answered after {result.attempts} attempts"
        )
    parts.append(removed_purposes_text(removed or []))
    return RemovalOutcome(target, Outcome.REMOVED, "; ".join(p for p in parts if p))
