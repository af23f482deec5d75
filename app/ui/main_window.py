"""The main window: connection in use, the DNC / SMS opt-out / journal tabs, menus, status.

The window owns the flows between the parts: opening the stores at start, choosing a
connection, asking for a token when the service rejects one (then retrying what the user
was doing), and starting or resetting the local sandbox. Every file, keyring, network and
process operation runs through the :class:`TaskRunner`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from PySide6.QtCore import QByteArray, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMessageBox,
    QSizePolicy,
    QStackedWidget,
    QStyle,
    QTabWidget,
    QToolBar,
    QWidget,
)

from app.api import errors
from app.api.client import ApiClient, cleartext_refusal, plain_http_host
from app.core.connections import Connection
from app.core.journal import ChainVerdict
from app.core.paths import AppPaths
from app.core.sandbox_launcher import DEFAULT_START_TIMEOUT, SandboxProcess
from app.core.session import Session
from app.core.tokens import StorageKind, TokenStoreError
from app.ui.app_state import SANDBOX_CONNECTION, AppState, Backend, open_backend
from app.ui.connection_dialog import ConnectionsDialog
from app.ui.error_messages import user_message
from app.ui.first_run import FirstRunWidget
from app.ui.journal_view import JournalView
from app.ui.plain_text import literal, plain_label, rich, window_title
from app.ui.tasks import TaskContext, TaskRunner
from app.ui.theme import app_icon, bold
from app.ui.token_dialog import TokenDialog, ask_token

log = logging.getLogger(__name__)

APP_TITLE = "DNC Desk"
# (kind, tab label); kind is the ListKind value of app.ui.list_view.
LIST_TABS = (("dnc", "DNC list"), ("sms", "SMS opt-outs"))
JOURNAL_TAB = "Change journal"

ViewFactory = Callable[[str, TaskRunner, QWidget], QWidget]


def default_view_factory(kind: str, runner: TaskRunner, parent: QWidget) -> QWidget:
    """The real DNC / SMS opt-out list view."""
    from app.ui.list_view import EntryListView, ListKind

    return EntryListView(ListKind(kind), runner, parent)


def settings_for(paths: AppPaths) -> QSettings:
    """Window state lives next to the connections, in the config dir."""
    return QSettings(str(paths.config_dir / "dnc-desk.ini"), QSettings.Format.IniFormat)


class MainWindow(QMainWindow):
    """The window a compliance officer works in.

    Signals:
        session_ready(object): a :class:`Session` became active (also for the sandbox).
        backend_ready(): the connection list, keyring and journal are open.
        sandbox_failed(str): the sandbox could not be started; the text says why.
    """

    session_ready = Signal(object)
    backend_ready = Signal()
    sandbox_failed = Signal(str)

    PAGE_LOADING, PAGE_FIRST_RUN, PAGE_TABS = range(3)

    def __init__(
        self,
        paths: AppPaths,
        *,
        runner: TaskRunner | None = None,
        view_factory: ViewFactory = default_view_factory,
        sandbox_timeout: float = DEFAULT_START_TIMEOUT,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.paths = paths
        self.settings = settings_for(paths)
        self.runner = runner if runner is not None else TaskRunner(self)
        self.state = AppState(self)
        self.state.session_changed.connect(self._on_session_changed)
        self._sandbox_timeout = sandbox_timeout
        self._want_sandbox = False
        self._busy: set[int] = set()
        self._pending_retries: list[Callable[[], None]] = []
        self.token_dialog: TokenDialog | None = None
        self.connections_dialog: ConnectionsDialog | None = None
        self.cleartext_dialog: QMessageBox | None = None
        self._shut_down = False
        self._sandbox_starting = False

        self.setWindowIcon(app_icon())
        self.resize(1200, 760)

        self.stack = QStackedWidget(self)
        self.loading_label = QLabel("Opening DNC Desk…", self)
        self.loading_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.loading_label.setWordWrap(True)
        bold(self.loading_label, 4)
        self.first_run = FirstRunWidget(self)
        self.first_run.add_connection_requested.connect(self.show_connections)
        self.first_run.try_sandbox_requested.connect(lambda: self.start_sandbox())
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.list_views: dict[str, QWidget] = {}
        for kind, label in LIST_TABS:
            view = view_factory(kind, self.runner, self.tabs)
            self.list_views[kind] = view
            self.tabs.addTab(view, label)
            self._wire_view(view)
        self.journal_view = JournalView(self.runner, self.tabs)
        self.tabs.addTab(self.journal_view, JOURNAL_TAB)
        self._wire_view(self.journal_view)
        self.journal_view.verdict_ready.connect(self._on_verdict)
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.stack.addWidget(self.loading_label)
        self.stack.addWidget(self.first_run)
        self.stack.addWidget(self.tabs)
        self.setCentralWidget(self.stack)

        self._build_actions()
        self._build_status_bar()
        self._update_title()
        # Import wizard, bulk removal, export, the Jobs tab, file drops, close-while-running.
        from app.ui.import_wizard_window import install_job_features

        self.job_features = install_job_features(self)
        # Campaigns & audit (launch gate), List health, Evidence, Snapshots tabs.
        from app.ui.audit_features import install_audit_features

        self.audit_features = install_audit_features(self)
        # After every tab exists, so the last tab is restored whichever it was.
        self._restore_state()
        self._update_actions()

    # ================================================================= building
    def _action(
        self,
        text: str,
        slot: Callable[[], Any],
        shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
        icon: QStyle.StandardPixmap | None = None,
        tip: str = "",
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if icon is not None:
            action.setIcon(self.style().standardIcon(icon))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        sp = QStyle.StandardPixmap
        self.act_connections = self._action(
            "&Connections…",
            self.show_connections,
            "Ctrl+K",
            sp.SP_DriveNetIcon,
            "Add, edit or choose the dialer connection and its API token",
        )
        self.act_export_journal = self._action(
            "&Export journal…",
            self.export_journal,
            None,
            sp.SP_DialogSaveButton,
            "Save the change journal (as filtered in its tab) to an xlsx file",
        )
        self.act_quit = self._action("&Quit", self.close, QKeySequence.StandardKey.Quit)
        self.act_add = self._action(
            "&Add entry…", lambda: self._dispatch("add_entry"), "Ctrl+N", sp.SP_FileIcon,
            "Add a number to the list shown",
        )  # fmt: skip
        self.act_delete = self._action(
            "&Delete selected…", lambda: self._dispatch("delete_selected"),
            QKeySequence.StandardKey.Delete, sp.SP_TrashIcon,
            "Remove the selected entries (asks first)",
        )  # fmt: skip
        # No window-wide Ctrl+C: the list's table owns that shortcut, and two actions with
        # one key make Qt trigger neither. The menu still shows the key.
        self.act_copy = self._action(
            "&Copy\tCtrl+C", lambda: self._dispatch("copy_selection"), None,
            None, "Copy the selected rows as tab-separated text",
        )  # fmt: skip
        self.act_find = self._action(
            "&Find", lambda: self._dispatch("focus_filter"), QKeySequence.StandardKey.Find,
            None, "Go to the filter bar",
        )  # fmt: skip
        self.act_refresh = self._action(
            "&Refresh", lambda: self._dispatch("refresh"), "F5", sp.SP_BrowserReload,
            "Search again with the current filter",
        )  # fmt: skip
        self.act_try_sandbox = self._action(
            "&Open the sandbox", lambda: self.start_sandbox(), None, None,
            "Start the local practice service with demo data and connect to it",
        )  # fmt: skip
        self.act_reset_sandbox = self._action(
            "&Reset demo data…", self.reset_sandbox, None, None,
            "Wipe the sandbox and restore its demo data",
        )  # fmt: skip
        self.act_about = self._action("&About DNC Desk", self.show_about)

        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        file_menu.addAction(self.act_connections)
        file_menu.addAction(self.act_export_journal)
        file_menu.addSeparator()
        file_menu.addAction(self.act_quit)
        edit_menu = menu.addMenu("&Edit")
        for action in (self.act_add, self.act_delete, self.act_copy, self.act_find):
            edit_menu.addAction(action)
        view_menu = menu.addMenu("&View")
        view_menu.addAction(self.act_refresh)
        sandbox_menu = menu.addMenu("&Sandbox")
        sandbox_menu.addAction(self.act_try_sandbox)
        sandbox_menu.addAction(self.act_reset_sandbox)
        help_menu = menu.addMenu("&Help")
        help_menu.addAction(self.act_about)

        toolbar = QToolBar("Main toolbar", self)
        toolbar.setObjectName("main-toolbar")
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toolbar.setMovable(False)
        toolbar_actions: tuple[QAction | None, ...] = (
            self.act_connections,
            None,
            self.act_refresh,
            self.act_add,
            self.act_delete,
            None,
            self.act_export_journal,
        )
        for item in toolbar_actions:
            if item is None:
                toolbar.addSeparator()
            else:
                toolbar.addAction(item)
        spacer = QWidget(toolbar)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        toolbar.addWidget(spacer)
        # The connection also shows here, where the eye is, not only in the status bar.
        self.toolbar_connection = plain_label(QLabel(toolbar))
        self.toolbar_connection.setContentsMargins(8, 0, 8, 0)
        bold(self.toolbar_connection, 1)
        toolbar.addWidget(self.toolbar_connection)
        self.addToolBar(toolbar)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.busy_label = QLabel(self)
        self.token_label = QLabel(self)
        self.token_label.hide()
        self.journal_label = QLabel("Journal: not checked yet", self)
        self.connection_label = plain_label(QLabel(self))
        bold(self.connection_label)
        bar.addPermanentWidget(self.busy_label)
        bar.addPermanentWidget(self.token_label)
        bar.addPermanentWidget(self.journal_label)
        bar.addPermanentWidget(self.connection_label)

    def _wire_view(self, view: QWidget) -> None:
        status = getattr(view, "status_message", None)
        if status is not None:
            # Only the tab in view speaks: a background tab's "searching…" under the DNC
            # list would describe the wrong list. Switching tabs shows its status_text().
            status.connect(
                lambda text: self.show_status(text) if self.tabs.currentWidget() is view else None
            )
        busy = getattr(view, "busy_changed", None)
        if busy is not None:
            key = id(view)
            busy.connect(lambda on: self._set_busy(key, bool(on)))
        auth = getattr(view, "auth_problem", None)
        if auth is not None:
            auth.connect(self.handle_auth_problem)
        for name in ("delete_action", "copy_action"):
            action = getattr(view, name, None)
            if isinstance(action, QAction):
                action.changed.connect(self._update_actions)

    # ================================================================= state
    def _restore_state(self) -> None:
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray | bytes):
            self.restoreGeometry(QByteArray(geometry))
        tab = self.settings.value("window/tab", 0)
        try:
            index = int(tab)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            index = 0
        if 0 <= index < self.tabs.count():
            self.tabs.setCurrentIndex(index)
        for view in self._views():
            restore = getattr(view, "restore_state", None)
            if restore is not None:
                restore(self.settings)

    def save_state(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/tab", self.tabs.currentIndex())
        for view in self._views():
            save = getattr(view, "save_state", None)
            if save is not None:
                save(self.settings)
        self.settings.sync()

    def _views(self) -> list[QWidget]:
        return [*self.list_views.values(), self.journal_view]

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Cancel background work, stop the sandbox, close the session and the journal.

        Called once the event loop has ended (it blocks while the sandbox process stops).
        """
        if self._shut_down:
            return
        self._shut_down = True
        self.runner.cancel_all()
        self.runner.wait(15_000)
        for view in self.list_views.values():
            setter = getattr(view, "set_session", None)
            if setter is not None:
                setter(None)
        self.journal_view.set_journal(None)
        self.runner.wait(15_000)
        self.state.close()

    # ================================================================= status
    def show_status(self, text: str, timeout_ms: int = 0) -> None:
        self.statusBar().showMessage(text, timeout_ms)

    def _set_busy(self, key: int, busy: bool) -> None:
        if busy:
            self._busy.add(key)
        else:
            self._busy.discard(key)
        self.busy_label.setText("Working…" if self._busy else "")

    def _update_title(self) -> None:
        session = self.state.session
        if session is None:
            self.setWindowTitle(f"{APP_TITLE} — no connection")
            self.connection_label.setText("Not connected")
            self.toolbar_connection.setText("Not connected")
            self.connection_label.setToolTip("Choose a connection: File ▸ Connections…")
            self.toolbar_connection.setToolTip(self.connection_label.toolTip())
            return
        conn = session.connection
        self.setWindowTitle(window_title(f"{APP_TITLE} — {conn.name} ({conn.base_url})"))
        self.connection_label.setText(f"Connected to: {conn.name} ({conn.base_url})")
        backend = self.state.backend
        if conn.name == SANDBOX_CONNECTION and backend is not None and backend.sandbox is not None:
            self.toolbar_connection.setText("Sandbox — demo data on this computer")
        else:
            self.toolbar_connection.setText(f"{conn.name} — {conn.base_url}")
        tip = "Every search and change goes to this service. Switch with File ▸ Connections…"
        self.connection_label.setToolTip(tip)
        self.toolbar_connection.setToolTip(tip)

    def _update_actions(self) -> None:
        has_session = self.state.session is not None
        current = self.tabs.currentWidget()
        on_list = current in self.list_views.values()
        on_tabs = self.stack.currentIndex() == self.PAGE_TABS
        self.act_add.setEnabled(on_tabs and on_list and has_session)
        # A view may say more precisely what is possible (nothing selected, or a list the
        # service cannot remove from): its own action's state and tooltip win then.
        view_delete = getattr(current, "delete_action", None) if on_list else None
        view_copy = getattr(current, "copy_action", None) if on_list else None
        self.act_delete.setEnabled(
            on_tabs
            and on_list
            and has_session
            and (not isinstance(view_delete, QAction) or view_delete.isEnabled())
        )
        delete_tip = "Remove the selected entries (asks first)"
        if isinstance(view_delete, QAction) and view_delete.toolTip():
            delete_tip = view_delete.toolTip()
        self.act_delete.setToolTip(delete_tip)
        self.act_delete.setStatusTip(delete_tip)
        self.act_copy.setEnabled(
            on_tabs and on_list and (not isinstance(view_copy, QAction) or view_copy.isEnabled())
        )
        self.act_find.setEnabled(on_tabs)
        self.act_refresh.setEnabled(on_tabs)
        self.act_export_journal.setEnabled(self.state.backend is not None)
        self.act_connections.setEnabled(self.state.backend is not None)
        sandbox = self.state.backend.sandbox if self.state.backend is not None else None
        self.act_reset_sandbox.setEnabled(sandbox is not None)
        self.act_try_sandbox.setEnabled(self.state.backend is not None)

    def _on_tab_changed(self, _index: int) -> None:
        self._update_actions()
        if self.tabs.currentWidget() is self.journal_view and self.state.backend is not None:
            # Writes made in the other tabs since the last look belong in the list, and
            # the verdict shown should cover them.
            self.journal_view.refresh()
            self.journal_view.verify_if_stale()
        # The status bar otherwise keeps the previous tab's "1,010 matches" under the new tab.
        status_text = getattr(self.tabs.currentWidget(), "status_text", None)
        if callable(status_text):
            self.show_status(str(status_text()))
        else:
            self.statusBar().clearMessage()

    def _dispatch(self, method: str) -> None:
        if self.stack.currentIndex() != self.PAGE_TABS:
            return
        view = self.tabs.currentWidget()
        target = getattr(view, method, None)
        if callable(target):
            target()

    def _show_page(self, page: int, loading_text: str = "") -> None:
        if loading_text:
            self.loading_label.setText(loading_text)
        self.stack.setCurrentIndex(page)
        self._update_actions()

    # ================================================================= start
    def start(self, *, sandbox: bool = False) -> None:
        """Open the stores off the GUI thread, verify the journal, then connect."""
        self._want_sandbox = sandbox
        self._show_page(self.PAGE_LOADING, "Opening the change journal and your connections…")
        self.show_status("Opening the change journal and your connections…")
        paths = self.paths
        self.runner.submit(
            "Open the stores",
            lambda _ctx: open_backend(paths),
            on_done=self._on_backend_ready,
            on_error=self._on_backend_failed,
        )

    def _on_backend_ready(self, backend: Backend) -> None:
        if self._shut_down:
            backend.journal.close()
            return
        self.state.backend = backend
        self.journal_view.set_journal(backend.journal)
        self.journal_view.verify()
        self.backend_ready.emit()
        self._update_actions()
        connections = backend.connections
        if self._want_sandbox:
            self.start_sandbox()
        elif connections.active is not None:
            self.activate_connection(connections.active)
        elif not connections.list():
            self._show_page(self.PAGE_FIRST_RUN)
            self.show_status("No connection yet: try the sandbox or add a connection.")
        else:
            self._show_page(self.PAGE_TABS)
            self.show_status("Choose a connection: File ▸ Connections…")
            self.show_connections()

    def _on_backend_failed(self, exc: BaseException) -> None:
        text = str(exc) if not isinstance(exc, OSError) else user_message(exc, "Opening").text
        self._show_page(self.PAGE_LOADING, f"DNC Desk could not start.\n\n{text}")
        self.show_status(text)
        QMessageBox.critical(self, "DNC Desk could not start", literal(text))

    def _on_verdict(self, verdict: ChainVerdict) -> None:
        if verdict.ok:
            noun = "entry" if verdict.rows == 1 else "entries"
            self.journal_label.setText(
                f"Journal verified intact at {datetime.now():%H:%M} ({verdict.rows:,} {noun})"
            )
            self.journal_label.setToolTip(literal(verdict.message))
            return
        self.journal_label.setText("Journal: ALTERED — see the Change journal tab")
        self.journal_label.setToolTip(literal(verdict.message))
        self.show_status(verdict.message)
        QMessageBox.warning(
            self,
            "The change journal was altered",
            literal(
                f"{verdict.message}\n\nDNC Desk keeps recording new changes, but the entries "
                "from the altered point on cannot be trusted as a record. Keep a copy of the "
                f"journal file ({self.paths.journal_db}) and tell whoever is responsible for "
                "compliance records."
            ),
        )

    # ================================================================= connections
    def show_connections(self, select: str | None = None) -> None:
        """Open File ▸ Connections…, on the connection named ``select`` (else the active one)."""
        backend = self.state.backend
        if backend is None:
            return
        dialog = ConnectionsDialog(
            backend.connections, backend.tokens, self.runner, self, select=select
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.connection_chosen.connect(self.activate_connection)
        dialog.connections_changed.connect(self._on_connections_changed)
        dialog.token_replaced.connect(self._on_token_replaced)
        dialog.finished.connect(lambda _result: setattr(self, "connections_dialog", None))
        self.connections_dialog = dialog
        dialog.open()

    def _on_connections_changed(self) -> None:
        backend = self.state.backend
        session = self.state.session
        if backend is None or session is None:
            return
        current = backend.connections.get(session.connection.name)
        renamed = backend.connections.active
        if current is None and renamed is not None:
            # A rename keeps the connection active under its new name (token moved with it).
            self.activate_connection(renamed)
        elif current is None:
            self.state.deactivate()
            self.show_status(f"{session.connection.name} was removed; choose a connection.")
        elif current.base_url != session.connection.base_url:
            self.activate_connection(current)

    def _on_token_replaced(self, connection: Connection, token: str) -> None:
        session = self.state.session
        backend = self.state.backend
        if session is not None and session.connection.name == connection.name and backend:
            storage = StorageKind.KEYRING if backend.tokens.recommended else StorageKind.MEMORY
            self._use(connection, token, storage)

    def activate_connection(self, connection: Connection) -> None:
        """Work with ``connection``: fetch its token (keyring) and open a session, asking
        for the token when none is stored; plain http:// to another computer is refused first."""
        backend = self.state.backend
        if backend is None or self._refuse_cleartext(connection):
            return
        if connection.name == SANDBOX_CONNECTION and (
            backend.sandbox is None or not backend.sandbox.running
        ):
            # The sandbox's port and token change per launch; using it means starting it.
            self.start_sandbox()
            return
        tokens = backend.tokens
        self.show_status(f"Opening {connection.name}…")

        def work(_ctx: TaskContext) -> tuple[str | None, StorageKind | None]:
            token = tokens.get(connection.name)
            return token, (tokens.storage_of(connection.name) if token else None)

        def done(result: tuple[str | None, StorageKind | None]) -> None:
            token, storage = result
            if token:
                self._use(connection, token, storage)
            else:
                self.ask_for_token(connection, "No token is stored for this connection yet.")

        def failed(exc: BaseException) -> None:
            reason = str(exc) if isinstance(exc, TokenStoreError) else f"{exc}"
            self.ask_for_token(connection, reason)

        self.runner.submit("Read the token", work, on_done=done, on_error=failed)

    def ask_for_token(
        self, connection: Connection, reason: str, then: Callable[[], None] | None = None
    ) -> None:
        """Open the token dialog for ``connection``; once a token is saved, switch to it and
        run ``then`` (and any retries queued while the dialog was open)."""
        backend = self.state.backend
        if backend is None or self._refuse_cleartext(connection):
            return
        if then is not None:
            self._pending_retries.append(then)
        if self.token_dialog is not None and self.token_dialog.isVisible():
            return
        if self.stack.currentIndex() == self.PAGE_LOADING:
            self._show_page(self.PAGE_TABS)

        def run_retries() -> None:
            retries, self._pending_retries = self._pending_retries, []
            for retry in retries:
                retry()

        def on_token(token: str, storage: StorageKind | None) -> None:
            self._use(connection, token, storage, then=run_retries)

        self.show_status(f"Waiting for the API token of {connection.name}…")
        dialog = ask_token(self, connection, backend.tokens, self.runner, on_token, reason=reason)
        dialog.rejected.connect(self._pending_retries.clear)
        dialog.rejected.connect(
            lambda: self.show_status(
                f"No token entered for {connection.name}; enter it with File ▸ Connections… "
                "(Replace token)."
            )
        )
        dialog.finished.connect(lambda _result: setattr(self, "token_dialog", None))
        self.token_dialog = dialog

    def _refuse_cleartext(self, connection: Connection) -> bool:
        """Whether ``connection`` is plain http:// to another computer (saved so by an earlier
        version: black-box R5 #9), said then in a dialog with a way to fix it.

        Checked before the keyring is read or a token asked for: a token asked for such a
        connection could never be sent, and a refusal in the status bar alone left an empty
        window with no reason in view (X3). Nothing here touches a file or the network.
        """
        host = plain_http_host(connection.base_url)
        if host is None:
            return False
        self.show_status(
            f"{connection.name} is not opened: {cleartext_refusal(host)}. Change its address "
            "in File ▸ Connections…"
        )
        if self.stack.currentIndex() == self.PAGE_LOADING:
            self._show_page(self.PAGE_TABS)
        if self.cleartext_dialog is not None:
            return True
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Connection not opened")
        # The name and address are as typed.
        box.setText(
            literal(
                f'The saved connection "{connection.name}" uses plain http to another computer '
                f"({connection.base_url})."
            )
        )
        box.setInformativeText(
            literal(
                "DNC Desk will not send its API token unencrypted across the network, so it did "
                f"not connect to {connection.name} and sent nothing.\n\n"
                f"To fix it: File ▸ Connections…, select {connection.name}, change its address to "
                "the service's https://… address and Save. (Plain http:// is only for a test "
                "service on this computer: localhost, 127.0.0.1 or ::1.)\n\n"
                "Meanwhile you can use another connection or the sandbox (Sandbox ▸ Open the "
                "sandbox)."
            )
        )
        fix = box.addButton("Open Connections…", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Close)
        box.setDefaultButton(fix)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        name = connection.name
        fix.clicked.connect(lambda _checked=False: self._fix_connection(name))
        box.finished.connect(lambda _result: setattr(self, "cleartext_dialog", None))
        self.cleartext_dialog = box
        # open(), not exec(): modal to the window without a nested event loop in start-up.
        box.open()
        return True

    def _fix_connection(self, name: str) -> None:
        """The connections dialog on ``name``, its address ready to be changed."""
        self.show_connections(select=name)
        dialog = self.connections_dialog
        if dialog is not None:
            dialog.url_edit.setFocus()
            dialog.url_edit.selectAll()

    def handle_auth_problem(self, exc: object, retry: Callable[[], None]) -> None:
        """A view's request was refused because of the token: say which problem it is, ask
        for a new token for the active connection, then retry the request."""
        if not isinstance(exc, BaseException):
            return
        message = user_message(exc, "Your last action")
        session = self.state.session
        if isinstance(exc, errors.PermissionDeniedError) or not message.needs_token:
            QMessageBox.warning(self, message.title, literal(message.text))
            return
        if session is None:
            return
        self.show_status(message.text)
        self.ask_for_token(session.connection, message.text, retry)

    def _use(
        self,
        connection: Connection,
        token: str,
        storage: StorageKind | None,
        then: Callable[[], None] | None = None,
    ) -> None:
        """Open a session on ``connection``; ``then`` runs once the views have it."""
        if self._refuse_cleartext(connection):
            return
        self.show_status(f"Connecting to {connection.name}…")
        self.runner.submit(
            "Connect",
            lambda _ctx: ApiClient(connection.base_url, token),
            on_done=lambda api: self._activate(connection, api, storage, then),
            on_error=lambda exc: self.show_status(user_message(exc, "Connecting").text),
        )

    def _activate(
        self,
        connection: Connection,
        api: ApiClient,
        storage: StorageKind | None,
        then: Callable[[], None] | None,
    ) -> None:
        backend = self.state.backend
        if backend is None or self._shut_down:
            api.close()
            return
        self.state.activate(connection, api)
        is_sandbox = backend.sandbox is not None and connection.name == SANDBOX_CONNECTION
        if storage is StorageKind.MEMORY and not is_sandbox:
            self.token_label.setText("Token kept in memory only")
            self.token_label.setToolTip(
                "No secure system keyring is available (or it refused the token): the token "
                "is kept in memory for this session only and must be entered again next time."
            )
            self.token_label.show()
        else:
            self.token_label.hide()
        store = backend.connections
        if store.active_name != connection.name:
            self.runner.submit(
                "Remember the connection",
                lambda _ctx: store.set_active(connection.name),
                on_error=lambda exc: self.show_status(f"Could not remember the connection: {exc}"),
            )
        self._show_page(self.PAGE_TABS)
        note = (
            " The token is kept in memory for this session only."
            if (storage is StorageKind.MEMORY and not is_sandbox)
            else ""
        )
        self.show_status(f"Connected to {connection.name} ({connection.base_url}).{note}")
        if then is not None:
            then()

    def _on_session_changed(self, session: Session | None) -> None:
        for view in self.list_views.values():
            setter = getattr(view, "set_session", None)
            if setter is not None:
                setter(session)
        self._update_title()
        self._update_actions()
        if session is not None:
            self.session_ready.emit(session)

    # ================================================================= sandbox
    def start_sandbox(self, *, reset: bool = False) -> None:
        """Start (or restart) the local sandbox in a child process and connect to it."""
        backend = self.state.backend
        if backend is None:
            self._want_sandbox = True
            return
        if self._sandbox_starting:
            return
        self._sandbox_starting = True
        text = "Resetting the sandbox demo data…" if reset else "Starting the sandbox…"
        if self.stack.currentIndex() == self.PAGE_FIRST_RUN:
            self.first_run.set_busy(text)
        else:
            self._show_page(self.PAGE_LOADING, text)
        self.show_status(text)
        self._set_busy(id(self.first_run), True)
        old = backend.sandbox
        backend.sandbox = None
        if old is not None and self.state.session is not None:
            self.state.deactivate()
        self.act_try_sandbox.setEnabled(False)
        self.act_reset_sandbox.setEnabled(False)
        store, tokens, db_path, timeout = (
            backend.connections,
            backend.tokens,
            self.paths.sandbox_db,
            self._sandbox_timeout,
        )

        def work(_ctx: TaskContext) -> SandboxProcess:
            if old is not None:
                old.stop()
            process = SandboxProcess.start(db_path, reset=reset, timeout=timeout)
            try:
                store.save(Connection(SANDBOX_CONNECTION, process.base_url))
                store.set_active(SANDBOX_CONNECTION)
                tokens.keep_in_memory(SANDBOX_CONNECTION, process.token)
            except BaseException:
                process.stop()
                raise
            return process

        self.runner.submit(
            "Start the sandbox", work, on_done=self._on_sandbox_started,
            on_error=self._on_sandbox_failed,
        )  # fmt: skip

    def _on_sandbox_started(self, process: SandboxProcess) -> None:
        self._sandbox_starting = False
        backend = self.state.backend
        self._set_busy(id(self.first_run), False)
        self.first_run.set_busy("")
        if backend is None or self._shut_down:
            process.stop()
            return
        backend.sandbox = process
        connection = Connection(SANDBOX_CONNECTION, process.base_url)
        self._use(
            connection,
            process.token,
            StorageKind.MEMORY,
            then=lambda: self.show_status(
                f"Connected to the sandbox at {process.base_url}: demo data on this computer "
                "only; nothing reaches your dialer."
            ),
        )

    def _on_sandbox_failed(self, exc: BaseException) -> None:
        self._sandbox_starting = False
        self._set_busy(id(self.first_run), False)
        self.first_run.set_busy("")
        text = (
            str(exc)
            if isinstance(exc, RuntimeError | OSError)
            else user_message(exc, "Starting the sandbox").text
        )
        self.show_status("The sandbox could not be started.")
        backend = self.state.backend
        if backend is not None and not backend.connections.list():
            self._show_page(self.PAGE_FIRST_RUN)
        else:
            self._show_page(self.PAGE_TABS)
        self.sandbox_failed.emit(text)
        QMessageBox.critical(self, "The sandbox could not be started", literal(text))

    def reset_sandbox(self) -> None:
        backend = self.state.backend
        if backend is None or backend.sandbox is None:
            QMessageBox.information(
                self,
                "Sandbox not running",
                "The sandbox is not running. Open it first: Sandbox ▸ Open the sandbox.",
            )
            return
        answer = QMessageBox.question(
            self,
            "Reset the sandbox demo data",
            "Wipe every change made in the sandbox and restore its demo data?\n\nOnly the "
            "local sandbox is affected; your real connections are not touched. The change "
            "journal keeps its record of the sandbox changes.",
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self.start_sandbox(reset=True)

    # ================================================================= misc
    def export_journal(self) -> None:
        self.tabs.setCurrentWidget(self.journal_view)
        self._show_page(self.PAGE_TABS)
        self.journal_view.export()

    def show_about(self) -> None:
        QMessageBox.about(
            self,
            "About DNC Desk",
            "<b>DNC Desk</b><p>Keeps a dialer's do-not-call list and SMS opt-outs right: "
            "search, add, correct and remove entries, with every change recorded in a "
            f"hash-chained journal.</p><p>Journal: {rich(self.paths.journal_db)}</p>",
        )
