"""EntryListView writing: add, edit and delete round trips through the real sandbox."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.dnc_removal import Outcome
from app.core.session import Session
from app.sandbox.auth import Role
from app.ui.delete_dialog import DeleteDialog
from app.ui.entry_dialog import EntryDialog
from app.ui.list_view import EntryListView, ListKind
from app.ui.removal_progress import CANCELLED, NOT_ATTEMPTED_EVENT, RemovalProgressDialog
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN

TIMEOUT = 10_000


def _view(
    qtbot: Any, runner: TaskRunner, session: Session, kind: ListKind = ListKind.DNC
) -> EntryListView:
    view = EntryListView(kind, runner)
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    return view


def _select_rows(view: EntryListView, rows: list[int]) -> None:
    view.table.clearSelection()
    for row in rows:
        view.table.selectionModel().select(
            view.proxy.index(row, 0),
            view.table.selectionModel().SelectionFlag.Select
            | view.table.selectionModel().SelectionFlag.Rows,
        )


def test_add_then_edit_through_the_view(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session
) -> None:
    view = _view(qtbot, runner, session)
    assert view.model.rowCount() == 0
    view.add_entry()
    dialog = view.dialog
    assert isinstance(dialog, EntryDialog) and dialog.isVisible()
    qtbot.keyClicks(dialog.phone_edit, "(202) 555-0143")
    qtbot.keyClicks(dialog.reason_edit, "Customer request")
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert view.model.rowCount() == 1
    [entry] = api.iter_dnc(DncQuery())
    assert (entry.phone_number, entry.reason) == ("2025550143", "Customer request")

    _select_rows(view, [0])
    assert view.edit_action.isEnabled()
    view.edit_selected()
    dialog = view.dialog
    assert isinstance(dialog, EntryDialog) and dialog.entry == entry
    dialog.reason_edit.clear()
    qtbot.keyClicks(dialog.reason_edit, "Verbal request on call")
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    [edited] = api.iter_dnc(DncQuery())
    assert edited.id == entry.id and edited.reason == "Verbal request on call"
    ops = sorted(r.operation for r in session.journal.query() if r.phase == "outcome")
    assert ops == ["dnc.insert", "dnc.update"]


def test_sms_add_and_edit_through_the_view(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session
) -> None:
    view = _view(qtbot, runner, session, ListKind.SMS)
    view.add_entry()
    dialog = view.dialog
    assert isinstance(dialog, EntryDialog)
    qtbot.keyClicks(dialog.phone_edit, "2025550143")
    dialog.scope_combo.setCurrentIndex(dialog.scope_combo.findData("purpose"))
    assert not dialog.ok_button.isEnabled()
    qtbot.keyClicks(dialog.purpose_edit, "Surveys")
    qtbot.keyClicks(dialog.reason_edit, "Replied STOP")
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    _select_rows(view, [0])
    view.edit_selected()
    dialog = view.dialog
    assert isinstance(dialog, EntryDialog)
    dialog.reason_edit.clear()
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    [record] = api.iter_sms()
    assert (record.reason, record.purpose, record.scope) == (
        "",
        "Surveys",
        Scope.purpose("Surveys"),
    )
    ops = sorted(r.operation for r in session.journal.query() if r.phase == "outcome")
    assert ops == ["sms.insert", "sms.update"]


def _confirm_and_remove(qtbot: Any, view: EntryListView, reason: str, status: str = "") -> Any:
    view.delete_selected()
    dialog = view.dialog
    assert isinstance(dialog, DeleteDialog)
    qtbot.keyClicks(dialog.reason_edit, reason)
    if status:
        dialog.restatus_check.setChecked(True)
        dialog.picker.search_edit.setText(status)  # an empty box lists nothing (B36 F1)
        qtbot.waitUntil(
            lambda: status in [s.status for s in dialog.picker.statuses()], timeout=TIMEOUT
        )
        assert dialog.picker.select(status)
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: isinstance(view.dialog, RemovalProgressDialog), timeout=TIMEOUT)
        progress = view.dialog
        qtbot.waitUntil(lambda: progress.removal_result is not None, timeout=TIMEOUT)
    return progress


def test_delete_selected_entries(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session
) -> None:
    for i in range(4):
        api.insert_dnc(f"20255501{i:02d}", "1", Scope.global_())
    view = _view(qtbot, runner, session)
    _select_rows(view, [1, 3])
    assert view.delete_action.isEnabled()
    messages: list[str] = []
    view.status_message.connect(messages.append)
    progress = _confirm_and_remove(qtbot, view, "Consent obtained, ticket 88")
    result = progress.removal_result
    assert [o.outcome for o in result.outcomes] == [Outcome.REMOVED, Outcome.REMOVED]
    assert progress.label.text() == "Removed 2 of 2."
    assert not progress.details.isVisibleTo(progress)
    remaining = sorted(e.phone_number for e in api.iter_dnc(DncQuery()))
    assert remaining == ["2025550100", "2025550102"]
    assert view.model.rowCount() == 2
    assert any(m.startswith("DNC removal: Removed 2 of 2.") for m in messages)
    intents = [r for r in session.journal.query(operation="dnc.delete") if r.phase == "intent"]
    assert len(intents) == 2 and {r.note for r in intents} == {"Consent obtained, ticket 88"}
    assert {r.before["phone_number"] for r in intents if r.before} == {"2025550101", "2025550103"}


def test_delete_with_lead_restatus_changes_the_leads(
    qtbot: Any, runner: TaskRunner, sandbox: Any, api: ApiClient, session: Session
) -> None:
    campaign = next(c for c in api.campaigns() if c.name == "Spring Renewals")
    list_id = api.insert_list("Restatus test list", campaign.id)
    first = api.insert_lead(list_id, "2025550143", phone_code="1", status="DNC")
    second = api.insert_lead(list_id, "(202) 555-0144", phone_code="1", status="DNC")
    untouched = api.insert_lead(list_id, "2025550199", phone_code="1", status="DNC")
    api.insert_dnc("2025550143", "1", Scope.global_())
    api.insert_dnc("2025550144", "1", Scope.campaign(campaign.id))
    view = _view(qtbot, runner, session)
    view.table.selectAll()
    progress = _confirm_and_remove(qtbot, view, "Consent re-obtained", status="CALLBK")
    assert progress.removal_result.count(Outcome.REMOVED) == 2
    assert "Lead status set to CALLBK" in progress.label.text()
    statuses = {lead.id: lead.status for lead in api.iter_leads({"list_id": list_id})}
    assert statuses == {first: "CALLBK", second: "CALLBK", untouched: "DNC"}
    intents = [r for r in session.journal.query(operation="dnc.delete") if r.phase == "intent"]
    assert {r.after["lead_status"] for r in intents if r.after} == {"CALLBK"}


def test_removal_summary_lists_every_failure(
    qtbot: Any, runner: TaskRunner, sandbox: Any, api: ApiClient, session: Session
) -> None:
    for i in range(3):
        api.insert_dnc(f"20255501{i:02d}", "1", Scope.global_())
    view = _view(qtbot, runner, session)
    view.table.selectAll()
    view.delete_selected()
    dialog = view.dialog
    assert isinstance(dialog, DeleteDialog)
    qtbot.keyClicks(dialog.reason_edit, "cleanup")
    problems: list[Any] = []
    sandbox.set_faults(error_rate=1.0)
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: isinstance(view.dialog, RemovalProgressDialog), timeout=TIMEOUT)
    progress = view.dialog
    progress.auth_problem.connect(lambda e, r: problems.append((e, r)))
    qtbot.waitUntil(lambda: progress.removal_result is not None, timeout=30_000)
    sandbox.set_faults(error_rate=0.0)
    result = progress.removal_result
    assert result.count(Outcome.FAILED) == 3
    text = progress.details.toPlainText()
    assert text.count("failed — ") == 3
    assert progress.details.isVisibleTo(progress)
    assert "failed 3" in progress.label.text()
    assert problems == []  # service errors are not token problems
    assert len(list(api.iter_dnc(DncQuery()))) == 3
    outcomes = [r.outcome for r in session.journal.query(operation="dnc.delete")]
    assert sorted(outcomes) == ["", "", "", "failed", "failed", "failed"]


def test_removal_after_token_revoked_offers_retry(
    qtbot: Any, runner: TaskRunner, sandbox: Any, api: ApiClient, session: Session
) -> None:
    api.insert_dnc("2025550143", "1", Scope.global_())
    api.insert_dnc("2025550144", "1", Scope.global_())
    view = _view(qtbot, runner, session)
    view.table.selectAll()
    api.delete_dnc("2025550143", "1", Scope.global_())
    sandbox.revoke_token(TOKEN)
    view.delete_selected()
    dialog = view.dialog
    assert isinstance(dialog, DeleteDialog)
    qtbot.keyClicks(dialog.reason_edit, "cleanup")
    problems: list[Any] = []
    view.auth_problem.connect(lambda e, r: problems.append((e, r)))
    with qtbot.waitSignal(view.auth_problem, timeout=TIMEOUT) as problem:
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    qtbot.wait(100)
    assert len(problems) == 1  # one request for a new token, not one per failed call
    progress = view.dialog
    assert isinstance(progress, RemovalProgressDialog)
    assert progress.removal_result.count(Outcome.FAILED) == 2
    assert "token" in progress.details.toPlainText().lower()
    sandbox.tokens.grant(TOKEN, Role.FULL)
    with qtbot.waitSignal(progress.removal_finished, timeout=TIMEOUT) as retried:
        problem.args[1]()
    outcomes = sorted((o.target.phone_number, o.outcome.value) for o in retried.args[0].outcomes)
    assert outcomes == [("2025550143", "not found"), ("2025550144", "removed")]
    assert "not found" in progress.details.toPlainText()
    assert list(api.iter_dnc(DncQuery())) == []


def test_cancel_stops_the_removal_and_lists_what_was_not_attempted(
    qtbot: Any, runner: TaskRunner, sandbox: Any, api: ApiClient, session: Session
) -> None:
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", "0", "", "") for i in range(40))
    view = _view(qtbot, runner, session)
    view.table.selectAll()
    view.delete_selected()
    dialog = view.dialog
    assert isinstance(dialog, DeleteDialog)
    qtbot.keyClicks(dialog.reason_edit, "cleanup")
    sandbox.set_faults(latency_ms=150)
    busy: list[bool] = []
    view.busy_changed.connect(busy.append)
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: isinstance(view.dialog, RemovalProgressDialog), timeout=TIMEOUT)
    progress = view.dialog
    qtbot.waitUntil(lambda: progress.bar.value() > 0, timeout=TIMEOUT)
    progress.reject()  # Escape while running cancels rather than hiding the result
    assert progress.isVisible()
    qtbot.waitUntil(lambda: progress.removal_result is not None, timeout=TIMEOUT)
    sandbox.set_faults(latency_ms=0)
    result = progress.removal_result
    skipped = result.count(Outcome.NOT_ATTEMPTED)
    removed = result.count(Outcome.REMOVED)
    assert skipped > 0 and removed > 0 and skipped + removed == 40
    assert progress.details.toPlainText().count("not attempted — ") == skipped
    assert f"not attempted (cancelled) {skipped}" in progress.label.text()
    assert len(list(api.iter_dnc(DncQuery()))) == skipped
    # Each entry left is journaled too, not only in the dialog (bb6 F6).
    events = session.journal.query(operation=NOT_ATTEMPTED_EVENT)
    assert len(events) == skipped and {e.after["why"] for e in events} == {CANCELLED}
    assert busy[0] is True
    qtbot.waitUntil(lambda: not view.busy, timeout=TIMEOUT)
    progress.reject()
    assert not progress.isVisible()


def test_changing_connection_closes_an_open_dialog(
    qtbot: Any, runner: TaskRunner, session: Session
) -> None:
    view = _view(qtbot, runner, session)
    view.add_entry()
    dialog = view.dialog
    assert isinstance(dialog, EntryDialog) and dialog.isVisible()
    messages: list[str] = []
    view.status_message.connect(messages.append)
    view.set_session(None)
    assert not dialog.isVisible() and view.dialog is None
    assert messages == ["DNC list: not connected."]
    assert view.model.rowCount() == 0 and not view.add_action.isEnabled()


def test_saving_marks_the_view_busy(
    qtbot: Any, runner: TaskRunner, sandbox: Any, session: Session
) -> None:
    view = _view(qtbot, runner, session)
    qtbot.waitUntil(lambda: not view.busy, timeout=TIMEOUT)
    view.add_entry()
    dialog = view.dialog
    assert isinstance(dialog, EntryDialog)
    qtbot.keyClicks(dialog.phone_edit, "2025550143")
    sandbox.set_faults(latency_ms=200)
    with qtbot.waitSignal(view.busy_changed, timeout=TIMEOUT) as started:
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert started.args == [True]
    assert dialog.saving and not dialog.buttons.isEnabled()
    dialog.reject()  # refused while the write is in flight
    assert dialog.isVisible()
    sandbox.set_faults(latency_ms=0)
    qtbot.waitUntil(lambda: not view.busy, timeout=TIMEOUT)
    assert view.dialog is None  # closed (and deleted) once saved


def test_rejected_token_on_save_is_retried_after_reentry(
    qtbot: Any, runner: TaskRunner, sandbox: Any, api: ApiClient, session: Session
) -> None:
    view = _view(qtbot, runner, session)
    view.add_entry()
    dialog = view.dialog
    assert isinstance(dialog, EntryDialog)
    qtbot.keyClicks(dialog.phone_edit, "2025550143")
    sandbox.revoke_token(TOKEN)
    with qtbot.waitSignal(view.auth_problem, timeout=TIMEOUT) as problem:
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert "token" in dialog.general_error.text().lower()
    assert dialog.isVisible() and dialog.ok_button.isEnabled()
    sandbox.tokens.grant(TOKEN, Role.FULL)
    with qtbot.waitSignal(dialog.saved, timeout=TIMEOUT):
        problem.args[1]()
    assert [e.phone_number for e in api.iter_dnc(DncQuery())] == ["2025550143"]


def test_context_menu_offers_edit_delete_copy(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session, monkeypatch: Any
) -> None:
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QMenu

    api.insert_dnc("2025550143", "1", Scope.global_())
    view = _view(qtbot, runner, session)
    _select_rows(view, [0])
    shown: list[list[tuple[str, bool]]] = []
    monkeypatch.setattr(
        QMenu,
        "popup",
        lambda menu, _pos, _at=None: shown.append(
            [(a.text(), a.isEnabled()) for a in menu.actions()]
        ),
    )
    view.table.customContextMenuRequested.emit(QPoint(5, 5))
    assert shown == [[("Edit…", True), ("Delete…", True), ("Copy", True)]]


def test_enter_and_f2_on_a_selected_row_open_the_edit_dialog(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session
) -> None:
    entry = api.insert_dnc("2025550143", "1", Scope.global_(), reason="Customer request")
    view = _view(qtbot, runner, session)
    assert view.model.rowCount() == 1
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_F2):
        view.activateWindow()
        qtbot.waitUntil(view.isActiveWindow, timeout=TIMEOUT)
        view.table.setFocus()
        _select_rows(view, [0])
        view.table.setCurrentIndex(view.proxy.index(0, 0))
        qtbot.keyClick(view.table, key)
        dialog = view.dialog
        assert isinstance(dialog, EntryDialog) and dialog.isVisible(), key
        assert dialog.entry is not None and dialog.entry.id == entry.id
        dialog.reject()
        assert not dialog.isVisible()
    # Enter in the filter bar still searches; it does not open the row.
    view.activateWindow()
    view.filter_bar.phone_edit.setFocus()
    generation = view.model.generation
    qtbot.keyClick(view.filter_bar.phone_edit, Qt.Key.Key_Return)
    assert view.model.generation == generation + 1
    assert view.dialog is None or not view.dialog.isVisible()
