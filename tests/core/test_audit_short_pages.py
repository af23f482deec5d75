"""Black-box pass R1, the campaign audit: a service answering a page with fewer rows than asked
before the end of its result (999 of 1,000) left the rows between that page and the next out
of a scope's download (its pages were asked at fixed offsets), so a lead on the list there was
not found in conflict; a number's lookup stopped at such a page too. Both now page on right
after the rows received until the total, each entry kept once, also where a page read on from a
short one re-reads rows near the offset cap.

The service is the sandbox on loopback, its answers cut short on the way back
(:class:`ShortWire`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.limits import DNC_SEARCH, PageLimits
from app.api.scope import Scope
from app.core.audit_run import AuditOptions, run_audit
from app.core.audit_sources import PAGE_SIZE, download_pages, searcher
from app.core.audit_types import ListKind, Strategy
from tests.core.test_audit import found, seed_campaign_with_conflicts
from tests.core.test_export_short_pages import Shorten, ShortWire, at_most, one_short, short_at

Wired = Callable[[Shorten], tuple[ApiClient, ShortWire]]


@pytest.fixture
def wired(wired_api: Any) -> Wired:
    def make(cut: Shorten) -> tuple[ApiClient, ShortWire]:
        wire = ShortWire(cut)
        return wired_api(wire), wire

    return make


def _seed(sandbox: Any, n: int, first: int = 3) -> list[str]:
    sandbox.bulk_seed_dnc((f"{first}{i:09d}", "1", "0", "", "") for i in range(n))
    return [str(row["id"]) for row in sandbox.store.all("SELECT id FROM dnc ORDER BY id")]


@pytest.mark.parametrize(
    "cut",
    [one_short, short_at(1000), at_most(300)],
    ids=["every-full-page-one-short", "one-page-in-the-middle-short", "at-most-300"],
)
def test_a_download_reads_on_after_a_short_page(sandbox: Any, wired: Wired, cut: Shorten) -> None:
    ids = _seed(sandbox, 2_500)
    client, wire = wired(cut)
    search = searcher(client, ListKind.DNC, None)
    first = search(DncQuery(), 0, PAGE_SIZE)
    entries, requests = download_pages(search, DncQuery(), 2_500, first=first, concurrency=4)
    assert [e.id for e in entries] == ids  # every entry, once, in the search's order
    assert requests == len(wire.asked) - 1  # the first page was the caller's


def test_a_download_read_on_to_the_offset_cap_keeps_each_entry_once(
    sandbox: Any, wired: Wired
) -> None:
    # 300 rows a page under a cap of 1,500: the page read on from 1,300 ends past the cap, so
    # the next starts at the cap itself and reads 100 of its rows again.
    ids = _seed(sandbox, 1_800)
    client, wire = wired(at_most(300))
    search = searcher(client, ListKind.DNC, None)
    limits = PageLimits("/dnc/search", 100, 1000, max_offset=1_500)
    entries, requests = download_pages(search, DncQuery(), 1_800, concurrency=1, limits=limits)
    assert [e.id for e in entries] == ids
    assert sorted(offset for offset, _ in wire.asked) == [0, 300, 600, 900, 1_000, 1_300, 1_500]
    assert requests == 7


def test_an_audit_finds_the_conflict_a_short_page_left_out(
    sandbox: Any, api: ApiClient, wired: Wired
) -> None:
    # 999 other global entries first, so the global entry of L1's number is the 1,000th row:
    # the one a page of 999 of 1,000 rows leaves out.
    _seed(sandbox, 999)
    seeded = seed_campaign_with_conflicts(api)
    _seed(sandbox, 1_500, first=4)
    client, _ = wired(one_short)
    result = run_audit(client, seeded.campaign)
    assert found(result, seeded) == seeded.expected
    dnc_global = next(
        s for s in result.sources if s.kind is ListKind.DNC and s.scope == Scope.global_()
    )
    assert dnc_global.strategy is Strategy.DOWNLOAD
    assert dnc_global.fetched == dnc_global.total == 2_502


def test_a_lookup_reads_on_after_a_short_page(sandbox: Any, api: ApiClient, wired: Wired) -> None:
    # L1's number is on the global list and this campaign's: a service giving one row a page
    # answers its lookup with a page of one row of two.
    seeded = seed_campaign_with_conflicts(api)
    api.insert_dnc("2025550101", "1", Scope.campaign(seeded.campaign))
    client, _ = wired(at_most(1))
    result = run_audit(client, seeded.campaign, options=AuditOptions(max_download_pages=0))
    assert {s.strategy for s in result.sources} == {Strategy.LOOKUP}
    assert found(result, seeded) == seeded.expected | {
        ("L1", "phone_number", "DNC", f"campaign:{seeded.campaign}")
    }


def test_the_sandbox_download_asks_the_pages_it_always_did(sandbox: Any, wired: Wired) -> None:
    """Full pages: one request a page, none read on."""
    ids = _seed(sandbox, 2_500)
    client, wire = wired(lambda offset, limit, rows: rows)
    search = searcher(client, ListKind.DNC, None)
    entries, requests = download_pages(search, DncQuery(), 2_500, limits=DNC_SEARCH)
    assert [e.id for e in entries] == ids
    assert (requests, sorted(wire.asked)) == (3, [(0, 1000), (1000, 1000), (2000, 1000)])
