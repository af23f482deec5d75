"""Black-box R5 #9 in the window: the connection dialog refuses plain http:// to another machine
with the command line's sentence, a connection saved that way before the rule is not used, and
the window opening one at start sends nothing; plain http:// to this computer still works."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.core.connections import Connection, ConnectionStore
from app.core.paths import AppPaths
from app.core.tokens import TokenStore
from app.ui.connection_dialog import ConnectionsDialog
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN

SERVICE = "dnc-desk"
REFUSAL = (
    "Plain http:// to {host} would send the API token unencrypted across the network: use "
    "the service's https:// address (http:// is only for a test service on this computer: "
    "localhost, 127.0.0.1 or ::1)."
)


@pytest.fixture
def runner(qtbot: Any) -> Any:
    task_runner = TaskRunner()
    yield task_runner
    task_runner.wait(10_000)


@pytest.fixture
def connects(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Every outgoing TCP connection Python attempts (refused here, so none leaves)."""
    made: list[tuple[Any, ...]] = []

    def refuse(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        made.append(tuple(address))
        raise ConnectionRefusedError("refused by the test")

    monkeypatch.setattr(socket, "create_connection", refuse)
    return made


def make_dialog(qtbot: Any, paths: AppPaths, runner: TaskRunner) -> ConnectionsDialog:
    dialog = ConnectionsDialog(ConnectionStore(paths.connections_file), TokenStore(), runner)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def save_old_connection(paths: AppPaths, url: str) -> None:
    """A connection as a version without the rule saved it."""
    paths.connections_file.parent.mkdir(parents=True, exist_ok=True)
    entries = [{"name": "Lab", "base_url": url}]
    data = {"version": 1, "active": "Lab", "connections": entries}
    paths.connections_file.write_text(json.dumps(data), encoding="utf-8")


def test_the_dialog_refuses_plain_http_to_another_machine_and_sends_nothing(
    qtbot: Any,
    paths: AppPaths,
    runner: TaskRunner,
    memory_keyring: Any,
    connects: list[tuple[Any, ...]],
) -> None:
    dialog = make_dialog(qtbot, paths, runner)
    qtbot.keyClicks(dialog.name_edit, "Lab")
    qtbot.keyClicks(dialog.url_edit, "http://192.0.2.2:18682")
    qtbot.keyClicks(dialog.token_entry.field, TOKEN)
    assert dialog.url_notice.isVisible()
    assert dialog.url_notice.text() == REFUSAL.format(host="192.0.2.2")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    runner.wait(10_000)
    assert dialog.message.isVisible()
    assert dialog.message.text() == REFUSAL.format(host="192.0.2.2")
    assert connects == []
    assert ConnectionStore(paths.connections_file).list() == []
    assert memory_keyring.passwords == {}


def test_a_connection_saved_before_the_rule_is_not_used(
    qtbot: Any,
    paths: AppPaths,
    runner: TaskRunner,
    connects: list[tuple[Any, ...]],
) -> None:
    save_old_connection(paths, "http://192.0.2.9:18682")
    dialog = make_dialog(qtbot, paths, runner)
    assert dialog.url_edit.text() == "http://192.0.2.9:18682"
    assert dialog.url_notice.text() == REFUSAL.format(host="192.0.2.9")
    chosen: list[object] = []
    dialog.connection_chosen.connect(chosen.append)
    qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)
    assert chosen == []
    assert dialog.isVisible()
    assert dialog.message.text() == REFUSAL.format(host="192.0.2.9")
    # Changed to https:// it is saved and can be used.
    dialog.url_edit.clear()
    qtbot.keyClicks(dialog.url_edit, "https://192.0.2.9:18443")
    assert not dialog.url_notice.isVisible()
    with qtbot.waitSignal(dialog.connections_changed, timeout=10_000):
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert ConnectionStore(paths.connections_file).list() == [
        Connection("Lab", "https://192.0.2.9:18443")
    ]
    assert connects == []


def test_the_window_does_not_open_such_a_saved_connection(
    make_window: Any,
    qtbot: Any,
    paths: AppPaths,
    memory_keyring: Any,
    connects: list[tuple[Any, ...]],
) -> None:
    save_old_connection(paths, "http://192.0.2.9:18682")
    memory_keyring.passwords[(SERVICE, "Lab")] = TOKEN
    window = make_window()
    window.start()
    qtbot.waitUntil(lambda: "unencrypted" in window.statusBar().currentMessage(), timeout=10_000)
    message = window.statusBar().currentMessage()
    assert "plain http:// to 192.0.2.9 would send the API token unencrypted" in message
    assert "https://" in message
    window.runner.wait(10_000)
    assert window.state.session is None
    assert connects == []


def test_plain_http_to_this_computer_still_saves_and_checks_the_token(
    qtbot: Any, paths: AppPaths, runner: TaskRunner, sandbox: Any, memory_keyring: Any
) -> None:
    assert sandbox.base_url.startswith("http://127.0.0.1:")
    dialog = make_dialog(qtbot, paths, runner)
    qtbot.keyClicks(dialog.name_edit, "Local")
    qtbot.keyClicks(dialog.url_edit, sandbox.base_url)
    qtbot.keyClicks(dialog.token_entry.field, TOKEN)
    assert not dialog.url_notice.isVisible()
    with qtbot.waitSignal(dialog.connections_changed, timeout=10_000):
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert "Token accepted" in dialog.token_entry.result.text()
    assert memory_keyring.passwords[(SERVICE, "Local")] == TOKEN
