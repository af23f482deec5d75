"""The window started with Ctrl+C ignored (a shell's background job, ``nohup``) stays open through
a SIGINT meant for the foreground, and still closes itself cleanly on SIGTERM."""

from __future__ import annotations

import os
import signal
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.core.paths import AppPaths
from app.ui.main_window import MainWindow


def main_windows() -> list[MainWindow]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]


def test_a_window_started_with_sigint_ignored_stays_open_and_closes_on_sigterm(
    qtbot: Any, paths: AppPaths
) -> None:
    from app.ui.application import run_gui

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    seen: dict[str, Any] = {}
    # Windows of earlier tests in this worker are not the one run_gui opens: one of them,
    # hidden, taken for it ("no sandbox" until the guard quit) failed this test in full runs.
    earlier = main_windows()
    ended = False  # run_gui returned: the timers below must not act on a later test's window

    def window() -> MainWindow | None:
        opened = [w for w in main_windows() if w not in earlier]
        return opened[0] if opened else None

    def after_sigint() -> None:
        if ended:
            return
        shown = window()
        seen["open after SIGINT"] = shown is not None and shown.isVisible()
        os.kill(os.getpid(), signal.SIGTERM)

    def poll() -> None:
        if ended:
            return
        shown = window()
        seen["polled"] = (
            "no window"
            if shown is None
            else "no backend"
            if shown.state.backend is None
            else "no sandbox"
            if shown.state.backend.sandbox is None
            else "ready"
        )
        if seen["polled"] != "ready":
            QTimer.singleShot(50, poll)
            return
        os.kill(os.getpid(), signal.SIGINT)
        # The window's wake-up timer runs Python's handlers every 300 ms: a SIGINT taken would
        # have closed it well before this.
        QTimer.singleShot(1500, after_sigint)

    QTimer.singleShot(0, poll)
    # A hung start must not hang the suite; generous, as a loaded machine (four test workers
    # on two CPUs) took over 20 s to start the window and its sandbox once.
    # Its own timer, stopped when the window is done: a pending single shot would quit a later
    # test's window in the same worker.
    guard = QTimer()
    guard.setSingleShot(True)
    guard.timeout.connect(lambda: seen.setdefault("guard", True))
    guard.timeout.connect(QApplication.quit)
    guard.start(90_000)
    try:
        assert run_gui(sandbox=True) == 0
    finally:
        ended = True
        guard.stop()
        signal.signal(signal.SIGINT, before)
    assert seen.get("open after SIGINT") is True, seen
    assert (paths.config_dir / "dnc-desk.ini").exists()
    # The window is gone with its run, not left hidden among the process's windows.
    assert window() is None
