"""Give the main window the pre-campaign tabs: Campaigns & audit, List health, Evidence,
Snapshots.

Installed by the window with one call, like the job features: each view is added as a tab,
wired with the window's ``_wire_view`` (status bar, busy indicator, token problems), follows
the active session, and the campaigns tab keeps its launch-gate window in the window's
settings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget

from app.core.session import Session
from app.ui.campaigns_view import CampaignsView
from app.ui.evidence_view import EvidenceView
from app.ui.health_view import HealthView
from app.ui.snapshots_view import SnapshotsView

if TYPE_CHECKING:
    from app.ui.main_window import MainWindow

CAMPAIGNS_TAB = "Campaigns && audit"  # "&&": a single "&" would mark a mnemonic
HEALTH_TAB = "List health"
EVIDENCE_TAB = "Evidence"
SNAPSHOTS_TAB = "Snapshots"


class AuditFeatures(QObject):
    """Owns the campaigns/audit, health, evidence and snapshot tabs of one window."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        runner, paths, tabs = window.runner, window.paths, window.tabs
        self.campaigns_view = CampaignsView(runner, paths, tabs)
        self.health_view = HealthView(runner, paths, tabs)
        self.evidence_view = EvidenceView(runner, paths, tabs)
        self.snapshots_view = SnapshotsView(runner, paths, tabs)
        # After the change journal, before tabs added later (Jobs stays last): tabs in front
        # keep their indexes, so a remembered current tab still means the same tab.
        at = tabs.indexOf(window.journal_view) + 1
        for offset, (view, label) in enumerate(self.tabs()):
            tabs.insertTab(at + offset, view, label)
            window._wire_view(view)
        self.campaigns_view.restore_state(window.settings)
        window.state.session_changed.connect(self._session_changed)
        window.installEventFilter(self)
        self._session_changed(window.state.session)

    def tabs(self) -> list[tuple[QWidget, str]]:
        return [
            (self.campaigns_view, CAMPAIGNS_TAB),
            (self.health_view, HEALTH_TAB),
            (self.evidence_view, EVIDENCE_TAB),
            (self.snapshots_view, SNAPSHOTS_TAB),
        ]

    def _session_changed(self, session: Session | None) -> None:
        for view in (
            self.campaigns_view,
            self.health_view,
            self.evidence_view,
            self.snapshots_view,
        ):
            view.set_session(session)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # The window saves its settings on close; the gate window and splitter go with them.
        if watched is self.window and event.type() == QEvent.Type.Close:
            self.campaigns_view.save_state(self.window.settings)
        return False


def install_audit_features(window: MainWindow) -> AuditFeatures:
    """Add the campaigns/audit, list health, evidence and snapshot tabs to ``window``."""
    return AuditFeatures(window)
