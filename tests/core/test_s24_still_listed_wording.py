"""Black-box B20 F2: a removal's warning on leads re-statused while their number stays listed
ended "the change journal has every one with the status them had"."""

from __future__ import annotations

import pytest

from app.core.job_report import StillListed


@pytest.mark.parametrize(("leads", "end"), [(1, "the status it had."), (3, "the status they had.")])
def test_the_journal_clause_agrees_with_the_number_of_leads(leads: int, end: str) -> None:
    still = StillListed()
    still.rows, still.leads = 1, leads
    still.scopes, still.first = ["global"], ["row 5 (lead 101, lead 102, lead 103)"]
    sentence = still.sentence("HOTLD")
    assert sentence.endswith(f"and the change journal has every one with {end}")
