"""Bulk removal from the GUI against the sandbox: pasted numbers and a file, lead re-status with
the picker's warnings, outcomes on the result page, leads re-statused in the service."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from PySide6.QtWidgets import QFileDialog, QWizard

from app.core.journal import current_actor
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.bulk_removal_dialog import BulkRemovalDialog, pasted_numbers
from app.ui.job_progress import job_registry
from app.ui.tasks import TaskRunner
from tests.core.test_sheet_hidden_rows import filtered_review

TIMEOUT = 20_000


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    for handle in job_registry().handles:
        handle.cancel()
    r.cancel_all()
    r.wait()


def seed(sandbox: Any, session: Session) -> None:
    campaign = session.api.campaigns()[0].id
    sandbox.bulk_seed_dnc([(f"20255500{i:02d}", "1", "0", "", "") for i in range(6)])
    list_id = session.api.insert_list("Removal test list", campaign)
    sandbox.bulk_seed_leads(list_id, [("2025550001", "1", "", ""), ("2025550099", "1", "", "")])


def dialog_for(qtbot: Any, session: Session, runner: TaskRunner) -> BulkRemovalDialog:
    dialog = BulkRemovalDialog(session, runner, AppPaths.default())
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def wait_read(qtbot: Any, dialog: BulkRemovalDialog) -> None:
    """The file's sheets are read off the GUI thread; the wizard goes on only after that."""
    qtbot.waitUntil(dialog.source_page.isComplete, timeout=TIMEOUT)


def test_pasted_numbers_removed_and_leads_restatused(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    seed(sandbox, session)
    dialog = dialog_for(qtbot, session, runner)
    source = dialog.source_page
    source.paste_radio.setChecked(True)
    assert not source.isComplete()
    source.paste_edit.setPlainText("(202) 555-0001\t extra cell\n2025550002\n\n2025550077\nnope\n")
    assert source.count_label.text() == "4 numbers pasted"
    dialog.next()
    options = dialog.options_page
    assert options.name_edit.text() == "Removal of pasted numbers"
    assert not options.isComplete() and "a reason" in options.missing.text()
    options.reason_edit.setText("Court order 2025-17")
    assert options.isComplete()
    options.restatus_check.setChecked(True)
    assert not options.isComplete()  # a status must be chosen
    options.picker.search_edit.setText("DNC")  # an empty box lists nothing (B36 F1)
    qtbot.waitUntil(lambda: "DNC" in [s.status for s in options.picker.statuses()], timeout=TIMEOUT)
    assert options.picker.select("DNC")
    # The same warning as a single delete: DNC has dnc=Y.
    assert "dnc=Y" in options.status_warning.text() and options.status_warning.isVisibleTo(options)
    assert options.isComplete()
    with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT) as finished:
        dialog.next()  # "Remove numbers"
    summary = finished.args[0]
    assert (summary["removed"], summary["not_found"], summary["invalid"]) == (2, 1, 1)
    left = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
    assert left == {"2025550000", "2025550003", "2025550004", "2025550005"}
    statuses = {r["phone_number"]: r["status"] for r in sandbox.store.all("SELECT * FROM leads")}
    assert statuses["2025550001"] == "DNC" and statuses["2025550099"] != "DNC"
    qtbot.waitUntil(lambda: dialog.currentId() == dialog.PAGE_RESULT, timeout=TIMEOUT)
    shown = dialog.result_page.value_labels
    assert shown["removed"].text() == "2" and shown["not_found"].text() == "1"
    intents = [e for e in session.journal.query(job=summary["job"]) if e.phase == "intent"]
    # The number not on the list was looked up; no delete was sent (nor journaled) for it.
    assert len(intents) == 2
    assert all(e.note.startswith("Court order 2025-17 (row ") for e in intents)
    assert all(len(e.before["entries"]) == 1 for e in intents)  # what each delete took off
    # The job's start names the version of the file its rows were read from (bb5 F3).
    (start,) = session.journal.query(operation="job.start", job=summary["job"])
    source = Path(start.after["file"]).read_bytes()
    assert start.after["file_sha256"] == hashlib.sha256(source).hexdigest()
    assert start.after["file_size"] == len(source) and start.actor == current_actor()
    report = Path(summary["report"])
    assert report.is_file()
    # Named as the job is in the Jobs tab (it had a time and a suffix of its own: bb1 F9).
    assert report.parent == AppPaths.default().reports_dir and report.stem == summary["job"]


