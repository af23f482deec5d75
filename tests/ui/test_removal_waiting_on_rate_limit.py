"""The list view's removal dialog says it is waiting on the service's rate limit while the
service refuses its requests with HTTP 429 (black-box bb6 F9: "Removed or checked 0 of 60…"
for minutes, with no word of the limit, on a sandbox with --rate-limit 40).

Against the sandbox over loopback HTTP, its rate limit switched on just before the removal
starts, through the real list view, delete dialog and removal dialog.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.dnc_removal import Outcome
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.ui.delete_dialog import DeleteDialog
from app.ui.list_view import EntryListView, ListKind
from app.ui.removal_progress import RemovalProgressDialog
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN
from tests.core.lead_wire import seed_leads

TIMEOUT = 10_000


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    """The app's own retry policy: a 429's Retry-After is waited out as in the window."""
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    s = Session(
        Connection("Sandbox", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal
    )
    yield s
    s.close()
    journal.close()


def test_the_dialog_says_it_waits_on_the_rate_limit(
    qtbot: Any, runner: TaskRunner, sandbox: Any, session: Session
) -> None:
    api = session.api
    list_id = api.insert_list("Rate limit list", api.campaigns()[0].id)
    numbers = ["2025550161", "2025550162"]
    seed_leads(sandbox, list_id, [(n, "1", "", "", "NEW") for n in numbers])
    for number in numbers:
        api.insert_dnc(number, "1", Scope.global_())
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
    dialog.picker.search_edit.setText("DNC")
    qtbot.waitUntil(lambda: "DNC" in [s.status for s in dialog.picker.statuses()], timeout=TIMEOUT)
    assert dialog.picker.select("DNC")
    # 6 a minute, 2 at once: the leads' look-ups (many per entry) are refused within a second.
    sandbox.set_faults(rate_limit=6)
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: isinstance(view.dialog, RemovalProgressDialog), timeout=TIMEOUT)
    progress = view.dialog
    assert isinstance(progress, RemovalProgressDialog)
    qtbot.waitUntil(lambda: progress.wait_label.isVisibleTo(progress), timeout=TIMEOUT)
    text = progress.wait_label.text()
    assert text.startswith(
        "Waiting on the service's rate limit: it is refusing requests (HTTP 429)"
    )
    assert "about 19 requests" in text and "Cancel" in text
    assert progress.removal_result is None
    # Cancelling while held ends the run without waiting out the hold; the line goes.
    progress.cancel()
    qtbot.waitUntil(lambda: progress.removal_result is not None, timeout=TIMEOUT)
    assert not progress.wait_label.isVisibleTo(progress)
    sandbox.set_faults(rate_limit=0)
    result = progress.removal_result
    assert {o.outcome for o in result.outcomes} <= {Outcome.NOT_ATTEMPTED, Outcome.REMOVED}
