"""Black-box bb14 W1: the wizard stages with the columns it proposed and the sheet it showed,
and its check page, result page and report said nothing of a 'Subscription' column saying
'active' (those numbers go on the list), an 'Ext' column not read or a number above the header,
all of which the command line warns of in the same file. Real widgets, against the sandbox.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.session import Session
from app.ui.tasks import TaskRunner
from tests.ui.test_import_wizard import TIMEOUT, open_wizard, to_check_page

CONSENT_CSV = (
    "Opt-outs export\n"
    "Hotline: 800-555-0199\n"
    "\n"
    "Name,Phone,Ext,Subscription\n"
    "A,(202) 555-0101,12,active\n"
    "B,(202) 555-0102,,active\n"
    "C,(202) 555-0103,7,unsubscribed\n"
    "D,(202) 555-0104,,active\n"
)
CONSENT = "Column D ('Subscription') says the consumer opted in, consented or is subscribed"
EXTENSION = "Column C ('Ext') holds extensions"
ABOVE = "Above the header (row 4), row 2 holds 'Hotline: 800-555-0199'"


def test_the_check_and_result_pages_say_the_files_notes(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "consent.csv"
    path.write_text(CONSENT_CSV, encoding="utf-8")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "bb14 W1")
    page = wizard.check_page
    assert page.warnings_box.isVisible()
    shown = page.warnings_box.toPlainText()
    for said in (CONSENT, EXTENSION, ABOVE):
        assert f"⚠ {said}" in shown, shown
    page.grab().save(str(tmp_path / "check_page.png"))

    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()
    assert finished.args[0]["inserted"] == 4
    qtbot.waitUntil(lambda: wizard.currentId() == wizard.PAGE_RESULT, timeout=TIMEOUT)
    result = wizard.result_page
    assert result.notes_box.isVisible()
    notes = result.notes_box.toPlainText()
    for said in (CONSENT, EXTENSION, ABOVE):
        assert said in notes, notes
    wizard.grab().save(str(tmp_path / "result_page.png"))
