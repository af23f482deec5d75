"""Read a campaign's lists and every lead on them, pages fetched concurrently.

``/leads/search`` reports no total, and a service may answer a page with fewer rows than
asked before the end (a page size of its own: black-box U1 #1, 300 rows a page, had the audit
keep 300 of 2,500 leads). So a page shorter than asked does not end a list: the next page
starts right after the rows received, and only an empty page ends it (one request more per
list). While a list's pages come back full, they are asked ``concurrency`` at a time, a page
size apart, spread over the lists still open; after a list's first short page its pages are
asked one after another. Rows read twice (pages overlapping) are kept once, by lead id.
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
from app.core.audit_types import READ_ROUNDS, Progress, check_cancel, no_progress
from app.core.session import read_over
from app.core.wording import counted

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
    """Active and inactive lists of one campaign (the search takes one status at a time),
    each once."""
    lists = read_over(lambda: api.all_lists(campaign_id, cancel=cancel), READ_ROUNDS)
    out: dict[str, LeadList] = {}
    for lead_list in lists:
        # A service that ignored the campaign filter would otherwise pull in other campaigns'
        # leads; one that ignores the status filter answers each list twice (black-box U1 #6:
        # the audit crashed on the second copy).
        if lead_list.campaign_id in ("", campaign_id):
            out.setdefault(lead_list.id, lead_list)
    return list(out.values())


@dataclass
class _ListRead:
    """One list's pages so far, by offset."""

    pages: dict[int, list[Lead]] = field(default_factory=dict)
    asked: set[int] = field(default_factory=set)
    ahead: int = 0  # where the next page a page size apart starts, while pages are full
    short: bool = False  # a page came back shorter than asked: ask one page at a time
    done: bool = False

    def reached(self) -> int:
        """How far from offset 0 the rows read run without a gap; ``done`` once an empty page
        starts there."""
        end = 0
        for offset in sorted(self.pages):
            if offset > end:
                break
            rows = self.pages[offset]
            if rows:
                end = max(end, offset + len(rows))
            elif offset == end:
                self.done = True
                break
            # An empty page inside rows another page gave was asked before the list grew.
        return end


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
        # A page the service fails is asked again before the audit gives up (bb7 #1).
        return read_over(
            lambda: api.search_leads(
                {"list_id": list_id}, offset=offset, limit=PAGE_SIZE, cancel=cancel
            ),
            READ_ROUNDS,
        )

    fetch_page = fetch or default_fetch
    started = time.perf_counter()
    ids = list(dict.fromkeys(x.id for x in lists))
    harvest = LeadHarvest({list_id: [] for list_id in ids})
    reads = {list_id: _ListRead() for list_id in ids}
    fetched = 0
    while True:
        check_cancel(cancel)
        wave = _plan_wave(reads, concurrency)
        if not wave:
            break
        for done in bounded_map(
            lambda job: fetch_page(*job), wave, concurrency=concurrency, stop=cancel
        ):
            if done.error is not None:
                raise done.error
            assert done.result is not None
            list_id, offset = done.item
            harvest.pages += 1
            items = list(done.result.items)
            read = reads[list_id]
            read.pages[offset] = items
            fetched += len(items)
            if on_page is not None:
                on_page(items)
            if len(items) < PAGE_SIZE:
                read.short = True
        check_cancel(cancel)
        pages = counted(harvest.pages, "page", "pages")
        progress(fetched, 0, f"Read {counted(fetched, 'lead', 'leads')} ({pages})")
    for list_id, read in reads.items():
        seen: set[str] = set()
        out = harvest.leads_by_list[list_id]
        for offset in sorted(read.pages):
            for lead in read.pages[offset]:
                # Overlapping pages, and rows inserted while paging, give a lead twice.
                if lead.id not in seen:
                    seen.add(lead.id)
                    out.append(lead)
    harvest.seconds = time.perf_counter() - started
    return harvest


def _plan_wave(reads: dict[str, _ListRead], concurrency: int) -> list[tuple[str, int]]:
    """The next page of every open list, and while a list's pages are full, more of its pages
    a page size apart, ``concurrency`` pages in all, round-robin. Empty when all are read."""
    wave: list[tuple[str, int]] = []
    ahead: list[str] = []
    for list_id, read in reads.items():
        if read.done:
            continue
        reached = read.reached()
        if read.done:
            continue
        if read.short:
            # One page at a time from right after the rows received, until an empty one.
            if reached not in read.asked:
                read.asked.add(reached)
                wave.append((list_id, reached))
            else:  # asked and answered, yet no row there: the list ends
                read.done = True
            continue
        read.ahead = max(read.ahead, reached)
        ahead.append(list_id)
    i = 0
    while ahead and (len(wave) < concurrency or i < len(ahead)):
        list_id = ahead[i % len(ahead)]
        read = reads[list_id]
        wave.append((list_id, read.ahead))
        read.asked.add(read.ahead)
        read.ahead += PAGE_SIZE
        i += 1
    return wave
