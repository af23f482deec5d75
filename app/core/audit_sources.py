"""Learn the opt-out entries that apply to a campaign, by the cheapest way per scope.

For each list (DNC, SMS opt-out) and scope (global, the campaign, any purpose) the first page
is read, which also gives the scope's total. The rest of the scope is downloaded when paging
can reach all of it under the offset cap and it takes fewer requests than looking the
campaign's numbers up one by one; otherwise the numbers are looked up. When several scopes of
one list need lookups, a single search per number without a scope filter answers all of them
(the unwanted scopes are dropped locally), so the cost is one request per number, not three.

Lookups match the service's stored string exactly, so each number is searched in every
written form a download would match to it (:func:`lookup_forms`: its national digits, with
the NANP ``1`` or the trunk ``0`` in front), so both ways give the same conflicts (black-box
bb7 #1: "13035550199" and a UK "07911555001" were found by a download and missed by lookups,
and the audit said "clean").

An empty page before the total the service reported is asked again (``EMPTY_PAGE_ASKS`` in
all). A download that still did not get every entry counted is followed by the per-number
lookups for its scope; entries a lookup still did not get are counted on the scope's
:class:`ScopeSource` (``unread``), and such an audit is not clean (black-box U1 #2: one empty
page at offset 2,000 of 2,500 had the audit say "all 2,500 entries reachable" and use 2,000).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from app.api.client import ApiClient, DncQuery
from app.api.concurrency import bounded_map
from app.api.errors import ApiError, ServerError, TransportError
from app.api.limits import DNC_SEARCH, SMS_SEARCH, PageLimits
from app.api.models import Page
from app.api.paging import next_offset
from app.api.scope import Scope
from app.core.audit_match import EntryIndex
from app.core.audit_types import (
    READ_ROUNDS,
    ListKind,
    OptOutRecord,
    Progress,
    ScopeSource,
    Strategy,
    check_cancel,
    no_progress,
)
from app.core.dnc_removal import (
    FormKind,
    FormSearch,
    refused_forms_text,
    refuses_form,
    stored_forms,
)
from app.core.session import read_over
from app.core.wording import counted, joined

PAGE_SIZE = 1000
# A page that comes back empty before the service's total is asked for this often in all.
EMPTY_PAGE_ASKS = 3
# A number whose look-up the service still failed is looked up again this often in later rounds,
# after the other numbers, before it is reported as not checked.
LOOKUP_ROUNDS = 3
ANY_PURPOSE = Scope.purpose("")
_SHARED = "the numbers are looked up for another scope of this list anyway"
# The strategy line names this many of the forms a service refused to search.
REFUSED_NAMED = 3

Searcher = Callable[[DncQuery, int, int], Page[OptOutRecord]]


@dataclass(frozen=True, slots=True)
class SourcePlan:
    """Options of the strategy choice; ``max_download_pages`` None means no cap (tests and
    cautious users lower it to force lookups)."""

    concurrency: int = 8
    max_download_pages: int | None = None


def searcher(
    api: ApiClient, kind: ListKind, cancel: threading.Event | None, rounds: int = 1
) -> Searcher:
    """One page of a DNC or SMS search, as :class:`OptOutRecord` items, tried ``rounds`` times
    in all while the service fails it (callers that ask whole searches again keep 1)."""
    if kind is ListKind.DNC:

        def dnc(query: DncQuery, offset: int, limit: int) -> Page[OptOutRecord]:
            page = read_over(
                lambda: api.search_dnc(query, offset=offset, limit=limit, cancel=cancel),
                rounds,
            )
            items = [OptOutRecord.from_dnc(e) for e in page.items]
            return Page(items, page.offset, page.limit, page.total)

        return dnc

    def sms(query: DncQuery, offset: int, limit: int) -> Page[OptOutRecord]:
        page = read_over(
            lambda: api.search_sms(query, offset=offset, limit=limit, cancel=cancel), rounds
        )
        items = [OptOutRecord.from_sms(r) for r in page.items]
        return Page(items, page.offset, page.limit, page.total)

    return sms


def ask_page(
    search: Searcher, query: DncQuery, offset: int, total: int | None
) -> tuple[Page[OptOutRecord], int]:
    """One page, asked again while it comes back empty before the total (the page's own, or
    ``total`` when it reports none); returns it and the number of requests made."""
    asks = 0
    while True:
        page = search(query, offset, PAGE_SIZE)
        asks += 1
        counted = page.total if page.total is not None else total
        if page.items or counted is None or offset >= counted or asks >= EMPTY_PAGE_ASKS:
            return page, asks


def limits_of(kind: ListKind) -> PageLimits:
    return DNC_SEARCH if kind is ListKind.DNC else SMS_SEARCH


def applies(scope: Scope, campaign_id: str) -> bool:
    """Whether an entry in ``scope`` applies to the campaign (purpose entries are reported
    separately, since the API does not say which campaigns a purpose covers)."""
    return scope.is_global or scope.is_purpose or scope.campaign_id == campaign_id


def download_pages(
    search: Searcher,
    query: DncQuery,
    total: int,
    *,
    first: Page[OptOutRecord] | None = None,
    concurrency: int = 8,
    cancel: threading.Event | None = None,
    limits: PageLimits = DNC_SEARCH,
    on_page: Callable[[int], None] | None = None,
    failed: list[ServerError | TransportError] | None = None,
) -> tuple[list[OptOutRecord], int]:
    """Every reachable entry of one search (total known), pages fetched concurrently.

    The pages are asked for a page size apart, all at once; where one came back with fewer
    rows than asked before the next one's start and the total, the rows between are read on
    from right after the rows it gave (:func:`next_offset`; black-box pass R1: a service
    answering 999 of 1,000 rows left a row out of every page of a download).

    A read the service fails even asked again is left out (its rows are then missing from the
    result) and appended to ``failed``; without ``failed`` it is raised.

    Returns the entries in the search's order, each once, and the number of requests made.
    """
    reachable = limits.reachable(total, PAGE_SIZE)
    offsets = list(range(0 if first is None else PAGE_SIZE, reachable, PAGE_SIZE))
    pages: dict[int, Page[OptOutRecord]] = {}
    if first is not None:
        pages[0] = first
    requests = 0
    if first is not None and not first.items and total > 0:
        first, again = ask_page(search, query, 0, total)
        pages[0] = first
        requests += again
    for done in bounded_map(
        lambda off: ask_page(search, query, off, total),
        offsets,
        concurrency=concurrency,
        stop=cancel,
    ):
        if failed is not None and isinstance(done.error, ServerError | TransportError):
            # Left out: the page before it reads on into its rows below (a later round), and
            # a download still short is followed by the scope's lookups (bb7 #1).
            failed.append(done.error)
            continue
        if done.error is not None:
            raise done.error
        assert done.result is not None
        pages[done.item], asks = done.result
        requests += asks
        if on_page is not None:
            on_page(len(pages))
    check_cancel(cancel)
    starts = sorted(pages)
    gaps: list[tuple[int, int]] = []
    for start, until in zip(starts, [*starts[1:], reachable], strict=True):
        page = pages[start]
        following = next_offset(start, PAGE_SIZE, len(page.items), page.total, limits.max_offset)
        if following is not None and following < until:
            gaps.append((following, until))
    read: list[tuple[int, list[OptOutRecord]]] = [(o, list(pages[o].items)) for o in starts]
    for filled in bounded_map(
        lambda gap: _read_between(search, query, gap, limits, total),
        gaps,
        concurrency=concurrency,
        stop=cancel,
    ):
        if failed is not None and isinstance(filled.error, ServerError | TransportError):
            failed.append(filled.error)
            continue
        if filled.error is not None:
            raise filled.error
        assert filled.result is not None
        between, asks = filled.result
        read.extend(between)
        requests += asks
    check_cancel(cancel)
    seen: set[str] = set()
    out: list[OptOutRecord] = []
    for _, records in sorted(read, key=lambda pair: pair[0]):
        for record in records:
            # Deletions while paging shift rows back a page, and a page read on from a short
            # one, or from the offset cap, reads again rows another page gave: keep each once.
            if record.id not in seen:
                seen.add(record.id)
                out.append(record)
    return out, requests


def _read_between(
    search: Searcher, query: DncQuery, gap: tuple[int, int], limits: PageLimits, total: int
) -> tuple[list[tuple[int, list[OptOutRecord]]], int]:
    """The pages from ``gap``'s first offset, each right after the rows of the one before,
    until one starts at or past its second (the next page already read) or the result ends;
    and the number of requests made."""
    offset: int | None
    offset, until = gap
    out: list[tuple[int, list[OptOutRecord]]] = []
    requests = 0
    while offset is not None and offset < until:
        page, asks = ask_page(search, query, offset, total)
        requests += asks
        out.append((offset, list(page.items)))
        offset = next_offset(offset, PAGE_SIZE, len(page.items), page.total, limits.max_offset)
    return out, requests


def gather_entries(
    api: ApiClient,
    campaign_id: str,
    keys: Iterable[tuple[str, str]],
    *,
    plan: SourcePlan = SourcePlan(),
    cancel: threading.Event | None = None,
    progress: Progress = no_progress,
    kinds: tuple[ListKind, ...] = (ListKind.DNC, ListKind.SMS),
) -> tuple[list[OptOutRecord], list[ScopeSource]]:
    """The entries that apply to the campaign for these (code, national) keys, and how each
    (list, scope) was consulted."""
    # A code the service cannot take (a lead's phone_code of "abc") would fail the lookup
    # request; such numbers are already reported as unparseable.
    wanted = sorted(k for k in set(keys) if k[0].isascii() and k[0].isdigit() and len(k[0]) <= 4)
    scopes = [Scope.global_(), Scope.campaign(campaign_id), ANY_PURPOSE]
    searches = sum(len(lookup_forms(*key)) for key in wanted)
    records: list[OptOutRecord] = []
    sources: list[ScopeSource] = []
    step = 0
    for kind in kinds:
        first_source = len(sources)
        search = searcher(api, kind, cancel, READ_ROUNDS)
        limits = limits_of(kind)
        firsts: list[tuple[Scope, Page[OptOutRecord], int, str | None]] = []
        for scope in scopes:
            check_cancel(cancel)
            step += 1
            progress(step, 0, f"Checking the {kind.value} list, {scope.label()} scope")
            try:
                first = search(DncQuery(scope=scope), 0, PAGE_SIZE)
            except (ServerError, TransportError) as exc:
                # Its size is not known: the numbers' lookups still check it (bb7 #1).
                no_first = (
                    f"the service failed its first page in each of {READ_ROUNDS} tries ({exc})"
                )
                firsts.append((scope, Page([], 0, PAGE_SIZE, None), 0, no_first))
                continue
            total = first.total if first.total is not None else len(first.items)
            firsts.append(
                (scope, first, total, _lookup_reason(total, limits, plan, len(wanted), searches))
            )
        # Once one scope is looked up number by number, the same searches (without a scope
        # filter) answer the other scopes too: downloading them would only add requests.
        if any(why is not None for *_, why in firsts):
            firsts = [
                (scope, first, total, (why or _SHARED) if total > len(first.items) else why)
                for scope, first, total, why in firsts
            ]
        # (scope, total, why, requests and entries of a download that did not get them all)
        to_look_up: list[tuple[Scope, int, str, int, list[OptOutRecord]]] = []
        for scope, first, total, why in firsts:
            if why is not None:
                to_look_up.append((scope, total, why, 0, []))
                continue
            failed_reads: list[ServerError | TransportError] = []
            entries, requests = download_pages(
                search,
                DncQuery(scope=scope),
                total,
                first=first,
                concurrency=plan.concurrency,
                cancel=cancel,
                limits=limits,
                failed=failed_reads,
            )
            kept = [e for e in entries if applies(e.scope, campaign_id)]
            missing = total - len(entries)
            if missing > 0:
                # Counted by the service, not given even asked again: only the lookups can
                # still say whether the campaign's numbers are among them.
                cause = (
                    f"failed {counted(len(failed_reads), 'page read', 'page reads')} in each of "
                    f"{READ_ROUNDS} tries"
                    if failed_reads
                    else f"answered an empty page before its total, asked {EMPTY_PAGE_ASKS} times"
                )
                why = (
                    f"the download got {len(entries):,} of its {total:,} entries (the service "
                    f"{cause}), so the numbers were looked up"
                )
                to_look_up.append((scope, total, why, requests + 1, kept))
                continue
            records.extend(kept)
            sources.append(
                ScopeSource(
                    kind,
                    scope,
                    Strategy.DOWNLOAD,
                    total,
                    len(kept),
                    requests + 1,
                    f"all {total:,} entries read in {counted(requests + 1, 'request', 'requests')}",
                )
            )
        if to_look_up:
            looked = _look_up(
                search,
                kind,
                campaign_id,
                wanted,
                [s for s, *_ in to_look_up],
                plan,
                cancel,
                limits,
            )
            known = {r.id for _, _, _, _, kept in to_look_up for r in kept}
            records.extend(r for _, _, _, _, kept in to_look_up for r in kept)
            found, requests, unread = looked.found, looked.requests, looked.unread
            failed = looked.not_checked
            records.extend(r for r in found if r.id not in known)
            shared = (
                "one search per number and form answers all of these scopes"
                if len(to_look_up) > 1
                else "one search per number and form"
            )
            looked_up = (
                f"{counted(len(wanted), 'number', 'numbers')} looked up in the written forms "
                f"{forms_text(wanted)}, {counted(searches, 'search', 'searches')} ({shared})"
            )
            if looked.refused:
                looked_up += f"; {_refused_text(looked.refused)}"
            for i, (scope, total, why, downloaded, kept) in enumerate(to_look_up):
                ids = {r.id for r in kept} | {r.id for r in found if _same_scope(r.scope, scope)}
                said = f"{looked_up}; {why}"
                if unread:
                    said += (
                        f"; {unread:,} entries counted for the numbers looked up were not "
                        "given by the service (an empty page before its total), so they were "
                        "not checked"
                    )
                if failed:
                    said += "; " + _not_checked(failed)
                sources.append(
                    ScopeSource(
                        kind,
                        scope,
                        Strategy.LOOKUP,
                        total,
                        len(ids),
                        requests + downloaded,
                        said,
                        # The searches answer all these scopes at once: counted once.
                        unread if i == 0 else 0,
                        tuple(_written(k) for k in sorted(failed)) if i == 0 else (),
                    )
                )
        # A download followed by lookups is said after the others: keep the scopes' order.
        sources[first_source:] = sorted(sources[first_source:], key=lambda s: scopes.index(s.scope))
    return records, sources


def _not_checked(failed: dict[tuple[str, str], str], shown: int = 5) -> str:
    """Which numbers were not checked, why, and what to do."""
    keys = sorted(failed)
    named = ", ".join(_written(k) for k in keys[:shown])
    if len(keys) > shown:
        named += f" and {len(keys) - shown:,} more"
    return (
        f"{len(keys):,} {'number was' if len(keys) == 1 else 'numbers were'} not checked "
        f"({named}): the service failed their searches in each of {LOOKUP_ROUNDS} rounds "
        f"(last: {failed[keys[-1]]}); run the audit again"
    )


def _written(key: tuple[str, str]) -> str:
    return f"+{key[0]} {key[1]}"


def _lookup_reason(
    total: int, limits: PageLimits, plan: SourcePlan, numbers: int, searches: int
) -> str | None:
    """Why the scope is looked up number by number (``searches`` for the ``numbers``, one per
    written form), or None when downloading it is cheaper."""
    reachable = limits.reachable(total, PAGE_SIZE)
    if total > reachable:
        return f"{total:,} entries, only {reachable:,} reachable under the offset cap"
    pages = max(1, math.ceil(total / PAGE_SIZE))
    if plan.max_download_pages is not None and pages > plan.max_download_pages:
        many = "pages exceed" if pages != 1 else "page exceeds"
        return f"{pages:,} {many} the download limit of {plan.max_download_pages:,}"
    # The first page is already read; the rest is the download's cost.
    if pages - 1 >= searches and pages > 1:
        return (
            f"downloading would take {pages:,} pages, looking up "
            f"{counted(numbers, 'number', 'numbers')} takes "
            f"{counted(searches, 'search', 'searches')}"
        )
    return None


def _same_scope(scope: Scope, wanted: Scope) -> bool:
    if wanted.is_purpose:
        return scope.is_purpose
    return scope == wanted


def lookup_forms(phone_code: str, national: str) -> dict[str, FormKind]:
    """The written forms a lookup searches the number in, under its own phone code: those of
    :func:`app.core.dnc_removal.stored_forms` (the forms evidence and a removal search) that a
    download would match to the number (:meth:`EntryIndex.key_of`: "13035550199" under 1, a UK
    "07911555001" under 44), and always the app's own. A form with the country code under
    another phone code is not one: the match keys an entry by its own code."""
    codes: dict[str, str] = {}
    return {
        form: kind
        for form, kind in stored_forms(national, phone_code).items()
        if kind is FormKind.APP
        or EntryIndex.key_of(form, phone_code, codes) == (phone_code, national)
    }


def forms_text(keys: Iterable[tuple[str, str]]) -> str:
    """The written forms the numbers are looked up in, said once: "N and CN (N the national
    digits, C the phone code)"."""
    kinds = dict.fromkeys(kind for key in keys for kind in lookup_forms(*key).values())
    names = [kind.value for kind in FormKind if kind in kinds]
    return f"{joined(names)} (N the national digits, C the phone code)"


