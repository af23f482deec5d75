"""Add dialog: an insert the service did, whose answer was lost, and whose retry was told
"already on the list" (black-box bb3 F3) is reported as made by this add, journaled so, and
read back; the removal headline does not call removals of that kind "already gone" (F4).

The wire forwards every request to the sandbox and cuts the answer of the first insert after
the sandbox handled it (what the sandbox's drop fault does, at a chosen request)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtCore import Qt

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.dnc_removal import Outcome, remove_dnc_entries
from app.core.entry_validation import EntryKind
from app.core.evidence import DONE, NOT_INSERTED, ON_THE_LIST, settle_writes
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.ui.entry_dialog import EntryDialog
from app.ui.list_view import EntryListView, ListKind
from app.ui.removal_progress import summary_text
from app.ui.tasks import TaskRunner

TIMEOUT = 10_000


class DropFirstAnswer(httpx.BaseTransport):
    """Forwards to the sandbox; the first request to ``path`` is handled, its answer lost.
    ``before`` runs just before that request is forwarded (another officer's write)."""

    def __init__(self, path: str, before: Callable[[], object] | None = None) -> None:
        self.inner = httpx.HTTPTransport()
        self.path = path
        self.before = before
        self.dropped = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        first = request.url.path.endswith(self.path) and not self.dropped
        if first and self.before is not None:
            self.before()
        response = self.inner.handle_request(request)
        if first:
            response.read()
            response.close()
            self.dropped += 1
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.")
        return response

    def close(self) -> None:
        self.inner.close()


@pytest.fixture
def lossy_session(
    wired_api: Any, sandbox: Any, tmp_path: Path
) -> Iterator[Callable[[DropFirstAnswer], Session]]:
    """``make(wire)``: a journaled session on the sandbox whose answers pass through ``wire``."""
    journals: list[ChangeJournal] = []

    def make(wire: DropFirstAnswer) -> Session:
        journals.append(ChangeJournal(tmp_path / f"journal{len(journals)}.sqlite3"))
        return Session(Connection("Test", sandbox.base_url), wired_api(wire), journals[-1])

    yield make
    for journal in journals:
        journal.close()


def _add(qtbot: Any, dialog: EntryDialog, phone: str, reason: str) -> Any:
    dialog.show()
    qtbot.keyClicks(dialog.phone_edit, phone)
    qtbot.keyClicks(dialog.reason_edit, reason)
    with qtbot.waitSignal(dialog.saved, timeout=TIMEOUT) as saved:
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    return saved.args[0]


@pytest.mark.parametrize(
    ("path", "kind", "op"),
    [("/dnc/insert", EntryKind.DNC, "dnc"), ("/sms-opt-out/insert", EntryKind.SMS, "sms")],
    ids=["dnc", "sms"],
)
def test_add_made_by_a_lost_first_attempt_is_reported_as_added(
    qtbot: Any,
    runner: TaskRunner,
    api: ApiClient,
    lossy_session: Any,
    path: str,
    kind: EntryKind,
    op: str,
) -> None:
    wire = DropFirstAnswer(path)
    session = lossy_session(wire)
    dialog = EntryDialog(kind, session, runner, api.campaigns())
    qtbot.addWidget(dialog)
    result = _add(qtbot, dialog, "(718) 555-0200", "drop test 0")
    assert wire.dropped == 1
    # The dialog closed as for a save, and says who made the entry.
    assert not dialog.isVisible()
    listed = (
        list(api.iter_dnc(DncQuery())) if kind is EntryKind.DNC else list(api.iter_sms(DncQuery()))
    )
    [entry] = listed
    assert (entry.phone_number, entry.reason, entry.scope) == (
        "7185550200",
        "drop test 0",
        Scope.global_(),
    )
    assert result.earlier_attempt_lost and result.id == entry.id
    assert "first attempt of this add" in result.message and f"entry {entry.id}" in result.message
    # The journal settles the write as on the list, as a job's retried row is settled.
    [write] = settle_writes(session.journal.query())
    assert write.result == ON_THE_LIST
    assert "first attempt of this add" in write.words


def test_add_whose_entry_differs_says_so(
    qtbot: Any, runner: TaskRunner, api: ApiClient, lossy_session: Any
) -> None:
    """Listed with another reason (someone else's entry, landed just before the first attempt,
    which the service refused unanswered): not reported as this add's."""

    def other_officer() -> None:
        api.insert_dnc("7185550201", "1", Scope.global_(), reason="someone else")

    session = lossy_session(DropFirstAnswer("/dnc/insert", other_officer))
    dialog = EntryDialog(EntryKind.DNC, session, runner, api.campaigns())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.phone_edit, "(718) 555-0201")
    qtbot.keyClicks(dialog.reason_edit, "drop test 1")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(dialog.problem("phone_number")), timeout=TIMEOUT)
    text = dialog.problem("phone_number")
    # The service's answer, then the look-up's finding, not quoted as the service's words.
    assert text.startswith("Phone number: phone already in DNC (code 6008) — the service said: ")
    assert "”. A look-up right after found it on the DNC list, but not as this add asked" in text
    assert "(reason “drop test 1”)" in text and "reason “someone else”" in text
    assert dialog.isVisible()
    [write] = settle_writes(session.journal.query())
    assert "not as this add asked" in write.words


