"""HealthView: seeded findings with their entries, cross-list gaps, and the redundant-copy fix."""

from __future__ import annotations

from typing import Any

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.bulk_progress import BulkProgressDialog
from app.ui.health_fix_dialog import HealthFixDialog
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
    # With its country code, as the CLI's health names it (bb16 M7).
    assert view.entry_model.index(0, 1).data() == "+15550123"
    assert "US number" in view.entry_model.index(0, 7).data()  # the finding's "why"
    qtmodeltester.check(view.entry_model)
    assert view.select_finding("DNC", "redundant")
    assert view.fix_button.isEnabled()
    assert sorted(view.entry_model.index(r, 1).data() for r in range(2)) == [
        "+12025550101",
        "+12025550109",
    ]


def _open_fix(qtbot: Any, view: HealthView) -> HealthFixDialog:
    view.select_finding("DNC", "redundant")
    view.fix_button.click()
    dialog = view.dialog
    assert isinstance(dialog, HealthFixDialog)
    qtbot.waitExposed(dialog)
    return dialog


def _age(sandbox: Any, number: str, camp: str, when: str) -> None:
    sandbox.store.execute(
        "UPDATE dnc SET insert_date = ? WHERE phone_number = ? AND campaign_id = ?",
        (when, number, camp),
    )


