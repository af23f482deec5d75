"""Confirm and run a bulk lead re-status (an audit's conflicting leads), and a progress
dialog shared by the bulk writes of the audit and health views.

The confirmation follows the DNC removal's: what will change (count, lists, the leads), a
required reason (the journal's note), the status picker with its dnc=Y / final=Y warnings,
and over :data:`TYPE_TO_CONFIRM_OVER` leads the count typed to confirm. The write itself is
core's (``restatus_leads``: journaled through the session, one outcome per lead).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from app.api.models import Lead, LeadStatus
from app.core.lead_restatus import RestatusOutcome
from app.core.session import Session
from app.ui.delete_dialog import MAX_LISTED, TYPE_TO_CONFIRM_OVER
from app.ui.error_messages import user_message
from app.ui.status_picker import StatusPicker, status_warnings
from app.ui.tasks import Task, TaskContext, TaskRunner

# The summary of a finished run: one line, and the rows that need a look (failed, skipped).
Summary = tuple[str, list[str]]


@dataclass(frozen=True, slots=True)
class RestatusPlan:
    """What the user confirmed: these leads get this status, for this reason."""

    leads: tuple[Lead, ...]
    status: LeadStatus
    note: str


class RestatusDialog(QDialog):
    """Confirmation of a lead re-status; on accept, :attr:`plan` says what to do.

    Signals:
        auth_problem(object, object): forwarded from the status picker.
    """

    auth_problem = Signal(object, object)

    def __init__(
        self,
        leads: Sequence[Lead],
        session: Session,
        runner: TaskRunner,
        list_names: dict[str, str] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        unique = list({lead.id: lead for lead in leads}.values())
        if not unique:
            raise ValueError("no leads to re-status")
        self.leads = tuple(unique)
        self.plan: RestatusPlan | None = None
        names = list_names or {}
        count = len(self.leads)
        noun = "lead" if count == 1 else "leads"
        self.setWindowTitle(f"Set the status of {count:,} {noun}")

        self.summary = QLabel(
            f"<b>Set the status of {count:,} {noun}</b> whose numbers are on an opt-out list "
            "that applies to the campaign. Each change is recorded in the change journal.",
            self,
        )
        self.summary.setWordWrap(True)
        per_list = Counter(names.get(x.list_id, f"list {x.list_id}") for x in self.leads)
        self.lists_label = QLabel(
            "Lists — " + "; ".join(f"{name}: {n:,}" for name, n in sorted(per_list.items())), self
        )
        self.lists_label.setWordWrap(True)
        self.leads_text = QPlainTextEdit(self)
        self.leads_text.setReadOnly(True)
        self.leads_text.setMaximumHeight(120)
        lines = [
            f"lead {x.id}  {x.name or '(no name)'}  {x.phone_number}  status {x.status or '—'}"
            for x in self.leads[:MAX_LISTED]
        ]
        if count > MAX_LISTED:
            lines.append(f"… and {count - MAX_LISTED:,} more")
        self.leads_text.setPlainText("\n".join(lines))

        self.picker = StatusPicker(session, runner, self)
        self.picker.auth_problem.connect(self.auth_problem)
        self.status_warning = QLabel(self)
        self.status_warning.setWordWrap(True)
        self.status_warning.hide()
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setPlaceholderText("Required: why the status is changed (journaled)")
        self.confirm_label = QLabel(f"Type {count} to confirm changing {count:,} leads:", self)
        self.confirm_edit = QLineEdit(self)
        self.confirm_label.setVisible(self.needs_typed_count)
        self.confirm_edit.setVisible(self.needs_typed_count)
        self.missing = QLabel(self)
        self.missing.setWordWrap(True)

        form = QFormLayout()
        form.addRow("&Reason", self.reason_edit)
        form.addRow(self.confirm_label, self.confirm_edit)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(f"Set status of {count:,}")
        # A bulk write is never the default button: Enter must not confirm it by accident.
        self.ok_button.setAutoDefault(False)
        self.ok_button.setDefault(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.lists_label)
        layout.addWidget(self.leads_text)
        layout.addWidget(QLabel("New lead status:", self))
        layout.addWidget(self.picker)
        layout.addWidget(self.status_warning)
        layout.addLayout(form)
        layout.addWidget(self.missing)
        layout.addWidget(self.buttons)
        self.resize(620, 560)

        self.reason_edit.textChanged.connect(self._update)
        self.confirm_edit.textChanged.connect(self._update)
        self.picker.status_changed.connect(self._update)
        self._update()
        self.picker.search()

    @property
    def needs_typed_count(self) -> bool:
        return len(self.leads) > TYPE_TO_CONFIRM_OVER

    def status_warning_text(self) -> str:
        return self.status_warning.text() if not self.status_warning.isHidden() else ""

    def _update(self, *_: object) -> None:
        missing: list[str] = []
        status = self.picker.chosen
        if status is None:
            missing.append("the lead status to set")
        if not self.reason_edit.text().strip():
            missing.append("a reason")
        if self.needs_typed_count and self.confirm_edit.text().strip() != str(len(self.leads)):
            missing.append(f"the count ({len(self.leads)}) typed to confirm")
        warnings = status_warnings(status)
        self.status_warning.setText("\n".join(f"⚠ {w}" for w in warnings))
        self.status_warning.setVisible(bool(warnings))
        self.missing.setText("Still needed: " + ", ".join(missing) + "." if missing else "")
        self.ok_button.setEnabled(not missing)

    def accept(self) -> None:
        status = self.picker.chosen
        if not self.ok_button.isEnabled() or status is None:
            return
        self.plan = RestatusPlan(self.leads, status, self.reason_edit.text().strip())
        super().accept()


def restatus_summary(outcome: RestatusOutcome) -> Summary:
    """One line for the result, and every lead that was not changed with why."""
    total = len(outcome.rows)
    parts = [f"Set {outcome.done:,} of {total:,} leads to {outcome.status}"]
    if outcome.failed:
        parts.append(f"failed {outcome.failed:,}")
    skipped = sum(1 for r in outcome.rows if r.outcome == "not_attempted")
    if skipped:
        parts.append(f"not attempted (cancelled) {skipped:,}")
    problems = [
        f"lead {r.lead_id} (list {r.list_id}, was {r.old_status or '—'}): "
        f"{r.outcome.replace('_', ' ')}" + (f" — {r.error}" if r.error else "")
        for r in outcome.rows
        if r.outcome != "ok"
    ]
    return "; ".join(parts) + f". Journal job {outcome.job}.", problems


class BulkProgressDialog(QDialog):
    """Runs one bulk write off the GUI thread: progress bar, Cancel, then the summary with
    every row that did not succeed.

    The work is a callable taking the :class:`TaskContext`; it reports progress as
    ``(done, total, message)`` tuples and must give every input an outcome itself (core's
    bulk functions do: cancelled inputs end as "not attempted").

    Signals:
        run_finished(object): the work's return value.
        run_failed(object): the exception when the work could not run at all.
        running_changed(bool): the work started (True) or ended (False).
    """

    run_finished = Signal(object)
    run_failed = Signal(object)
    running_changed = Signal(bool)

    def __init__(self, title: str, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.result_value: Any = None
        self.summary = ""
        self._task: Task | None = None
        self._action = title
        self.setWindowTitle(title)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.bar = QProgressBar(self)
        self.details = QPlainTextEdit(self)
        self.details.setReadOnly(True)
        self.details.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.cancel_button = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.close_button.clicked.connect(self.accept)
        self.close_button.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.details)
        layout.addWidget(self.buttons)
        self.resize(560, 220)

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(
        self,
        total: int,
        work: Callable[[TaskContext], Any],
        summarize: Callable[[Any], Summary],
    ) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(0)
        self.label.setText(f"{self._action}: starting ({total:,})…")

        def done(value: Any) -> None:
            self._task = None
            self.running_changed.emit(False)
            self.result_value = value
            self.summary, problems = summarize(value)
            self.bar.setValue(self.bar.maximum())
            self.label.setText(self.summary)
            if problems:
                self.details.setPlainText("\n".join(problems))
                self.details.show()
            self._finish_buttons()
            self.run_finished.emit(value)

        def failed(exc: BaseException) -> None:
            self._task = None
            self.running_changed.emit(False)
            self.summary = user_message(exc, self._action).text
            self.label.setText(self.summary)
            self._finish_buttons()
            self.run_failed.emit(exc)

        self._task = self.runner.submit(
            self._action, work, on_done=done, on_error=failed, on_progress=self._on_progress
        )
        self.running_changed.emit(True)

    def _finish_buttons(self) -> None:
        self.cancel_button.hide()
        self.close_button.show()

    def _on_progress(self, value: object) -> None:
        if isinstance(value, tuple) and len(value) == 3:
            done, total, message = value
            if int(total) > 0:
                self.bar.setMaximum(int(total))
                self.bar.setValue(int(done))
            self.label.setText(str(message))

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self.cancel_button.setEnabled(False)
            self.label.setText("Cancelling: changes already sent finish first…")

    def reject(self) -> None:
        # Escape while running means cancel; the dialog stays to show what was done.
        if self.running:
            self.cancel()
            return
        super().reject()
