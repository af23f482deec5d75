"""The filter bar above a DNC or SMS opt-out table: every filter the search endpoints take.

The phone number may be typed in any common format; it is normalized with the phone module
before it is sent, and a number that cannot be read shows why beside the field instead of
searching (the service would only answer "invalid phone format").

A number refused only because it is in no number range in use today, its length right for its
country (UK 7911600927 under 44), is searched as written under its code, as ``dnc-desk export
--phone-number`` searches it (:func:`app.core.evidence.searched_as_written`): the list may hold
it (an entry made before the range was withdrawn, or by another tool), and refusing it left the
entry out of reach (black-box B5 #2, the window's side). A note beside the field says it is not
a valid number today and how it was searched, and :meth:`FilterBar.describe` (status messages,
an export's About sheet) says it beside the number, as the CLI's filters do. Other invalid input
(letters, too short) is still explained and not searched.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QDate, Qt, Signal
from PySide6.QtGui import QIntValidator, QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from app.api.client import DncQuery
from app.api.models import Campaign, ReasonFilter
from app.api.scope import Scope
from app.core.evidence import search_number
from app.core.phones import SUPPORTED_PHONE_CODES, region_name
from app.ui.plain_text import literal, plain_label

SCOPE_ANY, SCOPE_GLOBAL, SCOPE_PURPOSE = "any", "global", "purpose"
# Readable on light and dark palettes alike.
ERROR_STYLE = "color: #d84315;"
_REASONS = (
    ("Any reason", ReasonFilter.ANY),
    ("Blank reason", ReasonFilter.BLANK),
    ("Reason given", ReasonFilter.NOT_BLANK),
)


def code_choices() -> list[tuple[str, str]]:
    """(label, code) for the country-code pickers, the spec's reference codes first."""
    return [(f"+{code} {region_name(code)}", code) for code in SUPPORTED_PHONE_CODES]


