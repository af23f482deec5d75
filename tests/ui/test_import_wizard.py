"""The import wizard driven end to end against the sandbox: file → mapping → target → check
(counts, problem rows, a fix in place) → run (pause/resume) → result, report on disk."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.core.paths import AppPaths
from app.core.session import Session
from app.core.sheet_mapping import Role
from app.ui.import_pages_source import HEADER_COLOR
from app.ui.import_wizard import ImportWizard
from app.ui.job_progress import job_registry
from app.ui.list_view import EntryListView, ListKind
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


def opt_out_file(path: Path) -> Path:
    """Six good numbers, one repeated, two invalid, damaged cells, a blank row."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Opt-out requests received by the vendor"])
    ws.append([])
    ws.append(["Phone", "Reason"])
    for i in range(6):
        ws.append([f"(202) 555-01{i:02d}", "Customer request"])  # rows 4-9
    ws.append(["(202) 555-0100", "again"])  # 10: duplicate of row 4
    ws.append(["12345", "typo"])  # 11: invalid (too short)
    ws.append(["2.02555E+09", "vendor export"])  # 12: invalid, damaged (scientific notation)
    ws.append(["2025550123,0", "vendor export"])  # 13: valid, damaged (decimal comma)
    ws.append([None, None])  # 14: blank
    ws.append(["(202) 555-0150", "last"])  # 15
    wb.save(path)
    return path


def open_wizard(qtbot: Any, session: Session, runner: TaskRunner, file: Path) -> ImportWizard:
    wizard = ImportWizard(session, runner, AppPaths.default(), file)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitUntil(lambda: wizard.source_page.probe is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: bool(wizard.campaign_lookup), timeout=TIMEOUT)
    return wizard


def to_check_page(qtbot: Any, wizard: ImportWizard, note: str = "vendor file, test") -> None:
    wizard.next()
    assert wizard.currentId() == wizard.PAGE_MAPPING
    wizard.next()
    assert wizard.currentId() == wizard.PAGE_TARGET
    wizard.target_page.note_edit.setText(note)
    wizard.next()
    assert wizard.currentId() == wizard.PAGE_CHECK
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)


def counts(wizard: ImportWizard) -> dict[str, int]:
    return {
        key: int(label.text().replace(",", ""))
        for key, label in wizard.check_page.count_labels.items()
    }


