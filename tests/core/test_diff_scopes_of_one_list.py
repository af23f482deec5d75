"""Black-box B9 #9: a diff of the whole DNC list's copy against a copy of its purpose entries
said "These are copies of different lists", though both are copies of one list: they differ in
scope, and the message says so, and what to compare instead."""

from __future__ import annotations

import pytest

from app.api.scope import Scope
from app.core.snapshots import ListKind, SnapshotData, SnapshotError, diff


def _copy(kind: ListKind, scope: Scope | None) -> SnapshotData:
    return SnapshotData(kind, scope, "Sandbox", "http://127.0.0.1:1", "2026-11-24T06:00:00Z", 0)


def test_one_list_over_two_scopes_is_said_to_differ_in_scope() -> None:
    with pytest.raises(SnapshotError) as raised:
        diff(_copy(ListKind.DNC, None), _copy(ListKind.DNC, Scope.purpose("")))
    said = str(raised.value)
    assert said.startswith("These are copies of one list over different scopes: ")
    assert "compare copies of the same scope (dnc-desk snapshot takes --scope)" in said


def test_two_lists_are_still_different_lists() -> None:
    with pytest.raises(SnapshotError, match="These are copies of different lists: "):
        diff(_copy(ListKind.DNC, None), _copy(ListKind.SMS, None))
    assert diff(_copy(ListKind.DNC, None), _copy(ListKind.DNC, None)).added == []
