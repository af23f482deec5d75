"""List health: what is wrong or worth a look on the DNC and SMS opt-out lists.

For one list (whole, or one scope): numbers not valid for their country code, numbers in a
campaign scope that the global scope already covers (redundant; the fix removes the campaign
copies through the journaled session), entries pointing at campaigns that no longer exist or
are inactive, blank reasons, purposes spelled several ways (``Collections`` and
``collections ``), entries dated in the future, and entries by age. Across the two lists, per
scope: numbers on the SMS opt-out list but not on the DNC list, and the reverse; the officer
decides what to do.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from app.api.client import ApiClient
from app.api.concurrency import bounded_map
from app.api.errors import ApiError
from app.api.models import parse_timestamp
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.core.audit_match import EntryIndex
from app.core.audit_types import ListKind, Progress, no_progress
from app.core.job_staging import purpose_key, shown_text
from app.core.phones import normalize
from app.core.read_whole import Probe, read_whole_for
from app.core.session import Session
from app.core.snapshots import SnapshotData, SnapshotEntry, fetch_list, unread_reason
from app.core.wording import counted, joined

HONOR_YEARS = 5  # 47 CFR 64.1200(d)(6): a do-not-call request is honored for five years
FUTURE_AGE = "in the future"
AGE_BUCKETS = (
    ("under 30 days", 30),
    ("30 to 89 days", 90),
    ("90 to 364 days", 365),
    ("1 to 3 years", 3 * 365),
    ("over 3 years", None),
)
UNKNOWN_AGE = "unknown date"
# The service's clock is in a time zone the spec does not give: an insert date is surely ahead
# of now only when it is ahead of every clock's now, the furthest ahead being UTC+14 (black-box
# B32 F5: 2027-06-01, and tomorrow's date, were counted "under 30 days").
_FURTHEST_AHEAD_OF_UTC = timedelta(hours=14)
# How much the near-duplicate purposes finding's title names (the entries name the rest).
_PURPOSES_NAMED = 5
_SPELLINGS_NAMED = 5


@dataclass(frozen=True)
class Finding:
    """One kind of problem and the entries it concerns; ``fixable`` when the app can fix it."""

    code: str
    title: str
    entries: list[SnapshotEntry]
    details: dict[str, str] = field(default_factory=dict)  # entry id -> why (e.g. the reason)
    fixable: bool = False
    # Entry id -> the global entry that covers it (the redundant finding's only).
    covers: dict[str, SnapshotEntry] = field(default_factory=dict)


@dataclass
class HealthReport:
    """The health of one list (or one scope of it)."""

    kind: ListKind
    scope: Scope | None
    reported_total: int
    checked: int
    unreachable: int
    findings: list[Finding]
    ages: dict[str, int]
    # Why the unreachable entries were not read ("" when every entry was).
    unread_why: str = ""

    def finding(self, code: str) -> Finding:
        return next(f for f in self.findings if f.code == code)


@dataclass(frozen=True)
class CrossListGap:
    """Per scope: numbers on one list and not the other. ``scope`` as ``--scope`` takes it, a
    purpose spelled as the lists spell it; one they spell several ways (compared as one
    purpose, and the near-duplicate finding names them) is said by its compared form."""

    scope: str
    sms_not_dnc: list[SnapshotEntry]
    dnc_not_sms: list[SnapshotEntry]
    # Numbers on one list whose entries on the other could not all be read (a search that
    # could hold them left entries unread): on it or not is not known, so they are no gap.
    sms_not_known: list[SnapshotEntry] = field(default_factory=list)
    dnc_not_known: list[SnapshotEntry] = field(default_factory=list)

    @property
    def not_known(self) -> int:
        return len(self.sms_not_known) + len(self.dnc_not_known)


def _in_the_future(insert_date: str, now_utc: datetime) -> bool:
    """Whether ``insert_date`` (the service's clock) is ahead of ``now_utc`` (naive, UTC) on
    every clock: a bare date from its first second."""
    when = parse_timestamp(insert_date)
    return when is not None and when > now_utc + _FURTHEST_AHEAD_OF_UTC


def _age_bucket(insert_date: str, now: datetime, now_utc: datetime) -> str:
    when = parse_timestamp(insert_date)
    if when is None:
        return UNKNOWN_AGE
    if _in_the_future(insert_date, now_utc):
        return FUTURE_AGE
    days = (now - when).days
    for label, limit in AGE_BUCKETS:
        if limit is None or days < limit:
            return label
    return UNKNOWN_AGE


def _scope_key(entry: SnapshotEntry) -> str:
    scope = entry.scope
    return f"purpose:{purpose_key(scope.purpose_text)}" if scope.is_purpose else str(scope)


def _spelled(spellings: Counter[str]) -> str:
    """``'Collections' (3 entries) and 'collections ' (1 entry)``: the most used first, at
    most :data:`_SPELLINGS_NAMED` of them, so a purpose typed many ways stays one line."""
    ranked = sorted(spellings.items(), key=lambda item: (-item[1], item[0]))
    # shown_text: a 'Müller' whose accent is a separate mark must not read as the other one.
    named = [
        f"{shown_text(text)} ({counted(count, 'entry', 'entries')})"
        for text, count in ranked[:_SPELLINGS_NAMED]
    ]
    if rest := ranked[_SPELLINGS_NAMED:]:
        others = f"{len(rest):,} other spelling{'' if len(rest) == 1 else 's'}"
        named.append(f"{others} ({counted(sum(n for _, n in rest), 'entry', 'entries')})")
    return joined(named)


def _near_duplicate_title(clashing: list[Counter[str]]) -> str:
    """The finding's title, naming each purpose's spellings with their entries: without them
    the officer could not tell which purposes to correct, nor which spelling most entries
    already use. The CLI prints the title before the count of entries, so what it names is in
    brackets."""
    title = "Purposes spelled more than one way"
    if not clashing:
        return title
    ranked = sorted(clashing, key=lambda c: (-c.total(), min(c)))
    said = [_spelled(c) for c in ranked[:_PURPOSES_NAMED]]
    if (more := len(ranked) - _PURPOSES_NAMED) > 0:
        said.append(f"{more:,} more purpose{'' if more == 1 else 's'} spelled so")
    return (
        f"{title}, which the service keeps as different purposes ({'; '.join(said)}; give each "
        "purpose's entries the one spelling the campaigns use)"
    )


def covered_by_text(cover: SnapshotEntry) -> str:
    """The global entry that covers a campaign entry, with what an officer weighs before
    removing the campaign copy: its reason and date (F6: a 'Wrong number' global entry is the
    kind removed when the number is reassigned)."""
    reason = f"reason {shown_text(cover.reason)}" if cover.reason.strip() else "no reason"
    return f"global id {cover.id}, {reason}, inserted {cover.insert_date or 'date unknown'}"


# Reasons a global entry is typically removed for later (the number changes hands), so the
# campaign copy may be the consumer's only lasting record.
_PASSING_REASON = re.compile(
    r"\bwrong\s*(number|no\b|#|person|party)|\breassign|\bdisconnect|\btest(s|ing)?\b", re.I
)


def passing_reason(reason: str) -> bool:
    """Whether a global entry's reason suggests it may be removed later (wrong number,
    reassigned, disconnected, test)."""
    return bool(_PASSING_REASON.search(reason))


def five_years_before(now: datetime) -> datetime:
    try:
        return now.replace(year=now.year - HONOR_YEARS)
    except ValueError:  # 29 February
        return now.replace(year=now.year - HONOR_YEARS, day=28)


def younger_than_honor_period(entry: SnapshotEntry, now: datetime | None = None) -> bool:
    """Inserted less than five years ago (47 CFR 64.1200(d)(6)); an unreadable date counts as
    young, as the Delete dialog counts it."""
    when = parse_timestamp(entry.insert_date)
    return when is None or when > five_years_before(now or datetime.now())


def analyse(
    data: SnapshotData, campaigns: dict[str, bool], *, now: datetime | None = None
) -> HealthReport:
    """Findings for entries already read (``campaigns``: id -> active). ``now``: naive, local
    (or aware); a naive ``now`` given is taken as UTC too, for the in-the-future finding."""
    if now is None:
        now, now_utc = datetime.now(), datetime.now(UTC).replace(tzinfo=None)
    elif now.tzinfo is not None:
        now_utc = now.astimezone(UTC).replace(tzinfo=None)
        now = now.astimezone().replace(tzinfo=None)
    else:
        now_utc = now
    entries = data.entries
    invalid: list[SnapshotEntry] = []
    invalid_why: dict[str, str] = {}
    for e in entries:
        # As the service keeps it: national digits beside their code, however they begin.
        result = normalize(e.phone_number, e.phone_code or "1", stored=True)
        if not result.ok or result.national != e.phone_number:
            invalid.append(e)
            invalid_why[e.id] = (
                result.reason or f"stored as {e.phone_number}, not {result.national}"
            )
    codes: dict[str, str] = {}
    global_of: dict[object, SnapshotEntry] = {}
    for e in entries:
        key = EntryIndex.key_of(e.phone_number, e.phone_code, codes)
        if e.scope.is_global and key is not None:
            global_of.setdefault(key, e)
    covers = {
        e.id: global_of[key]
        for e in entries
        if e.scope.is_campaign
        and (key := EntryIndex.key_of(e.phone_number, e.phone_code, codes)) in global_of
    }
    redundant = [e for e in entries if e.id in covers]
    missing = [e for e in entries if e.scope.is_campaign and e.campaign_id not in campaigns]
    inactive = [e for e in entries if e.scope.is_campaign and campaigns.get(e.campaign_id) is False]
    blank = [e for e in entries if not e.reason.strip()]
    spellings: dict[str, Counter[str]] = {}
    for e in entries:
        if e.purpose:
            spellings.setdefault(purpose_key(e.purpose), Counter())[e.purpose] += 1
    clashing = {k for k, v in spellings.items() if len(v) > 1}
    near_dupes = [e for e in entries if e.purpose and purpose_key(e.purpose) in clashing]
    future = [e for e in entries if _in_the_future(e.insert_date, now_utc)]
    findings = [
        Finding("invalid_number", "Numbers not valid for their country code", invalid, invalid_why),
        Finding(
            "redundant",
            "Campaign entries the global scope already covers",
            redundant,
            {e.id: covered_by_text(covers[e.id]) for e in redundant},
            fixable=data.kind is ListKind.DNC,
            covers=covers,
        ),
        Finding("missing_campaign", "Entries for campaigns that no longer exist", missing),
        Finding("inactive_campaign", "Entries for inactive campaigns", inactive),
        Finding("blank_reason", "Entries without a reason", blank),
        Finding(
            "near_duplicate_purpose",
            _near_duplicate_title([spellings[k] for k in clashing]),
            near_dupes,
            {
                e.id: f"one purpose spelled {_spelled(spellings[purpose_key(e.purpose)])}: "
                "update the entries not spelled as the campaigns spell it"
                for e in near_dupes
            },
        ),
        Finding(
            "future_insert_date",
            "Entries dated in the future (by every time zone)",
            future,
            {e.id: f"inserted {e.insert_date} by the service's clock" for e in future},
        ),
    ]
    ages = Counter(_age_bucket(e.insert_date, now, now_utc) for e in entries)
    return HealthReport(
        data.kind,
        data.scope,
        data.reported_total,
        len(entries),
        data.unreachable,
        findings,
        {
            label: ages.get(label, 0)
            for label, _ in ((FUTURE_AGE, None), *AGE_BUCKETS, (UNKNOWN_AGE, None))
        },
        unread_reason(data) if data.unreachable else "",
    )


def _read_whole_for(data: SnapshotData | None, entry: SnapshotEntry) -> bool:
    """Whether ``data`` (the other list) read every entry it has of ``entry``'s scope and
    country code: only then is the number's absence from it a gap."""
    return data is None or read_whole_for(data, Probe(entry.scope, entry.phone_code))


