"""SnapshotsView: save snapshots, compare two and one with now, export the differences."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.snapshots import SnapshotData, SnapshotDiff
from app.ui.snapshots_view import SnapshotsView
from app.ui.tasks import TaskRunner

TIMEOUT = 20_000


def _view(qtbot: Any, runner: TaskRunner, session: Session) -> SnapshotsView:
    view = SnapshotsView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    with qtbot.waitSignal(view.snapshots_loaded, timeout=TIMEOUT):
        view.set_session(session)
    return view


def _save(qtbot: Any, view: SnapshotsView) -> SnapshotData:
    with qtbot.waitSignal(view.snapshots_loaded, timeout=TIMEOUT):
        with qtbot.waitSignal(view.snapshot_saved, timeout=TIMEOUT) as blocker:
            view.save_button.click()
    data = blocker.args[0]
    assert isinstance(data, SnapshotData) and data.path is not None
    return data


def _change_the_list(api: ApiClient) -> str:
    """Add one, remove one, change one reason; returns the changed entry's id."""
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    api.insert_dnc("2025550104", "1", Scope.global_())
    api.delete_dnc("2025550102", "1", Scope.campaign(camp))
    changed = api.search_dnc(DncQuery(phone_number="2025550101")).items[0]
    api.update_dnc(changed.id, reason="asked twice")
    return changed.id


def test_save_compare_two_and_export(
    qtbot: Any,
    qtmodeltester: Any,
    runner: TaskRunner,
    session: Session,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    api = session.api
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    api.insert_dnc("2025550101", "1", Scope.global_(), reason="asked")
    api.insert_dnc("2025550102", "1", Scope.campaign(camp))
    api.insert_dnc("2025550103", "1", Scope.purpose("Collections"))
    view = _view(qtbot, runner, session)
    assert view.model.rowCount() == 0
    first = _save(qtbot, view)
    assert len(first.entries) == 3
    assert "Snapshot saved: 3 of 3 entries" in view.status_text()
    changed_id = _change_the_list(api)
    second = _save(qtbot, view)
    assert view.model.rowCount() == 2
    qtmodeltester.check(view.model)
    assert {view.model.index(r, 3).data() for r in range(2)} == {"3"}
    assert {view.model.index(r, 1).data() for r in range(2)} == {"dnc"}

    assert not view.compare_button.isEnabled()
    assert first.path is not None and second.path is not None
    view.select_paths([first.path, second.path])
    assert view.compare_button.isEnabled() and not view.now_button.isEnabled()
    with qtbot.waitSignal(view.diff_ready, timeout=TIMEOUT) as blocker:
        view.compare_button.click()
    result = blocker.args[0]
    assert isinstance(result, SnapshotDiff)
    assert [view.added_model.index(r, 1).data() for r in range(view.added_model.rowCount())] == [
        "2025550104"
    ]
    assert [view.removed_model.index(0, 1).data()] == ["2025550102"]
    assert view.removed_model.rowCount() == 1
    assert view.changed_model.rowCount() == 1
    assert view.changed_model.index(0, 0).data() == changed_id
    assert view.changed_model.index(0, 3).data() == "reason"
    assert "'asked' → 'asked twice'" in view.changed_model.index(0, 4).data()
    assert "1 added, 1 removed, 1 changed." in view.diff_label.text()
    qtmodeltester.check(view.changed_model)

    target = tmp_path / "diff.xlsx"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), ""))
    )
    with qtbot.waitSignal(view.busy_changed, check_params_cb=lambda on: not on, timeout=TIMEOUT):
        view.export_button.click()
    book = CalamineWorkbook.from_path(str(target))
    assert book.sheet_names == ["Summary", "Added", "Removed", "Changed"]
    assert len(book.get_sheet_by_name("Added").to_python()) == 2
    assert view.status_text() == f"Differences saved: {target}"


def test_compare_with_now_and_scope(qtbot: Any, runner: TaskRunner, session: Session) -> None:
    api = session.api
    api.insert_dnc("2025550101", "1", Scope.global_(), reason="asked")
    api.insert_dnc("2025550109", "1", Scope.purpose("Collections"))
    view = _view(qtbot, runner, session)
    qtbot.keyClicks(view.scope_edit, "global")
    saved = _save(qtbot, view)
    assert saved.scope == Scope.global_() and len(saved.entries) == 1
    api.insert_dnc("2025550110", "1", Scope.global_())
    api.insert_dnc("2025550111", "1", Scope.purpose("Collections"))  # other scope: not counted
    assert saved.path is not None
    view.select_paths([saved.path])
    assert view.now_button.isEnabled() and not view.compare_button.isEnabled()
    with qtbot.waitSignal(view.diff_ready, timeout=TIMEOUT) as blocker:
        view.now_button.click()
    result = blocker.args[0]
    assert [e.phone_number for e in result.added] == ["2025550110"]
    assert result.removed == [] and result.changed == []
    assert "(now)" in view.diff_label.text()


def test_bad_scope_and_different_lists_are_explained(
    qtbot: Any, runner: TaskRunner, session: Session
) -> None:
    view = _view(qtbot, runner, session)
    qtbot.keyClicks(view.scope_edit, "campaign:")
    messages: list[str] = []
    view.status_message.connect(messages.append)
    view.save_button.click()
    assert messages and messages[-1].startswith("Scope:")
    view.scope_edit.clear()
    dnc = _save(qtbot, view)
    view.list_combo.setCurrentIndex(1)
    sms = _save(qtbot, view)
    assert dnc.path is not None and sms.path is not None
    view.select_paths([dnc.path, sms.path])
    with qtbot.waitSignal(view.busy_changed, check_params_cb=lambda on: not on, timeout=TIMEOUT):
        view.compare_button.click()
    assert "copies of different lists" in view.status_text()
    assert view.current_diff is None and not view.export_button.isEnabled()


def test_a_snapshot_of_one_entry_is_counted_as_one(
    qtbot: Any, runner: TaskRunner, session: Session
) -> None:
    session.api.insert_dnc("2025550101", "1", Scope.global_(), reason="asked")
    view = _view(qtbot, runner, session)
    _save(qtbot, view)
    assert "Snapshot saved: 1 of 1 entry — " in view.status_text()
