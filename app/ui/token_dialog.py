"""Entering, verifying and storing the API token of one connection.

A token is checked against the service (one ``/campaigns/search`` call) before it is
stored; only an accepted token reaches the keyring. The check and the keyring write both
run off the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.connection_check import TokenCheck, check_token
from app.core.connections import Connection
from app.core.tokens import StorageKind, TokenStore, TokenStoreError
from app.ui.error_messages import user_message
from app.ui.plain_text import plain_label, window_title
from app.ui.tasks import TaskContext, TaskRunner
from app.ui.theme import Banner, bold


@dataclass(frozen=True)
class TokenOutcome:
    """A verified token and where it went: the keyring, memory only, or nowhere yet
    (``store_error`` says why the keyring refused)."""

    check: TokenCheck
    storage: StorageKind | None
    store_error: TokenStoreError | None = None


def verify_and_store(
    tokens: TokenStore, connection: Connection, token: str, ctx: TaskContext | None = None
) -> TokenOutcome:
    """Check ``token`` against the service, then store it (blocking; run it in a task).

    Raises the client's typed error when the service refuses the token; nothing is stored
    then. A keyring failure after a successful check is returned, not raised, so the dialog
    can offer to keep the verified token in memory.
    """
    cancel = ctx.cancel_event if ctx is not None else None
    check = check_token(connection.base_url, token.strip(), cancel=cancel)
    try:
        storage = tokens.set(connection.name, token)
    except TokenStoreError as exc:
        return TokenOutcome(check, None, exc)
    return TokenOutcome(check, storage)


def memory_only_notice(tokens: TokenStore) -> str:
    """The plain sentence shown when tokens cannot go to a trustworthy keyring."""
    return (
        "No secure system keyring is available (such as the Windows Credential Manager, the "
        "macOS Keychain, or GNOME Keyring or KWallet on Linux; "
        f"{tokens.keyring_found}). Tokens are kept in memory for this session only and are "
        "never written to a file; you will enter them again the next time DNC Desk starts."
    )


def outcome_text(outcome: TokenOutcome, tokens: TokenStore) -> tuple[str, str]:
    """(text, level) describing a token outcome for the result banner."""
    summary = outcome.check.summary
    if outcome.store_error is not None:
        return f"{summary} But it was not saved: {outcome.store_error}", "error"
    if outcome.storage is StorageKind.MEMORY:
        return (
            f"{summary} It is kept in memory for this session only (no secure system "
            "keyring is available), so you will enter it again next time.",
            "warning",
        )
    return f"{summary} It is stored in the system keyring ({tokens.backend_name}).", "info"


class TokenEntry(QWidget):
    """A password field plus the verify-and-store flow, shared by the token dialog and the
    connections dialog.

    Signals:
        saved(object): a :class:`TokenOutcome` whose token is stored (keyring or memory).
        failed(str): why the token was not saved (already shown in the banner).
        busy_changed(bool): a check is running.
    """

    saved = Signal(object)
    failed = Signal(str)
    busy_changed = Signal(bool)

    def __init__(self, tokens: TokenStore, runner: TaskRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self._tokens = tokens
        self._runner = runner
        self._connection: Connection | None = None
        self._pending_token = ""
        self.field = QLineEdit(self)
        self.field.setEchoMode(QLineEdit.EchoMode.Password)
        self.field.setPlaceholderText("Paste the API token")
        self.field.setAccessibleName("API token")
        self.result = Banner(self)
        self.keep_button = QPushButton("Keep in memory for this session", self)
        self.keep_button.setToolTip(
            "Use the verified token until DNC Desk quits without storing it anywhere."
        )
        self.keep_button.hide()
        self.keep_button.clicked.connect(self._keep_in_memory)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.field)
        layout.addWidget(self.result)
        layout.addWidget(self.keep_button, 0, Qt.AlignmentFlag.AlignLeft)
        self._verified: TokenOutcome | None = None

    def start(self, connection: Connection) -> bool:
        """Verify and store the entered token for ``connection``; False if nothing entered."""
        token = self.field.text().strip()
        if not token:
            self.result.show_message("Enter the API token for this connection.", "warning")
            self.field.setFocus()
            return False
        self._connection = connection
        self._pending_token = token
        self.keep_button.hide()
        self.result.show_message(f"Checking the token with {connection.base_url}…", "info")
        self.busy_changed.emit(True)
        tokens = self._tokens
        self._runner.submit(
            "Check the API token",
            lambda ctx: verify_and_store(tokens, connection, token, ctx),
            on_done=self._on_done,
            on_error=self._on_error,
        )
        return True

    def take_token(self) -> str:
        """The last token that was saved; the field is cleared so it does not linger."""
        token, self._pending_token = self._pending_token, ""
        self.field.clear()
        return token

    def _on_done(self, outcome: TokenOutcome) -> None:
        self.busy_changed.emit(False)
        text, level = outcome_text(outcome, self._tokens)
        self.result.show_message(text, level)
        if outcome.store_error is not None:
            self._verified = outcome
            self.keep_button.show()
            self.failed.emit(text)
            return
        self.saved.emit(outcome)

    def _on_error(self, exc: BaseException) -> None:
        self.busy_changed.emit(False)
        self._pending_token = ""
        if isinstance(exc, TokenStoreError):
            text = str(exc)
        else:
            text = user_message(exc, "Checking the token").text + " The token was not saved."
        self.result.show_message(text, "error")
        self.failed.emit(text)

    def _keep_in_memory(self) -> None:
        outcome, connection = self._verified, self._connection
        if outcome is None or connection is None or not self._pending_token:
            return
        # In-memory storage touches no keyring, so it is safe on the GUI thread.
        storage = self._tokens.keep_in_memory(connection.name, self._pending_token)
        kept = TokenOutcome(outcome.check, storage)
        self.keep_button.hide()
        text, level = outcome_text(kept, self._tokens)
        self.result.show_message(text, level)
        self.saved.emit(kept)


class TokenDialog(QDialog):
    """Ask for a connection's token (first use, "Replace token", or after the service
    rejected the old one), verify it and store it.

    Signals:
        token_saved(object): the :class:`TokenOutcome`; read the token with ``take_token``.
    """

    token_saved = Signal(object)

    def __init__(
        self,
        connection: Connection,
        tokens: TokenStore,
        runner: TaskRunner,
        *,
        reason: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.connection = connection
        self.setWindowTitle(window_title(f"API token — {connection.name}"))
        self.setMinimumWidth(520)
        title = plain_label(QLabel(f"Enter the API token for {connection.name}", self))
        bold(title, 2)
        where = plain_label(QLabel(f"Service: {connection.base_url}", self))
        where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason = Banner(self)
        if reason:
            self.reason.show_message(reason, "warning")
        self.storage_notice = Banner(self)
        if not tokens.recommended:
            self.storage_notice.show_message(memory_only_notice(tokens), "warning")
        self.entry = TokenEntry(tokens, runner, self)
        form = QFormLayout()
        form.addRow("Token:", self.entry)
        self.buttons = QDialogButtonBox(self)
        self.save_button = self.buttons.addButton(
            # ActionRole: the dialog closes only once the token is verified and stored.
            "Verify and save",
            QDialogButtonBox.ButtonRole.ActionRole,
        )
        self.save_button.setDefault(True)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.save_button.clicked.connect(self._save)
        self.buttons.rejected.connect(self.reject)
        self.entry.busy_changed.connect(lambda busy: self.save_button.setEnabled(not busy))
        self.entry.saved.connect(self._on_saved)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(where)
        layout.addWidget(self.reason)
        layout.addWidget(self.storage_notice)
        layout.addLayout(form)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.entry.field.setFocus()

    def _save(self) -> None:
        self.entry.start(self.connection)

    def _on_saved(self, outcome: TokenOutcome) -> None:
        self.token_saved.emit(outcome)
        self.accept()

    def take_token(self) -> str:
        return self.entry.take_token()


def ask_token(
    parent: QWidget,
    connection: Connection,
    tokens: TokenStore,
    runner: TaskRunner,
    on_token: Callable[[str, StorageKind | None], None],
    *,
    reason: str = "",
) -> TokenDialog:
    """Open a window-modal token dialog; ``on_token`` gets the token and where it is stored
    once the service accepted it."""
    dialog = TokenDialog(connection, tokens, runner, reason=reason, parent=parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.token_saved.connect(lambda outcome: on_token(dialog.take_token(), outcome.storage))
    dialog.open()
    return dialog
