"""Confirm and run a bulk lead re-status (an audit's conflicting leads), and a progress
dialog shared by the bulk writes of the audit and health views.

The confirmation follows the DNC removal's: what will change (count, lists, the leads), a
required reason (the journal's note), the status picker with its dnc=Y / final=Y warnings,
and over :data:`TYPE_TO_CONFIRM_OVER` leads the count typed to confirm. The write itself is
core's (``restatus_leads``: journaled through the session, one outcome per lead).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.api.models import Lead, LeadStatus
from app.core.lead_restatus import UNCHANGED, RestatusOutcome
from app.core.session import Session
from app.core.wording import counted
from app.ui.bulk_progress import Summary
from app.ui.confirm_buttons import confirming_buttons
from app.ui.delete_dialog import MAX_LISTED, TYPE_TO_CONFIRM_OVER
from app.ui.plain_text import plain_label
from app.ui.status_picker import StatusPicker, status_warnings
from app.ui.tasks import TaskRunner

# The summary of a finished run: one line, and the rows that need a look (failed, skipped).


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
        self.lists_label = plain_label(
            QLabel(
                "Lists — " + "; ".join(f"{name}: {n:,}" for name, n in sorted(per_list.items())),
                self,
            )
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
        self.status_warning = plain_label(QLabel(self))  # quotes a status code
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
        self.buttons, self.ok_button = confirming_buttons(self, f"Set status of {count:,}")

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
    parts = [f"Set {outcome.done:,} of {counted(total, 'lead', 'leads')} to {outcome.status}"]
    if outcome.failed:
        parts.append(f"failed {outcome.failed:,}")
    if outcome.unchanged:
        # Already in the status when looked up just before: nothing was sent for them.
        parts.append(f"already {outcome.status} {outcome.unchanged:,} (no request sent)")
    skipped = sum(1 for r in outcome.rows if r.outcome == "not_attempted")
    if skipped:
        parts.append(f"not attempted (cancelled) {skipped:,}")
    problems = [
        f"lead {r.lead_id} (list {r.list_id}, was {r.old_status or '—'}): "
        f"{r.outcome.replace('_', ' ')}" + (f" — {r.error}" if r.error else "")
        for r in outcome.rows
        if r.outcome not in ("ok", UNCHANGED)
    ]
    return "; ".join(parts) + f". Journal job {outcome.job}.", problems