def _split_known(
    entries: list[SnapshotEntry], other: SnapshotData | None
) -> tuple[list[SnapshotEntry], list[SnapshotEntry]]:
    """``entries`` missing from the other list's entries read: those surely not on it, and
    those it may hold unread."""
    ordered = sorted(entries, key=lambda e: (e.phone_number, e.phone_code))
    known = [e for e in ordered if _read_whole_for(other, e)]
    ids = {e.id for e in known}
    return known, [e for e in ordered if e.id not in ids]


def cross_list(
    dnc: Iterable[SnapshotEntry],
    sms: Iterable[SnapshotEntry],
    *,
    dnc_read: SnapshotData | None = None,
    sms_read: SnapshotData | None = None,
) -> list[CrossListGap]:
    """Per scope, numbers on the SMS opt-out list but not the DNC list, and the reverse.

    ``dnc_read`` and ``sms_read``: the lists as read, when some entries could not be: a number
    the other list may hold among them is "not known", no gap (black-box bb11 F8: with 500 of
    101,500 entries unread on each list, 1,000 numbers on both were gaps)."""
    codes: dict[str, str] = {}

    def by_scope(entries: Iterable[SnapshotEntry]) -> dict[str, dict[object, SnapshotEntry]]:
        out: dict[str, dict[object, SnapshotEntry]] = {}
        for e in entries:
            key = EntryIndex.key_of(e.phone_number, e.phone_code, codes) or (
                e.phone_code,
                e.phone_number,
            )
            out.setdefault(_scope_key(e), {})[key] = e
        return out

    d, s = by_scope(dnc), by_scope(sms)
    # Black-box R4 #9: the lowercased key was printed ("purpose:debt collection"), which
    # --scope then matched no entry of a list that spells it "Debt Collection".
    spelled: dict[str, set[str]] = {}
    for group in (d, s):
        for key, entries in group.items():
            spelled.setdefault(key, set()).update(str(e.scope) for e in entries.values())
    gaps = []
    for scope in sorted(d.keys() | s.keys()):
        dk, sk = d.get(scope, {}), s.get(scope, {})
        only_sms, sms_unsure = _split_known([sk[k] for k in sk.keys() - dk.keys()], dnc_read)
        only_dnc, dnc_unsure = _split_known([dk[k] for k in dk.keys() - sk.keys()], sms_read)
        if only_sms or only_dnc or sms_unsure or dnc_unsure:
            gaps.append(
                CrossListGap(
                    next(iter(spelled[scope])) if len(spelled[scope]) == 1 else scope,
                    only_sms,
                    only_dnc,
                    sms_unsure,
                    dnc_unsure,
                )
            )
    return gaps


