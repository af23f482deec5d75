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

from collections.abc import Callable
from typing import Any

import httpx

from app.api.client import DncQuery
from app.api.scope import Scope
from app.core.dnc_removal import Outcome, RemovalResult, remove_dnc_entries
from app.core.evidence import REMOVED, gather_evidence
from app.core.session import Session
from app.ui.removal_progress import summary_text
from tests.core.delete_drops import SandboxDropsDeletes, make_session  # noqa: F401 (a fixture)
from tests.core.lead_wire import seed_leads

NUMBER = "7185550377"


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
    api: Any,
    sandbox: Any,
    make_session: Callable[[SandboxDropsDeletes], Session],  # noqa: F811
) -> None:
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")
    session = make_session(SandboxDropsDeletes(sandbox, every=True))
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
    api: Any,
    sandbox: Any,
    make_session: Callable[[SandboxDropsDeletes], Session],  # noqa: F811
) -> None:
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")

    def added_back(_request: httpx.Request) -> None:
        if not list(api.iter_dnc(DncQuery(phone_number=NUMBER))):
            api.insert_dnc(NUMBER, "1", Scope.global_(), reason="added back")

    session = make_session(SandboxDropsDeletes(sandbox, added_back, every=True))
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
    api: Any,
    sandbox: Any,
    make_session: Callable[[SandboxDropsDeletes], Session],  # noqa: F811
) -> None:
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")

    def unavailable(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(503, text="<html>Service Unavailable</html>")

    session = make_session(SandboxDropsDeletes(sandbox, unavailable, every=True))
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
