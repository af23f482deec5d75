"""The DNC removal confirmation: what it lists, what it warns about, what it requires."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from app.api.client import ApiClient, DncQuery
from app.api.models import DncEntry
from app.api.scope import Scope
from app.core.session import Session
from app.ui.delete_dialog import DeleteDialog
from app.ui.tasks import TaskRunner

TIMEOUT = 10_000


def _dialog(
    qtbot: Any, entries: list[DncEntry], session: Session, runner: TaskRunner, api: ApiClient
) -> DeleteDialog:
    dialog = DeleteDialog(entries, session, runner, api.campaigns())
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def show(qtbot: Any, dialog: DeleteDialog, code: str) -> None:
    """Search the picker for ``code`` and wait until it is listed."""
    dialog.picker.search_edit.setText(code)
    qtbot.waitUntil(lambda: code in [s.status for s in dialog.picker.statuses()], timeout=TIMEOUT)


def test_lists_count_scopes_numbers_and_requires_a_reason(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session
) -> None:
    spring = next(c for c in api.campaigns() if c.name == "Spring Renewals")
    api.insert_dnc("2025550143", "1", Scope.global_())
    api.insert_dnc("2025550144", "1", Scope.global_())
    api.insert_dnc("2025550145", "1", Scope.campaign(spring.id))
    entries = list(api.iter_dnc(DncQuery()))
    dialog = _dialog(qtbot, entries, session, runner, api)
    assert dialog.windowTitle() == "Remove 3 DNC entries"
    assert "Remove 3 entries" in dialog.summary.text()
    assert dialog.scopes.text() == "Scopes — Global: 2; Spring Renewals: 1"
    listed = dialog.numbers.toPlainText().splitlines()
    assert listed[0].startswith("(202) 555-0143  (+1 2025550143)  Global")
    assert len(listed) == 3
    assert not dialog.confirm_edit.isVisibleTo(dialog)
    assert not dialog.ok_button.isEnabled()
    assert "a reason" in dialog.missing.text()
    dialog.accept()
    assert dialog.plan is None and dialog.isVisible()
    qtbot.keyClicks(dialog.reason_edit, "Consent obtained in writing")
    assert dialog.ok_button.isEnabled() and dialog.missing.text() == ""
    dialog.accept()
    assert dialog.plan is not None
    assert dialog.plan.reason == "Consent obtained in writing"
    assert dialog.plan.entries == tuple(entries) and dialog.plan.lead_status is None


def test_five_year_warning_names_how_many(
    qtbot: Any, runner: TaskRunner, sandbox: Any, api: ApiClient, session: Session
) -> None:
    for i in range(4):
        api.insert_dnc(f"20255501{i:02d}", "1", Scope.global_())
    old = (datetime.now() - timedelta(days=5 * 366)).strftime("%Y-%m-%d %H:%M:%S")
    sandbox.store.execute(
        "UPDATE dnc SET insert_date = ? WHERE phone_number IN (?, ?)",
        (old, "2025550100", "2025550101"),
    )
    entries = list(api.iter_dnc(DncQuery()))
    dialog = _dialog(qtbot, entries, session, runner, api)
    assert dialog.warnings[0] == (
        "2 of these entries are younger than five years. US rules (47 CFR 64.1200(d)(6)) require "
        "a do-not-call request to be honored for five years from when it was made."
    )
    assert dialog.warning_label.isVisibleTo(dialog)
    only_old = _dialog(qtbot, entries[:2], session, runner, api)
    assert only_old.warnings == []
    assert not only_old.warning_label.isVisibleTo(only_old)
    # One entry picked (GUI review B8 #2: "1 of these entry is younger ...").
    young = next(e for e in entries if e.phone_number == "2025550102")
    one = _dialog(qtbot, [young], session, runner, api)
    assert one.warnings[0].startswith("This entry is younger than five years. US rules")


def test_purpose_entries_are_explained(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session
) -> None:
    api.insert_dnc("2025550143", "1", Scope.purpose("Surveys"))
    entries = list(api.iter_dnc(DncQuery()))
    dialog = _dialog(qtbot, entries, session, runner, api)
    assert any("removes a number's entry for every purpose" in w for w in dialog.warnings)
    assert "Purpose: Surveys: 1" in dialog.scopes.text()


def test_more_than_100_needs_the_count_typed(
    qtbot: Any, runner: TaskRunner, sandbox: Any, api: ApiClient, session: Session
) -> None:
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", "0", "", "") for i in range(101))
    entries = list(api.iter_dnc(DncQuery()))
    dialog = _dialog(qtbot, entries, session, runner, api)
    assert dialog.needs_typed_count and dialog.confirm_edit.isVisibleTo(dialog)
    qtbot.keyClicks(dialog.reason_edit, "Bulk correction")
    assert not dialog.ok_button.isEnabled()
    assert "the count (101) typed to confirm" in dialog.missing.text()
    qtbot.keyClicks(dialog.confirm_edit, "100")
    assert not dialog.ok_button.isEnabled()
    dialog.confirm_edit.clear()
    qtbot.keyClicks(dialog.confirm_edit, "101")
    assert dialog.ok_button.isEnabled()
    hundred = _dialog(qtbot, entries[:100], session, runner, api)
    assert not hundred.needs_typed_count
    qtbot.keyClicks(hundred.reason_edit, "Bulk correction")
    assert hundred.ok_button.isEnabled()


def test_status_picker_warns_about_dnc_and_final_statuses(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session
) -> None:
    api.insert_dnc("2025550143", "1", Scope.global_())
    entries = list(api.iter_dnc(DncQuery()))
    dialog = _dialog(qtbot, entries, session, runner, api)
    qtbot.keyClicks(dialog.reason_edit, "Consent")
    assert not dialog.picker.isEnabled()
    dialog.restatus_check.setChecked(True)
    assert not dialog.ok_button.isEnabled()
    assert "the lead status to set" in dialog.missing.text()
    # An empty box lists nothing (B36 F1): each status is searched for.
    show(qtbot, dialog, "DNC")
    codes = [s.status for s in dialog.picker.statuses()]
    swatch = dialog.picker.model.item(codes.index("DNC"), 0).data(1)  # DecorationRole
    assert swatch is not None and not swatch.isNull()
    assert dialog.picker.model.item(codes.index("DNC"), 2).text() == "final, reached, dnc, contact"

    assert dialog.picker.select("DNC")
    warning = dialog.status_warning_text()
    assert "leads would go straight back on a DNC list" in warning
    assert "final dispositions cannot be changed after assignment" in warning
    assert dialog.ok_button.isEnabled()  # a warning, not a refusal

    show(qtbot, dialog, "SALE")
    assert dialog.picker.select("SALE")
    assert "straight back" not in dialog.status_warning_text()
    assert "final dispositions" in dialog.status_warning_text()

    show(qtbot, dialog, "NEW")
    assert dialog.picker.select("NEW")
    assert dialog.status_warning_text() == ""
    dialog.accept()
    assert dialog.plan is not None and dialog.plan.lead_status is not None
    assert dialog.plan.lead_status.status == "NEW"


def test_status_picker_searches_the_service(
    qtbot: Any, runner: TaskRunner, api: ApiClient, session: Session
) -> None:
    api.insert_dnc("2025550143", "1", Scope.global_())
    dialog = _dialog(qtbot, list(api.iter_dnc(DncQuery())), session, runner, api)
    dialog.restatus_check.setChecked(True)
    qtbot.keyClicks(dialog.picker.search_edit, "back")
    qtbot.waitUntil(
        lambda: [s.status for s in dialog.picker.statuses()] == ["CALLBK"], timeout=TIMEOUT
    )