@dataclass
class HealthCheck:
    """Both lists' health and the gaps between them."""

    dnc: HealthReport
    sms: HealthReport
    gaps: list[CrossListGap]

    @property
    def complete(self) -> bool:
        """Whether every entry of both lists was read, so nothing is "not known"."""
        return not (self.dnc.unreachable or self.sms.unreachable)


def not_known_warning(check: HealthCheck, *, check_with: str = "dnc-desk evidence NUMBER") -> str:
    """The sentence saying entries were not read and what is therefore not known ("" when
    every entry was): a health check that looked at fewer entries than the lists hold is no
    clean bill (black-box bb11 F8: 1,000 entries unread, exit 0). ``check_with``: where the
    reader checks one number (the command line's command, the window's tab)."""
    if check.complete:
        return ""
    unread = [
        f"{counted(report.unreachable, 'entry', 'entries')} of the {name} list "
        f"({report.unread_why})"
        for name, report in (("DNC", check.dnc), ("SMS opt-out", check.sms))
        if report.unreachable
    ]
    unsure = sum(g.not_known for g in check.gaps)
    gaps = (
        f"; {counted(unsure, 'number', 'numbers')} on one list may be among the other's entries "
        "not read, so whether they are a gap is not known (counted per scope as not known, "
        "not listed as gaps)"
        if unsure
        else ""
    )
    return (
        f"{joined(unread)} could not be read: findings among them are not known{gaps}. "
        f"A search by number reaches them: check a number with {check_with}."
    )


