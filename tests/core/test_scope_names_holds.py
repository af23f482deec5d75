"""What a campaign column's header says its cells hold, and how a cell's digits read by it
(black-box B21 F1)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.api.scope import Scope
from app.core.sheet_scope import CampaignDirectory, Holds, ScopeResolver, campaign_column_holds


@dataclass(frozen=True)
class _Campaign:
    id: str
    name: str


@pytest.mark.parametrize(
    ("header", "holds"),
    [
        ("Campaign Name", Holds.NAMES),
        ("campaign_name", Holds.NAMES),
        ("CampaignName", Holds.NAMES),
        ("Campaign Title", Holds.NAMES),
        ("Campaign ID", Holds.IDS),
        ("CampaignID", Holds.IDS),
        ("Campaign #", Holds.IDS),
        ("Campaign No.", Holds.IDS),
        ("Campaign Number", Holds.IDS),
        ("Campaign", Holds.EITHER),
        ("Campaign Name / ID", Holds.EITHER),
        ("Column C", Holds.EITHER),
    ],
)
def test_a_campaign_columns_header_says_what_it_holds(header: str, holds: Holds) -> None:
    assert campaign_column_holds(header) is holds


def test_digits_read_by_what_their_column_holds() -> None:
    directory = CampaignDirectory([_Campaign("12", "Digits First"), _Campaign("17", "12")])
    resolver = ScopeResolver(directory)
    assert resolver.campaign_cell("12", Holds.NAMES) == Scope.campaign("17")
    assert resolver.campaign_cell("12", Holds.IDS) == Scope.campaign("12")
    assert resolver.campaign_cell("campaign:12", Holds.NAMES) == Scope.campaign("12")
    assert "could mean campaign 12 (its id)" in str(resolver.campaign_cell("12"))
    # Digits no campaign is named are an id, in a Campaign Name column too.
    assert resolver.campaign_cell("17", Holds.NAMES) == Scope.campaign("17")
    assert resolver.campaign_cell("99", Holds.NAMES) == "id 99 does not exist on this connection"


def test_a_name_two_campaigns_share_is_refused_in_a_campaign_name_column() -> None:
    directory = CampaignDirectory(
        [_Campaign("12", "Digits First"), _Campaign("17", "12"), _Campaign("18", "12")]
    )
    found = ScopeResolver(directory).campaign_cell("12", Holds.NAMES)
    assert found == (
        "'12' names 2 campaigns on this connection (ids 17 and 18); write campaign:ID for the "
        "one meant"
    )


def test_a_scope_word_is_noted_unchecked_only_offline() -> None:
    assert ScopeResolver(CampaignDirectory.unchecked()).word_unchecked("all campaigns") == (
        "'all campaigns' is read as Global, but not checked against the service's campaigns "
        "(no connection): a run with a connection refuses the row if a campaign is named "
        "'all campaigns'"
    )
    assert ScopeResolver(CampaignDirectory.unchecked()).word_unchecked("1001") == ""
    assert ScopeResolver(CampaignDirectory([])).word_unchecked("All") == ""
