"""Removing a purpose entry picked in the list view: the service takes every purpose of the
number at once, so the journal's ``before`` must hold each entry removed, not only the one
picked, and the outcome names the purposes that went."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.dnc_removal import Outcome, remove_dnc_entries
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    s = Session(
        Connection("Test", sandbox.base_url),
        ApiClient(sandbox.base_url, TOKEN),
        ChangeJournal(tmp_path / "journal.sqlite3"),
    )
    yield s
    s.close()
    s.journal.close()


def test_removing_one_purpose_entry_journals_every_purpose_the_service_removes(
    session: Session,
) -> None:
    api = session.api
    api.insert_dnc("2025558201", "1", Scope.purpose("Surveys"), reason="survey opt-out")
    api.insert_dnc("2025558201", "1", Scope.purpose("Marketing"), reason="asked on call")
    entries = {e.purpose: e for e in api.iter_dnc(DncQuery(phone_number="2025558201"))}
    picked = entries["Surveys"]
    result = remove_dnc_entries(session, [picked], reason="consent re-obtained")
    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.REMOVED
    assert outcome.message == "removed for purposes 'Marketing' and 'Surveys'"
    assert api.search_dnc(DncQuery(phone_number="2025558201")).total == 0
    (intent,) = [e for e in session.journal.query(operation="dnc.delete") if e.phase == "intent"]
    assert intent.before is not None
    recorded = sorted(intent.before["entries"], key=lambda e: e["purpose"])
    assert recorded == [entries["Marketing"].as_dict(), entries["Surveys"].as_dict()]
    assert intent.note == "consent re-obtained"


def test_a_global_entry_keeps_its_own_values_as_before(session: Session) -> None:
    api = session.api
    api.insert_dnc("2025558202", "1", Scope.global_(), reason="web form")
    (entry,) = api.iter_dnc(DncQuery(phone_number="2025558202"))
    remove_dnc_entries(session, [entry], reason="entered by mistake")
    (intent,) = [e for e in session.journal.query(operation="dnc.delete") if e.phase == "intent"]
    assert intent.before == entry.as_dict()