def test_file_of_numbers_without_restatus(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    seed(sandbox, session)
    before = {r["phone_number"]: r["status"] for r in sandbox.store.all("SELECT * FROM leads")}
    file = tmp_path / "remove.csv"
    file.write_text("Phone\n2025550001\n2025550005\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: (str(file), "")))
    dialog = dialog_for(qtbot, session, runner)
    dialog.source_page.browse_button.click()
    assert dialog.source_page.path_edit.text() == str(file)
    wait_read(qtbot, dialog)
    dialog.next()
    dialog.options_page.reason_edit.setText("Consumer asked to be called again, ticket 9")
    # The numbers in the file are counted off the GUI thread before the removal can start.
    qtbot.waitUntil(lambda: dialog.options_page.count == 2, timeout=TIMEOUT)
    assert dialog.options_page.count_label.text() == "2 to remove"
    assert not dialog.options_page.confirm_edit.isVisibleTo(dialog.options_page)
    with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT) as finished:
        dialog.next()
    assert finished.args[0]["removed"] == 2
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 4
    after = {r["phone_number"]: r["status"] for r in sandbox.store.all("SELECT * FROM leads")}
    assert after == before


def test_purpose_scope_blank_removes_every_purpose_and_named_one_keeps_others(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    # 2025550001 is listed for two purposes, 2025550002 for one. Named "Surveys": only the
    # number with no other purpose goes. Blank: every purpose of the number goes.
    sandbox.bulk_seed_dnc(
        [
            ("2025550001", "1", "-1", "", "Surveys"),
            ("2025550001", "1", "-1", "", "Marketing"),
            ("2025550002", "1", "-1", "", "Surveys"),
        ]
    )

    def remove(purpose: str) -> dict[str, Any]:
        dialog = dialog_for(qtbot, session, runner)
        dialog.source_page.paste_radio.setChecked(True)
        dialog.source_page.paste_edit.setPlainText("2025550001\n2025550002\n")
        dialog.next()
        options = dialog.options_page
        options.scope_combo.setCurrentIndex(options.scope_combo.findData("purpose"))
        assert options.purpose_warning.isVisibleTo(options)
        assert "leave the purpose blank" in options.purpose_warning.text()
        options.purpose_edit.setText(purpose)
        options.reason_edit.setText("Consumer asked, ticket 12")
        assert options.isComplete(), options.missing.text()
        with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT) as finished:
            dialog.next()
        return dict(finished.args[0])

    def left() -> set[tuple[str, str]]:
        rows = sandbox.store.all("SELECT phone_number, purpose FROM dnc")
        return {(r["phone_number"], r["purpose"]) for r in rows}

    named = remove("Surveys")
    assert (named["removed"], named["failed"]) == (1, 1)
    assert left() == {("2025550001", "Surveys"), ("2025550001", "Marketing")}
    every = remove("")
    assert every["removed"] == 1 and every["not_found"] == 1
    assert left() == set()


@pytest.mark.parametrize("include", [False, True])
def test_hidden_rows_stay_unless_the_box_is_ticked(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    include: bool,
) -> None:  # fmt: skip
    # Four of six rows are filtered out in the file: they stay on the list (and out of the
    # count) unless the officer ticks the box.
    file = filtered_review(tmp_path / "review.xlsx")
    sandbox.bulk_seed_dnc([(f"20255560{i:02d}", "1", "0", "", "") for i in range(6)])
    dialog = dialog_for(qtbot, session, runner)
    dialog.source_page.path_edit.setText(str(file))
    assert not dialog.source_page.hidden_check.isChecked()
    dialog.source_page.hidden_check.setChecked(include)
    wait_read(qtbot, dialog)
    dialog.next()
    options = dialog.options_page
    options.reason_edit.setText("Reviewed list, ticket 31")
    qtbot.waitUntil(lambda: options.count == (6 if include else 2), timeout=TIMEOUT)
    with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT) as finished:
        dialog.next()
    summary = finished.args[0]
    assert summary["removed"] == (6 if include else 2)
    assert summary["not_attempted"] == (0 if include else 4)
    left = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
    assert left == (set() if include else {f"20255560{i:02d}" for i in range(2, 6)})


