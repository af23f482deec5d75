"""The import wizard's check page: counts per outcome for every row, the rows to look at, and
a phone cell fixable in place before the file is checked again.

The check reads the whole file on the window's :class:`TaskRunner`. A fix is not written into
the file (the file is the evidence of what was received): it is applied while reading, and
the job's report keeps both the file's value and the correction.

A column read for countries whose codes are US states' too ("IN", "DE") beside numbers valid
both ways is said here, before the import starts, as the job's report will say it; the box
shown with it is the person's explicit word that the column holds countries, the only one the
wizard takes (leaving the proposed Country code column as it was says nothing of "IN").

After the check the job is staged for real (nothing is sent), as the command line stages it
before its first row: the page lists the staged rows (a second table's rows set apart, a Notes
cell naming another number, …) and staging's warnings, and Start sends that very job when
nothing changed since (:func:`~app.ui.import_wizard_engine.check_and_stage`).

A fix belongs to the cell it was typed for: checked under another file, sheet, header row or
phone column, the fixes are dropped and the page says so. Start sends nothing when the file
changed on disk since the check (or is gone): it is checked again, saying why. The campaign
list arriving after a check has it checked again with the list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from app.core.sheet_check import CheckOptions
from app.core.sheet_mapping import column_said
from app.core.sheet_scope import campaign_ids_checked
from app.core.sheet_types import SheetError
from app.core.unread_phones import imported_before_sentence, same_numbers_sentence
from app.core.wording import counted
from app.ui.error_messages import user_message
from app.ui.import_wizard_engine import (
    CheckResult,
    FixScope,
    StagedCheck,
    UnreadColumn,
    check_and_stage,
    discard_staged,
    same_staging,
    source_changed,
    source_unchanged,
)
from app.ui.plain_text import literal, plain_label
from app.ui.tasks import Task, TaskContext
from app.ui.window_words import for_window

if TYPE_CHECKING:
    from app.ui.import_wizard import ImportWizard

# Under the data folder, beside the jobs folder: a check's staged job is listed as no job.
CHECKS_FOLDER = "checks"
PROBLEM_HEADERS = ("Row", "Value in the file (double-click to fix)", "Problem")
COL_ROW, COL_VALUE, COL_PROBLEM = range(3)
ROW_ROLE = Qt.ItemDataRole.UserRole + 1
COUNT_LABELS = (
    ("rows", "Data rows"),
    ("valid", "Valid, will be sent"),
    ("invalid", "Invalid (not sent)"),
    ("duplicates_in_file", "Duplicates in the file (not sent)"),
    ("blank", "Blank rows"),
    ("damaged", "Damaged by a spreadsheet"),
    ("late_requests", "Requests later than 10 business days"),
)
LATE_TIP = (
    "Rows whose request date is more than 10 business days before today: 47 CFR "
    "64.1200(d)(3) requires a do-not-call request to be honored within 10 business days."
)
# The subtitle says what is done: "was checked" only once the check has ended.
CHECKING_SUBTITLE = (
    "Every row is being normalized and checked; nothing has been sent yet. Invalid rows and "
    "duplicates are not sent."
)
CHECKED_SUBTITLE = (
    "Every row was normalized and checked; nothing has been sent yet. Invalid rows and "
    "duplicates are not sent. Fix a number by double-clicking it, then check again."
)
NOT_CHECKED_SUBTITLE = "The file could not be checked; nothing has been sent."
CAMPAIGNS_LOADED = (
    "The campaign list loaded after the check began: the file was checked again with it "
    "(campaign ids and names are checked now)."
)
# A consumer's second number left off the list is no ordinary warning: said apart, framed.
SECOND_PHONE_STYLE = (
    "QLabel#second-phone { background: #fde2e1; border: 1px solid #c0392b; padding: 6px; "
    "font-weight: bold; }"
)
BAD = QColor("#fde2e1")
WARN = QColor("#fff4d6")


def hidden_rows_sentence(hidden: int) -> str:
    """The check page's word on the rows the file hides (by hand or by a filter)."""
    if hidden == 1:
        return "1 row is hidden or filtered out in the file; it is imported too."
    return f"{hidden:,} rows are hidden or filtered out in the file; they are imported too."


def unread_sentence(column: UnreadColumn, read: str) -> str:
    """The check page's line on a column of phone numbers this import does not read (``read``
    names the column it reads). "Import column … next" is offered only for numbers that
    differ (the result page's button): with none, nothing stays off the list (bb14 W2)."""
    rows = counted(column.rows, "row", "rows")
    if not column.differing:
        return same_numbers_sentence(column.said, column.rows, read, "import")
    return (
        f"⚠ NOT IMPORTED: {column.said} holds a phone number on {rows}, "
        f"{column.differing:,} of them not the number read from {read}. Those numbers stay "
        "off the list unless that column is imported too: once this import has ended, press "
        f'"Import column {column.letter} next" (a new import of this file, checked before '
        "anything is sent)."
    )


