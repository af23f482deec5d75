"""Ask before activating a campaign that has no clean audit within the gate's window.

The decision is core's (``launch_gate.gate_check``); this dialog only shows it and collects
the override's reason, which core records in the change journal (``gate.override``) before
the status change is sent.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.api.models import Campaign
from app.core.launch_gate import GateDecision
from app.ui.audit_table_model import last_audit_text
from app.ui.confirm_buttons import confirming_buttons
from app.ui.plain_text import plain_label, rich, window_title


class GateDialog(QDialog):
    """The launch gate's question; on accept, :attr:`override_reason` holds the reason."""

    def __init__(
        self, campaign: Campaign, decision: GateDecision, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.campaign = campaign
        self.decision = decision
        self.override_reason = ""
        self.setWindowTitle(window_title(f"Activate {campaign.name} without a clean audit?"))
        window = f"{decision.window_hours:g} hours"
        self.message = QLabel(
            f"<b>{rich(campaign.name)}</b> (id {rich(campaign.id)}) has no clean audit within the "
            f"last {window}.<br>{rich(decision.reason)}<br><br>Activating it now lets the dialer "
            "call leads that may be on a do-not-call or SMS opt-out list. Audit it first, or give "
            "the reason for activating anyway: the override is recorded in the change journal.",
            self,
        )
        self.message.setWordWrap(True)
        last = decision.last_audit
        when = f" at {last.finished_at}" if last is not None else ""
        self.last_label = plain_label(QLabel(f"Last audit{when}: {last_audit_text(last)}", self))
        self.last_label.setWordWrap(True)
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setPlaceholderText("Required: why the campaign is activated anyway")
        form = QFormLayout()
        form.addRow("Override &reason", self.reason_edit)
        self.buttons, self.ok_button = confirming_buttons(self, "Activate anyway")
        self.ok_button.setEnabled(False)
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setDefault(True)
        self.reason_edit.textChanged.connect(
            lambda text: self.ok_button.setEnabled(bool(text.strip()))
        )
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.last_label)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.resize(520, 260)

    def accept(self) -> None:
        reason = self.reason_edit.text().strip()
        if not reason:
            return
        self.override_reason = reason
        super().accept()
