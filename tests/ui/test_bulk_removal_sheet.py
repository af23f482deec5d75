"""The bulk-removal wizard's Sheet list: a workbook's sheets are read off the GUI thread (hidden
ones marked, staging's choice first), and the sheet chosen is the one counted and removed; a
text file has none to choose, and a file that cannot be read says why on the page."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from PySide6.QtWidgets import QFileDialog

from app.api.scope import Scope
from app.core.session import Session
from app.ui import bulk_removal_dialog
from app.ui.job_progress import job_registry
from app.ui.tasks import TaskRunner
from tests.ui.test_bulk_removal import TIMEOUT, dialog_for, wait_read


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    for handle in job_registry().handles:
        handle.cancel()
    r.cancel_all()
    r.wait()


def two_batches(path: Path) -> Path:
    """Two sheets of different numbers to remove, and a hidden sheet of old ones."""
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "First batch"
    for row in (["Phone"], ["2025550001"], ["2025550002"]):
        first.append(row)
    second = wb.create_sheet("Second batch")
    for row in (["Phone"], ["2025550003"], ["2025550004"], ["2025550005"]):
        second.append(row)
    old = wb.create_sheet("Old")
    for row in (["Phone"], ["2025550000"]):
        old.append(row)
    old.sheet_state = "hidden"
    wb.save(path)
    return path


def listed(sandbox: Any) -> set[str]:
    return {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}


def test_the_second_sheet_chosen_is_the_one_counted_and_removed(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    sandbox.bulk_seed_dnc([(f"20255500{i:02d}", "1", "0", "", "") for i in range(6)])
    file = two_batches(tmp_path / "batches.xlsx")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: (str(file), "")))
    dialog = dialog_for(qtbot, session, runner)
    source, options = dialog.source_page, dialog.options_page
    combo = source.sheet_combo
    source.browse_button.click()
    assert not source.isComplete()  # until the sheets are read
    wait_read(qtbot, dialog)
    assert combo.isEnabled()
    shown = [combo.itemText(i) for i in range(combo.count())]
    assert shown == ["First batch", "Second batch", "Old (hidden)"]
    # Staging's choice first: the first visible sheet with phone numbers.
    assert combo.currentData() == "First batch"
    assert dialog.file_settings(Scope.global_()).sheet == "First batch"

    dialog.next()
    options.reason_edit.setText("Vendor batches, ticket 57")
    qtbot.waitUntil(lambda: options.count is not None, timeout=TIMEOUT)
    assert options.count == 2
    assert options.count_source_label.text() == "on sheet 'First batch' of batches.xlsx"

    dialog.back()
    combo.setCurrentIndex(combo.findData("Second batch"))
    assert dialog.file_settings(Scope.global_()).sheet == "Second batch"
    dialog.next()
    qtbot.waitUntil(lambda: options.count is not None, timeout=TIMEOUT)
    assert options.count == 3 and options.count_label.text() == "3 to remove"
    assert options.count_source_label.text() == "on sheet 'Second batch' of batches.xlsx"
    assert options.isComplete(), options.missing.text()
    with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT) as finished:
        dialog.next()
    summary = finished.args[0]
    assert (summary["removed"], summary["not_found"], summary["invalid"]) == (3, 0, 0)
    # The first sheet's numbers (and the hidden sheet's) are still on the list.
    assert listed(sandbox) == {"2025550000", "2025550001", "2025550002"}


def test_a_hidden_sheet_chosen_is_said_to_be_hidden(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    file = two_batches(tmp_path / "batches.xlsx")
    dialog = dialog_for(qtbot, session, runner)
    source = dialog.source_page
    source.path_edit.setText(str(file))
    wait_read(qtbot, dialog)
    assert source.sheet_message.text() == ""
    source.sheet_combo.setCurrentIndex(source.sheet_combo.findData("Old"))
    assert "Sheet 'Old' is hidden in the file" in source.sheet_message.text()
    dialog.next()
    options = dialog.options_page
    assert options.count_source_label.text() == (
        "on sheet 'Old' of batches.xlsx (hidden in the file)"
    )
    qtbot.waitUntil(lambda: options.count == 1, timeout=TIMEOUT)


def test_a_text_file_or_pasted_numbers_have_no_sheet_to_choose(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    file = tmp_path / "remove.csv"
    file.write_text("Phone\n2025550001\n2025550005\n")
    dialog = dialog_for(qtbot, session, runner)
    source = dialog.source_page
    source.path_edit.setText(str(file))
    wait_read(qtbot, dialog)
    assert not source.sheet_combo.isEnabled() and source.sheet_combo.count() == 0
    assert source.sheet() is None and dialog.file_settings(Scope.global_()).sheet is None
    assert source.sheet_message.text() == ""
    # A workbook of one sheet is a workbook: its sheet is listed, and named to staging.
    book = tmp_path / "one.xlsx"
    wb = openpyxl.Workbook()
    assert wb.active is not None
    wb.active.title = "Numbers"
    wb.active.append(["Phone"])
    wb.active.append(["2025550001"])
    wb.save(book)
    source.path_edit.setText(str(book))
    wait_read(qtbot, dialog)
    assert source.sheet_combo.isEnabled() and source.sheet() == "Numbers"
    source.paste_radio.setChecked(True)
    source.paste_edit.setPlainText("2025550001\n")
    assert not source.sheet_combo.isEnabled() and source.sheet() is None
    assert dialog.file_settings(Scope.global_()).sheet is None
    source.file_radio.setChecked(True)
    source.path_edit.setText(str(file))
    wait_read(qtbot, dialog)
    dialog.next()
    options = dialog.options_page
    assert options.count_source_label.text() == "in remove.csv"
    qtbot.waitUntil(lambda: options.count == 2, timeout=TIMEOUT)


def test_a_file_that_cannot_be_read_says_why_on_the_page(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    # Random bytes under a workbook's name: the reader's sentence on the page, no message box
    # (conftest fails the test on one), and no way on.
    file = tmp_path / "numbers.xlsx"
    file.write_bytes(b"\x00\x01\x02garbage\xff\xfe" + bytes(range(256)) * 16)
    dialog = dialog_for(qtbot, session, runner)
    source = dialog.source_page
    source.path_edit.setText(str(file))
    qtbot.waitUntil(lambda: not source.reading, timeout=TIMEOUT)
    message = source.sheet_message.text()
    assert message.startswith("⚠ numbers.xlsx is not a real .xlsx workbook"), message
    assert not source.isComplete() and not source.sheet_combo.isEnabled()
    dialog.next()
    assert dialog.currentId() == dialog.PAGE_SOURCE
    # A missing file too.
    source.path_edit.setText(str(tmp_path / "gone.xlsx"))
    qtbot.waitUntil(lambda: not source.reading, timeout=TIMEOUT)
    assert source.sheet_message.text() == f"⚠ {tmp_path / 'gone.xlsx'} does not exist."
    assert not source.isComplete()


def test_an_answer_for_a_path_since_changed_is_dropped(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    book = two_batches(tmp_path / "batches.xlsx")
    text = tmp_path / "remove.csv"
    text.write_text("Phone\n2025550001\n")
    release = threading.Event()
    read = getattr(bulk_removal_dialog, "read_sheets", None)
    assert read is not None, "the sheets are read by read_sheets"

    def slow_for_the_workbook(path: Path, phone_code: str) -> Any:
        if path.suffix == ".xlsx":
            release.wait(TIMEOUT / 1000)
        return read(path, phone_code)

    monkeypatch.setattr(bulk_removal_dialog, "read_sheets", slow_for_the_workbook)
    dialog = dialog_for(qtbot, session, runner)
    source = dialog.source_page
    try:
        source.path_edit.setText(str(book))
        source.path_edit.setText(str(text))
        wait_read(qtbot, dialog)
    finally:
        release.set()
    # The workbook's answer arrives after the CSV's and changes nothing.
    qtbot.waitUntil(lambda: not runner.active, timeout=TIMEOUT)
    assert source.sheets is not None and source.sheets.probe.path == text
    assert not source.sheet_combo.isEnabled() and source.sheet_combo.count() == 0
    assert dialog.file_settings(Scope.global_()).sheet is None
