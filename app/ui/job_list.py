"""The Jobs tab: every import and removal job on this machine, live or past, and resuming them.

The table is a thin model over :class:`app.core.job_catalog.JobInfo`; the job files are read on
the window's :class:`TaskRunner` (again every second while a job of this process runs, so its
progress and counts stay current). A job another process runs now (a ``dnc-desk import`` or
``remove`` in a terminal, another window: it holds the job's run lock, see
:func:`app.core.job_catalog.run_by`) is listed as running there, naming its pid, and is not
offered for a resume (the list is read again every second while one runs, so its row changes
when that process stops). A job whose file says it was running when no process runs it was
interrupted (the app was closed, crashed or was killed): it can be resumed, and only the rows
not answered are sent. A job whose rows were not all read from its file (the app was killed
while reading it: :func:`app.core.job_catalog.staging_state`) is listed as stopped while
reading its file and never offered for a resume; its Status tooltip says to start it again.

A job that can be resumed can also be cancelled here (Cancel job…), as ``dnc-desk jobs
cancel`` does it (:func:`app.core.job_cancel.cancel_job`, on the runner: it reads and writes
the job file and the change journal): before it, giving such a job up took resuming it and
pressing its wizard's Cancel job…, which sent rows first.
"""

from __future__ import annotations

import os
import socket
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.job_cancel import (
    NoJournal,
    WritesLeftOpen,
    busy_sentence,
    cancel_job,
    journal_for_cancel,
    open_writes_sentence,
)
from app.core.job_catalog import (
    READING,
    READING_STATE,
    STOPPED_READING_STATE,
    JobInfo,
    SameFileRefused,
    list_jobs,
    refuse_beside,
    run_by,
    staging_state,
    unstaged_sentence,
)
from app.core.job_lock import Holder, JobBusy
from app.core.job_report import AS_WRITTEN_SAID, VALID_AS_WRITTEN, write_report
from app.core.job_store import JobStatus, JobStore
from app.core.journal import JournalError
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.sheet_types import SheetError
from app.core.wording import counted
from app.ui.error_messages import user_message
from app.ui.job_progress import JobHandle, ResumeWizard, job_registry, open_path
from app.ui.plain_text import literal
from app.ui.tasks import TaskRunner

HEADERS = ("Name", "Status", "What", "File", "Progress", "Outcomes", "Note", "Created (UTC)")
COL_NAME, COL_STATUS, COL_KIND, COL_FILE, COL_PROGRESS, COL_OUTCOMES, COL_NOTE, COL_CREATED = range(
    len(HEADERS)
)
INFO_ROLE = Qt.ItemDataRole.UserRole + 1
REFRESH_MS = 1000
_OUTCOME_NAMES = (
    ("inserted", "inserted"),
    ("already_present", "already there"),
    ("removed", "removed"),
    ("not_found", "not on the list"),
    ("invalid", "invalid"),
    ("duplicate_in_file", "repeated in the file"),
    ("failed", "failed"),
    ("not_attempted", "not attempted"),
)
CANCEL_TEXT = "&Cancel job…"
# How the window's refusal of a second job of a file says to cancel the first (the CLI's says
# ``dnc-desk jobs cancel ID``).
CANCEL_FROM_JOBS_TAB = (
    "select it in the Jobs tab and click Cancel job… (its rows not sent end not attempted)"
)

INTERRUPTED = "interrupted"
RUNNING_ELSEWHERE = "running in another process"
_ROOT = QModelIndex()


def refuse_beside_in_window(store: JobStore, jobs_dir: Path, action: str) -> None:
    """:func:`~app.core.job_catalog.refuse_beside` for a job the window just staged (the
    wizard's, the bulk removal's), its refusal worded for the Jobs tab and raised as the
    :class:`SheetError` those dialogs show (S31 bb4 #6)."""
    try:
        refuse_beside(store, jobs_dir, action, "resume it from the Jobs tab", CANCEL_FROM_JOBS_TAB)
    except SameFileRefused as exc:
        raise SheetError(str(exc)) from exc


