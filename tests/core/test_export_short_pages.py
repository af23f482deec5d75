"""Black-box pass R1 (severe): a service answering a page with fewer rows than asked before the
end of its result (999 of 1,000, or never more than 500 whatever the limit) had an export and
a snapshot stop at that page, keep 999 of 2,500 entries and blame the paging cap. Every row now
comes out exactly once; rows a service still does not give (an empty page before its total) are
counted with that reason, not the cap's.

The service is the sandbox on loopback, its search answers cut short on the way back as such a
service answers (:class:`ShortWire`); the total it reports is the sandbox's own.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.limits import DNC_SEARCH, PageLimits
from app.api.models import Page
from app.core.audit_types import ListKind as SnapshotKind
from app.core.export_job import ExportJob, ListKind, unreachable_warning
from app.core.list_pager import ListPager
from app.core.snapshots import fetch_list, unread_reason

# (offset, limit, rows of the sandbox's answer) -> the rows the short service gives.
Shorten = Callable[[int, int, list[Any]], list[Any]]
SEARCHES = ("/v1/dnc/search", "/v1/sms-opt-out/search")


def one_short(offset: int, limit: int, rows: list[Any]) -> list[Any]:
    """The tester's fake: a full page loses its last row, wherever it is."""
    return rows[:-1] if len(rows) == limit and limit > 3 else rows


def at_most(n: int) -> Shorten:
    """A service with a page size of its own, whatever the limit asked."""
    return lambda offset, limit, rows: rows[:n]


def short_at(where: int) -> Shorten:
    """Only the page at offset ``where`` is one row short (a page in the middle)."""
    return lambda offset, limit, rows: rows[:-1] if offset == where and len(rows) > 1 else rows


def nothing_from(where: int) -> Shorten:
    """Rows from ``where`` on are counted but never given: a page stops at it, and the pages
    after it are empty."""
    return lambda offset, limit, rows: rows[: max(0, where - offset)]


def shorten_body(path: str, params: dict[str, list[str]], body: Any, cut: Shorten) -> Any:
    """The answer ``body`` of a search with its rows cut as ``cut`` says (a count, limit 1,
    unchanged); its offset, limit and total stay the sandbox's."""
    limit = int(params.get("limit", ["0"])[0])
    offset = int(params.get("offset", ["0"])[0])
    if path not in SEARCHES or limit <= 1:
        return body
    holder, key = (body["data"], "entries") if path.endswith("dnc/search") else (body, "records")
    holder[key] = cut(offset, limit, holder[key])
    return body


