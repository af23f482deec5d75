"""A searchable picker over the account's lead statuses (``/status/search``).

Shows code, name, a swatch of the status colour and its flags, so a compliance officer sees
at a glance that, say, ``DNC`` would put a lead straight back on a do-not-call list. Every
search runs off the GUI thread; typing waits a moment before asking the service. With the
search box empty it asks the service nothing and says what to type.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPixmap, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import Shiboken

from app.api.errors import AuthInvalidError, AuthMissingError
from app.api.models import LeadStatus
from app.core.session import Session
from app.ui.error_messages import user_message
from app.ui.plain_text import literal, plain_label
from app.ui.tasks import TaskRunner

STATUS_ROLE = Qt.ItemDataRole.UserRole + 1
STATUS_HEADERS = ("Code", "Name", "Flags")
SEARCH_DELAY_MS = 250
SEARCH_PROMPT = "Type a status code or name (for example DNC or callback) to list the statuses."


def status_flags_text(status: LeadStatus) -> str:
    names = [name for name, on in status.flags.items() if on]
    return ", ".join(names) if names else "none"


def status_warnings(status: LeadStatus | None) -> list[str]:
    """Why assigning ``status`` to the leads of removed numbers may be a mistake."""
    if status is None:
        return []
    out: list[str] = []
    if status.dnc:
        out.append(
            f"{status.status} has dnc=Y: leads would go straight back on a DNC list when it is "
            "assigned."
        )
    if status.final:
        out.append(
            f"{status.status} has final=Y: final dispositions cannot be changed after assignment."
        )
    return out


def _swatch(hex_color: str) -> QPixmap:
    pixmap = QPixmap(14, 14)
    color = QColor(hex_color if hex_color.startswith("#") else f"#{hex_color}")
    pixmap.fill(color if color.isValid() else QColor(0, 0, 0, 0))
    return pixmap


class StatusPicker(QWidget):
    """Search box plus a table of matching lead statuses.

    Signals:
        status_changed(object): the chosen :class:`LeadStatus`, or None when nothing is chosen.
        auth_problem(object, object): (exception, retry) when the service rejected the token.
    """

    status_changed = Signal(object)
    auth_problem = Signal(object, object)

    def __init__(self, session: Session, runner: TaskRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.runner = runner
        self._generation = 0
        self._chosen: LeadStatus | None = None
        self.loading = False

        self.search_edit = QLineEdit(self)
        self.search_edit.setPlaceholderText("Search status code or name")
        self.search_edit.setClearButtonEnabled(True)
        self.model = QStandardItemModel(0, len(STATUS_HEADERS), self)
        self.model.setHorizontalHeaderLabels(list(STATUS_HEADERS))
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumHeight(140)
        self.message = plain_label(QLabel(self))
        self.message.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search_edit)
        layout.addWidget(self.table)
        layout.addWidget(self.message)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SEARCH_DELAY_MS)
        self._timer.timeout.connect(self.search)
        self.search_edit.textChanged.connect(lambda _t: self._timer.start())
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)

    def set_session(self, session: Session) -> None:
        """A new token for the same connection: later searches (a retry too) use it."""
        self.session = session

    @property
    def chosen(self) -> LeadStatus | None:
        return self._chosen

    def statuses(self) -> list[LeadStatus]:
        """The statuses currently listed."""
        out: list[LeadStatus] = []
        for row in range(self.model.rowCount()):
            status = self.model.item(row, 0).data(STATUS_ROLE)
            if isinstance(status, LeadStatus):
                out.append(status)
        return out

    def select(self, code: str) -> bool:
        """Choose the listed status with this code; False if it is not listed."""
        for row in range(self.model.rowCount()):
            status = self.model.item(row, 0).data(STATUS_ROLE)
            if isinstance(status, LeadStatus) and status.status == code:
                self.table.selectRow(row)
                self.table.setCurrentIndex(self.model.index(row, 0))
                return True
        return False

    def search(self) -> None:
        """Ask the service for the statuses matching the search text."""
        self._timer.stop()
        self._generation += 1
        generation = self._generation
        text = self.search_edit.text().strip()
        if not text:
            # The spec makes the search's query required: a blank one is not "every status"
            # (a service enforcing it refused it, black-box B36 F1), so ask for a code or name.
            self.loading = False
            self.model.removeRows(0, self.model.rowCount())
            self.message.setText(SEARCH_PROMPT)
            self._set_chosen(None)
            return
        self.loading = True
        self.message.setText("Loading lead statuses…")
        api = self.session.api
        self.runner.submit(
            "search lead statuses",
            lambda ctx: api.search_statuses(text, cancel=ctx.cancel_event),
            on_done=lambda found: self._on_found(generation, found),
            on_error=lambda exc: self._on_error(generation, exc),
            owner=self,
        )

    def _on_found(self, generation: int, found: list[LeadStatus]) -> None:
        if generation != self._generation:
            return
        self.loading = False
        previous = self._chosen.status if self._chosen is not None else ""
        self.model.removeRows(0, self.model.rowCount())
        for status in found:
            code = QStandardItem(status.status)
            code.setData(status, STATUS_ROLE)
            code.setData(_swatch(status.hex_color), Qt.ItemDataRole.DecorationRole)
            code.setToolTip(literal(f"Colour {status.hex_color or 'none'}"))
            custom = " (custom)" if status.custom else ""
            name = QStandardItem(status.name + custom)
            flags = QStandardItem(status_flags_text(status))
            for item in (code, name, flags):
                item.setEditable(False)
            self.model.appendRow([code, name, flags])
        self.table.resizeColumnToContents(0)
        self.table.resizeColumnToContents(2)
        self.message.setText(f"{len(found)} status{'es' if len(found) != 1 else ''}")
        if not (previous and self.select(previous)):
            self._set_chosen(None)

    def _on_error(self, generation: int, exc: BaseException) -> None:
        if generation != self._generation:
            return
        self.loading = False
        self.message.setText(user_message(exc, "Load the lead statuses").text)
        if isinstance(exc, AuthMissingError | AuthInvalidError):
            self.auth_problem.emit(exc, self._retry_search)

    def _retry_search(self) -> None:
        # Run by the window after a new token, maybe after the dialog holding this was closed.
        if Shiboken.isValid(self):
            self.search()

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        status = None
        if current.isValid():
            value = self.model.item(current.row(), 0).data(STATUS_ROLE)
            status = value if isinstance(value, LeadStatus) else None
        self._set_chosen(status)

    def _set_chosen(self, status: LeadStatus | None) -> None:
        if status == self._chosen:
            return
        self._chosen = status
        self.status_changed.emit(status)
