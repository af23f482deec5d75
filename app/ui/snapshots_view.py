"""The Snapshots tab: save a full copy of a list, compare two copies (or one with now), export.

A snapshot is core's (``take_snapshot``, one SQLite file per copy in the snapshots folder);
this view lists them, takes new ones with progress and Cancel, and shows a comparison as
added, removed and changed entries, exportable to xlsx.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.api.paging import Cancelled
from app.api.scope import Scope, ScopeError
from app.core.audit_types import ListKind
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.snapshots import (
    DEFAULT_CONCURRENCY,
    KIND_NAMES,
    EntryChange,
    SnapshotData,
    SnapshotDiff,
    SnapshotError,
    diff,
    fetch_list,
    list_snapshots,
    load_snapshot,
    not_read_warning,
    scope_words,
    take_snapshot,
    unread_reason,
    write_diff_xlsx,
)
from app.core.wording import counted
from app.ui.audit_table_model import (
    RAW_ROLE,
    Column,
    ObjectTableModel,
    entry_columns,
    sort_proxy,
)
from app.ui.error_messages import user_message
from app.ui.list_view import is_auth_problem
from app.ui.plain_text import plain_label, rich
from app.ui.tasks import Task, TaskContext, TaskRunner

LIST_CHOICES = (("DNC list", ListKind.DNC), ("SMS opt-out list", ListKind.SMS))


def _read(data: SnapshotData) -> int:
    return sum(p.fetched for p in data.parts)


def _unreachable(data: SnapshotData) -> int:
    # Listed without their entries: the parts say how many each search could not reach.
    return sum(p.unreachable for p in data.parts)


SNAPSHOT_COLUMNS: tuple[Column[SnapshotData], ...] = (
    Column("Taken (UTC)", lambda s: s.taken_at.replace("T", " ").rstrip("Z")[:19]),
    Column("List", lambda s: KIND_NAMES[s.kind]),
    Column("Scope", lambda s: scope_words(s.scope)),
    Column("Entries read", _read),
    Column("Service reported", lambda s: s.reported_total),
    Column("Unreachable", _unreachable),
    Column("Connection", lambda s: s.connection),
    Column("File", lambda s: s.path.name if s.path else "", tip=lambda s: str(s.path or "")),
)
COL_SNAP_TAKEN, COL_SNAP_LIST, COL_SNAP_SCOPE, COL_SNAP_ENTRIES = range(4)


def _changes(change: EntryChange) -> str:
    return "; ".join(
        f"{f}: {getattr(change.before, f)!r} → {getattr(change.after, f)!r}" for f in change.fields
    )


CHANGE_COLUMNS: tuple[Column[EntryChange], ...] = (
    Column("Id", lambda c: c.before.id),
    Column("Number", lambda c: c.after.phone_number),
    Column("Scope", lambda c: c.after.scope.label(c.after.campaign_name)),
    Column("Changed fields", lambda c: ", ".join(c.fields)),
    Column("Before → after", _changes),
)


def diff_summary(result: SnapshotDiff) -> str:
    warning = not_read_warning(result)
    return (
        f"{rich(result.old)}<br>→ {rich(result.new)}<br><b>{len(result.added):,} added, "
        f"{len(result.removed):,} removed, {len(result.changed):,} changed.</b>"
        + (f"<br>{rich(warning)}" if warning else "")
    )


def _table(model: Any, parent: QWidget, multi: bool = False) -> QTableView:
    table = QTableView(parent)
    table.setModel(sort_proxy(model, table))
    table.setSortingEnabled(True)
    table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(
        QAbstractItemView.SelectionMode.ExtendedSelection
        if multi
        else QAbstractItemView.SelectionMode.SingleSelection
    )
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    table.verticalHeader().setDefaultSectionSize(22)
    table.horizontalHeader().setStretchLastSection(True)
    return table


class SnapshotsView(QWidget):
    """Saved snapshots of the DNC and SMS opt-out lists, and comparisons between them.

    Signals:
        status_message(str): text for the window's status bar.
        auth_problem(object, object): (exception, retry) when the service rejected the token.
        busy_changed(bool): background work of this view started (True) or all of it ended.
        snapshots_loaded(): the list of saved snapshots was (re)read.
        snapshot_saved(object): the :class:`SnapshotData` just saved (with its path).
        diff_ready(object): the :class:`SnapshotDiff` now shown.
    """

    status_message = Signal(str)
    auth_problem = Signal(object, object)
    busy_changed = Signal(bool)
    snapshots_loaded = Signal()
    snapshot_saved = Signal(object)
    diff_ready = Signal(object)

    def __init__(self, runner: TaskRunner, paths: AppPaths, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.paths = paths
        self.session: Session | None = None
        self.current_diff: SnapshotDiff | None = None
        self._task: Task | None = None
        self._busy = 0
        self._generation = 0
        self._status_text = ""

        self.list_combo = QComboBox(self)
        for label, kind in LIST_CHOICES:
            self.list_combo.addItem(label, kind)
        self.scope_edit = QLineEdit(self)
        self.scope_edit.setPlaceholderText("whole list, or global / campaign:ID / purpose:TEXT")
        self.scope_edit.setClearButtonEnabled(True)
        self.save_button = QPushButton("Save snapshot", self)
        self.save_button.setToolTip("Copy every reachable entry of the list into a local file")
        self.save_button.clicked.connect(self.save_snapshot)
        self.progress_bar = QProgressBar(self)
        self.progress_label = plain_label(QLabel(self))
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.clicked.connect(self.cancel)
        for widget in (self.progress_bar, self.progress_label, self.cancel_button):
            widget.hide()
        take = QHBoxLayout()
        take.addWidget(QLabel("List", self))
        take.addWidget(self.list_combo)
        take.addWidget(QLabel("Scope", self))
        take.addWidget(self.scope_edit, 1)
        take.addWidget(self.save_button)
        take.addWidget(self.progress_label)
        take.addWidget(self.progress_bar)
        take.addWidget(self.cancel_button)

        self.model: ObjectTableModel[SnapshotData] = ObjectTableModel(SNAPSHOT_COLUMNS, self)
        self.table = _table(self.model, self, multi=True)
        self.table.sortByColumn(COL_SNAP_TAKEN, Qt.SortOrder.DescendingOrder)
        self.compare_button = QPushButton("Compare the two selected", self)
        self.compare_button.clicked.connect(self.compare_selected)
        self.now_button = QPushButton("Compare with now", self)
        self.now_button.setToolTip("Read the same list and scope from the service and compare")
        self.now_button.clicked.connect(self.compare_with_now)
        self.export_button = QPushButton("Export differences…", self)
        self.export_button.clicked.connect(self.export_diff)
        self.reload_button = QPushButton("Reload", self)
        self.reload_button.clicked.connect(self.reload)
        compare = QHBoxLayout()
        for button in (self.compare_button, self.now_button, self.export_button):
            compare.addWidget(button)
        compare.addStretch()
        compare.addWidget(self.reload_button)

        self.diff_label = QLabel("Select two snapshots of the same list to compare.", self)
        self.diff_label.setWordWrap(True)
        self.diff_label.setTextFormat(Qt.TextFormat.RichText)
        self.added_model: ObjectTableModel[Any] = ObjectTableModel(entry_columns(), self)
        self.removed_model: ObjectTableModel[Any] = ObjectTableModel(entry_columns(), self)
        self.changed_model: ObjectTableModel[Any] = ObjectTableModel(CHANGE_COLUMNS, self)
        self.diff_tabs = QTabWidget(self)
        self.diff_tabs.addTab(_table(self.added_model, self), "Added")
        self.diff_tabs.addTab(_table(self.removed_model, self), "Removed")
        self.diff_tabs.addTab(_table(self.changed_model, self), "Changed")

        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addLayout(take)
        top_layout.addWidget(self.table)
        top_layout.addLayout(compare)
        bottom = QWidget(self)
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.diff_label)
        bottom_layout.addWidget(self.diff_tabs)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(top)
        splitter.addWidget(bottom)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

        self.table.selectionModel().selectionChanged.connect(self._update_actions)
        self.model.modelReset.connect(self._update_actions)
        self._update_actions()

    def refresh(self) -> None:
        """The window's Refresh (F5): read the snapshots folder again."""
        self.reload()

    # ------------------------------------------------------------------ state
    def status_text(self) -> str:
        return self._status_text

    def _say(self, text: str) -> None:
        self._status_text = text
        self.status_message.emit(text)

    def _work(self, started: bool) -> None:
        before = self._busy > 0
        self._busy = max(0, self._busy + (1 if started else -1))
        if before != (self._busy > 0):
            self.busy_changed.emit(self._busy > 0)
        self._update_actions()

    def selected(self) -> list[SnapshotData]:
        out = []
        for index in self.table.selectionModel().selectedRows():
            value = index.data(RAW_ROLE)
            if isinstance(value, SnapshotData):
                out.append(value)
        return sorted(out, key=lambda s: s.taken_at)

    def select_paths(self, paths: list[Path]) -> None:
        """Select the snapshots stored in these files (the rest is deselected)."""
        self.table.clearSelection()
        model = self.table.selectionModel()
        flags = model.SelectionFlag.Select | model.SelectionFlag.Rows
        proxy = self.table.model()
        for row in range(proxy.rowCount()):
            value = proxy.index(row, 0).data(RAW_ROLE)
            if isinstance(value, SnapshotData) and value.path in paths:
                model.select(proxy.index(row, 0), flags)

    def _update_actions(self, *_: object) -> None:
        idle = self._task is None
        chosen = self.selected()
        self.save_button.setEnabled(idle and self.session is not None)
        self.compare_button.setEnabled(idle and len(chosen) == 2)
        self.now_button.setEnabled(idle and len(chosen) == 1 and self.session is not None)
        self.export_button.setEnabled(self.current_diff is not None)

    def set_session(self, session: Session | None) -> None:
        """Snapshots are local files: the list stays; "now" reads from the new connection."""
        self._generation += 1
        if self._task is not None:
            self._task.cancel()
        self.session = session
        self._update_actions()
        self.reload()

    # ------------------------------------------------------------------ listing
    def reload(self) -> None:
        directory = self.paths.snapshots_dir

        def done(found: list[SnapshotData]) -> None:
            self._work(False)
            keep = [s.path for s in self.selected() if s.path is not None]
            self.model.set_rows(found)
            self.select_paths(keep)
            self.snapshots_loaded.emit()

        def failed(exc: BaseException) -> None:
            self._work(False)
            self._say(user_message(exc, "Read the saved snapshots").text)

        self._work(True)
        self.runner.submit(
            "list snapshots", lambda _ctx: list_snapshots(directory), on_done=done, on_error=failed
        )

    # ------------------------------------------------------------------ saving
    def _scope(self) -> Scope | None:
        text = self.scope_edit.text().strip()
        return Scope.parse(text) if text else None

    def save_snapshot(self) -> None:
        session = self.session
        if session is None:
            self._say("Snapshots: not connected.")
            return
        try:
            scope = self._scope()
        except ScopeError as exc:
            self._say(f"Scope: {exc}.")
            return
        kind: ListKind = self.list_combo.currentData()
        api, connection, directory = session.api, session.connection.name, self.paths.snapshots_dir

        def work(ctx: TaskContext) -> SnapshotData:
            return take_snapshot(
                api,
                kind,
                scope,
                directory,
                connection=connection,
                # As the CLI's default: the window has no field for it.
                concurrency=DEFAULT_CONCURRENCY,
                cancel=ctx.cancel_event,
                progress=lambda done, total, message: ctx.report((done, total, message)),
            )

        def done(data: SnapshotData) -> None:
            self._finish()
            missing = (
                # Said as it is: rows a service's short pages left out are not the paging
                # cap's doing (black-box pass R1).
                f"; {data.unreachable:,} could not be read ({unread_reason(data)}), so the "
                "copy is incomplete"
                if data.unreachable
                else ""
            )
            self._say(
                f"Snapshot saved: {len(data.entries):,} of "
                f"{counted(data.reported_total, 'entry', 'entries')}"
                f"{missing} — {data.path}"
            )
            self.snapshot_saved.emit(data)
            self.reload()

        self._start("Saving the snapshot…", work, done, lambda: self.save_snapshot())

    # ------------------------------------------------------------------ comparing
    def compare_selected(self) -> None:
        chosen = self.selected()
        if len(chosen) != 2 or chosen[0].path is None or chosen[1].path is None:
            self._say("Select two snapshots to compare.")
            return
        old_path, new_path = chosen[0].path, chosen[1].path

        def work(_ctx: TaskContext) -> SnapshotDiff:
            return diff(load_snapshot(old_path), load_snapshot(new_path))

        self._start("Comparing…", work, self._show_diff, None)

    def compare_with_now(self) -> None:
        session, chosen = self.session, self.selected()
        if session is None or len(chosen) != 1 or chosen[0].path is None:
            self._say("Select one snapshot to compare with the list now.")
            return
        path, api, connection = chosen[0].path, session.api, session.connection.name

        def work(ctx: TaskContext) -> SnapshotDiff:
            old = load_snapshot(path)
            now = fetch_list(
                api,
                old.kind,
                old.scope,
                connection=connection,
                concurrency=DEFAULT_CONCURRENCY,
                cancel=ctx.cancel_event,
                progress=lambda done, total, message: ctx.report((done, total, message)),
            )
            return diff(old, now)

        self._start("Reading the list now…", work, self._show_diff, self.compare_with_now)

    def _show_diff(self, result: SnapshotDiff) -> None:
        self._finish()
        self.show_diff(result)
        self._say(
            f"{len(result.added):,} added, {len(result.removed):,} removed, "
            f"{len(result.changed):,} changed."
        )
        self.diff_ready.emit(result)

    def show_diff(self, result: SnapshotDiff | None) -> None:
        self.current_diff = result
        self.added_model.set_rows(result.added if result else [])
        self.removed_model.set_rows(result.removed if result else [])
        self.changed_model.set_rows(result.changed if result else [])
        self.diff_label.setText(
            diff_summary(result) if result else "Select two snapshots of the same list to compare."
        )
        self._update_actions()

    def export_diff(self) -> None:
        result = self.current_diff
        if result is None:
            return
        path, _filter = QFileDialog.getSaveFileName(
            self,
            "Export the differences",
            str(Path.home() / "snapshot-differences.xlsx"),
            "Excel workbook (*.xlsx)",
        )
        if not path:
            return
        target = Path(path)
        if target.suffix.lower() != ".xlsx":
            target = target.with_suffix(".xlsx")

        def done(_value: object) -> None:
            self._work(False)
            self._say(f"Differences saved: {target}")

        def failed(exc: BaseException) -> None:
            self._work(False)
            self._say(user_message(exc, "Export the differences").text)

        self._work(True)
        self.runner.submit(
            "export snapshot diff",
            lambda _ctx: write_diff_xlsx(result, target),
            on_done=done,
            on_error=failed,
        )

    # ------------------------------------------------------------------ running
    def _start(
        self,
        text: str,
        work: Callable[[TaskContext], Any],
        on_done: Callable[[Any], None],
        retry: Callable[[], None] | None,
    ) -> None:
        if self._task is not None:
            self._say("Wait for the current snapshot work to finish, or cancel it.")
            return
        generation = self._generation

        def done(value: Any) -> None:
            if generation == self._generation:
                on_done(value)
            else:
                self._finish()

        def failed(exc: BaseException) -> None:
            self._finish()
            if generation != self._generation:
                return
            if is_auth_problem(exc) and retry is not None:
                self.auth_problem.emit(exc, retry)
            elif isinstance(exc, Cancelled):
                self._say("Snapshot work cancelled; nothing was saved.")
            elif isinstance(exc, SnapshotError):
                self._say(str(exc))
            else:
                self._say(user_message(exc, text.rstrip("…")).text)

        self.progress_bar.setRange(0, 0)
        self.progress_label.setText(text)
        self.cancel_button.setEnabled(True)
        for widget in (self.progress_bar, self.progress_label, self.cancel_button):
            widget.show()
        self._task = self.runner.submit(
            "snapshots", work, on_done=done, on_error=failed, on_progress=self._on_progress
        )
        self._work(True)
        self._say(text)

    def _finish(self) -> None:
        self._task = None
        for widget in (self.progress_bar, self.progress_label, self.cancel_button):
            widget.hide()
        self._work(False)

    def _on_progress(self, value: object) -> None:
        if isinstance(value, tuple) and len(value) == 3:
            done, total, message = value
            if int(total) > 0:
                self.progress_bar.setRange(0, int(total))
                self.progress_bar.setValue(int(done))
            self.progress_label.setText(str(message))

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self.cancel_button.setEnabled(False)
            self.progress_label.setText("Cancelling…")
