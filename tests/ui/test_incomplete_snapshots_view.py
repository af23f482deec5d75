"""The window says what an incomplete snapshot cannot tell (black-box Q2 #2, #3): the evidence
view's Snapshots tab says "not known" where the copy could not read every entry and does not
hold the number, its summary counts those and the other services' snapshots left out, and a
comparison of incomplete copies says entries were not compared."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.audit_types import ListKind
from app.core.evidence import EvidencePack, SnapshotPresence
from app.core.paths import AppPaths
from app.core.snapshots import SnapshotDiff
from app.ui.evidence_view import EvidenceView
from app.ui.snapshots_view import SnapshotsView
from app.ui.tasks import TaskRunner


def _presence(name: str, not_read: int) -> SnapshotPresence:
    return SnapshotPresence(
        Path(name), ListKind.DNC, "whole list", "2026-11-20T10:00:00Z", "Test", [], not_read
    )


def test_an_incomplete_snapshot_without_the_number_is_not_known(
    qtbot: Any, qtmodeltester: Any, runner: TaskRunner
) -> None:
    view = EvidenceView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.show()
    pack = EvidencePack("2025550123", "1", "2025550123", "+12025550123", "Test", "", "now")
    pack.snapshots = [_presence("complete.sqlite3", 0), _presence("cut.sqlite3", 1_739)]
    pack.other_service_snapshots = 2
    view.show_pack(pack)
    listed = [view.snapshot_model.index(r, 3).data() for r in range(2)]
    assert listed == ["no", "not known (1,739 entries could not be read)"]
    qtmodeltester.check(view.snapshot_model)
    text = view.summary.text()
    assert "listed in 0 of 2 saved snapshots (not known in 1: incomplete)" in text
    assert "2 snapshots of other services left out" in text


def test_a_comparison_of_incomplete_copies_says_entries_were_not_compared(
    qtbot: Any, runner: TaskRunner
) -> None:
    view = SnapshotsView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.show()
    view.show_diff(SnapshotDiff("old copy", "new copy", [], [], [], 1_739, 0))
    text = view.diff_label.text()
    assert "0 added, 0 removed, 0 changed" in text
    assert "Not every entry was compared" in text and "1,739 entries" in text
    view.show_diff(SnapshotDiff("old copy", "new copy", [], [], []))
    assert "Not every entry" not in view.diff_label.text()