def test_the_count_is_of_the_sheet_the_removal_reads(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    # A vendor's instructions sheet comes first; the numbers are on the second sheet, under
    # 69 blank rows. The count asked for must be of the rows the removal sends.
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in ("2025550001", "2025550002")])
    wb = openpyxl.Workbook()
    instructions = wb.active
    assert instructions is not None
    instructions.title = "Instructions"
    instructions.append(["Please remove the numbers on the next sheet."])
    numbers = wb.create_sheet("Numbers")
    numbers["A70"] = "Phone"
    for row, number in enumerate(("2025550001", "2025550002", "2025550077"), 71):
        numbers.cell(row=row, column=1, value=number)
    file = tmp_path / "vendor.xlsx"
    wb.save(file)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: (str(file), "")))
    dialog = dialog_for(qtbot, session, runner)
    dialog.source_page.browse_button.click()
    wait_read(qtbot, dialog)
    # The sheet offered first is the one staging reads, not the first sheet with data.
    assert dialog.source_page.sheet_combo.currentData() == "Numbers"
    dialog.next()
    options = dialog.options_page
    options.reason_edit.setText("Vendor file 14")
    qtbot.waitUntil(lambda: options.count is not None, timeout=TIMEOUT)
    assert options.count == 3 and options.count_label.text() == "3 to remove"
    assert options.count_source_label.text() == "on sheet 'Numbers' of vendor.xlsx"
    with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT) as finished:
        dialog.next()
    summary = finished.args[0]
    assert (summary["removed"], summary["not_found"], summary["invalid"]) == (2, 1, 0)


