"""``run_gui``: the desktop application's start and end."""

from __future__ import annotations

import logging
import signal
import sys
from types import FrameType

from PySide6.QtCore import QCoreApplication, QEvent, QTimer
from PySide6.QtWidgets import QApplication

from app.core.paths import AppPaths
from app.core.redaction import install_log_redaction
from app.ui.main_window import MainWindow
from app.ui.theme import apply_theme

log = logging.getLogger(__name__)


def create_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication with DNC Desk's names, icon and style (reused if one exists)."""
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(argv or sys.argv[:1])
    app.setApplicationName("DNC Desk")
    app.setOrganizationName("DNC Desk")
    app.setDesktopFileName("dnc-desk")
    apply_theme(app)
    return app


def run_gui(sandbox: bool) -> int:
    """Open the window; with ``sandbox`` start the local sandbox and connect to it.

    Returns the process exit code.
    """
    install_log_redaction()
    app = create_application()
    paths = AppPaths.default()
    window = MainWindow(paths)
    window.show()
    window.start(sandbox=sandbox)

    def close_window(signum: int, frame: FrameType | None) -> None:
        # Ctrl+C in the terminal or a session logout: close like the user would, so the
        # window state is saved and the sandbox stopped.
        window.close()

    # A Ctrl+C ignored by whoever started the window (a job started in the background by a
    # shell, ``nohup``) is meant for the foreground, not for it; SIGTERM is always someone
    # stopping it on purpose.
    stop_signals = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        stop_signals.append(signal.SIGINT)
    previous = {sig: signal.signal(sig, close_window) for sig in stop_signals}
    # Python runs signal handlers only between bytecodes; a timer gives it the chance while
    # the Qt loop is idle.
    wake = QTimer()
    wake.timeout.connect(lambda: None)
    wake.start(300)
    try:
        code = app.exec()
    finally:
        wake.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        # Stops the sandbox child process and closes the journal even if the loop raised.
        window.shutdown()
        # Deleted now, not left to the process's end: its signal connections keep it alive, and
        # a process that opens the window again (a test worker) found the hidden one of the run
        # before among its windows, taken for the new one (test_window_ignored_sigint).
        window.deleteLater()
        QCoreApplication.sendPostedEvents(window, QEvent.Type.DeferredDelete)
    return int(code)
