"""A dialog closed while its background task runs: the task's answer must not reach it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import keyring
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.core.connections import Connection, ConnectionStore
from app.core.paths import AppPaths
from app.core.tokens import TokenStore
from app.ui.connection_dialog import ConnectionsDialog
from app.ui.tasks import TaskRunner
from tests.conftest import MemoryKeyring


class SlowKeyring(MemoryKeyring):
    """A keyring whose read waits until the test lets it go (a locked keyring's prompt)."""

    def __init__(self) -> None:
        super().__init__()
        self.reading = threading.Event()
        self.release = threading.Event()

    def get_password(self, service: str, username: str) -> str | None:
        self.reading.set()
        self.release.wait(10)
        return super().get_password(service, username)


@pytest.fixture
def slow_keyring() -> Iterator[SlowKeyring]:
    backend = SlowKeyring()
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    yield backend
    backend.release.set()
    keyring.set_keyring(previous)


def test_closing_connections_while_the_token_look_up_runs_raises_nothing(
    qtbot: Any, paths: AppPaths, slow_keyring: SlowKeyring
) -> None:
    # Black-box X3's side finding: the look-up's answer reached the deleted dialog's label
    # ("Internal C++ object (QLabel) already deleted") when File > Connections was closed first.
    store = ConnectionStore(paths.connections_file)
    store.save(Connection("Local", "http://127.0.0.1:9"))
    runner = TaskRunner()
    dialog = ConnectionsDialog(store, TokenStore(), runner)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    assert slow_keyring.reading.wait(10), "the dialog never looked the token up"
    dialog.close()
    qtbot.waitUntil(lambda: not _alive(dialog))
    slow_keyring.release.set()
    assert runner.wait(10_000)
    # The answer is delivered through the event loop: let it arrive (pytest-qt fails the test
    # on an exception raised in a slot).
    for _ in range(5):
        QApplication.processEvents()
        qtbot.wait(20)


def _alive(widget: Any) -> bool:
    from shiboken6 import Shiboken

    QApplication.sendPostedEvents(None, 0)  # runs the deferred delete of WA_DeleteOnClose
    return bool(Shiboken.isValid(widget))
