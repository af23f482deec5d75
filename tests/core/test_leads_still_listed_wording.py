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


@pytest.mark.parametrize(
    ("scopes", "said"),
    [
        (
            ["Campaign 1003"],
            "by the service although the number stays on the DNC list through its other entry "
            "(Campaign 1003), so a number still listed there now looks callable: row 5",
        ),
        (
            ["not checked"],
            "by the service, and whether the number stays on the DNC list through another entry "
            "could not be checked (the look-up of its entries failed), so a number still listed "
            "would now look callable: row 5",
        ),
        (
            ["Campaign 1003", "not checked"],
            "through its other entry (Campaign 1003) (or, for some, whether the number stays on "
            "the DNC list through another entry could not be checked (the look-up of its entries "
            "failed)), so a number",
        ),
    ],
)
def test_leads_not_checked_are_said_apart_from_the_scopes(scopes: list[str], said: str) -> None:
    # Black-box B29 F1: leads whose number's other entries could not be looked up are counted,
    # and "not checked" is no entry to name among the scopes ("through its other entries
    # (Campaign 1003, not checked)").
    still = StillListed()
    still.rows, still.leads = 1, 1
    still.scopes, still.first = scopes, ["row 5 (lead 101)"]
    assert said in still.sentence("NI")


@pytest.mark.parametrize(
    ("scopes", "said"),
    [
        (
            ["Campaign 1003"],
            "by the service although the number stays on the DNC list through its other entry "
            "(Campaign 1003); DNCREQ is a do-not-call status on the service, so it does not look "
            "callable, but the status it had was replaced: row 5",
        ),
        (
            ["not checked"],
            "could not be checked (the look-up of its entries failed); DNCREQ is a do-not-call "
            "status on the service, so it does not look callable, but the status it had was "
            "replaced: row 5",
        ),
    ],
)
def test_a_dnc_status_is_not_said_to_make_the_number_look_callable(
    scopes: list[str], said: str
) -> None:
    # Black-box bb15: "set to DNC …, so a number still listed there now looks callable".
    still = StillListed()
    still.rows, still.leads = 1, 1
    still.scopes, still.first = scopes, ["row 5 (lead 101)"]
    sentence = still.sentence("DNCREQ", dnc=True)
    assert said in sentence
    assert "look callable:" not in sentence and "looks callable" not in sentence
    # Not known (a job file staged before the flag was kept) or not a DNC status: as before.
    assert "callable: row 5" in still.sentence("DNCREQ", dnc=None)
    assert still.sentence("NI", dnc=False) == still.sentence("NI")
