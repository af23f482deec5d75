"""The window's Delete dialog on one entry whose first delete got no answer (the sandbox's drop
fault cut it off after doing it) and whose retry was answered "not found": the removal dialog
says a look-up right after found it gone, removed most likely by that first attempt, and the
journal tab lists the settled event beside the delete (session 31 note: it was left "not
known"). Real widgets: list view, delete dialog, removal dialog, journal view."""

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
from app.ui.journal_view import JournalView
from app.ui.list_view import EntryListView, ListKind
from app.ui.removal_progress import RemovalProgressDialog
from app.ui.tasks import TaskRunner
from tests.core.delete_drops import SandboxDropsDeletes
from tests.core.test_removal_lost_answer_look_up import NUMBER

TIMEOUT = 10_000


def test_delete_dialog_says_the_lost_first_attempt_removed_it(
    qtbot: Any, runner: TaskRunner, sandbox: Any, wired_api: Any, tmp_path: Path
) -> None:
    wire = SandboxDropsDeletes(sandbox)
    api = wired_api(wire)
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")
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
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: isinstance(view.dialog, RemovalProgressDialog), timeout=TIMEOUT)
        progress = view.dialog
        qtbot.waitUntil(lambda: progress.removal_result is not None, timeout=TIMEOUT)
    assert wire.dropped == 1
    [outcome] = progress.removal_result.outcomes
    assert outcome.outcome is Outcome.NOT_FOUND and outcome.earlier_attempt_lost
    (line,) = progress.details.toPlainText().splitlines()
    assert "a look-up right after found it gone" in line
    assert (
        "first attempt, which got no answer saying whether it was done, most likely removed" in line
    )

    journal_view = JournalView(runner)
    qtbot.addWidget(journal_view)
    with qtbot.waitSignal(journal_view.model.total_changed, timeout=TIMEOUT):
        journal_view.set_journal(journal)
    model = journal_view.model
    rows = [
        " | ".join(str(model.index(r, c).data() or "") for c in range(model.columnCount()))
        for r in range(model.rowCount())
    ]
    [settled] = [row for row in rows if "dnc.delete.settled" in row]
    assert "| settled: removed, most likely by this delete's first attempt:" in settled
    session.close()
    journal.close()
