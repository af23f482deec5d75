"""The Snapshots tab says an every-purpose snapshot's scope in words, as the CLI does
(R4a's note on black-box R4 #5: such a copy, which `snapshot --scope purpose` now makes, was
shown as "purpose:")."""

from __future__ import annotations

from app.api.scope import Scope
from app.core.audit_types import ListKind
from app.core.snapshots import SnapshotData
from app.ui.snapshots_view import COL_SNAP_SCOPE, SNAPSHOT_COLUMNS


def _scope_shown(scope: Scope | None) -> object:
    data = SnapshotData(ListKind.DNC, scope, "Test", "http://x", "2026-11-20T10:00:00Z", 0)
    return SNAPSHOT_COLUMNS[COL_SNAP_SCOPE].value(data)


def test_every_purpose_whole_list_and_one_scope() -> None:
    assert _scope_shown(Scope.purpose("")) == "purpose (every purpose)"
    assert _scope_shown(None) == "whole list"
    assert _scope_shown(Scope.purpose("Surveys")) == "purpose:Surveys"
    assert _scope_shown(Scope.global_()) == "global"
