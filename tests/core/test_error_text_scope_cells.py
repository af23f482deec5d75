"""A scope or campaign cell holding a spreadsheet's error value as text ("#N/A" in a CSV, a
formula that failed) is invalid as an error value, not as "no campaign is named '#N/A'": the
row says what to correct, and the job's warning on campaigns the connection lacks does not
count it (leftover of black-box M1 #10)."""

from __future__ import annotations

import pytest

from app.api.models import Campaign
from app.api.scope import Scope
from app.core.sheet_check import CheckOptions, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_scope import CampaignDirectory

DIRECTORY = CampaignDirectory([Campaign("1001", "Spring Promo", True, "", "")])


@pytest.mark.parametrize("error", ["#N/A", "#REF!", "Err:502", " #VALUE! "])
@pytest.mark.parametrize("field", ["campaign", "scope"])
def test_an_error_value_names_no_scope(field: str, error: str) -> None:
    mapping = ColumnMapping(header_row=1, phone=0, **{field: 1})
    rows = [(2, ["2025550101", error]), (3, ["2025550102", "1001"])]
    checked, summary = check_all(rows, mapping, CheckOptions(campaign_lookup=DIRECTORY))
    assert (summary.valid, summary.invalid) == (1, 1)
    bad = checked[0]
    assert bad.outcome is Outcome.INVALID
    assert bad.message == (
        f"row 2: {field}: {error.strip()!r} is an error value from a spreadsheet, not a "
        f"{field}: correct it in the file and run the file again"
    )
    assert bad.marks is None  # not a campaign the connection lacks
    assert bad.national == "2025550101"  # the number itself is fine
    assert checked[1].scope == Scope.campaign("1001")


def test_an_error_value_in_the_campaign_cell_of_a_scope_campaign_row() -> None:
    mapping = ColumnMapping(header_row=1, phone=0, scope=1, campaign=2)
    rows = [(2, ["2025550101", "campaign", "#N/A"])]
    checked, _ = check_all(rows, mapping, CheckOptions(campaign_lookup=DIRECTORY))
    assert checked[0].message == (
        "row 2: campaign: '#N/A' is an error value from a spreadsheet, not a campaign: "
        "correct it in the file and run the file again"
    )
    assert checked[0].marks is None


def test_a_campaign_named_like_an_error_value_is_still_no_campaign() -> None:
    """Only an error value's exact form is one: '#N/A list' is a name, looked up as names are."""
    mapping = ColumnMapping(header_row=1, phone=0, campaign=1)
    checked, _ = check_all(
        [(2, ["2025550101", "#N/A list"])], mapping, CheckOptions(campaign_lookup=DIRECTORY)
    )
    assert checked[0].message == "row 2: campaign: no campaign is named '#N/A list'"
