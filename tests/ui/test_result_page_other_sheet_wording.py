"""After a run the import wizard's result page told the officer to "go back and choose" the
other sheet of phone numbers "in the Sheet list on the 'Choose the file' page", but a wizard
that has run its job has no Back. The run and result pages now say to start a new import of the
file and choose the sheet there; the check page, which has Back, still says go back. Real
widgets, against the sandbox."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.session import Session
from app.ui.tasks import TaskRunner
from app.ui.window_words import FILE_PAGE, for_window
from tests.ui.test_import_wizard import TIMEOUT, open_wizard, to_check_page
from tests.ui.test_window_wording_of_core_messages import _two_sheets

BEFORE_START = (
    f"To import it too, go back and choose it in the Sheet list on the '{FILE_PAGE}' page"
)
AFTER_RUN = (
    f"To import it too, start a new import of this file and choose it in the Sheet list on the "
    f"'{FILE_PAGE}' page ('B')."
)


def test_the_result_page_says_to_start_a_new_import_of_the_other_sheet(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "two.xlsx"
    _two_sheets(path)
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "after-run wording")
    assert BEFORE_START in wizard.check_page.warnings_box.toPlainText()
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT):
        wizard.next()
    qtbot.waitUntil(lambda: wizard.currentId() == wizard.PAGE_RESULT, timeout=TIMEOUT)
    notes = wizard.result_page.notes_box.toPlainText()
    assert AFTER_RUN in notes, notes
    assert "go back" not in notes


def test_other_choices_after_the_start_are_a_new_import_too() -> None:
    cli = "run the file again with --phone-column column:C; a dry run shows what it reads"
    assert for_window(cli, started=True).startswith(
        "start a new import of this file with column C as the Phone number column on the "
        "'Match the columns' page"
    )
    once = "run the file again once for each: --phone-code 44, --phone-code 49"
    assert for_window(once, started=True).startswith(
        "start a new import of this file once with each: country code"
    )
    removal = "run the file again with --phone-code 49"
    assert for_window(removal, removal=True, started=True).startswith(
        "start the removal again with"
    )
