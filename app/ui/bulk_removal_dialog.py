"""Bulk removal from the DNC list: a file of numbers (or a pasted column), the scope, an optional
lead re-status with the same picker and warnings as single deletes, and the removal reason;
then the same run and result pages as an import.

The removal is the engine's (:func:`app.core.removal_job.stage_removal` and ``run_removal``):
numbers not on the list end as "not on the list", not as errors, and every delete is journaled
with the reason as its note. Pasted numbers are saved as a CSV beside the job files first, so
the job, like any other, points at the list it was given.

A workbook's sheet is chosen on the first page (as ``dnc-desk remove --sheet``): its sheets are
listed off the GUI thread with the import wizard's :func:`~app.ui.import_wizard_engine.probe_file`
(hidden ones marked), the one staging would read chosen first. The count shown before
confirming and the removal both read the sheet chosen there.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from app.api.models import Campaign, LeadStatus
from app.api.scope import Scope
from app.core.job_staging import JobSettings, MappingError, open_mapped
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.sheet_guard import sniff_kind
from app.core.sheet_scope import visible_text
from app.core.sheet_types import SheetError
from app.core.wording import counted
from app.ui.error_messages import user_message
from app.ui.import_pages_source import FILE_FILTER
from app.ui.import_wizard_engine import FileProbe, probe_file
from app.ui.job_list import refuse_beside_in_window
from app.ui.job_progress import JobHandle, ResultPage, RunPage
from app.ui.plain_text import plain_label, window_title
from app.ui.status_picker import StatusPicker, status_warnings
from app.ui.tasks import TaskRunner

PURPOSE_WARNING = (
    "⚠ The service removes a number's entries for every purpose at once. With a purpose named "
    "here, a number that is also listed for another purpose is not removed (its row is "
    "reported as failed, naming the other purposes); leave the purpose blank to remove the "
    "numbers for every purpose."
)
CALL_AGAIN_WARNING = (
    "Numbers taken off the DNC list may be called again in the scope chosen. US rules (47 CFR "
    "64.1200(d)(6)) require a do-not-call request to be honored for five years."
)


CONFIRM_OVER = 100


def pasted_numbers(text: str) -> list[str]:
    """One number per non-blank line (the first cell of a pasted spreadsheet column)."""
    out = []
    for line in text.splitlines():
        cell = line.split("\t", 1)[0].strip()
        if cell:
            out.append(cell)
    return out


def save_pasted(numbers: list[str], folder: Path) -> Path:
    """Write pasted numbers as a one-column CSV (text, so nothing is reinterpreted)."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    path = folder / f"pasted-{stamp}-{secrets.token_hex(3)}.csv"
    folder.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        fh.write("Phone\r\n")
        for number in numbers:
            fh.write(f'"{number.replace(chr(34), "")}"\r\n')
    return path


@dataclass(frozen=True)
class FileSheets:
    """What the source page lists for a file: its sheets and the one staging would read.

    ``workbook`` is False for a text table (CSV, TSV, or text saved under a workbook's name),
    which has no sheet to choose.
    """

    probe: FileProbe
    workbook: bool
    default: str

    def label(self, sheet: str) -> str:
        return f"{sheet} (hidden)" if sheet in self.probe.hidden_sheets else sheet


def read_sheets(path: Path, phone_code: str) -> FileSheets:
    """The sheets of ``path`` and the one a removal with no sheet named would read (run off the
    GUI thread; raises SheetError in one sentence when the file cannot be read).

    The sheets are the import wizard's probe of the file. Staging may pass over the first sheet
    with data when it has no phone column (a vendor's instructions sheet first): the default is
    the sheet :func:`~app.core.job_staging.open_mapped` picks, or the probe's when no sheet has
    a phone column (staging then refuses, naming the sheets).
    """
    probe = probe_file(path)
    # open_sheet reads a zip or OLE2 container as a workbook, anything else as text.
    workbook = sniff_kind(probe.path).container in ("zip", "ole2")
    default = probe.sheet
    if workbook and len(probe.sheet_names) > 1:
        settings = JobSettings(file=probe.path, scope=Scope.global_(), phone_code=phone_code)
        try:
            source, _mapping = open_mapped(probe.path, settings, probe_others=False)
        except MappingError:
            pass
        else:
            with source:
                default = source.sheet
    return FileSheets(probe, workbook, default)


