"""Task W6 #1: the import wizard gave no word of a Country column of "IN" and "DE" beside
numbers valid both ways (Indiana's or India's), which the command line warns of: its check
page now says it before the import is started, the job's report keeps it, and ticking the box
saying the column holds countries (the person's explicit word) records that choice instead."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from app.core.session import Session
from app.ui.tasks import TaskRunner
from tests.ui.test_import_wizard import TIMEOUT, open_wizard, to_check_page

READS_BOTH_WAYS = "Phone,Country\n9176193616,IN\n3025556222,DE\n3175556221,IN\n"
DOUBT = "holds IN and DE, which are US states' codes (Indiana and Delaware)"
ADVICE = "tick the box saying so on the import wizard's check page"
CHOICE = "it was read for countries (India and Germany), as chosen when the import was started"


def _report_warnings(report: str) -> list[str]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        return [
            str(value)
            for label, value in book["Summary"].iter_rows(values_only=True)
            if str(label).startswith("Warning")
        ]
    finally:
        book.close()


def _start(qtbot: Any, wizard: Any) -> dict[str, Any]:
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()  # "Start import"
    summary: dict[str, Any] = finished.args[0]
    return summary


def test_the_check_page_says_the_doubt_and_the_report_keeps_it(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "states.csv"
    path.write_text(READS_BOTH_WAYS)
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard)
    page = wizard.check_page
    assert page.doubt_label.isVisible()
    shown = page.doubt_label.text()
    assert DOUBT in shown and ADVICE in shown and "--ignore-column" not in shown
    assert page.countries_box.isVisible() and not page.countries_box.isChecked()
    assert page.countries_box.text() == (
        "Column B ('Country') holds countries (India and Germany), not US states (Indiana and "
        "Delaware)"
    )
    summary = _start(qtbot, wizard)
    assert summary["status"] == "finished"
    said = [w for w in _report_warnings(summary["report"]) if DOUBT in w]
    assert said == [shown.removeprefix("⚠ ")]  # the report says what the page said


def test_ticking_the_box_records_the_choice_instead(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "states.csv"
    path.write_text(READS_BOTH_WAYS)
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard)
    wizard.check_page.countries_box.setChecked(True)
    summary = _start(qtbot, wizard)
    warnings = _report_warnings(summary["report"])
    assert not [w for w in warnings if DOUBT in w]
    assert [w for w in warnings if CHOICE in w]
    # Read as countries either way: India's and Germany's numbers went on the list.
    listed = {r["phone_code"] for r in sandbox.store.all("SELECT phone_code FROM dnc")}
    assert listed == {"91", "49"}


def test_going_back_forgets_the_tick(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "states.csv"
    path.write_text(READS_BOTH_WAYS)
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard)
    wizard.check_page.countries_box.setChecked(True)
    wizard.back()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    assert wizard.check_page.countries_box.isVisible()
    assert not wizard.check_page.countries_chosen


def test_a_file_without_the_doubt_shows_no_box(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "plain.csv"
    path.write_text("Phone,Country\n2025550143,US\n3035550101,US\n")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard)
    assert not wizard.check_page.doubt_label.isVisible()
    assert not wizard.check_page.countries_box.isVisible()
