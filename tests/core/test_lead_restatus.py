"""Re-status an audit's conflicting leads: visible in the sandbox, journaled, per-row outcomes.

A lead already in the status gets no request and no journal entry (its row says so), once a
look-up just before confirms the audit's reading of it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.core.audit_run import run_audit
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.lead_restatus import UnknownStatusError, restatus_leads
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.lead_wire import LEADS_SEARCH, Forwarding, wired_session
from tests.core.test_audit import seed_campaign_with_conflicts

LEADS_UPDATE = "/v1/leads/update"


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    s = Session(Connection("Test", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal)
    yield s
    s.close()
    journal.close()


def _status_of(api: ApiClient, lead_id: str) -> str:
    return api.search_leads({"lead_id": lead_id}).items[0].status


def test_conflicting_leads_get_the_status(session: Session) -> None:
    seeded = seed_campaign_with_conflicts(session.api)
    result = run_audit(session.api, seeded.campaign)
    leads = result.conflicting_leads
    assert len(leads) == 5  # L5 has two conflicts but is written once
    progress: list[tuple[int, int]] = []
    outcome = restatus_leads(
        session,
        leads,
        "dnc",
        note="audit 2026-11-22",
        progress=lambda d, t, m: progress.append((d, t)),
    )
    assert outcome.status == "DNC"
    assert (outcome.done, outcome.failed, outcome.cancelled) == (5, 0, False)
    assert progress[-1] == (5, 5)
    for lead in leads:
        assert _status_of(session.api, lead.id) == "DNC"
    assert _status_of(session.api, seeded.leads["L3"]) == "NEW"  # not in conflict
    rows = session.journal.query(job=outcome.job, limit=100)
    assert (
        sorted((r.phase, r.outcome) for r in rows) == [("intent", "")] * 5 + [("outcome", "ok")] * 5
    )
    intent = next(r for r in rows if r.phase == "intent")
    assert intent.note == "audit 2026-11-22"
    assert intent.before is not None and intent.before["status"] == "NEW"
    assert session.journal.verify().ok
    assert TOKEN.encode() not in session.journal.path.read_bytes()


def test_unknown_status_touches_nothing(session: Session) -> None:
    seeded = seed_campaign_with_conflicts(session.api)
    leads = run_audit(session.api, seeded.campaign).conflicting_leads
    with pytest.raises(UnknownStatusError, match="no lead status 'NOPE'"):
        restatus_leads(session, leads, "NOPE")
    assert session.journal.count() == 0


def test_failed_and_cancelled_rows(session: Session) -> None:
    seeded = seed_campaign_with_conflicts(session.api)
    leads = run_audit(session.api, seeded.campaign).conflicting_leads
    session.api.delete_lead(leads[0].id)  # gone before the write
    outcome = restatus_leads(session, leads, "DNC", concurrency=1)
    by_lead = {r.lead_id: r for r in outcome.rows}
    assert by_lead[leads[0].id].outcome == "failed"
    assert "lead not found" in by_lead[leads[0].id].error
    assert outcome.done == 4
    cancel = threading.Event()
    cancel.set()
    stopped = restatus_leads(session, leads, "NI", cancel=cancel)
    assert stopped.cancelled and stopped.done == 0
    assert {r.outcome for r in stopped.rows} == {"not_attempted"}
    assert _status_of(session.api, leads[1].id) == "DNC"


@pytest.fixture
def wire() -> Forwarding:
    return Forwarding()


@pytest.fixture
def wired(sandbox: Any, tmp_path: Path, wire: Forwarding) -> Iterator[Session]:
    """A session whose requests ``wire`` records (and can answer, for ``/leads/search``)."""
    yield from wired_session(sandbox, tmp_path / "wired", wire)


def _set_status(sandbox: Any, lead_id: str, status: str) -> None:
    sandbox.store.execute("UPDATE leads SET status = ? WHERE id = ?", (status, int(lead_id)))


def test_a_lead_already_in_the_status_gets_no_request_and_no_journal_entry(
    sandbox: Any, wired: Session, wire: Forwarding
) -> None:
    seeded = seed_campaign_with_conflicts(wired.api)
    already = {seeded.leads["L1"], seeded.leads["L2"]}
    for lead_id in already:
        _set_status(sandbox, lead_id, "DNC")
    leads = run_audit(wired.api, seeded.campaign).conflicting_leads
    assert {lead.id for lead in leads if lead.status == "DNC"} == already
    wire.paths.clear()

    outcome = restatus_leads(wired, leads, "DNC", note="audit", concurrency=1)

    assert (outcome.done, outcome.unchanged, outcome.failed) == (3, 2, 0)
    by_lead = {r.lead_id: r for r in outcome.rows}
    for lead_id in already:
        row = by_lead[lead_id]
        assert (row.outcome, row.old_status, row.new_status) == ("unchanged", "DNC", "DNC")
        assert row.error == "already DNC (looked up just before): no request was sent"
    # One update per lead that changes, one look-up per lead already in the status.
    assert wire.paths.count(LEADS_UPDATE) == 3
    assert wire.paths.count(LEADS_SEARCH) == 2
    for lead in leads:
        assert _status_of(wired.api, lead.id) == "DNC"
    intents = [r for r in wired.journal.query(job=outcome.job) if r.phase == "intent"]
    assert len(intents) == 3
    assert not any(r.target == f"lead id={lead_id}" for r in intents for lead_id in already)
    assert {r.before["status"] for r in intents if r.before is not None} == {"NEW"}


def test_a_lead_whose_status_changed_since_it_was_read_is_written(
    sandbox: Any, wired: Session, wire: Forwarding
) -> None:
    seeded = seed_campaign_with_conflicts(wired.api)
    lead_id = seeded.leads["L1"]
    _set_status(sandbox, lead_id, "DNC")
    leads = run_audit(wired.api, seeded.campaign).conflicting_leads
    _set_status(sandbox, lead_id, "CALLBK")  # changed after the audit read it

    outcome = restatus_leads(wired, leads, "DNC", note="audit", concurrency=1)

    assert (outcome.done, outcome.unchanged) == (5, 0)
    row = next(r for r in outcome.rows if r.lead_id == lead_id)
    assert (row.outcome, row.old_status) == ("ok", "CALLBK")
    assert _status_of(wired.api, lead_id) == "DNC"
    (intent,) = [
        r
        for r in wired.journal.query(job=outcome.job)
        if r.phase == "intent" and r.target == f"lead id={lead_id}"
    ]
    # Journaled with the status it had when written, not the audit's reading.
    assert intent.before is not None and intent.before["status"] == "CALLBK"


def test_a_failed_look_up_of_a_lead_already_in_the_status_sends_nothing(
    sandbox: Any, wired: Session, wire: Forwarding
) -> None:
    seeded = seed_campaign_with_conflicts(wired.api)
    lead_id = seeded.leads["L1"]
    _set_status(sandbox, lead_id, "DNC")
    leads = [x for x in run_audit(wired.api, seeded.campaign).conflicting_leads if x.id == lead_id]
    wire.fail = lambda request: httpx.Response(
        200, json={"success": False, "code": 7258, "message": "Invalid limit"}
    )
    wire.paths.clear()

    outcome = restatus_leads(wired, leads, "DNC", note="audit")

    (row,) = outcome.rows
    assert row.outcome == "failed"
    assert row.error.startswith(
        "it was already DNC and its status could not be looked up again, so no request was sent"
    )
    assert "7258" in row.error
    assert LEADS_UPDATE not in wire.paths
    assert [r for r in wired.journal.query(job=outcome.job)] == []
