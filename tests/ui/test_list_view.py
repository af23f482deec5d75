"""EntryListView reading: search, lazy paging, filters, status messages, copy, state, tokens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelectionModel, QSettings, Qt
from PySide6.QtGui import QGuiApplication

from app.api.client import ApiClient
from app.api.errors import AuthInvalidError
from app.api.scope import Scope
from app.core.session import Session
from app.sandbox.auth import Role
from app.ui.entry_table_model import COL_PHONE, COL_SCOPE, COPY_ROLE
from app.ui.list_view import SMS_NO_REMOVAL, EntryListView, ListKind
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN

TIMEOUT = 10_000


def _view(qtbot: Any, runner: TaskRunner, kind: ListKind = ListKind.DNC) -> EntryListView:
    view = EntryListView(kind, runner)
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    return view


def _connect(qtbot: Any, view: EntryListView, session: Session) -> None:
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)


def _search(qtbot: Any, view: EntryListView) -> None:
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.keyClick(view.filter_bar.phone_edit, Qt.Key.Key_Return)


def _shown(view: EntryListView, column: int) -> list[str]:
    return [view.proxy.index(r, column).data() for r in range(view.proxy.rowCount())]


def test_search_fills_the_table_and_reports_the_total(
    qtbot: Any, runner: TaskRunner, sandbox: Any, api: ApiClient, session: Session
) -> None:
    for i in range(3):
        api.insert_dnc(f"20255501{i:02d}", "1", Scope.global_(), reason="Customer request")
    view = _view(qtbot, runner)
    messages: list[str] = []
    view.status_message.connect(messages.append)
    busy: list[bool] = []
    view.busy_changed.connect(busy.append)
    _connect(qtbot, view, session)
    assert _shown(view, COL_PHONE) == ["(202) 555-0100", "(202) 555-0101", "(202) 555-0102"]
    assert view.count_label.text() == "3 matches"
    assert messages[-1] == "DNC list: 3 matches, all loaded."
    assert busy[0] is True
    qtbot.waitUntil(lambda: not view.busy, timeout=TIMEOUT)
    assert busy[-1] is False
    assert [c.name for c in view.campaigns] == ["Spring Renewals", "Old Winback"]
    scopes = [
        view.filter_bar.scope_combo.itemText(i) for i in range(view.filter_bar.scope_combo.count())
    ]
    assert "Campaign: Old Winback (inactive)" in scopes


def test_scrolling_loads_pages_until_the_end(
    qtbot: Any, runner: TaskRunner, sandbox: Any, session: Session
) -> None:
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", "0", "", "") for i in range(230))
    view = _view(qtbot, runner)
    view.page_size = 50
    _connect(qtbot, view, session)
    assert view.model.total == 230
    assert view.proxy.rowCount() < 230
    with qtbot.waitSignal(view.status_message) as sorted_message:
        view.table.sortByColumn(0, Qt.SortOrder.DescendingOrder)
    assert sorted_message.args[0].startswith(f"Sorted the {view.proxy.rowCount()} loaded rows")
    for _ in range(20):
        if view.proxy.rowCount() >= 230:
            break
        before = view.proxy.rowCount()
        view.table.scrollToBottom()
        qtbot.waitUntil(lambda b=before: view.proxy.rowCount() > b, timeout=TIMEOUT)
    assert view.proxy.rowCount() == 230
    assert view.status_text() == "DNC list: 230 matches, all loaded."
    shown = [view.proxy.index(r, COL_PHONE).data(COPY_ROLE) for r in range(230)]
    assert shown == sorted(shown, reverse=True)  # pages that came later were sorted in
    assert not view.model.canFetchMore()


def test_filters_by_scope_reason_and_typed_phone(
    qtbot: Any, runner: TaskRunner, sandbox: Any, api: ApiClient, session: Session
) -> None:
    campaigns = {c.name: c.id for c in api.campaigns()}
    api.insert_dnc("2025550143", "1", Scope.global_(), reason="Customer request")
    api.insert_dnc("2025550144", "1", Scope.global_())
    api.insert_dnc("2025550145", "1", Scope.campaign(campaigns["Old Winback"]), reason="x")
    api.insert_dnc("2025550146", "1", Scope.purpose("Surveys"))
    api.insert_dnc("2025550147", "1", Scope.purpose("Marketing"))
    view = _view(qtbot, runner)
    _connect(qtbot, view, session)
    bar = view.filter_bar
    assert view.model.total == 5

    bar.scope_combo.setCurrentIndex(bar.scope_combo.findText("Global"))
    _search(qtbot, view)
    assert _shown(view, COL_PHONE) == ["(202) 555-0143", "(202) 555-0144"]

    bar.scope_combo.setCurrentIndex(bar.scope_combo.findText("Campaign: Old Winback (inactive)"))
    _search(qtbot, view)
    assert _shown(view, COL_SCOPE) == ["Old Winback (inactive)"]

    bar.scope_combo.setCurrentIndex(bar.scope_combo.findData("purpose"))
    bar.purpose_edit.setText("Surveys")
    _search(qtbot, view)
    assert _shown(view, COL_SCOPE) == ["Purpose: Surveys"]

    bar.clear()
    bar.reason_combo.setCurrentIndex(bar.reason_combo.findText("Blank reason"))
    _search(qtbot, view)
    assert _shown(view, COL_PHONE) == ["(202) 555-0144", "(202) 555-0146", "(202) 555-0147"]
    bar.reason_combo.setCurrentIndex(bar.reason_combo.findText("Reason given"))
    _search(qtbot, view)
    assert _shown(view, COL_PHONE) == ["(202) 555-0143", "(202) 555-0145"]

    bar.clear()
    qtbot.keyClicks(bar.phone_edit, "(202) 555-0143")
    _search(qtbot, view)
    assert _shown(view, COL_PHONE) == ["(202) 555-0143"]

    bar.clear()
    entry_id = view.model.entry(0).id
    bar.id_edit.setText(entry_id)
    bar.date_check.setChecked(True)  # today: every entry was inserted today
    _search(qtbot, view)
    assert [view.model.entry(r).id for r in range(view.model.rowCount())] == [entry_id]
    bar.date_edit.setDate(bar.date_edit.date().addDays(-1))
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.keyClick(bar.id_edit, Qt.Key.Key_Enter)
    assert view.model.rowCount() == 0
    assert view.status_text().startswith("DNC list: no matches for ")


def test_invalid_phone_filter_explains_and_does_not_search(
    qtbot: Any, runner: TaskRunner, session: Session
) -> None:
    view = _view(qtbot, runner)
    _connect(qtbot, view, session)
    messages: list[str] = []
    view.status_message.connect(messages.append)
    qtbot.keyClicks(view.filter_bar.phone_edit, "202-555")
    qtbot.keyClick(view.filter_bar.phone_edit, Qt.Key.Key_Return)
    assert view.model._pager is None and view.model.rowCount() == 0  # nothing searched
    problem = view.filter_bar.phone_problem
    assert "too short" in problem and "Not searched" in problem
    assert view.filter_bar.phone_error.isVisibleTo(view)
    view.refresh()
    qtbot.waitUntil(lambda: messages[-1] == problem, timeout=TIMEOUT)
    qtbot.keyClick(view.filter_bar.phone_edit, Qt.Key.Key_Backspace)
    assert view.filter_bar.phone_problem == ""


def test_a_refused_filter_and_clear_leave_no_rows_of_the_search_before(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session
) -> None:
    for i in range(3):
        api.insert_dnc(f"20255501{i:02d}", "1", Scope.global_(), reason="Customer request")
    view = _view(qtbot, runner)
    messages: list[str] = []
    view.status_message.connect(messages.append)
    _connect(qtbot, view, session)
    assert view.proxy.rowCount() == 3 and view.count_label.text() == "3 matches"
    qtbot.keyClicks(view.filter_bar.phone_edit, "abc")
    qtbot.keyClick(view.filter_bar.phone_edit, Qt.Key.Key_Return)
    # The 3 rows and "3 matches" were the search before, not what "abc" found.
    assert view.proxy.rowCount() == 0
    assert view.count_label.text() == "Not searched"
    assert messages[-1] == view.filter_bar.phone_problem and "Not searched" in messages[-1]
    # Clear resets the filter and shows what the empty filter finds.
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(view.filter_bar.clear_button, Qt.MouseButton.LeftButton)
    assert view.filter_bar.phone_edit.text() == ""
    assert view.proxy.rowCount() == 3 and view.count_label.text() == "3 matches"
    assert messages[-1] == "DNC list: 3 matches, all loaded."


def test_offset_cap_is_explained_in_the_status_bar(
    qtbot: Any, runner: TaskRunner, sandbox: Any, session: Session
) -> None:
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", "0", "", "") for i in range(102_500))
    view = _view(qtbot, runner)
    messages: list[str] = []
    view.status_message.connect(messages.append)
    _connect(qtbot, view, session)
    assert messages[-1] == (
        "Showing the first 101,000 of 102,500 matches — the service cannot page further; "
        "narrow the filter (e.g. by scope or insert date)."
    )
    assert view.model.reachable == 101_000 and view.model.unreachable == 1_500


def test_copy_selection_is_tab_separated_with_raw_numbers(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session
) -> None:
    api.insert_dnc("2025550143", "1", Scope.global_(), reason="Customer\trequest")
    api.insert_dnc("7700900123", "44", Scope.purpose("Surveys"))
    view = _view(qtbot, runner)
    _connect(qtbot, view, session)
    view.table.selectAll()
    view.copy_selection()
    lines = QGuiApplication.clipboard().text().splitlines()
    ids = [view.model.entry(r).id for r in range(2)]
    dates = [view.model.entry(r).insert_date for r in range(2)]
    assert lines == [
        f"2025550143\t1\tGlobal\tCustomer request\t\t{dates[0]}\t{ids[0]}",
        f"7700900123\t44\tPurpose: Surveys\t\tSurveys\t{dates[1]}\t{ids[1]}",
    ]
    view.table.clearSelection()
    view.table.selectionModel().select(
        view.proxy.index(1, COL_PHONE), QItemSelectionModel.SelectionFlag.ClearAndSelect
    )
    view.copy_selection()
    assert QGuiApplication.clipboard().text() == "7700900123\n"


def test_sms_view_has_delete_disabled_with_the_reason(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session
) -> None:
    api.insert_sms("2025550143", "1", Scope.global_(), reason="STOP")
    view = _view(qtbot, runner, ListKind.SMS)
    _connect(qtbot, view, session)
    assert view.model.rowCount() == 1
    view.table.selectAll()
    assert view.edit_action.isEnabled()
    assert not view.delete_action.isEnabled()
    assert view.delete_action.toolTip() == SMS_NO_REMOVAL
    assert view.delete_note.isVisibleTo(view) and view.delete_note.text() == SMS_NO_REMOVAL
    with qtbot.waitSignal(view.status_message) as message:
        view.delete_selected()
    assert message.args == [SMS_NO_REMOVAL]
    assert view.dialog is None


def test_rejected_token_asks_for_a_new_one_and_retry_reruns_the_search(
    qtbot: Any, runner: TaskRunner, sandbox: Any, api: ApiClient, session: Session
) -> None:
    api.insert_dnc("2025550143", "1", Scope.global_())
    view = _view(qtbot, runner)
    _connect(qtbot, view, session)
    sandbox.revoke_token(TOKEN)
    with qtbot.waitSignal(view.auth_problem, timeout=TIMEOUT) as problem:
        qtbot.keyClick(view.filter_bar.phone_edit, Qt.Key.Key_Return)
    exc, retry = problem.args
    assert isinstance(exc, AuthInvalidError)
    assert view.model.rowCount() == 0
    sandbox.tokens.grant(TOKEN, Role.FULL)
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        retry()
    assert view.model.rowCount() == 1
    # F5 reloads campaign names first; a rejected token there is offered the same way.
    sandbox.revoke_token(TOKEN)
    with qtbot.waitSignal(view.auth_problem, timeout=TIMEOUT) as problem:
        view.refresh()
    sandbox.tokens.grant(TOKEN, Role.FULL)
    api.insert_dnc("2025550144", "1", Scope.global_())
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        problem.args[1]()
    assert view.model.rowCount() == 2


def test_rejected_token_on_connect_retries_campaigns_then_search(
    qtbot: Any, runner: TaskRunner, sandbox: Any, session: Session
) -> None:
    sandbox.revoke_token(TOKEN)
    view = _view(qtbot, runner)
    with qtbot.waitSignal(view.auth_problem, timeout=TIMEOUT) as problem:
        view.set_session(session)
    sandbox.tokens.grant(TOKEN, Role.FULL)
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        problem.args[1]()
    assert len(view.campaigns) == 2


def test_state_round_trip(qtbot: Any, runner: TaskRunner, tmp_path: Path, session: Session) -> None:
    settings = QSettings(str(tmp_path / "state.ini"), QSettings.Format.IniFormat)
    view = _view(qtbot, runner)
    _connect(qtbot, view, session)
    view.table.setColumnWidth(COL_SCOPE, 333)
    view.filter_bar.phone_edit.setText("(202) 555-0143")
    view.filter_bar.reason_combo.setCurrentIndex(2)
    campaign_index = view.filter_bar.scope_combo.findText("Campaign: Spring Renewals")
    view.filter_bar.scope_combo.setCurrentIndex(campaign_index)
    view.save_state(settings)
    settings.sync()

    other = _view(qtbot, runner)
    other.restore_state(QSettings(str(tmp_path / "state.ini"), QSettings.Format.IniFormat))
    assert other.table.columnWidth(COL_SCOPE) == 333
    assert other.filter_bar.phone_edit.text() == "(202) 555-0143"
    assert other.filter_bar.reason_combo.currentIndex() == 2
    # The campaign is chosen once the campaigns have loaded.
    _connect(qtbot, other, session)
    assert other.filter_bar.scope_combo.currentText() == "Campaign: Spring Renewals"
