"""``run_gui``: the desktop application's start and end."""

from __future__ import annotations

import logging
import sys

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
    try:
        code = app.exec()
    finally:
        # Stops the sandbox child process and closes the journal even if the loop raised.
        window.shutdown()
    return int(code)
