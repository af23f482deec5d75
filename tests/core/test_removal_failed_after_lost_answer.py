"""Black-box bb6 F1: a window removal (the Delete dialog's, with a lead re-status) of a global
entry whose delete got no answer on any attempt (the sandbox's drop fault cuts each answer off
after doing the delete) ended "failed" with only "/dnc/delete: the connection … broke before
the answer came", yet the entry was gone and its leads re-statused. The removal now looks the
number up right after such an error: gone is removed (most likely by this delete), journaled
as a settled event beside the delete's failed outcome, counted so in the headline, and its
leads set by their own updates; still listed is failed saying the delete did not happen; a
look-up failing too is failed saying it is not known and to search the list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import DncQuery
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.dnc_removal import Outcome, RemovalResult, remove_dnc_entries
from app.core.evidence import REMOVED, gather_evidence
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.ui.removal_progress import summary_text
from tests.core.lead_wire import seed_leads

NUMBER = "7185550377"
SEARCH = "/dnc/search"


class SandboxDropsEveryDelete(httpx.BaseTransport):
    """Forwards to the sandbox with its drop fault on for every ``/dnc/delete`` attempt (each
    answer lost, the first one's delete done); ``after_drop(request)`` may answer or precede
    each ``/dnc/search`` after the first drop (None: forward)."""

    def __init__(
        self,
        sandbox: Any,
        after_drop: Callable[[httpx.Request], httpx.Response | None] | None = None,
    ) -> None:
        self.inner = httpx.HTTPTransport()
        self.sandbox = sandbox
        self.after_drop = after_drop
        self.dropped = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if self.dropped and self.after_drop is not None and path.endswith(SEARCH):
            answer = self.after_drop(request)
            if answer is not None:
                return answer
        delete = path.endswith("/dnc/delete")
        if delete:
            self.sandbox.set_faults(drop_rate=1.0)
        try:
            response = self.inner.handle_request(request)
            response.read()
            return response
        finally:
            if delete:
                self.dropped += 1
                self.sandbox.set_faults(drop_rate=0.0)

    def close(self) -> None:
        self.inner.close()


@pytest.fixture
def make_session(
    wired_api: Any, sandbox: Any, tmp_path: Path
) -> Iterator[Callable[[SandboxDropsEveryDelete], Session]]:
    journals: list[ChangeJournal] = []

    def make(wire: SandboxDropsEveryDelete) -> Session:
        journals.append(ChangeJournal(tmp_path / f"journal{len(journals)}.sqlite3"))
        return Session(Connection("Test", sandbox.base_url), wired_api(wire), journals[-1])

    yield make
    for journal in journals:
        journal.close()


def _lead_of_the_number(sandbox: Any, session: Session) -> str:
    campaign = session.api.campaigns()[0].id
    list_id = session.api.insert_list("Renewal calls", campaign)
    (lead,) = seed_leads(sandbox, list_id, [(NUMBER, "1", "", "", "NEW")])
    return lead


def _status(sandbox: Any, lead: str) -> str:
    return str(sandbox.store.scalar("SELECT status FROM leads WHERE id = ?", (int(lead),)))


def _remove(session: Session) -> RemovalResult:
    entries = list(session.api.iter_dnc(DncQuery(phone_number=NUMBER)))
    return remove_dnc_entries(session, entries, reason="consumer asked", lead_status="CALLBK")


def test_gone_after_every_answer_was_lost_is_removed_and_its_leads_set(
    api: Any, sandbox: Any, make_session: Any
) -> None:
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")
    session = make_session(SandboxDropsEveryDelete(sandbox))
    lead = _lead_of_the_number(sandbox, session)
    result = _remove(session)
    [outcome] = result.outcomes
    assert list(api.iter_dnc(DncQuery(phone_number=NUMBER))) == []
    assert outcome.outcome is Outcome.REMOVED and outcome.earlier_attempt_lost
    assert outcome.message.startswith("removed, most likely by this delete:")
    assert "a look-up right after found the number gone" in outcome.message
    assert "CALLBK" in outcome.message
    assert _status(sandbox, lead) == "CALLBK"
    # The delete's own outcome stays failed; the settled event beside it refers to it.
    rows = session.journal.query()
    [delete] = [r for r in rows if r.operation == "dnc.delete" and r.phase == "outcome"]
    assert delete.outcome == "failed"
    [event] = [r for r in rows if r.operation == "dnc.delete.settled"]
    assert event.ref == delete.ref
    assert "removed, most likely by this delete" in str((event.after or {}).get("settled"))
    pack = gather_evidence(api, session.journal, None, NUMBER, "1")
    [write] = [w for w in pack.writes if w.intent.operation == "dnc.delete"]
    assert write.result == REMOVED
    headline = summary_text(result)
    assert headline.startswith("Removed 1 (1 of them ended in an error after a lost answer")
    assert "failed" not in headline


def test_listed_at_the_look_up_is_failed_saying_the_delete_did_not_happen(
    api: Any, sandbox: Any, make_session: Any
) -> None:
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")

    def added_back(_request: httpx.Request) -> None:
        if not list(api.iter_dnc(DncQuery(phone_number=NUMBER))):
            api.insert_dnc(NUMBER, "1", Scope.global_(), reason="added back")

    session = make_session(SandboxDropsEveryDelete(sandbox, added_back))
    lead = _lead_of_the_number(sandbox, session)
    [outcome] = _remove(session).outcomes
    [entry] = list(api.iter_dnc(DncQuery(phone_number=NUMBER)))
    assert outcome.outcome is Outcome.FAILED and outcome.error is None
    assert outcome.message.startswith(
        f"not removed: still on the DNC list in this scope (entry {entry.id})"
    )
    assert "the delete did not happen; remove it again" in outcome.message
    assert [r for r in session.journal.query() if r.operation == "dnc.delete.checked"]
    # Not removed: no update of its own sets the lead (the lost delete itself may have).
    assert _status(sandbox, lead) in {"NEW", "CALLBK"}


def test_a_look_up_failing_too_is_failed_saying_not_known_and_to_search(
    api: Any, sandbox: Any, make_session: Any
) -> None:
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")

    def unavailable(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(503, text="<html>Service Unavailable</html>")

    session = make_session(SandboxDropsEveryDelete(sandbox, unavailable))
    _lead_of_the_number(sandbox, session)
    result = _remove(session)
    [outcome] = result.outcomes
    assert outcome.outcome is Outcome.FAILED and outcome.error is None
    assert outcome.message.startswith("not known whether removed:")
    assert "a look-up right after failed too (" in outcome.message
    assert "search the list for the number" in outcome.message
    [event] = [r for r in session.journal.query() if r.operation == "dnc.delete.checked"]
    assert "look_up_error" in (event.after or {})
    assert "failed 1" in summary_text(result)
