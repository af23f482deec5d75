"""A removal picked in the list view with a lead status ends with every lead of the picked
entry's number in the status, as the bulk removal does (leftover 1 of issue 4, session 18): the
delete re-statuses the leads holding the digits it sends, and the number's other leads (written
with or without its trunk 0) are set by their own journaled ``/leads/update``, filed under the
number, each with its old status kept and named in the outcome's message; each write journaled
once. Also ``Session.restatus_lead``'s ``phone`` (leftover 2).

Against the sandbox over loopback HTTP; the journal rows are read back from the session's journal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import DncQuery
from app.api.models import Lead
from app.api.scope import Scope
from app.core.dnc_removal import Outcome, remove_dnc_entries
from app.core.session import Session
from tests.core.lead_wire import Forwarding, seed_leads, wired_session

LEADS_UPDATE = "/v1/leads/update"


@pytest.fixture
def wire() -> Forwarding:
    return Forwarding()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Forwarding) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, wire)


def _statuses(sandbox: Any) -> dict[str, str]:
    return {str(r["id"]): str(r["status"]) for r in sandbox.store.all("SELECT * FROM leads")}


def _intents(session: Session, operation: str) -> list[Any]:
    return [e for e in session.journal.query(operation=operation) if e.phase == "intent"]


def _journaled_leads(session: Session) -> Counter[str]:
    """How many times each lead's change is journaled: in a delete's ``before["leads"]`` or as
    its own update."""
    ids: Counter[str] = Counter()
    for intent in _intents(session, "dnc.delete"):
        ids.update(lead["id"] for lead in intent.before.get("leads", []))
    for intent in _intents(session, "lead.update"):
        ids[intent.before["id"]] += 1
    return ids


def test_a_uk_entry_without_its_trunk_zero_sets_the_lead_typed_with_it(
    sandbox: Any, session: Session, wire: Forwarding
) -> None:
    list_id = session.api.insert_list("UK consumer list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("7911123456", "44", "0", "", "")])
    plain, zero, spaced, other = seed_leads(
        sandbox,
        list_id,
        [
            ("7911123456", "44", "", "", "NEW"),  # the delete's own digits
            ("07911123456", "44", "", "", "CALLBK"),  # with its trunk 0
            ("2025550100", "", "07911 123456", "", ""),  # in an alternate field, national format
            ("07911123457", "44", "", "", "NEW"),  # another number
        ],
    )
    entries = list(session.api.iter_dnc(DncQuery()))
    wire.paths.clear()

    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")

    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.REMOVED, outcome.message
    assert _statuses(sandbox) == {plain: "DNC", zero: "DNC", spaced: "DNC", other: "NEW"}
    # Each lead's change is journaled once: the delete's own in its intent, the others as
    # their own updates, all filed under the number (the lead in an alternate field too).
    assert _journaled_leads(session) == Counter({plain: 1, zero: 1, spaced: 1})
    (delete,) = _intents(session, "dnc.delete")
    assert delete.phone == "+447911123456"
    assert delete.before["leads"] == [{"id": plain, "list_id": list_id, "status": "NEW"}]
    updates = {i.before["id"]: i for i in _intents(session, "lead.update")}
    assert {i.phone for i in updates.values()} == {"+447911123456"}
    assert updates[zero].before == {"id": zero, "list_id": list_id, "status": "CALLBK"}
    assert updates[spaced].before == {"id": spaced, "list_id": list_id, "status": ""}
    assert {i.after["status"] for i in updates.values()} == {"DNC"}
    assert {i.job for i in updates.values()} == {result.job}
    assert {i.note for i in updates.values()} == {"consumer asked"}
    assert [
        o.outcome for o in session.journal.query(operation="lead.update") if o.phase == "outcome"
    ] == ["ok", "ok"]
    assert Counter(wire.paths)[LEADS_UPDATE] == 2
    assert outcome.message == (
        f"re-statused 3 leads: lead {plain} (list {list_id}) NEW→DNC, "
        f"lead {zero} (list {list_id}) CALLBK→DNC, lead {spaced} (list {list_id}) "
        "(no status)→DNC"
    )


def test_an_entry_with_the_code_in_its_digits_sets_the_leads_of_its_number(
    sandbox: Any, session: Session, wire: Forwarding
) -> None:
    list_id = session.api.insert_list("Code in digits list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("447911123466", "44", "0", "", "")])
    coded, plain, zero, kept = seed_leads(
        sandbox,
        list_id,
        [
            ("447911123466", "44", "", "", "NEW"),  # what the delete re-statuses
            ("7911123466", "44", "", "", "NEW"),
            ("07911123466", "", "", "", "NI"),
            ("7911123466", "44", "", "", "DNC"),  # already in the status: no write
        ],
    )
    entries = list(session.api.iter_dnc(DncQuery()))
    wire.paths.clear()

    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")

    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.REMOVED, outcome.message
    assert set(_statuses(sandbox).values()) == {"DNC"}
    assert _journaled_leads(session) == Counter({coded: 1, plain: 1, zero: 1})
    (delete,) = _intents(session, "dnc.delete")
    assert delete.phone == "+447911123466"
    assert delete.before["leads"] == [{"id": coded, "list_id": list_id, "status": "NEW"}]
    assert {i.phone for i in _intents(session, "lead.update")} == {"+447911123466"}
    assert Counter(wire.paths)[LEADS_UPDATE] == 2
    assert outcome.message == (
        f"re-statused 3 leads: lead {coded} (list {list_id}) NEW→DNC, "
        f"lead {plain} (list {list_id}) NEW→DNC, lead {zero} (list {list_id}) NI→DNC; "
        f"1 lead already DNC, its status unchanged: lead {kept} (list {list_id})"
    )


def test_two_picked_entries_of_one_number_journal_each_lead_once(
    sandbox: Any, session: Session, wire: Forwarding
) -> None:
    list_id = session.api.insert_list("Two forms list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("7911123476", "44", "0", "", ""), ("07911123476", "44", "0", "", "")])
    plain, zero = seed_leads(
        sandbox,
        list_id,
        [("7911123476", "44", "", "", "NEW"), ("07911123476", "44", "", "", "NEW")],
    )
    entries = list(session.api.iter_dnc(DncQuery()))
    assert len(entries) == 2
    wire.paths.clear()

    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")

    assert [o.outcome for o in result.outcomes] == [Outcome.REMOVED] * 2
    assert _statuses(sandbox) == {plain: "DNC", zero: "DNC"}
    # Each delete re-statuses the lead holding its digits: no update is needed, none sent.
    assert _journaled_leads(session) == Counter({plain: 1, zero: 1})
    assert LEADS_UPDATE not in wire.paths
    assert {i.phone for i in _intents(session, "dnc.delete")} == {"+447911123476"}


def test_a_campaign_removal_sets_only_the_number_leads_in_the_campaign(
    sandbox: Any, session: Session
) -> None:
    api = session.api
    first, second = (c.id for c in api.campaigns()[:2])
    inside = api.insert_list("In the campaign", first)
    outside = api.insert_list("In another campaign", second)
    api.insert_dnc("7911123486", "44", Scope.campaign(first))
    (zero_in,) = seed_leads(sandbox, inside, [("07911123486", "44", "", "", "NEW")])
    (zero_out,) = seed_leads(sandbox, outside, [("07911123486", "44", "", "", "NEW")])
    entries = list(api.iter_dnc(DncQuery(scope=Scope.campaign(first))))

    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")

    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.REMOVED, outcome.message
    assert _statuses(sandbox) == {zero_in: "DNC", zero_out: "NEW"}
    assert _journaled_leads(session) == Counter({zero_in: 1})


def test_a_lead_update_the_service_refuses_leaves_the_entry_removed_saying_so(
    sandbox: Any, session: Session, wire: Forwarding
) -> None:
    list_id = session.api.insert_list("Refused update list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("7911123496", "44", "0", "", "")])
    (zero,) = seed_leads(sandbox, list_id, [("07911123496", "44", "", "", "NEW")])
    entries = list(session.api.iter_dnc(DncQuery()))
    # The lead is gone by the time its update is sent: the service answers "not found".
    real = wire.handle_request

    def drop_lead_first(request: Any) -> Any:
        if request.url.path == LEADS_UPDATE:
            sandbox.store.execute("DELETE FROM leads WHERE id = ?", (int(zero),))
        return real(request)

    wire.handle_request = drop_lead_first  # type: ignore[method-assign]

    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")

    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.REMOVED
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    assert (
        f"not set to DNC (the change journal has each attempt), so each keeps its status: "
        f"lead {zero} (list {list_id}):" in outcome.message
    )
    (update,) = [o for o in session.journal.query(operation="lead.update") if o.phase == "outcome"]
    assert update.outcome == "failed"


def test_restatus_lead_files_its_entry_under_the_phone_given(
    session: Session, sandbox: Any
) -> None:
    list_id = session.api.insert_list("Phone keyword list", session.api.campaigns()[0].id)
    with_phone, without = seed_leads(
        sandbox,
        list_id,
        [("2025550100", "", "07911 123456", "", "NEW"), ("07911123457", "44", "", "", "NEW")],
    )
    leads = {lead.id: lead for lead in session.api.iter_leads({"list_id": list_id})}

    session.restatus_lead(leads[with_phone], "DNC", phone="+447911123456")
    session.restatus_lead(leads[without], "DNC")

    phones = {i.before["id"]: i.phone for i in _intents(session, "lead.update")}
    # Given, the number; by default the lead's own phone field as today.
    assert phones == {with_phone: "+447911123456", without: "+447911123457"}
    # The outcome rows are filed with their intents.
    outcomes = [
        o.phone for o in session.journal.query(operation="lead.update") if o.phase == "outcome"
    ]
    assert sorted(outcomes) == ["+447911123456", "+447911123457"]
    assert isinstance(leads[with_phone], Lead)


def test_an_entry_kept_after_the_exit_code_is_journaled_under_its_number(
    sandbox: Any, session: Session
) -> None:
    sandbox.bulk_seed_dnc([("00447911123506", "44", "0", "", "")])
    entries = list(session.api.iter_dnc(DncQuery()))

    result = remove_dnc_entries(session, entries, reason="consumer asked")

    assert [o.outcome for o in result.outcomes] == [Outcome.REMOVED]
    # As evidence and the bulk removal name it, not "+440447911123506".
    assert {e.phone for e in session.journal.query(operation="dnc.delete")} == {"+447911123506"}
