"""Black-box pass Q2 #1: a snapshot of an SMS opt-out list with 102,739 global entries saved
116,361 of 118,100, as it was split by scope alone and one scope was past what one search
reaches. It is read now as an export is (by scope, country code, reason, insert day, then the
plain search), and what still cannot be read is counted exactly, in the file too.

A cap of 2,000 (3,000 entries reachable at 1,000 a page) stands in for the service's 100,000,
so a few thousand entries stand for a hundred thousand.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.limits import PageLimits
from app.core.audit_types import ListKind
from app.core.snapshots import list_snapshots, load_snapshot, take_snapshot

SMALL_CAP = PageLimits("/sms-opt-out/search", default_limit=1000, max_limit=1000, max_offset=2000)


@pytest.fixture(autouse=True)
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.core.snapshots.limits_of", lambda kind: SMALL_CAP)


def _seed_sms(sandbox: Any, rows: list[tuple[str, str, int, str, str, str]]) -> None:
    sandbox.store.executemany(
        "INSERT INTO sms_opt_out(phone_number, phone_code, campaign_id, reason, purpose,"
        " insert_date) VALUES (?, ?, ?, ?, ?, ?)",
        rows,
    )


def _day(days_ago: int) -> str:
    return f"{(dt.date.today() - dt.timedelta(days=days_ago)).isoformat()} 10:00:00"


def test_a_scope_past_what_one_search_reaches_is_read_to_its_last_entry(
    api: ApiClient, sandbox: Any, tmp_path: Path
) -> None:
    camp = next(c.id for c in api.campaigns() if c.name == "Spring Renewals")
    # 4,000 global entries (one search reaches 3,000): 2,600 +1 on two days, blank and not,
    # and 1,400 +44; 1,200 in a campaign.
    rows = [(f"3{i:09d}", "1", 0, "" if i % 2 else "asked", "", _day(i % 2)) for i in range(2_600)]
    rows += [(f"7{i:09d}", "44", 0, "", "", _day(3)) for i in range(1_400)]
    rows += [(f"4{i:09d}", "1", int(camp), "", "", _day(0)) for i in range(1_200)]
    _seed_sms(sandbox, rows)
    data = take_snapshot(api, ListKind.SMS, None, tmp_path, connection="Sandbox")
    assert (data.reported_total, len(data.entries), data.unreachable) == (5_200, 5_200, 0)
    assert len({e.id for e in data.entries}) == 5_200
    assert sum(p.unreachable for p in data.parts) == 0
    assert sum(p.fetched for p in data.parts) == 5_200
    assert data.path is not None
    db = sqlite3.connect(data.path)
    meta = dict(db.execute("SELECT key, value FROM meta"))
    assert db.execute("SELECT count(*) FROM entries").fetchone()[0] == 5_200
    db.close()
    assert (meta["unreachable"], meta["list_changed"]) == ("0", "no")


def test_what_still_cannot_be_read_is_counted_exactly_and_kept_in_the_file(
    api: ApiClient, sandbox: Any, tmp_path: Path
) -> None:
    # 3,500 global +1 blank entries of one day: no filter splits them, 500 stay past the cap;
    # 5 entries of a campaign the campaign list does not name, which no search of the split
    # holds and the plain search (ids 1-3,000) does not reach.
    rows = [(f"3{i:09d}", "1", 0, "", "", _day(0)) for i in range(3_500)]
    rows += [(f"6{i:09d}", "1", 4242, "", "", _day(0)) for i in range(5)]
    _seed_sms(sandbox, rows)
    data = take_snapshot(api, ListKind.SMS, None, tmp_path)
    assert (data.reported_total, len(data.entries), data.unreachable) == (3_505, 3_000, 505)
    assert sum(p.unreachable for p in data.parts) == 505
    assert data.path is not None
    # Read back without its entries (as evidence and the snapshot list read it), the count is
    # the file's, not the reported total.
    listed = list_snapshots(tmp_path)
    assert [(s.path, s.unreachable) for s in listed] == [(data.path, 505)]
    assert load_snapshot(data.path).unreachable == 505
