"""The import wizard's column mapping page (with a live preview of the normalized values) and its
target page (list, scope, name, note).

The preview runs the engine's own :func:`~app.core.sheet_check.check_all` over the rows already
read for the first page: no file or network work here, only a few dozen rows of CPU.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtGui import QBrush, QColor, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from app.api.scope import Scope
from app.core.phones import format_for_display
from app.core.sheet_check import CheckOptions, Outcome, Target, check_all
from app.core.sheet_mapping import ColumnMapping, Role, column_name, column_said
from app.core.staging_notes import NO_COLUMN
from app.ui.import_pages_source import cell_text
from app.ui.import_wizard_engine import mapping_for
from app.ui.plain_text import literal, plain_label

if TYPE_CHECKING:
    from app.ui.import_wizard import ImportWizard

ROLE_LABELS = (
    (Role.PHONE, "Phone &number"),
    (Role.PHONE_CODE, "&Country code"),
    (Role.REASON, "&Reason"),
    (Role.PURPOSE, "&Purpose"),
    (Role.CAMPAIGN, "Ca&mpaign (id or name)"),
    (Role.SCOPE, "&Scope"),
    (Role.REQUEST_DATE, "Request &date"),
)
NOT_IN_FILE = NO_COLUMN  # as the engine's sentences name it
PER_ROW = "per-row"
PREVIEW_HEADERS = ("Row", "Phone cell", "Normalized", "Scope", "Verdict")
BAD = QColor("#fde2e1")


@dataclass(frozen=True)
class TargetChoices:
    """What the person chose on the :class:`TargetPage`, carried to the next import of the
    same file (a second phone column): the same list, scope and note, to confirm or change."""

    target: Target
    scope_kind: str  # the Scope list's data: "global", "campaign", "purpose" or PER_ROW
    campaign: str | None
    purpose: str
    note: str


WARN = QColor("#fff4d6")


def shown_number(national: str, phone_code: str) -> str:
    """``+1 (202) 555-0143`` / ``+44 20 7946 0958``: always with the country code, once."""
    text = format_for_display(national, phone_code)
    return text if text.startswith("+") else f"+{phone_code} {text}"


class MappingPage(QWizardPage):
    """Which column holds what, pre-filled with the engine's proposal, and the first rows as
    they will be sent."""

    def __init__(self, wizard: ImportWizard, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.wiz = wizard
        self.setTitle("Match the columns")
        self.setSubTitle(
            "DNC Desk proposed which column holds what. Change any that are wrong; the preview "
            "below shows the first rows as they will be sent."
        )
        self.mapping: ColumnMapping | None = None
        self._key: tuple[object, ...] | None = None
        self._followed = False  # the column the wizard was opened to import: chosen once
        self.combos: dict[Role, QComboBox] = {}
        grid = QGridLayout()
        for i, (role, label) in enumerate(ROLE_LABELS):
            combo = QComboBox(self)
            combo.setObjectName(f"column-{role.value}")
            combo.currentIndexChanged.connect(lambda _i, r=role: self._column_changed(r))
            title = QLabel(label, self)
            title.setBuddy(combo)
            self.combos[role] = combo
            grid.addWidget(title, i % 4, (i // 4) * 2)
            grid.addWidget(combo, i % 4, (i // 4) * 2 + 1)
        defaults = QGroupBox("For rows (or files) without these columns", self)
        self.code_edit = QLineEdit("1", self)
        self.code_edit.setMaximumWidth(80)
        self.code_edit.setToolTip("Country calling code for numbers written without one (1 = US)")
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setPlaceholderText("e.g. Consumer request")
        self.purpose_edit = QLineEdit(self)
        for edit in (self.code_edit, self.reason_edit, self.purpose_edit):
            edit.textChanged.connect(lambda _t: self.update_preview())
        dform = QHBoxLayout(defaults)
        dform.addWidget(QLabel("Country code", self))
        dform.addWidget(self.code_edit)
        dform.addWidget(QLabel("Reason", self))
        dform.addWidget(self.reason_edit, 1)
        dform.addWidget(QLabel("Purpose", self))
        dform.addWidget(self.purpose_edit, 1)
        self.preview_model = QStandardItemModel(0, len(PREVIEW_HEADERS), self)
        self.preview_model.setHorizontalHeaderLabels(list(PREVIEW_HEADERS))
        self.preview = QTableView(self)
        self.preview.setModel(self.preview_model)
        self.preview.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.preview.verticalHeader().hide()
        self.preview.verticalHeader().setDefaultSectionSize(20)
        self.preview.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.preview_note = QLabel(self)
        self.preview_note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(defaults)
        layout.addWidget(self.preview_note)
        layout.addWidget(self.preview, 1)

    def initializePage(self) -> None:
        probe = self.wiz.source_page.probe
        if probe is None:
            return
        header_row = self.wiz.source_page.header_row
        key = (probe.path, probe.sheet, header_row)
        if key == self._key and self.mapping is not None:
            self.update_preview()
            return
        self._key = key
        self.mapping = mapping_for(probe, header_row, self.code_edit.text().strip() or "1")
        headers = self.mapping.headers
        for role, combo in self.combos.items():
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(NOT_IN_FILE, None)
            for index in range(len(headers)):
                combo.addItem(column_name(headers, index), index)
            chosen = self.mapping.column(role)
            combo.setCurrentIndex(0 if chosen is None else chosen + 1)
            combo.blockSignals(False)
        follow = self.wiz.follow
        if follow is not None and not self._followed and follow.phone_column < len(headers):
            # The import of a column the job before left unread: chosen as it said, once
            # (the person may choose another, or go back to another file).
            self._followed = True
            self.combos[Role.PHONE].setCurrentIndex(follow.phone_column + 1)
            self.setSubTitle(
                "A second import of this file: the phone number is read from "
                f"{column_said(headers, follow.phone_column)}, which the import before left "
                "unread. Check the other columns, then go on; nothing is sent before the check."
            )
        self.update_preview()

    def _column_changed(self, role: Role) -> None:
        if self.mapping is None:
            return
        index = self.combos[role].currentData()
        if index is not None:
            # One column, one meaning: choosing it here takes it from another field.
            for other, combo in self.combos.items():
                if other is not role and combo.currentData() == index:
                    combo.blockSignals(True)
                    combo.setCurrentIndex(0)
                    combo.blockSignals(False)
                    self.mapping.set_column(other, None)
        self.mapping.set_column(role, index)
        self.update_preview()
        self.completeChanged.emit()

    def current_mapping(self) -> ColumnMapping | None:
        """The mapping as chosen, with the defaults typed on this page."""
        if self.mapping is None:
            return None
        m = self.mapping
        m.default_phone_code = self.code_edit.text().strip() or "1"
        m.default_reason = self.reason_edit.text().strip()
        m.default_purpose = self.purpose_edit.text().strip()
        return m

    def update_preview(self) -> None:
        mapping = self.current_mapping()
        probe = self.wiz.source_page.probe
        self.preview_model.removeRows(0, self.preview_model.rowCount())
        if mapping is None or probe is None:
            return
        if mapping.phone is None:
            self.preview_note.setText("⚠ Choose the column that holds the phone numbers.")
            return
        options = CheckOptions(
            target=self.wiz.target_page.target, campaign_lookup=self.wiz.campaign_lookup
        )
        checked, _ = check_all(probe.preview, mapping, options)
        shown = [c for c in checked if c.outcome is not Outcome.BLANK][:25]
        for c in shown:
            if c.outcome is Outcome.VALID:
                normalized = shown_number(c.national, c.phone_code)
                verdict = c.damage or c.date_note or "valid"
                color = WARN if c.damage else None
            elif c.outcome is Outcome.DUPLICATE:
                normalized = shown_number(c.national, c.phone_code)
                verdict = f"duplicate of row {c.duplicate_of}"
                color = WARN
            else:
                normalized = ""
                verdict = c.message.split(": ", 1)[-1]
                color = BAD
            # A row invalid for its scope shows the scope its cells wrote, as the report does.
            scope = c.scope_written if c.scope is None else c.scope.label()
            items = [
                QStandardItem(str(c.row)),
                QStandardItem(cell_text(c.original)),
                QStandardItem(normalized),
                QStandardItem(scope),
                QStandardItem(verdict),
            ]
            items[4].setToolTip(literal(verdict))
            for item in items:
                if color is not None:
                    item.setBackground(QBrush(color))
            self.preview_model.appendRow(items)
        self.preview.resizeColumnsToContents()
        self.preview_note.setText(
            f"The first {len(shown)} data rows as they will be sent (the check on the next "
            "pages covers every row)."
        )

    def isComplete(self) -> bool:
        return self.mapping is not None and self.mapping.phone is not None


class TargetPage(QWizardPage):
    """The list the numbers go into, the scope, and the job's name and note."""

    def __init__(self, wizard: ImportWizard, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.wiz = wizard
        self.setTitle("Where the numbers go")
        self.setSubTitle(
            "Choose the list and the scope. The name and the note are kept with the job, in "
            "its report and in the change journal."
        )
        self.dnc_radio = QRadioButton("&DNC list (do not call)", self)
        self.sms_radio = QRadioButton("S&MS opt-out list", self)
        self.dnc_radio.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.dnc_radio)
        group.addButton(self.sms_radio)
        self.sms_radio.toggled.connect(lambda _on: self._changed())
        # The sheet an import reads depends on the list ('SMS Opt-outs' for the SMS one).
        self.sms_radio.toggled.connect(lambda _on: self.wiz.source_page.propose_for_list())
        self.scope_combo = QComboBox(self)
        self.scope_combo.addItem("Global (every campaign)", "global")
        self.scope_combo.addItem("One campaign", "campaign")
        self.scope_combo.addItem("A purpose", "purpose")
        self.scope_combo.currentIndexChanged.connect(lambda _i: self._changed())
        self.campaign_combo = QComboBox(self)
        self.campaign_combo.setPlaceholderText("Loading campaigns…")
        self.campaign_combo.currentIndexChanged.connect(lambda _i: self._changed())
        self.purpose_edit = QLineEdit(self)
        self.purpose_edit.setPlaceholderText("e.g. Collections")
        self.purpose_edit.textChanged.connect(lambda _t: self._changed())
        self.per_row_note = QLabel(self)
        self.per_row_note.setWordWrap(True)
        self.name_edit = QLineEdit(self)
        self.note_edit = QLineEdit(self)
        self.note_edit.setPlaceholderText(
            "Required: why, on whose request (e.g. vendor file of 3 Nov)"
        )
        self.note_edit.textChanged.connect(lambda _t: self.completeChanged.emit())
        self.concurrency_spin = QSpinBox(self)
        self.concurrency_spin.setRange(1, 32)
        self.concurrency_spin.setValue(8)
        self.concurrency_spin.setToolTip("How many requests are sent at once (1-32)")
        # The choices of the import before (a second phone column's), set once when shown.
        self._carried: TargetChoices | None = None
        self.missing = QLabel(self)
        # Which sheet the list changed the wizard to read, and what to check for it.
        self.sheet_note = plain_label(QLabel(self))
        self.sheet_note.setWordWrap(True)
        self.sheet_note.hide()
        lists = QHBoxLayout()
        lists.addWidget(self.dnc_radio)
        lists.addWidget(self.sms_radio)
        lists.addStretch()
        form = QFormLayout()
        form.addRow("List", lists)
        form.addRow("", self.sheet_note)
        form.addRow("S&cope", self.scope_combo)
        form.addRow("Campai&gn", self.campaign_combo)
        form.addRow("P&urpose", self.purpose_edit)
        form.addRow("", self.per_row_note)
        form.addRow("&Name of the job", self.name_edit)
        form.addRow("N&ote", self.note_edit)
        form.addRow("Requests at &once", self.concurrency_spin)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.missing)
        layout.addStretch()
        self._changed()

    @property
    def target(self) -> Target:
        return Target.SMS_OPT_OUT if self.sms_radio.isChecked() else Target.DNC

    def set_campaigns(self, names: Sequence[tuple[str, str]]) -> None:
        """The campaigns to choose from, as (name, id): two of one name are both listed."""
        current = self.campaign_combo.currentData()
        self.campaign_combo.clear()
        for name, cid in sorted(names, key=lambda kv: (kv[0].casefold(), kv[1])):
            self.campaign_combo.addItem(f"{name} (id {cid})", cid)
        if current is not None:
            index = self.campaign_combo.findData(current)
            if index >= 0:
                self.campaign_combo.setCurrentIndex(index)
        self.campaign_combo.setPlaceholderText("No campaigns" if not names else "Choose")
        if current is None and self._carried is not None and self._carried.campaign:
            # Carried before the campaigns arrived: chosen now they are listed.
            self.campaign_combo.setCurrentIndex(
                self.campaign_combo.findData(self._carried.campaign)
            )

    def choices(self) -> TargetChoices:
        return TargetChoices(
            self.target,
            str(self.scope_combo.currentData()),
            self.campaign_combo.currentData(),
            self.purpose_edit.text(),
            self.note_edit.text(),
        )

    def _carry(self, carried: TargetChoices) -> None:
        self._carried = carried
        (self.sms_radio if carried.target is Target.SMS_OPT_OUT else self.dnc_radio).setChecked(
            True
        )
        # A per-row scope is listed only when this file's mapping has a scope column again.
        if (index := self.scope_combo.findData(carried.scope_kind)) >= 0:
            self.scope_combo.setCurrentIndex(index)
        if carried.campaign and (index := self.campaign_combo.findData(carried.campaign)) >= 0:
            self.campaign_combo.setCurrentIndex(index)
        self.purpose_edit.setText(carried.purpose)
        self.note_edit.setText(carried.note)

    def initializePage(self) -> None:
        probe = self.wiz.source_page.probe
        if probe is not None and not self.name_edit.text():
            self.name_edit.setText(f"Import of {probe.path.name}")
        mapping = self.wiz.mapping_page.mapping
        per_row = mapping is not None and (
            mapping.scope is not None or mapping.campaign is not None
        )
        index = self.scope_combo.findData(PER_ROW)
        if per_row and index < 0:
            self.scope_combo.insertItem(
                0, "Per row, from the file's scope or campaign column", PER_ROW
            )
            self.scope_combo.setCurrentIndex(0)
        elif not per_row and index >= 0:
            self.scope_combo.removeItem(index)
        self.per_row_note.setText(
            "Each row uses the scope or campaign in its cell (a campaign by id or by name); rows "
            "where that cell is blank go to the global scope."
            if per_row
            else ""
        )
        self.per_row_note.setVisible(per_row)
        follow = self.wiz.follow
        if follow is not None and follow.choices is not None and self._carried is None:
            self._carry(follow.choices)

    def _changed(self) -> None:
        kind = self.scope_combo.currentData()
        self.campaign_combo.setEnabled(kind == "campaign")
        self.purpose_edit.setEnabled(kind == "purpose")
        self.completeChanged.emit()

    @property
    def per_row(self) -> bool:
        return bool(self.scope_combo.currentData() == PER_ROW)

    def scope(self) -> Scope | None:
        kind = self.scope_combo.currentData()
        if kind == "campaign":
            cid = self.campaign_combo.currentData()
            return Scope.campaign(cid) if cid else None
        if kind == "purpose":
            text = self.purpose_edit.text().strip()
            return Scope.purpose(text) if text else None
        # Global is also the default of a per-row scope, for rows with a blank scope cell.
        return Scope.global_()

    def say_sheet(self, text: str) -> None:
        self.sheet_note.setText(text)
        self.sheet_note.setVisible(bool(text))

    def isComplete(self) -> bool:
        source = self.wiz.source_page
        if source.loading or source.probe is None:
            # The list changed the sheet to read: nothing is checked before it is read.
            self.missing.setText(
                "Reading the sheet for this list…"
                if source.loading
                else "The file could not be read: go Back to the 'Choose the file' page."
            )
            return False
        missing = []
        if self.scope() is None:
            missing.append(
                "the campaign" if self.scope_combo.currentData() == "campaign" else "the purpose"
            )
        if not self.note_edit.text().strip():
            missing.append("a note")
        self.missing.setText("Still needed: " + ", ".join(missing) + "." if missing else "")
        return not missing
