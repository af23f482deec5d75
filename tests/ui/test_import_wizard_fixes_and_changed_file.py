"""Task S20 W4, black-box B11's findings in the import wizard's check page:

1. a fix typed on the check page was kept by row number alone: after Back and another phone
   column chosen, it replaced that row's cell in the new column (a wrong number listed, the
   right one left off). A fix now belongs to the file, sheet, header row and phone column it
   was typed under; checked under another choice it is dropped, and the page says so.
2. the file changed on disk between the check and Start: Start sent the rows read before,
   with no word. Start now compares the file with the check's fingerprint; changed or gone,
   nothing is sent, the file is checked again and the page says why.
3. the campaign list arriving after the check left the page stale, and Start staged anew
   with results never shown. The file is now checked again with the list as it arrives.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QLabel

from app.core.job_store import JobStore
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.sheet_mapping import Role
from app.ui import import_pages_check
from app.ui.import_pages_check import COL_PROBLEM, COL_ROW
from app.ui.import_wizard import ImportWizard
from app.ui.tasks import TaskRunner
from tests.ui.test_import_wizard import TIMEOUT, counts, open_wizard, to_check_page

# The check would have made the Alt Phone column's row 3 the fix typed for Phone's "12345".
REMAP = (
    "Phone,Alt Phone,Reason\n"
    "9195550101,9195550201,req\n"
    "12345,9195550202,typo\n"
    "9195550103,9195550203,req\n"
)
CHECKED = "Phone,Reason\n4045550201,req\n404555020,req\n4045550203,req\n"
# Corrected in Excel after the check (row 3), and a row added.
EDITED = (
    "Phone,Reason\n4045550201,req\n4045550202,req (fixed in Excel)\n4045550203,req\n"
    "4045550204,req added\n"
)


def _listed_numbers(sandbox: Any, like: str) -> set[str]:
    rows = sandbox.store.all("SELECT phone_number FROM dnc WHERE phone_number LIKE ?", (like,))
    return {r["phone_number"] for r in rows}


def _recheck(qtbot: Any, wizard: ImportWizard) -> None:
    page = wizard.check_page
    page.recheck_button.click()
    qtbot.waitUntil(lambda: page.result is not None, timeout=TIMEOUT)


def _start(qtbot: Any, wizard: ImportWizard) -> dict[str, Any]:
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()  # "Start import"
    summary: dict[str, Any] = finished.args[0]
    return summary


def _start_refused(qtbot: Any, wizard: ImportWizard) -> None:
    """Start, refused for a file changed since the check: compared on the runner, then checked
    again (the notice is shown as that check starts), the wizard left on the check page."""
    page = wizard.check_page
    wizard.next()
    assert wizard.currentId() == wizard.PAGE_CHECK
    qtbot.waitUntil(
        lambda: "since it was checked" in page.notice.text() and not page.checking,
        timeout=TIMEOUT,
    )
    assert wizard.currentId() == wizard.PAGE_CHECK


def _phone_column(wizard: ImportWizard, header: str) -> None:
    combo = wizard.mapping_page.combos[Role.PHONE]
    index = next(i for i in range(combo.count()) if combo.itemText(i).startswith(header))
    combo.setCurrentIndex(index)


def test_a_fix_typed_for_one_phone_column_is_dropped_when_another_is_chosen(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "remapfix.csv"
    path.write_text(REMAP, encoding="utf-8")
    wizard = open_wizard(qtbot, session, runner, path)
    wizard.next()
    # The engine proposes Alt Phone, whose cells are all numbers; the person means Phone.
    _phone_column(wizard, "Phone")
    wizard.next()
    wizard.target_page.note_edit.setText("b11 fix then remap")
    wizard.next()
    page = wizard.check_page
    # Said as it is: still checking, then checked.
    assert page.subTitle().startswith("Every row is being normalized and checked;")
    qtbot.waitUntil(lambda: page.result is not None, timeout=TIMEOUT)
    assert page.subTitle().startswith("Every row was normalized and checked;")
    assert counts(wizard)["invalid"] == 1
    # Row 3, invalid; rows 2 and 4 name their Alt Phone number, not imported (task S32 fx4).
    assert page.fix_note.text().startswith("3 rows listed. A fix replaces")
    page.fix(3, "9195550102")  # row 3's Phone cell, "12345"
    _recheck(qtbot, wizard)
    assert (counts(wizard)["valid"], counts(wizard)["invalid"]) == (3, 0)

    # Back to the target page and forward: nothing the fix depends on changed, it stays.
    wizard.back()
    wizard.next()
    qtbot.waitUntil(lambda: page.result is not None, timeout=TIMEOUT)
    assert page.fixes == {3: "9195550102"}
    notice = page.findChild(QLabel, "check-notice")
    assert notice is None or not notice.isVisible()
    assert counts(wizard)["valid"] == 3

    # Back to the columns: Alt Phone is the phone column now; the fix was Phone's.
    wizard.back()
    wizard.back()
    assert wizard.currentId() == wizard.PAGE_MAPPING
    _phone_column(wizard, "Alt Phone")
    wizard.next()
    wizard.next()
    qtbot.waitUntil(lambda: page.result is not None, timeout=TIMEOUT)
    assert page.fixes == {}
    assert page.notice.isVisible()
    assert page.notice.text() == (
        "⚠ 1 fix typed for column A ('Phone') was dropped: the phone column is now "
        "column B ('Alt Phone')."
    )
    assert "fixed by hand" not in page.status.text()
    assert counts(wizard)["valid"] == 3

    summary = _start(qtbot, wizard)
    assert (summary["status"], summary["inserted"]) == ("finished", 3)
    with JobStore(wizard.handle.job_path) as store:
        assert not store.meta().get("corrections")
        sent = {r.row_number: r.national for r in store.rows()}
    assert sent == {2: "9195550201", 3: "9195550202", 4: "9195550203"}
    # The right number is on the list, the one typed for the other column is not.
    assert _listed_numbers(sandbox, "919555%") == {"9195550201", "9195550202", "9195550203"}


def test_a_fix_is_dropped_when_the_header_row_changes(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "header.csv"
    path.write_text("Vendor list of 3 Nov\nPhone,Reason\n12345,typo\n6175550101,req\n")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "b11 header row")
    page = wizard.check_page
    page.fix(3, "6175550199")
    _recheck(qtbot, wizard)
    assert counts(wizard)["valid"] == 2
    for _ in range(3):
        wizard.back()
    assert wizard.currentId() == wizard.PAGE_SOURCE
    wizard.source_page.header_spin.setValue(1)
    wizard.next()
    _phone_column(wizard, "Vendor list")
    wizard.next()
    wizard.next()
    qtbot.waitUntil(lambda: page.result is not None, timeout=TIMEOUT)
    assert page.fixes == {}
    assert page.notice.text().endswith("was dropped: the header row is now row 1.")


def test_start_checks_again_a_file_changed_since_the_check_and_sends_nothing(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "changing.csv"
    path.write_text(CHECKED, encoding="utf-8")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "b11 changed")
    page = wizard.check_page
    assert (counts(wizard)["valid"], counts(wizard)["invalid"]) == (2, 1)
    page.fix(3, "4045550299")
    _recheck(qtbot, wizard)
    assert counts(wizard)["valid"] == 3
    first = page.result.staged
    assert first is not None

    path.write_text(EDITED, encoding="utf-8")  # saved in Excel after looking at the rows
    _start_refused(qtbot, wizard)  # "Start import": refused, checked again
    assert wizard.handle is None
    lines = page.notice.text().split("\n")
    size = len(EDITED.encode())
    assert lines[0].startswith(
        f"⚠ changing.csv has changed: it is {size:,} bytes now, {len(CHECKED.encode()):,} then "
        "(modified "
    )
    assert lines[0].endswith(
        ") since it was checked: nothing was sent. It was checked again: look at the rows, "
        "then start."
    )
    # The fix was for row 3 as it was; the rows may have moved.
    assert lines[1].startswith("⚠ 1 fix typed for the rows as they were was dropped")
    assert page.fixes == {}
    assert (counts(wizard)["rows"], counts(wizard)["valid"], counts(wizard)["invalid"]) == (
        4,
        4,
        0,
    )
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    qtbot.waitUntil(lambda: not first.path.parent.exists(), timeout=TIMEOUT)

    # Looked at, started again: the file as it is now is sent.
    summary = _start(qtbot, wizard)
    assert (summary["status"], summary["inserted"], summary["invalid"]) == ("finished", 4, 0)
    assert _listed_numbers(sandbox, "404555%") == {
        "4045550201",
        "4045550202",
        "4045550203",
        "4045550204",
    }


def test_start_with_the_checked_file_gone_sends_nothing(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "deleted.csv"
    path.write_text("Phone,Reason\n8015550101,req\n8015550102,req\n")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "b11 deleted")
    page = wizard.check_page
    path.unlink()
    _start_refused(qtbot, wizard)
    assert page.notice.text().startswith(
        "⚠ deleted.csv is no longer there since it was checked: nothing was sent."
    )
    assert page.status.text().startswith("⚠ ")
    assert not page.isComplete()
    assert wizard.handle is None
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0


def test_a_file_saved_with_the_same_contents_is_checked_again_then_sent(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "touched.csv"
    path.write_text("Phone,Reason\n8015550101,req\n")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "b11 touched")
    page = wizard.check_page
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    _start_refused(qtbot, wizard)
    assert page.notice.text().startswith(
        "⚠ touched.csv was saved again with the same contents since it was checked"
    )
    summary = _start(qtbot, wizard)
    assert (summary["status"], summary["inserted"]) == ("finished", 1)


@pytest.fixture
def slow_campaigns(session: Session, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The campaign list held back until the test lets it through (a slow service)."""
    gate = threading.Event()
    campaigns: Callable[..., Any] = session.api.campaigns

    def held(cancel: Any = None) -> Any:
        gate.wait(TIMEOUT / 1000)
        return campaigns(cancel)

    monkeypatch.setattr(session.api, "campaigns", held)
    yield gate
    gate.set()


