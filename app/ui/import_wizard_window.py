"""The main window's part of imports, bulk removals, exports and jobs.

:func:`install_job_features` adds the "Import…", "Bulk removal…" and "Export…" actions (menu and
toolbar), the Jobs tab, opening the import wizard for a file dropped onto the window, and the
question asked when the window closes while a job runs. Kept apart from the window's own module
so the window stays about connections and views; the window calls it once at the end of its
constructor.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QDialog, QMenu, QMessageBox, QStyle, QToolBar, QWidget
from shiboken6 import Shiboken

from app.api.client import DncQuery
from app.core.session import Session
from app.ui.bulk_removal_dialog import BulkRemovalDialog
from app.ui.export_dialog import ExportDialog
from app.ui.import_pages_source import FILE_FILTER
from app.ui.import_wizard import ImportWizard
from app.ui.job_list import JobListView, stopped_jobs_text
from app.ui.job_progress import ask_before_close, job_registry
from app.ui.list_view import same_connection
from app.ui.removal_progress import ask_before_close_removals

if TYPE_CHECKING:
    from app.ui.main_window import MainWindow

JOBS_TAB = "Jobs"
_DROPPABLE = tuple(
    part.strip("*").lower() for part in FILE_FILTER.split("(")[1].split(")")[0].split()
)
NOT_CONNECTED = "Connect first (File ▸ Connections…, or Sandbox ▸ Open the sandbox)."


def droppable(path: Path) -> bool:
    return path.suffix.lower() in _DROPPABLE


class JobFeatures(QObject):
    """Owns the import/removal/export actions, the Jobs tab and the dialogs they open."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.dialog: QWidget | None = None  # the wizard or dialog opened last
        self._last_session: Session | None = None
        self._hinted = False
        sp = QStyle.StandardPixmap
        self.act_import = self._action(
            "&Import…", self.import_file, "Ctrl+I", sp.SP_DialogOpenButton,
            "Import a spreadsheet of numbers into the DNC or SMS opt-out list",
        )  # fmt: skip
        self.act_bulk_remove = self._action(
            "&Bulk removal…", self.bulk_remove, None, sp.SP_DialogDiscardButton,
            "Remove many numbers from the DNC list at once (file or pasted column)",
        )  # fmt: skip
        self.act_export = self._action(
            "E&xport list…", self.export_search, "Ctrl+E", sp.SP_DialogSaveButton,
            "Export every row of the current DNC or SMS search to xlsx or CSV",
        )  # fmt: skip
        self.act_jobs = self._action(
            "&Show jobs", self.show_jobs, None, None, "Imports and removals, running and past"
        )
        self.jobs_view = JobListView(window.paths, window.runner, window.tabs)
        window.tabs.addTab(self.jobs_view, JOBS_TAB)
        window._wire_view(self.jobs_view)
        self.jobs_view.job_finished.connect(self._job_finished)
        self.jobs_view.loaded.connect(self._jobs_loaded)
        self._add_menu()
        self._add_toolbar()
        window.state.session_changed.connect(self._session_changed)
        window.setAcceptDrops(True)
        window.installEventFilter(self)
        self._session_changed(window.state.session)

    def _action(
        self, text: str, slot: Any, shortcut: str | None, icon: QStyle.StandardPixmap | None,
        tip: str,
    ) -> QAction:  # fmt: skip
        action = QAction(text, self.window)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        if icon is not None:
            action.setIcon(self.window.style().standardIcon(icon))
        action.setToolTip(tip)
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.window.addAction(action)
        return action

    def _add_menu(self) -> None:
        bar = self.window.menuBar()
        menu = QMenu("&Jobs", bar)
        for action in (self.act_import, self.act_bulk_remove, self.act_export):
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.act_jobs)
        help_action = next((a for a in bar.actions() if a.text() == "&Help"), None)
        if help_action is not None:
            bar.insertMenu(help_action, menu)
        else:
            bar.addMenu(menu)

    def _add_toolbar(self) -> None:
        toolbar = self.window.findChild(QToolBar, "main-toolbar")
        if toolbar is None:
            return
        actions = toolbar.actions()
        # Before the spacer that pushes the connection name to the right, if there is one.
        anchor = self.window.act_export_journal
        index = actions.index(anchor) + 1 if anchor in actions else len(actions)
        before = actions[index] if index < len(actions) else None
        items: list[QAction | None] = [None, self.act_import, self.act_bulk_remove,
                                       self.act_export]  # fmt: skip
        for item in items:
            if before is None:
                toolbar.addSeparator() if item is None else toolbar.addAction(item)
            elif item is None:
                toolbar.insertSeparator(before)
            else:
                toolbar.insertAction(before, item)

    # -- state ----------------------------------------------------------------------------
    @property
    def session(self) -> Session | None:
        return self.window.state.session

    def _session_changed(self, session: Session | None) -> None:
        for action in (self.act_import, self.act_bulk_remove, self.act_export):
            action.setEnabled(session is not None)
        self.jobs_view.set_session(session)
        previous, self._last_session = self._last_session, session
        if session is not None:
            for handle in job_registry().running():
                if same_connection(handle.session, session):
                    # A replaced token: a running job's next rows go through the new client
                    # (with the old, closed one, every row failed).
                    handle.set_session(session)
        dialog = self.dialog
        adopt = getattr(dialog, "set_session", None) if dialog is not None else None
        if adopt is not None and Shiboken.isValid(dialog) and same_connection(previous, session):
            # A replaced token: an open wizard or export started later uses the new client;
            # the old one is closed (black-box bb1 F7).
            adopt(session)

    def _jobs_loaded(self) -> None:
        waiting = self.jobs_view.resumable_jobs()
        if waiting and not self._hinted and self.session is not None:
            self._hinted = True
            self.window.show_status(
                stopped_jobs_text(len(waiting)),
                15_000,
            )

    def _job_finished(self, _summary: object) -> None:
        for view in self.window.list_views.values():
            refresh = getattr(view, "refresh", None)
            if refresh is not None:
                refresh()
        self.jobs_view.refresh()

    def _connected(self) -> Session | None:
        session = self.session
        if session is None:
            QMessageBox.information(self.window, "Not connected", NOT_CONNECTED)
        return session

    # -- actions ------------------------------------------------------------------------
    def import_file(self, path: Path | None = None) -> ImportWizard | None:
        """Open the import wizard (on ``path`` if given)."""
        session = self._connected()
        if session is None:
            return None
        wizard = ImportWizard(session, self.window.runner, self.window.paths, path, self.window)
        self._follow(wizard)
        wizard.show()
        return wizard

    def _follow(self, wizard: ImportWizard) -> None:
        wizard.job_started.connect(lambda _h: self.jobs_view.refresh())
        wizard.job_finished.connect(self._job_finished)
        # The import of a second phone column it opens is followed as it is.
        wizard.next_import.connect(self._follow)
        self.dialog = wizard

    def bulk_remove(self) -> BulkRemovalDialog | None:
        session = self._connected()
        if session is None:
            return None
        dialog = BulkRemovalDialog(session, self.window.runner, self.window.paths, self.window)
        dialog.auth_problem.connect(self.window.handle_auth_problem)
        dialog.job_started.connect(lambda _h: self.jobs_view.refresh())
        dialog.job_finished.connect(self._job_finished)
        self.dialog = dialog
        dialog.show()
        return dialog

    def export_search(self) -> ExportDialog | None:
        """Export the current search of the DNC or SMS tab (the DNC list from other tabs)."""
        session = self._connected()
        if session is None:
            return None
        views = self.window.list_views
        current = self.window.tabs.currentWidget()
        kind = next((k for k, v in views.items() if v is current), "dnc")
        view = views.get(kind)
        bar = getattr(view, "filter_bar", None)
        query: DncQuery | None = DncQuery()
        filters, scope_said = "", ""
        if bar is not None:
            query = bar.query()
            filters, scope_said = bar.describe(), bar.scope_said()
        if query is None:
            self.window.show_status("Fix the filter first: the search it describes is not valid.")
            return None
        dialog = ExportDialog(
            session,
            self.window.runner,
            self.window.paths,
            kind,
            query,
            filters,
            self.window,
            scope_said=scope_said,
        )
        self.dialog = dialog
        dialog.show()
        return dialog

    def show_jobs(self) -> None:
        self.window.tabs.setCurrentWidget(self.jobs_view)
        self.jobs_view.refresh()

    # -- window events ------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self.window:
            return False
        kind = event.type()
        if kind == QEvent.Type.DragEnter and isinstance(event, QDragEnterEvent):
            urls = event.mimeData().urls()
            if len(urls) == 1 and urls[0].isLocalFile() and droppable(Path(urls[0].toLocalFile())):
                event.acceptProposedAction()
                return True
            return False
        if kind == QEvent.Type.Drop and isinstance(event, QDropEvent):
            urls = event.mimeData().urls()
            if urls and urls[0].isLocalFile():
                event.acceptProposedAction()
                self.import_file(Path(urls[0].toLocalFile()))
                return True
            return False
        if kind == QEvent.Type.Close and isinstance(event, QCloseEvent):
            # The jobs first: a job paused and kept open can be resumed, a list-view removal
            # stopped cannot (it is asked last, so "Keep working" there stops nothing).
            if not ask_before_close(self.window) or not ask_before_close_removals(self.window):
                event.ignore()
                return True
            self._close_dialogs()
        return False

    def _close_dialogs(self) -> None:
        """The window is closing (its jobs paused or cancelled): its dialogs close with it.
        The import wizard stayed on screen, saying its job was running, over a window gone."""
        for dialog in self.window.findChildren(QDialog):
            if dialog.isWindow() and dialog.isVisible():
                dialog.close()


def install_job_features(window: MainWindow) -> JobFeatures:
    """Give ``window`` the import, bulk removal, export and jobs features."""
    return JobFeatures(window)