def elsewhere(holder: Holder | None) -> bool:
    """Whether ``holder`` (a job's run lock's, from :func:`run_by`) is another process than
    this one: a job it runs must not be resumed here."""
    if holder is None:
        return False
    mine = holder.pid == os.getpid() and holder.host in ("", socket.gethostname())
    return not mine


def runner_text(holder: Holder) -> str:
    """``pid 4242`` (``on HOST`` when another host's), or ``""`` when the lock names none."""
    return holder.process() if holder.pid else ""


def running_elsewhere_tip(holder: Holder) -> str:
    """The Status cell's tooltip for a job another process runs."""
    since = holder.since()
    who = ", ".join(p for p in (runner_text(holder), f"since {since}" if since else "") if p)
    return (
        f"Another process{f' ({who})' if who else ''} is running this job, such as a dnc-desk "
        "command in a terminal; it can be resumed here only once that process has stopped."
    )


def shown_in(handle: JobHandle) -> QWidget | None:
    """The open window (an import wizard, a resume's) whose run page shows ``handle``."""
    for widget in QApplication.topLevelWidgets():
        run_page = getattr(widget, "run_page", None)
        if widget.isVisible() and getattr(run_page, "handle", None) is handle:
            return widget
    return None


def job_state(info: JobInfo, handle: JobHandle | None, holder: Holder | None = None) -> str:
    """What a person should read in the Status column. ``holder``: who holds the job's run
    lock now (:func:`run_by`), which says a job another process runs is running there,
    whatever its file says (not interrupted, nor paused: that process may be resuming it)."""
    if info.error:
        return "unreadable"
    if handle is not None and handle.running:
        return "paused" if handle.paused else "running"
    if holder is not None:
        if not elsewhere(holder):
            return "running"  # by this process, outside the job registry
        who = runner_text(holder)
        return f"{RUNNING_ELSEWHERE} ({who})" if who else RUNNING_ELSEWHERE
    if staging := info.staging:
        return READING_STATE if staging == READING else STOPPED_READING_STATE
    status = info.status
    if status == JobStatus.RUNNING.value:
        return INTERRUPTED
    if status == JobStatus.PAUSED.value:
        return "paused — can be resumed"
    if status == JobStatus.READY.value:
        return "not started" if info.pending else "ready"
    if status == JobStatus.DRY_RUN.value:
        return "dry run"
    return status


def not_staged_tip(info: JobInfo) -> str:
    """Why a job whose rows were not all read from its file is not offered for a resume."""
    what = "Bulk removal…" if info.kind == "removal" else "Import…"
    return unstaged_sentence(info.meta, f" with {what} and the same file")


def outcomes_text(info: JobInfo) -> str:
    text = ", ".join(
        f"{info.counts[k]:,} {name}" for k, name in _OUTCOME_NAMES if info.counts.get(k)
    )
    as_written = valid_as_written_count(info.meta)
    if as_written:
        # The cell is narrow: its tooltip says it in the CLI's words (as_written_text).
        said = f"{as_written:,} valid, not a valid number today, looked up as written"
        text = f"{text}; {said}" if text else said
    return text


def valid_as_written_count(meta: dict[str, Any]) -> int:
    """A removal's valid rows whose number, in no number range in use today, is looked up as
    written (:data:`~app.core.job_report.VALID_AS_WRITTEN`, stored by the job's report, or by
    the window when it staged the job); 0 when not known."""
    if meta.get("kind") != "removal":
        return 0
    count = meta.get(VALID_AS_WRITTEN)
    return count if isinstance(count, int) else 0


def as_written_text(info: JobInfo) -> str:
    """The valid count of a removal with rows looked up as written, as ``dnc-desk remove``
    prints it ("valid: 6 (of which 1 not a valid number today, …)", black-box V4 #1): most
    of them end invalid, which the valid count alone does not say. ``""`` for any other."""
    as_written = valid_as_written_count(info.meta)
    if not as_written:
        return ""
    valid = info.rows - sum(
        info.counts.get(k, 0) for k in ("invalid", "duplicate_in_file", "blank")
    )
    return f"valid: {valid:,} (of which {as_written:,} {AS_WRITTEN_SAID})"


