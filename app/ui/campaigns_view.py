"""The Campaigns tab: campaigns with their state and last audit, the audit, and the launch gate.

Above, every campaign of the connection (active or not) with when it was last audited on this
computer and with what result; Audit runs the audit shown below (:class:`AuditView`), and
Activate / Deactivate change the campaign's status through the journaled session. Activating
asks first when there is no clean audit within the gate's window (core's ``gate_check``); the
override and its reason are journaled by core.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.api.models import Campaign
from app.core.audit_records import AuditRecords
from app.core.launch_gate import (
    DEFAULT_WINDOW_HOURS,
    GateDecision,
    GateRefused,
    LaunchGate,
    activate,
    deactivate,
)
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.wording import counted
from app.ui.audit_table_model import (
    CAMPAIGN_COLUMNS,
    COL_AUDITED_AT,
    COL_CAMPAIGN_NAME,
    COL_CAMPAIGN_STATE,
    RAW_ROLE,
    CampaignRow,
    ObjectTableModel,
    sort_proxy,
)
from app.ui.audit_view import AuditView
from app.ui.error_messages import user_message
from app.ui.gate_dialog import GateDialog
from app.ui.list_view import is_auth_problem
from app.ui.plain_text import literal, window_title
from app.ui.tasks import TaskContext, TaskRunner

MAX_WINDOW_HOURS = 24 * 90


def load_campaign_rows(
    session: Session, data_dir: Path, cancel: threading.Event | None = None
) -> list[CampaignRow]:
    """Every campaign with its last local audit, by name (blocking: network + SQLite)."""
    campaigns = session.api.campaigns(cancel=cancel)
    with AuditRecords.in_data_dir(data_dir) as records:
        latest = records.latest_by_campaign(session.connection.base_url)
    rows = [CampaignRow(c, latest.get(c.id)) for c in campaigns]
    return sorted(rows, key=lambda r: (r.campaign.name.casefold(), r.campaign.id))


class CampaignsView(QWidget):
    """Campaigns, their last audit, the audit itself and the launch gate.

    Signals:
        status_message(str): text for the window's status bar.
        auth_problem(object, object): (exception, retry) when the service rejected the token.
        busy_changed(bool): background work of this view (or its audit) started or all ended.
        campaigns_loaded(): the campaign table was (re)filled.
        campaign_status_changed(object, bool): the campaign whose status was changed, and
            whether it is now active.
        gate_refused(str): a status change was refused (no permission); the sentence shown.
    """

    status_message = Signal(str)
    auth_problem = Signal(object, object)
    busy_changed = Signal(bool)
    campaigns_loaded = Signal()
    campaign_status_changed = Signal(object, bool)
    gate_refused = Signal(str)

    def __init__(self, runner: TaskRunner, paths: AppPaths, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.paths = paths
        self.session: Session | None = None
        self.dialog: Any = None
        self._busy = 0
        self._generation = 0
        self._status_text = ""

        self.model: ObjectTableModel[CampaignRow] = ObjectTableModel(CAMPAIGN_COLUMNS, self)
        self.proxy = sort_proxy(self.model, self)
        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(COL_CAMPAIGN_NAME, Qt.SortOrder.AscendingOrder)
        self.table.verticalHeader().setDefaultSectionSize(22)
        for column, width in (
            (COL_CAMPAIGN_NAME, 240),
            (COL_CAMPAIGN_STATE, 80),
            (COL_AUDITED_AT, 170),
        ):
            self.table.setColumnWidth(column, width)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _i: self.audit_selected())

        self.refresh_button = QPushButton("Refresh", self)
        self.refresh_button.clicked.connect(self.refresh)
        self.audit_button = QPushButton("Audit", self)
        self.audit_button.setToolTip(
            "Check the campaign's leads against the DNC and SMS opt-out entries that apply"
        )
        self.audit_button.clicked.connect(self.audit_selected)
        self.activate_button = QPushButton("Activate…", self)
        self.activate_button.clicked.connect(self.activate_selected)
        self.deactivate_button = QPushButton("Deactivate…", self)
        self.deactivate_button.clicked.connect(self.deactivate_selected)
        self.window_spin = QSpinBox(self)
        self.window_spin.setRange(1, MAX_WINDOW_HOURS)
        self.window_spin.setValue(DEFAULT_WINDOW_HOURS)
        self.window_spin.setSuffix(" h")
        self.window_spin.setToolTip(
            "Activating asks for confirmation unless the campaign had a clean audit this recently"
        )
        self.count_label = QLabel(self)
        bar = QHBoxLayout()
        for button in (
            self.refresh_button,
            self.audit_button,
            self.activate_button,
            self.deactivate_button,
        ):
            bar.addWidget(button)
        bar.addSpacing(16)
        bar.addWidget(QLabel("Launch gate: clean audit within", self))
        bar.addWidget(self.window_spin)
        bar.addStretch()
        bar.addWidget(self.count_label)

        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addLayout(bar)
        top_layout.addWidget(self.table)
        self.audit_view = AuditView(runner, paths, self)
        self.audit_view.status_message.connect(self._relay_status)
        self.audit_view.auth_problem.connect(self.auth_problem)
        self.audit_view.busy_changed.connect(self._work)
        self.audit_view.audit_finished.connect(lambda _run: self.refresh())
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.audit_view)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(self.splitter)

        self.table.selectionModel().selectionChanged.connect(self._update_actions)
        self.model.modelReset.connect(self._update_actions)
        self._update_actions()

    # ------------------------------------------------------------------ state
    @property
    def window_hours(self) -> int:
        return self.window_spin.value()

    def _relay_status(self, text: str) -> None:
        self._status_text = text
        self.status_message.emit(text)

    def status_text(self) -> str:
        return self._status_text

    def _work(self, started: bool) -> None:
        before = self._busy > 0
        self._busy = max(0, self._busy + (1 if started else -1))
        if before != (self._busy > 0):
            self.busy_changed.emit(self._busy > 0)
        self._update_actions()

    def selected(self) -> Campaign | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        value = rows[0].data(RAW_ROLE)
        return value.campaign if isinstance(value, CampaignRow) else None

    def select_campaign(self, campaign_id: str) -> bool:
        for row in range(self.proxy.rowCount()):
            value = self.proxy.index(row, 0).data(RAW_ROLE)
            if isinstance(value, CampaignRow) and value.campaign.id == campaign_id:
                self.table.selectRow(row)
                return True
        return False

    def _update_actions(self, *_: object) -> None:
        campaign = self.selected()
        connected = self.session is not None
        self.refresh_button.setEnabled(connected)
        self.audit_button.setEnabled(
            connected and campaign is not None and not self.audit_view.running
        )
        # No status change while this view works (a second click, a list being reloaded, an
        # audit under way): the change would be decided on what is about to be replaced.
        idle = self._busy == 0
        self.activate_button.setEnabled(
            idle and connected and campaign is not None and not campaign.active
        )
        self.deactivate_button.setEnabled(
            idle and connected and campaign is not None and campaign.active
        )

    # ------------------------------------------------------------------ session
    def set_session(self, session: Session | None) -> None:
        self._generation += 1
        if self.dialog is not None:
            self.dialog.reject()
        self.session = session
        self.model.set_rows([])
        self.count_label.clear()
        self.audit_view.set_session(session)
        if session is None:
            self._relay_status("Campaigns: not connected.")
            return
        self.refresh()

    def refresh(self) -> None:
        """Reload the campaigns and their last audits, keeping the selection."""
        session = self.session
        if session is None:
            self._relay_status("Campaigns: not connected.")
            return
        generation = self._generation
        keep = self.selected()
        data_dir = self.paths.data_dir

        def done(rows: list[CampaignRow]) -> None:
            self._work(False)
            if generation != self._generation:
                return
            self.model.set_rows(rows)
            if keep is not None:
                self.select_campaign(keep.id)
            active = sum(1 for r in rows if r.campaign.active)
            self.count_label.setText(
                f"{counted(len(rows), 'campaign', 'campaigns')}, {active:,} active"
            )
            # Replaces "not connected" (or a failed load) from before, shown on switching here.
            self._relay_status(f"Campaigns: {len(rows):,} loaded, {active:,} active.")
            self.campaigns_loaded.emit()

        def failed(exc: BaseException) -> None:
            self._work(False)
            if generation != self._generation:
                return
            if is_auth_problem(exc):
                self.auth_problem.emit(exc, self.refresh)
                return
            self._relay_status(user_message(exc, "Load the campaigns").text)

        self._work(True)
        self._relay_status("Campaigns: loading…")
        self.runner.submit(
            "load campaigns and audits",
            lambda ctx: load_campaign_rows(session, data_dir, ctx.cancel_event),
            on_done=done,
            on_error=failed,
        )

    # ------------------------------------------------------------------ audit
    def audit_selected(self) -> None:
        campaign = self.selected()
        if campaign is None:
            self._relay_status("Select a campaign to audit.")
            return
        self.audit_view.run(campaign.id, campaign.name)
        self._update_actions()

    # ------------------------------------------------------------------ launch gate
    def activate_selected(self) -> None:
        """Activate the selected campaign; without a clean recent audit, ask first."""
        session, campaign = self.session, self.selected()
        if session is None or campaign is None:
            return
        if self._busy:
            self._relay_status("Wait for the current work to finish, then change the status.")
            return
        data_dir, hours = self.paths.data_dir, self.window_hours
        generation = self._generation

        def work(_ctx: TaskContext) -> tuple[GateDecision, bool]:
            with AuditRecords.in_data_dir(data_dir) as records:
                gate = LaunchGate(session, records)
                decision = gate.gate_check(campaign.id, hours)
                if decision.allowed:
                    gate.activate(campaign, decision)
                    return decision, True
            return decision, False

        def done(value: tuple[GateDecision, bool]) -> None:
            self._work(False)
            decision, activated = value
            if generation != self._generation:
                return
            if activated:
                self._status_changed(campaign, True, f"({decision.reason})")
            else:
                self._ask_override(campaign, decision)

        self._work(True)
        self.runner.submit(
            "launch gate",
            work,
            on_done=done,
            on_error=lambda exc: self._status_failed(exc, campaign, True),
        )

    def _ask_override(self, campaign: Campaign, decision: GateDecision) -> None:
        dialog = GateDialog(campaign, decision, self)
        self.dialog = dialog

        def confirmed() -> None:
            self._override(campaign, decision, dialog.override_reason)

        def closed(_result: int) -> None:
            if self.dialog is dialog:
                self.dialog = None
            dialog.deleteLater()

        dialog.accepted.connect(confirmed)
        dialog.rejected.connect(
            lambda: self._relay_status(f"{campaign.name} was not activated: {decision.reason}")
        )
        dialog.finished.connect(closed)
        dialog.open()

    def _override(self, campaign: Campaign, decision: GateDecision, reason: str) -> None:
        session = self.session
        if session is None:
            return

        def work(_ctx: TaskContext) -> object:
            # The records are only read by the gate; the override itself is core's journal
            # entry, written before the status change is sent.
            return activate(session, campaign, decision, confirmed=True, override_reason=reason)

        def done(_result: object) -> None:
            self._work(False)
            self._status_changed(campaign, True, "(gate overridden; recorded in the journal)")

        self._work(True)
        self.runner.submit(
            "activate campaign (override)",
            work,
            on_done=done,
            on_error=lambda exc: self._status_failed(exc, campaign, True),
        )

    def deactivate_selected(self) -> None:
        session, campaign = self.session, self.selected()
        if session is None or campaign is None:
            return
        if self._busy:
            self._relay_status("Wait for the current work to finish, then change the status.")
            return
        answer = QMessageBox.question(
            self,
            "Deactivate the campaign",
            literal(
                f"Deactivate {campaign.name} (id {campaign.id})? The dialer stops calling its "
                "leads. The change is recorded in the change journal."
            ),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return

        def done(_result: object) -> None:
            self._work(False)
            self._status_changed(campaign, False, "")

        self._work(True)
        self.runner.submit(
            "deactivate campaign",
            lambda _ctx: deactivate(session, campaign, note="deactivated in DNC Desk"),
            on_done=done,
            on_error=lambda exc: self._status_failed(exc, campaign, False),
        )

    def _status_changed(self, campaign: Campaign, active: bool, note: str) -> None:
        verb = "activated" if active else "deactivated"
        self._relay_status(f"{campaign.name} {verb} {note}".strip() + "; journaled.")
        self.campaign_status_changed.emit(campaign, active)
        self.refresh()

    def _status_failed(self, exc: BaseException, campaign: Campaign, active: bool) -> None:
        self._work(False)
        if is_auth_problem(exc):
            retry = self.activate_selected if active else self.deactivate_selected
            self.auth_problem.emit(exc, retry)
            return
        verb = "Activate" if active else "Deactivate"
        if isinstance(exc, GateRefused):
            text = str(exc)
            self._relay_status(text)
            self.gate_refused.emit(text)
            QMessageBox.warning(
                self, window_title(f"{campaign.name} was not changed"), literal(text)
            )
            return
        message = user_message(exc, f"{verb} {campaign.name}")
        self._relay_status(message.text)
        QMessageBox.warning(self, message.title, literal(message.text))

    # ------------------------------------------------------------------ settings
    def save_state(self, settings: QSettings) -> None:
        settings.setValue("campaigns/gate_window_hours", self.window_hours)
        settings.setValue("campaigns/splitter", self.splitter.saveState())

    def restore_state(self, settings: QSettings) -> None:
        try:
            hours = int(str(settings.value("campaigns/gate_window_hours", DEFAULT_WINDOW_HOURS)))
        except ValueError:
            hours = DEFAULT_WINDOW_HOURS
        self.window_spin.setValue(hours)
        state = settings.value("campaigns/splitter")
        if isinstance(state, QByteArray | bytes) and state:
            self.splitter.restoreState(QByteArray(state))