def test_redundant_fix_removes_the_campaign_copies(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    camp = _seed(session.api, sandbox)
    _age(sandbox, "2025550101", camp, "2019-01-02 03:04:05")
    _age(sandbox, "2025550109", camp, "2020-05-06 07:08:09")
    view = _checked(qtbot, runner, session)
    dialog = _open_fix(qtbot, view)
    # bb3 F6: each entry with its reason and date, beside the global entry covering it.
    lines = dialog.numbers.toPlainText().splitlines()
    assert len(lines) == 2
    line = next(x for x in lines if "202-555-0101" in x or "(202) 555-0101" in x)
    assert f"Spring Renewals ({camp})" in line
    assert "reason 'dup', inserted 2019-01-02 03:04:05" in line
    assert "covered by global id" in line and "reason 'asked'" in line
    assert not dialog.warnings  # both older than five years, no passing global reason
    # No removal without a reason; Enter does not confirm.
    assert not dialog.ok_button.isEnabled() and "a reason" in dialog.missing.text()
    qtbot.keyClicks(dialog.reason_edit, "Copies of global entries")
    assert dialog.ok_button.isEnabled() and dialog.ok_button.text() == "Remove 2"
    with qtbot.waitSignal(view.check_finished, timeout=TIMEOUT):
        with qtbot.waitSignal(view.fix_finished, timeout=TIMEOUT) as blocker:
            dialog.ok_button.click()
            progress = view.dialog
            assert isinstance(progress, BulkProgressDialog)
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
    deletes = session.journal.query(operation="dnc.delete")
    assert [e.outcome for e in deletes if e.phase == "outcome"] == ["ok", "ok"]
    notes = [e.note for e in deletes if e.phase == "intent"]
    assert len(notes) == 2 and all(n.startswith("Copies of global entries (") for n in notes)
    # The check ran again: the finding is gone.
    assert "DNC | Campaign entries the global scope already covers" not in _titles(view)


def test_young_entries_are_left_out_unless_ticked_in_with_the_five_year_warning(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    # bb3 F6: a fresh campaign request was deleted after one Yes/No because a global
    # "Wrong number" entry existed.
    camp = _seed(session.api, sandbox)
    _age(sandbox, "2025550109", camp, "2019-01-02 03:04:05")
    session.api.insert_dnc("2014774255", "1", Scope.global_(), reason="Wrong number")
    session.api.insert_dnc(
        "2014774255", "1", Scope.campaign(camp), reason="Consumer: never call, 11/20"
    )
    view = _checked(qtbot, runner, session)
    dialog = _open_fix(qtbot, view)
    warning = dialog.warning_label.text()
    assert "2 entries are younger than five years" in warning
    assert "47 CFR 64.1200(d)(6)" in warning
    assert "reason 'Wrong number'" in warning and "reassigned" in warning
    assert dialog.young_check.isVisibleTo(dialog) and not dialog.young_check.isChecked()
    assert "2 entries younger than five years will be left on the list" in (dialog.left_out.text())
    qtbot.keyClicks(dialog.reason_edit, "Old copies only")
    assert dialog.ok_button.text() == "Remove 1"
    with qtbot.waitSignal(view.check_finished, timeout=TIMEOUT):
        with qtbot.waitSignal(view.fix_finished, timeout=TIMEOUT) as blocker:
            dialog.ok_button.click()
            progress = view.dialog
            assert isinstance(progress, BulkProgressDialog)
    assert [(r.entry.phone_number, r.outcome) for r in blocker.args[0]] == [("2025550109", "ok")]
    assert "2 younger than five years left on the list, as chosen" in progress.label.text()
    left = session.api.search_dnc(DncQuery(scope=Scope.campaign(camp))).items
    assert sorted(e.phone_number for e in left) == ["2014774255", "2025550101", "2025550102"]

    # Ticked in explicitly, the young ones go too.
    view.select_finding("DNC", "redundant")
    dialog = _open_fix(qtbot, view)
    assert not dialog.ok_button.isEnabled()
    assert "every entry is younger than five years" in dialog.missing.text()
    dialog.young_check.setChecked(True)
    qtbot.keyClicks(dialog.reason_edit, "Consumer asked twice; global covers it")
    assert dialog.ok_button.text() == "Remove 2"
    with qtbot.waitSignal(view.fix_finished, timeout=TIMEOUT) as blocker:
        dialog.ok_button.click()
    assert sorted(r.outcome for r in blocker.args[0]) == ["ok", "ok"]


def test_many_removals_are_confirmed_by_typing_their_count(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    # As the Delete dialog: over 100 entries, the count must be typed.
    camp = {c.name: c.id for c in session.api.campaigns()}["Spring Renewals"]
    numbers = [f"20255{n:05d}" for n in range(30000, 30101)]
    sandbox.bulk_seed_dnc([(n, "1", "0", "asked", "") for n in numbers])
    sandbox.bulk_seed_dnc([(n, "1", camp, "dup", "") for n in numbers])
    sandbox.store.execute("UPDATE dnc SET insert_date = '2019-01-02 03:04:05'")
    view = _checked(qtbot, runner, session)
    dialog = _open_fix(qtbot, view)
    qtbot.keyClicks(dialog.reason_edit, "Copies of global entries")
    assert dialog.confirm_edit.isVisibleTo(dialog)
    assert not dialog.ok_button.isEnabled()
    assert "the count (101) typed to confirm" in dialog.missing.text()
    qtbot.keyClicks(dialog.confirm_edit, "101")
    assert dialog.ok_button.isEnabled() and dialog.ok_button.text() == "Remove 101"
    dialog.reject()


def test_declined_fix_changes_nothing(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    camp = _seed(session.api, sandbox)
    view = _checked(qtbot, runner, session)
    dialog = _open_fix(qtbot, view)
    qtbot.keyClicks(dialog.reason_edit, "changed my mind")
    dialog.reject()
    assert view.dialog is None
    assert len(session.api.search_dnc(DncQuery(scope=Scope.campaign(camp))).items) == 3
    assert session.journal.query(operation="dnc.delete") == []


def test_cross_list_gaps_name_the_campaign(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    # bb3 F2: "campaign:1001" where the rest of the window says the campaign's name.
    camp = _seed(session.api, sandbox)
    view = _checked(qtbot, runner, session)
    titles = _titles(view)
    assert titles[f"Both | Spring Renewals ({camp}): on the DNC list, not on the SMS opt-out list"]
    assert not any(f"campaign:{camp}" in t for t in titles)


def test_a_list_of_one_entry_is_counted_as_one(
    qtbot: Any, runner: TaskRunner, session: Session
) -> None:
    session.api.insert_dnc("2025550101", "1", Scope.global_(), reason="asked")
    view = _checked(qtbot, runner, session)
    text = view.summary.text()
    assert "DNC: 1 of 1 entry checked" in text and "of 0 entries checked" in text
