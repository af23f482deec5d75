"""Running an import or removal job from the GUI, and the run and result pages that show it.

:class:`JobHandle` runs one job (stage then send, or resume) on the window's
:class:`~app.ui.tasks.TaskRunner` and is the only thing the pages, the job list and the window
talk to: pause, resume and cancel go to the engine's :class:`JobControl` (thread-safe events),
progress comes back through ``TaskContext.report`` (the engine throttles it to four a second).
Running handles are kept in :func:`job_registry`, so the job list shows them live and the
window can ask what to do with them when it closes.

If the task is cancelled from outside (the window shutting down cancels every task), the job is
*suspended*, never cancelled: its unsent rows stay in the job file for a resume.

A job keeps its pace, as with the CLI's ``--resume``: a new job's requests in flight are stored
in its meta, and a resume runs at the stored ``concurrency`` and ``rate_limit`` (requests per
minute). The cap goes on a paced copy of the session's client (``ApiClient.paced``), used by
this run alone, so the other views sharing the client are not slowed by it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from app.api.client import ApiClient
from app.api.concurrency import MAX_CONCURRENCY
from app.api.errors import ApiError
from app.core.job_exec import job_summary
from app.core.job_lock import JobBusy
from app.core.job_report import (
    AS_WRITTEN_SAID,
    MAYBE_INSERTED,
    VALID_AS_WRITTEN,
    as_written_count,
)
from app.core.job_runner import (
    DEFAULT_CONCURRENCY,
    ClientGone,
    JobAborted,
    JobControl,
    JobProgress,
)
from app.core.job_store import JobStatus, JobStore, Outcome
from app.core.session import Session
from app.core.sheet_check import CheckSummary
from app.core.sheet_types import SheetError
from app.ui.error_messages import user_message
from app.ui.plain_text import plain_label, rich, window_title
from app.ui.tasks import TaskContext, TaskRunner
from app.ui.window_words import for_window

StageFn = Callable[[], tuple[JobStore, CheckSummary]]
RunFn = Callable[..., JobStatus]

# Labels of the summary keys, in the order a person reads them.
SUMMARY_LABELS = (
    ("rows", "Rows in the file"),
    ("valid", "Valid numbers"),
    ("inserted", "Inserted"),
    ("already_present", "Already on the list"),
    # Not all of them were on the list before the job: an answer was lost (job_report).
    (MAYBE_INSERTED, "  of which this job may have inserted"),
    ("removed", "Removed"),
    ("not_found", "Not on the list"),
    ("invalid", "Invalid (not sent)"),
    ("duplicates_in_file", "Duplicates in the file (not sent)"),
    ("blank", "Blank rows"),
    ("failed", "Failed"),
    ("not_attempted", "Not attempted (cancelled)"),
    ("pending", "Still to send"),
    ("late_requests", "Requests later than 10 business days"),
)
# A summary key whose progress count (the rows' status) is named otherwise: the run page left
# in-file duplicates out ("3,000 of 3,000" with counts adding up to 2,976: bb6 F3).
PROGRESS_KEYS = {"duplicates_in_file": "duplicate_in_file"}


# Counts shown only when not 0: they are the exception.
_SHOWN_WHEN_ANY = ("pending", "not_attempted", "blank", MAYBE_INSERTED)

# The summary dict's key for :func:`summary_warnings`, which the result page repeats.
WARNINGS = "warnings"

# The invalid rows whose messages a page lists; the report lists every row.
NOTED_ROWS = 100
NOTES_HEADING = "What was found in the file (the report lists every row):"


@dataclass(frozen=True)
class StagingNotes:
    """What staging said of a job's file, in core's words: its warnings, the messages of its
    first :data:`NOTED_ROWS` invalid rows (each names its row), and how many invalid rows are
    not listed."""

    warnings: tuple[str, ...] = ()
    rows: tuple[str, ...] = ()
    more: int = 0

    def lines(self, *, removal: bool) -> list[str]:
        """The notes worded for the window that staged the job: the options core names for
        the command line become that dialog's boxes (:func:`for_window`), chosen in a new
        job, as the job has started: its run and result pages have no going back."""
        out = [f"⚠ {for_window(w, removal=removal, started=True)}" for w in self.warnings]
        out += [for_window(m, removal=removal, started=True) for m in self.rows]
        if self.more:
            out.append(f"… and {self.more:,} more invalid row{'' if self.more == 1 else 's'}.")
        return out


def staging_notes(store: JobStore, invalid: int) -> StagingNotes:
    """The :class:`StagingNotes` of a job just staged with ``invalid`` invalid rows (the rows
    are read no further than the last one listed)."""
    warnings = tuple(str(w) for w in store.meta().get("warnings", []) if str(w))
    wanted = min(invalid, NOTED_ROWS)
    messages: list[str] = []
    listed = 0
    if wanted:
        for row in store.rows():
            if row.outcome != Outcome.INVALID.value:
                continue
            listed += 1
            if row.message:
                messages.append(row.message)
            if listed >= wanted:
                break
    return StagingNotes(warnings, tuple(messages), max(invalid - listed, 0))


def summary_warnings(meta: Mapping[str, Any]) -> tuple[str, ...]:
    """The warnings of a job's report Summary, in its order (:func:`app.core.job_report.
    summary_rows`): the campaign check, then the job's warnings, those staging gave and those
    the report added once the rows were sent (lateness not checked, a look-up stopped)."""
    notes = [meta["campaign_check"]] if meta.get("campaign_check") else []
    return tuple(str(w) for w in [*notes, *(meta.get("warnings") or [])] if str(w))


def notes_box(parent: QWidget) -> QPlainTextEdit:
    """A read-only box for a job's :class:`StagingNotes`, hidden until there are some."""
    box = QPlainTextEdit(parent)
    box.setReadOnly(True)
    box.setMaximumHeight(180)
    box.hide()
    return box


def show_notes(label: QLabel, box: QPlainTextEdit, notes: StagingNotes, *, removal: bool) -> None:
    """``notes`` under ``label`` in ``box``, both hidden when there are none."""
    lines = notes.lines(removal=removal)
    box.setPlainText("\n".join(lines))
    box.setVisible(bool(lines))
    label.setVisible(bool(lines))


def as_written_note(count: int) -> str:
    """What follows a removal's valid count when ``count`` of its valid rows are in no number
    range in use today, in dnc-desk remove's words: they are looked up as written and most end
    invalid, which the valid count alone hid (black-box V4 #1). ``""`` when there are none."""
    return f" (of which {count:,} {AS_WRITTEN_SAID})" if count else ""


def open_path(path: Path) -> bool:
    """Open a file or folder with the desktop's default application."""
    return bool(QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))))


def describe_progress(p: JobProgress) -> str:
    """``1,234 of 5,000 rows · 310 rows/s · about 12 s left``."""
    parts = [f"{p.done:,} of {p.total:,} rows"]
    if p.rows_per_second > 0:
        parts.append(f"{p.rows_per_second:,.0f} rows/s")
    if p.paused:
        parts.append("paused")
    elif p.eta_seconds is not None and p.done < p.total:
        parts.append(f"about {_duration(p.eta_seconds)} left")
    return " · ".join(parts)


def _duration(value: float) -> str:
    seconds = round(value)
    if seconds < 90:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 90:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def stored_pace(meta: Mapping[str, Any]) -> tuple[int, int | None]:
    """A job's pace as its meta keeps it: (requests in flight, requests per minute or None).

    As the CLI's ``--resume``: a value missing (a job of an older version) or unusable is the
    default, 8 in flight and no cap.
    """
    concurrency = meta.get("concurrency")
    if (
        not isinstance(concurrency, int)
        or isinstance(concurrency, bool)
        or not 1 <= concurrency <= MAX_CONCURRENCY
    ):
        concurrency = DEFAULT_CONCURRENCY
    rate = meta.get("rate_limit")
    if not isinstance(rate, int) or isinstance(rate, bool) or rate < 1:
        rate = None
    return concurrency, rate


def describe_pace(handle: JobHandle) -> str:
    """``Sending 2 requests at once.``, and what happens to a stored rate limit."""
    n = handle.concurrency
    text = f"Sending {n} request{'' if n == 1 else 's'} at once."
    if handle.rate_limit is not None:
        text += f" At most {handle.rate_limit:,} requests a minute, as the job was started."
    return text


class JobRegistry(QObject):
    """The jobs this process is running now.

    Signals:
        changed(): a job started or ended.
    """

    changed = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.handles: list[JobHandle] = []

    def add(self, handle: JobHandle) -> None:
        self.handles.append(handle)
        self.changed.emit()

    def remove(self, handle: JobHandle) -> None:
        if handle in self.handles:
            self.handles.remove(handle)
            self.changed.emit()

    def running(self) -> list[JobHandle]:
        return [h for h in self.handles if h.running]

    def by_path(self, path: Path) -> JobHandle | None:
        for handle in self.handles:
            if handle.job_path == path:
                return handle
        return None


_registry: JobRegistry | None = None


def job_registry() -> JobRegistry:
    global _registry
    if _registry is None:
        _registry = JobRegistry()
    return _registry


class JobHandle(QObject):
    """One import or removal job run in the background.

    Signals (on the GUI thread):
        staged(object): the :class:`CheckSummary` of a new job once its file is written.
        progress(object): a :class:`JobProgress`.
        paced(): ``concurrency`` and ``rate_limit`` are the run's (the job's stored pace, on a
            resume); sent before the first progress.
        finished(object): the job's summary dict (:func:`app.core.job_exec.job_summary`)
            with ``status`` set to the new status (finished, cancelled or paused).
        failed(str): one sentence saying why the job could not run or stopped.
        steered(): paused, resumed or cancelled, from any of the windows showing it (its
            wizard, the Jobs tab), so each shows the buttons that still apply.
    """

    staged = Signal(object)
    progress = Signal(object)
    paced = Signal()
    finished = Signal(object)
    failed = Signal(str)
    steered = Signal()

    def __init__(
        self,
        runner: TaskRunner,
        session: Session,
        kind: str,
        *,
        stage: StageFn | None = None,
        job_path: Path | None = None,
        concurrency: int | None = None,
        with_notes: bool = False,
        parent: QObject | None = None,
    ) -> None:
        """``concurrency`` None: the default for a new job, the job's stored one for a resume;
        a new job's is stored in its meta, a number given for a resume is for this run only.
        ``with_notes``: a new job's :class:`StagingNotes` are read once it is staged, for a
        window that has shown them nowhere before it starts (the bulk removal dialog)."""
        super().__init__(parent)
        if (stage is None) == (job_path is None):
            raise ValueError("give either a staging function or the job file to resume")
        self.runner = runner
        self.session = session
        self.kind = kind
        self._given = concurrency
        # The run's pace: known once ``paced`` is sent (``pace_known``).
        self.concurrency = DEFAULT_CONCURRENCY if concurrency is None else concurrency
        self.rate_limit: int | None = None
        self.pace_known = False
        self.job_id = job_path.stem if job_path is not None else ""
        self.control = JobControl()
        self.job_path = job_path
        self.running = False
        self.last_progress: JobProgress | None = None
        self.result: dict[str, Any] | None = None
        self.error = ""
        # Another runner holds the job's run lock: this handle sent nothing.
        self.refused = False
        # A removal's valid rows looked up as written (VALID_AS_WRITTEN), once staged.
        self.as_written = 0
        # What staging said of the file (with_notes), once staged.
        self.notes = StagingNotes()
        self._with_notes = with_notes
        self._stage = stage
        # The run's pace and its paced copy of the session's client, if any (under _swap:
        # set_session comes from the GUI thread while the job's thread starts or ends).
        self._swap = threading.Lock()
        self._run_rate: int | None = None
        self._run_paced: ApiClient | None = None

    @property
    def paused(self) -> bool:
        return self.control.paused.is_set()

    def set_session(self, session: Session) -> None:
        """A new token for the same connection (the old session's client is about to be
        closed): a run on the old one stops at its next request and goes on through
        ``session`` (:meth:`_run_adopting`); a resume started later uses it too."""
        with self._swap:
            self.session = session
            paced = self._run_paced
        if paced is not None:
            # The run's own paced copy holds the old token: closed, the run goes on as above.
            paced.close()

    def start(self) -> None:
        # A full collection walks every object of the process (Qt wrappers, phone metadata,
        # modules) while holding the GIL: measured 130-220 ms with the GUI thread frozen, mid
        # upload. Objects alive now live as long as the app, so take them out of collection.
        gc.freeze()
        self.running = True
        job_registry().add(self)
        self.runner.submit(
            f"{self.kind} job",
            self._work,
            on_done=self._on_done,
            on_error=self._on_error,
            on_progress=self._on_progress,
        )

    def pause(self) -> None:
        self.control.pause()
        self.steered.emit()

    def resume(self) -> None:
        self.control.resume()
        self.steered.emit()

    def cancel(self) -> None:
        """Stop for good: rows not sent yet end as "not attempted"."""
        self.control.cancel()
        self.steered.emit()

    @property
    def cancelling(self) -> bool:
        """Cancelled and not ended yet: its requests in flight are finishing."""
        return self.running and self.control.cancelled.is_set()

    def suspend(self) -> None:
        """Stop now, keeping unsent rows for a resume (the window is closing)."""
        self.control.suspend()

    # -- worker thread ------------------------------------------------------------------
    def _work(self, ctx: TaskContext) -> dict[str, Any]:
        from app.core.import_job import run_import
        from app.core.removal_job import run_removal

        ended = threading.Event()

        def watch() -> None:
            # The runner cancels every task at shutdown: keep the rows for a resume.
            while not ended.wait(0.1):
                if ctx.cancel_event.is_set():
                    self.control.suspend()
                    return

        threading.Thread(target=watch, name="job-watch", daemon=True).start()
        store: JobStore | None = None
        try:
            given = self._given
            if self._stage is not None:
                ctx.report("staging")
                store, summary = self._stage()
                concurrency = DEFAULT_CONCURRENCY if given is None else given
                rate_limit: int | None = None
                # The job's pace, for a resume (here or with the CLI), as the CLI stores it.
                store.set_meta({"concurrency": concurrency, "rate_limit": None})
                as_written = 0
                if self.kind == "removal":
                    # Stored as the report stores it, so the job list can say it before the
                    # report is written (a job interrupted, or run elsewhere).
                    as_written = as_written_count(store)
                    store.set_meta({VALID_AS_WRITTEN: as_written})
                notes = (
                    staging_notes(store, store.counts()[Outcome.INVALID.value])
                    if self._with_notes
                    else StagingNotes()
                )
                ctx.report(("staged", store.path, summary, as_written, notes))
                meta = store.meta()
            else:
                assert self.job_path is not None
                store = JobStore(self.job_path)
                meta = store.meta()
                concurrency, rate_limit = stored_pace(meta)
                if given is not None:
                    concurrency = given
            job_id = str(meta.get("job_id") or store.path.stem)
            ctx.report(("pace", concurrency, rate_limit, job_id))
            run = run_import if meta.get("kind") != "removal" else run_removal
            with self._swap:
                self._run_rate = rate_limit
            status = self._run_adopting(run, store, concurrency, ctx)
            out = job_summary(store)
            out["status"] = status.value
            # Read after the run: the report has added its own warnings to staging's.
            out[WARNINGS] = summary_warnings(store.meta())
            if meta.get("kind") == "removal":
                # As dnc-desk remove's summary has it (app.cli.import_cmd.result_summary).
                out[VALID_AS_WRITTEN] = as_written_count(store)
            return out
        finally:
            ended.set()
            if store is not None:
                store.close()

    def _run_adopting(
        self, run: RunFn, store: JobStore, concurrency: int, ctx: TaskContext
    ) -> JobStatus:
        """``run`` the job; when :meth:`set_session` replaced its session meanwhile, go on
        through the new one.

        The old session's client is closed under the run: its next request is refused unsent
        and the job stops with :class:`ClientGone`, every row not finished kept ("sending"
        ones are looked up before they are sent again), as a pause does. It then goes on here
        as a resume through the new session, so nothing is sent twice and each row gets one
        outcome."""
        while True:
            with self._swap:
                started_on = session = self.session
                if self._run_rate is not None:
                    session = Session(
                        started_on.connection,
                        started_on.api.paced(self._run_rate),
                        started_on.journal,
                    )
                    self._run_paced = session.api
            try:
                return run(
                    store, session, concurrency=concurrency, control=self.control,
                    progress=ctx.report,
                )  # fmt: skip
            except ClientGone:
                adopted = self.session is not started_on and not self.session.api.closed
                if not adopted or not self._clear_own_stop():
                    raise
            finally:
                with self._swap:
                    paced, self._run_paced = self._run_paced, None
                if paced is not None:
                    paced.close()  # the paced copy only; the shared client is the window's

    def _clear_own_stop(self) -> bool:
        """Undo the stop the run set for its closed client, unless the person (or the window
        closing) stopped the job meanwhile: False then."""
        control = self.control
        control.stop.clear()
        if control.cancelled.is_set() or control.suspended.is_set():
            control.stop.set()
            return False
        return True

    # -- GUI thread ---------------------------------------------------------------------
    def _on_progress(self, value: object) -> None:
        if isinstance(value, tuple) and value and value[0] == "staged":
            self.job_path = value[1]
            self.as_written = value[3]
            self.notes = value[4]
            self.staged.emit(value[2])
            job_registry().changed.emit()
        elif isinstance(value, tuple) and value and value[0] == "pace":
            _, self.concurrency, self.rate_limit, self.job_id = value
            self.pace_known = True
            self.paced.emit()
        elif isinstance(value, JobProgress):
            self.last_progress = value
            self.progress.emit(value)

    def _on_done(self, summary: dict[str, Any]) -> None:
        self.running = False
        self.result = summary
        job_registry().remove(self)
        self.finished.emit(summary)

    def _on_error(self, exc: BaseException) -> None:
        self.running = False
        if isinstance(exc, JobBusy):
            self.refused = True
            self.error = str(exc)  # its sentence says what to do
        elif isinstance(exc, JobAborted):
            self.error = f"{exc} Resume it from the Jobs tab once the cause is fixed."
        elif isinstance(exc, SheetError):
            self.error = str(exc)
        elif isinstance(exc, ApiError | OSError):
            self.error = user_message(exc, "The job").text
        else:
            self.error = user_message(exc, "The job").text
        job_registry().remove(self)
        self.failed.emit(self.error)


PAUSE, CANCEL, KEEP = "pause", "cancel", "keep"


def close_choice(parent: QWidget, running: int) -> str:
    """Ask what to do with ``running`` jobs when the window closes: PAUSE, CANCEL or KEEP."""
    n = running
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle("A job is still running" if n == 1 else f"{n} jobs are still running")
    box.setText(
        f"{'A job is' if n == 1 else f'{n} jobs are'} still sending rows to the service. "
        "Pause keeps every row not sent yet: the job can be resumed from the Jobs tab the next "
        "time DNC Desk starts. Cancel ends it for good: rows not sent are reported as not "
        "attempted."
    )
    pause = box.addButton("Pause and close", QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(
        "Cancel the job" + ("s" if n > 1 else ""), QMessageBox.ButtonRole.DestructiveRole
    )
    box.addButton("Keep working", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(pause)
    box.exec()
    clicked = box.clickedButton()
    if clicked is pause:
        return PAUSE
    if clicked is cancel:
        return CANCEL
    return KEEP


def ask_before_close(parent: QWidget) -> bool:
    """When jobs are running, ask whether to pause them (resumable) or cancel them.

    Returns False when the person chose to keep the window open.
    """
    running = job_registry().running()
    if not running:
        return True
    choice = close_choice(parent, len(running))
    if choice == PAUSE:
        for handle in running:
            handle.suspend()
        return True
    if choice == CANCEL:
        for handle in running:
            handle.cancel()
        return True
    return False


CANCELLING = "Cancelling: waiting for the requests in flight…"


class RunPage(QWizardPage):
    """The run page: progress bar, rows per second, ETA, pause, resume and cancel.

    ``start`` makes and starts the :class:`JobHandle` when the page is shown. When the job ends
    the wizard moves on to the result page by itself.
    """

    def __init__(self, start: Callable[[], JobHandle], noun: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setTitle(f"Running the {noun}")
        self.setSubTitle(
            "Rows are sent in the background; this window and the main window stay usable. "
            "Closing this wizard keeps the job running (see the Jobs tab)."
        )
        # The job goes on if the wizard closes, so this button closes, it does not cancel.
        self.setButtonText(QWizard.WizardButton.CancelButton, "Close")
        self._start = start
        self.handle: JobHandle | None = None
        self._done = False
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 0)
        self.rate_label = QLabel("Checking the file and saving the job…", self)
        self.counts_label = QLabel(self)
        self.counts_label.setWordWrap(True)
        self.pace_label = QLabel(self)
        self.pace_label.setWordWrap(True)
        self.pace_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label = plain_label(QLabel(self))
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #b00020;")
        self.notes_label = QLabel(NOTES_HEADING, self)
        self.notes_label.hide()
        self.notes_box = notes_box(self)
        self.pause_button = QPushButton("&Pause", self)
        self.resume_button = QPushButton("&Resume", self)
        self.cancel_button = QPushButton("&Cancel job…", self)
        self.pause_button.clicked.connect(self.pause)
        self.resume_button.clicked.connect(self.resume)
        self.cancel_button.clicked.connect(self.cancel_job)
        buttons = QHBoxLayout()
        for b in (self.pause_button, self.resume_button, self.cancel_button):
            buttons.addWidget(b)
        buttons.addStretch()
        layout = QVBoxLayout(self)
        layout.addWidget(self.bar)
        layout.addWidget(self.rate_label)
        layout.addWidget(self.counts_label)
        layout.addWidget(self.pace_label)
        layout.addLayout(buttons)
        layout.addWidget(self.error_label)
        layout.addWidget(self.notes_label)
        layout.addWidget(self.notes_box)
        layout.addStretch()
        self._buttons_for(running=False)

    def initializePage(self) -> None:
        if self.handle is not None:
            return
        handle = self._start()
        self.handle = handle
        handle.staged.connect(self._staged)
        handle.progress.connect(self.show_progress)
        handle.paced.connect(self._paced)
        handle.finished.connect(self._finished)
        handle.failed.connect(self._failed)
        handle.steered.connect(self._steered)
        if handle.pace_known:
            self._paced()
        if handle.last_progress is not None:
            self.show_progress(handle.last_progress)
        self._buttons_for(running=True)

    def isComplete(self) -> bool:
        return self._done

    def _buttons_for(self, running: bool) -> None:
        paused = self.handle is not None and self.handle.paused
        if self.handle is not None and self.handle.cancelling:
            running = False
        self.pause_button.setEnabled(running and not paused)
        self.resume_button.setEnabled(running and paused)
        self.cancel_button.setEnabled(running)

    def _steered(self) -> None:
        # The Jobs tab may resume or cancel this job too: its buttons follow.
        handle = self.handle
        if handle is None or not handle.running:
            return
        if handle.cancelling:
            self.rate_label.setText(CANCELLING)
        self._buttons_for(running=True)

    def _paced(self) -> None:
        if self.handle is not None:
            self.pace_label.setText(describe_pace(self.handle))

    def _staged(self, summary: CheckSummary) -> None:
        as_written = self.handle.as_written if self.handle is not None else 0
        if self.handle is not None:
            removal = self.handle.kind == "removal"
            show_notes(self.notes_label, self.notes_box, self.handle.notes, removal=removal)
        self.rate_label.setText(
            f"{summary.valid:,} valid rows to send{as_written_note(as_written)}; starting…"
        )

    def show_progress(self, p: JobProgress) -> None:
        self.bar.setRange(0, max(p.total, 1))
        self.bar.setValue(p.done)
        self.rate_label.setText(describe_progress(p))
        # The rows this job may have inserted (a lost answer, then "already present"), as
        # the result page says them: not all of "already on the list" were on it before.
        counts = {**p.counts, MAYBE_INSERTED: p.maybe_inserted}
        shown = [
            f"{label.strip().lower()}: {counts[PROGRESS_KEYS.get(key, key)]:,}"
            for key, label in SUMMARY_LABELS
            if counts.get(PROGRESS_KEYS.get(key, key)) and key != "pending"
        ]
        self.counts_label.setText("; ".join(shown))

    def pause(self) -> None:
        if self.handle is not None:
            self.handle.pause()
            self.rate_label.setText(
                self.rate_label.text() + " · pausing (requests in flight finish)"
            )
            self._buttons_for(running=True)

    def resume(self) -> None:
        if self.handle is not None:
            self.handle.resume()
            self._buttons_for(running=True)

    def cancel_job(self) -> None:
        if self.handle is None or not self.handle.running:
            return
        answer = QMessageBox.question(
            self,
            "Cancel the job",
            "Stop sending? Rows already sent stay sent; rows not sent yet are reported as "
            "not attempted and the job cannot be resumed.",
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.handle.cancel()

    def _finished(self, summary: dict[str, Any]) -> None:
        self._done = True
        self._buttons_for(running=False)
        self.bar.setRange(0, max(int(summary.get("rows", 0)), 1))
        self.bar.setValue(int(summary.get("rows", 0)) - int(summary.get("pending", 0)))
        self.completeChanged.emit()
        wizard = self.wizard()
        if wizard is not None and wizard.currentPage() is self:
            wizard.next()

    def _failed(self, text: str) -> None:
        self._buttons_for(running=False)
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        refused = self.handle is not None and self.handle.refused
        self.rate_label.setText("Not started." if refused else "The job stopped.")
        self.pace_label.clear()
        self.error_label.setText(text)


class ResultPage(QWizardPage):
    """Counts per outcome, the late-request count, and buttons opening the report and folder."""

    def __init__(self, run_page: RunPage, noun: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(f"{noun[:1].upper()}{noun[1:]} finished")
        self.run_page = run_page
        self.summary: dict[str, Any] = {}
        self.headline = QLabel(self)
        self.headline.setWordWrap(True)
        self.form = QFormLayout()
        self.report_label = plain_label(QLabel(self))
        self.report_label.setWordWrap(True)
        self.report_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes_label = QLabel(NOTES_HEADING, self)
        self.notes_label.hide()
        self.notes_box = notes_box(self)
        self.open_report_button = QPushButton("Open &report", self)
        self.open_folder_button = QPushButton("Open &folder", self)
        self.open_report_button.clicked.connect(self.open_report)
        self.open_folder_button.clicked.connect(self.open_folder)
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_report_button)
        buttons.addWidget(self.open_folder_button)
        buttons.addStretch()
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addLayout(self.form)
        layout.addWidget(self.notes_label)
        layout.addWidget(self.notes_box)
        layout.addWidget(self.report_label)
        layout.addLayout(buttons)
        layout.addStretch()
        self.value_labels: dict[str, QLabel] = {}

    def initializePage(self) -> None:
        handle = self.run_page.handle
        self.summary = dict(handle.result or {}) if handle is not None else {}
        status = self.summary.get("status", "")
        if status == JobStatus.FINISHED.value:
            text = "finished. Every row of the file has one of the outcomes below."
        elif status == JobStatus.CANCELLED.value:
            text = "cancelled. Rows not sent are counted as not attempted."
        else:
            text = "paused. Resume it from the Jobs tab to send the rows left."
        self.headline.setText(f"<b>{rich(self.summary.get('name', ''))}</b>: {text}")
        while self.form.rowCount():
            self.form.removeRow(0)
        self.value_labels = {}
        for key, label in SUMMARY_LABELS:
            if key not in self.summary:
                continue
            value = int(self.summary[key])
            if key in _SHOWN_WHEN_ANY and not value:
                continue
            shown = f"{value:,}"
            if key == "valid":
                shown += as_written_note(int(self.summary.get(VALID_AS_WRITTEN) or 0))
            widget = QLabel(shown, self)
            widget.setWordWrap(True)
            widget.setObjectName(f"count-{key}")
            self.value_labels[key] = widget
            self.form.addRow(label, widget)
        # A stand-in handle without notes (the counts' tests give one) shows none.
        notes = getattr(handle, "notes", None)
        warnings = self.summary.get(WARNINGS)
        if warnings:
            # The Summary's warnings, as the report has them now: a person who reads only the
            # end of the wizard must not miss the late rows, the other sheets, the damaged
            # cells the check page said before Start (the wizard's handle keeps no notes).
            base = notes if isinstance(notes, StagingNotes) else StagingNotes()
            notes = replace(base, warnings=tuple(str(w) for w in warnings))
        if isinstance(notes, StagingNotes):
            removal = getattr(handle, "kind", "") == "removal"
            show_notes(self.notes_label, self.notes_box, notes, removal=removal)
        report = self.summary.get("report", "")
        self.report_label.setText(f"Report: {report}" if report else "")
        self.open_report_button.setEnabled(bool(report))
        self.open_folder_button.setEnabled(bool(report))

    def open_report(self) -> None:
        report = self.summary.get("report")
        if report:
            open_path(Path(report))

    def open_folder(self) -> None:
        report = self.summary.get("report")
        if report:
            open_path(Path(report).parent)


class ResumeWizard(QWizard):
    """The run and result pages alone, for a job resumed from the job list."""

    def __init__(self, handle: JobHandle, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(window_title(title))  # the title quotes the job's name
        self.handle = handle
        noun = "removal" if handle.kind == "removal" else "import"
        self.run_page = RunPage(self._start, noun, self)
        self.result_page = ResultPage(self.run_page, noun, self)
        self.addPage(self.run_page)
        self.addPage(self.result_page)
        self.setOption(QWizard.WizardOption.NoBackButtonOnLastPage, True)
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, True)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.resize(640, 440)

    def _start(self) -> JobHandle:
        if not self.handle.running and self.handle.result is None and not self.handle.error:
            self.handle.start()
        return self.handle
