"""Black-box B32 F5: an insert date ahead of every clock's today is its own age bucket and
finding, not "under 30 days"; one that is today somewhere (UTC+14 the furthest) is not."""

from __future__ import annotations

from datetime import UTC, datetime

from app.core.audit_types import ListKind
from app.core.list_health import analyse
from app.core.snapshots import SnapshotData, SnapshotEntry


def _entry(i: int, insert_date: str) -> SnapshotEntry:
    return SnapshotEntry(str(i), f"202555010{i}", "1", "0", "", "", "asked", insert_date)


def _data(entries: list[SnapshotEntry]) -> SnapshotData:
    return SnapshotData(ListKind.DNC, None, "Sandbox", "", "", len(entries), entries)


def test_future_insert_dates_by_every_clock() -> None:
    now = datetime(2026, 11, 25, 2, 34, 0)  # UTC: 16:34 at UTC+14, still the 25th
    entries = [
        _entry(1, "2027-06-01"),
        _entry(2, "2026-11-26"),  # tomorrow on every clock
        _entry(3, "2026-11-25 16:00:00"),  # passed already at UTC+14
        _entry(4, "2026-11-20"),
    ]
    data = _data(entries)
    report = analyse(data, {}, now=now)
    future = report.finding("future_insert_date")
    assert [e.id for e in future.entries] == ["1", "2"]
    assert future.details["1"] == "inserted 2027-06-01 by the service's clock"
    assert report.ages["in the future"] == 2
    assert report.ages["under 30 days"] == 2


def test_an_aware_now_is_read_in_utc() -> None:
    data = _data([_entry(1, "2026-11-26")])
    late_utc = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)  # 02:00 on the 26th at UTC+14
    assert not analyse(data, {}, now=late_utc).finding("future_insert_date").entries
