"""A diff whose newer copy could not read every entry marks what it counts as removed as not
certain, on screen, in --json and on each row of the Removed sheet (re-test S2 #2: 5,225
entries the newer snapshot never read were listed as removed, though all were still on the
list); a complete comparison's rows are certain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from app.api.scope import Scope
from app.cli.main import main
from app.core.audit_types import ListKind
from app.core.snapshots import SnapshotData, SnapshotEntry, SnapshotPart, save_snapshot


def _entry(n: int) -> SnapshotEntry:
    return SnapshotEntry(str(n), f"30355512{n:02d}", "1", "0", "", "", "", "2026-11-20 10:00:00")


def _snapshot(folder: Path, ids: range, unread: int, taken: str) -> Path:
    data = SnapshotData(ListKind.DNC, Scope.global_(), "Test", "http://x", taken, len(ids) + unread)
    data.entries = [_entry(n) for n in ids]
    data.parts = [SnapshotPart("global", len(ids) + unread, len(ids), unread)]
    return save_snapshot(data, folder)


def _diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], newer_unread: int, *extra: str
) -> tuple[int, str]:
    old = _snapshot(tmp_path / "a", range(1, 11), 0, "2026-11-20T10:00:00.000000Z")
    new = _snapshot(tmp_path / "b", range(1, 8), newer_unread, "2026-11-21T10:00:00.000000Z")
    status = main(["diff", str(old), str(new), *extra])
    return status, capsys.readouterr().out


def test_removals_past_an_incomplete_newer_copy_are_not_certain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "d.xlsx"
    status, out = _diff(tmp_path, capsys, 3, "--out", str(report))
    assert status == 3
    assert "0 added, 3 removed (not certain: the other copy is incomplete), 0 changed." in out
    removed = CalamineWorkbook.from_path(str(report)).get_sheet_by_name("Removed").to_python()
    assert removed[0][-1] == "certain"
    assert [r[-1] for r in removed[1:]] == [
        "no: the newer copy could not read 3 entries of the list, and this may be one of them"
    ] * 3
    _, out = _diff(tmp_path, capsys, 3, "--json")
    data = json.loads(out)
    assert (data["removed_certain"], data["added_certain"]) == (False, True)


def test_a_complete_comparison_is_certain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "d.xlsx"
    status, out = _diff(tmp_path, capsys, 0, "--out", str(report))
    assert status == 3
    assert "0 added, 3 removed, 0 changed." in out
    removed = CalamineWorkbook.from_path(str(report)).get_sheet_by_name("Removed").to_python()
    assert [r[-1] for r in removed[1:]] == ["yes"] * 3