class FilterBar(QWidget):
    """Filters of one list search.

    Signals:
        search_requested(): the user pressed Enter or the Search button (with valid filters).
        search_refused(): the same with a filter refused as typed (its reason is shown).
    """

    search_requested = Signal()
    search_refused = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._campaigns: list[Campaign] = []
        # A campaign scope restored from settings before the campaigns have loaded.
        self._pending_scope: str | None = None

        self.phone_edit = QLineEdit(self)
        self.phone_edit.setPlaceholderText("Any number, e.g. (202) 555-0143")
        self.phone_edit.setClearButtonEnabled(True)
        self.phone_error = plain_label(QLabel(self))
        self.phone_error.setObjectName("fieldError")
        self.phone_error.setStyleSheet(ERROR_STYLE)
        self.phone_error.setWordWrap(True)
        self.phone_error.hide()
        # Not an error: the number is searched, and this says how.
        self.phone_note = plain_label(QLabel(self))
        self.phone_note.setObjectName("fieldNote")
        self.phone_note.setWordWrap(True)
        self.phone_note.hide()

        self.code_combo = QComboBox(self)
        self.code_combo.addItem("Any country", "")
        for label, code in code_choices():
            self.code_combo.addItem(label, code)

        self.scope_combo = QComboBox(self)
        self.scope_combo.setMinimumContentsLength(18)
        self._fill_scopes()

        self.purpose_edit = QLineEdit(self)
        self.purpose_edit.setPlaceholderText("Any purpose")
        self.purpose_edit.setClearButtonEnabled(True)

        self.reason_combo = QComboBox(self)
        for label, value in _REASONS:
            self.reason_combo.addItem(label, value)

        self.date_check = QCheckBox("Inserted on", self)
        self.date_edit = QDateEdit(self)
        self.date_edit.setCalendarPopup(True)
        self.date_edit.setDisplayFormat("yyyy-MM-dd")
        self.date_edit.setDate(QDate.currentDate())
        self.date_edit.setEnabled(False)
        self.date_check.toggled.connect(self.date_edit.setEnabled)
        # A day filter the service cannot take (the list view asks it): why, and what to do.
        self.date_error = plain_label(QLabel(self))
        self.date_error.setObjectName("dateError")
        self.date_error.setStyleSheet(ERROR_STYLE)
        self.date_error.setWordWrap(True)
        self.date_error.hide()

        self.id_edit = QLineEdit(self)
        self.id_edit.setPlaceholderText("Any id")
        self.id_edit.setValidator(QIntValidator(1, 2_000_000_000, self))
        self.id_edit.setMaximumWidth(110)

        self.search_button = QPushButton("Search", self)
        self.search_button.setToolTip("Search with these filters (Enter)")
        self.search_button.clicked.connect(self.request_search)
        self.clear_button = QPushButton("Clear", self)
        self.clear_button.setToolTip("Reset every filter")
        self.clear_button.clicked.connect(self.clear)

        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        row1 = [
            ("&Phone", self.phone_edit),
            ("Co&de", self.code_combo),
            ("&Scope", self.scope_combo),
            ("P&urpose", self.purpose_edit),
        ]
        row2 = [
            ("&Reason", self.reason_combo),
            ("", self.date_check),
            ("", self.date_edit),
            ("&Id", self.id_edit),
        ]
        for r, items in enumerate((row1, row2)):
            col = 0
            for text, widget in items:
                if text:
                    buddy = QLabel(text, self)
                    buddy.setBuddy(widget)
                    grid.addWidget(buddy, r, col)
                    col += 1
                grid.addWidget(widget, r, col)
                col += 1
        buttons = QHBoxLayout()
        buttons.addWidget(self.search_button)
        buttons.addWidget(self.clear_button)
        grid.addLayout(buttons, 1, 7, 1, 2)
        grid.addWidget(self.phone_error, 2, 0, 1, 9)
        grid.addWidget(self.phone_note, 3, 0, 1, 9)
        grid.addWidget(self.date_error, 4, 0, 1, 9)
        grid.setColumnStretch(1, 2)
        grid.setColumnStretch(7, 2)

        self.phone_edit.textChanged.connect(self._clear_phone_error)
        self.code_combo.currentIndexChanged.connect(self._clear_phone_error)
        self.scope_combo.currentIndexChanged.connect(self._scope_changed)
        self.date_check.toggled.connect(self.clear_date_error)
        self.date_edit.dateChanged.connect(self.clear_date_error)

    # ------------------------------------------------------------------ campaigns
    def set_campaigns(self, campaigns: Iterable[Campaign]) -> None:
        """Offer these campaigns in the scope picker, by name; inactive ones say so."""
        current = self.scope_combo.currentData()
        self._campaigns = sorted(campaigns, key=lambda c: (not c.active, c.name.casefold()))
        self._fill_scopes()
        if self._pending_scope is not None and self._select_scope(self._pending_scope):
            self._pending_scope = None
        else:
            self._select_scope(current)

    def _fill_scopes(self) -> None:
        self.scope_combo.blockSignals(True)
        self.scope_combo.clear()
        self.scope_combo.addItem("Any scope", SCOPE_ANY)
        self.scope_combo.addItem("Global", SCOPE_GLOBAL)
        self.scope_combo.addItem("Purpose (type it in Purpose)", SCOPE_PURPOSE)
        for campaign in self._campaigns:
            self.scope_combo.addItem(f"Campaign: {campaign.display_name}", campaign.id)
            self.scope_combo.setItemData(
                self.scope_combo.count() - 1,
                literal(f"Campaign {campaign.id}" + ("" if campaign.active else " (inactive)")),
                Qt.ItemDataRole.ToolTipRole,
            )
        self.scope_combo.blockSignals(False)

    def _select_scope(self, value: Any) -> bool:
        index = self.scope_combo.findData(value)
        if index < 0:
            return False
        self.scope_combo.setCurrentIndex(index)
        return True

    def _scope_changed(self) -> None:
        purpose = self.scope_combo.currentData() == SCOPE_PURPOSE
        self.purpose_edit.setPlaceholderText(
            "Purpose text (blank: every purpose)" if purpose else "Any purpose"
        )

    # ------------------------------------------------------------------ query
    def request_search(self) -> None:
        if self.query() is not None:
            self.search_requested.emit()
        else:
            self.search_refused.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Line edits and combo boxes pass Enter up to their parent: one place handles it.
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.request_search()
            event.accept()
            return
        super().keyPressEvent(event)

    def _clear_phone_error(self) -> None:
        # The note too: it speaks of the number and code as they were when searched.
        self.phone_error.hide()
        self.phone_error.clear()
        self.phone_note.hide()
        self.phone_note.clear()

    def _show_phone_error(self, text: str) -> None:
        self.phone_error.setText(text)
        self.phone_error.show()

    def show_date_error(self, text: str) -> None:
        """Say why the insert-date filter was not searched (the list view's refusal)."""
        self.date_error.setText(text)
        self.date_error.show()

    def clear_date_error(self, *_: object) -> None:
        self.date_error.hide()
        self.date_error.clear()

    @property
    def date_problem(self) -> str:
        return self.date_error.text() if not self.date_error.isHidden() else ""

    @property
    def phone_problem(self) -> str:
        return self.phone_error.text() if not self.phone_error.isHidden() else ""

    @property
    def phone_as_written(self) -> str:
        """The note on a number in no range in use today, searched as written ("" if none)."""
        return self.phone_note.text() if not self.phone_note.isHidden() else ""

    def query(self) -> DncQuery | None:
        """The search these filters describe, or None (with the reason shown) if invalid."""
        phone_number = ""
        code = str(self.code_combo.currentData() or "")
        text = self.phone_edit.text().strip()
        note = ""
        if text:
            phone = search_number(text, code)
            if phone.refused:
                self._clear_phone_error()
                self._show_phone_error(f"Phone number: {phone.refused}. Not searched.")
                return None
            phone_number, code, note = phone.national, phone.phone_code, phone.as_written
        self._clear_phone_error()
        if note:
            self.phone_note.setText(f"Phone number: {note}.")
            self.phone_note.show()
        scope_value = self.scope_combo.currentData()
        purpose = self.purpose_edit.text().strip()
        scope: Scope | None = None
        if scope_value == SCOPE_GLOBAL:
            scope = Scope.global_()
        elif scope_value == SCOPE_PURPOSE:
            scope = Scope.purpose(purpose)
        elif scope_value not in (SCOPE_ANY, None):
            scope = Scope.campaign(str(scope_value))
        # A bare day on both lists, as the CLI's --insert-date sends it: the DNC search's spec
        # writes a moment, and "YYYY-MM-DD 00:00:00" is only midnight on a service that
        # matches one, while a bare day is what the list view asks the service it takes
        # (export_job.ask_day_search) and is refused on one that does not.
        date = self.date_edit.date().toString("yyyy-MM-dd") if self.date_check.isChecked() else ""
        reason = self.reason_combo.currentData()
        return DncQuery(
            id=self.id_edit.text().strip(),
            scope=scope,
            phone_number=phone_number,
            phone_code=code,
            insert_date=date,
            reason=reason if isinstance(reason, ReasonFilter) else ReasonFilter.ANY,
            purpose=purpose,
        )

    def describe(self) -> str:
        """The active filters in words, for status messages ("" when none)."""
        parts: list[str] = []
        number = self.phone_edit.text().strip()
        if number:
            phone = search_number(number, str(self.code_combo.currentData() or ""))
            if phone.as_written:
                # As the CLI's export filters say it (B5 #2): the search is of it as written.
                number += (
                    f" (not a valid number today: searched as written, {phone.national} under "
                    f"phone code {phone.phone_code})"
                )
            parts.append(f"number {number}")
        if self.code_combo.currentIndex() > 0:
            parts.append(f"code +{self.code_combo.currentData()}")
        if self.scope_combo.currentIndex() > 0:
            parts.append(f"scope {self.scope_combo.currentText()}")
        if self.purpose_edit.text().strip():
            parts.append(f"purpose “{self.purpose_edit.text().strip()}”")
        if self.reason_combo.currentIndex() > 0:
            parts.append(self.reason_combo.currentText().lower())
        if self.date_check.isChecked():
            parts.append(f"inserted {self.date_edit.date().toString('yyyy-MM-dd')}")
        if self.id_edit.text().strip():
            parts.append(f"id {self.id_edit.text().strip()}")
        return ", ".join(parts)

    def scope_said(self) -> str:
        """The chosen campaign scope as an export's About sheet names it, with the campaign's
        name beside its id ("campaign:Spring Renewals (id 1001)", as the CLI's export says
        it); "" for any other scope, which its id-free text says well enough."""
        value = self.scope_combo.currentData()
        if value in (SCOPE_ANY, SCOPE_GLOBAL, SCOPE_PURPOSE, None):
            return ""
        campaign = next((c for c in self._campaigns if c.id == str(value)), None)
        return f"campaign:{campaign.name} (id {campaign.id})" if campaign is not None else ""

    # ------------------------------------------------------------------ state
    def clear(self) -> None:
        self.phone_edit.clear()
        self.code_combo.setCurrentIndex(0)
        self.scope_combo.setCurrentIndex(0)
        self.purpose_edit.clear()
        self.reason_combo.setCurrentIndex(0)
        self.date_check.setChecked(False)
        self.id_edit.clear()
        self._clear_phone_error()
        self.clear_date_error()

    def state(self) -> dict[str, str]:
        """The filters as plain strings, for QSettings."""
        reason = self.reason_combo.currentData()
        return {
            "phone": self.phone_edit.text(),
            "code": str(self.code_combo.currentData() or ""),
            "scope": str(self.scope_combo.currentData() or SCOPE_ANY),
            "purpose": self.purpose_edit.text(),
            "reason": reason.name if isinstance(reason, ReasonFilter) else "ANY",
            "date": self.date_edit.date().toString("yyyy-MM-dd")
            if self.date_check.isChecked()
            else "",
            "id": self.id_edit.text(),
        }

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore :meth:`state`; a campaign not (yet) known waits for :meth:`set_campaigns`."""
        self.phone_edit.setText(str(state.get("phone", "")))
        index = self.code_combo.findData(str(state.get("code", "")))
        self.code_combo.setCurrentIndex(max(0, index))
        scope = str(state.get("scope", SCOPE_ANY))
        self._pending_scope = None if self._select_scope(scope) else scope
        self.purpose_edit.setText(str(state.get("purpose", "")))
        reason = ReasonFilter.__members__.get(str(state.get("reason", "ANY")), ReasonFilter.ANY)
        self.reason_combo.setCurrentIndex(max(0, self.reason_combo.findData(reason)))
        date = QDate.fromString(str(state.get("date", "")), "yyyy-MM-dd")
        self.date_check.setChecked(date.isValid())
        if date.isValid():
            self.date_edit.setDate(date)
        self.id_edit.setText(str(state.get("id", "")))
