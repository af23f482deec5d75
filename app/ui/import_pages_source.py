"""The import wizard's first page: the file, its sheet and header row, with the first rows shown.

Opening and reading the file runs on the window's :class:`TaskRunner` (the reader starts a child
process for workbooks); the page shows what it found or the reader's one-sentence refusal.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QBrush, QColor, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from app.core.sheet_mapping import column_letter
from app.core.sheet_types import CellValue, SheetError
from app.ui.error_messages import user_message
from app.ui.import_wizard_engine import FileProbe, probe_file
from app.ui.plain_text import plain_label

if TYPE_CHECKING:
    from app.ui.import_wizard import ImportWizard

FILE_FILTER = (
    "Spreadsheets and text tables (*.xlsx *.xlsm *.xlsb *.xls *.ods *.csv *.tsv *.txt);;"
    "All files (*)"
)
PREVIEW_SHOWN = 30
HEADER_COLOR = QColor("#dbe8ff")


def cell_text(value: CellValue) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        # What Excel shows for a whole number; 2.02555E+09 stays as read (damage is flagged later).
        return repr(value) if "e" in repr(value) else str(int(value))
    return str(value)


def fill_preview(model: QStandardItemModel, probe: FileProbe, header_row: int | None) -> None:
    """The first rows as the sheet has them, the header row highlighted.

    When the header is further down than the rows shown (under a long block of notes), the
    table starts a few rows above it instead, so the person can see the row they confirm.
    """
    start = 0
    if header_row is not None:
        at = next((i for i, (number, _) in enumerate(probe.preview) if number == header_row), 0)
        if at >= PREVIEW_SHOWN - 5:
            start = at - 5
    rows = probe.preview[start : start + PREVIEW_SHOWN]
    width = max((len(cells) for _, cells in rows), default=0)
    model.clear()
    model.setHorizontalHeaderLabels([column_letter(i) for i in range(width)])
    for number, cells in rows:
        items = []
        for i in range(width):
            item = QStandardItem(cell_text(cells[i]) if i < len(cells) else "")
            item.setEditable(False)
            if number == header_row:
                item.setBackground(QBrush(HEADER_COLOR))
            items.append(item)
        model.appendRow(items)
        model.setVerticalHeaderItem(model.rowCount() - 1, QStandardItem(str(number)))


class SourcePage(QWizardPage):
    """Choose the file, the sheet and the header row, seeing the first rows of the sheet."""

    def __init__(self, wizard: ImportWizard, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.wiz = wizard
        self.setTitle("Choose the file")
        self.setSubTitle(
            "A spreadsheet (xlsx, xls, ods…) or a CSV/text file of phone numbers. You can also "
            "drop a file onto the main window."
        )
        self.probe: FileProbe | None = None
        self.loading = False
        self._generation = 0
        # The header row of the import before (a second phone column's): set once, on the
        # sheet it was read from.
        self._followed = False
        self.path_edit = QLineEdit(self)
        self.path_edit.setPlaceholderText("Path of the file to import")
        self.browse_button = QPushButton("&Browse…", self)
        self.browse_button.clicked.connect(self.browse)
        self.path_edit.editingFinished.connect(lambda: self.set_path(self.path_edit.text()))
        self.sheet_combo = QComboBox(self)
        self.sheet_combo.setEnabled(False)
        self.sheet_combo.activated.connect(lambda _i: self._sheet_chosen())
        self.header_spin = QSpinBox(self)
        self.header_spin.setRange(0, 1_048_576)
        self.header_spin.setSpecialValueText("none (data from the first row)")
        self.header_spin.setEnabled(False)
        self.header_spin.valueChanged.connect(self._header_changed)
        self.message = plain_label(QLabel(self))
        self.message.setWordWrap(True)
        self.model = QStandardItemModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setDefaultSectionSize(20)

        file_row = QHBoxLayout()
        file_row.addWidget(self.path_edit, 1)
        file_row.addWidget(self.browse_button)
        form = QFormLayout()
        file_label = QLabel("&File", self)
        file_label.setBuddy(self.path_edit)
        form.addRow(file_label, file_row)
        form.addRow("&Sheet", self.sheet_combo)
        form.addRow("&Header row", self.header_spin)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(QLabel("First rows of the sheet (the header row is highlighted):", self))
        layout.addWidget(self.table, 1)

    @property
    def header_row(self) -> int | None:
        value = self.header_spin.value()
        return value or None

    def browse(self) -> None:
        start = self.path_edit.text() or str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, "Choose the file to import", start, FILE_FILTER)
        if path:
            self.set_path(path)

    def set_path(self, path: str | Path, sheet: str | None = None) -> None:
        """Read the first rows of ``path`` (``sheet``, or the sheet an import into the chosen
        list reads)."""
        text = str(path).strip()
        self.path_edit.setText(text)
        if not text:
            return
        if (
            self.probe is not None
            and str(self.probe.path) == text
            and (sheet is None or sheet == self.probe.sheet)
        ):
            return
        self._read(Path(text), sheet, None)

    def propose_for_list(self) -> None:
        """The list was changed: propose the sheet an import into it reads (bb12 F2: the
        command line reads 'SMS Opt-outs' for the SMS opt-out list where the wizard showed
        'Opt Outs'), unless the person chose the sheet (or the import before did)."""
        probe = self.probe
        if probe is not None and not probe.chosen and len(probe.sheet_names) > 1:
            self._read(probe.path, None, probe)

    def _read(self, path: Path, sheet: str | None, before: FileProbe | None) -> None:
        """Read ``path``'s first rows; ``before``: the probe a new list's proposal replaces
        (kept, with what was set on it, when the proposal is the same sheet)."""
        self._generation += 1
        generation = self._generation
        self.probe = None
        self.loading = True
        self.message.setText(f"Reading {path.name}…")
        self.completeChanged.emit()
        self.wiz.target_page.completeChanged.emit()
        target = self.wiz.target_page.target
        self.wiz.runner.submit(
            "read the first rows",
            lambda _ctx: probe_file(path, sheet, prefer_opt_outs=True, target=target),
            on_done=lambda probe: self._probed(generation, probe, before),
            on_error=lambda exc: self._failed(generation, exc),
        )

    def _probed(self, generation: int, probe: FileProbe, before: FileProbe | None = None) -> None:
        if generation != self._generation:
            return
        self.loading = False
        if before is not None and before.sheet == probe.sheet:
            self.probe = before  # the same sheet: its header row and columns stand
            self._read_done()
            return
        self.probe = probe
        self.sheet_combo.blockSignals(True)
        self.sheet_combo.clear()
        # A hidden sheet is listed (it may be the one meant) but marked: numbers nobody
        # looking at the file has seen should not be sent unawares.
        for name in probe.sheet_names or (probe.sheet or "(text file)",):
            shown = f"{name} (hidden)" if name in probe.hidden_sheets else name
            self.sheet_combo.addItem(shown, name)
        if probe.sheet in probe.sheet_names:
            self.sheet_combo.setCurrentIndex(self.sheet_combo.findData(probe.sheet))
        self.sheet_combo.setEnabled(len(probe.sheet_names) > 1)
        self.sheet_combo.blockSignals(False)
        self.header_spin.blockSignals(True)
        last = probe.preview[-1][0] if probe.preview else 1
        self.header_spin.setRange(0, max(last, 1))
        header, carried = self._header_for(probe)
        self.header_spin.setValue(header or 0)
        self.header_spin.setEnabled(True)
        self.header_spin.blockSignals(False)
        if carried:
            found = (
                f"header row {header}, as the import before read it"
                if header
                else "no header row, as the import before read it"
            )
        else:
            found = (
                f"the header looks like row {probe.header_row}"
                if probe.header_row
                else "no header row found (data from the first row)"
            )
        hidden = " (hidden in the file)" if probe.sheet in probe.hidden_sheets else ""
        self.message.setText(
            f"{probe.path.name}: sheet {probe.sheet!r}{hidden}; {found}. Change the header row "
            "if it is wrong."
            if probe.sheet
            else f"{probe.path.name}: {found}. Change the header row if it is wrong."
        )
        fill_preview(self.model, probe, self.header_row)
        self.table.resizeColumnsToContents()
        for column in range(self.model.columnCount()):
            self.table.setColumnWidth(column, min(self.table.columnWidth(column), 260))
        self.wiz.source_changed()
        if before is not None:
            self.wiz.sheet_reproposed(before.sheet, probe.sheet)
        self._read_done()

    def _read_done(self) -> None:
        self.completeChanged.emit()
        self.wiz.target_page.completeChanged.emit()

    def _header_for(self, probe: FileProbe) -> tuple[int | None, bool]:
        """The header row to read ``probe`` with, and whether it is the import before's (as
        it was confirmed there, not detected again: the wizard's first read, of its sheet)."""
        follow = self.wiz.follow
        first, self._followed = not self._followed, True
        if follow is None or not first or (probe.sheet or None) != follow.sheet:
            return probe.header_row, False
        return follow.header_row, True

    def _failed(self, generation: int, exc: BaseException) -> None:
        if generation != self._generation:
            return
        self.loading = False
        text = str(exc) if isinstance(exc, SheetError) else user_message(exc, "Reading").text
        self.message.setText(f"⚠ {text}")
        self.model.clear()
        self._read_done()

    def _sheet_chosen(self) -> None:
        chosen = self.sheet_combo.currentData()
        if self.probe is not None and chosen != self.probe.sheet:
            self.set_path(self.probe.path, chosen)

    def _header_changed(self, _value: int) -> None:
        if self.probe is not None:
            fill_preview(self.model, self.probe, self.header_row)
            self.wiz.source_changed()

    def isComplete(self) -> bool:
        return self.probe is not None and not self.loading
