"""Confirm List health's fix: removing campaign DNC entries the global scope already covers.

A campaign entry is often a consumer's own request, with its own reason and date, while the
global entry covering it may be one that is removed later (a "Wrong number" entry goes when
the number is reassigned). So this fix is at least as careful as the Delete dialog (black-box
bb3 F6): it lists each entry beside the global entry that covers it, with both reasons and
dates, warns of the five years US rules require a request to be honored, leaves out the
entries younger than that unless the officer ticks them in, and requires a reason, journaled
with each delete.
"""

from __future__ import annotations

from datetime import datetime

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

from app.core.job_staging import shown_text
from app.core.list_health import (
    Finding,
    covered_by_text,
    passing_reason,
    younger_than_honor_period,
)
from app.core.phones import format_for_display
from app.core.snapshots import SnapshotEntry
from app.core.wording import counted
from app.ui.confirm_buttons import confirming_buttons
from app.ui.delete_dialog import TYPE_TO_CONFIRM_OVER
from app.ui.plain_text import plain_label

MAX_LISTED = 500  # entries listed in the dialog; the counts always cover all


def campaign_text(entry: SnapshotEntry) -> str:
    """``Solar Savings Outreach (1001)``, as the window names a campaign scope."""
    scope = entry.scope
    if not scope.is_campaign:
        return scope.label()
    name = entry.campaign_name.strip()
    return f"{name} ({scope.campaign_id})" if name else f"Campaign {scope.campaign_id}"


def _reason(entry: SnapshotEntry) -> str:
    return f"reason {shown_text(entry.reason)}" if entry.reason.strip() else "no reason"


def entry_line(entry: SnapshotEntry, cover: SnapshotEntry | None) -> str:
    """One entry to remove, beside the global entry that covers it."""
    number = format_for_display(entry.phone_number, entry.phone_code)
    covered = covered_by_text(cover) if cover else "global entry not read"
    return (
        f"{number}  {campaign_text(entry)}  id {entry.id}, {_reason(entry)}, inserted "
        f"{entry.insert_date or 'date unknown'}  — covered by {covered}"
    )


