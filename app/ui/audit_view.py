"""Run a campaign audit and show its result: counts, strategy per scope, conflicts, export,
and re-status of the conflicting leads.

The audit itself is core's (``run_audit``); this view runs it on the window's
:class:`TaskRunner` with progress and Cancel, writes the xlsx report to the reports folder and
stores the outcome (time, counts, report path and hash) in the local audit records, as the
CLI does, so the campaign list and the launch gate see it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.api.paging import Cancelled
from app.core.audit_records import AuditRecords
from app.core.audit_report import write_report
from app.core.audit_run import AuditOptions, run_audit
from app.core.audit_types import AuditResult, ListTotals
from app.core.lead_restatus import restatus_leads
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.wording import counted
from app.ui.audit_table_model import (
    CONFLICT_COLUMNS,
    SOURCE_COLUMNS,
    UNPARSEABLE_COLUMNS,
    Column,
    ObjectTableModel,
    sort_proxy,
)
from app.ui.bulk_progress import BulkProgressDialog
from app.ui.error_messages import user_message
from app.ui.list_view import is_auth_problem
from app.ui.plain_text import plain_label, rich
from app.ui.restatus_dialog import (
    RestatusDialog,
    RestatusPlan,
    restatus_summary,
)
from app.ui.tasks import Task, TaskContext, TaskRunner

LIST_COLUMNS: tuple[Column[ListTotals], ...] = (
    Column("List id", lambda t: t.lead_list.id),
    Column("List", lambda t: t.lead_list.name),
    Column("Active", lambda t: t.lead_list.active),
    Column("Leads", lambda t: t.leads),
    Column("Numbers", lambda t: t.numbers),
    Column("Unparseable", lambda t: t.unparseable),
    Column("Conflicts", lambda t: t.conflicts),
)


@dataclass(frozen=True, slots=True)
class AuditRun:
    """An audit as the view keeps it: the result, where its report went, and its hash."""

    result: AuditResult
    report: Path
    sha256: str


def report_name(campaign_id: str) -> str:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    return f"audit-campaign-{campaign_id}-{stamp}.xlsx"


def _unparseable(count: int) -> str:
    """Said of the numbers, not the campaign (black-box bb10 F2: "0 unparseable numbers
    (cannot be proven clean)" read as if the campaign could not be)."""
    if count == 0:
        return "all numbers read"
    return (
        f"{counted(count, 'number', 'numbers')} could not be read, so "
        f"{'it cannot' if count == 1 else 'they cannot'} be proven clean"
    )


def _unreadable_note(count: int) -> str:
    """The status line's clause on unreadable numbers; none when every number was read."""
    return f", {counted(count, 'number', 'numbers')} could not be read" if count else ""


# After an audit that stopped on an error: what is left as it was, and what to do (bb10 F1).
STOPPED_ADVICE = (
    "Nothing was recorded: the launch gate still goes by this "
    "campaign's last recorded audit, and asks before activating unless that one is clean and "
    "recent. Run the audit again."
)


def not_checked_text(result: AuditResult) -> str:
    """What the audit could not check and what to do, or "" (black-box bb7 #1)."""
    parts = []
    if result.unread:
        parts.append(
            f"{counted(result.unread, 'opt-out entry', 'opt-out entries')} the service counted "
            "were not given"
        )
    numbers = sorted({n for s in result.sources for n in s.not_checked})
    if numbers:
        named = ", ".join(numbers[:5]) + (
            f" and {len(numbers) - 5:,} more" if len(numbers) > 5 else ""
        )
        parts.append(
            f"{counted(len(numbers), 'number was', 'numbers were')} not checked ({named}): "
            "the service failed their searches, each asked again"
        )
    if not parts:
        return ""
    return "; ".join(parts) + ". The campaign is not proven clean: run the audit again."


def counts_text(result: AuditResult) -> str:
    """The headline counts, as the Summary sheet has them."""
    verdict = "clean" if result.clean else "NOT clean"
    lines = [
        f"<b>{rich(result.campaign_name)}</b> (id {rich(result.campaign_id)}): <b>{verdict}</b> "
        f"— audited {rich(result.finished_at.replace('T', ' ').rstrip('Z'))} UTC on "
        f"{rich(result.connection)}.",
        f"{counted(len(result.lists), 'list', 'lists')}, "
        f"{counted(result.leads, 'lead', 'leads')}, "
        f"{counted(result.numbers, 'number', 'numbers')} checked; "
        f"{counted(len(result.conflicts), 'conflict', 'conflicts')} on "
        f"{counted(len(result.conflicting_leads), 'lead', 'leads')}; "
        f"{_unparseable(len(result.unparseable))}.",
    ]
    missed = not_checked_text(result)
    if missed:
        lines.append(f"<b>{rich(missed)}</b>")
    by_scope = result.conflicts_by_scope()
    if by_scope:
        lines.append(
            "Conflicts by scope: "
            + rich("; ".join(f"{key}: {n:,}" for key, n in sorted(by_scope.items())))
        )
    by_list = result.conflicts_by_list()
    if by_list:
        names = {t.lead_list.id: t.lead_list.name for t in result.lists}
        lines.append(
            "Conflicts by list: "
            + rich("; ".join(f"{names.get(k, k)}: {n:,}" for k, n in sorted(by_list.items())))
        )
    return "<br>".join(lines)


def _table(model: Any, parent: QWidget) -> QTableView:
    table = QTableView(parent)
    table.setModel(sort_proxy(model, table))
    table.setSortingEnabled(True)
    table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    table.verticalHeader().setDefaultSectionSize(22)
    return table


class AuditView(QWidget):
    """One campaign's audit: run it (progress, Cancel), then its result and actions.

    Signals:
        status_message(str): text for the window's status bar.
        auth_problem(object, object): (exception, retry) when the service rejected the token.
        busy_changed(bool): an audit, export or re-status started (True) or all ended (False).
        audit_finished(object): the :class:`AuditRun` once its report and record are stored.
        restatus_finished(object): the core ``RestatusOutcome`` of a finished re-status.
    """

    status_message = Signal(str)
    auth_problem = Signal(object, object)
    busy_changed = Signal(bool)
    audit_finished = Signal(object)
    restatus_finished = Signal(object)

    def __init__(self, runner: TaskRunner, paths: AppPaths, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.paths = paths
        self.session: Session | None = None
        self.options = AuditOptions()
        self.current: AuditRun | None = None
        self.dialog: Any = None
        self._task: Task | None = None
        self._busy = 0
        self._generation = 0

        self.summary = QLabel("Choose a campaign and press Audit.", self)
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress_label = plain_label(QLabel(self))
        self.progress_bar = QProgressBar(self)
        self.cancel_button = QPushButton("Cancel audit", self)
        self.cancel_button.clicked.connect(self.cancel)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progress_label, 1)
        progress_row.addWidget(self.progress_bar)
        progress_row.addWidget(self.cancel_button)
        for widget in (self.progress_label, self.progress_bar, self.cancel_button):
            widget.hide()

        self.conflict_model: ObjectTableModel[Any] = ObjectTableModel(CONFLICT_COLUMNS, self)
        self.unparseable_model: ObjectTableModel[Any] = ObjectTableModel(UNPARSEABLE_COLUMNS, self)
        self.source_model: ObjectTableModel[Any] = ObjectTableModel(SOURCE_COLUMNS, self)
        self.list_model: ObjectTableModel[Any] = ObjectTableModel(LIST_COLUMNS, self)
        self.conflict_table = _table(self.conflict_model, self)
        self.tables = [
            self.conflict_table,
            _table(self.unparseable_model, self),
            _table(self.source_model, self),
            _table(self.list_model, self),
        ]
        self.tabs = QTabWidget(self)
        for table, title in zip(
            self.tables,
            ("Conflicts", "Unparseable numbers", "Strategy per scope", "Lists"),
            strict=True,
        ):
            self.tabs.addTab(table, title)

        self.export_button = QPushButton("Export xlsx…", self)
        self.export_button.setToolTip("Save the audit report (Summary, Conflicts, Unparseable)")
        self.export_button.clicked.connect(self.export)
        self.restatus_button = QPushButton("Set status of conflicting leads…", self)
        self.restatus_button.clicked.connect(self.restatus_conflicting)
        self.report_label = plain_label(QLabel(self))
        self.report_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        actions = QHBoxLayout()
        actions.addWidget(self.export_button)
        actions.addWidget(self.restatus_button)
        actions.addWidget(self.report_label, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addLayout(progress_row)
        layout.addLayout(actions)
        layout.addWidget(self.tabs, 1)
        self._update_actions()

    # ------------------------------------------------------------------ state
    @property
    def running(self) -> bool:
        return self._task is not None

    @property
    def result(self) -> AuditResult | None:
        return self.current.result if self.current is not None else None

    def _work(self, started: bool) -> None:
        before = self._busy > 0
        self._busy = max(0, self._busy + (1 if started else -1))
        if before != (self._busy > 0):
            self.busy_changed.emit(self._busy > 0)
        self._update_actions()

    def _update_actions(self) -> None:
        result = self.result
        idle = not self.running
        self.export_button.setEnabled(idle and result is not None)
        leads = len(result.conflicting_leads) if result is not None else 0
        self.restatus_button.setEnabled(idle and self.session is not None and leads > 0)
        self.restatus_button.setText(
            f"Set status of {leads:,} conflicting lead{'' if leads == 1 else 's'}…"
            if leads
            else "Set status of conflicting leads…"
        )

    def set_session(self, session: Session | None) -> None:
        """A new connection: an audit of the old one is cancelled and its result cleared."""
        self._generation += 1
        if self._task is not None:
            self._task.cancel()
            self._task = None
            self._show_progress(False)
            self._work(False)
        if self.dialog is not None:
            self.dialog.reject()
        self.session = session
        self.show_result(None)

    def show_result(self, run: AuditRun | None) -> None:
        self.current = run
        result = run.result if run is not None else None
        self.conflict_model.set_rows(result.conflicts if result else [])
        self.unparseable_model.set_rows(result.unparseable if result else [])
        self.source_model.set_rows(result.sources if result else [])
        self.list_model.set_rows(result.lists if result else [])
        for table in self.tables:
            # Qt sizes from at most resizeContentsPrecision() rows: cheap on large results.
            table.resizeColumnsToContents()
        if run is None:
            self.summary.setText("Choose a campaign and press Audit.")
            self.report_label.clear()
        else:
            self.summary.setText(counts_text(run.result))
            self.report_label.setText(f"Report: {run.report}")
            self.report_label.setToolTip(f"SHA-256 {run.sha256}")
        self._update_actions()

    # ------------------------------------------------------------------ audit
    def run(self, campaign_id: str, campaign_name: str = "") -> None:
        """Audit the campaign, write its report and store the outcome."""
        session = self.session
        if session is None:
            self.status_message.emit("Audit: not connected.")
            return
        if self.running:
            self.status_message.emit("An audit is already running; cancel it first.")
            return
        generation = self._generation
        api, connection, options = session.api, session.connection.name, self.options
        reports, data_dir = self.paths.reports_dir, self.paths.data_dir
        label = campaign_name or f"campaign {campaign_id}"

        def work(ctx: TaskContext) -> AuditRun:
            result = run_audit(
                api,
                campaign_id,
                connection=connection,
                options=options,
                cancel=ctx.cancel_event,
                progress=lambda done, total, message: ctx.report((done, total, message)),
            )
            ctx.report((0, 0, "Writing the report"))
            reports.mkdir(parents=True, exist_ok=True)
            path = (reports / report_name(result.campaign_id)).resolve()
            sha = write_report(result, path)
            with AuditRecords.in_data_dir(data_dir) as records:
                records.add(result, path, sha)
            return AuditRun(result, path, sha)

        def done(run: AuditRun) -> None:
            if generation != self._generation:
                return
            self._task = None
            self._show_progress(False)
            self._work(False)
            self.show_result(run)
            verdict = "clean" if run.result.clean else "NOT clean"
            self.status_message.emit(
                f"Audit of {run.result.campaign_name}: {verdict}, "
                f"{counted(len(run.result.conflicts), 'conflict', 'conflicts')}"
                + _unreadable_note(len(run.result.unparseable))
                + (
                    f", {counted(run.result.not_checked, 'number', 'numbers')} not checked"
                    if run.result.not_checked
                    else ""
                )
                + f". Report: {run.report}"
            )
            self.audit_finished.emit(run)

        def failed(exc: BaseException) -> None:
            if generation != self._generation:
                return
            self._task = None
            self._show_progress(False)
            self._work(False)
            if is_auth_problem(exc):
                self.auth_problem.emit(exc, lambda: self.run(campaign_id, campaign_name))
                return
            if isinstance(exc, Cancelled):
                text = f"Audit of {label} cancelled; nothing was recorded."
            else:
                text = f"{user_message(exc, f'Audit of {label} stopped').text} {STOPPED_ADVICE}"
            self.summary.setText(rich(text))  # the summary is rich text
            self.status_message.emit(text)

        self.show_result(None)
        self.summary.setText(rich(f"Auditing {label}…"))
        self._show_progress(True)
        self._task = self.runner.submit(
            f"audit campaign {campaign_id}",
            work,
            on_done=done,
            on_error=failed,
            on_progress=self._on_progress,
        )
        self._work(True)
        self.status_message.emit(f"Auditing {label}…")

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self.cancel_button.setEnabled(False)
            self.progress_label.setText("Cancelling: requests in flight finish first…")

    def _show_progress(self, on: bool) -> None:
        self.progress_bar.setRange(0, 0)
        self.progress_label.clear()
        self.cancel_button.setEnabled(True)
        for widget in (self.progress_label, self.progress_bar, self.cancel_button):
            widget.setVisible(on)

    def _on_progress(self, value: object) -> None:
        if not (isinstance(value, tuple) and len(value) == 3):
            return
        done, total, message = value
        if int(total) > 0:
            self.progress_bar.setRange(0, int(total))
            self.progress_bar.setValue(int(done))
        else:
            self.progress_bar.setRange(0, 0)  # busy indicator: lead searches give no total
        self.progress_label.setText(str(message))

    # ------------------------------------------------------------------ export
    def export(self) -> None:
        """Save the audit report (xlsx) where the user chooses."""
        run = self.current
        if run is None:
            self.status_message.emit("Run an audit first.")
            return
        suggested = str(Path.home() / run.report.name)
        path, _filter = QFileDialog.getSaveFileName(
            self, "Export the audit report", suggested, "Excel workbook (*.xlsx)"
        )
        if not path:
            return
        target = Path(path)
        if target.suffix.lower() != ".xlsx":
            target = target.with_suffix(".xlsx")
        result = run.result

        def done(sha: str) -> None:
            self._work(False)
            self.status_message.emit(f"Audit report saved: {target} (SHA-256 {sha[:16]}…)")

        def failed(exc: BaseException) -> None:
            self._work(False)
            self.status_message.emit(user_message(exc, "Export the audit report").text)

        self._work(True)
        self.runner.submit(
            "export audit report",
            lambda _ctx: write_report(result, target),
            on_done=done,
            on_error=failed,
        )

    # ------------------------------------------------------------------ re-status
    def restatus_conflicting(self) -> None:
        """Confirm, then set the status of every lead with a conflict (journaled)."""
        session, run = self.session, self.current
        if session is None or run is None:
            return
        leads = run.result.conflicting_leads
        if not leads:
            self.status_message.emit("No lead is in conflict.")
            return
        names = {t.lead_list.id: t.lead_list.name for t in run.result.lists}
        dialog = RestatusDialog(leads, session, self.runner, names, parent=self)
        dialog.auth_problem.connect(self.auth_problem)
        dialog.accepted.connect(lambda: self._run_restatus(dialog.plan))
        dialog.finished.connect(lambda _r: self._dialog_closed(dialog))
        self.dialog = dialog
        dialog.open()

    def _dialog_closed(self, dialog: Any) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()

    def _run_restatus(self, plan: RestatusPlan | None) -> None:
        session = self.session
        if plan is None or session is None:
            return
        progress = BulkProgressDialog("Set the lead status", self.runner, self)
        progress.running_changed.connect(self._work)
        progress.run_finished.connect(self._restatus_done)
        progress.run_failed.connect(
            lambda exc: self.status_message.emit(user_message(exc, "Set the lead status").text)
        )
        progress.finished.connect(lambda _r: self._dialog_closed(progress))
        self.dialog = progress
        leads, code, note = list(plan.leads), plan.status.status, plan.note
        progress.open()
        progress.start(
            len(leads),
            lambda ctx: restatus_leads(
                session,
                leads,
                code,
                note=note,
                cancel=ctx.cancel_event,
                progress=lambda done, total, message: ctx.report((done, total, message)),
            ),
            restatus_summary,
        )

    def _restatus_done(self, outcome: Any) -> None:
        line, _problems = restatus_summary(outcome)
        self.status_message.emit(
            f"{line} The conflicts table shows the statuses read by the audit; audit again "
            "to see the new ones."
        )
        self.restatus_finished.emit(outcome)
