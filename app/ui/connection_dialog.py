"""Add, edit and remove connections, and manage each one's token.

Connections (name + base URL) are saved to the config dir; tokens only ever go to the
keyring (or memory) through :class:`~app.ui.token_dialog.TokenEntry`, after the service
accepted them. File and keyring access runs in background tasks.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.connections import (
    Connection,
    ConnectionConfigError,
    ConnectionStore,
    cleartext_problem,
    connection_url_problem,
    token_in_url,
    url_warning,
)
from app.core.tokens import StorageKind, TokenStore
from app.ui.app_state import SANDBOX_CONNECTION
from app.ui.plain_text import literal, plain_label
from app.ui.tasks import TaskRunner
from app.ui.theme import Banner, bold
from app.ui.token_dialog import (
    TokenEntry,
    TokenOutcome,
    ask_token,
    memory_only_notice,
    outcome_text,
)

_STORAGE_TEXT = {
    StorageKind.KEYRING: "Token: stored in the system keyring.",
    StorageKind.MEMORY: "Token: kept in memory for this session only.",
    None: "Token: none saved — you will be asked for it when you use this connection.",
}


class ConnectionsDialog(QDialog):
    """The File ▸ Connections… dialog.

    Signals:
        connection_chosen(object): the :class:`Connection` to work with ("Use this connection").
        connections_changed(): a connection was added, changed or removed.
        token_replaced(object, str): (connection, token) after "Replace token" for the
            active connection's session to pick it up.
    """

    connection_chosen = Signal(object)
    connections_changed = Signal()
    token_replaced = Signal(object, str)

    def __init__(
        self,
        connections: ConnectionStore,
        tokens: TokenStore,
        runner: TaskRunner,
        parent: QWidget | None = None,
        *,
        select: str | None = None,
    ) -> None:
        """``select`` names the connection shown first (else the active one)."""
        super().__init__(parent)
        self._store = connections
        self._tokens = tokens
        self._runner = runner
        self._editing: Connection | None = None
        self._pending: Connection | None = None
        self._saved_text: tuple[str, str] = ("", "info")
        self.token_dialog: QDialog | None = None
        self.setWindowTitle("Connections")
        self.resize(820, 480)

        self.keyring_notice = Banner(self)
        if not tokens.recommended:
            self.keyring_notice.show_message(memory_only_notice(tokens), "warning")

        self.list = QListWidget(self)
        self.list.setAccessibleName("Connections")
        self.list.currentItemChanged.connect(self._on_current_changed)
        self.new_button = QPushButton("New connection", self)
        self.new_button.clicked.connect(self.new_connection)
        self.remove_button = QPushButton("Remove…", self)
        self.remove_button.clicked.connect(self._remove)
        left = QVBoxLayout()
        left.addWidget(self.list, 1)
        row = QHBoxLayout()
        row.addWidget(self.new_button)
        row.addWidget(self.remove_button)
        left.addLayout(row)

        self.heading = plain_label(QLabel(self))
        bold(self.heading, 1)
        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText("Production")
        self.url_edit = QLineEdit(self)
        self.url_edit.setPlaceholderText("https://api.example.com")
        self.url_edit.textChanged.connect(self._update_url_warning)
        self.url_notice = Banner(self)
        self.token_entry = TokenEntry(tokens, runner, self)
        self.token_entry.saved.connect(self._on_token_saved)
        self.token_entry.failed.connect(lambda _text: self._set_busy(False))
        self.token_state = plain_label(QLabel(self))
        self.token_state.setWordWrap(True)
        self.replace_button = QPushButton("Replace token…", self)
        self.replace_button.clicked.connect(self._replace_token)
        self.forget_button = QPushButton("Forget token…", self)
        self.forget_button.clicked.connect(self._forget_token)
        token_buttons = QHBoxLayout()
        token_buttons.addWidget(self.replace_button)
        token_buttons.addWidget(self.forget_button)
        token_buttons.addStretch(1)
        form = QFormLayout()
        form.addRow("Name:", self.name_edit)
        form.addRow("Base URL:", self.url_edit)
        form.addRow("", self.url_notice)
        form.addRow("API token:", self.token_entry)
        form.addRow("", self.token_state)
        form.addRow("", token_buttons)
        self.message = Banner(self)
        self.save_button = QPushButton("Save", self)
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)
        right = QVBoxLayout()
        right.addWidget(self.heading)
        right.addLayout(form)
        right.addWidget(self.message)
        right.addStretch(1)
        right.addWidget(self.save_button, 0, Qt.AlignmentFlag.AlignRight)

        body = QHBoxLayout()
        body.addLayout(left, 1)
        body.addLayout(right, 2)

        self.buttons = QDialogButtonBox(self)
        self.use_button = self.buttons.addButton(
            "Use this connection", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.use_button.clicked.connect(self._use)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.keyring_notice)
        layout.addLayout(body, 1)
        layout.addWidget(self.buttons)

        self._reload(select=select if select is not None else connections.active_name)

    # ----------------------------------------------------------------- list
    def _reload(self, select: str | None = None) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        chosen: QListWidgetItem | None = None
        active = self._store.active_name
        for connection in self._store.list():
            label = f"{connection.name}\n{connection.base_url}"
            if connection.name == active:
                label = f"{connection.name} (in use)\n{connection.base_url}"
            item = QListWidgetItem(label, self.list)
            item.setData(Qt.ItemDataRole.UserRole, connection)
            if connection.name == select:
                chosen = item
        self.list.blockSignals(False)
        if chosen is not None:
            self.list.setCurrentItem(chosen)
        elif self.list.count():
            self.list.setCurrentRow(0)
        else:
            self.new_connection()

    def _on_current_changed(self, current: QListWidgetItem | None, _prev: object) -> None:
        connection = current.data(Qt.ItemDataRole.UserRole) if current is not None else None
        if connection is None:
            self.new_connection()
            return
        self._show(connection)

    def _show(self, connection: Connection) -> None:
        self._editing = connection
        self.heading.setText(f"Edit {connection.name}")
        self.name_edit.setText(connection.name)
        self.url_edit.setText(connection.base_url)
        self.token_entry.field.clear()
        self.token_entry.field.setPlaceholderText(
            "Leave empty to keep the current token; paste a new one to replace it"
        )
        self.token_entry.result.clear()
        self.message.clear()
        # The sandbox's address and token change at every start, so editing them would
        # only break it; it is started (and re-addressed) by "Use this connection".
        managed = connection.name == SANDBOX_CONNECTION
        for edit in (self.name_edit, self.url_edit):
            edit.setReadOnly(managed)
        self.token_entry.setEnabled(not managed)
        # A token for plain http:// to another computer could never be sent (black-box R5 #9),
        # so it is not asked for (X3); the address is changed first, then saved with one.
        cleartext = cleartext_problem(connection.base_url) is not None
        self.replace_button.setEnabled(not managed and not cleartext)
        self.replace_button.setToolTip(
            "Change the address to https:// first: no token is sent over plain http to another "
            "computer."
            if cleartext
            else ""
        )
        self.forget_button.setEnabled(not managed)
        self.save_button.setEnabled(not managed)
        self.remove_button.setEnabled(True)
        self.use_button.setEnabled(True)
        if managed:
            self.message.show_message(
                "The sandbox is a practice service on this computer with demo data. DNC Desk "
                "starts it and sets its address and a fresh token each time; nothing here "
                "reaches your dialer.",
                "info",
            )
        self._refresh_token_state(connection)

    def new_connection(self) -> None:
        """Clear the form for a new connection."""
        self._editing = None
        self.list.blockSignals(True)
        self.list.clearSelection()
        self.list.setCurrentRow(-1)
        self.list.blockSignals(False)
        self.heading.setText("New connection")
        for edit in (self.name_edit, self.url_edit):
            edit.setReadOnly(False)
        self.token_entry.setEnabled(True)
        self.save_button.setEnabled(True)
        self.name_edit.clear()
        self.url_edit.clear()
        self.token_entry.field.clear()
        self.token_entry.field.setPlaceholderText("Paste the API token")
        self.token_entry.result.clear()
        # Without a trustworthy keyring the token goes to memory (the banner above says so).
        where = (
            "stored in the system keyring"
            if self._tokens.recommended
            else "kept in memory for this session only"
        )
        self.token_state.setText(
            f"The token is checked with the service, then {where} — never in a file."
        )
        self.message.clear()
        self.replace_button.setEnabled(False)
        self.replace_button.setToolTip("")
        self.forget_button.setEnabled(False)
        self.remove_button.setEnabled(False)
        self.use_button.setEnabled(False)
        self.name_edit.setFocus()

    def _refresh_token_state(self, connection: Connection) -> None:
        self.token_state.setText("Token: checking the keyring…")
        tokens = self._tokens

        def done(kind: StorageKind | None) -> None:
            if self._editing is not None and self._editing.name == connection.name:
                self.token_state.setText(_STORAGE_TEXT[kind])

        def failed(exc: BaseException) -> None:
            if self._editing is not None and self._editing.name == connection.name:
                self.token_state.setText(f"Token: unknown. {exc}")

        self._runner.submit(
            "Look up the token",
            lambda _ctx: tokens.storage_of(connection.name),
            on_done=done,
            on_error=failed,
            owner=self,
        )

    def _update_url_warning(self, text: str) -> None:
        warning = url_warning(text) if text.strip() else None
        if warning:
            self.url_notice.show_message(warning, "warning")
        else:
            self.url_notice.clear()

    # ----------------------------------------------------------------- saving
    def _set_busy(self, busy: bool) -> None:
        for widget in (self.save_button, self.use_button, self.list, self.new_button):
            widget.setEnabled(not busy)

    def _form_connection(self) -> Connection | None:
        name = self.name_edit.text().strip()
        url = self.url_edit.text()
        if not name:
            self.message.show_message("Give the connection a name, for example Production.")
            self.name_edit.setFocus()
            return None
        problem = connection_url_problem(url)
        if problem is not None:
            self.message.show_message(problem, "error")
            self.url_edit.setFocus()
            return None
        existing = self._store.get(name)
        editing = self._editing
        if existing is not None and (editing is None or editing.name != name):
            self.message.show_message(f"A connection named {name} already exists.", "error")
            self.name_edit.setFocus()
            return None
        return Connection(name=name, base_url=url)

    def save(self) -> None:
        """Save the form; with a token entered, only once the service accepted the token."""
        connection = self._form_connection()
        if connection is None:
            return
        self.message.clear()
        if typed := self.token_entry.field.text().strip():
            held = token_in_url(connection.base_url, typed)
            if held is not None:
                self.message.show_message(held, "error")
                self.url_edit.setFocus()
                return
            self._set_busy(True)
            self._pending = connection
            self.token_entry.start(connection)
            return
        if self._editing is None:
            self.message.show_message(
                "Saved without a token: you will be asked for it when you use this connection.",
                "info",
            )
        self._write(connection, token_saved=False)

    def _on_token_saved(self, outcome: TokenOutcome) -> None:
        connection = self._pending
        if connection is None:
            return
        self._saved_text = outcome_text(outcome, self._tokens)
        self._write(connection, token_saved=True)
        token = self.token_entry.take_token()
        if self._editing is not None and self._editing.name == connection.name and token:
            self.token_replaced.emit(connection, token)

    def _write(self, connection: Connection, *, token_saved: bool) -> None:
        store, tokens, old = self._store, self._tokens, self._editing

        def work(_ctx: object) -> None:
            if old is not None and old.name != connection.name:
                store.rename(old.name, connection.name)
                if not token_saved:
                    tokens.rename(old.name, connection.name)
            store.save(connection)

        def done(_result: object) -> None:
            self._set_busy(False)
            self._reload(select=connection.name)
            if token_saved:
                # _reload cleared the result banner; keep the verdict in view.
                self.token_entry.result.show_message(*self._saved_text)
            self.connections_changed.emit()

        def failed(exc: BaseException) -> None:
            self._set_busy(False)
            text = str(exc) if isinstance(exc, ConnectionConfigError) else f"Not saved: {exc}"
            self.message.show_message(text, "error")

        self._set_busy(True)
        self._runner.submit("Save the connection", work, on_done=done, on_error=failed, owner=self)

    # ----------------------------------------------------------------- token actions
    def _replace_token(self) -> None:
        connection = self._editing
        if connection is None:
            return

        def replaced(token: str, _storage: StorageKind | None) -> None:
            self._refresh_token_state(connection)
            self.token_replaced.emit(connection, token)

        self.token_dialog = ask_token(self, connection, self._tokens, self._runner, replaced)

    def _forget_token(self) -> None:
        connection = self._editing
        if connection is None:
            return
        answer = QMessageBox.question(
            self,
            "Forget token",
            literal(
                f"Remove the stored token of {connection.name}? You will need to enter it again "
                "to use this connection."
            ),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        tokens = self._tokens

        def done(_r: object) -> None:
            self.message.show_message(f"The token of {connection.name} is forgotten.", "info")
            self._refresh_token_state(connection)

        self._runner.submit(
            "Forget the token",
            lambda _ctx: tokens.delete(connection.name),
            on_done=done,
            on_error=lambda exc: self.message.show_message(str(exc), "error"),
            owner=self,
        )

    def _remove(self) -> None:
        connection = self._editing
        if connection is None:
            return
        answer = QMessageBox.question(
            self,
            "Remove connection",
            literal(
                f"Remove the connection {connection.name} ({connection.base_url}) and forget its "
                "token? The change journal keeps its entries."
            ),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        store, tokens = self._store, self._tokens

        def work(_ctx: object) -> None:
            store.delete(connection.name)
            tokens.delete(connection.name)

        def done(_r: object) -> None:
            self._reload()
            self.message.show_message(f"Removed {connection.name}.", "info")
            self.connections_changed.emit()

        self._runner.submit(
            "Remove the connection",
            work,
            on_done=done,
            on_error=lambda exc: self.message.show_message(str(exc), "error"),
            owner=self,
        )

    def _use(self) -> None:
        if self._editing is None:
            return
        # A connection saved with plain http:// to another machine before that was refused
        # (black-box R5 #9) is not used: its token would cross the network unencrypted.
        problem = connection_url_problem(self._editing.base_url)
        if problem is not None:
            self.message.show_message(problem, "error")
            self.url_edit.setFocus()
            return
        self.connection_chosen.emit(self._editing)
        self.accept()
