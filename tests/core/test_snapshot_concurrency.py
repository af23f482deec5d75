"""``snapshot --concurrency N`` changed nothing: a snapshot read its split's parts one after
the other (a tester's list with one day past the paging cap took 296 s for its 3,650 day
parts). It now sends N requests at a time, counts and parts alike, and the copy is the one
read one request at a time: the same entries in the same order, the same parts and counts.

A cap of 2,000 (3,000 entries reachable at 1,000 a page) stands in for the service's 100,000.
What is sent at once is seen on the wire, by a counting transport over loopback HTTP.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from app.api.client import ApiClient
from app.api.errors import ApiError
from app.api.limits import PageLimits
from app.api.transport import RetryPolicy
from app.core.audit_types import ListKind
from app.core.snapshots import SnapshotData, take_snapshot
from tests.conftest import TOKEN

SMALL_CAP = PageLimits("/sms-opt-out/search", default_limit=1000, max_limit=1000, max_offset=2000)
DAYS = 40


@pytest.fixture(autouse=True)
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.core.snapshots.limits_of", lambda kind: SMALL_CAP)


class InFlight(httpx.HTTPTransport):
    """A real transport counting the requests it has on the wire at once: all of them, and
    the pages (searches asking more than one entry, not a split's counts)."""

    def __init__(self, fail_day: str = "", after_first_page: Callable[[], None] | None = None):
        super().__init__()
        self.fail_day = fail_day
        # Called once, after the first page of today's part was answered.
        self.after_first_page = after_first_page
        self._lock = threading.Lock()
        self.now = self.most = self.pages_now = self.most_pages = self.today_pages = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        form = {k: v[-1] for k, v in parse_qs(request.content.decode()).items()}
        page = form.get("limit", "1") != "1"
        if self.fail_day and page and form.get("insert_date") == self.fail_day:
            return httpx.Response(500, text="down", request=request)
        with self._lock:
            self.now += 1
            self.most = max(self.most, self.now)
            if page:
                self.pages_now += 1
                self.most_pages = max(self.most_pages, self.pages_now)
        try:
            response = super().handle_request(request)
        finally:
            with self._lock:
                self.now -= 1
                self.pages_now -= int(page)
        if page and form.get("insert_date") == _day(0):
            self.today_pages += 1
        if page and form.get("insert_date") == _day(0) and self.after_first_page is not None:
            response.read()
            change, self.after_first_page = self.after_first_page, None
            change()
        return response


def _day(days_ago: int) -> str:
    return (dt.date.today() - dt.timedelta(days=days_ago)).isoformat()


def _seed(sandbox: Any) -> None:
    """Global +1 entries, blank reason: 3,500 of today (500 past the cap, read by no search)
    and 1,200 over DAYS earlier days; 300 +44 entries, some with a reason; 150 of a campaign."""
    camp = next(iter(sandbox.store.execute("SELECT id FROM campaigns")))[0]
    rows = [(f"3{i:09d}", "1", 0, "", "", f"{_day(0)} 10:00:00") for i in range(3_500)]
    rows += [
        (f"5{i:09d}", "1", 0, "", "", f"{_day(1 + i % DAYS)} 09:{i % 60:02d}:00")
        for i in range(1_200)
    ]
    rows += [
        (f"7{i:09d}", "44", 0, "asked" if i % 3 else "", "", f"{_day(2)} 11:00:00")
        for i in range(300)
    ]
    rows += [(f"4{i:09d}", "1", int(camp), "", "", f"{_day(5)} 12:00:00") for i in range(150)]
    sandbox.store.executemany(
        "INSERT INTO sms_opt_out(phone_number, phone_code, campaign_id, reason, purpose,"
        " insert_date) VALUES (?, ?, ?, ?, ?, ?)",
        rows,
    )


def _client(sandbox: Any, wire: InFlight) -> ApiClient:
    return ApiClient(
        sandbox.base_url,
        TOKEN,
        http_transport=wire,
        retry=RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01),
    )


