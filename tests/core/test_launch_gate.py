"""Launch gate: clean recent audit passes, stale or dirty asks, override journaled, refusal."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.core.audit_records import AuditRecords
from app.core.audit_run import run_audit
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.launch_gate import GateRefused, LaunchGate, activate, deactivate, gate_check
from app.core.session import Session
from tests.conftest import LIMITED_TOKEN, TOKEN
from tests.core.test_audit import seed_campaign_with_conflicts


def _session(base_url: str, token: str, journal: ChangeJournal) -> Session:
    return Session(Connection("Test", base_url), ApiClient(base_url, token), journal)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


@pytest.fixture
def records(tmp_path: Path) -> Iterator[AuditRecords]:
    r = AuditRecords(tmp_path / "audits.sqlite3")
    yield r
    r.close()


def _inactive(api: ApiClient) -> Any:
    return next(c for c in api.campaigns() if c.name == "Old Winback")


def _is_active(api: ApiClient, campaign_id: str) -> bool:
    return next(c for c in api.campaigns() if c.id == campaign_id).active


def test_clean_recent_audit_passes(
    sandbox: Any, journal: ChangeJournal, records: AuditRecords
) -> None:
    session = _session(sandbox.base_url, TOKEN, journal)
    campaign = _inactive(session.api)
    session.api.insert_lead(
        session.api.insert_list("Winback clean list", campaign.id), "2025550150"
    )
    assert gate_check(records, sandbox.base_url, campaign.id).reason == (
        "The campaign has never been audited."
    )
    result = run_audit(session.api, campaign.id)
    assert result.clean
    records.add(result, None, "")
    decision = gate_check(records, sandbox.base_url, campaign.id)
    assert decision.allowed and not decision.needs_confirmation
    activate(session, campaign, decision)
    assert _is_active(session.api, campaign.id)
    assert [e.operation for e in journal.query(operation="gate.override")] == []
    # Stale: the same clean audit seen 25 hours later.
    later = datetime.now(UTC) + timedelta(hours=25)
    stale = gate_check(records, sandbox.base_url, campaign.id, now=later)
    assert not stale.allowed and "older than 24 hours" in stale.reason
    assert gate_check(records, sandbox.base_url, campaign.id, 48, now=later).allowed
    deactivate(session, campaign, note="season over")
    assert not _is_active(session.api, campaign.id)
    gate = LaunchGate(session, records)
    assert gate.gate_check(campaign.id, window_hours=1).allowed
    gate.activate(campaign)
    assert _is_active(session.api, campaign.id)
    gate.deactivate(campaign)
    assert not _is_active(session.api, campaign.id)
    session.close()


def test_dirty_audit_asks_and_override_is_journaled(
    sandbox: Any, journal: ChangeJournal, records: AuditRecords
) -> None:
    session = _session(sandbox.base_url, TOKEN, journal)
    seed_campaign_with_conflicts(session.api)
    campaign = _inactive(session.api)
    # Old Winback's list X has a lead on the global list.
    result = run_audit(session.api, campaign.id)
    assert not result.clean
    records.add(result, None, "sha-of-report")
    decision = gate_check(records, sandbox.base_url, campaign.id)
    assert decision.needs_confirmation
    assert "was not clean: 1 conflict." in decision.reason
    with pytest.raises(GateRefused, match="Confirm the override"):
        activate(session, campaign, decision)
    with pytest.raises(GateRefused, match="needs a reason"):
        activate(session, campaign, decision, confirmed=True)
    assert not _is_active(session.api, campaign.id)
    activate(session, campaign, decision, confirmed=True, override_reason="counsel approved")
    assert _is_active(session.api, campaign.id)
    (event,) = journal.query(operation="gate.override")
    assert event.note == "counsel approved"
    assert event.after is not None
    assert event.after["last_audit_clean"] is False
    assert event.after["last_audit_report_sha256"] == "sha-of-report"
    assert [e.outcome for e in journal.query(operation="campaign.status")] == ["ok", ""]
    assert journal.verify().ok
    session.close()


def test_token_without_campaign_management_is_refused_clearly(
    sandbox: Any, journal: ChangeJournal, records: AuditRecords
) -> None:
    session = _session(sandbox.base_url, LIMITED_TOKEN, journal)
    campaign = _inactive(session.api)
    result = run_audit(session.api, campaign.id)  # no lists: trivially clean
    records.add(result, None, "")
    decision = gate_check(records, sandbox.base_url, campaign.id)
    assert decision.allowed
    with pytest.raises(GateRefused, match="lacks the campaign-management permission"):
        activate(session, campaign, decision)
    assert not _is_active(session.api, campaign.id)
    failed = [e for e in journal.query(operation="campaign.status") if e.phase == "outcome"]
    assert [e.outcome for e in failed] == ["failed"]
    assert LIMITED_TOKEN not in failed[0].error
    session.close()