def kind_text(info: JobInfo) -> str:
    meta = info.meta
    if info.kind == "removal":
        return f"removal from DNC ({meta.get('scope', '')})"
    target = "SMS opt-outs" if meta.get("target") == "sms-opt-out" else "DNC"
    return f"import into {target} ({meta.get('scope', '')})"


def read_jobs(jobs_dir: Path) -> tuple[list[JobInfo], dict[Path, Holder]]:
    """The job files (newest first) and who holds the run lock of each job run now (read in
    the background: asking costs a lock file's read, and a lock test, per job)."""
    jobs = list_jobs(jobs_dir)
    holders = {}
    for info in jobs:
        holder = None if info.error else run_by(info)
        if holder is not None:
            holders[info.path] = holder
    return jobs, holders


@dataclass(frozen=True, slots=True)
class CancelDone:
    """What a cancel from the Jobs tab came to: ``said`` is its sentence; ``refused`` says
    nothing was changed."""

    said: str
    refused: bool


def cancel_in_background(job_path: Path, journal_db: Path) -> CancelDone:
    """Cancel the job of ``job_path`` (on the runner): its rows not sent end not attempted and
    its report is written, or a refusal saying why nothing was changed and what to do."""
    with JobStore(job_path) as store:
        meta = store.meta()
        job = str(meta.get("job_id") or job_path.stem)
        if staging_state(meta):
            # Read from the file since the list was: it holds up nothing, and sent nothing.
            what = "Bulk removal…" if meta.get("kind") == "removal" else "Import…"
            why = unstaged_sentence(meta, f" with {what} and the same file")
            return CancelDone(f"Job {job} was not cancelled, nothing was changed. {why}", True)
        try:
            # None when there is no journal: none is made (black-box bb16 F8).
            journal = journal_for_cancel(journal_db)
            try:
                outcome = cancel_job(store, journal, journal_path=journal_db)
            finally:
                if journal is not None:
                    journal.close()
        except JobBusy as exc:
            return CancelDone(busy_sentence(job, exc, "Pause, or Ctrl+C in its terminal"), True)
        except JournalError as exc:
            return CancelDone(f"{exc} Job {job} was not cancelled.", True)
        except WritesLeftOpen as exc:
            said = open_writes_sentence(
                job,
                exc.rows,
                "select it in the Jobs tab and click Resume (Pause then stops it)",
                "with Cancel job…",
                journal_db if isinstance(exc, NoJournal) else None,
            )
            return CancelDone(said, True)
    if outcome.already:
        return CancelDone(
            f"Job {job} had ended already ({outcome.status.value}); nothing was changed. "
            f"Report: {outcome.report}",
            False,
        )
    rows = counted(outcome.not_attempted, "row", "rows")
    said = (
        f"Job {job} cancelled: {rows} not sent end not attempted (cancelled before it was "
        f"sent); it no longer holds up a new job of its file. Report: {outcome.report}"
    )
    if outcome.no_journal:
        said += f" Its end is recorded in no change journal: {outcome.not_journaled}."
    elif outcome.not_journaled:
        said += (
            f" The change journal could not record the cancel ({outcome.not_journaled}): "
            "free some space, then click Verify chain in the Change journal tab."
        )
    return CancelDone(said, False)