class ShortWire(httpx.BaseTransport):
    """Forwards to the sandbox and cuts its search answers short with ``cut``; ``asked``
    records each search page's (offset, limit)."""

    def __init__(self, cut: Shorten) -> None:
        self._http = httpx.HTTPTransport()
        self.cut = cut
        self.asked: list[tuple[int, int]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._http.handle_request(request)
        path = request.url.path
        if path not in SEARCHES:
            return response
        params = parse_qs(request.read().decode())
        response.read()
        body = json.loads(response.content)
        limit = int(params.get("limit", ["0"])[0])
        if limit > 1:
            self.asked.append((int(params.get("offset", ["0"])[0]), limit))
        body = shorten_body(path, params, body, self.cut)
        return httpx.Response(response.status_code, json=body)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def wired(wired_api: Any) -> Callable[[Shorten], tuple[ApiClient, ShortWire]]:
    def make(cut: Shorten) -> tuple[ApiClient, ShortWire]:
        wire = ShortWire(cut)
        return wired_api(wire), wire

    return make


def _seed(sandbox: Any, n: int, first: int = 3) -> set[str]:
    sandbox.bulk_seed_dnc((f"{first}{i:09d}", "1", "0", "", "") for i in range(n))
    return {str(row["id"]) for row in sandbox.store.all("SELECT id FROM dnc")}


def _csv_ids(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return [row["id"] for row in csv.DictReader(fh)]


@pytest.mark.parametrize(
    "cut",
    [one_short, short_at(1000), at_most(500)],
    ids=["every-full-page-one-short", "one-page-in-the-middle-short", "at-most-500"],
)
def test_short_pages_export_every_row_once(
    sandbox: Any,
    wired: Callable[[Shorten], tuple[ApiClient, ShortWire]],
    cut: Shorten,
    tmp_path: Path,
) -> None:
    ids = _seed(sandbox, 2_500)
    client, wire = wired(cut)
    out = tmp_path / "short.csv"
    result = ExportJob(client, ListKind.DNC, DncQuery(), out).run()
    written = _csv_ids(out)
    assert sorted(written) == sorted(ids)  # every row, each once
    assert (result.total, result.rows, result.unreachable, result.not_given) == (2_500, 2_500, 0, 0)
    assert unreachable_warning(result) == ""
    # Each page starts right after the rows of the one before: none asked twice, none skipped.
    offsets = [offset for offset, limit in wire.asked if limit == 1000]
    assert offsets == sorted(set(offsets))


def test_a_service_giving_500_a_page_is_read_up_to_the_offset_cap(
    sandbox: Any, wired: Callable[[Shorten], tuple[ApiClient, ShortWire]], tmp_path: Path
) -> None:
    """Short pages near the cap: the last page starts at the cap itself (rows read twice are
    kept once), so a search reaches as far as the service lets it."""
    ids = _seed(sandbox, 1_300)
    client, wire = wired(at_most(300))
    job = ExportJob(client, ListKind.DNC, DncQuery(), tmp_path / "cap.csv", page_size=500)
    job.limits = PageLimits("/dnc/search", 100, 1000, max_offset=1000)
    result = job.run()
    assert sorted(_csv_ids(result.path)) == sorted(ids)
    assert (result.rows, result.unreachable) == (1_300, 0)
    assert [o for o, limit in wire.asked if limit == 500] == [0, 300, 600, 900, 1000]


def test_rows_short_pages_leave_out_past_the_cap_are_said_apart_from_the_cap(
    sandbox: Any, wired: Callable[[Shorten], tuple[ApiClient, ShortWire]], tmp_path: Path
) -> None:
    # One scope, code, reason and day: no split. Paging by 500 up to offset 1,000 reaches
    # 1,500 of the 1,800 rows; the service's 300-row pages reach 1,300 of them.
    _seed(sandbox, 1_800)
    client, _ = wired(at_most(300))
    job = ExportJob(client, ListKind.DNC, DncQuery(), tmp_path / "both.csv", page_size=500)
    job.limits = PageLimits("/dnc/search", 100, 1000, max_offset=1000)
    result = job.run()
    assert (result.total, result.rows, result.unreachable) == (1_800, 1_300, 500)
    assert (result.capped, result.not_given) == (300, 200)
    warning = unreachable_warning(result)
    assert "of them, 300 share one scope, country code, reason and insert day" in warning
    assert "; 200 were counted by the service but not given" in warning
    assert "fewer rows than asked before the end of the result" in warning


def test_rows_the_service_never_gives_are_counted_with_the_true_reason(
    sandbox: Any, wired: Callable[[Shorten], tuple[ApiClient, ShortWire]], tmp_path: Path
) -> None:
    ids = _seed(sandbox, 2_500)
    client, wire = wired(nothing_from(1_500))
    result = ExportJob(client, ListKind.DNC, DncQuery(), tmp_path / "gap.csv").run()
    written = _csv_ids(result.path)
    assert len(written) == len(set(written)) == 1_500 and set(written) <= ids
    assert (result.total, result.rows, result.unreachable, result.not_given) == (
        2_500,
        1_500,
        1_000,
        1_000,
    )
    warning = unreachable_warning(result)
    assert warning.startswith("1,000 matching rows could not be reached: they were counted")
    assert "fewer rows than asked before the end of the result" in warning
    assert "101,000" not in warning and "paging" not in warning
    # The short page at 1,000 is followed by the one right after its rows, which is empty.
    assert (1_500, 1000) in wire.asked


def test_snapshot_of_short_pages_is_complete_or_says_why_not(
    sandbox: Any, wired: Callable[[Shorten], tuple[ApiClient, ShortWire]]
) -> None:
    ids = _seed(sandbox, 2_500)
    client, _ = wired(one_short)
    data = fetch_list(client, SnapshotKind.DNC)
    assert sorted(e.id for e in data.entries) == sorted(ids)
    assert (data.reported_total, data.unreachable) == (2_500, 0)

    client, _ = wired(nothing_from(2_000))
    data = fetch_list(client, SnapshotKind.DNC)
    assert len({e.id for e in data.entries}) == len(data.entries) == 2_000
    assert (data.unreachable, data.not_given) == (500, 500)
    assert unread_reason(data).startswith("the service counted them but did not give them")


def test_paged_search_and_list_pager_page_past_a_short_page(
    sandbox: Any, wired: Callable[[Shorten], tuple[ApiClient, ShortWire]]
) -> None:
    ids = _seed(sandbox, 2_500)
    client, _ = wired(at_most(700))
    search = client.iter_dnc(DncQuery())
    got = [e.id for e in search]
    assert sorted(got) == sorted(ids)
    assert (search.total, search.unreachable, search.complete) == (2_500, 0, True)

    pager: ListPager[Any] = ListPager(
        lambda offset, limit, cancel: client.search_dnc(DncQuery(), offset=offset, limit=limit),
        DNC_SEARCH,
    )
    page = pager.fetch(0)
    assert len(page.items) == 700 and not pager.ends(0, 1000, page)
    last = pager.fetch(2_100)
    assert len(last.items) == 400 and pager.ends(2_100, 1000, last)
    assert pager.ends(2_500, 1000, Page([], 2_500, 1000, 2_500))
