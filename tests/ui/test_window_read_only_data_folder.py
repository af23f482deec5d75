"""The window's start on a data folder that exists but cannot be written says so in one sentence
naming the folder, what it had to write and what to do (black-box B35 F5/F6: it said the change
journal "cannot be opened (unable to open database file); check the disk and the file's
permissions", SQLite's words and advice that does not help a read-only disk)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.ui.main_window import MainWindow
from tests.core.test_data_folder_unusable import unwritable


def test_first_start_on_an_unwritable_data_folder(
    qtbot: Any,
    paths: AppPaths,
    make_window: Callable[..., MainWindow],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ChangeJournal(paths.journal_db).close()  # a data folder in use: its journal is there
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda _p, _t, text, *a, **k: shown.append(text))
    with unwritable(paths.data_dir) as why:
        window = make_window()
        window.start()
        # Generous: a CI run with the machine loaded by other work timed out at 10 s.
        qtbot.waitUntil(lambda: bool(shown), timeout=30000)
    assert len(shown) == 1
    assert shown[0].startswith(
        f"The data folder {paths.data_dir} (DNC_DESK_DATA_DIR) cannot be used to write the "
        f"change journal: {why}; nothing was sent. Point DNC_DESK_DATA_DIR at a folder that "
        "can be written, or "
    )
    assert "unable to open" not in shown[0]
    assert window.state.backend is None