def _snapshot(
    sandbox: Any, tmp_path: Path, concurrency: int, wire: InFlight | None = None
) -> tuple[SnapshotData, InFlight]:
    wire = wire or InFlight()
    with _client(sandbox, wire) as api:
        data = take_snapshot(
            api, ListKind.SMS, None, tmp_path / str(concurrency), concurrency=concurrency
        )
    return data, wire


def _tables(path: Path | None) -> list[list[tuple[object, ...]]]:
    assert path is not None
    db = sqlite3.connect(path)
    try:
        return [
            db.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
            for table in ("entries", "parts")
        ]
    finally:
        db.close()


def test_eight_at_a_time_saves_the_copy_one_at_a_time_saves(
    make_sandbox: Any, tmp_path: Path
) -> None:
    sandbox = make_sandbox(latency_ms=5)
    sandbox.seed_campaign("Spring Renewals")
    _seed(sandbox)
    one, serial = _snapshot(sandbox, tmp_path, 1)
    eight, parallel = _snapshot(sandbox, tmp_path, 8)
    assert serial.most == 1
    # Pages of several parts on the wire at once (one at a time before), and the counts
    # eight at a time, where they were four; never more than asked.
    assert parallel.most_pages > 1
    assert 4 < parallel.most <= 8
    assert (one.reported_total, len(one.entries), one.unreachable) == (5_150, 4_650, 500)
    assert len(one.parts) > DAYS
    assert eight.entries == one.entries
    assert eight.parts == one.parts
    assert (eight.reported_total, eight.unreachable, eight.not_given, eight.list_changed) == (
        one.reported_total,
        one.unreachable,
        one.not_given,
        one.list_changed,
    )
    # The files hold the same rows in the same order.
    assert _tables(eight.path) == _tables(one.path)


def test_a_part_read_ahead_that_fails_fails_the_snapshot_and_leaves_no_reader(
    make_sandbox: Any, tmp_path: Path
) -> None:
    sandbox = make_sandbox()
    sandbox.seed_campaign("Spring Renewals")
    _seed(sandbox)
    wire = InFlight(fail_day=_day(DAYS // 2))
    with _client(sandbox, wire) as api, pytest.raises(ApiError):
        take_snapshot(api, ListKind.SMS, None, tmp_path, concurrency=8)
    assert not list(tmp_path.glob("*.sqlite3*"))
    assert not [t for t in threading.enumerate() if t.name.startswith("dnc-export-part")]


def test_a_part_read_ahead_whose_total_changes_is_read_again_as_one_read_alone_is(
    make_sandbox: Any, tmp_path: Path
) -> None:
    """A job removes 100 of today's entries while that part is read (after its first page):
    the part is read again from offset 0, at 8 at a time as at 1, and both copies keep the
    same entries, each once, and say the list changed."""
    copies = []
    for concurrency in (1, 8):
        sandbox = make_sandbox(latency_ms=2)
        sandbox.seed_campaign("Spring Renewals")
        _seed(sandbox)

        def remove(box: Any = sandbox) -> None:
            box.store.execute(
                "DELETE FROM sms_opt_out WHERE id IN (SELECT id FROM sms_opt_out"
                " WHERE phone_number LIKE '3%' ORDER BY id LIMIT 100)"
            )

        data, wire = _snapshot(sandbox, tmp_path, concurrency, InFlight(after_first_page=remove))
        # Its three pages, the total changed on the second, then the three of the read again.
        assert wire.today_pages == 6
        copies.append(data)
    one, eight = copies
    assert one.list_changed and (one.reported_total, one.total_at_end) == (5_150, 5_050)
    assert len({e.id for e in one.entries}) == len(one.entries)
    assert eight.entries == one.entries and eight.parts == one.parts
    assert (eight.list_changed, eight.total_at_end, eight.unreachable) == (
        one.list_changed,
        one.total_at_end,
        one.unreachable,
    )
