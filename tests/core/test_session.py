"""Every write through Session lands in the change journal, before and after the call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.api import errors
from app.api.client import ApiClient, DncQuery
from app.api.models import WriteStatus
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.session import Session, e164
from tests.conftest import TOKEN


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Any:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    s = Session(Connection("Test", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal)
    yield s
    s.close()
    journal.close()


def _pairs(journal: ChangeJournal) -> list[tuple[str, str, str]]:
    entries = sorted(journal.query(limit=100), key=lambda e: e.id)
    return [(e.phase, e.operation, e.outcome) for e in entries]


def test_insert_update_delete_are_journaled(session: Session, tmp_path: Path) -> None:
    session.insert_dnc("2025550101", "1", Scope.global_(), reason="web form", note="ticket 17")
    entry = session.api.search_dnc(DncQuery(phone_number="2025550101")).items[0]
    session.update_dnc(entry, reason="")
    session.delete_dnc("2025550101", "1", Scope.global_(), before=entry, note="entered by mistake")
    assert _pairs(session.journal) == [
        ("intent", "dnc.insert", ""),
        ("outcome", "dnc.insert", "ok"),
        ("intent", "dnc.update", ""),
        ("outcome", "dnc.update", "ok"),
        ("intent", "dnc.delete", ""),
        ("outcome", "dnc.delete", "ok"),
    ]
    history = session.journal.query(phone="+12025550101")
    assert {e.operation for e in history} == {"dnc.insert", "dnc.update", "dnc.delete"}
    update = next(e for e in history if e.operation == "dnc.update" and e.phase == "intent")
    assert update.before is not None and update.before["reason"] == "web form"
    assert update.after is not None and update.after["reason"] == ""
    deletion = next(e for e in history if e.operation == "dnc.delete" and e.phase == "intent")
    assert deletion.note == "entered by mistake"
    assert session.journal.verify().ok
    for path in tmp_path.rglob("journal.sqlite3*"):
        assert TOKEN.encode() not in path.read_bytes()


def test_already_present_and_failures_are_journaled(session: Session) -> None:
    session.insert_dnc("2025550102", "1", Scope.global_())
    again = session.insert_dnc("2025550102", "1", Scope.global_())
    assert again.status is WriteStatus.ALREADY_PRESENT
    with pytest.raises(errors.ValidationError):
        session.insert_dnc("2025550102", "1", Scope.campaign("424242"))
    outcomes = [e for e in session.journal.query(limit=100) if e.phase == "outcome"]
    by_outcome = sorted(e.outcome for e in outcomes)
    assert by_outcome == ["already_present", "failed", "ok"]
    failed = next(e for e in outcomes if e.outcome == "failed")
    assert "6026" in failed.error and "/dnc/insert" in failed.error


def test_sms_and_campaign_writes_are_journaled(session: Session) -> None:
    session.insert_sms("2025550103", "1", Scope.purpose("Marketing"))
    record = session.api.search_sms(DncQuery(phone_number="2025550103")).items[0]
    session.update_sms(record, reason="STOP keyword")
    campaign = next(c for c in session.api.campaigns() if not c.active)
    session.set_campaign_status(campaign, True, note="launch approved")
    ops = [op for phase, op, _ in _pairs(session.journal) if phase == "intent"]
    assert ops == ["sms.insert", "sms.update", "campaign.status"]
    assert session.api.search_sms(DncQuery(id=record.id)).items[0].reason == "STOP keyword"


def test_e164() -> None:
    assert e164("202-555-0101", "1") == "+12025550101"
    assert e164("", "1") == ""