def test_add_not_found_after_its_retry_says_so(
    qtbot: Any, runner: TaskRunner, api: ApiClient, lossy_session: Any
) -> None:
    """Listed when retried but gone at the look-up (someone removed it meanwhile): the dialog
    says it is not on the list, and the pack settles the write as not inserted."""

    class GoneBeforeLookUp(DropThenConflict):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.path.endswith("/dnc/search") and self.dropped:
                for entry in api.iter_dnc(DncQuery()):
                    api.delete_dnc(entry.phone_number, entry.phone_code, entry.scope)
            return super().handle_request(request)

    wire = GoneBeforeLookUp("/dnc/insert", 6008, "Phone number already in DNC")
    session = lossy_session(wire)
    dialog = EntryDialog(EntryKind.DNC, session, runner, api.campaigns())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.phone_edit, "(718) 555-0207")
    qtbot.keyClicks(dialog.reason_edit, "drop test 7")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(dialog.problem("phone_number")), timeout=TIMEOUT)
    text = dialog.problem("phone_number")
    assert "A look-up right after found it not on the DNC list in that scope" in text
    assert "add it again if it is missing" in text
    [write] = settle_writes(session.journal.query())
    assert write.result == NOT_INSERTED


def test_removal_headline_does_not_call_lost_answer_removals_already_gone(
    api: ApiClient, lossy_session: Any
) -> None:
    api.insert_dnc("7185550202", "1", Scope.global_(), reason="to go")
    api.insert_dnc("7185550203", "1", Scope.global_(), reason="to go")
    entries = sorted(api.iter_dnc(DncQuery()), key=lambda e: e.phone_number)
    gone = entries[1]
    api.delete_dnc(gone.phone_number, gone.phone_code, gone.scope)  # someone else's removal
    session = lossy_session(DropFirstAnswer("/dnc/delete"))
    result = remove_dnc_entries(session, entries, reason="bb3 F4", concurrency=1)
    assert [o.outcome for o in result.outcomes] == [Outcome.NOT_FOUND, Outcome.NOT_FOUND]
    assert [o.earlier_attempt_lost for o in result.outcomes] == [True, False]
    assert summary_text(result) == (
        "Removed 0; not found (already gone) 1; not found when retried (an earlier attempt "
        "whose answer was lost may have removed it) 1 of 2."
    )


class DropThenConflict(DropFirstAnswer):
    """As :class:`DropFirstAnswer`, then answers the retries to ``path`` as a service that
    counts the entry's own new number against it ("already listed"), which the spec allows
    (/dnc/update 6008, /sms-opt-out/update 6059) and the sandbox does not do."""

    def __init__(self, path: str, code: int, message: str) -> None:
        super().__init__(path)
        self.body = json.dumps({"success": False, "error": message, "code": code}).encode()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith(self.path) and self.dropped:
            return httpx.Response(
                200, content=self.body, headers={"content-type": "application/json"}
            )
        return super().handle_request(request)