def test_campaign_column_ids_are_checked_against_the_service(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    campaign = session.api.campaigns()[0].id
    sandbox.bulk_seed_dnc([(n, "1", campaign, "", "") for n in ("2025550001", "2025550002")])
    file = tmp_path / "remove.csv"
    file.write_text(f"Phone,Campaign\n2025550001,{campaign}\n2025550002,99999\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: (str(file), "")))
    dialog = dialog_for(qtbot, session, runner)
    dialog.source_page.browse_button.click()
    wait_read(qtbot, dialog)
    dialog.next()
    dialog.options_page.reason_edit.setText("Vendor file 12")
    dialog.options_page.per_row_check.setChecked(True)  # the file's Campaign column decides
    qtbot.waitUntil(lambda: dialog.options_page.count == 2, timeout=TIMEOUT)
    with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT) as finished:
        dialog.next()
    summary = finished.args[0]
    # The unknown campaign is refused before sending, not a failed request.
    assert (summary["removed"], summary["invalid"], summary["failed"]) == (1, 1, 0)
    left = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
    assert left == {"2025550002"}


def test_a_campaign_column_does_not_decide_the_scope_unless_asked(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    campaign = session.api.campaigns()[0].id
    sandbox.bulk_seed_dnc([("2025550001", "1", campaign, "", ""), ("2025550001", "1", "0", "", "")])
    file = tmp_path / "remove.csv"
    file.write_text(f"Phone,Campaign\n2025550001,{campaign}\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: (str(file), "")))
    dialog = dialog_for(qtbot, session, runner)
    dialog.source_page.browse_button.click()
    wait_read(qtbot, dialog)
    dialog.next()
    dialog.options_page.reason_edit.setText("Vendor file 13")  # the scope stays Global
    assert not dialog.options_page.per_row_check.isChecked()
    qtbot.waitUntil(lambda: dialog.options_page.count == 1, timeout=TIMEOUT)
    with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT) as finished:
        dialog.next()
    summary = finished.args[0]
    # The row names campaign X, the removal is global: invalid, and both entries stay.
    assert (summary["removed"], summary["invalid"]) == (0, 1)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 2


def test_more_than_a_hundred_numbers_need_the_count_typed(
    qtbot: Any, runner: TaskRunner, session: Session
) -> None:
    dialog = dialog_for(qtbot, session, runner)
    dialog.source_page.paste_radio.setChecked(True)
    dialog.source_page.paste_edit.setPlainText("\n".join(f"2025550{n:03d}" for n in range(101)))
    dialog.next()
    options = dialog.options_page
    options.reason_edit.setText("Vendor file sent in error")
    assert options.count == 101
    assert options.confirm_edit.isVisibleTo(options)
    assert not options.isComplete()
    assert "the count (101) typed to confirm" in options.missing.text()
    options.confirm_edit.setText("100")
    assert not options.isComplete()
    options.confirm_edit.setText("101")
    assert options.isComplete()


def test_a_removal_cannot_start_until_it_says_why(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    # The reason is the job's note (as `dnc-desk remove --note`, required there too): kept in
    # the report and the change journal, so a regulator asking why each number was taken off
    # the list gets an answer. Blank, spaces or invisible characters alone do not say why.
    seed(sandbox, session)
    dialog = dialog_for(qtbot, session, runner)
    dialog.source_page.paste_radio.setChecked(True)
    dialog.source_page.paste_edit.setPlainText("2025550001\n2025550002\n")
    dialog.next()
    options = dialog.options_page
    commit = dialog.button(QWizard.WizardButton.CommitButton)
    assert commit.isVisible() and commit.text() == "&Remove numbers"
    for blank in ("", "   ", "\u200b\u200e "):
        options.reason_edit.setText(blank)
        assert not commit.isEnabled(), repr(blank)
        assert options.missing.text() == "Still needed: a reason."
        dialog.next()  # told to go on anyway: refused, nothing staged or sent
        assert dialog.currentId() == dialog.PAGE_OPTIONS and dialog.handle is None
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 6
    options.reason_edit.setText("  Consumer asked by phone, ticket 4471 (J. Doe)  ")
    assert commit.isEnabled() and options.missing.text() == ""
    with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT) as finished:
        commit.click()
    summary = finished.args[0]
    note = "Consumer asked by phone, ticket 4471 (J. Doe)"
    assert (summary["removed"], summary["note"]) == (2, note)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 4
    intents = [e for e in session.journal.query(job=summary["job"]) if e.phase == "intent"]
    assert len(intents) == 2 and all(e.note.startswith(f"{note} (row ") for e in intents)


def test_pasted_column_parsing() -> None:
    assert pasted_numbers(" 202 555 0143 \r\n\n+44 20 7946 0958\tUK\n") == [
        "202 555 0143",
        "+44 20 7946 0958",
    ]


def test_one_number_pasted_is_counted_as_one(
    qtbot: Any, runner: TaskRunner, session: Session
) -> None:
    source = dialog_for(qtbot, session, runner).source_page
    source.paste_radio.setChecked(True)
    source.paste_edit.setPlainText("2025550001\n")
    assert source.count_label.text() == "1 number pasted"
    source.paste_edit.setPlainText("2025550001\n2025550002\n")
    assert source.count_label.text() == "2 numbers pasted"