def test_the_campaign_list_arriving_after_the_check_checks_again(
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    tmp_path: Path,
    slow_campaigns: threading.Event,
) -> None:
    sandbox.seed_campaign("Solar Savings Outreach")
    sandbox.seed_campaign("Medicare Enrollment 2026")
    cid = sandbox.seed_campaign("Summer Leads")
    path = tmp_path / "campaigns.csv"
    path.write_text(
        "Phone,Campaign,Reason\n"
        "6125550101,Solar Savings Outreach,req\n"
        "6125550102,Medicare Enrollment 2026,req\n"
        f"6125550103,{cid},req\n"
        "6125550104,9999,req bad id\n"
    )
    wizard = ImportWizard(session, runner, AppPaths.default(), path)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitUntil(lambda: wizard.source_page.probe is not None, timeout=TIMEOUT)
    to_check_page(qtbot, wizard, "b11 late campaigns")
    page = wizard.check_page
    assert wizard.target_page.per_row
    assert "the campaign list is not loaded" in page.status.text()
    # The names cannot be resolved without the list; the ids go unchecked.
    assert (counts(wizard)["valid"], counts(wizard)["invalid"]) == (2, 2)

    slow_campaigns.set()
    qtbot.waitUntil(
        lambda: page.result is not None and counts(wizard)["invalid"] == 1, timeout=TIMEOUT
    )
    assert page.notice.text() == (
        "The campaign list loaded after the check began: the file was checked again with it "
        "(campaign ids and names are checked now)."
    )
    assert "not loaded" not in page.status.text()
    listed = {
        page.model.item(r, COL_ROW).text(): page.model.item(r, COL_PROBLEM).text()
        for r in range(page.model.rowCount())
    }
    assert "9999" in listed["5"], listed
    assert page.isComplete()
    staged = page.result.staged
    assert staged is not None

    summary = _start(qtbot, wizard)
    assert (summary["status"], summary["inserted"], summary["invalid"]) == ("finished", 3, 1)
    # What the page showed was what was sent: the very job it staged.
    assert wizard.handle.job_path.name == staged.path.name


def test_start_looks_at_the_file_on_the_runner_not_the_gui_thread(
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Code review RV #5: Start compared the file with its check by a stat on the GUI thread
    # (a file on a network share that went away can block it for long).
    path = tmp_path / "threads.csv"
    path.write_text("Phone,Reason\n8015550111,req\n")
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "rv threads")
    looked_on: list[threading.Thread] = []
    original = import_pages_check.source_unchanged

    def watched(staged: Any) -> bool:
        looked_on.append(threading.current_thread())
        return original(staged)

    monkeypatch.setattr(import_pages_check, "source_unchanged", watched)
    summary = _start(qtbot, wizard)
    assert (summary["status"], summary["inserted"]) == ("finished", 1)
    assert looked_on and threading.main_thread() not in looked_on