@pytest.mark.parametrize(
    ("path", "code", "kind"),
    [("/dnc/update", 6008, EntryKind.DNC), ("/sms-opt-out/update", 6059, EntryKind.SMS)],
    ids=["dnc", "sms"],
)
def test_edit_made_by_a_lost_first_attempt_is_saved(
    qtbot: Any,
    runner: TaskRunner,
    api: ApiClient,
    lossy_session: Any,
    path: str,
    code: int,
    kind: EntryKind,
) -> None:
    """An edit moving the entry to another number, its answer lost and its retry told the new
    number is already listed (by the entry itself): the dialog reads the entry back."""
    dnc = kind is EntryKind.DNC
    insert = api.insert_dnc if dnc else api.insert_sms
    insert("7185550210", "1", Scope.global_(), reason="was")
    [before] = list(api.iter_dnc(DncQuery())) if dnc else list(api.iter_sms(DncQuery()))
    wire = DropThenConflict(path, code, "Phone number already in DNC")
    session = lossy_session(wire)
    dialog = EntryDialog(kind, session, runner, api.campaigns(), before)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.phone_edit.setText("(718) 555-0211")
    dialog.reason_edit.setText("moved")
    with qtbot.waitSignal(dialog.saved, timeout=TIMEOUT) as saved:
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert wire.dropped == 1
    [after] = list(api.iter_dnc(DncQuery())) if dnc else list(api.iter_sms(DncQuery()))
    assert (after.id, after.phone_number, after.reason) == (before.id, "7185550211", "moved")
    assert not dialog.isVisible()
    result = saved.args[0]
    assert result.earlier_attempt_lost and "first attempt made the change" in result.message
    op = "dnc" if dnc else "sms"
    [write] = [
        w for w in settle_writes(session.journal.query()) if w.intent.operation == f"{op}.update"
    ]
    assert write.result == DONE and "first attempt made the change" in write.words


def test_list_view_refreshes_and_says_who_made_the_entry(
    qtbot: Any, runner: TaskRunner, api: ApiClient, lossy_session: Any
) -> None:
    """Through the DNC tab: the list shows the new entry and the status bar says an earlier
    attempt whose answer was lost made it (bb3 F3: the list stayed unrefreshed)."""
    session = lossy_session(DropFirstAnswer("/dnc/insert"))
    view = EntryListView(ListKind.DNC, runner)
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    assert view.model.rowCount() == 0
    said: list[str] = []
    view.status_message.connect(said.append)
    view.add_entry()
    dialog = view.dialog
    assert isinstance(dialog, EntryDialog)
    qtbot.keyClicks(dialog.phone_edit, "(718) 555-0205")
    qtbot.keyClicks(dialog.reason_edit, "drop test 5")
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert view.model.rowCount() == 1
    [entry] = api.iter_dnc(DncQuery())
    [text] = [t for t in said if "journaled" in t]
    assert text.startswith("DNC list: (718) 555-0205 on the DNC list as asked, entry ")
    assert f"entry {entry.id} (reason “drop test 5”" in text
    assert "first attempt of this add got no answer" in text


def test_journal_outcome_of_an_add_made_by_a_lost_attempt_is_not_failed(
    qtbot: Any, runner: TaskRunner, api: ApiClient, lossy_session: Any
) -> None:
    """The write's outcome row says already present (an earlier attempt may have done it), as
    a job's retried insert records it, not "failed" (bb3 F3: the journal tab said failed)."""
    session = lossy_session(DropFirstAnswer("/dnc/insert"))
    dialog = EntryDialog(EntryKind.DNC, session, runner, api.campaigns())
    qtbot.addWidget(dialog)
    _add(qtbot, dialog, "(718) 555-0206", "drop test 6")
    outcomes = [r for r in session.journal.query(operation="dnc.insert") if r.phase == "outcome"]
    assert [r.outcome for r in outcomes] == ["already_present"]
    [write] = settle_writes(session.journal.query())
    assert write.recorded.startswith("already_present") and write.result == ON_THE_LIST