class HealthFixDialog(QDialog):
    """On accept, :attr:`chosen` are the entries to remove and :attr:`reason` the journal's."""

    def __init__(
        self, finding: Finding, parent: QWidget | None = None, now: datetime | None = None
    ) -> None:
        super().__init__(parent)
        if not finding.entries:
            raise ValueError("nothing to remove")
        self.finding = finding
        self.entries = tuple(finding.entries)
        self.young = [e for e in self.entries if younger_than_honor_period(e, now)]
        self.reason = ""
        self.chosen: list[SnapshotEntry] = []
        count = len(self.entries)
        self.setWindowTitle("Remove campaign entries the global scope covers")
        self.setMinimumWidth(720)

        self.summary = QLabel(
            "<b>Remove "
            + counted(count, "campaign-scoped DNC entry", "campaign-scoped DNC entries")
            + "</b> whose number is on the global DNC list. The global entries stay, so the "
            "numbers stay blocked in every campaign only for as long as the global entry stays.",
            self,
        )
        self.summary.setWordWrap(True)
        self.numbers = QPlainTextEdit(self)
        self.numbers.setReadOnly(True)
        self.numbers.setMaximumHeight(140)
        lines = [entry_line(e, finding.covers.get(e.id)) for e in self.entries[:MAX_LISTED]]
        if count > MAX_LISTED:
            lines.append(f"… and {count - MAX_LISTED:,} more")
        self.numbers.setPlainText("\n".join(lines))

        self.warnings = self._warnings()
        self.warning_label = plain_label(QLabel("\n\n".join(f"⚠ {w}" for w in self.warnings), self))
        self.warning_label.setWordWrap(True)
        self.warning_label.setVisible(bool(self.warnings))

        self.young_check = QCheckBox(
            f"Also remove the {counted(len(self.young), 'entry', 'entries')} younger than "
            "five years",
            self,
        )
        self.young_check.setVisible(bool(self.young))
        self.left_out = QLabel(self)
        self.left_out.setWordWrap(True)
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setPlaceholderText("Required: why these entries are removed (journaled)")
        # As the Delete dialog: many removals are confirmed by typing their count.
        self.confirm_edit = QLineEdit(self)
        self.confirm_label = QLabel(self)
        self.missing = QLabel(self)
        self.missing.setWordWrap(True)
        form = QFormLayout()
        form.addRow("&Reason for removal", self.reason_edit)
        form.addRow(self.confirm_label, self.confirm_edit)

        self.buttons, self.ok_button = confirming_buttons(self)

        layout = QVBoxLayout(self)
        for widget in (self.summary, self.numbers, self.warning_label, self.young_check):
            layout.addWidget(widget)
        layout.addWidget(self.left_out)
        layout.addLayout(form)
        layout.addWidget(self.missing)
        layout.addWidget(self.buttons)
        self.reason_edit.textChanged.connect(self._update)
        self.confirm_edit.textChanged.connect(self._update)
        self.young_check.toggled.connect(self._update)
        self._update()

    def _warnings(self) -> list[str]:
        out: list[str] = []
        if self.young:
            out.append(
                f"{counted(len(self.young), 'entry is', 'entries are')} younger than five "
                "years. US rules (47 CFR 64.1200(d)(6)) require a do-not-call request to be "
                "honored for five years from when it was made; a campaign entry may be the "
                "consumer's own request. "
                + ("It is" if len(self.young) == 1 else "They are")
                + " left out unless you tick them in below."
            )
        covers = self.finding.covers
        passing = [
            e for e in self.entries if e.id in covers and passing_reason(covers[e.id].reason)
        ]
        if passing:
            named = ", ".join(
                f"{format_for_display(e.phone_number, e.phone_code)} ({_reason(covers[e.id])})"
                for e in passing[:5]
            )
            more = f" and {len(passing) - 5:,} more" if len(passing) > 5 else ""
            out.append(
                f"The global entry of {counted(len(passing), 'number', 'numbers')} — {named}"
                f"{more} — has a reason suggesting it may be removed later (a wrong number's "
                "entry goes when the number is reassigned). The campaign entry would then be the "
                "only record of that campaign's request: consider keeping it."
            )
        return out

    def selected_entries(self) -> list[SnapshotEntry]:
        """The entries that would be removed as the dialog stands."""
        if self.young_check.isChecked():
            return list(self.entries)
        young = {e.id for e in self.young}
        return [e for e in self.entries if e.id not in young]

    def _update(self, *_: object) -> None:
        chosen = self.selected_entries()
        left = len(self.entries) - len(chosen)
        self.left_out.setText(
            f"{counted(left, 'entry', 'entries')} younger than five years will be left on the "
            "list (not removed)."
            if left
            else ""
        )
        self.left_out.setVisible(bool(left))
        missing: list[str] = []
        if not chosen:
            missing.append("an entry to remove (every entry is younger than five years)")
        if not self.reason_edit.text().strip():
            missing.append("a reason")
        typing = len(chosen) > TYPE_TO_CONFIRM_OVER
        self.confirm_label.setText(f"Type {len(chosen)} to confirm removing {len(chosen):,}:")
        self.confirm_label.setVisible(typing)
        self.confirm_edit.setVisible(typing)
        if typing and self.confirm_edit.text().strip() != str(len(chosen)):
            missing.append(f"the count ({len(chosen)}) typed to confirm")
        self.missing.setText("Still needed: " + ", ".join(missing) + "." if missing else "")
        self.ok_button.setText(f"Remove {len(chosen):,}")
        self.ok_button.setEnabled(not missing)

    def accept(self) -> None:
        if not self.ok_button.isEnabled():
            return
        self.chosen = self.selected_entries()
        self.reason = self.reason_edit.text().strip()
        super().accept()
