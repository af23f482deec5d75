"""ListPager against a real sandbox: totals, reachable rows under the offset cap, page limits."""

from __future__ import annotations

from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.errors import LimitError
from app.api.scope import Scope
from app.core.list_pager import dnc_pager, sms_pager


def _seed(sandbox: Any, count: int, campaign_id: str = "0") -> None:
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", campaign_id, "", "") for i in range(count))


def test_first_page_gives_total_and_reachable(sandbox: Any, api: ApiClient) -> None:
    _seed(sandbox, 2_500)
    pager = dnc_pager(api, DncQuery())
    assert pager.total is None and pager.count is None and pager.reachable is None
    assert pager.next_limit(0) == 1000
    page = pager.fetch(0)
    assert len(page) == 1000
    assert pager.total == pager.count == 2_500
    assert pager.reachable == 2_500 and pager.unreachable == 0
    assert pager.next_limit(2_000) == 500
    assert pager.next_limit(2_500) == 0
    last = pager.fetch(2_000, pager.next_limit(2_000))
    assert len(last) == 500
    assert [e.phone_number for e in last.items][-1] == "2020002499"


def test_offset_cap_leaves_rows_unreachable(sandbox: Any, api: ApiClient) -> None:
    # 102,500 matches: paging by 1000 reaches offset 100,000, so 101,000 rows, 1,500 hidden.
    _seed(sandbox, 102_500)
    pager = dnc_pager(api, DncQuery())
    pager.fetch(0, 1)
    assert pager.total == 102_500
    assert pager.reachable == 101_000
    assert pager.unreachable == 1_500
    assert pager.next_limit(100_000) == 1_000
    assert pager.next_limit(101_000) == 0
    last = pager.fetch(100_000, pager.next_limit(100_000))
    assert len(last) == 1_000
    with pytest.raises(LimitError):
        pager.fetch(101_000, 1_000)


def test_small_page_size_stops_exactly_at_the_cap(sandbox: Any, api: ApiClient) -> None:
    _seed(sandbox, 100_500)
    pager = dnc_pager(api, DncQuery(), page_size=300)
    pager.fetch(0)
    # The last offset a page of 300 can start at is 99,900 (<= 100,000); it ends at 100,200.
    assert pager.reachable == 100_200
    assert pager.unreachable == 300
    assert pager.next_limit(99_900) == 300
    assert pager.next_limit(100_200) == 0
    assert len(pager.fetch(99_900, 300)) == 300


def test_filters_reach_the_search(sandbox: Any, api: ApiClient) -> None:
    campaign = sandbox.seed_campaign("Pager Campaign")
    _seed(sandbox, 30, campaign)
    _seed(sandbox, 12)
    pager = dnc_pager(api, DncQuery(scope=Scope.campaign(campaign)), page_size=10)
    page = pager.fetch(0)
    assert pager.total == 30 and len(page) == 10
    assert all(e.scope == Scope.campaign(campaign) for e in page.items)


def test_sms_pager(sandbox: Any, api: ApiClient) -> None:
    for i in range(3):
        api.insert_sms(f"20255501{i:02d}", "1", Scope.global_(), reason="STOP")
    pager = sms_pager(api, DncQuery(), page_size=2)
    first = pager.fetch(0)
    assert pager.total == 3 and len(first) == 2
    assert pager.next_limit(2) == 1
    assert len(pager.fetch(2, 1)) == 1


def test_page_size_above_the_spec_is_refused(api: ApiClient) -> None:
    with pytest.raises(LimitError):
        dnc_pager(api, DncQuery(), page_size=1001)
