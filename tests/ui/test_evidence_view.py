"""EvidenceView: one number's entries, leads, journal history and snapshots, and the export."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from python_calamine import CalamineWorkbook

from app.api.scope import Scope
from app.core.audit_types import ListKind
from app.core.evidence import EvidencePack
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.snapshots import take_snapshot
from app.ui.evidence_view import EvidenceView
from app.ui.tasks import TaskRunner

TIMEOUT = 20_000


def _column(model: Any, column: int) -> list[str]:
    return [model.index(r, column).data() for r in range(model.rowCount())]


def test_evidence_lists_everything_and_exports(
    qtbot: Any,
    qtmodeltester: Any,
    runner: TaskRunner,
    session: Session,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    api = session.api
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    list_id = api.insert_list("Evidence list", camp)
    snapshots = AppPaths.default().snapshots_dir
    take_snapshot(api, ListKind.DNC, None, snapshots, connection="Test")  # before: not listed
    session.insert_dnc("2025550123", "1", Scope.global_(), reason="consumer called")
    session.insert_sms("2025550123", "1", Scope.campaign(camp), reason="STOP")
    take_snapshot(api, ListKind.DNC, None, snapshots, connection="Test")  # after: listed
    lead = api.insert_lead(list_id, "(202) 555-0123", first_name="Ann", status="DNC")
    api.insert_lead(list_id, "2025550124")  # a neighbour, not a hit

    view = EvidenceView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.show()
    view.set_session(session)
    assert not view.export_button.isEnabled()
    qtbot.keyClicks(view.number_edit, "202.555.0123")
    with qtbot.waitSignal(view.evidence_ready, timeout=TIMEOUT) as blocker:
        qtbot.keyClick(view.number_edit, Qt.Key.Key_Return)
    pack = blocker.args[0]
    assert isinstance(pack, EvidencePack) and pack.e164 == "+12025550123"
    assert _column(view.dnc_model, 3) == ["Global"]
    assert _column(view.dnc_model, 5) == ["consumer called"]
    # Headed as the pack's sheets head it: the service's clock, whose zone is not given.
    for model in (view.dnc_model, view.sms_model):
        header = model.headerData(6, Qt.Orientation.Horizontal)
        assert header == "Insert date (service's clock)"
    assert _column(view.sms_model, 5) == ["STOP"]
    assert _column(view.lead_model, 0) == [lead]
    assert _column(view.lead_model, 5) == ["DNC"]
    assert _column(view.lead_model, 6) == ["Do Not Call"]
    assert set(_column(view.journal_model, 3)) == {"dnc.insert", "sms.insert"}
    assert view.journal_model.rowCount() == 4  # two writes, intent + outcome each
    assert _column(view.snapshot_model, 3) == ["no", "yes"]
    for model in (view.dnc_model, view.lead_model, view.journal_model, view.snapshot_model):
        qtmodeltester.check(model)
    text = view.summary.text()
    assert "+12025550123" in text and "1 DNC entry (global)" in text
    assert "listed in 1 of 2 saved snapshots" in text

    target = tmp_path / "pack.xlsx"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), ""))
    )
    with qtbot.waitSignal(view.busy_changed, check_params_cb=lambda on: not on, timeout=TIMEOUT):
        view.export_button.click()
    book = CalamineWorkbook.from_path(str(target))
    assert book.sheet_names == ["Summary", "DNC", "SMS opt-out", "Leads", "Journal", "Snapshots"]
    summary = dict(r[:2] for r in book.get_sheet_by_name("Summary").to_python())
    assert summary["Leads carrying it"] == 1 and summary["Journal entries"] == 4
    assert view.status_text().startswith(f"Evidence pack saved: {target}")


def test_unparseable_number_is_explained(qtbot: Any, runner: TaskRunner, session: Session) -> None:
    view = EvidenceView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.set_session(session)
    qtbot.keyClicks(view.number_edit, "12345")
    with qtbot.waitSignal(view.busy_changed, check_params_cb=lambda on: not on, timeout=TIMEOUT):
        view.lookup_button.click()
    assert "'12345' cannot be looked up" in view.summary.text()
    assert view.pack is None and not view.export_button.isEnabled()
    view.set_session(None)
    assert not view.lookup_button.isEnabled()
