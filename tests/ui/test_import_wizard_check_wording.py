"""The check page's wording (bb14 W2, W3). A second column of phone numbers whose every number
is the one read was still "⚠ NOT IMPORTED … 0 of them not the number read … press 'Import
column C next'", a button that never appears then (it is offered only for numbers that
differ), and nothing stays off the list. One row hidden in the file read "1 of the rows are
hidden". Real wizards over loopback HTTP to the sandbox."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from app.core.session import Session
from app.ui.tasks import TaskRunner
from tests.ui.test_import_wizard import TIMEOUT, open_wizard, to_check_page

# Column C repeats column B's number on every row that has one.
SAME_NUMBER_TWICE = (
    "Name,Phone,Mobile\n"
    "Ana,303-555-0101,(303) 555-0101\n"
    "Bob,303-555-0102,303.555.0102\n"
    "Cy,303-555-0103,\n"
)


def test_a_second_column_of_the_same_numbers_offers_no_next_import(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "same_twice.csv"
    path.write_text(SAME_NUMBER_TWICE, encoding="utf-8")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard)
    said = wizard.check_page.second_phone.text()
    assert said == (
        "Column C ('Mobile') also holds a phone number on 2 rows, each the number read from "
        "column B ('Phone') on the same row: it is not imported, and no number stays off the "
        "list for it."
    ), said
    # Said once: the job's own note on it (the command line's) is not in the warnings box too.
    assert "'Mobile'" not in wizard.check_page.warnings_box.toPlainText()
    # As the result page: no "Import column C next" button, and none promised.
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT):
        wizard.next()
    qtbot.waitUntil(lambda: wizard.currentId() == wizard.PAGE_RESULT, timeout=TIMEOUT)
    assert not wizard.next_button.isVisible()
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 3


def test_one_hidden_row_is_said_in_the_singular(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    path = tmp_path / "one_hidden.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone"])
    for n in range(3):
        sheet.append([f"303-555-01{n:02d}"])
    sheet.row_dimensions[3].hidden = True
    book.save(path)
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard)
    status = wizard.check_page.status.text()
    assert "⚠ 1 row is hidden or filtered out in the file; it is imported too." in status, status
