"""Closing the main window while a removal started in the list view runs: it asks first
(bb6 F6: the removal was cancelled without a question, its progress dialog left on screen over
the closed window, and the entries not attempted were in no journal row)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app.core.dnc_removal import WINDOW_REMOVAL_JOB_PREFIX, Outcome
from app.core.job_catalog import list_jobs
from app.core.paths import AppPaths
from app.ui.delete_dialog import DeleteDialog
from app.ui.job_progress import PAUSE
from app.ui.journal_view import operation_label
from app.ui.list_view import EntryListView
from app.ui.main_window import default_view_factory
from app.ui.removal_progress import (
    NOT_ATTEMPTED_EVENT,
    WINDOW_CLOSED,
    RemovalProgressDialog,
    removal_close_choice,
)
from tests.ui.test_import_wizard_window import connected_window

TIMEOUT = 20_000
ROWS = 40


def _removing(qtbot: Any, window: Any, sandbox: Any) -> RemovalProgressDialog:
    """The DNC view's removal of every entry, running, after a first answer."""
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", "0", "", "") for i in range(ROWS))
    view = window.list_views["dnc"]
    assert isinstance(view, EntryListView)
    window.tabs.setCurrentWidget(view)
    view.search()
    qtbot.waitUntil(lambda: view.model.rowCount() == ROWS, timeout=TIMEOUT)
    view.table.selectAll()
    view.delete_selected()
    dialog = view.dialog
    assert isinstance(dialog, DeleteDialog)
    qtbot.keyClicks(dialog.reason_edit, "cleanup")
    sandbox.set_faults(latency_ms=150)
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: isinstance(view.dialog, RemovalProgressDialog), timeout=TIMEOUT)
    progress = view.dialog
    assert isinstance(progress, RemovalProgressDialog)
    qtbot.waitUntil(lambda: progress.bar.value() > 0, timeout=TIMEOUT)
    return progress


def test_keep_working_leaves_the_window_and_the_removal_running(
    make_window: Any, qtbot: Any, sandbox: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = connected_window(
        lambda: make_window(view_factory=default_view_factory), qtbot, sandbox
    )
    window.show()
    progress = _removing(qtbot, window, sandbox)
    asked: list[int] = []

    def keep(_parent: Any, left: int) -> bool:
        asked.append(left)
        return False

    monkeypatch.setattr("app.ui.removal_progress.removal_close_choice", keep)
    assert not window.close()
    assert window.isVisible() and progress.isVisible()
    assert len(asked) == 1 and 0 < asked[0] < ROWS
    qtbot.waitUntil(lambda: progress.removal_result is not None, timeout=60_000)
    sandbox.set_faults(latency_ms=0)
    result = progress.removal_result
    assert result.count(Outcome.REMOVED) == ROWS
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0


def test_stop_and_close_journals_every_entry_not_attempted(
    make_window: Any, qtbot: Any, sandbox: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = connected_window(
        lambda: make_window(view_factory=default_view_factory), qtbot, sandbox
    )
    window.show()
    _removing(qtbot, window, sandbox)
    session = window.state.session
    monkeypatch.setattr("app.ui.removal_progress.removal_close_choice", lambda _p, _n: True)
    assert window.close()
    # Nothing left on screen over the closed window.
    assert [w for w in QApplication.topLevelWidgets() if w.isVisible()] == []
    assert session is not None
    # The run ends in its thread (the window's shutdown waits for it) and journals the rest.
    window.runner.wait(TIMEOUT)
    sandbox.set_faults(latency_ms=0)
    events = session.journal.query(operation=NOT_ATTEMPTED_EVENT)
    left = {
        f"+{code}{number}"
        for number, code in sandbox.store.all("SELECT phone_number, phone_code FROM dnc")
    }
    # One row per entry still on the list, under its number; some were removed first.
    assert sorted(e.phone for e in events) == sorted(left)
    assert 0 < len(left) < ROWS
    (job,) = {e.job for e in events}
    assert job.startswith(WINDOW_REMOVAL_JOB_PREFIX)
    assert all(e.note == "cleanup" and e.after is not None for e in events)
    assert all(e.after["why"] == WINDOW_CLOSED and e.after["of"] == ROWS for e in events)
    removed = session.journal.query(operation="dnc.delete", job=job)
    assert removed and {e.phone for e in removed}.isdisjoint(left)
    # The journal tab names the event, not its code.
    assert operation_label(NOT_ATTEMPTED_EVENT) == "DNC: remove — not attempted"


def test_closing_during_a_bulk_removal_asks_to_pause_it(
    make_window: Any, qtbot: Any, sandbox: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Bulk removal… dialog's job is resumable: the jobs' question (pause or cancel)."""
    window = connected_window(make_window, qtbot, sandbox)
    window.show()
    sandbox.bulk_seed_dnc((f"202555{i:04d}", "1", "0", "", "") for i in range(ROWS))
    dialog = window.job_features.bulk_remove()
    assert dialog is not None
    dialog.source_page.paste_radio.setChecked(True)
    dialog.source_page.paste_edit.setPlainText("".join(f"202555{i:04d}\n" for i in range(ROWS)))
    dialog.next()
    dialog.options_page.reason_edit.setText("cleanup")
    sandbox.set_faults(latency_ms=150)
    dialog.next()  # "Remove numbers"
    qtbot.waitUntil(lambda: dialog.run_page.handle is not None, timeout=TIMEOUT)
    handle = dialog.run_page.handle
    assert handle is not None
    qtbot.waitUntil(lambda: handle.last_progress is not None, timeout=TIMEOUT)
    asked: list[int] = []

    def pause(_parent: Any, running: int) -> str:
        asked.append(running)
        return PAUSE

    monkeypatch.setattr("app.ui.job_progress.close_choice", pause)
    with qtbot.waitSignal(handle.finished, timeout=TIMEOUT) as ended:
        assert window.close()
    sandbox.set_faults(latency_ms=0)
    assert asked == [1]
    assert [w for w in QApplication.topLevelWidgets() if w.isVisible()] == []
    assert ended.args[0]["status"] == "paused"
    left = sandbox.store.scalar("SELECT count(*) FROM dnc")
    (job,) = list_jobs(AppPaths.default().jobs_dir)
    assert job.resumable and left > 0 and job.pending > 0


@pytest.mark.parametrize(("button", "stop"), [("Stop and close", True), ("Keep working", False)])
def test_the_question_says_how_many_are_left(qtbot: Any, button: str, stop: bool) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    seen: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.text())
        (clicked,) = [b for b in box.buttons() if b.text() == button]
        clicked.click()

    QTimer.singleShot(0, answer)
    assert removal_close_choice(parent, 144) is stop
    (text,) = seen
    assert "144 entries not removed or checked yet" in text
    assert "cannot be resumed" in text and NOT_ATTEMPTED_EVENT in text
