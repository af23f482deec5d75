"""Confirm the removal of DNC entries: what goes, why, and what happens to the leads.

Taking a number off a do-not-call list lets the dialer call it again, so this dialog makes the
consequences explicit before anything is sent: the count and scopes, the numbers, entries
younger than the five years US rules require a request to be honored, purpose entries that
the service removes for every purpose at once, and the effect of a lead status with dnc=Y or
final=Y. A reason is required (it is the journal's note); more than
:data:`TYPE_TO_CONFIRM_OVER` entries must be confirmed by typing the count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.api.models import Campaign, DncEntry, LeadStatus
from app.core.phones import format_for_display
from app.core.session import Session
from app.ui.confirm_buttons import confirming_buttons
from app.ui.entry_table_model import scope_label
from app.ui.plain_text import plain_label
from app.ui.status_picker import StatusPicker, status_warnings
from app.ui.tasks import TaskRunner

TYPE_TO_CONFIRM_OVER = 100
HONOR_YEARS = 5
MAX_LISTED = 500  # numbers listed in the dialog; the count always covers all


@dataclass(frozen=True, slots=True)
class RemovalPlan:
    """What the user confirmed."""

    entries: tuple[DncEntry, ...]
    reason: str
    lead_status: LeadStatus | None


def five_years_before(now: datetime) -> datetime:
    try:
        return now.replace(year=now.year - HONOR_YEARS)
    except ValueError:  # 29 February
        return now.replace(year=now.year - HONOR_YEARS, day=28)


def young_entries(entries: Sequence[DncEntry], now: datetime | None = None) -> list[DncEntry]:
    """Entries inserted less than five years ago; an unreadable date counts as young."""
    cutoff = five_years_before(now or datetime.now())
    return [e for e in entries if e.inserted_at is None or e.inserted_at > cutoff]


def scope_counts(entries: Sequence[DncEntry], campaigns: dict[str, Campaign]) -> list[str]:
    counts = Counter(scope_label(e, campaigns) for e in entries)
    return [f"{label}: {n:,}" for label, n in sorted(counts.items(), key=lambda kv: -kv[1])]


class DeleteDialog(QDialog):
    """Confirmation of a DNC removal; on accept, :attr:`plan` says what to do.

    Signals:
        auth_problem(object, object): forwarded from the status picker.
    """

    auth_problem = Signal(object, object)

    def __init__(
        self,
        entries: Sequence[DncEntry],
        session: Session,
        runner: TaskRunner,
        campaigns: Sequence[Campaign] = (),
        parent: QWidget | None = None,
        now: datetime | None = None,
    ) -> None:
        super().__init__(parent)
        if not entries:
            raise ValueError("nothing to remove")
        self.entries = tuple(entries)
        self.plan: RemovalPlan | None = None
        count = len(self.entries)
        known = {c.id: c for c in campaigns}
        noun = "entry" if count == 1 else "entries"
        self.setWindowTitle(f"Remove {count:,} DNC {noun}")
        # Wide enough that the re-status option and the status flags read without clipping.
        self.setMinimumWidth(620)

        self.summary = QLabel(
            f"<b>Remove {count:,} {noun} from the do-not-call list.</b> The dialer may call "
            f"{'this number' if count == 1 else 'these numbers'} again in the scopes below.",
            self,
        )
        self.summary.setWordWrap(True)
        self.scopes = plain_label(
            QLabel("Scopes — " + "; ".join(scope_counts(self.entries, known)), self)
        )
        self.scopes.setWordWrap(True)
        self.numbers = QPlainTextEdit(self)
        self.numbers.setReadOnly(True)
        self.numbers.setMaximumHeight(120)
        lines = [
            f"{format_for_display(e.phone_number, e.phone_code)}  (+{e.phone_code} "
            f"{e.phone_number})  {scope_label(e, known)}  id {e.id}"
            for e in self.entries[:MAX_LISTED]
        ]
        if count > MAX_LISTED:
            lines.append(f"… and {count - MAX_LISTED:,} more")
        self.numbers.setPlainText("\n".join(lines))

        self.warnings: list[str] = []
        young = young_entries(self.entries, now)
        if young:
            # One entry picked: "1 of these entry is" read wrong (GUI review B8 #2).
            which = (
                "This entry is"
                if count == 1
                else f"{len(young):,} of these {noun} {'is' if len(young) == 1 else 'are'}"
            )
            self.warnings.append(
                f"{which} younger than five years. US rules (47 CFR 64.1200(d)(6)) require a "
                "do-not-call request to be honored for five years from when it was made."
            )
        purpose = [e for e in self.entries if e.scope.is_purpose]
        if purpose:
            self.warnings.append(
                f"{len(purpose):,} purpose-scope {'entry' if len(purpose) == 1 else 'entries'}: "
                "the service removes a number's entry for every purpose at once, not only the "
                "purpose shown."
            )
        self.warning_label = QLabel("\n\n".join(f"⚠ {w}" for w in self.warnings), self)
        self.warning_label.setWordWrap(True)
        self.warning_label.setVisible(bool(self.warnings))

        self.reason_edit = QLineEdit(self)
        self.reason_edit.setPlaceholderText("Required: why these entries are removed (journaled)")
        self.restatus_check = QCheckBox("Set the status of the leads with these numbers to…", self)
        self.picker = StatusPicker(session, runner, self)
        self.picker.setEnabled(False)
        self.picker.auth_problem.connect(self.auth_problem)
        self.status_warning = plain_label(QLabel(self))  # quotes a status code
        self.status_warning.setWordWrap(True)
        self.status_warning.hide()
        self.confirm_edit = QLineEdit(self)
        self.confirm_label = QLabel(f"Type {count} to confirm removing {count:,} entries:", self)
        needs_typing = count > TYPE_TO_CONFIRM_OVER
        self.confirm_edit.setVisible(needs_typing)
        self.confirm_label.setVisible(needs_typing)
        self.missing = QLabel(self)
        self.missing.setWordWrap(True)

        form = QFormLayout()
        form.addRow("&Reason for removal", self.reason_edit)
        form.addRow(self.confirm_label, self.confirm_edit)

        self.buttons, self.ok_button = confirming_buttons(self, f"Remove {count:,}")

        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.scopes)
        layout.addWidget(self.numbers)
        layout.addWidget(self.warning_label)
        layout.addLayout(form)
        layout.addWidget(self.restatus_check)
        layout.addWidget(self.picker)
        layout.addWidget(self.status_warning)
        layout.addWidget(self.missing)
        layout.addWidget(self.buttons)

        self.reason_edit.textChanged.connect(self._update)
        self.confirm_edit.textChanged.connect(self._update)
        self.restatus_check.toggled.connect(self._restatus_toggled)
        self.picker.status_changed.connect(self._update)
        self._update()

    def set_session(self, session: Session) -> None:
        """The token of the same connection was replaced: the status search (and its retry)
        goes through ``session``."""
        self.picker.set_session(session)

    @property
    def needs_typed_count(self) -> bool:
        return len(self.entries) > TYPE_TO_CONFIRM_OVER

    def _restatus_toggled(self, on: bool) -> None:
        self.picker.setEnabled(on)
        if on and not self.picker.statuses() and not self.picker.loading:
            self.picker.search()
        self._update()

    def status_warning_text(self) -> str:
        return self.status_warning.text() if not self.status_warning.isHidden() else ""

    def _update(self, *_: object) -> None:
        missing: list[str] = []
        if not self.reason_edit.text().strip():
            missing.append("a reason")
        if self.needs_typed_count and self.confirm_edit.text().strip() != str(len(self.entries)):
            missing.append(f"the count ({len(self.entries)}) typed to confirm")
        status = self.picker.chosen if self.restatus_check.isChecked() else None
        if self.restatus_check.isChecked() and status is None:
            missing.append("the lead status to set")
        warnings = status_warnings(status)
        self.status_warning.setText("\n".join(f"⚠ {w}" for w in warnings))
        self.status_warning.setVisible(bool(warnings))
        self.missing.setText("Still needed: " + ", ".join(missing) + "." if missing else "")
        self.ok_button.setEnabled(not missing)

    def accept(self) -> None:
        if not self.ok_button.isEnabled():
            return
        status = self.picker.chosen if self.restatus_check.isChecked() else None
        self.plan = RemovalPlan(self.entries, self.reason_edit.text().strip(), status)
        super().accept()