class CheckPage(QWizardPage):
    """Check every row, list the invalid, damaged and duplicate ones, fix cells, check again."""

    def __init__(self, wizard: ImportWizard, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.wiz = wizard
        self.setTitle("Check the rows")
        self.setSubTitle(CHECKING_SUBTITLE)
        self.setCommitPage(True)
        self.setButtonText(QWizard.WizardButton.CommitButton, "&Start import")
        self.result: CheckResult | None = None
        self.fixes: dict[int, str] = {}
        # The file, sheet, header row and phone column the fixes were typed under: a fix is
        # one cell's, dropped (and said so) when the check is made under another choice.
        self._fixes_scope: FixScope | None = None
        self._notices: list[str] = []
        self._change = ""
        self.checking = False
        # Start's look at the file (on the runner): the check found unchanged, and whether
        # one is under way.
        self._verified: StagedCheck | None = None
        self._verifying = False
        self.task: Task | None = None
        self._generation = 0
        self._filling = False
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 0)
        self.status = plain_label(QLabel(self))
        self.status.setWordWrap(True)
        # Why this check was made again without being asked (the file changed before Start,
        # the campaign list arrived) and fixes dropped: said until the next check.
        self.notice = plain_label(QLabel(self))  # names the file
        self.notice.setWordWrap(True)
        self.notice.setObjectName("check-notice")
        self.notice.hide()
        # A column of codes that are US states' and countries' both ("IN", "DE") beside
        # numbers read both ways: the report's warning, said here before the import starts,
        # and the box that is the person's explicit word that the column holds countries.
        self.doubt_label = plain_label(QLabel(self))  # quotes the file's cells
        self.doubt_label.setWordWrap(True)
        self.doubt_label.hide()
        self.countries_box = QCheckBox(self)
        self.countries_box.hide()
        # Columns of phone numbers not read (a Mobile beside the Home Phone read): said apart
        # from the ordinary warnings, since each such number needs an import of its own.
        self.second_phone = plain_label(QLabel(self))  # quotes the file's headers
        self.second_phone.setObjectName("second-phone")
        self.second_phone.setWordWrap(True)
        self.second_phone.setStyleSheet(SECOND_PHONE_STYLE)
        self.second_phone.hide()
        # Staging's warnings, as the job's report and the command line give them: plain text
        # (they quote the file's cells), scrolled when there are many.
        self.warnings_box = QPlainTextEdit(self)
        self.warnings_box.setReadOnly(True)
        self.warnings_box.setMaximumHeight(130)
        self.warnings_box.hide()
        self.count_labels: dict[str, QLabel] = {}
        grid = QGridLayout()
        for i, (key, label) in enumerate(COUNT_LABELS):
            value = QLabel("…", self)
            value.setObjectName(f"count-{key}")
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.count_labels[key] = value
            grid.addWidget(QLabel(label, self), i // 2, (i % 2) * 2)
            grid.addWidget(value, i // 2, (i % 2) * 2 + 1)
        grid.setColumnMinimumWidth(1, 70)
        grid.setColumnMinimumWidth(2, 300)
        grid.setColumnMinimumWidth(3, 70)
        grid.setColumnStretch(4, 1)
        self.count_labels["late_requests"].setToolTip(LATE_TIP)
        self.model = QStandardItemModel(0, len(PROBLEM_HEADERS), self)
        self.model.setHorizontalHeaderLabels(list(PROBLEM_HEADERS))
        self.model.itemChanged.connect(self._edited)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.table.horizontalHeader().setSectionResizeMode(
            COL_PROBLEM, QHeaderView.ResizeMode.Stretch
        )
        self.table.setColumnWidth(COL_VALUE, 240)
        self.fix_note = QLabel(self)
        self.fix_note.setWordWrap(True)
        self.recheck_button = QPushButton("Check &again with the fixes", self)
        self.recheck_button.setEnabled(False)
        self.recheck_button.clicked.connect(lambda: self.run_check())
        fix_row = QHBoxLayout()
        fix_row.addWidget(self.fix_note, 1)
        fix_row.addWidget(self.recheck_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.bar)
        layout.addWidget(self.notice)
        layout.addWidget(self.status)
        layout.addWidget(self.doubt_label)
        layout.addWidget(self.countries_box)
        layout.addWidget(self.second_phone)
        layout.addWidget(self.warnings_box)
        layout.addLayout(grid)
        layout.addWidget(QLabel("Rows to look at:", self))
        layout.addWidget(self.table, 1)
        layout.addLayout(fix_row)

    def initializePage(self) -> None:
        self.run_check()

    def cleanupPage(self) -> None:
        # Going back invalidates the check (mapping or target may change).
        self._generation += 1
        self.checking = False
        self.discard()
        self.result = None
        # The columns may change: what the box said of one is no word on another.
        self.countries_box.setChecked(False)

    def run_check(
        self, notices: list[str] | None = None, changed: StagedCheck | None = None
    ) -> None:
        """Check (and stage) the file anew. ``notices`` say why it is checked again unasked;
        ``changed`` is the check whose file changed on disk before Start: what changed is said
        (found on the runner), and the fixes typed for its rows are dropped (rows may have
        moved)."""
        probe = self.wiz.source_page.probe
        mapping = self.wiz.effective_mapping()
        if probe is None or mapping is None:
            return
        notices = list(notices or [])
        scope = FixScope.of(probe, mapping)
        if self.fixes and self._fixes_scope is not None and scope != self._fixes_scope:
            notices.append(f"⚠ {self._fixes_scope.dropped(len(self.fixes), scope)}")
            self.fixes.clear()
        elif self.fixes and changed is not None:
            n = len(self.fixes)
            notices.append(
                f"⚠ {n} fix{'es' if n != 1 else ''} typed for the rows as they were "
                f"{'were' if n != 1 else 'was'} dropped: the file changed, its rows may have "
                "moved. Fix the rows listed now, if any."
            )
            self.fixes.clear()
        self._fixes_scope = scope
        self._notices = notices
        self._change = ""
        self._show_notices()
        lookup = self.wiz.campaign_lookup
        options = CheckOptions(target=self.wiz.target_page.target, campaign_lookup=lookup)
        fixes = dict(self.fixes)
        # Before the result is dropped: the box ticked for it is still the person's word.
        settings = self.wiz.settings()
        paths = self.wiz.paths
        connection = self.wiz.session.connection
        self._generation += 1
        generation = self._generation
        self.checking = True
        self.discard()
        self.result = None
        self.recheck_button.setEnabled(False)
        self.doubt_label.hide()
        self.countries_box.hide()
        self.second_phone.hide()
        self.warnings_box.hide()
        self.bar.setRange(0, 0)
        self.bar.show()
        self.setSubTitle(CHECKING_SUBTITLE)
        self.status.setText(f"Checking every row of {probe.path.name}…")
        for label in self.count_labels.values():
            label.setText("…")
        self.completeChanged.emit()
        if self.task is not None:
            self.task.cancel()  # a check of older settings: its answer would be dropped anyway
        if changed is not None:
            # Said at once; what changed (its size, when) is found on the runner, as a SHA-256
            # may have to be read.
            self._show_change(generation, probe.path.name, "changed")

        def work(ctx: TaskContext) -> CheckResult:
            if changed is not None:
                ctx.report(("changed", source_changed(changed) or "changed"))
            return check_and_stage(
                probe,
                mapping,
                options,
                fixes,
                settings,
                paths.data_dir / CHECKS_FOLDER,
                paths.reports_dir,
                connection=connection,
                campaign_lookup=lookup,
                cancel=ctx.cancel_event,
                progress=ctx.report,
            )

        self.task = self.wiz.runner.submit(
            "check the file",
            work,
            on_done=lambda result: self._checked(generation, result),
            on_error=lambda exc: self._failed(generation, exc),
            on_progress=lambda n: self._progress(generation, n),
        )

    def _show_change(self, generation: int, name: str, change: str) -> None:
        if generation == self._generation:
            self._change = (
                f"⚠ {name} {change} since it was checked: nothing was sent. It was checked "
                "again: look at the rows, then start."
            )
            self._show_notices()

    def _show_notices(self) -> None:
        lines = [self._change, *self._notices] if self._change else self._notices
        self.notice.setText("\n".join(lines))
        self.notice.setVisible(bool(lines))

    def _progress(self, generation: int, rows: object) -> None:
        if isinstance(rows, tuple) and len(rows) == 2 and rows[0] == "changed":
            probe = self.wiz.source_page.probe
            if probe is not None:
                self._show_change(generation, probe.path.name, str(rows[1]))
        elif generation == self._generation and isinstance(rows, int):
            self.status.setText(f"Checking… {rows:,} rows so far")
        elif generation == self._generation and rows == "staging":
            self.status.setText("Staging the rows as the import will send them (nothing is sent)…")

    def discard(self) -> None:
        """Delete the job the last check staged, unless Start took it (on the runner: no I/O
        on the GUI thread)."""
        if self.result is not None and (staged := self.result.staged) is not None:
            self.result.staged = None
            self._discard(staged)

    def _discard(self, staged: StagedCheck) -> None:
        self.wiz.runner.submit("discard a checked job", lambda _ctx: discard_staged(staged))

    def take_staged(self) -> StagedCheck | None:
        """The job the check staged, for Start to send as checked, when the wizard would stage
        the same now; None (and that job discarded) when something changed since."""
        if self.result is None or (staged := self.result.staged) is None:
            return None
        self.result.staged = None
        lookup = self.wiz.campaign_lookup
        if same_staging(staged, self.wiz.settings(), self.fixes, lookup):
            return staged
        self._discard(staged)
        return None

    def _checked(self, generation: int, result: CheckResult) -> None:
        if generation != self._generation:
            if result.staged is not None:
                self._discard(result.staged)  # a check of older settings
            return
        self.checking = False
        self.result = result
        self.bar.hide()
        self.setSubTitle(CHECKED_SUBTITLE)
        counts = result.summary.as_dict()
        for key, label in self.count_labels.items():
            label.setText(f"{counts.get(key, 0):,}")
        s = result.summary
        if s.valid == 0:
            self.status.setText("⚠ No row holds a valid number: nothing would be sent. Go back "
                                "and check the phone column and the country code.")  # fmt: skip
        else:
            self.status.setText(
                f"{s.valid:,} of {counted(s.rows, 'row', 'rows')} will be sent."
                + (f" {len(self.fixes)} fixed by hand." if self.fixes else "")
                + (
                    " ⚠ Campaign ids were not checked: the campaign list is not loaded."
                    if self.wiz.target_page.per_row
                    and not campaign_ids_checked(self.wiz.campaign_lookup)
                    else ""
                )
                + (f" ⚠ {hidden_rows_sentence(result.hidden_rows)}" if result.hidden_rows else "")
                + (f" ⚠ {for_window(result.stray_quotes)}" if result.stray_quotes else "")
            )
        self.doubt_label.setText(
            f"⚠ {for_window(result.state_doubt)}" if result.state_doubt else ""
        )
        self.doubt_label.setVisible(bool(result.state_doubt))
        self.countries_box.setText(result.countries_box)
        self.countries_box.setVisible(bool(result.state_doubt))
        self.second_phone.setText(self._second_phone_text(result))
        self.second_phone.setVisible(bool(result.unread_phones))
        # Core words them for the command line: the window names its own boxes instead.
        self.warnings_box.setPlainText("\n".join(f"⚠ {for_window(w)}" for w in result.warnings))
        self.warnings_box.setVisible(bool(result.warnings))
        self._fill(result)
        self.completeChanged.emit()

    @property
    def unread_shown(self) -> list[UnreadColumn]:
        """The columns of phone numbers the checked job leaves unread, less those a job
        before this one imported (:class:`~app.ui.import_wizard.NextImport`)."""
        if self.result is None:
            return []
        done = self.wiz.follow.imported if self.wiz.follow is not None else ()
        return [c for c in self.result.unread_phones if c.index not in done]

    def _second_phone_text(self, result: CheckResult) -> str:
        """What the page says of the columns of phone numbers not read, one line each."""
        mapping = self.wiz.effective_mapping()
        if mapping is None or mapping.phone is None:
            return ""
        read = column_said(mapping.headers, mapping.phone)
        done = self.wiz.follow.imported if self.wiz.follow is not None else ()
        lines = [unread_sentence(c, read) for c in result.unread_phones if c.index not in done]
        if any(c.index in done for c in result.unread_phones):
            # The job's own sentence, as its result page and report say it (bb14 W6).
            follow = self.wiz.follow
            assert follow is not None
            lines.append(imported_before_sentence(mapping, follow.imported, follow.jobs))
        return "\n".join(lines)

    @property
    def countries_chosen(self) -> bool:
        """The person ticked the box saying the column read for countries holds countries,
        shown for the doubt the last check found: the import then records that choice in
        place of the warning (a box left as it was is no choice)."""
        shown = self.result is not None and bool(self.result.state_doubt)
        return shown and self.countries_box.isChecked()

    def _fill(self, result: CheckResult) -> None:
        self._filling = True
        self.model.removeRows(0, self.model.rowCount())
        # Staging's rows: what the job will say of each, a row it sets apart included.
        for c in result.rows_to_look_at:
            row_item = QStandardItem(str(c.row))
            row_item.setEditable(False)
            value = self.fixes.get(c.row)
            value_item = QStandardItem(value if value is not None else c.original)
            value_item.setData(c.row, ROW_ROLE)
            # Duplicates are fine as they are; only the number itself can be corrected.
            value_item.setEditable(not c.duplicate)
            said = for_window(c.problem)
            problem = QStandardItem(said)
            problem.setToolTip(literal(said))
            problem.setEditable(False)
            color = BAD if c.invalid else WARN
            for item in (row_item, value_item, problem):
                item.setBackground(QBrush(color))
            self.model.appendRow([row_item, value_item, problem])
        more = f" ({result.more_rows:,} more not listed)" if result.more_rows else ""
        listed = len(result.rows_to_look_at)
        self.fix_note.setText(
            f"{listed:,} row{'' if listed == 1 else 's'} listed{more}. A fix replaces the phone "
            "cell for this import only; the file is not changed and the report shows both values."
        )
        self._filling = False

    def _edited(self, item: QStandardItem) -> None:
        if self._filling or item.column() != COL_VALUE:
            return
        row = item.data(ROW_ROLE)
        if isinstance(row, int):
            self.fixes[row] = item.text().strip()
            self.recheck_button.setEnabled(not self.checking)
            self.status.setText(
                f"Row {row} changed to {item.text().strip()!r}: check again to see the new counts."
            )
            self.completeChanged.emit()

    def fix(self, row: int, value: str) -> None:
        """Replace the phone cell of sheet row ``row`` (as double-click editing does)."""
        for r in range(self.model.rowCount()):
            item = self.model.item(r, COL_VALUE)
            if item.data(ROW_ROLE) == row:
                item.setText(value)
                return
        self.fixes[row] = value
        self.recheck_button.setEnabled(not self.checking)

    def _failed(self, generation: int, exc: BaseException) -> None:
        if generation != self._generation:
            return
        self.checking = False
        self.bar.hide()
        self.setSubTitle(NOT_CHECKED_SUBTITLE)
        text = str(exc) if isinstance(exc, SheetError) else user_message(exc, "Checking").text
        self.status.setText(f"⚠ {for_window(text)}")
        self.recheck_button.setEnabled(True)
        self.completeChanged.emit()

    def validatePage(self) -> bool:
        """Start: the file must be as it was checked, or the job staged from it would send
        what the page no longer shows (black-box B11 #2: corrected in Excel after the check,
        its old rows were sent with no word). Changed or gone, nothing is sent: it is checked
        again, saying why, and Start waits for the person to look.

        The file is looked at on the runner (a stat of a file on a network share that went
        away can block for long: no file I/O on the GUI thread); found unchanged, the wizard
        goes on to the run page itself."""
        staged = self.result.staged if self.result is not None else None
        if staged is None:
            return True
        if self._verified is staged:
            self._verified = None
            return True
        if not self._verifying:
            self._verify(staged)
        return False

    def _verify(self, staged: StagedCheck) -> None:
        self._verifying = True
        generation = self._generation
        self.status.setText("Making sure the file is as it was checked…")

        def done(same: object) -> None:
            self._verified_file(generation, staged, same is True)

        self.wiz.runner.submit(
            "compare the file with its check",
            lambda _ctx: source_unchanged(staged),
            on_done=done,
            on_error=lambda _exc: self._verified_file(generation, staged, False),
            owner=self,
        )

    def _verified_file(self, generation: int, staged: StagedCheck, same: bool) -> None:
        self._verifying = False
        current = self.result.staged if self.result is not None else None
        if (
            generation != self._generation
            or current is not staged
            or self.wiz.currentId() != self.wiz.PAGE_CHECK
        ):
            return  # checked again, left or closed meanwhile: Start is pressed anew
        if same:
            self._verified = staged
            self.wiz.next()
        else:
            self.run_check(changed=staged)

    def campaigns_loaded(self) -> None:
        """The campaign list arrived: a check made (or running) without it resolved no names
        and checked no ids, and Start would stage anew with results never shown (black-box
        B11 #3): it is checked again with the list."""
        on_page = self.wiz.currentId() == self.wiz.PAGE_CHECK
        if on_page and (self.checking or self.result is not None):
            self.run_check([CAMPAIGNS_LOADED])

    def isComplete(self) -> bool:
        # Fixes typed but not checked again would be sent unseen: check first.
        stale = self.recheck_button.isEnabled()
        return self.result is not None and self.result.summary.valid > 0 and not stale
