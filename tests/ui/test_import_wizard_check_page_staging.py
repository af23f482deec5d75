"""Task S20 W3: the import wizard's check page ran only the row check, so what staging adds
(a second table's rows set apart, a Notes cell naming another number, and the warnings of
both) showed only once Start was pressed and sending had begun. The check page now stages the
job for real (nothing sent), lists staging's rows and warnings, and Start sends that very job;
a check never started leaves no job behind and is listed as none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.job_catalog import list_jobs
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.import_pages_check import CHECKS_FOLDER, COL_PROBLEM, COL_ROW, COL_VALUE
from app.ui.tasks import TaskRunner
from tests.ui.test_import_wizard import TIMEOUT, counts, open_wizard, to_check_page

# A first table whose Notes cell names a second number (row 2), then a second table with a
# header of its own (row 6) whose phone numbers are in column B.
TWO_TABLES = (
    "Phone,Notes\n"
    "3035550123,also reach her at 303-555-0177\n"
    "3035550124,web form\n"
    "3035550125,email\n"
    "3035550126,asked twice\n"
    "Name,Phone,Notes\n"
    "Ana,303-555-0199,customer\n"
    "Bob,303-555-0198,prospect\n"
)
HEADER_6 = (
    "phone: the row is the header of another table ('Name', 'Phone', 'Notes'), whose columns "
    "differ from the first table's (row 1): its phone numbers are in column B, not A, so its "
    "rows are not read; import that table on its own"
)
UNDER = (
    "phone: the row is under the second table's header (row 6), whose Phone column is B: "
    "{number} was not read; import that table on its own"
)
NOTES_ROW = (
    "sent as +1 3035550123; its Notes cell B2 names another number, (303) 555-0177: if the "
    "consumer asked for it too, add it as a row of its own"
)
SECOND_TABLE = (
    "⚠ Rows 6–8 are a second table with a header of its own (row 6: 'Name', 'Phone', "
    "'Notes'), whose columns differ from the first table's (row 1): its phone numbers are in "
    "column B, not A. None of them was read under the first table's columns: its 2 rows were "
    "left invalid, each saying so. Copy rows 6–8 to a file of their own and import it."
)
OTHER_NUMBER = (
    "⚠ 1 row's reason cell, in column B ('Notes'), names a phone number besides the row's own: "
    "row 2 ((303) 555-0177)."
)


def _listed(wizard: Any) -> dict[int, tuple[str, str]]:
    model = wizard.check_page.model
    return {
        int(model.item(r, COL_ROW).text()): (
            model.item(r, COL_VALUE).text(),
            model.item(r, COL_PROBLEM).text(),
        )
        for r in range(model.rowCount())
    }


def _checks(paths: AppPaths) -> list[Path]:
    folder = paths.data_dir / CHECKS_FOLDER
    return sorted(folder.rglob("*")) if folder.is_dir() else []


def _open_checked(qtbot: Any, session: Session, runner: TaskRunner, tmp_path: Path) -> Any:
    path = tmp_path / "two_tables.csv"
    path.write_text(TWO_TABLES, encoding="utf-8")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "two tables")
    return wizard


def test_the_check_page_shows_what_staging_says_and_start_sends_that_job(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    wizard = _open_checked(qtbot, session, runner, tmp_path)
    page = wizard.check_page
    assert _listed(wizard) == {
        2: ("3035550123", NOTES_ROW),
        6: ("Name", HEADER_6),
        7: ("303-555-0199", UNDER.format(number="303-555-0199")),
        8: ("303-555-0198", UNDER.format(number="303-555-0198")),
    }
    assert (counts(wizard)["valid"], counts(wizard)["invalid"]) == (4, 3)
    assert page.warnings_box.isVisible()
    shown = page.warnings_box.toPlainText().splitlines()
    assert SECOND_TABLE in shown
    assert [w for w in shown if w.startswith(OTHER_NUMBER)], shown
    # Staged, not sent, and no job in the Jobs tab yet.
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    paths = AppPaths.default()
    assert list_jobs(paths.jobs_dir) == []
    staged = page.result.staged
    assert staged is not None and staged.path.is_file()

    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()  # "Start import"
    summary = finished.args[0]
    assert (summary["status"], summary["inserted"], summary["invalid"]) == ("finished", 4, 3)
    # The very job the page showed was sent: its file moved into the jobs folder.
    assert wizard.handle.job_path == paths.jobs_dir / staged.path.name
    assert [j.path for j in list_jobs(paths.jobs_dir)] == [wizard.handle.job_path]
    with JobStore(wizard.handle.job_path) as store:
        assert SECOND_TABLE.removeprefix("⚠ ") in store.meta()["warnings"]
        said = {r.row_number: r.message for r in store.rows()}
    assert said[6] == f"row 6: {HEADER_6}"
    assert _checks(paths) == []


def test_a_check_not_started_leaves_no_job(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    wizard = _open_checked(qtbot, session, runner, tmp_path)
    paths = AppPaths.default()
    first = wizard.check_page.result.staged.path
    # Going back and checking again: the first check's job is deleted, the new one kept.
    wizard.back()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    second = wizard.check_page.result.staged.path
    assert second != first
    qtbot.waitUntil(lambda: not first.parent.exists(), timeout=TIMEOUT)
    assert second.is_file()
    # Closing the wizard deletes it too; nothing was sent or listed.
    wizard.reject()
    qtbot.waitUntil(lambda: _checks(paths) == [], timeout=TIMEOUT)
    assert list_jobs(paths.jobs_dir) == []
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0


def test_a_choice_made_after_the_check_is_staged_anew_at_start(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "states.csv"
    path.write_text("Phone,Country\n9176193616,IN\n3025556222,DE\n3175556221,IN\n")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "states")
    page = wizard.check_page
    staged = page.result.staged.path
    # The doubt is said once, above its box, not again among staging's warnings.
    assert page.doubt_label.isVisible()
    assert not [w for w in page.result.warnings if "US states' codes" in w]
    page.countries_box.setChecked(True)
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()
    assert finished.args[0]["status"] == "finished"
    # The box changed what staging records: the checked job was not the one sent.
    assert wizard.handle.job_path.name != staged.name
    qtbot.waitUntil(lambda: _checks(AppPaths.default()) == [], timeout=TIMEOUT)
    # Staged with the box: read as countries, India's and Germany's numbers went on the list.
    listed = {r["phone_code"] for r in sandbox.store.all("SELECT phone_code FROM dnc")}
    assert listed == {"91", "49"}


def test_closing_as_the_check_ends_leaves_no_job(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "two_tables.csv"
    path.write_text(TWO_TABLES, encoding="utf-8")
    wizard = open_wizard(qtbot, session, runner, path)
    wizard.next()
    wizard.next()
    wizard.target_page.note_edit.setText("closed")
    wizard.next()  # the check starts on the runner
    # The check has staged its job and its answer waits in the event queue when the wizard
    # closes: the answer comes to a closed wizard, and its job is deleted all the same.
    assert runner.wait()
    wizard.reject()
    qtbot.waitUntil(
        lambda: _checks(AppPaths.default()) == [] and not runner.active, timeout=TIMEOUT
    )
    assert wizard.check_page.result is None
    assert list_jobs(AppPaths.default().jobs_dir) == []


def test_a_file_of_one_row_is_counted_as_one(
    qtbot: Any, session: Session, runner: TaskRunner, tmp_path: Path
) -> None:
    path = tmp_path / "one.csv"
    path.write_text("Phone\n3035550123\n", encoding="utf-8")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "one row")
    assert wizard.check_page.status.text().startswith("1 of 1 row will be sent."), (
        wizard.check_page.status.text()
    )
