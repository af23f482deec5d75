"""Black-box bb6 F1 through real widgets: the list view's Delete of a selected entry, with a
lead re-status, whose delete got no answer on any attempt (the sandbox's drop fault cut each
off, the first after doing it). The removal dialog's headline counts it removed, saying a
look-up after the error found it gone, and its lead is set; it said "failed" with only "the
connection … broke before the answer came"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from app.api.scope import Scope
from app.core.connections import Connection
from app.core.dnc_removal import Outcome
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.ui.delete_dialog import DeleteDialog
from app.ui.list_view import EntryListView, ListKind
from app.ui.removal_progress import RemovalProgressDialog
from app.ui.tasks import TaskRunner
from tests.core.delete_drops import SandboxDropsDeletes
from tests.core.lead_wire import seed_leads
from tests.core.test_removal_failed_after_lost_answer import NUMBER

TIMEOUT = 10_000


def test_delete_of_an_entry_whose_answers_were_all_lost_says_removed(
    qtbot: Any, runner: TaskRunner, sandbox: Any, wired_api: Any, tmp_path: Path
) -> None:
    wire = SandboxDropsDeletes(sandbox, every=True)
    api = wired_api(wire)
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")
    list_id = api.insert_list("Renewal calls", api.campaigns()[0].id)
    (lead,) = seed_leads(sandbox, list_id, [(NUMBER, "1", "", "", "NEW")])
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    view = EntryListView(ListKind.DNC, runner)
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    view.table.selectAll()
    view.delete_selected()
    dialog = view.dialog
    assert isinstance(dialog, DeleteDialog)
    qtbot.keyClicks(dialog.reason_edit, "consumer asked")
    dialog.restatus_check.setChecked(True)
    dialog.picker.search_edit.setText("DNC")  # an empty box lists nothing
    qtbot.waitUntil(lambda: "DNC" in [s.status for s in dialog.picker.statuses()], timeout=TIMEOUT)
    assert dialog.picker.select("DNC")
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: isinstance(view.dialog, RemovalProgressDialog), timeout=TIMEOUT)
        progress = view.dialog
        qtbot.waitUntil(lambda: progress.removal_result is not None, timeout=TIMEOUT)
    assert wire.dropped == 2
    [outcome] = progress.removal_result.outcomes
    assert outcome.outcome is Outcome.REMOVED
    assert sandbox.store.scalar("SELECT status FROM leads WHERE id = ?", (int(lead),)) == "DNC"
    headline = progress.label.text()
    assert headline.startswith(
        "Removed 1 (1 of them ended in an error after a lost answer, and a look-up right after "
        "found them gone) of 1."
    )
    assert "failed" not in headline
    # A removed input whose lead was set is not listed below the headline.
    assert "failed" not in progress.details.toPlainText()
    session.close()
    journal.close()
