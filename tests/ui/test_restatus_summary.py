"""The audit re-status's result line counts leads already in the status apart (no request was
sent for them) and does not list them among the leads that were not changed for a problem."""

from __future__ import annotations

from app.core.lead_restatus import UNCHANGED, RestatusOutcome, RestatusRow
from app.ui.restatus_dialog import restatus_summary


def test_leads_already_in_the_status_are_counted_apart_not_as_problems() -> None:
    outcome = RestatusOutcome(
        "job-1",
        "DNC",
        [
            RestatusRow("1", "10", "NEW", "DNC", "ok"),
            RestatusRow("2", "10", "DNC", "DNC", UNCHANGED, "already DNC: no request was sent"),
            RestatusRow("3", "11", "NEW", "DNC", "failed", "code 5 (not found)"),
        ],
    )
    line, problems = restatus_summary(outcome)
    assert line == (
        "Set 1 of 3 leads to DNC; failed 1; already DNC 1 (no request sent). Journal job job-1."
    )
    assert problems == ["lead 3 (list 11, was NEW): failed — code 5 (not found)"]


def test_one_lead_is_counted_as_one() -> None:
    outcome = RestatusOutcome("job-2", "DNC", [RestatusRow("1", "10", "NEW", "DNC", "ok")])
    line, problems = restatus_summary(outcome)
    assert line == "Set 1 of 1 lead to DNC. Journal job job-2."
    assert problems == []