def check_health(
    api: ApiClient,
    scope: Scope | None = None,
    *,
    concurrency: int = 8,
    now: datetime | None = None,
    cancel: threading.Event | None = None,
    progress: Progress = no_progress,
) -> HealthCheck:
    """Read both lists (whole, or one scope) and analyse them."""
    campaigns = {c.id: c.active for c in api.campaigns(cancel=cancel)}
    progress(0, 2, "Reading the DNC list")
    dnc = fetch_list(api, ListKind.DNC, scope, concurrency=concurrency, cancel=cancel)
    progress(1, 2, "Reading the SMS opt-out list")
    sms = fetch_list(api, ListKind.SMS, scope, concurrency=concurrency, cancel=cancel)
    progress(2, 2, "Analysing")
    return HealthCheck(
        analyse(dnc, campaigns, now=now),
        analyse(sms, campaigns, now=now),
        cross_list(dnc.entries, sms.entries, dnc_read=dnc, sms_read=sms),
    )


# The job id of a List health fix's writes: run from the window, it keeps no job file.
HEALTH_FIX_JOB_PREFIX = "health-fix-"


@dataclass(frozen=True, slots=True)
class FixRow:
    entry: SnapshotEntry
    outcome: str  # ok, not_found, failed, not_attempted
    error: str = ""


