"""Task S21 F1 (W5b): the bulk removal dialog showed nothing of what staging said of the file:
a German list read under the default code +1 ended "Invalid (not sent): 7" on the result page
with no why, and core's sentences, written for the command line ("remove it again with that
country's: --phone-code 49", "(--per-row-scope takes each row's scope from the file)"), were
only in the report. The run and result pages now list the removal's warnings and its invalid
rows' messages, worded with the dialog's own boxes (:func:`app.ui.window_words.for_window`).

The dialog is driven against the sandbox with real files; the sentences are core's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.bulk_removal_dialog import BulkRemovalDialog
from app.ui.job_progress import job_registry
from app.ui.tasks import TaskRunner
from app.ui.window_words import (
    PER_ROW_BOX,
    REMOVAL_CODE_BOX,
    REMOVAL_OPTIONS_PAGE,
    REMOVAL_SOURCE_PAGE,
)

TIMEOUT = 30_000
FLAG = re.compile(r"--[a-z][a-z-]+")
GERMAN = (
    "Phone\n" + "".join(f"030 {1234500 + i}\n" for i in range(5)) + "0171 2345678\n089 12345678\n"
)
CODE_BOX = f"the '{REMOVAL_CODE_BOX}' box on the '{REMOVAL_SOURCE_PAGE}' page"


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    for handle in job_registry().handles:
        handle.cancel()
    r.cancel_all()
    r.wait()


def _remove(qtbot: Any, session: Session, runner: TaskRunner, file: Path) -> BulkRemovalDialog:
    """The removal of ``file`` in the global scope, driven to its result page."""
    dialog = BulkRemovalDialog(session, runner, AppPaths.default())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.source_page.path_edit.setText(str(file))
    qtbot.waitUntil(dialog.source_page.isComplete, timeout=TIMEOUT)
    dialog.next()
    options = dialog.options_page
    options.reason_edit.setText("Consumer request, ticket 12")
    qtbot.waitUntil(lambda: options.count is not None, timeout=TIMEOUT)
    if options.confirm_edit.isVisibleTo(options):
        options.confirm_edit.setText(str(options.count))  # over CONFIRM_OVER numbers
    with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT):
        dialog.next()
    qtbot.waitUntil(lambda: dialog.currentId() == dialog.PAGE_RESULT, timeout=TIMEOUT)
    return dialog


def test_a_german_list_says_why_its_rows_are_invalid_with_the_dialogs_box(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    file = tmp_path / "german.csv"
    file.write_text(GERMAN, encoding="utf-8")
    dialog = _remove(qtbot, session, runner, file)
    assert dialog.result_page.value_labels["invalid"].text() == "7"
    # The run page said it too, as soon as the job was staged (before the page moved on).
    for page in (dialog.run_page, dialog.result_page):
        assert page.notes_box.isVisibleTo(page), page
        assert page.notes_label.isVisibleTo(page)
        shown = page.notes_box.toPlainText()
        assert (
            "⚠ 7 rows read under the default country code 1 (the file gives no country)"
        ) in shown
        assert (
            f"start the removal again with that country's: country code 49 ({CODE_BOX}) for Germany"
        ) in shown
        # Each invalid row's message, its row named, the box named in the dialog's words.
        assert "row 7: phone: too long for a US number" in shown
        assert f"use country code 49 ({CODE_BOX}) or a Country column" in shown
        assert not FLAG.search(shown), shown
    # The pages named are the dialog's own, as it titles them.
    assert dialog.source_page.title() == REMOVAL_SOURCE_PAGE
    assert dialog.options_page.title() == REMOVAL_OPTIONS_PAGE


def test_a_row_naming_another_scope_names_the_per_row_box(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    file = tmp_path / "scope.csv"
    file.write_text("Phone,Scope\n3035550123,purpose:Surveys\n3035550124,\n", encoding="utf-8")
    dialog = _remove(qtbot, session, runner, file)
    page = dialog.result_page
    shown = page.notes_box.toPlainText()
    # The job's warning counting such rows first (black-box bb2 F13), in the window's words.
    box = f"'{PER_ROW_BOX}' on the '{REMOVAL_OPTIONS_PAGE}' page"
    assert shown.startswith(
        "⚠ 1 row is invalid because it names another scope than this removal's, Global "
        "(row 2): Purpose: Surveys (1 row). A removal takes only the scope it was given: to "
        "remove it, start the removal again with the scope 'A purpose' with Purpose 'Surveys' "
        f"(the Scope list and Purpose box on the '{REMOVAL_OPTIONS_PAGE}' page), or with {box} "
        "to take each row's scope from the file.\n"
    ), shown
    row = next(line for line in shown.splitlines() if line.startswith("row 2: "))
    assert row.startswith("row 2: scope: the file says Purpose: Surveys but this removal")
    assert row.endswith(f"(ticking {box} takes each row's scope from the file)")
    assert "--per-row-scope" not in shown
    # The box named is the dialog's.
    assert dialog.options_page.per_row_check.text().startswith(PER_ROW_BOX)


def test_a_clean_file_shows_no_notes_and_many_invalid_rows_are_cut_short(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    clean = tmp_path / "clean.csv"
    clean.write_text("Phone\n3035550123\n", encoding="utf-8")
    dialog = _remove(qtbot, session, runner, clean)
    assert not dialog.result_page.notes_box.isVisibleTo(dialog.result_page)
    assert not dialog.result_page.notes_label.isVisibleTo(dialog.result_page)
    from app.ui.job_progress import NOTED_ROWS  # new with the notes

    many = tmp_path / "many.csv"
    many.write_text(
        "Phone\n" + "".join(f"12{i:03d}\n" for i in range(NOTED_ROWS + 5)), encoding="utf-8"
    )
    dialog = _remove(qtbot, session, runner, many)
    lines = dialog.result_page.notes_box.toPlainText().splitlines()
    assert sum(line.startswith("row ") for line in lines) == NOTED_ROWS
    assert lines[-1] == "… and 5 more invalid rows."
