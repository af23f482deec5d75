"""Task S32 fx4: a file of Home Phone and Mobile columns is imported from one of them; the
wizard stages with the columns the person confirmed, so staging never looked for the other and
the check page said nothing of it: a consumer's second opted-out number stayed off the list
with no word. The check page now says it apart from the ordinary warnings, counted, and each
row holding another number says which."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from app.core.job_store import JobStore
from app.core.session import Session
from app.core.sheet_mapping import Role
from app.core.unread_phones import UNREAD_PHONES_WARNING
from app.ui.import_pages_check import COL_PROBLEM, COL_ROW
from app.ui.import_wizard import ImportWizard
from app.ui.tasks import TaskRunner
from tests.ui.test_import_wizard import TIMEOUT, open_wizard, to_check_page
from tests.ui.test_import_wizard_window import connected_window

# The Mobile column is read; rows 2-4 have a Home Phone, row 3 the same number; row 5 none.
HOME_AND_MOBILE = (
    "Name,Home Phone,Mobile\n"
    "Ana,303-555-0101,303-555-0201\n"
    "Bob,303-555-0202,303-555-0202\n"
    "Cy,303-555-0103,303-555-0203\n"
    "Di,,303-555-0204\n"
)
SAID = (
    "⚠ NOT IMPORTED: column B ('Home Phone') holds a phone number on 3 rows, 2 of them not "
    "the number read from column C ('Mobile'). Those numbers stay off the list unless that "
    'column is imported too: once this import has ended, press "Import column B next" (a new '
    "import of this file, checked before anything is sent)."
)


def _checked(qtbot: Any, session: Session, runner: TaskRunner, tmp_path: Path) -> Any:
    path = tmp_path / "home_and_mobile.csv"
    path.write_text(HOME_AND_MOBILE, encoding="utf-8")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "home and mobile")
    return wizard


def test_the_check_page_says_a_second_phone_column_is_not_imported(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    wizard = _checked(qtbot, session, runner, tmp_path)
    page = wizard.check_page
    assert page.second_phone.isVisible()
    assert page.second_phone.text() == SAID, page.second_phone.text()
    # Said apart, not lost among the ordinary warnings.
    assert "Home Phone" not in page.warnings_box.toPlainText()
    page.grab().save(str(tmp_path / "check_page.png"))
    # The rows whose other number differs say it, as the command line's job does.
    model = page.model
    listed = {
        int(model.item(r, COL_ROW).text()): model.item(r, COL_PROBLEM).text()
        for r in range(model.rowCount())
    }
    assert "'303-555-0101'" in listed.get(2, ""), listed
    assert "'303-555-0103'" in listed.get(4, ""), listed
    assert 3 not in listed and 5 not in listed

    # Start sends the job the page showed: its rows and its warning say the same.
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()
    assert finished.args[0]["inserted"] == 4
    with JobStore(wizard.handle.job_path) as store:
        meta = store.meta()
        said = {r.row_number: r.message for r in store.rows()}
    assert "Column B ('Home Phone') also holds" in meta[UNREAD_PHONES_WARNING]
    assert meta[UNREAD_PHONES_WARNING] in meta["warnings"]
    assert "'303-555-0101'" in said[2] and "'303-555-0103'" in said[4]
    assert _listed_numbers(sandbox, "3035550101") == 0

    # Once it has ended, the next import is offered, never started unasked.
    qtbot.waitUntil(lambda: wizard.currentId() == wizard.PAGE_RESULT, timeout=TIMEOUT)
    assert wizard.next_button.isVisible()
    assert wizard.result_page.subTitle() == (
        "⚠ Column B ('Home Phone') holds phone numbers this import left off the list (on 2 rows): "
        'press "Import column B next" to import them.'
    )
    wizard.grab().save(str(tmp_path / "result_page.png"))
    assert wizard.next_button.text().replace("&", "") == "Import column B next…"
    opened: list[Any] = []
    wizard.next_import.connect(opened.append)
    wizard.next_button.click()
    assert len(opened) == 1
    second = opened[0]
    qtbot.addWidget(second)
    assert not wizard.isVisible()
    qtbot.waitUntil(lambda: second.source_page.probe is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: bool(second.campaign_lookup), timeout=TIMEOUT)
    second.next()
    assert second.mapping_page.combos[Role.PHONE].currentData() == 1  # column B
    assert "column B ('Home Phone')" in second.mapping_page.subTitle()
    second.next()
    second.target_page.note_edit.setText("home numbers")
    second.next()
    qtbot.waitUntil(lambda: second.check_page.result is not None, timeout=TIMEOUT)
    said = second.check_page.second_phone.text()
    first_job = wizard.handle.job_id
    imported = (
        f"Column C ('Mobile') was imported by the import of this file before this one (job "
        f"{first_job}): its numbers are not read again here."
    )
    assert said == imported, said
    assert "Mobile" not in second.check_page.warnings_box.toPlainText()  # said once
    assert _listed_numbers(sandbox, "3035550101") == 0  # checked, nothing sent yet
    with qtbot.waitSignal(second.job_finished, timeout=TIMEOUT) as finished:
        second.next()
    assert finished.args[0]["inserted"] == 2  # rows 2 and 4: row 3's number is on already
    assert _listed_numbers(sandbox, "3035550101") == 1
    qtbot.waitUntil(lambda: second.currentId() == second.PAGE_RESULT, timeout=TIMEOUT)
    assert not second.next_button.isVisible()  # both columns imported: nothing more offered
    # bb14 W6: the end of the second import and its report say what its check page said, not
    # that column C "is not imported … go back and import it" (the first import did).
    notes = second.result_page.notes_box.toPlainText()
    assert imported in notes, notes
    assert "not imported" not in notes and "go back" not in notes, notes
    with JobStore(second.handle.job_path) as store:
        warnings = [str(w) for w in store.meta()["warnings"]]
        messages = [r.message for r in store.rows()]
    assert imported in warnings, warnings
    assert not any("Mobile" in w and "not imported" in w for w in warnings), warnings
    assert not any("not imported" in m for m in messages), messages
    summary = [
        str(cell)
        for row in openpyxl.load_workbook(finished.args[0]["report"], read_only=True)[
            "Summary"
        ].iter_rows(values_only=True)
        for cell in row
        if cell
    ]
    assert any(imported in cell for cell in summary), summary
    assert not any("Mobile" in c and "not imported" in c for c in summary), summary


def _listed_numbers(sandbox: Any, number: str) -> int:
    sql = "SELECT count(*) FROM dnc WHERE phone_number = ?"
    return int(sandbox.store.scalar(sql, (number,)))


def test_the_window_follows_the_next_import_it_opens(
    make_window: Any, qtbot: Any, sandbox: Any, tmp_path: Path
) -> None:
    window = connected_window(make_window, qtbot, sandbox)
    features = window.job_features
    path = tmp_path / "home_and_mobile.csv"
    path.write_text(HOME_AND_MOBILE, encoding="utf-8")
    wizard = features.import_file(path)
    assert isinstance(wizard, ImportWizard)
    qtbot.waitUntil(lambda: wizard.source_page.probe is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: bool(wizard.campaign_lookup), timeout=TIMEOUT)
    to_check_page(qtbot, wizard, "home and mobile")
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT):
        wizard.next()
    qtbot.waitUntil(lambda: wizard.currentId() == wizard.PAGE_RESULT, timeout=TIMEOUT)
    wizard.next_button.click()
    second = features.dialog
    assert isinstance(second, ImportWizard) and second is not wizard
    assert second.isVisible() and not wizard.isVisible()
    second.close()
