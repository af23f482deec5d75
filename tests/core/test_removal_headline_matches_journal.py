"""Black-box bb6 F2: a window removal's headline and its change journal disagreed: entries
listed just before a purpose delete and gone on its retry after a lost answer were "removed"
on screen but only "not_found" in the journal, and inputs with no delete of their own (their
leads not looked up first, so none sent; purpose entries of one number sharing a delete) were
counted on screen with nothing in the journal saying why. The journal now holds a settled
event beside such a "not found", and the headline says for how many inputs the journal has
no delete of their own, and why.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import DncQuery
from app.api.scope import Scope
from app.core.dnc_removal import REMOVED_BY_LOST_ATTEMPT, Outcome, remove_dnc_entries
from app.core.evidence import REMOVED, gather_evidence
from app.core.session import Session
from app.ui.removal_progress import summary_text
from tests.core.lead_wire import LEADS_SEARCH, Forwarding, wired_session

NUMBER = "2025558301"
OTHER = "2025558302"


class DropsFirstDelete(Forwarding):
    """Forwards to the sandbox, its drop fault on for the first ``/dnc/delete`` only (done,
    its answer cut off); ``fail`` answers ``/leads/search`` of ``failing`` when set."""

    def __init__(self, sandbox: Any) -> None:
        super().__init__()
        self.sandbox = sandbox
        self.dropped = 0
        self.failing = ""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        asked = f"{request.url} {request.content.decode(errors='replace')}"
        if self.failing and request.url.path == LEADS_SEARCH and self.failing in asked:
            return httpx.Response(503, text="<html>Service Unavailable</html>")
        first = request.url.path.endswith("/dnc/delete") and not self.dropped
        if first:
            self.sandbox.set_faults(drop_rate=1.0)
        try:
            response = self._http.handle_request(request)
            response.read()
            return response
        finally:
            if first:
                self.dropped += 1
                self.sandbox.set_faults(drop_rate=0.0)


@pytest.fixture
def wire(sandbox: Any) -> DropsFirstDelete:
    return DropsFirstDelete(sandbox)


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: DropsFirstDelete) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, wire)


def test_purpose_entries_gone_on_the_retry_are_settled_in_the_journal_too(
    session: Session, wire: DropsFirstDelete
) -> None:
    api = session.api
    api.insert_dnc(NUMBER, "1", Scope.purpose("Surveys"), reason="survey opt-out")
    api.insert_dnc(NUMBER, "1", Scope.purpose("Marketing"), reason="asked on call")
    entries = list(api.iter_dnc(DncQuery(phone_number=NUMBER)))
    result = remove_dnc_entries(session, entries, reason="consent re-obtained")
    assert wire.dropped == 1
    assert [o.outcome for o in result.outcomes] == [Outcome.REMOVED, Outcome.REMOVED]
    assert all("earlier attempt" in o.message for o in result.outcomes)
    rows = session.journal.query()
    [delete] = [r for r in rows if r.operation == "dnc.delete" and r.phase == "outcome"]
    assert delete.outcome == "not_found"
    [event] = [r for r in rows if r.operation == "dnc.delete.settled"]
    assert event.ref == delete.ref
    assert (event.after or {}).get("settled") == REMOVED_BY_LOST_ATTEMPT
    pack = gather_evidence(api, session.journal, None, NUMBER, "1")
    [write] = [w for w in pack.writes if w.intent.operation == "dnc.delete"]
    assert write.result == REMOVED
    headline = summary_text(result)
    assert headline.startswith("Removed 2 of 2.")
    assert (
        "The change journal has no delete of its own for 1: 1 shared a delete with another "
        "entry of the same number and scope (one delete removes it for every purpose)."
    ) in headline


def test_an_input_sent_no_delete_is_said_missing_from_the_journal(
    session: Session, wire: DropsFirstDelete
) -> None:
    api = session.api
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")
    api.insert_dnc(OTHER, "1", Scope.global_(), reason="to go")
    entries = list(api.iter_dnc(DncQuery()))
    wire.failing = OTHER
    wire.dropped = 1  # no drop here: only the leads look-up of OTHER fails
    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")
    outcomes = {o.target.phone_number: o for o in result.outcomes}
    assert outcomes[NUMBER].outcome is Outcome.REMOVED
    assert outcomes[OTHER].outcome is Outcome.FAILED and outcomes[OTHER].not_sent
    intents = [r for r in session.journal.query(operation="dnc.delete") if r.phase == "intent"]
    assert len(intents) == 1
    assert summary_text(result).startswith(
        "Removed 1; failed 1 of 2. The change journal has no delete of its own for 1: 1 failed "
        "before any delete was sent (their leads could not be looked up first)."
    )
