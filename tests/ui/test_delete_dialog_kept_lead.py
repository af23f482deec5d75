"""The list view's removal dialog shows a removed entry whose number kept a lead in its old
status (the service refused that lead's update), and its summary line does not say the status
was set with each removal without saying so (black-box S18 H2b).

Against the sandbox over loopback HTTP, through the real list view, delete dialog and removal
dialog. The sandbox refuses the lead's update for real ("not found"): the lead is deleted just
before its ``/leads/update`` reaches it, after the removal looked it up.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtCore import Qt

from app.api.scope import Scope
from app.core.dnc_removal import Outcome, RemovalOutcome, RemovalResult, RemovalTarget
from app.core.session import Session
from app.ui.delete_dialog import DeleteDialog
from app.ui.list_view import EntryListView, ListKind
from app.ui.removal_progress import RemovalProgressDialog, summary_text
from app.ui.tasks import TaskRunner
from tests.core.lead_wire import Forwarding, seed_leads, wired_session

TIMEOUT = 10_000
LEADS_UPDATE = "/v1/leads/update"
ONE_KEPT = (
    "Removed 2 of 2. Lead status set to DNC with each removal, but 1 removed entry's number "
    "has a lead the service refused to update, which keeps its status."
)


@pytest.fixture
def wire() -> Forwarding:
    return Forwarding()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Forwarding) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, wire)


def _statuses(sandbox: Any) -> dict[str, str]:
    return {str(r["id"]): str(r["status"]) for r in sandbox.store.all("SELECT * FROM leads")}


def test_a_lead_the_service_refused_to_set_is_listed_and_the_summary_says_so(
    qtbot: Any, runner: TaskRunner, sandbox: Any, session: Session, wire: Forwarding
) -> None:
    api = session.api
    list_id = api.insert_list("Kept lead list", api.campaigns()[0].id)
    # A UK entry kept without its trunk 0: the delete sets the lead holding its digits, and
    # the one typed with the 0 is set by its own update, which the service refuses.
    sandbox.bulk_seed_dnc([("7911123496", "44", "0", "", "")])
    api.insert_dnc("2025550143", "1", Scope.global_())
    plain, zero, us = seed_leads(
        sandbox,
        list_id,
        [
            ("7911123496", "44", "", "", "NEW"),
            ("07911123496", "44", "", "", "NEW"),
            ("2025550143", "1", "", "", "NEW"),
        ],
    )
    forward = wire.handle_request

    def lead_gone_first(request: httpx.Request) -> httpx.Response:
        if request.url.path == LEADS_UPDATE:
            sandbox.store.execute("DELETE FROM leads WHERE id = ?", (int(zero),))
        return forward(request)

    wire.handle_request = lead_gone_first  # type: ignore[method-assign]

    view = EntryListView(ListKind.DNC, runner)
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    assert view.model.rowCount() == 2
    view.table.selectAll()
    messages: list[str] = []
    view.status_message.connect(messages.append)
    view.delete_selected()
    dialog = view.dialog
    assert isinstance(dialog, DeleteDialog)
    qtbot.keyClicks(dialog.reason_edit, "consumer asked")
    dialog.restatus_check.setChecked(True)
    dialog.picker.search_edit.setText("DNC")  # an empty box lists nothing (B36 F1)
    qtbot.waitUntil(lambda: "DNC" in [s.status for s in dialog.picker.statuses()], timeout=TIMEOUT)
    assert dialog.picker.select("DNC")
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: isinstance(view.dialog, RemovalProgressDialog), timeout=TIMEOUT)
        progress = view.dialog
        qtbot.waitUntil(lambda: progress.removal_result is not None, timeout=TIMEOUT)

    result = progress.removal_result
    assert [o.outcome for o in result.outcomes] == [Outcome.REMOVED, Outcome.REMOVED]
    assert _statuses(sandbox) == {plain: "DNC", us: "DNC"}  # the refused one is gone
    assert progress.label.text() == ONE_KEPT
    assert any(m.startswith(f"DNC removal: {ONE_KEPT}") for m in messages)
    # Only the UK entry is listed, as removed, naming the lead that kept its status.
    assert progress.details.isVisibleTo(progress)
    (line,) = progress.details.toPlainText().splitlines()
    assert "(+44 7911123496, " in line
    assert ": removed — " in line
    assert (
        f"not set to DNC (the change journal has each attempt), so each keeps its status: "
        f"lead {zero} (list {list_id}): " in line
    )


def _removed(number: str, message: str) -> RemovalOutcome:
    # A lead not set is counted on the outcome, as dnc_removal counts it with its message.
    refused = int("keeps its status" in message)
    target = RemovalTarget(number, "1", Scope.global_())
    return RemovalOutcome(target, Outcome.REMOVED, message, leads_refused=refused)


def test_the_summary_counts_every_removed_entry_that_kept_a_lead() -> None:
    kept = (
        "re-statused 1 lead: 3 (list 10, was NEW); not set to DNC (the change journal has "
        "each attempt), so each keeps its status: lead 4 (list 10): code 6071 (not found)"
    )
    set_all = "re-statused 1 lead: 5 (list 10, was NEW)"
    outcomes = [
        _removed("2025550143", kept),
        _removed("2025550144", kept),
        _removed("2025550145", set_all),
    ]
    assert summary_text(RemovalResult(outcomes, "job-1", "DNC")) == (
        "Removed 3 of 3. Lead status set to DNC with each removal, but 2 removed entries' "
        "numbers have a lead the service refused to update, which keeps its status."
    )
    assert summary_text(RemovalResult(outcomes[2:], "job-1", "DNC")) == (
        "Removed 1 of 1. Lead status set to DNC with each removal."
    )