def test_import_end_to_end(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    file = opt_out_file(tmp_path / "vendor.xlsx")
    chosen: list[str] = []

    def fake_open(*_args: Any) -> tuple[str, str]:
        chosen.append("asked")
        return str(file), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(fake_open))
    wizard = ImportWizard(session, runner, AppPaths.default())
    qtbot.addWidget(wizard)
    wizard.show()
    assert not wizard.source_page.isComplete()
    wizard.source_page.browse_button.click()
    assert chosen == ["asked"]
    qtbot.waitUntil(lambda: wizard.source_page.isComplete(), timeout=TIMEOUT)
    assert wizard.source_page.header_row == 3  # under a title and a blank row
    assert wizard.source_page.model.rowCount() >= 10
    qtbot.waitUntil(lambda: bool(wizard.campaign_lookup), timeout=TIMEOUT)

    wizard.next()
    mapping_page = wizard.mapping_page
    assert mapping_page.combos[Role.PHONE].currentText() == "Phone (column A)"
    assert mapping_page.combos[Role.REASON].currentText() == "Reason (column B)"
    preview = mapping_page.preview_model
    first = [preview.item(0, c).text() for c in range(preview.columnCount())]
    assert first[0] == "4" and first[2] == "+1 (202) 555-0100" and first[4] == "valid"
    verdicts = [preview.item(r, 4).text() for r in range(preview.rowCount())]
    assert "duplicate of row 4" in verdicts
    assert any("scientific notation" in v for v in verdicts)
    # Choosing "not in the file" for the phone column blocks the wizard, with a reason.
    mapping_page.combos[Role.PHONE].setCurrentIndex(0)
    assert not mapping_page.isComplete()
    assert "Choose the column" in mapping_page.preview_note.text()
    mapping_page.combos[Role.PHONE].setCurrentIndex(1)
    assert mapping_page.isComplete()

    wizard.next()
    target = wizard.target_page
    assert target.name_edit.text() == "Import of vendor.xlsx"
    assert not target.isComplete()  # the note is required
    target.note_edit.setText("Vendor file of 3 Nov, ticket 42")
    assert target.isComplete()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    assert counts(wizard) == {
        "rows": 12, "valid": 8, "invalid": 2, "duplicates_in_file": 1, "blank": 1,
        "damaged": 2, "late_requests": 0,
    }  # fmt: skip
    problems = wizard.check_page.model
    listed = {
        problems.item(r, 0).text(): problems.item(r, 2).text() for r in range(problems.rowCount())
    }
    assert set(listed) == {"10", "11", "12", "13"}
    assert "duplicate of row 4" in listed["10"]
    assert "too short" in listed["11"]
    assert "scientific notation" in listed["12"]
    assert "decimal" in listed["13"]

    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()  # the commit button: "Start import"
    summary = finished.args[0]
    qtbot.waitUntil(lambda: wizard.currentId() == wizard.PAGE_RESULT, timeout=TIMEOUT)
    assert (summary["status"], summary["inserted"], summary["invalid"]) == ("finished", 8, 2)
    shown = {k: int(v.text().replace(",", "")) for k, v in wizard.result_page.value_labels.items()}
    assert shown["inserted"] == 8 and shown["duplicates_in_file"] == 1 and shown["failed"] == 0
    assert shown["late_requests"] == 0
    in_service = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
    assert in_service == {f"20255501{i:02d}" for i in range(6)} | {"2025550123", "2025550150"}
    report = Path(summary["report"])
    assert report.is_file() and report.parent == AppPaths.default().reports_dir
    book = openpyxl.load_workbook(report, read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))
    assert len(rows) == 13  # header + 12 data rows
    about = dict(book["Summary"].iter_rows(values_only=True))
    assert about["Note"] == "Vendor file of 3 Nov, ticket 42" and about["inserted"] == 8
    book.close()

    opened: list[str] = []
    monkeypatch.setattr(
        "app.ui.job_progress.QDesktopServices.openUrl",
        staticmethod(lambda url: opened.append(url.toLocalFile()) or True),
    )
    wizard.result_page.open_report_button.click()
    wizard.result_page.open_folder_button.click()
    assert opened == [str(report), str(report.parent)]

    # The DNC view shows the imported rows after a refresh.
    view = EntryListView(ListKind.DNC, runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    assert view.model.rowCount() == 8


def test_fix_in_place_and_check_again(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    wizard = open_wizard(qtbot, session, runner, opt_out_file(tmp_path / "vendor.xlsx"))
    to_check_page(qtbot, wizard)
    before = counts(wizard)
    assert (before["valid"], before["invalid"]) == (8, 2)
    page = wizard.check_page
    # Double-click-edit the value of row 11 in the table.
    row = next(r for r in range(page.model.rowCount()) if page.model.item(r, 0).text() == "11")
    page.model.item(row, 1).setText("(202) 555-0111")
    assert page.fixes == {11: "(202) 555-0111"}
    assert page.recheck_button.isEnabled() and not page.isComplete()  # check again first
    page.recheck_button.click()
    qtbot.waitUntil(lambda: page.result is not None, timeout=TIMEOUT)
    after = counts(wizard)
    assert (after["valid"], after["invalid"], after["rows"]) == (9, 1, 12)
    assert page.isComplete()
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()
    assert finished.args[0]["inserted"] == 9
    assert sandbox.store.scalar("SELECT count(*) FROM dnc WHERE phone_number = '2025550111'") == 1
    book = openpyxl.load_workbook(finished.args[0]["report"], read_only=True)
    row11 = next(r for r in book["Rows"].iter_rows(values_only=True) if r[0] == 11)
    assert row11[1] == "12345" and row11[5] == "inserted"  # the file's value is kept
    assert "corrected in the import wizard" in str(row11[7])
    book.close()


def test_pause_and_resume_while_running(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "many.csv"
    path.write_text("Phone\n" + "".join(f"(202) 555-{i:04d}\n" for i in range(40)))
    sandbox.set_faults(latency_ms=80)
    wizard = open_wizard(qtbot, session, runner, path)
    wizard.next()
    wizard.next()
    wizard.target_page.note_edit.setText("pause test")
    wizard.target_page.concurrency_spin.setValue(2)
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    wizard.next()  # Start: the file is compared with its check on the runner, then it runs
    qtbot.waitUntil(lambda: wizard.currentId() == wizard.PAGE_RUN, timeout=TIMEOUT)
    run = wizard.run_page
    assert run.handle is not None
    qtbot.waitUntil(lambda: run.handle is not None and run.handle.last_progress is not None,
                    timeout=TIMEOUT)  # fmt: skip
    assert run.pause_button.isEnabled() and not run.resume_button.isEnabled()
    run.pause_button.click()
    assert run.resume_button.isEnabled() and not run.pause_button.isEnabled()
    # Requests in flight finish (at most 2); then nothing more is sent while paused.
    qtbot.waitUntil(_unchanged_for(sandbox, 0.4), timeout=5000)
    held = sandbox.store.scalar("SELECT count(*) FROM dnc")
    qtbot.wait(600)  # an observation window: the count must not move while paused
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == held < 40
    assert "paused" in run.rate_label.text() or "pausing" in run.rate_label.text()
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        run.resume_button.click()
    assert finished.args[0]["inserted"] == 40
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 40
    qtbot.waitUntil(lambda: wizard.currentId() == wizard.PAGE_RESULT, timeout=TIMEOUT)


def _unchanged_for(sandbox: Any, seconds: float) -> Callable[[], bool]:
    """A condition: the DNC count has not changed for ``seconds``."""
    seen = {"count": -1, "since": time.monotonic()}

    def check() -> bool:
        now = sandbox.store.scalar("SELECT count(*) FROM dnc")
        if now != seen["count"]:
            seen["count"], seen["since"] = now, time.monotonic()
        return time.monotonic() - seen["since"] >= seconds

    return check


def test_unreadable_file_says_why(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    bad = tmp_path / "empty.xlsx"
    bad.write_bytes(b"")
    wizard = ImportWizard(session, runner, AppPaths.default(), bad)
    qtbot.addWidget(wizard)
    qtbot.waitUntil(lambda: "empty" in wizard.source_page.message.text(), timeout=TIMEOUT)
    assert not wizard.source_page.isComplete()


def test_a_table_under_blank_rows_is_proposed(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    # Header at B70 under 69 blank rows: the wizard reads the same preview as staging.
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws["B70"], ws["C70"] = "Phone", "Reason"
    for row in range(71, 83):
        ws.cell(row=row, column=2, value=2025550140 + row - 71)
        ws.cell(row=row, column=3, value="asked")
    file = tmp_path / "late.xlsx"
    wb.save(file)
    wizard = open_wizard(qtbot, session, runner, file)
    assert wizard.source_page.header_row == 70
    # The table shows the sheet's rows with their own numbers, the blank ones left out.
    model = wizard.source_page.model
    assert model.verticalHeaderItem(0).text() == "70" and model.item(0, 1).text() == "Phone"
    wizard.next()
    assert wizard.mapping_page.combos[Role.PHONE].currentText() == "Phone (column B)"


def test_a_header_under_a_long_block_of_notes_is_shown(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    # 60 rows of notes, the header on row 62: the table starts a few rows above the header,
    # so the row the wizard proposes is on screen, highlighted.
    lines = [f"Note line {i}: please read" for i in range(60)] + ["", "Phone"]
    lines += [f"202555014{i}" for i in range(8)]
    path = tmp_path / "notes.csv"
    path.write_text("\n".join(lines) + "\n")
    wizard = open_wizard(qtbot, session, runner, path)
    page = wizard.source_page
    assert page.header_row == 62
    model = page.model
    shown = [model.verticalHeaderItem(r).text() for r in range(model.rowCount())]
    assert "62" in shown and shown[0] != "1"
    at = shown.index("62")
    assert model.item(at, 0).text() == "Phone"
    assert model.item(at, 0).background().color() == HEADER_COLOR
    assert model.item(at + 1, 0).text() == "2025550140"


def test_the_check_page_says_hidden_rows_are_imported_too(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    file = filtered_review(tmp_path / "review.xlsx")  # 4 of 6 rows filtered out
    wizard = open_wizard(qtbot, session, runner, file)
    to_check_page(qtbot, wizard)
    assert counts(wizard)["valid"] == 6
    assert "4 rows are hidden or filtered out in the file; they are imported too" in (
        wizard.check_page.status.text()
    )


def test_the_check_page_names_rows_a_stray_quote_swallowed(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    # Black-box pass H2: a quote mark closed lines later made three rows one cell; the counts
    # cannot show rows that were never read, so the page says so before anything is sent.
    path = tmp_path / "stray.csv"
    path.write_text(
        'Phone,Name,Notes\n202-555-1501,Al,ok\n202-555-1502,"Bob,x\n202-555-1503,Carl,x\n'
        '202-555-1504,Dee,y\n202-555-1505,Ed "the" Man",z\n202-555-1506,Fay,w\n'
    )
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard)
    assert counts(wizard)["valid"] == 3
    status = wizard.check_page.status.text()
    assert "⚠ Row 3 of stray.csv has a quote mark in column B" in status, status
    assert "202-555-1503, 202-555-1504 and 202-555-1505" in status, status


def test_cancel_while_running_reports_not_attempted(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    path = tmp_path / "many.csv"
    path.write_text("Phone\n" + "".join(f"(202) 555-{i:04d}\n" for i in range(40)))
    sandbox.set_faults(latency_ms=80)
    wizard = open_wizard(qtbot, session, runner, path)
    wizard.next()
    wizard.next()
    wizard.target_page.note_edit.setText("cancel test")
    wizard.target_page.concurrency_spin.setValue(2)
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    wizard.next()
    run = wizard.run_page
    qtbot.waitUntil(lambda: run.handle is not None and run.handle.last_progress is not None,
                    timeout=TIMEOUT)  # fmt: skip
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *_a: QMessageBox.StandardButton.Yes)
    )
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        run.cancel_button.click()
    summary = finished.args[0]
    sent = sandbox.store.scalar("SELECT count(*) FROM dnc")
    assert summary["status"] == "cancelled" and summary["inserted"] == sent < 40
    assert summary["not_attempted"] == 40 - sent and summary["pending"] == 0
    qtbot.waitUntil(lambda: wizard.currentId() == wizard.PAGE_RESULT, timeout=TIMEOUT)
    assert "cancelled" in wizard.result_page.headline.text()
    assert wizard.result_page.value_labels["not_attempted"].text() == f"{40 - sent:,}"


def test_per_row_campaign_column_or_one_scope_for_the_file(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "campaigns.csv"
    path.write_text(
        "Phone,Campaign\n2025550101,Spring Renewals\n2025550102,\n2025550103,No Such Campaign\n"
    )
    wizard = open_wizard(qtbot, session, runner, path)
    spring = wizard.campaign_lookup["Spring Renewals"]
    wizard.next()
    assert wizard.mapping_page.combos[Role.CAMPAIGN].currentText() == "Campaign (column B)"
    wizard.next()
    target = wizard.target_page
    assert target.per_row and target.per_row_note.isVisibleTo(target)
    target.note_edit.setText("per row")
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    assert (counts(wizard)["valid"], counts(wizard)["invalid"]) == (2, 1)
    assert "no campaign is named 'No Such Campaign'" in wizard.check_page.model.item(0, 2).text()
    # One scope for the whole file instead: the column is ignored, every row is valid.
    wizard.back()
    target.scope_combo.setCurrentIndex(target.scope_combo.findData("global"))
    assert not target.per_row
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    assert (counts(wizard)["valid"], counts(wizard)["invalid"]) == (3, 0)
    wizard.back()
    target.scope_combo.setCurrentIndex(target.scope_combo.findData("per-row"))
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT):
        wizard.next()
    scopes = {
        r["phone_number"]: str(r["campaign_id"])
        for r in sandbox.store.all("SELECT phone_number, campaign_id FROM dnc")
    }
    assert scopes == {"2025550101": spring, "2025550102": "0"}


def test_unknown_campaign_ids_are_invalid_on_the_check_page(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "ids.csv"
    spring = next(c.id for c in session.api.campaigns() if c.name == "Spring Renewals")
    path.write_text(f"Phone,Campaign\n2025550101,{spring}\n2025550102,9912\n")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "campaign ids")
    assert wizard.target_page.per_row
    assert (counts(wizard)["valid"], counts(wizard)["invalid"]) == (1, 1)
    problem = wizard.check_page.model.item(0, 2).text()
    assert "campaign: id 9912 does not exist on this connection" in problem
    assert "not checked" not in wizard.check_page.status.text()
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()
    assert (finished.args[0]["inserted"], finished.args[0]["failed"]) == (1, 0)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 1


def test_two_campaigns_of_one_name_are_both_offered(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    # One name, two campaigns: both can be chosen for the file, told apart by their ids
    # (the list used to keep the last one of a name only).
    twin = sandbox.seed_campaign("Spring Renewals", active=True)
    wizard = open_wizard(qtbot, session, runner, opt_out_file(tmp_path / "optouts.csv"))
    combo = wizard.target_page.campaign_combo
    offered = [combo.itemData(i) for i in range(combo.count())]
    spring = [str(cid) for name, cid in wizard.campaign_lookup.named if name == "Spring Renewals"]
    assert len(spring) == 2 and str(twin) in spring
    assert sorted(str(cid) for cid in offered if str(cid) in spring) == sorted(spring)
