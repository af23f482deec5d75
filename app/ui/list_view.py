"""The DNC list and SMS opt-out views: filter bar, lazily loaded table, add, edit, delete, copy.

One class serves both lists; :class:`ListKind` picks the search, insert and update calls and
what differs (the SMS API offers no removal, so Delete is shown but disabled with the reason).
Every network call runs on the window's :class:`TaskRunner`.
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Any

from PySide6.QtCore import QByteArray, QPoint, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.api.client import ApiClient, DncQuery
from app.api.errors import AuthInvalidError, AuthMissingError, ValidationError
from app.api.models import Campaign, DncEntry, SmsOptOut, WriteResult
from app.core.dnc_removal import RemovalResult
from app.core.entry_validation import EntryKind
from app.core.export_job import DAY_PROBE_ENTRIES, DaySearch, ask_day_search, day_refused
from app.core.list_pager import dnc_pager, sms_pager
from app.core.session import Session
from app.ui.delete_dialog import DeleteDialog
from app.ui.entry_dialog import EntryDialog
from app.ui.entry_table_model import (
    COL_CODE,
    COL_ID,
    COL_INSERTED,
    COL_PHONE,
    COL_PURPOSE,
    COL_REASON,
    COL_SCOPE,
    COPY_ROLE,
    RAW_ROLE,
    EntrySortProxy,
    EntryTableModel,
    ListMoved,
)
from app.ui.error_messages import user_message
from app.ui.filter_bar import FilterBar
from app.ui.plain_text import plain_label
from app.ui.removal_progress import RemovalProgressDialog, summary_text
from app.ui.tasks import TaskContext, TaskRunner

SMS_NO_REMOVAL = (
    "The service offers no way to remove SMS opt-outs; edit the entry instead or contact the "
    "provider."
)

# What to do instead of an insert-date filter the service's DNC search cannot take as a day.
LIST_DAY_ADVICE = (
    "Search without the Inserted on filter: the list's Inserted column gives each entry's day"
)
# The code a service refusing a search's insert_date answers with (spec: 6008, invalid parameter).
INVALID_DATE = 6008

Entry = DncEntry | SmsOptOut
COLUMN_WIDTHS = {
    COL_PHONE: 150,
    COL_CODE: 90,
    COL_SCOPE: 210,
    COL_REASON: 250,
    COL_PURPOSE: 140,
    COL_INSERTED: 150,
    COL_ID: 80,
}


class ListKind(Enum):
    """Which list a view shows: the DNC list or the SMS opt-out list."""

    DNC = "dnc"
    SMS = "sms"

    @property
    def title(self) -> str:
        return "DNC list" if self is ListKind.DNC else "SMS opt-out list"

    @property
    def entry_kind(self) -> EntryKind:
        return EntryKind.DNC if self is ListKind.DNC else EntryKind.SMS


def same_connection(old: Session | None, new: Session | None) -> bool:
    """Whether ``new`` is the same connection as ``old`` with another client (a new token)."""
    # Connection is a frozen dataclass of its name and address: equal is the same connection.
    return old is not None and new is not None and old.connection == new.connection


def is_auth_problem(exc: BaseException) -> bool:
    return isinstance(exc, AuthMissingError | AuthInvalidError)


class EntryListView(QWidget):
    """One list (DNC or SMS opt-out) of the connected account.

    Signals:
        status_message(str): text for the window's status bar.
        auth_problem(object, object): (exception, retry) when the service rejected the token
            (AuthMissingError / AuthInvalidError); the window asks for a new token, then
            calls ``retry()`` to re-run the action that failed.
        busy_changed(bool): background work of this view started (True) or all of it ended.
    """

    status_message = Signal(str)
    auth_problem = Signal(object, object)
    busy_changed = Signal(bool)

    def __init__(self, kind: ListKind, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self.runner = runner
        self.session: Session | None = None
        self.campaigns: list[Campaign] = []
        self._busy_count = 0
        self._query: DncQuery | None = None  # the search the table shows
        self._session_generation = 0
        self.page_size: int | None = None  # None: the spec's maximum (1000); tests shrink it
        self.dialog: Any = None  # the add/edit/delete/progress dialog open now, if any

        # Whether this connection's DNC search takes a bare insert date as that day (asked
        # once a connection, when a day filter is first searched); None while not known.
        self.day_search: DaySearch | None = None
        # The connection (session generation) whose service is being asked, if one is.
        self._asking_day: int | None = None
        self.filter_bar = FilterBar(parent=self)
        self.filter_bar.search_requested.connect(self.search)
        self.filter_bar.search_refused.connect(self._refuse_filter)
        # After the bar's own reset (connected first): the table then shows what the empty
        # filter finds, not the last search's rows under cleared fields.
        self.filter_bar.clear_button.clicked.connect(self.search)
        self.model = EntryTableModel(runner, self)
        self.proxy = EntrySortProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setStretchLastSection(False)
        for column, width in COLUMN_WIDTHS.items():
            self.table.setColumnWidth(column, width)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.doubleClicked.connect(lambda _i: self.edit_selected())

        self.count_label = QLabel(self)
        self._make_actions()
        bar = QHBoxLayout()
        for action in (self.add_action, self.edit_action, self.delete_action, self.copy_action):
            button = QToolButton(self)
            button.setDefaultAction(action)
            bar.addWidget(button)
        self.delete_note = QLabel(SMS_NO_REMOVAL if kind is ListKind.SMS else "", self)
        self.delete_note.setWordWrap(True)
        self.delete_note.setVisible(kind is ListKind.SMS)
        bar.addWidget(self.delete_note, 1)
        bar.addStretch()
        bar.addWidget(self.count_label)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter_bar)
        layout.addLayout(bar)
        layout.addWidget(self._make_problem_row())
        layout.addWidget(self.table, 1)

        self.model.loading_changed.connect(self._loading_changed)
        self.model.page_loaded.connect(self._page_loaded)
        self.model.load_failed.connect(self._load_failed)
        self.table.horizontalHeader().sortIndicatorChanged.connect(self._sorted)
        self.table.selectionModel().selectionChanged.connect(self._update_actions)
        self.model.modelReset.connect(self._update_actions)
        self.model.modelReset.connect(lambda: self.problem_row.setVisible(False))
        self._update_actions()

    def _make_problem_row(self) -> QWidget:
        """The line shown while a page failed to load: what is shown of what, why, and Retry
        (black-box bb10 F5: loading stopped for good at 3,000 of 3,390 with no word of it)."""
        self.problem_row = QWidget(self)
        self.load_problem = plain_label(QLabel(self.problem_row))  # holds the service's words
        self.load_problem.setWordWrap(True)
        self.retry_button = QPushButton("Retry", self.problem_row)
        self.retry_button.setToolTip("Load the rest of the matches, from where loading stopped")
        self.retry_button.clicked.connect(self.retry_loading)
        row = QHBoxLayout(self.problem_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.load_problem, 1)
        row.addWidget(self.retry_button)
        self.problem_row.setVisible(False)
        return self.problem_row

    # ------------------------------------------------------------------ actions
    def _make_actions(self) -> None:
        noun = "entry" if self.kind is ListKind.DNC else "opt-out"
        self.add_action = QAction(f"Add {noun}…", self)
        self.add_action.setToolTip(f"Add an {noun} (Ctrl+N)")
        self.add_action.triggered.connect(self.add_entry)
        self.edit_action = QAction("Edit…", self)
        self.edit_action.setToolTip(f"Edit the selected {noun} (double-click, Enter or F2)")
        self.edit_action.triggered.connect(self.edit_selected)
        # Keyboard users edit the current row as Del deletes it. Bound to the table alone, so
        # Enter in the filter bar still searches.
        self.edit_action.setShortcuts(
            [QKeySequence(Qt.Key.Key_Return), QKeySequence(Qt.Key.Key_Enter), QKeySequence("F2")]
        )
        self.edit_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.table.addAction(self.edit_action)
        self.delete_action = QAction("Delete…", self)
        self.delete_action.triggered.connect(self.delete_selected)
        if self.kind is ListKind.SMS:
            self.delete_action.setToolTip(SMS_NO_REMOVAL)
            self.delete_action.setStatusTip(SMS_NO_REMOVAL)
        else:
            self.delete_action.setToolTip("Remove the selected entries from the DNC list (Del)")
        self.copy_action = QAction("Copy", self)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.copy_action.setToolTip("Copy the selection as tab-separated text (raw numbers)")
        self.copy_action.triggered.connect(self.copy_selection)
        self.table.addAction(self.copy_action)

    def _update_actions(self, *_: object) -> None:
        connected = self.session is not None
        selected = len(self.selected_entries())
        self.add_action.setEnabled(connected)
        self.edit_action.setEnabled(connected and selected == 1)
        self.delete_action.setEnabled(connected and selected > 0 and self.kind is ListKind.DNC)
        self.copy_action.setEnabled(selected > 0)

    def _context_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        for action in (self.edit_action, self.delete_action, self.copy_action):
            menu.addAction(action)
        menu.popup(self.table.viewport().mapToGlobal(pos))

    # ------------------------------------------------------------------ busy
    def _work(self, started: bool) -> None:
        before = self._busy_count > 0
        self._busy_count = max(0, self._busy_count + (1 if started else -1))
        after = self._busy_count > 0
        if before != after:
            self.busy_changed.emit(after)

    @property
    def busy(self) -> bool:
        return self._busy_count > 0

    def _loading_changed(self, loading: bool) -> None:
        self._work(loading)
        if loading:
            self.problem_row.setVisible(False)
            loaded = self.model.rowCount()
            self.status_message.emit(
                f"{self.kind.title}: searching…"
                if loaded == 0
                else f"{self.kind.title}: loading more rows after {loaded:,}…"
            )

    # ------------------------------------------------------------------ session
    def set_session(self, session: Session | None) -> None:
        """The connection changed: clear, load the campaigns, then search."""
        self._session_generation += 1
        dialog = self.dialog
        if dialog is not None and session is not self.session:
            adopt = getattr(dialog, "set_session", None)
            if adopt is not None and same_connection(self.session, session):
                # A replaced token: the dialog stays and saves (or retries) on the new session;
                # rejected, its retry ran on the closed one (black-box bb1 F7).
                adopt(session)
            else:
                # A dialog opened for the previous connection must not linger over the new
                # one (dialogs refuse to close while a write is in flight).
                dialog.reject()
        self.session = session
        self.day_search = None
        self.model.start(None)
        self.campaigns = []
        self.count_label.clear()
        self._update_actions()
        if session is None:
            self.status_message.emit(f"{self.kind.title}: not connected.")
            return
        self._load_campaigns(then_search=True)

    def _load_campaigns(self, then_search: bool = False) -> None:
        session = self.session
        if session is None:
            return
        generation = self._session_generation
        api = session.api
        self._work(True)
        self.status_message.emit("Loading campaigns…")

        def done(campaigns: list[Campaign]) -> None:
            self._work(False)
            if generation != self._session_generation:
                return
            self.campaigns = list(campaigns)
            self.filter_bar.set_campaigns(self.campaigns)
            self.model.set_campaigns(self.campaigns)
            if then_search:
                self.search()

        def failed(exc: BaseException) -> None:
            self._work(False)
            if generation != self._session_generation:
                return
            if is_auth_problem(exc):
                self.auth_problem.emit(exc, lambda: self._load_campaigns(then_search))
                return
            self.status_message.emit(
                user_message(exc, "Load the campaigns").text + " Campaign names are not shown."
            )
            if then_search:
                self.search()

        self.runner.submit(
            "load campaigns",
            lambda ctx: api.campaigns(cancel=ctx.cancel_event),
            on_done=done,
            on_error=failed,
        )

    # ------------------------------------------------------------------ searching
    def focus_filter(self) -> None:
        self.filter_bar.phone_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_bar.phone_edit.selectAll()

    def refresh(self) -> None:
        """Reload the campaign names (new or renamed ones), then search again."""
        if self.session is None:
            self.status_message.emit(f"{self.kind.title}: not connected.")
            return
        self._load_campaigns(then_search=True)

    def search(self) -> None:
        session = self.session
        if session is None:
            self.status_message.emit(f"{self.kind.title}: not connected.")
            return
        query = self.filter_bar.query()
        if query is None:
            self._refuse_filter()
            return
        self.filter_bar.clear_date_error()
        if self.kind is ListKind.DNC and query.insert_date:
            if self.day_search is None:
                self._ask_day_search(session)
                return
            if not self.day_search.by_day:
                self._refuse_day(self.day_search, query.insert_date)
                return
        self._start_search(session, query)

    def _ask_day_search(self, session: Session) -> None:
        """Ask the service, off the GUI thread, whether its DNC search takes a bare insert
        date as that day (the export's :func:`ask_day_search`, on one page of the list), then
        search the filters as they are then. No dated entry to try: the day is searched,
        and asked again next time."""
        generation = self._session_generation
        if self._asking_day == generation:
            return
        self._asking_day = generation
        api = session.api
        self._work(True)
        # The rows of the search before are not the day's: none is shown while asking.
        self.model.start(None)
        self.count_label.setText("Searching…")
        self.status_message.emit(f"{self.kind.title}: checking how the service searches a day…")

        def done(answer: DaySearch | None) -> None:
            if self._asking_day == generation:
                self._asking_day = None
            self._work(False)
            if generation != self._session_generation or self.session is None:
                return
            self.day_search = answer
            query = self.filter_bar.query()
            if query is None:
                self._refuse_filter()
                return
            if answer is not None and not answer.by_day and query.insert_date:
                self._refuse_day(answer, query.insert_date)
                return
            self._start_search(self.session, query)

        def failed(exc: BaseException) -> None:
            if self._asking_day == generation:
                self._asking_day = None
            self._work(False)
            if generation != self._session_generation:
                return
            self.count_label.setText("Search failed")
            if is_auth_problem(exc):
                self.auth_problem.emit(exc, self.search)
                return
            self.status_message.emit(user_message(exc, f"Search the {self.kind.title}").text)

        self.runner.submit(
            "ask how the DNC search takes a day",
            lambda ctx: _day_search_of(api, ctx),
            on_done=done,
            on_error=failed,
        )

    def _refuse_filter(self) -> None:
        """A filter refused as typed: the rows and count of the search before are not its
        result, so none are shown (black-box bb1 F4)."""
        self.model.start(None)
        self.count_label.setText("Not searched")
        self.status_message.emit(self.filter_bar.phone_problem)

    def _refuse_day(self, answer: DaySearch, insert_date: str) -> None:
        """Show no list rather than one moment's entries as the day's."""
        text = answer.refusal(insert_date, LIST_DAY_ADVICE)
        self.model.start(None)
        self.count_label.setText("Not searched")
        self.filter_bar.show_date_error(f"Inserted on: {text}.")
        self.status_message.emit(f"{self.kind.title} not searched: {text}.")

    def _start_search(self, session: Session, query: DncQuery) -> None:
        self._query = query
        if self.kind is ListKind.DNC:
            pager: Any = dnc_pager(session.api, query, self.page_size)
        else:
            pager = sms_pager(session.api, query, self.page_size)
        self.count_label.setText("Searching…")
        self.model.start(pager)

    def _page_loaded(self, loaded: int, total: int) -> None:
        self.count_label.setText(f"{total:,} match{'' if total == 1 else 'es'}")
        self.status_message.emit(self.status_text())

    def status_text(self) -> str:
        """What the status bar should say about the loaded result."""
        if not self.problem_row.isHidden():  # not isVisible(): false on a tab not shown
            return self.load_problem.text()
        total = self.model.total
        if total is None:
            return ""
        loaded = self.model.rowCount()
        reachable = self.model.reachable or 0
        title = self.kind.title
        if self.model.unreachable > 0:
            return (
                f"Showing the first {reachable:,} of {total:,} matches — the service cannot page "
                "further; narrow the filter (e.g. by scope or insert date)."
            )
        if total == 0:
            described = self.filter_bar.describe()
            return f"{title}: no matches" + (f" for {described}." if described else ".")
        if loaded >= total or self.model.complete:
            said = f"{title}: {total:,} match{'' if total == 1 else 'es'}, all loaded."
            if loaded > total:
                # Rows shown before others removed them stay; none still listed is left out.
                said += (
                    f" The list changed while it loaded: {loaded - total:,} of the {loaded:,} "
                    "rows shown may have been removed since. Search again to see it as it is now."
                )
            return said
        return f"{title}: {total:,} matches; {loaded:,} loaded — scroll to load more."

    def _sorted(self, column: int, _order: Qt.SortOrder) -> None:
        total = self.model.total
        loaded = self.model.rowCount()
        if column >= 0 and total is not None and not self.model.complete and loaded < total:
            # The service has no sort parameter: only what is loaded can be ordered.
            self.status_message.emit(
                f"Sorted the {loaded:,} loaded rows; the other {total - loaded:,} matches are "
                "placed as they load."
            )

    def _load_failed(self, exc: BaseException) -> None:
        action = f"Search the {self.kind.title}"
        query = self._query
        if (
            self.kind is ListKind.DNC
            and query is not None
            and query.insert_date
            and isinstance(exc, ValidationError)
            and exc.code == INVALID_DATE
        ):
            # No dated entry told beforehand (an empty list) and the service refuses the day.
            self.day_search = day_refused(query, exc)
            self._refuse_day(self.day_search, query.insert_date)
            return
        if is_auth_problem(exc):
            self.count_label.setText("Search failed")
            self.auth_problem.emit(exc, self.model.retry)
            return
        text = self._moved_text(exc) if isinstance(exc, ListMoved) else None
        text = text or self._stopped_text(exc, action)
        self.load_problem.setText(text)
        self.problem_row.setVisible(True)
        self.status_message.emit(text)

    def _stopped_text(self, exc: BaseException, action: str) -> str:
        """The count label's words and the sentence naming what is shown, why loading
        stopped and what Retry does; the rows already loaded stay."""
        total = self.model.total
        loaded = self.model.rowCount()
        if total is None:
            self.count_label.setText("Search failed")
            return user_message(exc, action).text + " Press Retry to search again."
        shown = f"{loaded:,} of {total:,} shown"
        self.count_label.setText(shown)
        rest = max(0, (self.model.reachable or total) - loaded)
        said = user_message(exc, f"{self.kind.title}: {shown}; loading the next page failed")
        return (
            f"{said.text} Press Retry to load the other {rest:,} from row {loaded + 1:,}; "
            "the rows shown stay."
        )

    def _moved_text(self, exc: ListMoved) -> str:
        """Loading stopped because the list moved past where the view could find its rows."""
        loaded = self.model.rowCount()
        self.count_label.setText(f"{loaded:,} shown; the list changed")
        return (
            f"{self.kind.title}: the list changed while it was loaded ({exc.before:,} matches "
            f"then, {exc.now:,} now), so far that the rows shown could not be found again: "
            f"entries still on the list may be missing from the {loaded:,} shown. Press Retry "
            "to search again from the start."
        )

    def retry_loading(self) -> None:
        """Load again the page that failed, from where loading stopped."""
        self.problem_row.setVisible(False)
        if self.model.total is None:
            self.count_label.setText("Searching…")
        self.model.retry()

    # ------------------------------------------------------------------ selection
    def _selected_rows(self) -> list[int]:
        # Ranges, not selectedIndexes(): "select all" over 100,000 rows would build 700,000
        # indexes on every selection change.
        rows: set[int] = set()
        selection = self.table.selectionModel().selection()
        for i in range(selection.size()):
            selected = selection.at(i)
            rows.update(range(selected.top(), selected.bottom() + 1))
        return sorted(rows)

    def selected_entries(self) -> list[Entry]:
        """The selected rows' entries, in the order shown."""
        rows = self._selected_rows()
        out: list[Entry] = []
        for row in rows:
            value = self.proxy.index(row, 0).data(RAW_ROLE)
            if isinstance(value, DncEntry | SmsOptOut):
                out.append(value)
        return out

    def copy_selection(self) -> None:
        """Copy the selected cells as tab-separated text; phone numbers as stored (raw)."""
        indexes = self.table.selectionModel().selectedIndexes()
        if not indexes:
            self.status_message.emit("Nothing selected to copy.")
            return
        header = self.table.horizontalHeader()
        rows = sorted({i.row() for i in indexes})
        columns = sorted({i.column() for i in indexes}, key=header.visualIndex)
        chosen = {(i.row(), i.column()) for i in indexes}
        lines = []
        for row in rows:
            cells = []
            for column in columns:
                value = (
                    self.proxy.index(row, column).data(COPY_ROLE) if (row, column) in chosen else ""
                )
                cells.append(_tsv_cell(str(value or "")))
            lines.append("\t".join(cells))
        text = "\n".join(lines) + "\n"
        QGuiApplication.clipboard().setText(text)
        self.status_message.emit(
            f"Copied {len(rows):,} row{'' if len(rows) == 1 else 's'}{self._not_copied(len(rows))}."
        )

    def _not_copied(self, copied: int) -> str:
        """Said of a copy of every row shown while matches are not loaded (bb10 F5: the
        copy of 3,000 of 3,390 would otherwise pass for the whole result)."""
        total = self.model.total
        if total is None or copied < self.model.rowCount() or copied >= total:
            return ""
        return (
            f"; the other {total - copied:,} of the {total:,} matches are not loaded, so not copied"
        )

    # ------------------------------------------------------------------ writes
    def add_entry(self) -> None:
        self._open_entry_dialog(None)

    def edit_selected(self) -> None:
        entries = self.selected_entries()
        if len(entries) != 1:
            self.status_message.emit("Select one entry to edit.")
            return
        self._open_entry_dialog(entries[0])

    def _open_entry_dialog(self, entry: Entry | None) -> None:
        session = self.session
        if session is None:
            self.status_message.emit(f"{self.kind.title}: not connected.")
            return
        dialog = EntryDialog(
            self.kind.entry_kind, session, self.runner, self.campaigns, entry, parent=self
        )
        dialog.auth_problem.connect(self.auth_problem)
        dialog.saving_changed.connect(self._work)
        added = entry is None

        def saved(result: object) -> None:
            draft = dialog.draft()
            what = f"{draft.phone.strip()} ({'added' if added else 'saved'})"
            if isinstance(result, WriteResult) and result.earlier_attempt_lost:
                # Made by a first attempt whose answer was lost: say so, not a plain "added".
                what = f"{draft.phone.strip()} {result.message}"
            self.status_message.emit(f"{self.kind.title}: {what}; journaled.")
            self.search()

        dialog.saved.connect(saved)
        dialog.finished.connect(lambda _r: self._dialog_closed(dialog))
        self.dialog = dialog
        dialog.open()

    def _dialog_closed(self, dialog: Any) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()

    def delete_selected(self) -> None:
        if self.kind is ListKind.SMS:
            self.status_message.emit(SMS_NO_REMOVAL)
            return
        session = self.session
        if session is None:
            self.status_message.emit(f"{self.kind.title}: not connected.")
            return
        entries = [e for e in self.selected_entries() if isinstance(e, DncEntry)]
        if not entries:
            self.status_message.emit("Select the entries to remove first.")
            return
        dialog = DeleteDialog(entries, session, self.runner, self.campaigns, parent=self)
        dialog.auth_problem.connect(self.auth_problem)

        def confirmed() -> None:
            if dialog.plan is not None:
                self._run_removal(dialog.plan)

        dialog.accepted.connect(confirmed)
        dialog.finished.connect(lambda _r: self._dialog_closed(dialog))
        self.dialog = dialog
        dialog.open()

    def _run_removal(self, plan: Any) -> None:
        session = self.session
        if session is None:
            return
        progress = RemovalProgressDialog(plan, session, self.runner, parent=self)
        progress.auth_problem.connect(self.auth_problem)
        progress.removal_finished.connect(self._removal_finished)
        progress.removal_failed.connect(self._removal_failed)
        progress.running_changed.connect(self._work)
        progress.finished.connect(lambda _r: self._dialog_closed(progress))
        self.dialog = progress
        progress.open()
        progress.start()

    def _removal_finished(self, result: RemovalResult) -> None:
        self.status_message.emit(f"DNC removal: {summary_text(result)} Journaled.")
        if not any(o.error is not None and is_auth_problem(o.error) for o in result.outcomes):
            # With a rejected token the progress dialog asks for a new one; a search now
            # would only ask a second time.
            self.search()

    def _removal_failed(self, exc: BaseException) -> None:
        self.status_message.emit(user_message(exc, "Remove the DNC entries").text)
        self.search()

    # ------------------------------------------------------------------ settings
    def _key(self, name: str) -> str:
        return f"{self.kind.value}_list/{name}"

    def save_state(self, settings: QSettings) -> None:
        """Column widths, order and sort, and the last filters."""
        settings.setValue(self._key("header"), self.table.horizontalHeader().saveState())
        settings.setValue(self._key("filters"), json.dumps(self.filter_bar.state()))

    def restore_state(self, settings: QSettings) -> None:
        header = settings.value(self._key("header"))
        if isinstance(header, QByteArray | bytes) and header:
            self.table.horizontalHeader().restoreState(QByteArray(header))
        raw = settings.value(self._key("filters"))
        if isinstance(raw, str) and raw:
            try:
                state = json.loads(raw)
            except ValueError:
                state = None
            if isinstance(state, dict):
                self.filter_bar.set_state(state)


def _tsv_cell(text: str) -> str:
    # A tab or newline inside a reason would break the grid when pasted.
    return text.replace("\t", " ").replace("\r", " ").replace("\n", " ")


def _day_search_of(api: ApiClient, ctx: TaskContext) -> DaySearch | None:
    """:func:`ask_day_search` of the first entries of the DNC list. Blocks: run it on a worker."""
    page = api.search_dnc(DncQuery(), offset=0, limit=DAY_PROBE_ENTRIES, cancel=ctx.cancel_event)
    return ask_day_search(
        lambda query: api.search_dnc(query, offset=0, limit=1, cancel=ctx.cancel_event),
        page.items,
    )
