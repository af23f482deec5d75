"""Which end of an SMS log the consumers are at, told by messages asking to stop in words as a
bare STOP tells it (black-box B31 F4: a log with no Direction column whose consumers wrote
"please stop texting me" was read from its "To", the business's pool of numbers, and the
consumers who asked to stop were left out)."""

from __future__ import annotations

import pytest

from app.core.sheet_mapping import CallSide, log_consumers_end

HEADERS = ["Date Sent", "From", "To", "Body"]


def _rows(bodies: list[str]) -> list[list[str]]:
    return [
        ["2026-11-24", f"+1312555017{i}", f"+1773555010{i}", body] for i, body in enumerate(bodies)
    ]


@pytest.mark.parametrize(
    "bodies",
    [
        ["please stop texting me", "I said stop texting me", "remove me from this list"],
        ["Unsubscribe me now", "no more messages please", "leave me alone"],
    ],
)
def test_sentences_asking_to_stop_are_the_consumers(bodies: list[str]) -> None:
    assert log_consumers_end(HEADERS, _rows(bodies)) is CallSide.CALLER


def test_the_business_confirming_or_telling_how_to_stop_is_not() -> None:
    bodies = ["You have been unsubscribed. No more messages will be sent.", "Reply STOP to opt out"]
    assert log_consumers_end(HEADERS, _rows(bodies)) is CallSide.CALLED
    assert log_consumers_end(HEADERS, _rows(["See you at the end of the week"])) is None
