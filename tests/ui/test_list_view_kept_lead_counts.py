"""A removal picked in the list view counts the leads its own lead updates did not set on the
outcome (refused, or not answered), and the removal dialog lists such an entry from those
counts: it matched the refusal's wording in the message, so an update the service did not
answer (5xx) — worded "may not have been set" since S18 R1 — was not listed, and the summary
said the status was set with each removal. Against the sandbox over loopback HTTP; the
transport answers the /leads/update requests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import DncQuery
from app.core.dnc_removal import Outcome, RemovalResult, remove_dnc_entries
from app.core.session import Session
from app.ui.removal_progress import listed, summary_text
from tests.core.lead_wire import seed_leads, wired_session
from tests.core.test_list_view_lead_update_unanswered import Wire, _failing, _refused


@pytest.fixture
def wire() -> Wire:
    return Wire()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Wire) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, wire)


def _remove(session: Session, sandbox: Any) -> RemovalResult:
    # The delete of 13035550150 sets the lead holding those digits; the number's other lead
    # (3035550150) is set by its own update, which the wire answers.
    sandbox.bulk_seed_dnc([("13035550150", "1", "0", "another tool", "")])
    list_id = session.api.insert_list("Denver leads list", session.api.campaigns()[0].id)
    seed_leads(
        sandbox, list_id, [("3035550150", "1", "", "", "NEW"), ("13035550150", "1", "", "", "NEW")]
    )
    entries = list(session.api.iter_dnc(DncQuery()))
    return remove_dnc_entries(session, entries, reason="consumer asked", lead_status="CALLBK")


def test_an_unanswered_lead_update_is_counted_and_listed(
    sandbox: Any, session: Session, wire: Wire
) -> None:
    wire.update = _failing
    result = _remove(session, sandbox)
    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.REMOVED
    assert (outcome.leads_refused, outcome.leads_unanswered) == (0, 1)
    assert listed(result) == [outcome]
    assert summary_text(result) == (
        "Removed 1 of 1. Lead status set to CALLBK with each removal, but 1 removed entry's "
        "number has a lead the service refused or did not answer the update of, which may keep "
        "its status."
    )


def test_a_refused_lead_update_is_counted_and_listed(
    sandbox: Any, session: Session, wire: Wire
) -> None:
    wire.update = _refused
    result = _remove(session, sandbox)
    (outcome,) = result.outcomes
    assert (outcome.leads_refused, outcome.leads_unanswered) == (1, 0)
    assert listed(result) == [outcome]
    assert summary_text(result).endswith(
        "but 1 removed entry's number has a lead the service refused to update, which keeps "
        "its status."
    )


def test_every_lead_set_lists_nothing(sandbox: Any, session: Session) -> None:
    result = _remove(session, sandbox)
    (outcome,) = result.outcomes
    assert (outcome.leads_refused, outcome.leads_unanswered) == (0, 0)
    assert listed(result) == []
    assert summary_text(result) == "Removed 1 of 1. Lead status set to CALLBK with each removal."
