"""Bulk DNC removal against a real sandbox: one outcome per input, journal, lead re-status."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.dnc_removal import Outcome, RemovalTarget, remove_dnc_entries
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    s = Session(
        Connection("Test", sandbox.base_url),
        ApiClient(sandbox.base_url, TOKEN, retry=RetryPolicy(attempts=1)),
        ChangeJournal(tmp_path / "journal.sqlite3"),
    )
    yield s
    s.close()
    s.journal.close()


def _numbers(api: ApiClient) -> set[tuple[str, str]]:
    return {(e.phone_number, e.scope.api_campaign_id) for e in api.iter_dnc(DncQuery())}


def test_every_input_is_removed_and_journaled_with_the_reason(
    session: Session, api: ApiClient
) -> None:
    for i in range(12):
        api.insert_dnc(f"20255501{i:02d}", "1", Scope.global_())
    entries = list(api.iter_dnc(DncQuery()))
    seen: list[tuple[int, int]] = []
    result = remove_dnc_entries(
        session,
        entries,
        reason="Consent re-obtained, ticket 41",
        progress=lambda d, t: seen.append((d, t)),
    )
    assert [o.outcome for o in result.outcomes] == [Outcome.REMOVED] * 12
    assert [o.target.entry for o in result.outcomes] == entries
    assert result.complete and result.count(Outcome.REMOVED) == 12
    assert seen[0] == (0, 12) and seen[-1] == (12, 12)
    assert _numbers(api) == set()
    rows = session.journal.query(operation="dnc.delete")
    intents = [r for r in rows if r.phase == "intent"]
    outcomes = [r for r in rows if r.phase == "outcome"]
    assert len(intents) == 12 and len(outcomes) == 12
    assert {r.note for r in intents} == {"Consent re-obtained, ticket 41"}
    assert {r.outcome for r in outcomes} == {"ok"}
    assert len({r.job for r in rows}) == 1 and result.job == rows[0].job


def test_missing_entry_is_reported_as_not_found(session: Session, api: ApiClient) -> None:
    api.insert_dnc("2025550101", "1", Scope.global_())
    present = next(iter(api.iter_dnc(DncQuery())))
    ghost = RemovalTarget("2025550199", "1", Scope.global_())
    result = remove_dnc_entries(session, [present, ghost], reason="cleanup")
    assert [o.outcome for o in result.outcomes] == [Outcome.REMOVED, Outcome.NOT_FOUND]
    assert result.outcomes[1].message
    assert result.complete  # not found is not a failure


def test_purpose_entries_of_one_number_share_one_call(session: Session, api: ApiClient) -> None:
    api.insert_dnc("2025550101", "1", Scope.purpose("Marketing"))
    api.insert_dnc("2025550101", "1", Scope.purpose("Surveys"))
    entries = list(api.iter_dnc(DncQuery()))
    assert len(entries) == 2
    result = remove_dnc_entries(session, entries, reason="consent")
    assert [o.outcome for o in result.outcomes] == [Outcome.REMOVED, Outcome.REMOVED]
    assert (
        len([r for r in session.journal.query(operation="dnc.delete") if r.phase == "intent"]) == 1
    )
    assert _numbers(api) == set()


def test_reason_is_required(session: Session) -> None:
    with pytest.raises(ValueError, match="reason"):
        remove_dnc_entries(session, [RemovalTarget("2025550101", "1", Scope.global_())], reason=" ")


def test_cancel_before_start_attempts_nothing(session: Session, api: ApiClient) -> None:
    for i in range(5):
        api.insert_dnc(f"20255501{i:02d}", "1", Scope.global_())
    entries = list(api.iter_dnc(DncQuery()))
    cancel = threading.Event()
    cancel.set()
    result = remove_dnc_entries(session, entries, reason="x", cancel=cancel)
    assert [o.outcome for o in result.outcomes] == [Outcome.NOT_ATTEMPTED] * 5
    assert len(_numbers(api)) == 5
    assert not result.complete


def test_cancel_midway_leaves_every_input_with_one_outcome(
    session: Session, api: ApiClient
) -> None:
    for i in range(40):
        api.insert_dnc(f"20255{i:05d}", "1", Scope.global_())
    entries = list(api.iter_dnc(DncQuery()))
    cancel = threading.Event()

    def progress(done: int, total: int) -> None:
        if done >= 5:
            cancel.set()

    result = remove_dnc_entries(
        session, entries, reason="x", cancel=cancel, progress=progress, concurrency=2
    )
    assert len(result.outcomes) == 40
    removed = {o.target.phone_number for o in result.outcomes if o.outcome is Outcome.REMOVED}
    skipped = {o.target.phone_number for o in result.outcomes if o.outcome is Outcome.NOT_ATTEMPTED}
    assert removed and skipped and len(removed) + len(skipped) == 40
    remaining = {n for n, _ in _numbers(api)}
    assert remaining == skipped


def test_faults_every_input_ends_in_exactly_one_true_outcome(
    sandbox: Any, session: Session, api: ApiClient
) -> None:
    for i in range(60):
        api.insert_dnc(f"20255{i:05d}", "1", Scope.global_())
    entries = list(api.iter_dnc(DncQuery()))
    sandbox.set_faults(error_rate=0.4)
    try:
        result = remove_dnc_entries(session, entries, reason="fault test")
    finally:
        sandbox.set_faults(error_rate=0.0)
    assert len(result.outcomes) == 60
    by_outcome = {
        o: {x.target.phone_number for x in result.outcomes if x.outcome is o} for o in Outcome
    }
    assert by_outcome[Outcome.FAILED], "with 40% errors some removals must fail"
    assert by_outcome[Outcome.REMOVED]
    assert sum(len(v) for v in by_outcome.values()) == 60
    remaining = {n for n, _ in _numbers(api)}
    # Failed ones were refused before the service acted: still listed; removed ones are gone.
    assert remaining == by_outcome[Outcome.FAILED]
    for failed in (o for o in result.outcomes if o.outcome is Outcome.FAILED):
        # A 5xx says nothing of whether it was done: a look-up right after settles it.
        assert "/dnc/delete" in failed.message
        assert failed.error is not None or "a look-up right after" in failed.message
    journal_outcomes = [
        r.outcome for r in session.journal.query(operation="dnc.delete") if r.phase == "outcome"
    ]
    assert journal_outcomes.count("failed") == len(by_outcome[Outcome.FAILED])
    assert journal_outcomes.count("ok") == len(by_outcome[Outcome.REMOVED])


def test_lead_status_is_set_on_the_leads(session: Session, api: ApiClient, sandbox: Any) -> None:
    campaign = sandbox.seed_campaign("Removal Leads Campaign")
    list_id = api.insert_list("Removal test list", campaign)
    lead_id = api.insert_lead(list_id, "2025550101", phone_code="1", status="NEW")
    other = api.insert_lead(list_id, "2025550177", phone_code="1", status="NEW")
    api.insert_dnc("2025550101", "1", Scope.global_())
    entries = list(api.iter_dnc(DncQuery()))
    result = remove_dnc_entries(session, entries, reason="consent", lead_status="CALLBK")
    assert result.outcomes[0].outcome is Outcome.REMOVED and result.lead_status == "CALLBK"
    statuses = {lead.id: lead.status for lead in api.iter_leads({"list_id": list_id})}
    assert statuses == {lead_id: "CALLBK", other: "NEW"}