class RemovalSourcePage(QWizardPage):
    """A file of numbers (and a workbook's sheet), or numbers pasted one per line."""

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.setTitle("Numbers to remove from the DNC list")
        self.setSubTitle(
            "Choose a spreadsheet or CSV with a column of phone numbers (a Scope or Campaign "
            "column is used per row), or paste a column of numbers."
        )
        self.file_radio = QRadioButton("From a &file", self)
        self.paste_radio = QRadioButton("&Pasted numbers, one per line", self)
        self.file_radio.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.file_radio)
        group.addButton(self.paste_radio)
        self.path_edit = QLineEdit(self)
        self.browse_button = QPushButton("&Browse…", self)
        self.browse_button.clicked.connect(self.browse)
        self.paste_edit = QPlainTextEdit(self)
        self.paste_edit.setPlaceholderText("(202) 555-0143\n+1 312 555 0199\n…")
        self.code_edit = QLineEdit("1", self)
        self.code_edit.setMaximumWidth(80)
        self.code_edit.setToolTip("Country calling code for numbers written without one")
        # The file's sheets, read off the GUI thread for the path as it now reads; an answer
        # for an earlier path (its generation passed) is dropped.
        self.sheets: FileSheets | None = None
        self.reading = False
        self._generation = 0
        self.sheet_combo = QComboBox(self)
        self.sheet_combo.setEnabled(False)
        self.sheet_combo.currentIndexChanged.connect(lambda _i: self._sheet_chosen())
        self.sheet_message = plain_label(QLabel(self))
        self.sheet_message.setWordWrap(True)
        self.path_edit.textChanged.connect(lambda _text: self.read_file())
        self.paste_edit.textChanged.connect(self._changed)
        self.file_radio.toggled.connect(lambda _on: self._changed())
        file_row = QHBoxLayout()
        file_row.addWidget(self.path_edit, 1)
        file_row.addWidget(self.browse_button)
        sheet_row = QHBoxLayout()
        sheet_label = QLabel("&Sheet", self)
        sheet_label.setBuddy(self.sheet_combo)
        sheet_row.addWidget(sheet_label)
        sheet_row.addWidget(self.sheet_combo, 1)
        # Off by default: a row someone hid or filtered out is usually one they decided to keep.
        self.hidden_check = QCheckBox("Also remove rows that are &hidden or filtered out", self)
        self.hidden_check.setToolTip(
            "Rows hidden in the spreadsheet (by hand or by a filter) are left on the list and "
            "reported as not removed, unless this is ticked (xlsx and xlsm files)."
        )
        self.count_label = plain_label(QLabel(self))
        form = QFormLayout()
        form.addRow("Country code for numbers without one", self.code_edit)
        layout = QVBoxLayout(self)
        layout.addWidget(self.file_radio)
        layout.addLayout(file_row)
        layout.addLayout(sheet_row)
        layout.addWidget(self.sheet_message)
        layout.addWidget(self.hidden_check)
        layout.addWidget(self.paste_radio)
        layout.addWidget(self.paste_edit, 1)
        layout.addWidget(self.count_label)
        layout.addLayout(form)
        self._changed()

    def browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Choose the file of numbers to remove", self.path_edit.text(), FILE_FILTER
        )
        if path:
            self.file_radio.setChecked(True)
            if path == self.path_edit.text():
                self.read_file()  # chosen again: it may have changed since it was read
            else:
                self.path_edit.setText(path)

    def read_file(self) -> None:
        """List the sheets of the file named in the path box, off the GUI thread."""
        self._generation += 1
        generation = self._generation
        self.sheets = None
        self.sheet_combo.blockSignals(True)
        self.sheet_combo.clear()
        self.sheet_combo.setPlaceholderText("")
        self.sheet_combo.blockSignals(False)
        text = self.path_edit.text().strip()
        self.reading = bool(text)
        if text:
            path = Path(text).expanduser()
            code = self.code_edit.text().strip() or "1"
            self.sheet_message.setText(f"Reading {path.name}…")
            self.runner.submit(
                "list the sheets",
                lambda _ctx: read_sheets(path, code),
                on_done=lambda sheets: self._sheets_read(generation, sheets),
                on_error=lambda exc: self._read_failed(generation, exc),
            )
        else:
            self.sheet_message.clear()
        self._changed()

    def _sheets_read(self, generation: int, sheets: FileSheets) -> None:
        if generation != self._generation:
            return
        self.reading = False
        self.sheets = sheets
        self.sheet_combo.blockSignals(True)
        if sheets.workbook:
            # A hidden sheet is listed (it may be the one meant) but marked, as in the import
            # wizard: numbers nobody looking at the file has seen are not removed unawares.
            for name in sheets.probe.sheet_names:
                self.sheet_combo.addItem(sheets.label(name), name)
            self.sheet_combo.setCurrentIndex(max(self.sheet_combo.findData(sheets.default), 0))
        else:
            self.sheet_combo.setPlaceholderText("(a text file has no sheets)")
        self.sheet_combo.blockSignals(False)
        self._sheet_chosen()

    def _read_failed(self, generation: int, exc: BaseException) -> None:
        if generation != self._generation:
            return
        self.reading = False
        text = str(exc) if isinstance(exc, SheetError) else user_message(exc, "Reading").text
        self.sheet_message.setText(f"⚠ {text}")
        self._changed()

    def _sheet_chosen(self) -> None:
        sheet = self.sheet()
        if (
            sheet is not None
            and self.sheets is not None
            and sheet in self.sheets.probe.hidden_sheets
        ):
            self.sheet_message.setText(
                f"⚠ Sheet {sheet!r} is hidden in the file (someone opening the file does not "
                "see its numbers); it is read because it is chosen here."
            )
        else:
            self.sheet_message.clear()
        self._changed()

    def sheet(self) -> str | None:
        """The workbook's sheet chosen (None for a text file or pasted numbers)."""
        if not self.file_radio.isChecked() or self.sheets is None or not self.sheets.workbook:
            return None
        chosen = self.sheet_combo.currentData()
        return chosen if isinstance(chosen, str) else None

    def _changed(self) -> None:
        from_file = self.file_radio.isChecked()
        self.path_edit.setEnabled(from_file)
        self.browse_button.setEnabled(from_file)
        self.hidden_check.setEnabled(from_file)
        self.sheet_combo.setEnabled(from_file and self.sheets is not None and self.sheets.workbook)
        self.paste_edit.setEnabled(not from_file)
        n = len(pasted_numbers(self.paste_edit.toPlainText()))
        self.count_label.setText("" if from_file else f"{counted(n, 'number', 'numbers')} pasted")
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        if self.file_radio.isChecked():
            # Read, so the sheet the removal reads is the one shown (a file that cannot be
            # read says why on the page and goes no further).
            return bool(self.path_edit.text().strip()) and self.sheets is not None
        return bool(pasted_numbers(self.paste_edit.toPlainText()))

    def validatePage(self) -> bool:
        """Not before the file's sheets are read, however the wizard is told to go on."""
        return self.isComplete()


