"""Task S33 fxB: the import wizard's run and result pages.

1. The result page did not repeat the job's warnings (the wizard's job keeps no notes: the
   check page said them before Start); a person reading only the end missed them. It now
   shows the warnings of the report's Summary, under the counts.
2. "Import column B next…" asked the list, scope and note again and detected the header row
   anew; it now carries them over (editable), checked again before anything is sent.
3. On a flaky service the run page counted the rows this job may have inserted (a lost answer,
   then "already present") as "already on the list" alone; it now says, as the result page
   does, how many of them this job may have inserted.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import DEFAULT_RETRY, RetryPolicy
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.core.sheet_check import Target
from app.ui.import_wizard import ImportWizard
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN
from tests.ui.test_import_wizard import TIMEOUT, open_wizard, to_check_page
from tests.ui.test_import_wizard_check_page_staging import OTHER_NUMBER, SECOND_TABLE, TWO_TABLES
from tests.ui.test_import_wizard_second_phone import HOME_AND_MOBILE


def _finish(qtbot: Any, wizard: ImportWizard) -> dict[str, Any]:
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()  # Start
    qtbot.waitUntil(lambda: wizard.currentId() == wizard.PAGE_RESULT, timeout=TIMEOUT)
    summary: dict[str, Any] = finished.args[0]
    return summary


def test_the_result_page_repeats_the_warnings_of_the_reports_summary(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "two_tables.csv"
    path.write_text(TWO_TABLES, encoding="utf-8")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "two tables")
    summary = _finish(qtbot, wizard)
    page = wizard.result_page
    assert page.notes_box.isVisible() and page.notes_label.isVisible()
    shown = page.notes_box.toPlainText().splitlines()
    assert SECOND_TABLE in shown, shown
    assert [w for w in shown if w.startswith(OTHER_NUMBER)], shown
    # The counts are still there, above the warnings.
    assert page.value_labels["inserted"].text() == str(summary["inserted"]) == "4"
    assert page.value_labels["invalid"].text() == "3"
    wizard.grab().save(str(tmp_path / "result_page.png"))


def test_the_next_import_carries_the_list_scope_header_row_and_note(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "home_and_mobile.csv"
    path.write_text(HOME_AND_MOBILE, encoding="utf-8")
    wizard = open_wizard(qtbot, session, runner, path)
    wizard.next()
    wizard.next()
    target = wizard.target_page
    target.sms_radio.setChecked(True)
    target.scope_combo.setCurrentIndex(target.scope_combo.findData("purpose"))
    target.purpose_edit.setText("Collections")
    target.note_edit.setText("vendor file of 3 Nov")
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    _finish(qtbot, wizard)
    opened: list[ImportWizard] = []
    wizard.next_import.connect(opened.append)
    wizard.next_button.click()
    second = opened[0]
    qtbot.addWidget(second)
    qtbot.waitUntil(lambda: second.source_page.probe is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: bool(second.campaign_lookup), timeout=TIMEOUT)
    assert second.source_page.header_row == 1
    assert "header row 1, as the import before read it" in second.source_page.message.text()
    second.next()
    second.next()
    page = second.target_page
    # Carried, to confirm: the same list, scope and note, still editable.
    assert page.target is Target.SMS_OPT_OUT
    assert page.scope_combo.currentData() == "purpose"
    assert page.purpose_edit.text() == "Collections" and page.purpose_edit.isEnabled()
    assert page.note_edit.text() == "vendor file of 3 Nov" and not page.note_edit.isReadOnly()
    assert page.isComplete()
    second.next()
    # Still a new import, checked before anything is sent.
    assert second.currentId() == second.PAGE_CHECK
    qtbot.waitUntil(lambda: second.check_page.result is not None, timeout=TIMEOUT)
    assert second.handle is None
    settings = second.settings()
    assert (settings.target, settings.scope) == (Target.SMS_OPT_OUT, Scope.purpose("Collections"))
    assert settings.note == "vendor file of 3 Nov"
    summary = _finish(qtbot, second)
    assert summary["inserted"] == 2


@pytest.fixture
def flaky_session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    # The default attempts with tiny pauses: the backoff is not what this test checks.
    quick = RetryPolicy(attempts=DEFAULT_RETRY.attempts, base_delay=0.001, max_delay=0.002)
    s = Session(
        Connection("Flaky", sandbox.base_url),
        ApiClient(sandbox.base_url, TOKEN, retry=quick),
        ChangeJournal(tmp_path / "journal.sqlite3"),
    )
    yield s
    s.close()
    s.journal.close()


def test_the_run_page_says_which_rows_this_job_may_have_inserted(
    qtbot: Any, runner: TaskRunner, flaky_session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "numbers.csv"
    path.write_text("Phone\n" + "".join(f"(202) 555-{i + 100:04d}\n" for i in range(30)))
    wizard = open_wizard(qtbot, flaky_session, runner, path)
    to_check_page(qtbot, wizard, "flaky service")
    wizard.target_page.concurrency_spin.setValue(1)
    # The service does every write but loses half of the answers: retried, "already present".
    sandbox.set_faults(drop_rate=0.5)
    summary = _finish(qtbot, wizard)
    maybe = summary["already_present_maybe_inserted"]
    assert maybe > 0, summary
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 30  # none was there before
    run_text = wizard.run_page.counts_label.text()
    assert f"already on the list: {summary['already_present']:,}" in run_text, run_text
    assert f"of which this job may have inserted: {maybe:,}" in run_text, run_text
    result = wizard.result_page.value_labels["already_present_maybe_inserted"]
    assert result.text() == f"{maybe:,}"
