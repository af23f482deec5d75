"""Export the current search of the DNC or SMS opt-out view to xlsx or CSV.

Every page of the search is written by the engine's :class:`~app.core.export_job.ExportJob`
on the window's :class:`TaskRunner`; this dialog picks the file, shows progress, cancels, and
says plainly how many matching rows the service's paging limit made unreachable, if any, and
whether the list changed while it was exported.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.api.client import DncQuery
from app.api.paging import Cancelled
from app.core.export_job import (
    PAGE_SIZE,
    DayFilterRefused,
    ExportJob,
    ExportProgress,
    ExportResult,
    change_warning,
    unreachable_warning,
)
from app.core.export_job import ListKind as ExportKind
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.wording import counted
from app.ui.error_messages import user_message
from app.ui.job_progress import open_path
from app.ui.plain_text import plain_label, rich
from app.ui.tasks import Task, TaskContext, TaskRunner

# What to do instead of a refused insert-date filter, in the window's words (the CLI's name
# its --insert-date option).
WINDOW_DAY_ADVICE = (
    "Export without the Inserted on filter: the file's insert_date column gives each entry's day"
)


def export_kind(kind: str) -> ExportKind:
    """The engine's list kind for a view's kind (``dnc`` or ``sms``)."""
    return ExportKind.DNC if kind == "dnc" else ExportKind.SMS


class ExportDialog(QDialog):
    """Choose xlsx or CSV and a file, then export every row of the search.

    Signals:
        exported(object): the :class:`ExportResult` once the file is written.
    """

    exported = Signal(object)

    def __init__(
        self,
        session: Session,
        runner: TaskRunner,
        paths: AppPaths,
        kind: str,
        query: DncQuery,
        filters: str,
        parent: QWidget | None = None,
        scope_said: str = "",
    ) -> None:
        """``scope_said``: a campaign scope with its name, for the About sheet (see
        :meth:`FilterBar.scope_said`); the query holds only the campaign's id."""
        super().__init__(parent)
        self.scope_said = scope_said
        self.session = session
        self.runner = runner
        self.kind = export_kind(kind)
        self.query = query
        self.task: Task | None = None
        self.export_result: ExportResult | None = None
        self.page_size = PAGE_SIZE  # the spec's maximum; tests shrink it
        self.setWindowTitle(f"Export the {self.kind.title}")
        intro = QLabel(
            f"Export every row of the current search of the <b>{self.kind.title}</b> on "
            f"{rich(session.connection.name)}.<br>Filters: "
            f"{rich(filters or 'none (the whole list)')}",
            self,
        )
        intro.setWordWrap(True)
        self.xlsx_radio = QRadioButton("&Excel workbook (.xlsx, with an About sheet)", self)
        self.csv_radio = QRadioButton("&CSV (.csv)", self)
        self.xlsx_radio.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.xlsx_radio)
        group.addButton(self.csv_radio)
        self.xlsx_radio.toggled.connect(lambda _on: self._format_changed())
        stem = "dnc-list" if self.kind is ExportKind.DNC else "sms-opt-outs"
        self.path_edit = QLineEdit(str(paths.reports_dir / f"{stem}.xlsx"), self)
        self.path_edit.textChanged.connect(lambda _t: self._update())
        self.choose_button = QPushButton("C&hoose…", self)
        self.choose_button.clicked.connect(self.choose)
        self.bar = QProgressBar(self)
        self.bar.hide()
        self.status = plain_label(QLabel(self))
        self.status.setWordWrap(True)
        self.open_button = QPushButton("&Open file", self)
        self.folder_button = QPushButton("Open &folder", self)
        self.open_button.clicked.connect(lambda: open_path(Path(self.path_edit.text())))
        self.folder_button.clicked.connect(lambda: open_path(Path(self.path_edit.text()).parent))
        self.open_button.hide()
        self.folder_button.hide()
        self.buttons = QDialogButtonBox(self)
        self.export_button = self.buttons.addButton(
            "&Export", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.export_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(self.choose_button)
        form = QFormLayout()
        form.addRow("Format", self.xlsx_radio)
        form.addRow("", self.csv_radio)
        file_label = QLabel("&File", self)
        file_label.setBuddy(self.path_edit)  # a layout cannot be a buddy; the line edit is
        form.addRow(file_label, path_row)
        done_row = QHBoxLayout()
        done_row.addWidget(self.open_button)
        done_row.addWidget(self.folder_button)
        done_row.addStretch()
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.bar)
        layout.addWidget(self.status)
        layout.addLayout(done_row)
        layout.addWidget(self.buttons)
        self.resize(620, 300)
        self._update()

    def set_session(self, session: Session) -> None:
        """A new token for the same connection: an export started later goes through
        ``session`` (the old one's client is closed)."""
        self.session = session

    @property
    def suffix(self) -> str:
        return ".xlsx" if self.xlsx_radio.isChecked() else ".csv"

    def _format_changed(self) -> None:
        path = Path(self.path_edit.text().strip() or "export")
        self.path_edit.setText(str(path.with_suffix(self.suffix)))

    def choose(self) -> None:
        name = "Excel workbook (*.xlsx)" if self.suffix == ".xlsx" else "CSV (*.csv)"
        path, _ = QFileDialog.getSaveFileName(self, "Export to", self.path_edit.text(), name)
        if path:
            chosen = Path(path)
            if chosen.suffix.lower() not in (".xlsx", ".csv"):
                chosen = chosen.with_suffix(self.suffix)
            (self.csv_radio if chosen.suffix.lower() == ".csv" else self.xlsx_radio).setChecked(
                True
            )
            self.path_edit.setText(str(chosen))

    def _update(self) -> None:
        running = self.task is not None and self.task.running
        ok_suffix = Path(self.path_edit.text().strip()).suffix.lower() in (".xlsx", ".csv")
        self.export_button.setEnabled(not running and ok_suffix)
        for widget in (self.xlsx_radio, self.csv_radio, self.path_edit, self.choose_button):
            widget.setEnabled(not running)
        if not ok_suffix and self.path_edit.text().strip():
            self.status.setText("The file name must end in .xlsx or .csv.")

    def start(self) -> None:
        out = Path(self.path_edit.text().strip()).expanduser()
        api, kind, query = self.session.api, self.kind, self.query
        name = self.session.connection.name
        page_size = self.page_size
        scope_said = self.scope_said
        self.export_result = None
        self.bar.setRange(0, 0)
        self.bar.show()
        self.open_button.hide()
        self.folder_button.hide()
        self.status.setText("Counting the rows…")

        def work(ctx: TaskContext) -> ExportResult:
            out.parent.mkdir(parents=True, exist_ok=True)
            job = ExportJob(
                api, kind, query, out, connection_name=name, progress=ctx.report,
                cancel=ctx.cancel_event, page_size=page_size, scope_said=scope_said,
            )  # fmt: skip
            return job.run()

        self.task = self.runner.submit(
            "export",
            work,
            on_done=self._done,
            on_error=self._failed,
            on_progress=self._progress,
        )
        self._update()

    def _progress(self, p: object) -> None:
        if not isinstance(p, ExportProgress):
            return
        if p.total:
            self.bar.setRange(0, p.total)
            self.bar.setValue(min(p.rows, p.total))
            self.status.setText(f"{p.rows:,} of {p.total:,} rows written…")
        else:
            self.status.setText(f"{p.rows:,} rows written…")

    def _done(self, result: ExportResult) -> None:
        self.export_result = result
        self.bar.setRange(0, max(result.total, 1))
        self.bar.setValue(result.rows)
        text = f"Exported {counted(result.rows, 'row', 'rows')} to {result.path}."
        if result.unreachable:
            text += f"\n\n⚠ {unreachable_warning(result)}"
        if result.list_changed:
            changed = change_warning(result)
            text += f"\n\n⚠ {changed[0].upper()}{changed[1:]}."
        if note := result.forms_not_searched:
            text += f"\n\n{note[0].upper()}{note[1:]}."
        self.status.setText(text)
        self.open_button.show()
        self.folder_button.show()
        self.cancel_button.setText("Close")
        self._update()
        self.exported.emit(result)

    def _failed(self, exc: BaseException) -> None:
        self.bar.hide()
        if isinstance(exc, Cancelled):
            self.status.setText("The export was cancelled; no file was written.")
        elif isinstance(exc, DayFilterRefused):
            # Found out before any row was read or the file written.
            refusal = exc.search.refusal(exc.insert_date, WINDOW_DAY_ADVICE)
            self.status.setText(f"Export not started: {refusal}.")
        elif isinstance(exc, ValueError):
            self.status.setText(str(exc))
        else:
            self.status.setText(user_message(exc, "Exporting").text)
        self._update()

    def cancel(self) -> None:
        """Cancel a running export (the partial file is removed), or close the dialog."""
        if self.task is not None and self.task.running:
            self.task.cancel()
            self.status.setText("Cancelling…")
            return
        self.reject()

    def reject(self) -> None:
        if self.task is not None and self.task.running:
            self.task.cancel()
        super().reject()