class JobTableModel(QAbstractTableModel):
    """Rows of :class:`JobInfo`; ``INFO_ROLE`` gives the object itself. :attr:`holders`: who
    runs each job some process runs, as read with the rows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.jobs: list[JobInfo] = []
        self.holders: dict[Path, Holder] = {}

    def set_jobs(self, jobs: list[JobInfo], holders: dict[Path, Holder] | None = None) -> None:
        self.beginResetModel()
        self.jobs = jobs
        self.holders = dict(holders or {})
        self.endResetModel()

    def holder(self, info: JobInfo) -> Holder | None:
        return self.holders.get(info.path)

    def run_elsewhere(self, info: JobInfo) -> bool:
        """Whether another process ran the job when the list was read."""
        return elsewhere(self.holders.get(info.path))

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.jobs)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.jobs):
            return None
        info = self.jobs[index.row()]
        if role == INFO_ROLE:
            return info
        col = index.column()
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == COL_FILE:
                # A file named 'list <b>x.xlsx' showed bold (GUI review B8 #1).
                return literal(str(info.meta.get("file", "")))
            holder = self.holder(info)
            if col == COL_STATUS and holder is not None and elsewhere(holder):
                return running_elsewhere_tip(holder)
            if col in (COL_STATUS, COL_PROGRESS) and info.staging and not info.error:
                return literal(not_staged_tip(info))
            if col == COL_STATUS and job_state(info, None, holder) == INTERRUPTED:
                return "The app stopped while this job ran; resume it to send the rows left."
            if col == COL_NOTE:
                return literal(str(info.meta.get("note", "")))  # a tooltip guesses rich text
            if col == COL_OUTCOMES and not info.error:
                return as_written_text(info) or None
            return literal(info.error) or None
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        handle = job_registry().by_path(info.path)
        if col == COL_NAME:
            return str(info.meta.get("name") or info.path.stem)
        if col == COL_STATUS:
            return job_state(info, handle, self.holder(info))
        if col == COL_KIND:
            return kind_text(info) if not info.error else ""
        if col == COL_FILE:
            return Path(str(info.meta.get("file", ""))).name
        if col == COL_PROGRESS:
            if info.error:
                return info.error
            if info.staging:
                return "none sent"  # its stored rows are not its file's (B14 F1)
            rows = info.rows
            percent = 100 * info.done / rows if rows else 100
            return f"{info.done:,} of {rows:,} ({percent:.0f} %)"
        if col == COL_OUTCOMES:
            return "" if info.staging else outcomes_text(info)
        if col == COL_NOTE:
            return str(info.meta.get("note", ""))
        if col == COL_CREATED:
            return str(info.meta.get("created", ""))
        return None


def stopped_jobs_text(n: int) -> str:
    """The status bar's word on ``n`` jobs with rows left, saying where to resume them."""
    if n == 1:
        return "1 job stopped before the end: select it in the Jobs tab and click Resume."
    return f"{n:,} jobs stopped before the end: select one in the Jobs tab and click Resume."


