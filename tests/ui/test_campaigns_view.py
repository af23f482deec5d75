"""CampaignsView: state and last audit per campaign, audit from the list, the launch gate."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from app.api.client import ApiClient
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.audit_table_model import (
    COL_AUDIT_RESULT,
    COL_AUDITED_AT,
    COL_CAMPAIGN_STATE,
    RAW_ROLE,
    CampaignRow,
)
from app.ui.campaigns_view import CampaignsView
from app.ui.gate_dialog import GateDialog
from app.ui.tasks import TaskRunner
from tests.conftest import LIMITED_TOKEN, TOKEN
from tests.core.test_audit import seed_campaign_with_conflicts

TIMEOUT = 20_000
SessionFactory = Callable[[str], Session]


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


@pytest.fixture
def make_session(sandbox: Any, journal: ChangeJournal) -> Iterator[SessionFactory]:
    sessions: list[Session] = []

    def factory(token: str = TOKEN) -> Session:
        s = Session(
            Connection("Test", sandbox.base_url), ApiClient(sandbox.base_url, token), journal
        )
        sessions.append(s)
        return s

    yield factory
    for s in sessions:
        s.close()


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    shown: list[tuple[str, str]] = []

    def warning(_parent: Any, title: str, text: str, *_a: Any) -> QMessageBox.StandardButton:
        shown.append((title, text))
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "warning", staticmethod(warning))
    return shown


def loaded_view(qtbot: Any, runner: TaskRunner, session: Session) -> CampaignsView:
    view = CampaignsView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    with qtbot.waitSignal(view.campaigns_loaded, timeout=TIMEOUT):
        view.set_session(session)
    return view


def rows(view: CampaignsView) -> dict[str, tuple[str, str, str]]:
    """Campaign name -> (state, audited at, result) as the table shows them."""
    out = {}
    for row in range(view.proxy.rowCount()):
        item = view.proxy.index(row, 0).data(RAW_ROLE)
        assert isinstance(item, CampaignRow)
        out[item.campaign.name] = (
            view.proxy.index(row, COL_CAMPAIGN_STATE).data(),
            view.proxy.index(row, COL_AUDITED_AT).data(),
            view.proxy.index(row, COL_AUDIT_RESULT).data(),
        )
    return out


def _active(api: ApiClient, name: str) -> bool:
    return next(c for c in api.campaigns() if c.name == name).active


def test_list_shows_state_and_last_audit(
    qtbot: Any, qtmodeltester: Any, runner: TaskRunner, make_session: SessionFactory
) -> None:
    session = make_session(TOKEN)
    seed_campaign_with_conflicts(session.api)
    view = loaded_view(qtbot, runner, session)
    qtmodeltester.check(view.model)
    assert rows(view) == {
        "Old Winback": ("inactive", "", "never audited"),
        "Spring Renewals": ("active", "", "never audited"),
    }
    assert view.count_label.text() == "2 campaigns, 1 active"
    assert not view.audit_button.isEnabled()  # nothing selected yet
    assert view.select_campaign(next(c.id for c in session.api.campaigns() if c.active))
    assert view.audit_button.isEnabled() and view.deactivate_button.isEnabled()
    assert not view.activate_button.isEnabled()
    with qtbot.waitSignal(view.campaigns_loaded, timeout=TIMEOUT):
        view.audit_button.click()
    state, audited_at, result = rows(view)["Spring Renewals"]
    assert state == "active" and audited_at
    assert result == "NOT clean: 6 conflicts, 1 unparseable number"
    assert rows(view)["Old Winback"][2] == "never audited"
    assert view.audit_view.conflict_model.rowCount() == 6


def test_activation_without_recent_clean_audit_asks_and_journals_the_override(
    qtbot: Any, runner: TaskRunner, make_session: SessionFactory, warnings: list[Any]
) -> None:
    session = make_session(TOKEN)
    view = loaded_view(qtbot, runner, session)
    winback = next(c for c in session.api.campaigns() if c.name == "Old Winback")
    assert view.select_campaign(winback.id) and view.activate_button.isEnabled()
    view.activate_button.click()
    qtbot.waitUntil(lambda: isinstance(view.dialog, GateDialog), timeout=TIMEOUT)
    dialog = view.dialog
    assert "never been audited" in dialog.message.text()
    assert "24 hours" in dialog.message.text()
    assert not dialog.ok_button.isEnabled()  # an override needs a reason
    qtbot.keyClicks(dialog.reason_edit, "Launch approved by counsel")
    with qtbot.waitSignal(view.campaign_status_changed, timeout=TIMEOUT) as blocker:
        dialog.ok_button.click()
    assert blocker.args[1] is True
    assert _active(session.api, "Old Winback")
    overrides = session.journal.query(operation="gate.override")
    assert len(overrides) == 1
    assert overrides[0].note == "Launch approved by counsel"
    assert overrides[0].after is not None
    assert overrides[0].after["gate"] == "The campaign has never been audited."
    status_rows = session.journal.query(operation="campaign.status")
    assert sorted(e.outcome for e in status_rows) == ["", "ok"]
    # The override is on record before the change was sent.
    assert overrides[0].id < min(e.id for e in status_rows)
    assert warnings == []


def test_cancelled_override_leaves_the_campaign_inactive(
    qtbot: Any, runner: TaskRunner, make_session: SessionFactory
) -> None:
    session = make_session(TOKEN)
    view = loaded_view(qtbot, runner, session)
    winback = next(c for c in session.api.campaigns() if c.name == "Old Winback")
    view.select_campaign(winback.id)
    view.activate_selected()
    qtbot.waitUntil(lambda: isinstance(view.dialog, GateDialog), timeout=TIMEOUT)
    with qtbot.waitSignal(view.status_message, timeout=TIMEOUT) as blocker:
        view.dialog.reject()
    assert "was not activated" in blocker.args[0]
    assert not _active(session.api, "Old Winback")
    assert session.journal.query(operation="gate.override") == []


def test_recent_clean_audit_activates_without_asking(
    qtbot: Any, runner: TaskRunner, make_session: SessionFactory
) -> None:
    session = make_session(TOKEN)
    winback = next(c for c in session.api.campaigns() if c.name == "Old Winback")
    session.api.insert_lead(session.api.insert_list("Winback clean", winback.id), "2025550150")
    view = loaded_view(qtbot, runner, session)
    view.select_campaign(winback.id)
    with qtbot.waitSignal(view.campaigns_loaded, timeout=TIMEOUT):
        view.audit_selected()
    assert rows(view)["Old Winback"][2].startswith("clean (1 lead, 1 number)")
    opened: list[Any] = []
    view.activate_button.clicked.connect(lambda: opened.append(view.dialog))
    with qtbot.waitSignal(view.campaign_status_changed, timeout=TIMEOUT):
        view.activate_button.click()
    assert view.dialog is None and opened == [None]
    assert _active(session.api, "Old Winback")
    assert session.journal.query(operation="gate.override") == []
    with qtbot.waitSignal(view.campaigns_loaded, timeout=TIMEOUT):
        pass
    assert rows(view)["Old Winback"][0] == "active"


def test_window_setting_is_used_and_kept(
    qtbot: Any, runner: TaskRunner, make_session: SessionFactory, tmp_path: Path
) -> None:
    from PySide6.QtCore import QSettings

    session = make_session(TOKEN)
    view = loaded_view(qtbot, runner, session)
    view.window_spin.setValue(48)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    view.save_state(settings)
    other = CampaignsView(runner, AppPaths.default())
    qtbot.addWidget(other)
    other.restore_state(settings)
    assert other.window_hours == 48
    winback = next(c for c in session.api.campaigns() if c.name == "Old Winback")
    view.select_campaign(winback.id)
    view.activate_selected()
    qtbot.waitUntil(lambda: isinstance(view.dialog, GateDialog), timeout=TIMEOUT)
    assert "48 hours" in view.dialog.message.text()
    view.dialog.reject()


def test_limited_token_is_refused_clearly(
    qtbot: Any,
    runner: TaskRunner,
    make_session: SessionFactory,
    warnings: list[tuple[str, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = make_session(LIMITED_TOKEN)
    view = loaded_view(qtbot, runner, session)
    spring = next(c for c in session.api.campaigns() if c.name == "Spring Renewals")
    view.select_campaign(spring.id)
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes)
    )
    with qtbot.waitSignal(view.gate_refused, timeout=TIMEOUT) as blocker:
        view.deactivate_button.click()
    assert "lacks the campaign-management permission" in blocker.args[0]
    assert warnings == [("Spring Renewals was not changed", blocker.args[0])]
    assert _active(session.api, "Spring Renewals")
    assert TOKEN not in blocker.args[0] and LIMITED_TOKEN not in blocker.args[0]
    # Activation: the override is asked for and journaled, the change itself refused.
    winback = next(c for c in session.api.campaigns() if c.name == "Old Winback")
    view.select_campaign(winback.id)
    view.activate_selected()
    qtbot.waitUntil(lambda: isinstance(view.dialog, GateDialog), timeout=TIMEOUT)
    qtbot.keyClicks(view.dialog.reason_edit, "urgent")
    with qtbot.waitSignal(view.gate_refused, timeout=TIMEOUT) as blocker:
        view.dialog.ok_button.click()
    assert "refused to activate Old Winback" in blocker.args[0]
    assert not _active(session.api, "Old Winback")
    failed = [e for e in session.journal.query(operation="campaign.status") if e.phase == "outcome"]
    assert {e.outcome for e in failed} == {"failed"}


def test_window_has_the_tabs_and_gives_them_the_session(
    make_window: Any, qtbot: Any, sandbox: Any
) -> None:
    from app.ui.audit_features import CAMPAIGNS_TAB, EVIDENCE_TAB, HEALTH_TAB, SNAPSHOTS_TAB

    window = make_window()
    with qtbot.waitSignal(window.backend_ready, timeout=TIMEOUT):
        window.start()
    features = window.audit_features
    view = features.campaigns_view
    with qtbot.waitSignal(view.campaigns_loaded, timeout=TIMEOUT):
        window.state.activate(
            Connection("Test", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN)
        )
    labels = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    journal = labels.index("Change journal")
    assert labels[journal + 1 : journal + 5] == [
        CAMPAIGNS_TAB,
        HEALTH_TAB,
        EVIDENCE_TAB,
        SNAPSHOTS_TAB,
    ]
    assert set(rows(view)) == {"Spring Renewals", "Old Winback"}
    for other in (features.health_view, features.evidence_view, features.snapshots_view):
        assert other.session is window.state.session
    view.window_spin.setValue(12)
    window.tabs.setCurrentWidget(view)
    window.state.deactivate()
    assert view.session is None and view.model.rowCount() == 0
    assert features.snapshots_view.session is None
    assert window.statusBar().currentMessage() == "Campaigns: not connected."
    window.close()
    again = make_window()
    assert again.audit_features.campaigns_view.window_hours == 12


def test_campaigns_tab_status_says_what_is_loaded_once_connected(
    make_window: Any, qtbot: Any, sandbox: Any
) -> None:
    window = make_window()
    with qtbot.waitSignal(window.backend_ready, timeout=TIMEOUT):
        window.start()
    view = window.audit_features.campaigns_view
    with qtbot.waitSignal(view.campaigns_loaded, timeout=TIMEOUT):
        window.state.activate(
            Connection("Test", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN)
        )
    # The tab was in the background while it loaded; switching to it shows its own status,
    # not the "not connected" it said before the session (bb1 F2).
    window.tabs.setCurrentWidget(view)
    assert window.statusBar().currentMessage() == "Campaigns: 2 loaded, 1 active."
    window.close()


def test_not_clean_audit_still_asks(
    qtbot: Any, runner: TaskRunner, make_session: SessionFactory
) -> None:
    from app.api.scope import Scope

    session = make_session(TOKEN)
    winback = next(c for c in session.api.campaigns() if c.name == "Old Winback")
    session.api.insert_lead(session.api.insert_list("Winback list", winback.id), "2025550150")
    session.api.insert_dnc("2025550150", "1", Scope.global_(), reason="asked")
    view = loaded_view(qtbot, runner, session)
    view.select_campaign(winback.id)
    with qtbot.waitSignal(view.campaigns_loaded, timeout=TIMEOUT):
        view.audit_button.click()
    assert rows(view)["Old Winback"][2] == "NOT clean: 1 conflict"
    view.activate_button.click()
    qtbot.waitUntil(lambda: isinstance(view.dialog, GateDialog), timeout=TIMEOUT)
    assert "was not clean: 1 conflict." in view.dialog.message.text()
    assert "NOT clean: 1 conflict" in view.dialog.last_label.text()
    view.dialog.reject()
    assert not _active(session.api, "Old Winback")