class RemovalOptionsPage(QWizardPage):
    """Scope, optional lead re-status, the reason and the job's name."""

    def __init__(self, dialog: BulkRemovalDialog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.dialog = dialog
        self.setTitle("Scope, leads and reason")
        self.setSubTitle(CALL_AGAIN_WARNING)
        self.setCommitPage(True)
        self.setButtonText(QWizard.WizardButton.CommitButton, "&Remove numbers")
        self.scope_combo = QComboBox(self)
        self.scope_combo.addItem("Global (every campaign)", "global")
        self.scope_combo.addItem("One campaign", "campaign")
        self.scope_combo.addItem("A purpose", "purpose")
        self.campaign_combo = QComboBox(self)
        self.campaign_combo.setPlaceholderText("Loading campaigns…")
        self.purpose_edit = QLineEdit(self)
        self.purpose_edit.setPlaceholderText("Blank: every purpose")
        self.purpose_warning = QLabel(PURPOSE_WARNING, self)
        self.purpose_warning.setWordWrap(True)
        # Off: a row whose Scope/Campaign cells name another scope than the one above is
        # invalid, as a removal never takes a scope nobody chose.
        self.per_row_check = QCheckBox(
            "Take each row's scope from the file's Scope or Campaign column (the scope above "
            "for rows naming none)",
            self,
        )
        self.reason_edit = QLineEdit(self)
        # The job's note, as `dnc-desk remove --note` (required there too): the commit button
        # stays disabled until it says something.
        self.reason_edit.setPlaceholderText(
            "Required: why these numbers are removed, on whose request (kept in the report and "
            "the change journal)"
        )
        self.name_edit = QLineEdit(self)
        self.restatus_check = QCheckBox("Set the status of the leads with these numbers to…", self)
        self.picker = StatusPicker(dialog.session, dialog.runner, self)
        self.picker.setEnabled(False)
        self.status_warning = plain_label(QLabel(self))  # quotes a status code
        self.status_warning.setWordWrap(True)
        self.status_warning.hide()
        self.concurrency_spin = QSpinBox(self)
        self.concurrency_spin.setRange(1, 32)
        self.concurrency_spin.setValue(8)
        self.missing = QLabel(self)
        self.missing.setWordWrap(True)
        # Over CONFIRM_OVER numbers the user types the count, as for a list-view delete.
        self.count: int | None = None
        self._count_generation = 0
        self.count_label = plain_label(QLabel(self))
        # Where the count is read from: the sheet (or file) the removal reads.
        self.count_source_label = plain_label(QLabel(self))
        self.count_source_label.setWordWrap(True)
        count_row = QHBoxLayout()
        count_row.addWidget(self.count_label)
        count_row.addWidget(self.count_source_label, 1)
        self.confirm_edit = QLineEdit(self)
        self.confirm_edit.setPlaceholderText("Type the number of numbers to confirm")
        self.confirm_edit.hide()
        form = QFormLayout()
        form.addRow("S&cope", self.scope_combo)
        form.addRow("Campai&gn", self.campaign_combo)
        form.addRow("P&urpose", self.purpose_edit)
        form.addRow("", self.purpose_warning)
        form.addRow("", self.per_row_check)
        form.addRow("&Reason for removal", self.reason_edit)
        form.addRow("&Name of the job", self.name_edit)
        form.addRow("Requests at &once", self.concurrency_spin)
        form.addRow("Numbers", count_row)
        form.addRow("", self.confirm_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.restatus_check)
        layout.addWidget(self.picker, 1)
        layout.addWidget(self.status_warning)
        layout.addWidget(self.missing)
        for signal in (
            self.scope_combo.currentIndexChanged,
            self.campaign_combo.currentIndexChanged,
            self.purpose_edit.textChanged,
            self.reason_edit.textChanged,
            self.picker.status_changed,
            self.confirm_edit.textChanged,
        ):
            signal.connect(lambda *_: self._changed())
        self.restatus_check.toggled.connect(self._restatus_toggled)
        self._changed()

    def initializePage(self) -> None:
        self._count_numbers()
        if not self.name_edit.text():
            source = self.dialog.source_page
            what = (
                Path(source.path_edit.text()).name
                if source.file_radio.isChecked()
                else "pasted numbers"
            )
            self.name_edit.setText(f"Removal of {what}")

    def _count_numbers(self) -> None:
        source = self.dialog.source_page
        self.count = None
        self._count_generation += 1
        generation = self._count_generation
        self.confirm_edit.clear()
        self.confirm_edit.hide()
        if not source.file_radio.isChecked():
            self.count_source_label.setText("(pasted numbers)")
            self._set_count(generation, len(pasted_numbers(source.paste_edit.toPlainText())))
            return
        # The settings the removal is staged with, so the count is of the sheet and column
        # it will read (the scope does not change which rows are counted).
        settings = self.dialog.file_settings(self.scope() or Scope.global_())
        self.count_source_label.setText(self._source_text(settings))
        self.count_label.setText("Counting the numbers in the file…")
        from app.core.removal_job import count_numbers

        def failed(exc: BaseException) -> None:
            if generation == self._count_generation:
                self.count_label.setText(f"The file cannot be read: {exc}")

        self.dialog.runner.submit(
            "count numbers",
            lambda _ctx: count_numbers(settings),
            on_done=lambda count: self._set_count(generation, count),
            on_error=failed,
        )
        self.completeChanged.emit()

    def _source_text(self, settings: JobSettings) -> str:
        name = settings.file.name
        if settings.sheet is None:
            return f"in {name}"
        sheets = self.dialog.source_page.sheets
        hidden = sheets is not None and settings.sheet in sheets.probe.hidden_sheets
        return f"on sheet {settings.sheet!r} of {name}" + (
            " (hidden in the file)" if hidden else ""
        )

    def _set_count(self, generation: int, count: int) -> None:
        if generation != self._count_generation:
            return  # counted for a sheet or file chosen before
        self.count = count
        self.count_label.setText(f"{count:,} to remove")
        self.confirm_edit.setVisible(count > CONFIRM_OVER)
        self.completeChanged.emit()

    def set_campaigns(self, campaigns: list[Campaign]) -> None:
        self.campaign_combo.clear()
        for c in sorted(campaigns, key=lambda c: c.name.casefold()):
            self.campaign_combo.addItem(f"{c.name} (id {c.id})", c.id)
        self.campaign_combo.setPlaceholderText("No campaigns" if not campaigns else "Choose")

    def _restatus_toggled(self, on: bool) -> None:
        self.picker.setEnabled(on)
        if on and not self.picker.statuses() and not self.picker.loading:
            self.picker.search()
        self._changed()

    @property
    def lead_status(self) -> LeadStatus | None:
        return self.picker.chosen if self.restatus_check.isChecked() else None

    def scope(self) -> Scope | None:
        kind = self.scope_combo.currentData()
        if kind == "campaign":
            cid = self.campaign_combo.currentData()
            return Scope.campaign(cid) if cid else None
        if kind == "purpose":
            # Blank is a choice, not a missing field: the purpose scope with every purpose.
            return Scope.purpose(self.purpose_edit.text().strip())
        return Scope.global_()

    def _changed(self) -> None:
        kind = self.scope_combo.currentData()
        self.campaign_combo.setEnabled(kind == "campaign")
        self.purpose_edit.setEnabled(kind == "purpose")
        self.purpose_warning.setVisible(kind == "purpose")
        warnings = status_warnings(self.lead_status)
        self.status_warning.setText("\n".join(f"⚠ {w}" for w in warnings))
        self.status_warning.setVisible(bool(warnings))
        self.completeChanged.emit()

    def missing_items(self) -> list[str]:
        missing = []
        if self.scope() is None:
            kind = self.scope_combo.currentData()
            missing.append("the campaign" if kind == "campaign" else "the purpose")
        if not self.has_reason():
            missing.append("a reason")
        if self.restatus_check.isChecked() and self.picker.chosen is None:
            missing.append("the lead status to set")
        if self.count is None:
            missing.append("the count of numbers (reading the file)")
        elif self.count > CONFIRM_OVER and self.confirm_edit.text().strip().replace(",", "") != str(
            self.count
        ):
            missing.append(f"the count ({self.count:,}) typed to confirm")
        return missing

    def has_reason(self) -> bool:
        """Whether the reason says something: spaces or invisible characters alone do not
        (as ``--note`` on the command line)."""
        return bool(visible_text(self.reason_edit.text()))

    def isComplete(self) -> bool:
        missing = self.missing_items()
        self.missing.setText("Still needed: " + ", ".join(missing) + "." if missing else "")
        return not missing

    def validatePage(self) -> bool:
        """The removal starts only with nothing missing (above all its reason, the job's note),
        however the wizard is told to go on: QWizard.next() does not ask isComplete()."""
        return self.isComplete()


class BulkRemovalDialog(QWizard):
    """Remove many numbers from the DNC list at once.

    Signals:
        job_started(object): the removal's :class:`JobHandle`.
        job_finished(object): its summary dict once it ended.
        auth_problem(object, object): forwarded from the status picker.
    """

    job_started = Signal(object)
    job_finished = Signal(object)
    auth_problem = Signal(object, object)

    PAGE_SOURCE, PAGE_OPTIONS, PAGE_RUN, PAGE_RESULT = range(4)

    def __init__(
        self,
        session: Session,
        runner: TaskRunner,
        paths: AppPaths,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.runner = runner
        self.paths = paths
        self.handle: JobHandle | None = None
        self.setWindowTitle(
            window_title(f"Bulk removal from the DNC list — {session.connection.name}")
        )
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnLastPage, True)
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, True)
        self.source_page = RemovalSourcePage(runner, self)
        self.options_page = RemovalOptionsPage(self)
        self.options_page.picker.auth_problem.connect(self.auth_problem)
        self.run_page = RunPage(self.start_job, "removal", self)
        self.result_page = ResultPage(self.run_page, "removal", self)
        for page_id, page in enumerate(
            (self.source_page, self.options_page, self.run_page, self.result_page)
        ):
            self.setPage(page_id, page)
        self.resize(860, 640)
        api = session.api
        runner.submit(
            "load campaigns",
            lambda ctx: api.campaigns(ctx.cancel_event),
            on_done=self.options_page.set_campaigns,
            on_error=lambda _exc: self.options_page.set_campaigns([]),
        )

    def set_session(self, session: Session) -> None:
        """A new token for the same connection: what starts later goes through
        ``session`` (the old one's client is closed)."""
        self.session = session
        self.options_page.picker.set_session(session)

    def file_settings(self, scope: Scope) -> JobSettings:
        """What decides which rows of the file are read: the file, its sheet and the country
        code.

        Both the count asked for before confirming and the removal itself start from these, so
        they read the same sheet (the one chosen on the first page, named even when it is the
        one staging would choose) and phone column.
        """
        source = self.source_page
        return JobSettings(
            file=Path(source.path_edit.text().strip()).expanduser(),
            scope=scope,
            sheet=source.sheet(),
            phone_code=source.code_edit.text().strip() or "1",
            include_hidden=source.hidden_check.isChecked(),
            scope_from_rows=self.options_page.per_row_check.isChecked(),
        )

    def start_job(self) -> JobHandle:
        if self.handle is not None:
            return self.handle
        from app.core.job_catalog import source_fingerprint
        from app.core.removal_job import find_lead_status, stage_removal
        from app.core.sheet_scope import CampaignDirectory

        source, options = self.source_page, self.options_page
        scope = options.scope()
        assert scope is not None
        pasted = (
            None
            if source.file_radio.isChecked()
            else pasted_numbers(source.paste_edit.toPlainText())
        )
        status = options.lead_status
        reason = options.reason_edit.text().strip()
        # No report path here: staging names the report after the job's id (made when the job
        # file is written), so the report and the Jobs tab show one name.
        settings = replace(
            self.file_settings(scope),
            name=options.name_edit.text().strip(),
            note=reason,
            lead_status=status.status if status is not None else "",
        )
        paths, session = self.paths, self.session

        def stage() -> Any:
            if pasted is not None:
                settings.file = save_pasted(pasted, paths.jobs_dir)
            # The file as it is read, for the job's start in the change journal (its SHA-256
            # and size) and a resume's check that it has not changed; here, off the GUI
            # thread, as the file may be large.
            settings.extra = {**settings.extra, **source_fingerprint(settings.file)}
            if settings.lead_status:
                # The statuses may have changed since the picker listed them.
                found = find_lead_status(session.api, settings.lead_status)
                settings.lead_status, settings.lead_status_dnc = found.status, found.dnc
            # Names resolve and ids are checked against the service, so a row naming a
            # campaign that does not exist ends invalid instead of failing when sent.
            lookup = CampaignDirectory(session.api.campaigns())
            staged = stage_removal(
                settings,
                paths.jobs_dir,
                connection=session.connection,
                campaign_lookup=lookup,
                reports_dir=paths.reports_dir,
            )
            # Not beside a removal of the same rows from the same list (S31 bb4 #6).
            what = "the pasted numbers" if pasted is not None else settings.file.name
            refuse_beside_in_window(staged[0], paths.jobs_dir, f"Removal of {what} not started")
            return staged

        handle = JobHandle(
            self.runner,
            self.session,
            "removal",
            stage=stage,
            concurrency=options.concurrency_spin.value(),
            # Nothing in this dialog showed what staging said of the file before it starts.
            with_notes=True,
            parent=self.runner,
        )
        handle.finished.connect(self.job_finished)
        self.handle = handle
        handle.start()
        self.job_started.emit(handle)
        return handle
