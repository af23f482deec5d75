"""The Change journal tab: list, filter, verify and export the local journal of writes."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSettings,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.evidence import journal_number
from app.core.journal import (
    ChainVerdict,
    ChangeJournal,
    JournalEntry,
    JournalError,
)
from app.ui.error_messages import user_message
from app.ui.plain_text import literal, plain_label
from app.ui.tasks import TaskContext, TaskRunner
from app.ui.theme import Banner

PAGE_SIZE = 500

OPERATIONS = (
    ("Any operation", ""),
    ("DNC: any", "dnc."),
    ("DNC: add", "dnc.insert"),
    ("DNC: edit", "dnc.update"),
    ("DNC: remove", "dnc.delete"),
    ("SMS opt-out: any", "sms."),
    ("SMS opt-out: add", "sms.insert"),
    ("SMS opt-out: edit", "sms.update"),
    ("Lead status change", "lead.update"),
    ("Campaign status change", "campaign.status"),
    ("Jobs (imports, removals)", "job."),
    ("Launch gate overrides", "gate.override"),
)


@dataclass(frozen=True)
class JournalFilter:
    """The journal view's filter; blank fields do not filter. ``phone`` is as the journal
    stores it (E.164): :meth:`JournalView.current_filter` reads what was typed."""

    text: str = ""
    operation: str = ""
    phone: str = ""
    since: str = ""
    until: str = ""
    job: str = ""

    def query(
        self, journal: ChangeJournal, *, limit: int, offset: int, max_id: int | None
    ) -> list[JournalEntry]:
        return journal.query(
            text=self.text,
            operation=self.operation,
            phone=self.phone,
            since=self.since,
            until=self.until,
            job=self.job,
            limit=limit,
            offset=offset,
            max_id=max_id,
        )

    def count(self, journal: ChangeJournal, *, max_id: int | None = None) -> int:
        return journal.count(
            text=self.text,
            operation=self.operation,
            phone=self.phone,
            since=self.since,
            until=self.until,
            job=self.job,
            max_id=max_id,
        )


def _time_text(stored: str) -> str:
    try:
        parsed = datetime.strptime(stored, "%Y-%m-%dT%H:%M:%S.%fZ")
    except ValueError:
        return stored
    return parsed.strftime("%Y-%m-%d %H:%M:%S")


_OPERATION_LABELS = {
    **{code: label for label, code in OPERATIONS if code and not code.endswith(".")},
    "job.start": "Job started",
    "job.resume": "Job resumed",
    "job.pause": "Job paused",
    "job.finish": "Job finished",
    "gate.override": "Launch gate overridden",
    "dnc.delete.not_attempted": "DNC: remove — not attempted",
}


def operation_label(code: str) -> str:
    """A readable name for an operation code ("dnc.delete" → "DNC: remove")."""
    return _OPERATION_LABELS.get(code, code)


def _outcome_text(entry: JournalEntry) -> str:
    if entry.phase == "intent":
        return "about to send"
    if entry.phase == "event":
        # A write's settled event says what became of it (the first attempt of a delete whose
        # answer was lost removed the entry): the tab shows it, not a bare "event".
        settled = (entry.after or {}).get("settled")
        return f"settled: {settled}" if isinstance(settled, str) and settled else "event"
    return entry.outcome


class JournalTableModel(QAbstractTableModel):
    """Journal rows, newest first, loaded a page at a time as the view scrolls.

    Signals:
        loading(bool): a count or page request is in flight.
        total_changed(int): number of rows matching the filter.
        load_failed(object): the exception a load raised.
    """

    loading = Signal(bool)
    total_changed = Signal(int)
    load_failed = Signal(object)

    COL_ID, COL_TIME, COL_OPERATION, COL_OUTCOME, COL_PHONE, COL_TARGET = range(6)
    COL_CONNECTION, COL_NOTE, COL_ERROR, COL_JOB, COL_ACTOR = range(6, 11)
    HEADERS = (
        "Entry",
        "Time (UTC)",
        "Operation",
        "Outcome",
        "Phone",
        "Target",
        "Connection",
        "Note / reason",
        "Error",
        "Job",
        "Actor",
    )
    EntryRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._journal: ChangeJournal | None = None
        self._rows: list[JournalEntry] = []
        self._total: int | None = None
        self._filter = JournalFilter()
        self._generation = 0
        self._in_flight = False
        self._max_id: int | None = None

    @property
    def total(self) -> int | None:
        return self._total

    @property
    def current_filter(self) -> JournalFilter:
        return self._filter

    def entry(self, row: int) -> JournalEntry:
        return self._rows[row]

    def set_journal(self, journal: ChangeJournal | None) -> None:
        self._journal = journal
        self.search(self._filter)

    def search(self, journal_filter: JournalFilter) -> None:
        """Start over with a new filter; pages of an earlier search that arrive late are
        dropped by their generation number."""
        self._filter = journal_filter
        self.clear()
        journal = self._journal
        if journal is None:
            return
        generation = self._generation

        def work(_ctx: TaskContext) -> tuple[int, list[JournalEntry]]:
            rows = journal_filter.query(journal, limit=PAGE_SIZE, offset=0, max_id=None)
            if not rows:
                return 0, rows
            # Later pages and the count stop at this id, so entries appended while the user
            # scrolls do not shift the offsets (they appear on the next search).
            return journal_filter.count(journal, max_id=rows[0].id), rows

        self._start_load()
        self._runner.submit(
            "Load the change journal",
            work,
            on_done=lambda result: self._on_first_page(generation, result),
            on_error=lambda exc: self._on_failed(generation, exc),
        )

    def clear(self) -> None:
        """Show no entries, and drop pages of a search still on its way (by generation): a
        filter that could not be searched lists nothing as its matches."""
        self._generation += 1
        self.beginResetModel()
        self._rows = []
        self._total = None
        self._max_id = None
        self._in_flight = False
        self.endResetModel()

    def _start_load(self) -> None:
        self._in_flight = True
        self.loading.emit(True)

    def _on_first_page(self, generation: int, result: tuple[int, list[JournalEntry]]) -> None:
        if generation != self._generation:
            return
        self._in_flight = False
        total, rows = result
        self._total = total
        self._max_id = rows[0].id if rows else None
        self._insert(rows)
        self.loading.emit(False)
        self.total_changed.emit(total)

    def _on_page(self, generation: int, rows: list[JournalEntry]) -> None:
        if generation != self._generation:
            return
        self._in_flight = False
        self._insert(rows)
        if not rows:
            # The journal shrank under us (another instance cannot delete, but be safe).
            self._total = len(self._rows)
        self.loading.emit(False)

    def _on_failed(self, generation: int, exc: BaseException) -> None:
        if generation != self._generation:
            return
        self._in_flight = False
        self.loading.emit(False)
        self.load_failed.emit(exc)

    def _insert(self, rows: list[JournalEntry]) -> None:
        if not rows:
            return
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self._rows.extend(rows)
        self.endInsertRows()

    # ----------------------------------------------------------------- Qt model API
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < len(self.HEADERS)
        ):
            return self.HEADERS[section]
        return None

    def data(
        self,
        index: QModelIndex | QPersistentModelIndex,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        entry = self._rows[index.row()]
        column = index.column()
        if role == self.EntryRole:
            return entry
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(entry, column)
        if role == Qt.ItemDataRole.ToolTipRole and column == self.COL_OPERATION:
            return literal(entry.operation)  # a tooltip guesses rich text
        if role == Qt.ItemDataRole.ToolTipRole and column in (
            self.COL_OUTCOME,
            self.COL_TARGET,
            self.COL_NOTE,
            self.COL_ERROR,
        ):
            return literal(self._display(entry, column)) or None
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.COL_ID:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, entry: JournalEntry, column: int) -> str:
        values = {
            self.COL_ID: str(entry.id),
            self.COL_TIME: _time_text(entry.time),
            self.COL_OPERATION: operation_label(entry.operation),
            self.COL_OUTCOME: _outcome_text(entry),
            self.COL_PHONE: entry.phone,
            self.COL_TARGET: entry.target,
            self.COL_CONNECTION: entry.connection,
            self.COL_NOTE: entry.note,
            self.COL_ERROR: entry.error,
            self.COL_JOB: entry.job,
            self.COL_ACTOR: entry.actor,
        }
        return values.get(column, "")

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> bool:
        if parent.isValid() or self._total is None or self._in_flight:
            return False
        return len(self._rows) < self._total

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> None:
        journal = self._journal
        if not self.canFetchMore(parent) or journal is None:
            return
        generation = self._generation
        journal_filter, max_id = self._filter, self._max_id
        offset = len(self._rows)
        self._start_load()
        self._runner.submit(
            "Load more of the change journal",
            lambda _ctx: journal_filter.query(
                journal, limit=PAGE_SIZE, offset=offset, max_id=max_id
            ),
            on_done=lambda rows: self._on_page(generation, rows),
            on_error=lambda exc: self._on_failed(generation, exc),
        )


def _message(exc: BaseException, action: str) -> str:
    # JournalError already is a sentence for the user (e.g. a malformed date bound).
    return str(exc) if isinstance(exc, JournalError) else user_message(exc, action).text


def export_journal(
    journal: ChangeJournal, path: Path, journal_filter: JournalFilter, ctx: TaskContext
) -> int:
    """Write every entry matching the filter (not only the loaded ones) to ``path``."""

    entries = journal.matching(
        text=journal_filter.text,
        operation=journal_filter.operation,
        phone=journal_filter.phone,
        since=journal_filter.since,
        until=journal_filter.until,
        job=journal_filter.job,
        cancelled=lambda: ctx.cancelled,
    )
    return journal.export_xlsx(path, entries)


class JournalView(QWidget):
    """Lists the change journal with a filter bar, shows whether its hash chain is intact,
    and exports the filtered entries to xlsx.

    Signals:
        status_message(str): text for the status bar.
        busy_changed(bool): loading, verifying or exporting.
        verdict_ready(object): the :class:`ChainVerdict` of the last verification.
    """

    status_message = Signal(str)
    busy_changed = Signal(bool)
    verdict_ready = Signal(object)

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._journal: ChangeJournal | None = None
        self.verdict: ChainVerdict | None = None
        self._verified_at: float | None = None
        self._verifying = False

        self.verdict_banner = Banner(self)
        self.text_edit = QLineEdit(self)
        self.text_edit.setPlaceholderText("Text in target, note, error, values…")
        self.text_edit.setClearButtonEnabled(True)
        self.operation_combo = QComboBox(self)
        for label, value in OPERATIONS:
            self.operation_combo.addItem(label, value)
        self.phone_edit = QLineEdit(self)
        self.phone_edit.setPlaceholderText("Phone, e.g. 202-555-0143")
        self.phone_edit.setClearButtonEnabled(True)
        self.since_edit = QLineEdit(self)
        self.since_edit.setPlaceholderText("From YYYY-MM-DD")
        self.until_edit = QLineEdit(self)
        self.until_edit.setPlaceholderText("To YYYY-MM-DD")
        self.job_edit = QLineEdit(self)
        self.job_edit.setPlaceholderText("Job")
        self.job_edit.setClearButtonEnabled(True)
        for edit in (self.since_edit, self.until_edit):
            edit.setMaximumWidth(130)
        self.search_button = QPushButton("Search", self)
        self.search_button.clicked.connect(self.refresh)
        for edit in (
            self.text_edit,
            self.phone_edit,
            self.since_edit,
            self.until_edit,
            self.job_edit,
        ):
            edit.returnPressed.connect(self.refresh)
        self.operation_combo.activated.connect(lambda _i: self.refresh())

        self.verify_button = QPushButton("Verify chain", self)
        self.verify_button.setToolTip("Recompute the hash chain to detect edited or deleted rows.")
        self.verify_button.clicked.connect(self.verify)
        self.export_button = QPushButton("Export to xlsx…", self)
        self.export_button.setToolTip("Save every entry matching the filter to a spreadsheet.")
        self.export_button.clicked.connect(self.export)
        self.count_label = plain_label(QLabel(self))  # may show an error

        self.model = JournalTableModel(runner, self)
        self.model.loading.connect(self._on_loading)
        self.model.total_changed.connect(self._on_total)
        self.model.load_failed.connect(self._on_load_failed)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in (
            (JournalTableModel.COL_ID, 60),
            (JournalTableModel.COL_TIME, 150),
            (JournalTableModel.COL_OPERATION, 110),
            (JournalTableModel.COL_OUTCOME, 110),
            (JournalTableModel.COL_PHONE, 130),
            (JournalTableModel.COL_TARGET, 240),
            (JournalTableModel.COL_CONNECTION, 110),
            (JournalTableModel.COL_NOTE, 200),
            (JournalTableModel.COL_ERROR, 200),
            (JournalTableModel.COL_JOB, 160),
        ):
            self.table.setColumnWidth(column, width)

        filters = QHBoxLayout()
        filters.addWidget(self.text_edit, 2)
        filters.addWidget(self.operation_combo, 1)
        filters.addWidget(self.phone_edit, 1)
        filters.addWidget(self.since_edit)
        filters.addWidget(self.until_edit)
        filters.addWidget(self.job_edit, 1)
        filters.addWidget(self.search_button)
        actions = QHBoxLayout()
        actions.addWidget(self.count_label, 1)
        actions.addWidget(self.verify_button)
        actions.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.verdict_banner)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addLayout(actions)
        self._set_enabled(False)

    # ----------------------------------------------------------------- public
    def set_journal(self, journal: ChangeJournal | None) -> None:
        self._journal = journal
        self._set_enabled(journal is not None)
        self.model.set_journal(journal)

    def current_filter(self) -> JournalFilter:
        """The filter as shown. Raises :class:`JournalError` saying so when the phone box holds
        no phone number: it is read as ``journal export --number`` reads one, with the
        window's default country code (1, US/Canada) for a number written without its own."""
        typed = self.phone_edit.text().strip()
        try:
            phone = journal_number(typed)
        except JournalError as exc:
            raise JournalError(
                f"The phone filter {typed!r} is no phone number the journal can be searched by "
                f"({exc}). Write it with its country code (+44 20 7946 0402), or a US/Canada "
                "number with its area code (202 555 0143)."
            ) from exc
        return JournalFilter(
            text=self.text_edit.text(),
            operation=str(self.operation_combo.currentData() or ""),
            phone=phone,
            since=self.since_edit.text(),
            until=self.until_edit.text(),
            job=self.job_edit.text(),
        )

    def _shown_filter(self, stopped: str) -> JournalFilter | None:
        """:meth:`current_filter`, or None once its refusal is said with ``stopped`` (what it
        stops): a phone box the journal cannot be searched by is never searched as nothing."""
        try:
            return self.current_filter()
        except JournalError as exc:
            said = f"{exc} {stopped}"
            self.count_label.setText(said)
            self.status_message.emit(said)
            return None

    def refresh(self) -> None:
        """Search again with the filter as shown."""
        journal_filter = self._shown_filter("Nothing was searched.")
        if journal_filter is None:
            # The rows of the last search are not this filter's matches.
            self.model.clear()
            return
        self.model.search(journal_filter)

    def status_text(self) -> str:
        """What the status bar says while this tab is shown."""
        return self.count_label.text()

    def focus_filter(self) -> None:
        self.text_edit.setFocus()
        self.text_edit.selectAll()

    def verify(self) -> None:
        """Recompute the hash chain in the background and show the verdict."""
        journal = self._journal
        if journal is None or self._verifying:
            return
        self._verifying = True
        self.verify_button.setEnabled(False)
        self.busy_changed.emit(True)
        self.status_message.emit("Verifying the change journal…")
        self._runner.submit(
            "Verify the change journal",
            lambda _ctx: journal.verify(),
            on_done=self._on_verdict,
            on_error=self._on_verify_failed,
        )

    def verify_if_stale(self, max_age: float = 10.0) -> None:
        """Re-check the chain when the last check is older than ``max_age`` seconds, so the
        verdict shown covers the entries written since (a broken chain stays broken)."""
        if self.verdict is not None and not self.verdict.ok:
            return
        if self._verified_at is not None and time.monotonic() - self._verified_at < max_age:
            return
        self.verify()

    def export(self) -> None:
        journal = self._journal
        if journal is None:
            return
        journal_filter = self._shown_filter("Nothing was exported.")
        if journal_filter is None:
            return
        default = Path.home() / f"change-journal-{datetime.now():%Y-%m-%d}.xlsx"
        chosen, _ = QFileDialog.getSaveFileName(
            self, "Export the change journal", str(default), "Excel workbook (*.xlsx)"
        )
        if not chosen:
            return
        path = Path(chosen)
        if path.suffix.lower() != ".xlsx":
            path = path.with_name(path.name + ".xlsx")
        self.export_button.setEnabled(False)
        self.busy_changed.emit(True)
        self.status_message.emit(f"Exporting the change journal to {path.name}…")
        self._runner.submit(
            "Export the change journal",
            lambda ctx: export_journal(journal, path, journal_filter, ctx),
            on_done=lambda count: self._on_exported(path, count),
            on_error=self._on_export_failed,
        )

    def save_state(self, settings: QSettings) -> None:
        settings.setValue("journal/columns", self.table.horizontalHeader().saveState())

    def restore_state(self, settings: QSettings) -> None:
        state = settings.value("journal/columns")
        if state is not None:
            self.table.horizontalHeader().restoreState(state)

    # ----------------------------------------------------------------- slots
    def _set_enabled(self, enabled: bool) -> None:
        for widget in (self.search_button, self.verify_button, self.export_button):
            widget.setEnabled(enabled)

    def _on_loading(self, loading: bool) -> None:
        self.busy_changed.emit(loading)
        if loading:
            self.status_message.emit("Loading the change journal…")

    def _on_total(self, total: int) -> None:
        noun = "entry matches" if total == 1 else "entries match"
        self.count_label.setText(f"{total:,} journal {noun} the filter.")
        self.status_message.emit(f"Change journal: {total:,} {noun.split()[0]}.")
        verdict = self.verdict
        unfiltered = self.model.current_filter == JournalFilter()
        if unfiltered and verdict is not None and verdict.ok and verdict.rows != total:
            # The list shows entries the verdict has not covered yet: check them too, so the
            # banner's count matches what is listed.
            self.verify()

    def _on_load_failed(self, exc: BaseException) -> None:
        text = _message(exc, "Loading the change journal")
        self.count_label.setText(text)
        self.status_message.emit(text)

    def _on_verdict(self, verdict: ChainVerdict) -> None:
        self.verdict = verdict
        self._verifying = False
        self._verified_at = time.monotonic()
        self.verify_button.setEnabled(True)
        self.busy_changed.emit(False)
        checked = f"Checked at {datetime.now():%H:%M}: "
        if verdict.ok:
            self.verdict_banner.show_message(checked + verdict.message, "info")
        else:
            where = f" {self._journal.path}" if self._journal is not None else ""
            self.verdict_banner.show_message(
                f"{checked}{verdict.message} Keep a copy of the file{where} and export the journal "
                "now; entries from the altered point on cannot be trusted.",
                "error",
            )
        self.status_message.emit(verdict.message)
        self.verdict_ready.emit(verdict)

    def _on_verify_failed(self, exc: BaseException) -> None:
        self._verifying = False
        self.verify_button.setEnabled(True)
        self.busy_changed.emit(False)
        text = _message(exc, "Verifying the change journal")
        self.verdict_banner.show_message(text, "error")
        self.status_message.emit(text)
        self.verdict_ready.emit(ChainVerdict(False, 0, None, text))

    def _on_exported(self, path: Path, count: int) -> None:
        self.export_button.setEnabled(True)
        self.busy_changed.emit(False)
        noun = "entry" if count == 1 else "entries"
        self.status_message.emit(f"Exported {count:,} journal {noun} to {path}.")

    def _on_export_failed(self, exc: BaseException) -> None:
        self.export_button.setEnabled(True)
        self.busy_changed.emit(False)
        self.status_message.emit(_message(exc, "Exporting the change journal"))
