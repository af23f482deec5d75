"""The Change journal tab: listing, filtering, paging, export, and the chain verdict."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox
from python_calamine import CalamineWorkbook

from app.api.errors import ValidationError
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.journal import ChangeJournal, current_actor
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.journal_view import PAGE_SIZE, JournalTableModel, JournalView
from app.ui.tasks import TaskRunner


@pytest.fixture
def runner(qtbot: Any) -> Any:
    task_runner = TaskRunner()
    yield task_runner
    task_runner.wait(10_000)


@pytest.fixture
def journal(paths: AppPaths) -> Any:
    with ChangeJournal(paths.journal_db) as opened:
        yield opened


def make_view(qtbot: Any, runner: TaskRunner, journal: ChangeJournal) -> JournalView:
    view = JournalView(runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.model.total_changed, timeout=10_000):
        view.set_journal(journal)
    return view


def search(qtbot: Any, view: JournalView) -> int:
    with qtbot.waitSignal(view.model.total_changed, timeout=10_000) as blocker:
        view.refresh()
    return int(blocker.args[0])


def test_lists_filters_and_exports_writes_made_through_a_session(
    qtbot: Any,
    runner: TaskRunner,
    journal: ChangeJournal,
    api: Any,
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = Session(Connection("Staging", sandbox.base_url), api, journal)
    session.insert_dnc("2025550143", "1", Scope.global_(), reason="Customer request")
    session.insert_sms("3125550199", "1", Scope.global_(), reason="Replied STOP")
    with pytest.raises(ValidationError):
        session.insert_dnc("12", "1", Scope.global_())

    view = make_view(qtbot, runner, journal)
    model = view.model
    assert model.total == 6 and model.rowCount() == 6
    newest = model.entry(0)
    assert newest.operation == "dnc.insert" and newest.outcome == "failed"
    texts = [model.index(0, c).data() for c in range(model.columnCount())]
    assert "DNC: add" in texts and "failed" in texts
    assert "6 journal entries match" in view.count_label.text()

    view.phone_edit.setText("(202) 555-0143")
    assert search(qtbot, view) == 2
    assert {model.entry(r).phase for r in range(2)} == {"intent", "outcome"}

    view.phone_edit.clear()
    view.operation_combo.setCurrentIndex(view.operation_combo.findData("sms."))
    assert search(qtbot, view) == 2
    assert model.entry(0).operation == "sms.insert"

    view.operation_combo.setCurrentIndex(0)
    view.text_edit.setText("Customer request")
    assert search(qtbot, view) == 1

    view.text_edit.clear()
    view.since_edit.setText("22/11/2026")
    with qtbot.waitSignal(view.model.load_failed, timeout=10_000):
        view.refresh()
    assert "is not a date" in view.count_label.text()
    view.since_edit.setText("2000-01-01")
    assert search(qtbot, view) == 6

    # Export what the filter selects: only the DNC rows.
    view.operation_combo.setCurrentIndex(view.operation_combo.findData("dnc."))
    assert search(qtbot, view) == 4
    target = tmp_path / "out" / "journal-export"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    messages: list[str] = []
    view.status_message.connect(messages.append)
    with qtbot.waitSignal(view.busy_changed, timeout=10_000, check_params_cb=lambda b: not b):
        view.export()
    written = target.with_name("journal-export.xlsx")
    assert messages[-1] == f"Exported 4 journal entries to {written}."
    rows = CalamineWorkbook.from_path(str(written)).get_sheet_by_name("Change journal").to_python()
    assert rows[0][0] == "Entry" and rows[0][8] == "Phone"
    assert len(rows) == 5
    assert {r[6] for r in rows[1:]} == {"dnc.insert"}
    # Phone numbers are text cells with their exact text (a quote-prefix style, no apostrophe
    # in the value), so no "+" starts a formula.
    assert "+12025550143" in {r[8] for r in rows[1:]}


def test_pages_load_lazily_and_the_model_is_well_behaved(
    qtbot: Any, qtmodeltester: Any, runner: TaskRunner, journal: ChangeJournal
) -> None:
    total = PAGE_SIZE * 2 + 17
    for n in range(total):
        journal.record_event(connection="Test", base_url="http://127.0.0.1", operation=f"job.t{n}")
    view = make_view(qtbot, runner, journal)
    model: JournalTableModel = view.model
    assert model.total == total
    assert model.rowCount() == PAGE_SIZE
    assert model.canFetchMore(model.index(-1, -1))

    # Entries written while the user scrolls do not shift the pages already counted.
    journal.record_event(connection="Test", base_url="http://127.0.0.1", operation="job.late")
    while model.rowCount() < total:
        loaded = model.rowCount()
        with qtbot.waitSignal(model.rowsInserted, timeout=10_000):
            model.fetchMore(model.index(-1, -1))
        assert model.rowCount() > loaded
    assert not model.canFetchMore(model.index(-1, -1))
    ids = [model.entry(r).id for r in range(model.rowCount())]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == total
    qtmodeltester.check(model)


def test_tampered_journal_is_reported_at_start(
    make_window: Any, qtbot: Any, paths: AppPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ChangeJournal(paths.journal_db) as journal:
        for n in range(3):
            journal.record_event(connection="Test", base_url="http://x", operation=f"job.{n}")
    with sqlite3.connect(paths.journal_db) as db:
        db.execute("UPDATE journal SET note = 'edited later' WHERE id = 2")
    db.close()

    warnings: list[tuple[str, str]] = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda _p, title, text, *a: warnings.append((title, text))
    )
    window = make_window()
    with qtbot.waitSignal(window.journal_view.verdict_ready, timeout=10_000) as blocker:
        window.start()
    verdict = blocker.args[0]
    assert not verdict.ok and verdict.first_bad_id == 2
    assert warnings and warnings[0][0] == "The change journal was altered"
    assert "entry 2" in warnings[0][1]
    assert "ALTERED" in window.journal_label.text()
    assert "altered" in window.journal_view.verdict_banner.text()


def test_intact_journal_says_so(
    make_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    warnings: list[Any] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warnings.append(a))
    window = make_window()
    with qtbot.waitSignal(window.journal_view.verdict_ready, timeout=10_000) as blocker:
        window.start()
    assert blocker.args[0].ok
    assert warnings == []
    assert "intact" in window.journal_label.text()


def test_journal_tab_shows_new_writes_when_it_is_opened_again(make_window: Any, qtbot: Any) -> None:
    window = make_window()
    with qtbot.waitSignal(window.journal_view.verdict_ready, timeout=10_000):
        window.start()
    window._show_page(window.PAGE_TABS)
    view = window.journal_view
    model = view.model
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: model.total == 0)
    window.tabs.setCurrentIndex(0)
    backend = window.state.backend
    assert backend is not None
    backend.journal.record_event(connection="Test", base_url="http://x", operation="job.start")
    # Opening the tab lists the new entry and re-checks the chain so the verdict covers it.
    with qtbot.waitSignals([model.total_changed, view.verdict_ready], timeout=10_000):
        window.tabs.setCurrentWidget(view)
    assert model.total == 1
    assert model.entry(0).operation == "job.start"
    cell = model.index(0, model.COL_OPERATION)
    assert cell.data() == "Job started"
    assert cell.data(Qt.ItemDataRole.ToolTipRole) == "job.start"
    assert view.verdict is not None and view.verdict.ok and view.verdict.rows == 1
    assert "(1 entry)" in view.verdict_banner.text()
    assert "(1 entry)" in window.journal_label.text()

    # A fresh verdict is not recomputed; a stale one is.
    with qtbot.assertNotEmitted(view.verdict_ready, wait=200):
        view.verify_if_stale()
    with qtbot.waitSignal(view.verdict_ready, timeout=10_000):
        view.verify_if_stale(max_age=0)


def test_the_tab_shows_who_wrote_each_entry(
    qtbot: Any, runner: TaskRunner, journal: ChangeJournal
) -> None:
    # Who made a change (login@host), which a note alone had to carry (black-box bb5 F2).
    journal.record_event(connection="Staging", base_url="http://x", operation="job.start")
    view = make_view(qtbot, runner, journal)
    model = view.model
    header = model.headerData(
        JournalTableModel.COL_ACTOR, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole
    )
    assert header == "Actor"
    assert model.index(0, JournalTableModel.COL_ACTOR).data() == current_actor()
    assert "@" in current_actor()