def _refused_text(refused: list[FormSearch]) -> str:
    """:func:`app.core.dnc_removal.refused_forms_text` of the first :data:`REFUSED_NAMED`
    forms refused, and how many more: a strict service refuses one form of every number."""
    shown = sorted(refused, key=lambda form: form.number)[:REFUSED_NAMED]
    text = refused_forms_text(shown)
    if (more := len(refused) - len(shown)) > 0:
        text += f" (and {counted(more, 'other form', 'other forms')} refused so)"
    return text


@dataclass(slots=True)
class _Looked:
    """What the lookups of one list gave: the entries, the requests made, how many entries
    counted were not given, and the forms the service refused to search."""

    found: list[OptOutRecord]
    requests: int = 0
    unread: int = 0
    refused: list[FormSearch] = field(default_factory=list)
    # Numbers with a search the service failed in every round, each with its last error.
    not_checked: dict[tuple[str, str], str] = field(default_factory=dict)


def _look_up(
    search: Searcher,
    kind: ListKind,
    campaign_id: str,
    keys: list[tuple[str, str]],
    wanted: list[Scope],
    plan: SourcePlan,
    cancel: threading.Event | None,
    limits: PageLimits,
) -> _Looked:
    """The entries of these scopes for each number in each of its :func:`lookup_forms`."""
    only = wanted[0] if len(wanted) == 1 else None
    # Each form's search, and the number it is of (to name a number not checked).
    owner = {
        FormSearch(form, form_kind, code): (code, national)
        for code, national in keys
        for form, form_kind in lookup_forms(code, national).items()
    }
    looked = _Looked([])
    lock = threading.Lock()

    def one(form: FormSearch) -> list[OptOutRecord]:
        try:
            records, requests, missing = _all_of(search, only, form, limits)
        except ApiError as exc:
            # A strict service refuses a DNC search of a form it keeps no entry in (code 6006).
            if kind is not ListKind.DNC or not refuses_form(exc, form):
                raise
            with lock:
                looked.refused.append(form)
                looked.requests += 1
            return []
        with lock:
            looked.requests += requests
            looked.unread += missing
        return records

    # A search the service still failed is asked again in a later round, after the others
    # (a busy service may have recovered); a number with a search failed in every round is not
    # checked (black-box bb7 #1).
    pending = list(owner)
    for _ in range(LOOKUP_ROUNDS):
        if not pending:
            break
        failed: dict[FormSearch, str] = {}
        for done in bounded_map(one, pending, concurrency=plan.concurrency, stop=cancel):
            if isinstance(done.error, ServerError | TransportError):
                failed[done.item] = str(done.error)
                continue
            if done.error is not None:
                raise done.error
            assert done.result is not None
            looked.found.extend(
                r
                for r in done.result
                if applies(r.scope, campaign_id) and any(_same_scope(r.scope, s) for s in wanted)
            )
        check_cancel(cancel)
        pending = [form for form in pending if form in failed]
        looked.not_checked = {owner[form]: why for form, why in failed.items()}
    return looked


def _all_of(
    search: Searcher, only: Scope | None, form: FormSearch, limits: PageLimits
) -> tuple[list[OptOutRecord], int, int]:
    """Every entry of one form's search, the requests made, and how many entries it counted
    that the service did not give even asked again."""
    query = DncQuery(scope=only, phone_number=form.number, phone_code=form.phone_code)
    cap = limits.max_offset
    out: list[OptOutRecord] = []
    requests = 0
    offset: int | None = 0
    total: int | None = None
    while offset is not None:
        page, asks = ask_page(search, query, offset, total)
        if page.total is not None:
            total = page.total
        requests += asks
        out.extend(page.items)
        # A page shorter than asked ends the number's entries only at the total (black-box
        # pass R1). No page at the cap: its overlap would give this list entries twice.
        offset = next_offset(offset, PAGE_SIZE, len(page.items), page.total, None)
        if offset is not None and cap is not None and offset > cap:
            offset = None
    missing = 0 if total is None else max(0, limits.reachable(total, PAGE_SIZE) - len(out))
    return out, requests, missing