class JobListView(QWidget):
    """The Jobs tab.

    Signals:
        status_message(str): text for the window's status bar.
        busy_changed(bool): reading the job files started or ended.
        job_finished(object): a job resumed from here ended (its summary dict).
        loaded(): the table was filled from the job files.
    """

    status_message = Signal(str)
    busy_changed = Signal(bool)
    job_finished = Signal(object)
    loaded = Signal()

    def __init__(self, paths: AppPaths, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.paths = paths
        self.runner = runner
        self.session: Session | None = None
        self.wizard: ResumeWizard | None = None
        self._loading = False
        self._again = False
        self._cancelling: Path | None = None  # the job a cancel runs on now
        self.model = JobTableModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(COL_NOTE, QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(False)
        widths = {COL_NAME: 200, COL_STATUS: 120, COL_KIND: 170, COL_FILE: 150,
                  COL_PROGRESS: 150, COL_OUTCOMES: 240, COL_CREATED: 130}  # fmt: skip
        for col, width in widths.items():
            self.table.setColumnWidth(col, width)
        self.table.doubleClicked.connect(lambda _i: self.open_report())
        self.resume_button = QPushButton("&Resume", self)
        self.resume_button.setToolTip("Send the rows this job has not sent yet")
        self.cancel_button = QPushButton(CANCEL_TEXT, self)
        self.report_button = QPushButton("Open &report", self)
        self.folder_button = QPushButton("Open &folder", self)
        self.refresh_button = QPushButton("Re&fresh", self)
        self.resume_button.clicked.connect(self.resume_selected)
        self.cancel_button.clicked.connect(self.cancel_selected)
        self.report_button.clicked.connect(self.open_report)
        self.folder_button.clicked.connect(self.open_folder)
        self.refresh_button.clicked.connect(self.refresh)
        self.summary = QLabel(self)
        bar = QHBoxLayout()
        buttons = (self.resume_button, self.cancel_button, self.report_button)
        for b in (*buttons, self.folder_button, self.refresh_button):
            bar.addWidget(b)
        bar.addStretch()
        bar.addWidget(self.summary)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        self.model.modelReset.connect(self._update_buttons)
        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self._tick)
        job_registry().changed.connect(self._registry_changed)
        self._update_buttons()

    # -- loading ------------------------------------------------------------------------
    def set_session(self, session: Session | None) -> None:
        self.session = session
        self._update_buttons()
        self.refresh()

    def refresh(self) -> None:
        """Read the job files again (in the background)."""
        if self._loading:
            self._again = True
            return
        self._loading = True
        self.busy_changed.emit(True)
        jobs_dir = self.paths.jobs_dir
        self.runner.submit(
            "list jobs",
            lambda _ctx: read_jobs(jobs_dir),
            on_done=self._loaded,
            on_error=self._failed,
        )

    def _loaded(self, found: tuple[list[JobInfo], dict[Path, Holder]]) -> None:
        jobs, holders = found
        self._loading = False
        self.busy_changed.emit(False)
        selected = self.selected()
        self.model.set_jobs(jobs, holders)
        if selected is not None:
            for row, info in enumerate(jobs):
                if info.path == selected.path:
                    self.table.selectRow(row)
        waiting = self.resumable_jobs()
        others = sum(1 for j in jobs if self.model.run_elsewhere(j))
        self.summary.setText(
            f"{len(jobs):,} job{'' if len(jobs) == 1 else 's'}"
            + (f"; {len(waiting)} can be resumed" if waiting else "")
            + (f"; {others} running in another process" if others else "")
        )
        if others:
            # Read again every second while another process runs a job, so its row says
            # when it has stopped (and whether it can be resumed then).
            self._timer.start()
        self.loaded.emit()
        if self._again:
            self._again = False
            self.refresh()

    def _failed(self, exc: BaseException) -> None:
        self._loading = False
        self.busy_changed.emit(False)
        self.status_message.emit(user_message(exc, "Reading the job files").text)

    def _registry_changed(self) -> None:
        if job_registry().running():
            self._timer.start()
        self.refresh()

    def _tick(self) -> None:
        if not job_registry().running() and not any(
            self.model.run_elsewhere(j) for j in self.model.jobs
        ):
            self._timer.stop()
        if self.isVisible():
            self.refresh()

    def resumable_jobs(self) -> list[JobInfo]:
        """The jobs with rows left that no process runs now (not this one, nor another)."""
        return [
            j
            for j in self.model.jobs
            if j.resumable
            and job_registry().by_path(j.path) is None
            and not self.model.run_elsewhere(j)
        ]

    def status_text(self) -> str:
        waiting = self.resumable_jobs()
        if waiting:
            return stopped_jobs_text(len(waiting))
        return ""

    # -- actions ------------------------------------------------------------------------
    def selected(self) -> JobInfo | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        info = self.model.data(rows[0], INFO_ROLE)
        return info if isinstance(info, JobInfo) else None

    def select_job(self, path: Path) -> bool:
        for row, info in enumerate(self.model.jobs):
            if info.path == path:
                self.table.selectRow(row)
                return True
        return False

    def _can_end(self, info: JobInfo | None) -> bool:
        """Whether ``info`` is a job left to resume that no process runs (nor cancels) now:
        one to resume, or to cancel, from here."""
        if info is None or not info.resumable or info.path == self._cancelling:
            return False
        live = job_registry().by_path(info.path) is not None
        return not live and not self.model.run_elsewhere(info)

    @staticmethod
    def _live(info: JobInfo | None) -> JobHandle | None:
        """This process's run of ``info``, still going (paused or not) and not being
        cancelled: its wizard may have been closed, so this tab steers it (bb14 W5)."""
        handle = job_registry().by_path(info.path) if info is not None else None
        if handle is None or not handle.running or handle.cancelling:
            return None
        return handle

    def _update_buttons(self) -> None:
        info = self.selected()
        live = self._live(info)
        self.resume_button.setEnabled(
            (self._can_end(info) and self.session is not None) or (live is not None and live.paused)
        )
        self.cancel_button.setEnabled(self._can_end(info) or live is not None)
        self.cancel_button.setToolTip(self._cancel_tip(info, live))
        self.resume_button.setToolTip(self._resume_tip(info, live))
        # A report of a job whose rows were not all read would pass for one of the file.
        self.report_button.setEnabled(info is not None and not info.error and not info.staging)
        self.folder_button.setEnabled(info is not None)

    def _resume_tip(self, info: JobInfo | None, live: JobHandle | None) -> str:
        """What Resume does, or why it is disabled for ``info`` now."""
        if live is not None:
            if live.paused:
                return "Go on sending this paused job's rows, and show its progress"
            return "This job is sending its rows now; there is nothing to resume"
        if info is None:
            return "Select a job to resume"
        if info.path == self._cancelling:
            return "This job is being cancelled"
        if job_registry().by_path(info.path) is not None:
            return "This job is being cancelled; its report is written once it has ended"
        if self.model.run_elsewhere(info):
            return "Another process is running this job; it can be resumed once that has stopped"
        if info.staging and not info.error:
            return not_staged_tip(info)
        if not info.resumable:
            return "This job has no rows left to send"
        if self.session is None:
            return "Connect to the job's service (File ▸ Connections…) to resume it"
        return "Send the rows this job has not sent yet"

    def _cancel_tip(self, info: JobInfo | None, live: JobHandle | None) -> str:
        """What Cancel job… does, or why it is disabled for ``info`` now."""
        if live is not None:
            return (
                "Stop this job for good: requests in flight finish, the rows not sent yet end "
                "not attempted, and its report is written"
            )
        if info is not None and (
            info.path == self._cancelling or job_registry().by_path(info.path) is not None
        ):
            return "This job is being cancelled"
        if info is not None and self.model.run_elsewhere(info):
            return "Another process is running this job: stop it there, then cancel it here"
        if info is not None and not info.resumable:
            return "This job has no rows left to send: there is nothing to cancel"
        return (
            "End this job without sending the rows left: they end not attempted, and its "
            "report is written"
        )

    def resume_selected(self) -> None:
        info = self.selected()
        session = self.session
        if (live := self._live(info)) is not None:
            self._resume_live(live, info)
            return
        if info is None or session is None or not info.resumable:
            return
        if job_registry().by_path(info.path) is not None or self.model.run_elsewhere(info):
            return
        wanted = str(info.meta.get("connection", ""))
        same_service = str(info.meta.get("base_url", "")) == session.connection.base_url
        # The CLI's --base-url runs name their connection by its URL: the URL decides then.
        if wanted and wanted != session.connection.name and not same_service:
            QMessageBox.warning(
                self,
                "Another connection",
                literal(
                    f"This job was started on the connection {wanted!r}; you are connected to "
                    f"{session.connection.name!r}. Switch to {wanted!r} (File ▸ Connections…) "
                    "to resume it, so its rows go to the same service."
                ),
            )
            return
        handle = JobHandle(
            self.runner,
            session,
            info.kind or "import",
            job_path=info.path,
            parent=self.runner,
        )
        handle.finished.connect(self.job_finished)
        handle.finished.connect(lambda _s: self.refresh())
        handle.failed.connect(lambda _t: self.refresh())
        name = str(info.meta.get("name") or info.job_id)
        self.wizard = ResumeWizard(handle, f"Resume {name}", self)
        self.wizard.show()
        self.status_message.emit(
            f"Resuming {name}: {counted(info.pending, 'row', 'rows')} to send."
        )

    def _resume_live(self, live: JobHandle, info: JobInfo | None) -> None:
        """Resume this process's paused run of a job and show its progress: the wizard
        still showing it, or a new window over the same run."""
        if not live.paused:
            return
        live.resume()
        name = str(info.meta.get("name") or info.job_id) if info is not None else live.job_id
        shown = shown_in(live)
        if shown is None:
            self.wizard = shown = ResumeWizard(live, f"Resume {name}", self)
            shown.show()
        shown.raise_()
        shown.activateWindow()
        self.status_message.emit(f"Resumed {name}.")
        self._update_buttons()

    def _cancel_live(self, live: JobHandle, info: JobInfo) -> None:
        """Ask, then cancel this process's run of ``info``: as its wizard's Cancel job…
        does, the rows not sent yet end not attempted once the requests in flight finish."""
        name = str(info.meta.get("name") or info.job_id)
        unsent = "Requests in flight finish; its rows not sent yet"
        if not self._confirm_cancel(info, unsent) or not live.running:
            return
        live.cancel()
        self.status_message.emit(
            f"Cancelling {name}: waiting for the requests in flight; its report is written "
            "once it has ended."
        )
        self._update_buttons()

    def _confirm_cancel(self, info: JobInfo, unsent: str) -> bool:
        """Whether the officer confirms cancelling ``info``, asked naming its rows not sent
        (``unsent``: "Its 3 rows not sent yet", or of a run going on, its requests in flight)."""
        name = str(info.meta.get("name") or info.job_id)
        answer = QMessageBox.question(
            self,
            "Cancel the job",
            literal(
                f"Cancel job {info.job_id} ({name})? {unsent} end not attempted (cancelled "
                "before it was sent) and nothing more is sent; rows already sent stay sent. Its "
                "report is written, and it cannot be resumed after."
            ),
        )
        return answer == QMessageBox.StandardButton.Yes

    def cancel_selected(self) -> None:
        """Ask, then cancel the selected job on the runner; its sentence goes to the status
        bar, or to a message box when it is refused."""
        info = self.selected()
        if (live := self._live(info)) is not None and info is not None:
            self._cancel_live(live, info)
            return
        if not self._can_end(info):
            return
        assert info is not None
        unsent = f"Its {counted(info.pending, 'row', 'rows')} not sent yet"
        if not self._confirm_cancel(info, unsent):
            return
        self._cancelling = info.path
        self._update_buttons()
        path, journal_db = info.path, self.paths.journal_db
        self.runner.submit(
            "cancel a job",
            lambda _ctx: cancel_in_background(path, journal_db),
            on_done=self._cancel_done,
            on_error=lambda exc: self._cancel_failed(exc, info.job_id),
            owner=self,
        )

    def _cancel_done(self, done: CancelDone) -> None:
        self._cancelling = None
        if done.refused:
            QMessageBox.warning(self, "Job not cancelled", literal(done.said))
        else:
            self.status_message.emit(done.said)
        self.refresh()

    def _cancel_failed(self, exc: BaseException, job: str) -> None:
        self._cancelling = None
        if isinstance(exc, sqlite3.DatabaseError):
            said = f"Job {job}'s file is damaged or not a DNC Desk job file ({exc})"
        else:
            said = user_message(exc, f"Cancelling job {job}").text
        said = f"{said.rstrip('.')}. Nothing was cancelled."
        QMessageBox.warning(self, "Job not cancelled", literal(said))
        self.refresh()

    def open_report(self) -> None:
        info = self.selected()
        if info is None or info.error or info.staging:
            return
        report = info.report
        if job_registry().by_path(info.path) is not None or self.model.run_elsewhere(info):
            # A running job rewrites its report when it ends (whichever process runs it);
            # open what is there.
            if report.exists():
                open_path(report)
            else:
                self.status_message.emit("The report is written when the job ends or pauses.")
            return

        def work(_ctx: object) -> Path:
            if report.exists():
                return report
            with JobStore(info.path) as store:
                return write_report(store, report)

        self.runner.submit(
            "write the report",
            work,
            on_done=self._open_written,
            on_error=lambda exc: self.status_message.emit(
                user_message(exc, "Writing the report").text
            ),
        )

    def _open_written(self, path: Path) -> None:
        if not open_path(path):
            self.status_message.emit(f"No application could open {path}.")

    def open_folder(self) -> None:
        info = self.selected()
        if info is not None:
            open_path(info.report.parent if not info.error else info.path.parent)
