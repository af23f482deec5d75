"""Campaign Name cells of digits, 0 and -1, offline and in a report's Scope cell (FXH).

An offline dry run read a Campaign Name cell '12' as campaign id 12, though a run with a
connection takes the campaign named '12': it now cannot be looked up offline, as any name, and
the row is invalid in that dry run. The codes 0 and -1 went global or purpose offline without
a word, though a run refuses them beside a campaign so named: the row now says it was not
checked, as a scope word does. A report wrote such a cell as ``campaign:12`` in its Scope
column, which a re-import reads as campaign 12: it is written bare, which a Scope cell reads as
the campaign named so, or refuses naming both campaigns.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.api.scope import Scope
from app.core.sheet_scope import (
    UNRESOLVED_OFFLINE,
    CampaignDirectory,
    Holds,
    ScopeResolver,
    campaign_cell_written,
)


@dataclass(frozen=True)
class _Campaign:
    id: str
    name: str


def test_offline_digits_of_a_campaign_name_column_cannot_be_looked_up() -> None:
    offline = ScopeResolver(CampaignDirectory.unchecked())
    found = offline.campaign_cell("12", Holds.NAMES)
    assert found == f"name '12' {UNRESOLVED_OFFLINE} (its column holds names)"


@pytest.mark.parametrize("holds", [Holds.IDS, Holds.EITHER])
def test_offline_digits_of_other_campaign_columns_are_still_ids(holds: Holds) -> None:
    offline = ScopeResolver(CampaignDirectory.unchecked())
    assert offline.campaign_cell("12", holds) == Scope.campaign("12")
    assert offline.campaign_cell("campaign:12", Holds.NAMES) == Scope.campaign("12")


@pytest.mark.parametrize(("cell", "read"), [("0", "Global"), ("-1", "Purpose")])
def test_offline_codes_say_they_were_not_checked(cell: str, read: str) -> None:
    offline = ScopeResolver(CampaignDirectory.unchecked())
    assert offline.word_unchecked(cell) == (
        f"{cell!r} is read as {read}, but not checked against the service's campaigns (no "
        f"connection): a run with a connection refuses the row if a campaign is named {cell!r}"
    )
    assert ScopeResolver(CampaignDirectory([])).word_unchecked(cell) == ""


def test_online_a_code_in_a_campaign_name_column_beside_a_campaign_so_named_is_refused() -> None:
    directory = CampaignDirectory([_Campaign("5", "0")])
    found = ScopeResolver(directory).campaign_cell("0", Holds.NAMES)
    assert isinstance(found, str) and "could mean the global scope" in found
    assert ScopeResolver(CampaignDirectory([])).campaign_cell("0", Holds.NAMES) == Scope.global_()


def test_a_name_of_digits_is_written_so_that_a_scope_cell_reads_the_same_campaign() -> None:
    written = campaign_cell_written("12", Holds.NAMES)
    assert written == "12"
    # Campaign 17 is named '12', and no campaign has id 12: the named one.
    only_named = ScopeResolver(CampaignDirectory([_Campaign("17", "12")]))
    assert only_named.campaign_cell("12", Holds.NAMES) == Scope.campaign("17")
    assert only_named.scope_cell(written) == Scope.campaign("17")
    # Beside campaign 12 the cell says two campaigns: refused, never campaign 12 unasked.
    both = ScopeResolver(CampaignDirectory([_Campaign("12", "Spring"), _Campaign("17", "12")]))
    assert both.campaign_cell("12", Holds.NAMES) == Scope.campaign("17")
    assert not isinstance(both.scope_cell(written), Scope)


@pytest.mark.parametrize(
    ("cell", "holds", "written"),
    [
        ("12", Holds.IDS, "campaign:12"),
        ("12", Holds.EITHER, "campaign:12"),
        ("Spring", Holds.NAMES, "campaign:Spring"),
        ("0", Holds.NAMES, "global"),
        ("-1", Holds.NAMES, "purpose"),
        ("campaign:12", Holds.NAMES, "campaign:12"),
    ],
)
def test_other_campaign_cells_are_written_as_before(cell: str, holds: Holds, written: str) -> None:
    assert campaign_cell_written(cell, holds) == written
