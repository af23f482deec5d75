"""What the window works with: paths, stores, the journal, the active session, the sandbox.

Kept apart from the widgets so flows (activate a connection, replace a token, restart the
sandbox) can be reasoned about without a window. Everything here is created on a worker
thread by :func:`open_backend` (it reads files and the keyring) and then used from the GUI
thread; the objects it holds are thread-safe for the background tasks that use them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Signal

from app.api.client import ApiClient
from app.core.connections import Connection, ConnectionStore
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.sandbox_launcher import SandboxProcess
from app.core.session import Session
from app.core.tokens import TokenStore

SANDBOX_CONNECTION = "Sandbox"


@dataclass
class Backend:
    """The stores opened at start (off the GUI thread)."""

    paths: AppPaths
    connections: ConnectionStore
    tokens: TokenStore
    journal: ChangeJournal
    sandbox: SandboxProcess | None = field(default=None)


def open_backend(paths: AppPaths) -> Backend:
    """Open the connection list, the keyring and the change journal (blocking I/O)."""
    paths.ensure()
    paths.check_writable()
    return Backend(
        paths=paths,
        connections=ConnectionStore(paths.connections_file),
        tokens=TokenStore(),
        journal=ChangeJournal(paths.journal_db),
    )


class AppState(QObject):
    """Holds the backend and the session of the active connection.

    Signals:
        session_changed(object): the new :class:`Session`, or None when there is none.
    """

    session_changed = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.backend: Backend | None = None
        self.session: Session | None = None

    def activate(self, connection: Connection, api: ApiClient) -> Session:
        """Make ``connection`` (with a client built off the GUI thread: it loads the TLS
        certificates) the one every view uses."""
        if self.backend is None:
            raise RuntimeError("the stores are not open yet")
        session = Session(connection, api, self.backend.journal)
        old, self.session = self.session, session
        self.session_changed.emit(session)
        if old is not None:
            old.close()
        return session

    def deactivate(self) -> None:
        old, self.session = self.session, None
        self.session_changed.emit(None)
        if old is not None:
            old.close()

    def close(self) -> None:
        """Close the session, stop the sandbox and close the journal; safe to repeat."""
        if self.session is not None:
            self.session.close()
            self.session = None
        backend = self.backend
        if backend is None:
            return
        if backend.sandbox is not None:
            backend.sandbox.stop()
            backend.sandbox = None
        backend.journal.close()
