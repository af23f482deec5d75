"""Connections and tokens in the window: adding, verifying, storing, and re-entering."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import keyring
import keyring.backend
import keyring.errors
import pytest
from keyring.backends import fail
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from app.api import errors
from app.core.connections import Connection, ConnectionStore
from app.core.paths import AppPaths
from app.core.tokens import TokenStore
from app.ui.connection_dialog import ConnectionsDialog
from app.ui.main_window import MainWindow
from app.ui.tasks import TaskRunner
from tests.conftest import READ_ONLY_TOKEN, TOKEN

SERVICE = "dnc-desk"


@pytest.fixture
def runner(qtbot: Any) -> Any:
    task_runner = TaskRunner()
    yield task_runner
    task_runner.wait(10_000)


def make_dialog(qtbot: Any, paths: AppPaths, runner: TaskRunner) -> ConnectionsDialog:
    dialog = ConnectionsDialog(ConnectionStore(paths.connections_file), TokenStore(), runner)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def fill(qtbot: Any, dialog: ConnectionsDialog, name: str, url: str, token: str) -> None:
    dialog.name_edit.clear()
    qtbot.keyClicks(dialog.name_edit, name)
    dialog.url_edit.clear()
    qtbot.keyClicks(dialog.url_edit, url)
    qtbot.keyClicks(dialog.token_entry.field, token)


def files_containing(folder: Path, needle: str) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


def test_add_connection_verifies_and_stores_token_in_keyring_only(
    qtbot: Any, paths: AppPaths, runner: TaskRunner, sandbox: Any, memory_keyring: Any
) -> None:
    dialog = make_dialog(qtbot, paths, runner)
    assert dialog.token_entry.field.echoMode() is dialog.token_entry.field.EchoMode.Password
    fill(qtbot, dialog, "Staging", sandbox.base_url, TOKEN)
    with qtbot.waitSignal(dialog.connections_changed, timeout=10_000):
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    assert "Token accepted: it sees 2 campaigns (1 inactive)." in dialog.token_entry.result.text()
    assert "system keyring" in dialog.token_entry.result.text()
    assert memory_keyring.passwords[(SERVICE, "Staging")] == TOKEN
    saved = json.loads(paths.connections_file.read_text())
    assert saved["connections"] == [{"name": "Staging", "base_url": sandbox.base_url}]
    assert files_containing(paths.config_dir, TOKEN) == []
    assert files_containing(paths.data_dir, TOKEN) == []
    assert dialog.token_entry.field.text() == ""
    assert "Staging" in dialog.list.currentItem().text()


def test_wrong_token_shows_invalid_message_and_saves_nothing(
    qtbot: Any, paths: AppPaths, runner: TaskRunner, sandbox: Any, memory_keyring: Any
) -> None:
    dialog = make_dialog(qtbot, paths, runner)
    fill(qtbot, dialog, "Staging", sandbox.base_url, "tok-wrong-000000")
    with qtbot.waitSignal(dialog.token_entry.failed, timeout=10_000) as blocker:
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    text = blocker.args[0]
    assert "invalid or expired" in text
    assert "not saved" in text
    assert dialog.token_entry.result.text() == text
    assert memory_keyring.passwords == {}
    assert not paths.connections_file.exists()
    assert dialog.save_button.isEnabled()


def test_fail_backend_keeps_token_in_memory_and_says_so(
    qtbot: Any, paths: AppPaths, runner: TaskRunner, sandbox: Any
) -> None:
    keyring.set_keyring(fail.Keyring())
    dialog = make_dialog(qtbot, paths, runner)
    assert dialog.keyring_notice.isVisible()
    assert "kept in memory for this session only" in dialog.keyring_notice.text()
    # In words the user can act on, not keyring's class name for "none" (bb2 F8).
    assert "fail Keyring" not in dialog.keyring_notice.text()
    assert "none was found" in dialog.keyring_notice.text()
    assert "macOS Keychain" in dialog.keyring_notice.text()

    fill(qtbot, dialog, "Staging", sandbox.base_url, TOKEN)
    with qtbot.waitSignal(dialog.connections_changed, timeout=10_000):
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert "kept in memory for this session only" in dialog.token_entry.result.text()
    qtbot.waitUntil(lambda: "memory" in dialog.token_state.text())
    assert dialog._tokens.get("Staging") == TOKEN
    assert files_containing(paths.config_dir, TOKEN) == []


class DismissedKeyring(keyring.backend.KeyringBackend):
    """A keyring that looks usable but refuses like a locked Secret Service does."""

    priority = 1  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.InitError("Prompt dismissed")

    def delete_password(self, service: str, username: str) -> None:
        raise keyring.errors.InitError("Prompt dismissed")


def test_locked_keyring_is_a_clear_message_with_memory_fallback(
    qtbot: Any, paths: AppPaths, runner: TaskRunner, sandbox: Any
) -> None:
    keyring.set_keyring(DismissedKeyring())
    dialog = make_dialog(qtbot, paths, runner)
    assert not dialog.keyring_notice.isVisible()
    fill(qtbot, dialog, "Staging", sandbox.base_url, TOKEN)
    with qtbot.waitSignal(dialog.token_entry.failed, timeout=10_000):
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    text = dialog.token_entry.result.text()
    assert "Token accepted" in text
    assert "The system keyring is locked or refused access (Prompt dismissed)" in text
    assert TOKEN not in text
    assert dialog.token_entry.keep_button.isVisible()
    assert not paths.connections_file.exists()

    with qtbot.waitSignal(dialog.connections_changed, timeout=10_000):
        qtbot.mouseClick(dialog.token_entry.keep_button, Qt.MouseButton.LeftButton)
    assert "kept in memory for this session only" in dialog.token_entry.result.text()
    assert dialog._tokens.get("Staging") == TOKEN


def test_plain_http_to_a_remote_host_is_refused_as_typed(
    qtbot: Any, paths: AppPaths, runner: TaskRunner
) -> None:
    dialog = make_dialog(qtbot, paths, runner)
    qtbot.keyClicks(dialog.url_edit, "http://127.0.0.1:8765")
    assert not dialog.url_notice.isVisible()
    dialog.url_edit.clear()
    qtbot.keyClicks(dialog.url_edit, "http://dialer.example.com")
    assert dialog.url_notice.isVisible()
    assert "unencrypted" in dialog.url_notice.text()
    dialog.url_edit.clear()
    qtbot.keyClicks(dialog.url_edit, "https://dialer.example.com")
    assert not dialog.url_notice.isVisible()


def test_forget_token_removes_it_from_the_keyring(
    qtbot: Any,
    paths: AppPaths,
    runner: TaskRunner,
    sandbox: Any,
    memory_keyring: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ConnectionStore(paths.connections_file).save(Connection("Staging", sandbox.base_url))
    memory_keyring.passwords[(SERVICE, "Staging")] = TOKEN
    dialog = make_dialog(qtbot, paths, runner)
    qtbot.waitUntil(lambda: "system keyring" in dialog.token_state.text())
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(dialog.forget_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "none saved" in dialog.token_state.text())
    assert memory_keyring.passwords == {}


def connect_window(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any, memory_keyring: Any
) -> MainWindow:
    store = ConnectionStore(paths.connections_file)
    store.save(Connection("Staging", sandbox.base_url))
    store.set_active("Staging")
    memory_keyring.passwords[(SERVICE, "Staging")] = TOKEN
    window = make_window()
    with qtbot.waitSignal(window.session_ready, timeout=10_000):
        window.start()
    dnc: Any = window.list_views["dnc"]
    qtbot.waitUntil(lambda: dnc.total is not None)
    return window


def test_rejected_token_leads_to_token_dialog_and_the_search_is_retried(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any, memory_keyring: Any
) -> None:
    window = connect_window(make_window, qtbot, paths, sandbox, memory_keyring)
    dnc: Any = window.list_views["dnc"]
    assert window.windowTitle() == f"DNC Desk — Staging ({sandbox.base_url})"

    sandbox.revoke_token(TOKEN)
    dnc.total = None
    window.tabs.setCurrentWidget(dnc)
    window.act_refresh.trigger()
    # Other tabs refresh too and may meet the revoked token first: one dialog serves all.
    qtbot.waitUntil(lambda: window.token_dialog is not None and bool(dnc.errors), timeout=10_000)
    dialog = window.token_dialog
    assert dialog is not None
    assert isinstance(dnc.errors[-1], errors.AuthInvalidError)
    assert "invalid or expired" in dialog.reason.text()
    assert dnc.total is None

    # A second wrong token keeps the dialog open with the service's verdict.
    qtbot.keyClicks(dialog.entry.field, "tok-still-wrong-1")
    with qtbot.waitSignal(dialog.entry.failed, timeout=10_000):
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible()
    assert memory_keyring.passwords[(SERVICE, "Staging")] == TOKEN

    dialog.entry.field.clear()
    qtbot.keyClicks(dialog.entry.field, READ_ONLY_TOKEN)
    before = len(dnc.calls)
    with qtbot.waitSignal(window.session_ready, timeout=10_000):
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dnc.total is not None, timeout=10_000)
    # The new session reaches the view, then the window runs the retry it was handed.
    assert dnc.calls[before:] == ["set_session", "refresh", "refresh"]
    assert dnc.total == 0
    assert len(dnc.errors) == 1
    assert memory_keyring.passwords[(SERVICE, "Staging")] == READ_ONLY_TOKEN
    assert window.state.session is not None
    assert window.state.session.connection.name == "Staging"
    qtbot.waitUntil(lambda: window.token_dialog is None)


def test_missing_and_insufficient_permission_get_their_own_messages(
    make_window: Any,
    qtbot: Any,
    paths: AppPaths,
    sandbox: Any,
    memory_keyring: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = connect_window(make_window, qtbot, paths, sandbox, memory_keyring)
    warnings: list[tuple[str, str]] = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda _parent, title, text, *a: warnings.append((title, text))
    )
    retried: list[bool] = []
    denied = errors.PermissionDeniedError("/campaigns/status", "not allowed", http_status=403)
    window.handle_auth_problem(denied, lambda: retried.append(True))
    assert warnings and warnings[0][0] == "Not permitted"
    assert "does not have permission" in warnings[0][1]
    assert window.token_dialog is None

    missing = errors.AuthMissingError("/dnc/search", "no token", http_status=401)
    window.handle_auth_problem(missing, lambda: retried.append(True))
    dialog = window.token_dialog
    assert dialog is not None
    assert "received no API token" in dialog.reason.text()
    dialog.reject()
    assert retried == []


def test_without_a_secure_keyring_the_window_says_the_token_is_in_memory(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any
) -> None:
    keyring.set_keyring(fail.Keyring())
    store = ConnectionStore(paths.connections_file)
    store.save(Connection("Staging", sandbox.base_url))
    store.set_active("Staging")
    window = make_window()
    window.start()
    qtbot.waitUntil(lambda: window.token_dialog is not None, timeout=10_000)
    dialog = window.token_dialog
    assert dialog is not None
    assert "No token is stored" in dialog.reason.text()
    assert "kept in memory for this session only" in dialog.storage_notice.text()
    qtbot.keyClicks(dialog.entry.field, TOKEN)
    with qtbot.waitSignal(window.session_ready, timeout=10_000):
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert not window.token_label.isHidden()
    assert "memory only" in window.token_label.text()
    assert "kept in memory for this session only" in window.statusBar().currentMessage()
    assert files_containing(paths.config_dir, TOKEN) == []
    assert files_containing(paths.data_dir, TOKEN) == []


def test_renaming_the_active_connection_moves_its_token_and_keeps_it_in_use(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any, memory_keyring: Any
) -> None:
    window = connect_window(make_window, qtbot, paths, sandbox, memory_keyring)
    window.show_connections()
    dialog = window.connections_dialog
    assert dialog is not None
    qtbot.waitUntil(lambda: "system keyring" in dialog.token_state.text())
    dialog.name_edit.clear()
    qtbot.keyClicks(dialog.name_edit, "Staging EU")
    with qtbot.waitSignal(window.session_ready, timeout=10_000) as blocker:
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert blocker.args[0].connection.name == "Staging EU"
    assert memory_keyring.passwords == {(SERVICE, "Staging EU"): TOKEN}
    assert window.windowTitle() == f"DNC Desk — Staging EU ({sandbox.base_url})"
    assert ConnectionStore(paths.connections_file).active_name == "Staging EU"


def test_new_connection_says_where_the_token_will_go(
    qtbot: Any, paths: AppPaths, runner: TaskRunner, memory_keyring: Any
) -> None:
    # With a keyring the sentence under the token field promises the keyring...
    dialog = make_dialog(qtbot, paths, runner)
    dialog.new_connection()
    assert "stored in the system keyring" in dialog.token_state.text()
    dialog.close()
    # ...and without one it must not contradict the banner that says "memory only".
    keyring.set_keyring(fail.Keyring())
    dialog = make_dialog(qtbot, paths, runner)
    dialog.new_connection()
    assert dialog.keyring_notice.isVisible()
    assert "keyring" not in dialog.token_state.text()
    assert "kept in memory for this session only" in dialog.token_state.text()
