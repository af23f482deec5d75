"""Read a campaign's lists and every lead on them, pages fetched concurrently.

``/leads/search`` reports no total, so the number of pages is unknown up front. Pages are
fetched in waves of ``concurrency`` requests spread over the lists still open; a list is
finished by its first short page, and any pages of that list beyond it that were already in
flight come back empty and cost one request each, never a wrong answer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.api.client import ApiClient
from app.api.concurrency import bounded_map
from app.api.limits import LEADS_SEARCH
from app.api.models import Lead, LeadList, Page
from app.core.audit_types import Progress, check_cancel, no_progress

PAGE_SIZE = LEADS_SEARCH.max_limit

# (list id, offset) -> one page of that list's leads.
PageFetcher = Callable[[str, int], Page[Lead]]


@dataclass
class LeadHarvest:
    """The leads of each list (in id order), and what it cost to read them."""

    leads_by_list: dict[str, list[Lead]] = field(default_factory=dict)
    pages: int = 0
    seconds: float = 0.0

    @property
    def leads(self) -> int:
        return sum(len(v) for v in self.leads_by_list.values())


def campaign_lists(
    api: ApiClient, campaign_id: str, cancel: threading.Event | None = None
) -> list[LeadList]:
    """Active and inactive lists of one campaign (the search takes one status at a time)."""
    lists = api.all_lists(campaign_id, cancel=cancel)
    # A service that ignored the campaign filter would otherwise pull in other campaigns' leads.
    return [x for x in lists if x.campaign_id in ("", campaign_id)]


def gather_leads(
    api: ApiClient,
    lists: list[LeadList],
    *,
    concurrency: int = 8,
    cancel: threading.Event | None = None,
    progress: Progress = no_progress,
    fetch: PageFetcher | None = None,
    on_page: Callable[[list[Lead]], None] | None = None,
) -> LeadHarvest:
    """Every lead of ``lists``; ``concurrency`` 1 reads the same pages one after another.

    ``on_page`` is called with each page's leads as it arrives, on the calling thread, so
    per-lead work (normalizing numbers) overlaps the pages still being served.
    """

    def default_fetch(list_id: str, offset: int) -> Page[Lead]:
        return api.search_leads({"list_id": list_id}, offset=offset, limit=PAGE_SIZE, cancel=cancel)

    fetch_page = fetch or default_fetch
    started = time.perf_counter()
    harvest = LeadHarvest({x.id: [] for x in lists})
    pages: dict[str, dict[int, list[Lead]]] = {x.id: {} for x in lists}
    next_offset = {x.id: 0 for x in lists}
    end: dict[str, int] = {}  # list id -> offset of its short (last) page
    while len(end) < len(lists):
        check_cancel(cancel)
        wave = _plan_wave([x.id for x in lists if x.id not in end], next_offset, concurrency)
        for done in bounded_map(
            lambda job: fetch_page(*job), wave, concurrency=concurrency, stop=cancel
        ):
            if done.error is not None:
                raise done.error
            assert done.result is not None
            list_id, offset = done.item
            harvest.pages += 1
            items = list(done.result.items)
            pages[list_id][offset] = items
            if on_page is not None:
                on_page(items)
            if len(items) < PAGE_SIZE:
                end[list_id] = min(end.get(list_id, offset), offset)
        check_cancel(cancel)
        fetched = sum(len(p) for by_offset in pages.values() for p in by_offset.values())
        progress(fetched, 0, f"Read {fetched:,} leads ({harvest.pages:,} pages)")
    for list_id, by_offset in pages.items():
        last = end[list_id]
        seen: set[str] = set()
        out = harvest.leads_by_list[list_id]
        for offset in sorted(o for o in by_offset if o <= last):
            for lead in by_offset[offset]:
                # Rows inserted while paging shift later pages; never count a lead twice.
                if lead.id not in seen:
                    seen.add(lead.id)
                    out.append(lead)
    harvest.seconds = time.perf_counter() - started
    return harvest


def _plan_wave(
    open_lists: list[str], next_offset: dict[str, int], concurrency: int
) -> list[tuple[str, int]]:
    """At least one page of every open list, and ``concurrency`` pages in all, round-robin."""
    size = max(concurrency, len(open_lists))
    wave: list[tuple[str, int]] = []
    for i in range(size):
        list_id = open_lists[i % len(open_lists)]
        wave.append((list_id, next_offset[list_id]))
        next_offset[list_id] += PAGE_SIZE
    return wave