def fix_note(reason: str, cover: SnapshotEntry | None) -> str:
    """The journal note of one delete: the officer's reason first, as the Delete dialog
    journals it, then which global entry made the campaign copy redundant."""
    why = "redundant: the number is on the global DNC list"
    return f"{reason} ({why}, {covered_by_text(cover)})" if cover else f"{reason} ({why})"


def remove_redundant(
    session: Session,
    finding: Finding,
    *,
    reason: str,
    entries: Sequence[SnapshotEntry] | None = None,
    concurrency: int = 4,
    cancel: threading.Event | None = None,
    progress: Progress = no_progress,
) -> list[FixRow]:
    """Remove the campaign-scoped duplicates of a ``redundant`` DNC finding (journaled, each
    delete with ``reason``); ``entries``: the ones the officer chose, all by default."""
    if finding.code != "redundant" or not finding.fixable:
        raise ValueError("only the redundant DNC entries finding has this fix")
    if not reason.strip():
        # F6: the Delete dialog requires one for the same deletes; so does this fix.
        raise ValueError("a reason for removing the entries is required (it is journaled)")
    chosen = list(finding.entries if entries is None else entries)
    known = {e.id for e in finding.entries}
    if any(e.id not in known for e in chosen):
        raise ValueError("only entries of the finding can be removed by its fix")
    job = f"{HEALTH_FIX_JOB_PREFIX}{datetime.now().strftime('%Y%m%d%H%M%S')}"
    rows: list[FixRow] = []
    total = len(chosen)

    def delete(e: SnapshotEntry) -> str:
        result = session.delete_dnc(
            e.phone_number,
            e.phone_code,
            e.scope,
            not_found_ok=True,
            job=job,
            note=fix_note(reason.strip(), finding.covers.get(e.id)),
            cancel=cancel,
        )
        return result.status.value

    for done in bounded_map(delete, chosen, concurrency=concurrency, stop=cancel):
        if done.error is None:
            rows.append(FixRow(done.item, "ok" if done.result == "done" else str(done.result)))
        elif isinstance(done.error, Cancelled):
            rows.append(FixRow(done.item, "not_attempted"))
        elif isinstance(done.error, ApiError):
            rows.append(FixRow(done.item, "failed", done.error.describe()))
        else:
            raise done.error
        progress(len(rows), total, f"Removed {sum(r.outcome == 'ok' for r in rows):,} of {total:,}")
    attempted = {r.entry.id for r in rows}
    rows += [FixRow(e, "not_attempted") for e in chosen if e.id not in attempted]
    return rows
