"""A log's end of one number on every row is not read over the end of many consumers
(regression check V2 #3): "Sender" of the business's one line beside 12 "Recipient"s, each
row's message "STOP", imported the line once and 11 duplicates. An inbound STOP log whose few
consumers texted STOP again and again still reads its "From" side, as the rows say."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.core.sheet_mapping import ColumnMapping, propose_mapping
from app.core.sheet_types import CellValue, Row

LINE = "+13035550142"
CONSUMERS = [f"+1720555{1234 + n}" for n in range(12)]


def _propose(header: Sequence[str], *columns: Sequence[CellValue]) -> ColumnMapping:
    rows: list[Row] = [(n + 2, list(c)) for n, c in enumerate(zip(*columns, strict=True))]
    return propose_mapping(list(header), rows)


@pytest.mark.parametrize(
    ("sender", "recipient"),
    [("Sender", "Recipient"), ("From", "To"), ("Originator", "Destination")],
)
def test_the_end_of_many_numbers_is_read(sender: str, recipient: str) -> None:
    dates, stops = ["2026-11-01"] * 12, ["STOP"] * 12
    mapping = _propose(["Date", sender, recipient, "Message"], dates, [LINE] * 12, CONSUMERS, stops)
    assert mapping.phone == 2
    assert mapping.own_line_by_count == (1, 2)  # said by the log's note
    mapping = _propose(["Date", recipient, sender, "Message"], dates, CONSUMERS, [LINE] * 12, stops)
    assert mapping.phone == 1


def test_few_consumers_texting_stop_again_are_still_read_from_the_from_side() -> None:
    """Two consumers, three STOPs each, to the business's one line."""
    froms = [CONSUMERS[0]] * 3 + [CONSUMERS[1]] * 3
    mapping = _propose(["From", "To", "Text"], froms, [LINE] * 6, ["STOP"] * 6)
    assert mapping.phone == 0
    assert mapping.own_line_by_count is None
