"""A removal picked in the list view with a lead status keeps the old statuses of the leads it
re-statuses: looked up before the delete, kept in the delete's journal intent
(``before["leads"]``) and listed in the outcome's message; a failed look-up sends no delete.

Against the sandbox over loopback HTTP; a forwarding transport records the requests and, for the
look-up failure tests only, answers ``/leads/search`` itself.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import DncQuery
from app.api.errors import AuthInvalidError
from app.api.scope import Scope
from app.core.dnc_removal import Outcome, RemovalOutcome, remove_dnc_entries
from app.core.lead_lookup import NO_LEADS
from app.core.session import Session
from app.ui.removal_progress import describe_outcome
from tests.core.lead_wire import LEADS_SEARCH, Forwarding, seed_leads, wired_session

NOT_LOOKED_UP = (
    "not removed: the leads this removal would set to DNC could not be looked up first, "
    "so no delete was sent"
)


@pytest.fixture
def wire() -> Forwarding:
    return Forwarding()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Forwarding) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, wire)


def _statuses(sandbox: Any) -> dict[str, str]:
    return {str(r["id"]): str(r["status"]) for r in sandbox.store.all("SELECT * FROM leads")}


def _delete_intents(session: Session) -> dict[str, Any]:
    """The delete intents by phone (E.164)."""
    return {
        e.phone: e for e in session.journal.query(operation="dnc.delete") if e.phase == "intent"
    }


def _by_number(outcomes: list[RemovalOutcome]) -> dict[str, list[RemovalOutcome]]:
    found: dict[str, list[RemovalOutcome]] = {}
    for outcome in outcomes:
        found.setdefault(outcome.target.phone_number, []).append(outcome)
    return found


def test_old_statuses_of_0_and_2_leads_are_journaled_and_reported(
    sandbox: Any, session: Session
) -> None:
    api = session.api
    campaign = api.campaigns()[0].id
    list_a = api.insert_list("Leads list A", campaign)
    list_b = api.insert_list("Leads list B", campaign)
    sandbox.bulk_seed_dnc(
        [
            ("2025558300", "1", "0", "", ""),  # no leads
            ("2025558301", "1", "0", "", ""),  # two leads, in two lists
        ]
    )
    api.insert_dnc("2025558302", "1", Scope.purpose("Surveys"))
    api.insert_dnc("2025558302", "1", Scope.purpose("Marketing"))
    (first,) = seed_leads(sandbox, list_a, [("(202) 555-8301", "1", "", "", "NEW")])
    (second,) = seed_leads(sandbox, list_b, [("2025550199", "", "2025558301", "", "CALLBK")])
    (purpose_lead,) = seed_leads(sandbox, list_a, [("2025558302", "1", "", "", "")])
    (untouched,) = seed_leads(sandbox, list_a, [("2025558399", "1", "", "", "NEW")])
    entries = list(api.iter_dnc(DncQuery()))
    assert len(entries) == 4

    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")

    assert [o.outcome for o in result.outcomes] == [Outcome.REMOVED] * 4
    assert api.search_dnc(DncQuery()).total == 0
    assert _statuses(sandbox) == {
        first: "DNC",
        second: "DNC",
        purpose_lead: "DNC",
        untouched: "NEW",
    }
    intents = _delete_intents(session)
    assert set(intents) == {"+12025558300", "+12025558301", "+12025558302"}
    assert intents["+12025558300"].before["leads"] == []
    assert intents["+12025558301"].before["leads"] == [
        {"id": first, "list_id": list_a, "status": "NEW"},
        {"id": second, "list_id": list_b, "status": "CALLBK"},
    ]
    assert intents["+12025558302"].before["leads"] == [
        {"id": purpose_lead, "list_id": list_a, "status": ""}
    ]
    # The entries taken off are still kept beside them.
    assert len(intents["+12025558302"].before["entries"]) == 2
    assert {i.after["lead_status"] for i in intents.values()} == {"DNC"}

    outcomes = _by_number(result.outcomes)
    assert [o.message for o in outcomes["2025558300"]] == [NO_LEADS.format(status="DNC")]
    assert [o.message for o in outcomes["2025558301"]] == [
        f"re-statused 2 leads: lead {first} (list {list_a}) NEW→DNC, "
        f"lead {second} (list {list_b}) CALLBK→DNC"
    ]
    # Both purpose entries share one delete and its message, the purposes first.
    assert [o.message for o in outcomes["2025558302"]] == [
        "removed for purposes 'Marketing' and 'Surveys'; "
        f"re-statused 1 lead: lead {purpose_lead} (list {list_a}) (no status)→DNC"
    ] * 2


def _refused(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"success": False, "code": 7258, "message": "Invalid limit"})


def _unanswered(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


@pytest.mark.parametrize(
    ("fail", "words"),
    [
        (_refused, "/leads/search: code 7258 (invalid limit)"),
        (_unanswered, "/leads/search"),
    ],
    ids=["refused", "unanswered"],
)
def test_a_failed_look_up_fails_the_input_and_deletes_nothing(
    sandbox: Any,
    session: Session,
    wire: Forwarding,
    fail: Callable[[httpx.Request], httpx.Response],
    words: str,
) -> None:
    list_id = session.api.insert_list("Look-up fails list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("2025558310", "1", "0", "", "")])
    seed_leads(sandbox, list_id, [("2025558310", "1", "", "", "NEW")])
    entries = list(session.api.iter_dnc(DncQuery()))
    wire.fail = fail
    wire.paths.clear()

    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")

    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.FAILED and not result.complete
    assert outcome.message.startswith(NOT_LOOKED_UP), outcome.message
    assert words in outcome.message, outcome.message
    # The progress dialog shows the message itself (a kept error would read as a failed delete).
    assert outcome.error is None
    assert NOT_LOOKED_UP in describe_outcome(outcome)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 1
    assert sandbox.store.one("SELECT status FROM leads")["status"] == "NEW"
    assert LEADS_SEARCH in wire.paths
    assert "/v1/dnc/delete" not in wire.paths
    assert [e for e in session.journal.query() if e.operation == "dnc.delete"] == []


def test_a_rejected_token_on_the_look_up_keeps_the_error_for_the_token_retry(
    sandbox: Any, session: Session, wire: Forwarding
) -> None:
    sandbox.bulk_seed_dnc([("2025558320", "1", "0", "", "")])
    entries = list(session.api.iter_dnc(DncQuery()))
    wire.fail = lambda request: httpx.Response(401, json={"success": False, "message": "no"})
    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")
    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.FAILED
    assert outcome.message.startswith(NOT_LOOKED_UP)
    assert isinstance(outcome.error, AuthInvalidError)
    assert "/v1/dnc/delete" not in wire.paths
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 1


def test_cancelling_during_the_look_up_sends_no_delete(
    sandbox: Any, session: Session, wire: Forwarding
) -> None:
    sandbox.bulk_seed_dnc([("2025558330", "1", "0", "", "")])
    entries = list(session.api.iter_dnc(DncQuery()))
    cancel = threading.Event()
    forward = httpx.HTTPTransport()

    def cancel_then_answer(request: httpx.Request) -> httpx.Response:
        cancel.set()  # the user cancels while the first look-up is in flight
        return forward.handle_request(request)

    wire.fail = cancel_then_answer
    try:
        result = remove_dnc_entries(
            session, entries, reason="consumer asked", lead_status="DNC", cancel=cancel
        )
    finally:
        forward.close()
    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.NOT_ATTEMPTED
    assert Counter(wire.paths)[LEADS_SEARCH] == 1
    assert "/v1/dnc/delete" not in wire.paths
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 1
    assert [e for e in session.journal.query() if e.operation == "dnc.delete"] == []


def test_no_lead_is_looked_up_without_a_lead_status(
    sandbox: Any, session: Session, wire: Forwarding
) -> None:
    list_id = session.api.insert_list("No look-up list", session.api.campaigns()[0].id)
    numbers = ["2025558340", "2025558341"]
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in numbers])
    seed_leads(sandbox, list_id, [(n, "1", "", "", "NEW") for n in numbers])
    entries = list(session.api.iter_dnc(DncQuery()))
    wire.paths.clear()

    result = remove_dnc_entries(session, entries, reason="consumer asked")

    assert [o.outcome for o in result.outcomes] == [Outcome.REMOVED] * 2
    assert {o.message for o in result.outcomes} == {""}
    # One delete an entry, and nothing else.
    assert Counter(wire.paths) == {"/v1/dnc/delete": 2}
    assert all("leads" not in i.before for i in _delete_intents(session).values())
    assert set(_statuses(sandbox).values()) == {"NEW"}


def test_a_lead_already_in_the_status_is_named_apart_and_not_journaled(
    sandbox: Any, session: Session, wire: Forwarding
) -> None:
    list_id = session.api.insert_list("Already in status list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("2025558350", "1", "0", "", ""), ("2025558351", "1", "0", "", "")])
    moved, kept = seed_leads(
        sandbox, list_id, [("2025558350", "1", "", "", "NEW"), ("2025558350", "1", "", "", "DNC")]
    )
    (only,) = seed_leads(sandbox, list_id, [("2025558351", "1", "", "", "DNC")])
    entries = list(session.api.iter_dnc(DncQuery()))
    wire.paths.clear()

    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")

    assert [o.outcome for o in result.outcomes] == [Outcome.REMOVED] * 2
    assert set(_statuses(sandbox).values()) == {"DNC"}
    assert "/v1/leads/update" not in wire.paths  # the deletes set the statuses
    outcomes = _by_number(result.outcomes)
    assert [o.message for o in outcomes["2025558350"]] == [
        f"re-statused 1 lead: lead {moved} (list {list_id}) NEW→DNC; "
        f"1 lead already DNC, its status unchanged: lead {kept} (list {list_id})"
    ]
    assert [o.message for o in outcomes["2025558351"]] == [
        f"1 lead already DNC, its status unchanged: lead {only} (list {list_id})"
    ]
    intents = _delete_intents(session)
    assert intents["+12025558350"].before["leads"] == [
        {"id": moved, "list_id": list_id, "status": "NEW"}
    ]
    assert intents["+12025558351"].before["leads"] == []


def test_an_entry_kept_with_its_trunk_zero_names_the_leads_typed_with_it(
    sandbox: Any, session: Session, wire: Forwarding
) -> None:
    list_id = session.api.insert_list("UK leads list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("02079460000", "44", "0", "", "")])
    zero, spaced, both, without = seed_leads(
        sandbox,
        list_id,
        [
            ("02079460000", "44", "", "", "NEW"),
            ("020 7946 0000", "44", "", "", "NEW"),  # the UK's national format
            ("020 7946 0000", "44", "02079460000", "", "NI"),  # found under both forms
            ("2079460000", "44", "", "", "NEW"),  # the number's, not this delete's: no 0
        ],
    )
    entries = list(session.api.iter_dnc(DncQuery()))
    wire.paths.clear()

    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")

    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.REMOVED
    # The lead typed without the 0 is the number's too: set by its own update.
    assert _statuses(sandbox) == {zero: "DNC", spaced: "DNC", both: "DNC", without: "DNC"}
    assert outcome.message == (
        f"re-statused 4 leads: lead {zero} (list {list_id}) NEW→DNC, "
        f"lead {spaced} (list {list_id}) NEW→DNC, lead {both} (list {list_id}) NI→DNC, "
        f"lead {without} (list {list_id}) NEW→DNC"
    )
    assert _delete_intents(session)["+442079460000"].before["leads"] == [
        {"id": zero, "list_id": list_id, "status": "NEW"},
        {"id": spaced, "list_id": list_id, "status": "NEW"},
        {"id": both, "list_id": list_id, "status": "NI"},
    ]
    (update,) = [e for e in session.journal.query(operation="lead.update") if e.phase == "intent"]
    assert update.phone == "+442079460000"
    assert update.before == {"id": without, "list_id": list_id, "status": "NEW"}
    # One search per phone field and written form of the number's: 2079460000, 02079460000
    # and 020 7946 0000 (the delete's leads are among them).
    assert Counter(wire.paths)[LEADS_SEARCH] == 3 * 3
