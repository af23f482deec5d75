"""A revoked token met by the Add dialog: after a new token the save is retried, once, on
the new session (black-box bb1 F7: it ran on the closed one, "the API client is closed")."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.connections import Connection, ConnectionStore
from app.core.paths import AppPaths
from app.sandbox.auth import Role
from app.ui.entry_dialog import EntryDialog
from app.ui.list_view import EntryListView
from app.ui.main_window import MainWindow, default_view_factory
from app.ui.removal_progress import RemovalProgressDialog
from tests.conftest import TOKEN

SERVICE = "dnc-desk"
NEW_TOKEN = "tok-new-7c1e5a9b3d20"
TIMEOUT = 10_000


def _window(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any, memory_keyring: Any
) -> tuple[MainWindow, EntryListView]:
    store = ConnectionStore(paths.connections_file)
    store.save(Connection("Staging", sandbox.base_url))
    store.set_active("Staging")
    memory_keyring.passwords[(SERVICE, "Staging")] = TOKEN
    window = make_window(view_factory=default_view_factory)
    dnc = window.list_views["dnc"]
    assert isinstance(dnc, EntryListView)
    window.tabs.setCurrentWidget(dnc)
    window.show()
    with qtbot.waitSignal(window.session_ready, timeout=TIMEOUT):
        window.start()
    qtbot.waitUntil(lambda: dnc.model.total is not None, timeout=TIMEOUT)
    return window, dnc


def _enter_new_token(qtbot: Any, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: window.token_dialog is not None, timeout=TIMEOUT)
    dialog = window.token_dialog
    assert dialog is not None
    qtbot.keyClicks(dialog.entry.field, NEW_TOKEN)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)


def test_add_with_a_revoked_token_is_saved_once_after_a_new_token(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any, memory_keyring: Any
) -> None:
    window, dnc = _window(make_window, qtbot, paths, sandbox, memory_keyring)
    sandbox.revoke_token(TOKEN)
    sandbox.tokens.grant(NEW_TOKEN, Role.FULL)
    dnc.add_entry()
    dialog = dnc.dialog
    assert isinstance(dialog, EntryDialog)
    qtbot.keyClicks(dialog.phone_edit, "(720) 555-0178")
    qtbot.keyClicks(dialog.reason_edit, "Customer request")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.token_dialog is not None, timeout=TIMEOUT)
    # The window asks for the token and the dialog says why it did not save, each on the
    # failure's own signal: on a loaded machine the question can come first (CI, session 33).
    qtbot.waitUntil(
        lambda: dialog.general_error.text().startswith("Not saved: the service says the API token"),
        timeout=TIMEOUT,
    )

    with qtbot.waitSignal(dialog.saved, timeout=TIMEOUT):
        _enter_new_token(qtbot, window)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=TIMEOUT)
    qtbot.wait(300)  # a second (stale) retry would have been sent by now

    with ApiClient(sandbox.base_url, NEW_TOKEN) as api:
        found = [e.phone_number for e in api.iter_dnc(DncQuery())]
    assert found == ["7205550178"]
    session = window.state.session
    assert session is not None
    rows = session.journal.query(operation="dnc.insert")
    outcomes = sorted((r.outcome, r.error) for r in rows if r.outcome)
    assert [o for o, _ in outcomes] == ["failed", "ok"], outcomes
    assert "Invalid or expired" in outcomes[0][1]
    assert not any("closed" in r.error for r in rows)


def test_removal_retry_after_a_new_token_runs_on_the_new_session(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any, memory_keyring: Any
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc("2025550143", "1", Scope.global_())
    window, dnc = _window(make_window, qtbot, paths, sandbox, memory_keyring)
    qtbot.waitUntil(lambda: dnc.model.rowCount() == 1, timeout=TIMEOUT)
    dnc.table.selectAll()
    sandbox.revoke_token(TOKEN)
    sandbox.tokens.grant(NEW_TOKEN, Role.FULL)
    dnc.delete_selected()
    confirm = dnc.dialog
    assert confirm is not None
    qtbot.keyClicks(confirm.reason_edit, "cleanup")
    qtbot.mouseClick(confirm.ok_button, Qt.MouseButton.LeftButton)
    progress = dnc.dialog
    assert isinstance(progress, RemovalProgressDialog)
    qtbot.waitUntil(lambda: progress.removal_result is not None, timeout=TIMEOUT)
    with qtbot.waitSignal(progress.removal_finished, timeout=TIMEOUT) as retried:
        _enter_new_token(qtbot, window)
    assert [o.outcome.value for o in retried.args[0].outcomes] == ["removed"]
    with ApiClient(sandbox.base_url, NEW_TOKEN) as api:
        assert list(api.iter_dnc(DncQuery())) == []
    session = window.state.session
    assert session is not None
    rows = session.journal.query(operation="dnc.delete")
    assert not any("closed" in r.error for r in rows)


def _add_refused(qtbot: Any, window: MainWindow, dnc: EntryListView) -> EntryDialog:
    dnc.add_entry()
    dialog = dnc.dialog
    assert isinstance(dialog, EntryDialog)
    qtbot.keyClicks(dialog.phone_edit, "(720) 555-0179")
    qtbot.keyClicks(dialog.reason_edit, "Customer request")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.token_dialog is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not dialog.saving, timeout=TIMEOUT)
    return dialog


def _inserts(window: MainWindow) -> list[tuple[str, str]]:
    session = window.state.session
    assert session is not None
    rows = session.journal.query(operation="dnc.insert")
    return sorted((r.outcome, r.error) for r in rows if r.outcome)


def test_add_pressed_again_before_the_new_token_is_sent_once(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any, memory_keyring: Any
) -> None:
    window, dnc = _window(make_window, qtbot, paths, sandbox, memory_keyring)
    sandbox.revoke_token(TOKEN)
    sandbox.tokens.grant(NEW_TOKEN, Role.FULL)
    dialog = _add_refused(qtbot, window, dnc)
    # A second press while the token is asked for queues a second retry: only one may run.
    dialog.accept()
    qtbot.waitUntil(lambda: len(_inserts(window)) == 2, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not dialog.saving, timeout=TIMEOUT)
    with qtbot.waitSignal(dialog.saved, timeout=TIMEOUT):
        _enter_new_token(qtbot, window)
    qtbot.wait(500)
    assert [o for o, _ in _inserts(window)] == ["failed", "failed", "ok"]
    with ApiClient(sandbox.base_url, NEW_TOKEN) as api:
        assert [e.phone_number for e in api.iter_dnc(DncQuery())] == ["7205550179"]


def test_add_cancelled_before_the_new_token_sends_nothing_more(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any, memory_keyring: Any
) -> None:
    window, dnc = _window(make_window, qtbot, paths, sandbox, memory_keyring)
    sandbox.revoke_token(TOKEN)
    sandbox.tokens.grant(NEW_TOKEN, Role.FULL)
    dialog = _add_refused(qtbot, window, dnc)
    dialog.reject()
    with qtbot.waitSignal(window.session_ready, timeout=TIMEOUT):
        _enter_new_token(qtbot, window)
    qtbot.wait(500)
    assert [o for o, _ in _inserts(window)] == ["failed"]
    with ApiClient(sandbox.base_url, NEW_TOKEN) as api:
        assert list(api.iter_dnc(DncQuery())) == []


def test_export_dialog_open_across_a_new_token_exports_on_the_new_session(
    make_window: Any,
    qtbot: Any,
    paths: AppPaths,
    sandbox: Any,
    memory_keyring: Any,
    tmp_path: Any,
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc("2025550143", "1", Scope.global_())
    window, _dnc = _window(make_window, qtbot, paths, sandbox, memory_keyring)
    export = window.job_features.export_search()
    assert export is not None
    sandbox.revoke_token(TOKEN)
    sandbox.tokens.grant(NEW_TOKEN, Role.FULL)
    window.act_refresh.trigger()
    with qtbot.waitSignal(window.session_ready, timeout=TIMEOUT):
        _enter_new_token(qtbot, window)
    export.path_edit.setText(str(tmp_path / "after-token.csv"))
    with qtbot.waitSignal(export.exported, timeout=TIMEOUT) as done:
        export.start()
    assert done.args[0].rows == 1


def test_edit_with_a_revoked_token_is_saved_after_a_new_token(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any, memory_keyring: Any
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc("2025550143", "1", Scope.global_(), reason="Customer request")
    window, dnc = _window(make_window, qtbot, paths, sandbox, memory_keyring)
    qtbot.waitUntil(lambda: dnc.model.rowCount() == 1, timeout=TIMEOUT)
    dnc.table.selectRow(0)
    sandbox.revoke_token(TOKEN)
    sandbox.tokens.grant(NEW_TOKEN, Role.FULL)
    dnc.edit_selected()
    dialog = dnc.dialog
    assert isinstance(dialog, EntryDialog)
    dialog.reason_edit.clear()
    qtbot.keyClicks(dialog.reason_edit, "Asked twice")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.token_dialog is not None, timeout=TIMEOUT)
    with qtbot.waitSignal(dialog.saved, timeout=TIMEOUT):
        _enter_new_token(qtbot, window)
    with ApiClient(sandbox.base_url, NEW_TOKEN) as api:
        assert [e.reason for e in api.iter_dnc(DncQuery())] == ["Asked twice"]
    session = window.state.session
    assert session is not None
    rows = [r for r in session.journal.query(operation="dnc.update") if r.outcome]
    assert sorted(r.outcome for r in rows) == ["failed", "ok"]
    assert not any("closed" in r.error for r in rows)
