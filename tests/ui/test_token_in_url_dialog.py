"""The connection dialog refuses a base URL holding the token typed beside it (black-box N2 #1:
a URL is written into the connections file, reports and the journal, where a token never may
be): nothing is saved, the token is not sent for checking, and the message says why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from app.core.paths import AppPaths
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN
from tests.ui.test_connections_ui import files_containing, fill, make_dialog, runner

__all__ = ["runner"]  # the fixture, used by name


def test_a_url_holding_the_typed_token_is_refused(
    qtbot: Any, paths: AppPaths, runner: TaskRunner, sandbox: Any, memory_keyring: Any
) -> None:
    dialog = make_dialog(qtbot, paths, runner)
    fill(qtbot, dialog, "Gateway", f"{sandbox.base_url}/{TOKEN}", TOKEN)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.message.text().startswith("The base URL holds the API token:")
    assert "the token only in the token field." in dialog.message.text()
    assert memory_keyring.passwords == {}
    assert not paths.connections_file.exists()
    assert files_containing(Path(paths.config_dir), TOKEN) == []
    assert dialog.save_button.isEnabled()
