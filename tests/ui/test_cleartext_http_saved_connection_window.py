"""X3: the window and a connection saved by an earlier version with plain http:// to another
computer (black-box R5 #9 made such a connection refused). Opened at start or switched to later,
it is refused in a dialog that names it and says how to fix it, before any token is read or
asked for and before anything is sent; the dialog's button opens File ▸ Connections… on it, and
the window stays usable with another connection."""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QMessageBox

from app.api.client import ApiClient
from app.core.connections import Connection, ConnectionStore
from app.core.paths import AppPaths
from app.ui.main_window import MainWindow
from app.ui.token_dialog import TokenDialog
from tests.conftest import TOKEN

SERVICE = "dnc-desk"
OLD_URL = "http://10.0.0.5:8080"


@pytest.fixture
def remote_connects(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Every TCP connection attempted to another computer (refused here, so none leaves);
    loopback ones (the test's sandbox) go through."""
    made: list[tuple[Any, ...]] = []
    real = socket.create_connection

    def guard(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        host = str(address[0])
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
        if not loopback:
            made.append(tuple(address))
            raise ConnectionRefusedError("refused by the test")
        return real(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", guard)
    return made


@pytest.fixture
def clients(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The base URL of every API client built (the client is where a token would leave)."""
    built: list[str] = []
    real_init = ApiClient.__init__

    def recording(self: ApiClient, base_url: str, *args: Any, **kwargs: Any) -> None:
        built.append(base_url)
        real_init(self, base_url, *args, **kwargs)

    monkeypatch.setattr(ApiClient, "__init__", recording)
    return built


@pytest.fixture
def token_prompts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A token prompt fails the test: its connection's name is recorded, then it raises."""
    asked: list[str] = []

    def refuse(_parent: Any, connection: Connection, *_a: Any, **_k: Any) -> Any:
        asked.append(connection.name)
        raise AssertionError(f"the token of {connection.name} was asked for")

    monkeypatch.setattr("app.ui.main_window.ask_token", refuse)
    monkeypatch.setattr("app.ui.connection_dialog.ask_token", refuse)
    return asked


def save_connections(paths: AppPaths, local_url: str | None = None, active: str = "Lab") -> None:
    """``Lab`` at plain http:// to another computer, as an earlier version saved it (today's
    store refuses to save it), then through the real store ``Local`` (the test's sandbox)."""
    paths.connections_file.parent.mkdir(parents=True, exist_ok=True)
    data = {"version": 1, "active": "Lab", "connections": [{"name": "Lab", "base_url": OLD_URL}]}
    paths.connections_file.write_text(json.dumps(data), encoding="utf-8")
    store = ConnectionStore(paths.connections_file)
    assert store.active == Connection("Lab", OLD_URL)
    if local_url is not None:
        store.save(Connection("Local", local_url))
    store.set_active(active)


def refusal_boxes() -> list[QMessageBox]:
    return [
        w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()
    ]


def wait_for_refusal(qtbot: Any) -> QMessageBox:
    qtbot.waitUntil(lambda: len(refusal_boxes()) == 1, timeout=10_000)
    return refusal_boxes()[0]


def button(box: QMessageBox, text: str) -> QAbstractButton:
    (found,) = [b for b in box.buttons() if b.text() == text]
    return found


def no_token_dialog() -> bool:
    return not any(isinstance(w, TokenDialog) for w in QApplication.topLevelWidgets())


def assert_names_lab_and_the_fix(box: QMessageBox) -> None:
    assert box.isModal()
    assert box.windowModality() != Qt.WindowModality.NonModal
    assert box.text() == (
        'The saved connection "Lab" uses plain http to another computer (http://10.0.0.5:8080).'
    )
    details = box.informativeText()
    assert "will not send its API token unencrypted" in details
    assert "sent nothing" in details
    assert "File ▸ Connections…, select Lab, change its address to the service's https://" in (
        details
    )


@pytest.mark.parametrize("token_stored", [False, True], ids=["no-token", "token-stored"])
def test_the_window_refuses_it_at_start_in_a_dialog_before_any_token(
    make_window: Callable[..., MainWindow],
    qtbot: Any,
    paths: AppPaths,
    memory_keyring: Any,
    remote_connects: list[tuple[Any, ...]],
    clients: list[str],
    token_prompts: list[str],
    token_stored: bool,
) -> None:
    save_connections(paths)
    if token_stored:
        memory_keyring.passwords[(SERVICE, "Lab")] = TOKEN
    window = make_window()
    window.start()
    box = wait_for_refusal(qtbot)
    assert_names_lab_and_the_fix(box)
    window.runner.wait(10_000)
    assert token_prompts == []
    assert no_token_dialog()
    assert clients == []
    assert remote_connects == []
    assert window.state.session is None
    assert "Lab is not opened" in window.statusBar().currentMessage()

    # Closed, the window is there to work in: tabs, connections and the sandbox.
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Close), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: refusal_boxes() == [], timeout=5_000)
    assert window.stack.currentWidget() is window.tabs
    assert window.act_connections.isEnabled()
    assert window.act_try_sandbox.isEnabled()
    assert window.connections_dialog is None
    assert token_prompts == []


def test_its_button_opens_the_connections_on_it_and_another_connection_still_works(
    make_window: Callable[..., MainWindow],
    qtbot: Any,
    paths: AppPaths,
    sandbox: Any,
    memory_keyring: Any,
    remote_connects: list[tuple[Any, ...]],
    clients: list[str],
    token_prompts: list[str],
) -> None:
    # The window starts on Local (working); switching to Lab later is refused the same way.
    save_connections(paths, local_url=sandbox.base_url, active="Local")
    memory_keyring.passwords[(SERVICE, "Local")] = TOKEN
    window = make_window()
    with qtbot.waitSignal(window.session_ready, timeout=10_000):
        window.start()
    window.runner.wait(10_000)
    assert clients == [sandbox.base_url]

    window.activate_connection(Connection("Lab", OLD_URL))
    box = wait_for_refusal(qtbot)
    assert_names_lab_and_the_fix(box)
    window.runner.wait(10_000)
    assert token_prompts == []
    assert clients == [sandbox.base_url]
    assert remote_connects == []
    # The connection in use stays in use.
    assert window.state.session is not None
    assert window.state.session.connection.name == "Local"

    qtbot.mouseClick(button(box, "Open Connections…"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.connections_dialog is not None, timeout=5_000)
    dialog = window.connections_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    assert refusal_boxes() == []
    assert dialog.list.currentItem().data(Qt.ItemDataRole.UserRole) == Connection("Lab", OLD_URL)
    assert dialog.url_edit.text() == OLD_URL
    assert "10.0.0.5" in dialog.url_notice.text()
    # The token of a connection that cannot be used is not asked for here either.
    assert not dialog.replace_button.isEnabled()
    window.runner.wait(10_000)  # its keyring look-up, before the dialog is deleted
    dialog.reject()
    qtbot.waitUntil(lambda: window.connections_dialog is None, timeout=5_000)
    assert token_prompts == []
    assert remote_connects == []


def test_the_connections_dialog_does_not_ask_for_its_token(
    make_window: Callable[..., MainWindow],
    qtbot: Any,
    paths: AppPaths,
    sandbox: Any,
    memory_keyring: Any,
    remote_connects: list[tuple[Any, ...]],
    clients: list[str],
    token_prompts: list[str],
) -> None:
    save_connections(paths, local_url=sandbox.base_url, active="Local")
    memory_keyring.passwords[(SERVICE, "Local")] = TOKEN
    window = make_window()
    with qtbot.waitSignal(window.session_ready, timeout=10_000):
        window.start()
    window.act_connections.trigger()
    dialog = window.connections_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    assert dialog.url_edit.text() == sandbox.base_url
    assert dialog.replace_button.isEnabled()

    lab = next(
        i
        for i in range(dialog.list.count())
        if dialog.list.item(i).data(Qt.ItemDataRole.UserRole).name == "Lab"
    )
    dialog.list.setCurrentRow(lab)
    assert dialog.url_edit.text() == OLD_URL
    assert not dialog.replace_button.isEnabled()
    assert "https://" in dialog.replace_button.toolTip()
    qtbot.mouseClick(dialog.replace_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)
    window.runner.wait(10_000)
    assert dialog.isVisible()
    assert "10.0.0.5" in dialog.message.text()
    assert token_prompts == []
    assert no_token_dialog()
    assert remote_connects == []
    assert clients == [sandbox.base_url]
    assert window.state.session is not None
    assert window.state.session.connection.name == "Local"
    window.runner.wait(10_000)
    dialog.reject()
