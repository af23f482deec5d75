"""check_plain reads each reason text once however many rows repeat it (session 19, P1: the
import's speed); every row still gets its reason."""

from __future__ import annotations

import pytest

from app.core import sheet_check
from app.core.sheet_check import CheckOptions, CheckSummary, Outcome, check_rows
from app.core.sheet_mapping import propose_from_preview


def test_a_reason_repeated_on_many_rows_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The import's common row: a valid number and one of a few reasons. Each reason text is
    # read once (cell_text), and every row still gets its reason.
    read: list[str] = []
    real = sheet_check.cell_text

    def counted(text: str) -> str:
        read.append(text)
        return real(text)

    monkeypatch.setattr(sheet_check, "cell_text", counted)
    rows = [(1, ["Phone", "Reason"])] + [
        (n, [f"20255501{n:02d}", "'til 5pm" if n % 2 else "  Asked by email "])
        for n in range(2, 60)
    ]
    summary = CheckSummary()
    checked = list(check_rows(rows, propose_from_preview(rows[:10]), CheckOptions(), summary))
    assert [c.reason for c in checked[:2]] == ["Asked by email", "'til 5pm"]
    assert {c.outcome for c in checked} == {Outcome.VALID}
    assert summary.valid == 58
    assert read == ["'til 5pm"]
