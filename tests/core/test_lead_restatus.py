"""Re-status an audit's conflicting leads: visible in the sandbox, journaled, per-row outcomes."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.core.audit_run import run_audit
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.lead_restatus import UnknownStatusError, restatus_leads
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.test_audit import seed_campaign_with_conflicts


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
