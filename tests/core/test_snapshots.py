"""Snapshots of the DNC and SMS lists, split by scope over the offset cap, and diffs."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient, DncQuery
from app.api.limits import PageLimits
from app.api.scope import Scope
from app.core.audit_types import ListKind
from app.core.snapshots import (
    SnapshotError,
    diff,
    entries_for_number,
    fetch_list,
    list_snapshots,
    load_snapshot,
    take_snapshot,
    write_diff_xlsx,
)
from tests.conftest import TOKEN


def _camp(api: ApiClient) -> str:
    return {c.name: c.id for c in api.campaigns()}["Spring Renewals"]


def test_snapshot_round_trip_and_diff(api: ApiClient, tmp_path: Path) -> None:
    camp = _camp(api)
    api.insert_dnc("2025550101", "1", Scope.global_(), reason="asked")
    api.insert_dnc("2025550102", "1", Scope.campaign(camp))
    api.insert_dnc("2025550103", "1", Scope.purpose("Collections"))
    first = take_snapshot(api, ListKind.DNC, None, tmp_path, connection="Sandbox")
    assert first.path is not None and first.path.parent == tmp_path
    assert (len(first.entries), first.reported_total, first.unreachable) == (3, 3, 0)

    loaded = load_snapshot(first.path)
    assert loaded.entries == first.entries
    assert (loaded.connection, loaded.base_url, loaded.kind) == (
        "Sandbox",
        api.base_url,
        ListKind.DNC,
    )
    assert loaded.taken_at == first.taken_at

    # Change the list: add one, remove one, change one's reason.
    api.insert_dnc("2025550104", "1", Scope.global_())
    api.delete_dnc("2025550102", "1", Scope.campaign(camp))
    changed = api.search_dnc(DncQuery(phone_number="2025550101")).items[0]
    api.update_dnc(changed.id, reason="asked twice")
    second = take_snapshot(api, ListKind.DNC, None, tmp_path, connection="Sandbox")
    result = diff(loaded, load_snapshot(second.path))  # type: ignore[arg-type]
    assert [e.phone_number for e in result.added] == ["2025550104"]
    assert [e.phone_number for e in result.removed] == ["2025550102"]
    assert [(c.before.id, c.fields, c.before.reason, c.after.reason) for c in result.changed] == [
        (changed.id, ("reason",), "asked", "asked twice")
    ]
    # Compared with "now" (nothing changed since the second snapshot).
    assert diff(load_snapshot(second.path), fetch_list(api, ListKind.DNC)).empty  # type: ignore[arg-type]

    out = tmp_path / "diff.xlsx"
    write_diff_xlsx(result, out)
    wb = CalamineWorkbook.from_path(str(out))
    assert wb.sheet_names == ["Summary", "Added", "Removed", "Changed"]
    assert wb.get_sheet_by_name("Added").to_python()[1][1] == "2025550104"
    # Each added and removed entry names its scope as export writes it (black-box bb5 S1).
    for title, scope in (("Added", "global"), ("Removed", f"campaign:{camp}")):
        rows = wb.get_sheet_by_name(title).to_python()
        assert rows[0][-2:] == ["scope", "certain"]
        assert rows[1][-2] == scope, rows
    changed_rows = wb.get_sheet_by_name("Changed").to_python()
    assert changed_rows[1][:2] == [changed.id, "reason"]
    assert [s.path for s in list_snapshots(tmp_path)] == [first.path, second.path]
    assert [e.id for e in entries_for_number(second.path, "2025550101", "1")] == [changed.id]  # type: ignore[arg-type]
    for path in tmp_path.iterdir():
        assert TOKEN.encode() not in path.read_bytes()


def test_scoped_sms_snapshot(api: ApiClient, tmp_path: Path) -> None:
    camp = _camp(api)
    api.insert_sms("2025550101", "1", Scope.global_())
    api.insert_sms("2025550102", "1", Scope.campaign(camp))
    data = take_snapshot(api, ListKind.SMS, Scope.campaign(camp), tmp_path)
    assert [e.phone_number for e in data.entries] == ["2025550102"]
    assert data.path is not None and data.path.name.startswith(f"sms-opt-out-campaign-{camp}-")
    loaded = load_snapshot(data.path)
    assert loaded.scope == Scope.campaign(camp)
    with pytest.raises(SnapshotError, match="one list over different scopes"):
        diff(loaded, fetch_list(api, ListKind.SMS))


def test_whole_list_over_the_cap_is_read_as_export_splits_it(
    api: ApiClient, sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A cap of 2,000 (3,000 reachable) stands in for the service's 100,000 so the test reads
    # a few thousand entries instead of a hundred thousand; the logic is the same.
    small_cap = PageLimits("/dnc/search", default_limit=100, max_limit=1000, max_offset=2000)
    monkeypatch.setattr("app.core.snapshots.limits_of", lambda kind: small_cap)
    camp = _camp(api)
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(3_500))
    sandbox.bulk_seed_dnc((f"4{i:09d}", "1", camp, "", "") for i in range(2_500))
    sandbox.bulk_seed_dnc((f"5{i:09d}", "1", "-1", "", "Collections") for i in range(10))
    sandbox.bulk_seed_dnc((f"6{i:09d}", "1", "4242", "", "") for i in range(5))  # no such campaign
    data = take_snapshot(api, ListKind.DNC, None, tmp_path)
    assert data.reported_total == 6_015
    # Split as an export is (black-box Q2 #1): the 3,500 global entries share one country
    # code, a blank reason and one insert day, so no filter splits them (500 unreachable), and
    # the deleted campaign's 5 entries are in no search of the split.
    # The insert day is the sandbox's (UTC) day, which need not be this machine's.
    day = re.compile(r"insert_date=\d{4}-\d{2}-\d{2}")
    parts = {
        day.sub("insert_date=DAY", p.scope): (p.reported, p.fetched, p.unreachable)
        for p in data.parts
    }
    assert parts == {
        "scope=global, phone_code=1, insert_date=DAY, reason=-BLANK-": (3_500, 3_000, 500),
        "scope=purpose:": (10, 10, 0),
        f"scope=campaign:{camp}": (2_500, 2_500, 0),
        "in no search of the split": (5, 0, 5),
    }
    assert len(data.entries) == 5_510
    assert data.unreachable == 505
    assert data.path is not None
    db = sqlite3.connect(data.path)
    assert db.execute("SELECT count(*) FROM entries").fetchone()[0] == 5_510
    assert dict(db.execute("SELECT key, value FROM meta"))["unreachable"] == "505"
    db.close()


def test_not_a_snapshot(tmp_path: Path) -> None:
    with pytest.raises(SnapshotError, match="no snapshot file"):
        load_snapshot(tmp_path / "missing.sqlite3")
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("hello")
    with pytest.raises(SnapshotError, match="not a DNC Desk snapshot"):
        load_snapshot(junk)
