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

With a lead status, the leads the delete will re-status are looked up just before it
(:func:`app.core.lead_lookup.leads_to_restatus`, reads that cancelling stops before anything is
sent). The app sends no request per lead: the delete sets them all. The delete's journal intent
keeps those whose status it changes (``before["leads"]``: id, list id, old status) and the
removed input's message lists them, and apart the ones already in the status, which it leaves
as they were (no change is journaled for them). When they cannot be looked up no delete is sent:
deleting without knowing which leads it re-statuses, and from what status, would leave the
change untraceable and not undoable. Without a lead status no lead is looked up.

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
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from app.api.client import ApiClient, DncQuery
from app.api.concurrency import bounded_map
from app.api.errors import ApiError, AuthInvalidError, AuthMissingError
from app.api.models import DncEntry, Lead, WriteResult, WriteStatus
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.core.lead_lookup import changed_by, leads_to_restatus, restatus_text
from app.core.phones import normalize_with_default
from app.core.session import Session
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
    target: RemovalTarget
    outcome: Outcome
    message: str = ""
    error: BaseException | None = None


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

    With ``lead_status`` the service sets that status on the leads carrying each number; they
    are looked up first (journaled with their old status and named in the outcome's message),
    and an input whose leads cannot be looked up is not sent: it ends failed, saying so.
    ``progress(done, total)`` counts inputs. Setting ``cancel`` starts no new call and stops
    the look-ups before a delete (nothing sent); deletes in flight finish and the rest end as
    not attempted.
    """
    note = reason.strip()
    if not note:
        raise ValueError("a removal needs a reason; it goes into the change journal")
    job = job or f"dnc-removal-{uuid.uuid4().hex[:12]}"
    targets = [RemovalTarget.of(item) for item in items]
    groups: dict[tuple[str, str, str], list[int]] = {}
    for index, target in enumerate(targets):
        groups.setdefault(target.key, []).append(index)
    outcomes: list[RemovalOutcome | None] = [None] * len(targets)
    total = len(targets)
    done = 0
    if progress is not None:
        progress(0, total)

    def remove(
        key: tuple[str, str, str],
    ) -> tuple[WriteResult, list[DncEntry] | None, list[Lead] | None]:
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
        if lead_status:
            # Reads too: cancelling them sends nothing.
            try:
                leads = leads_to_restatus(
                    session.api, first.phone_number, first.phone_code, first.scope, cancel
                )
            except ApiError as exc:
                raise _LookupFailed(
                    f"not removed: the leads this removal would set to {lead_status} could not "
                    f"be looked up first, so no delete was sent ({exc.describe()})",
                    exc,
                ) from exc
        result = session.delete_dnc(
            first.phone_number,
            first.phone_code,
            first.scope,
            lead_status=lead_status or None,
            before=before,
            # Only the leads whose status it changes: one already in it is no change.
            leads=None if leads is None else changed_by(leads, lead_status or ""),
            not_found_ok=True,
            job=job,
            note=note,
            # No cancel here: cancelling between retries of a request that may have reached
            # the service would leave its outcome unknown. Calls in flight run to the end.
        )
        return result, removed, leads

    for finished in bounded_map(remove, list(groups), concurrency=concurrency, stop=cancel):
        result, removed, leads = (
            finished.result if finished.result is not None else (None, None, None)
        )
        for index in groups[finished.item]:
            outcomes[index] = _outcome(
                targets[index], result, finished.error, removed, leads, lead_status
            )
        done += len(groups[finished.item])
        if progress is not None:
            progress(done, total)
    final = [
        o if o is not None else RemovalOutcome(targets[i], Outcome.NOT_ATTEMPTED, "cancelled")
        for i, o in enumerate(outcomes)
    ]
    return RemovalResult(final, job, lead_status or None)


def _outcome(
    target: RemovalTarget,
    result: WriteResult | None,
    error: BaseException | None,
    removed: list[DncEntry] | None = None,
    leads: list[Lead] | None = None,
    lead_status: str | None = None,
) -> RemovalOutcome:
    if isinstance(error, Cancelled):
        return RemovalOutcome(target, Outcome.NOT_ATTEMPTED, "cancelled before it was sent")
    if isinstance(error, _LookupFailed):
        # The error is kept only when it is a token problem (the progress dialog then asks for
        # a token and retries); else the message, which says no delete was sent, is what the
        # user reads (a kept error would be shown as a failed "Remove" instead).
        cause = error.cause
        token = cause if isinstance(cause, AuthMissingError | AuthInvalidError) else None
        return RemovalOutcome(target, Outcome.FAILED, error.text, token)
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
            # showed it): the lost attempt may or may not have removed it.
            return RemovalOutcome(
                target,
                Outcome.NOT_FOUND,
                "not on the list when the request was retried; an earlier attempt got no "
                "answer saying whether it was done, so that attempt may have removed it; "
                f"answered after {result.attempts} attempts",
            )
        # Listed when looked up just before the delete: the lost attempt removed it.
        parts.append(
            "removed by this removal's earlier attempt: the number was on the list when looked "
            "up just before the delete, that attempt got no answer saying whether it was done "
            f"and the retry found it gone; answered after {result.attempts} attempts"
        )
    parts.append(removed_purposes_text(removed or []))
    if lead_status:
        parts.append(restatus_text(leads or [], lead_status))
    return RemovalOutcome(target, Outcome.REMOVED, "; ".join(p for p in parts if p))
