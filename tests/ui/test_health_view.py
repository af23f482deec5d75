"""HealthView: seeded findings with their entries, cross-list gaps, and the redundant-copy fix."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.bulk_progress import BulkProgressDialog
from app.ui.health_view import HealthView
from app.ui.tasks import TaskRunner

TIMEOUT = 20_000


def _seed(api: ApiClient, sandbox: Any) -> str:
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    sandbox.bulk_seed_dnc(
        [
            ("2025550101", "1", "0", "asked", ""),
            ("2025550101", "1", camp, "dup", ""),  # redundant with the global entry
            ("2025550109", "1", "0", "asked", ""),
            ("2025550109", "1", camp, "dup too", ""),  # redundant as well
            ("2025550102", "1", camp, "", ""),  # blank reason
            ("5550123", "1", "0", "x", ""),  # not a valid US number
            ("2025550103", "1", "4242", "y", ""),  # campaign that does not exist
        ]
    )
    api.insert_sms("2025550107", "1", Scope.global_(), reason="STOP")
    return camp


def _titles(view: HealthView) -> dict[str, int]:
    model = view.finding_model
    return {
        f"{model.index(r, 0).data()} | {model.index(r, 1).data()}": int(model.index(r, 2).data())
        for r in range(model.rowCount())
    }


def _checked(qtbot: Any, runner: TaskRunner, session: Session) -> HealthView:
    view = HealthView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    view.set_session(session)
    with qtbot.waitSignal(view.check_finished, timeout=TIMEOUT):
        view.check_button.click()
    return view


def test_findings_are_listed_with_their_entries(
    qtbot: Any, qtmodeltester: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    _seed(session.api, sandbox)
    view = _checked(qtbot, runner, session)
    qtmodeltester.check(view.finding_model)
    titles = _titles(view)
    assert titles["DNC | Numbers not valid for their country code"] == 1
    assert titles["DNC | Campaign entries the global scope already covers"] == 2
    assert titles["DNC | Entries for campaigns that no longer exist"] == 1
    assert titles["DNC | Entries without a reason"] == 1
    assert titles["Both | global: on the SMS opt-out list, not on the DNC list"] == 1
    assert "DNC: 7 of 7 entries checked" in view.summary.text()
    assert not view.fix_button.isEnabled()  # nothing selected
    assert view.select_finding("DNC", "invalid_number")
    assert not view.fix_button.isEnabled()  # no fix for this one
    assert view.entry_model.rowCount() == 1
    assert view.entry_model.index(0, 1).data() == "5550123"
    assert "US number" in view.entry_model.index(0, 7).data()  # the finding's "why"
    qtmodeltester.check(view.entry_model)
    assert view.select_finding("DNC", "redundant")
    assert view.fix_button.isEnabled()
    assert sorted(view.entry_model.index(r, 1).data() for r in range(2)) == [
        "2025550101",
        "2025550109",
    ]


def test_redundant_fix_removes_the_campaign_copies(
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    camp = _seed(session.api, sandbox)
    view = _checked(qtbot, runner, session)
    asked: list[str] = []

    def question(_parent: Any, _title: str, text: str, *_a: Any) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    view.select_finding("DNC", "redundant")
    with qtbot.waitSignal(view.check_finished, timeout=TIMEOUT):
        with qtbot.waitSignal(view.fix_finished, timeout=TIMEOUT) as blocker:
            view.fix_button.click()
            progress = view.dialog
            assert isinstance(progress, BulkProgressDialog)
    assert "Remove 2 campaign-scoped DNC entries" in asked[0]
    rows = blocker.args[0]
    assert sorted(r.outcome for r in rows) == ["ok", "ok"]
    assert "Removed 2 of 2 redundant campaign entries" in progress.label.text()
    api = session.api
    campaign_left = api.search_dnc(DncQuery(scope=Scope.campaign(camp))).items
    assert [e.phone_number for e in campaign_left] == ["2025550102"]
    assert {e.phone_number for e in api.search_dnc(DncQuery(scope=Scope.global_())).items} == {
        "2025550101",
        "2025550109",
        "5550123",
    }
    deletes = [e for e in session.journal.query(operation="dnc.delete") if e.phase == "outcome"]
    assert [e.outcome for e in deletes] == ["ok", "ok"]
    # The check ran again: the finding is gone.
    assert "DNC | Campaign entries the global scope already covers" not in _titles(view)


def test_declined_fix_changes_nothing(
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    camp = _seed(session.api, sandbox)
    view = _checked(qtbot, runner, session)
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.No)
    )
    view.select_finding("DNC", "redundant")
    view.fix_button.click()
    assert view.dialog is None
    assert len(session.api.search_dnc(DncQuery(scope=Scope.campaign(camp))).items) == 3
    assert session.journal.query(operation="dnc.delete") == []


def test_a_list_of_one_entry_is_counted_as_one(
    qtbot: Any, runner: TaskRunner, session: Session
) -> None:
    session.api.insert_dnc("2025550101", "1", Scope.global_(), reason="asked")
    view = _checked(qtbot, runner, session)
    text = view.summary.text()
    assert "DNC: 1 of 1 entry checked" in text and "of 0 entries checked" in text
