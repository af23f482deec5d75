"""Black-box bb11 F7: diff's ``certain`` was list-wide. With 4,000 entries of one day past the
paging cap in both copies, an entry of another day (whose part both copies read whole) added
or removed was still "no: … may be one of them". It is now said per part: an entry is certain
unless the other copy left entries unread in a search that could hold it (by its insert day,
the one field an update cannot move it by)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.api.limits import PageLimits
from app.api.scope import Scope
from app.cli.main import main
from app.core.audit_types import ListKind
from app.core.read_whole import Probe, read_whole_for
from app.core.snapshots import (
    SnapshotData,
    SnapshotPart,
    diff,
    load_snapshot,
    take_snapshot,
    write_diff_xlsx,
)

SMALL_CAP = PageLimits("/dnc/search", default_limit=100, max_limit=1000, max_offset=2000)
CROWDED_DAY = "2026-01-05"  # 3,500 entries: 500 past what one search reaches
OTHER_DAY = "2025-06-01"
UNSURE = "no: the {} copy could not read {} entries of the list, and this may be one of them"


@pytest.fixture(autouse=True)
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.core.snapshots.limits_of", lambda kind: SMALL_CAP)


def _seed(sandbox: Any) -> None:
    rows = [(f"30320{i:05d}", f"{CROWDED_DAY} 10:00:00") for i in range(3_500)]
    rows += [(f"30330{i:05d}", f"{OTHER_DAY} 10:00:00") for i in range(20)]
    sandbox.store.executemany(
        "INSERT INTO dnc(phone_number, phone_code, campaign_id, reason, purpose, insert_date)"
        " VALUES (?, '1', 0, '', '', ?)",
        rows,
    )


def _id_of(sandbox: Any, number: str) -> str:
    return str(sandbox.store.one("SELECT id FROM dnc WHERE phone_number = ?", (number,))["id"])


def test_certain_is_said_per_part(
    api: ApiClient, sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed(sandbox)
    old = take_snapshot(api, ListKind.DNC, None, tmp_path)
    assert old.unreachable == 500
    crowded, other = _id_of(sandbox, "3032000000"), _id_of(sandbox, "3033000000")
    sandbox.store.execute("DELETE FROM dnc WHERE id IN (?, ?)", (crowded, other))
    api.insert_dnc("3034000000", "1", Scope.global_(), reason="asked")  # today
    new = take_snapshot(api, ListKind.DNC, None, tmp_path)
    assert new.unreachable == 499
    assert old.path is not None and new.path is not None

    result = diff(load_snapshot(old.path), load_snapshot(new.path))
    assert [e.id for e in result.removed] == [crowded, other]
    # The crowded day's entry may be among the newer copy's unread ones; the other day's
    # part, and today's in the older copy, were read whole.
    assert [result.certain(e) for e in result.removed] == [False, True]
    # With one read entry of the crowded day gone, the newer copy reads one more of that day:
    # "added", but the older copy may hold it unread. Today's entry is surely added.
    assert [(e.phone_number, result.certain(e)) for e in result.added] == [
        ("3032003000", False),
        ("3034000000", True),
    ]

    out = tmp_path / "d.xlsx"
    write_diff_xlsx(result, out)
    book = CalamineWorkbook.from_path(str(out))
    removed = book.get_sheet_by_name("Removed").to_python()
    assert [(r[0], r[-1]) for r in removed[1:]] == [
        (crowded, UNSURE.format("newer", 499)),
        (other, "yes"),
    ]
    added = book.get_sheet_by_name("Added").to_python()
    assert [(r[1], r[-1]) for r in added[1:]] == [
        ("3032003000", UNSURE.format("older", 500)),
        ("3034000000", "yes"),
    ]

    assert main(["diff", str(old.path), str(new.path)]) == 3
    text = capsys.readouterr().out
    unsure = "(1 not certain: the other copy is incomplete)"
    assert f"2 added {unsure}, 2 removed {unsure}, 0 changed." in text
    assert main(["diff", str(old.path), str(new.path), "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert (data["added_certain"], data["removed_certain"]) == (False, False)


def test_an_older_copy_whose_parts_say_nothing_leaves_every_entry_uncertain(
    api: ApiClient, sandbox: Any, tmp_path: Path
) -> None:
    _seed(sandbox)
    old = take_snapshot(api, ListKind.DNC, None, tmp_path)
    api.insert_dnc("3034000000", "1", Scope.global_(), reason="asked")
    new = take_snapshot(api, ListKind.DNC, None, tmp_path)
    old.parts = []  # a copy that does not say which searches left entries unread
    [added] = diff(old, new).added
    assert not diff(old, new).certain(added)


def _copy(*parts: tuple[str, int], unread: int | None = None) -> SnapshotData:
    data = SnapshotData(ListKind.DNC, None, "", "http://x", "2026-11-25T10:00:00Z", 10_000)
    data.parts = [SnapshotPart(label, 5_000, 5_000 - n, n) for label, n in parts]
    data.unread = sum(n for _, n in parts) if unread is None else unread
    return data


def test_which_searches_could_hold_an_entry() -> None:
    crowded = "scope=purpose:Loans, cards, phone_code=44, insert_date=2026-01-05, reason=-NOTBLANK-"
    data = _copy((crowded, 7), ("scope=global", 0))
    uk_loans = Probe(Scope.purpose("loans,  Cards"), "44", "2026-01-05 09:00:00", "asked")
    assert not read_whole_for(data, uk_loans)
    for other in (
        Probe(Scope.purpose("Loans"), "44", "2026-01-05 09:00:00", "asked"),
        Probe(Scope.global_(), "44", "2026-01-05 09:00:00", "asked"),
        Probe(Scope.purpose("Loans, cards"), "1", "2026-01-05 09:00:00", "asked"),
        Probe(Scope.purpose("Loans, cards"), "44", "2026-01-06 09:00:00", "asked"),
        Probe(Scope.purpose("Loans, cards"), "44", "2026-01-05 09:00:00", ""),
    ):
        assert read_whole_for(data, other), other
    # What is not known of an entry may be anything; so is a reason of spaces only.
    assert not read_whole_for(data, Probe(insert_date="2026-01-05 09:00:00"))
    assert not read_whole_for(data, replace(uk_loans, reason=" "))
    # A search the label does not say (an older file's, or no search of the split), parts
    # that do not account for every entry unread, or a list written to while it was read.
    for doubt in (
        _copy(("global", 7)),
        _copy(("in no search of the split", 7)),
        _copy((crowded, 7), unread=8),
    ):
        assert not read_whole_for(doubt, replace(uk_loans, phone_code="1")), doubt.parts
    changed = _copy((crowded, 7))
    changed.list_changed = True
    assert not read_whole_for(changed, replace(uk_loans, phone_code="1"))
    assert read_whole_for(_copy(), uk_loans)  # a complete copy read everything
