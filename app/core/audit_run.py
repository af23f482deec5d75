"""Run a campaign audit: lists, leads, applicable opt-out entries, local match.

:func:`run_audit` is Qt-free: it reports through ``progress(done, total, message)``, stops
when ``cancel`` is set (raising :class:`app.api.paging.Cancelled`) and returns an
:class:`AuditResult` of plain dataclasses.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from app.api.client import ApiClient
from app.api.errors import NotFoundError
from app.core.audit_gather import campaign_lists, gather_leads
from app.core.audit_match import EntryIndex, lead_numbers, match, no_gc, warm_phone_cache
from app.core.audit_sources import SourcePlan, gather_entries
from app.core.audit_types import (
    READ_ROUNDS,
    AuditResult,
    Conflict,
    ListTotals,
    Progress,
    check_cancel,
    no_progress,
)
from app.core.session import read_over


@dataclass(frozen=True, slots=True)
class AuditOptions:
    """How hard to push the service: requests in flight, and an optional cap on the pages a
    scope may be downloaded in before the audit switches to per-number lookups."""

    concurrency: int = 8
    max_download_pages: int | None = None


def utc_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_audit(
    api: ApiClient,
    campaign_id: str,
    *,
    connection: str = "",
    options: AuditOptions = AuditOptions(),
    progress: Progress = no_progress,
    cancel: threading.Event | None = None,
) -> AuditResult:
    """Audit one campaign's leads against the DNC and SMS opt-out entries that apply to it."""
    started = utc_iso()
    timings: dict[str, float] = {}
    campaign_id = campaign_id.strip()
    # Asked again while the service fails it, as every read of the audit is (bb7 #1).
    campaigns = {c.id: c for c in read_over(lambda: api.campaigns(cancel=cancel), READ_ROUNDS)}
    campaign = campaigns.get(campaign_id)
    if campaign is None:
        raise NotFoundError("/campaigns/search", f"there is no campaign with id {campaign_id}")
    progress(0, 0, f"Reading the lists of {campaign.name}")
    lists = campaign_lists(api, campaign_id, cancel)
    check_cancel(cancel)

    harvest = gather_leads(
        api,
        lists,
        concurrency=options.concurrency,
        cancel=cancel,
        progress=progress,
        on_page=warm_phone_cache,
    )
    timings["lead_fetch"] = harvest.seconds

    t0 = time.perf_counter()
    with no_gc():
        per_list = {x.id: lead_numbers(harvest.leads_by_list[x.id]) for x in lists}
    numbers = [n for ns in per_list.values() for n in ns]
    timings["normalize"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    records, sources = gather_entries(
        api,
        campaign_id,
        (n.key for n in numbers if n.key is not None),
        plan=SourcePlan(options.concurrency, options.max_download_pages),
        cancel=cancel,
        progress=progress,
    )
    timings["entry_fetch"] = time.perf_counter() - t0

    progress(0, 0, f"Matching {len(numbers):,} numbers against {len(records):,} entries")
    t0 = time.perf_counter()
    with no_gc():
        index = EntryIndex()
        index.add(records)
        conflicts = match(numbers, index, {x.id: x.name for x in lists})
    timings["match"] = time.perf_counter() - t0

    totals = []
    by_list = _count_by_list(conflicts)
    for lead_list in lists:
        ns = per_list[lead_list.id]
        totals.append(
            ListTotals(
                lead_list,
                leads=len(harvest.leads_by_list[lead_list.id]),
                numbers=sum(1 for n in ns if n.ok),
                unparseable=sum(1 for n in ns if not n.ok),
                conflicts=by_list.get(lead_list.id, 0),
            )
        )
    return AuditResult(
        connection=connection,
        base_url=api.base_url,
        campaign_id=campaign_id,
        campaign_name=campaign.name,
        started_at=started,
        finished_at=utc_iso(),
        lists=totals,
        leads=harvest.leads,
        numbers=sum(1 for n in numbers if n.ok),
        unparseable=[n for n in numbers if not n.ok],
        conflicts=conflicts,
        sources=sources,
        timings=timings,
        lead_pages=harvest.pages,
    )


def _count_by_list(conflicts: list[Conflict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for conflict in conflicts:
        list_id = conflict.number.lead.list_id
        out[list_id] = out.get(list_id, 0) + 1
    return out
