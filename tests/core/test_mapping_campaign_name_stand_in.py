"""The mapping names the column a row's campaign comes from when its Campaign cell is empty
(black-box pass L3 #3: beside the Campaign ID read, a Campaign Name column gave the rows with
no id their campaign, and the mapping, the ``columns read`` line and the report named only
the Campaign ID column)."""

from __future__ import annotations

from app.api.scope import Scope
from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_mapping import ColumnMapping, campaign_stand_ins

HEADERS = ("Phone", "Campaign ID", "Campaign Name", "Reason")


def _mapping(**roles: int | None) -> ColumnMapping:
    return ColumnMapping(header_row=1, headers=HEADERS, **roles)


def test_describe_names_the_campaign_name_column_read_when_the_id_is_empty() -> None:
    mapping = _mapping(phone=0, campaign=1, reason=3)
    assert mapping.describe() == {
        "phone": "Phone (column A)",
        "reason": "Reason (column D)",
        "campaign": "Campaign ID (column B)",
        "campaign_when_empty": "Campaign Name (column C)",
    }


def test_the_column_named_is_the_one_the_check_reads() -> None:
    mapping = _mapping(phone=0, campaign=1, reason=3)
    rows = [(2, ["3035554002", "", "Spring Renewals", "name only"])]
    checked, summary = check_all(
        rows, mapping, CheckOptions(campaign_lookup={"Spring Renewals": "1007"})
    )
    assert summary.valid == 1, checked[0].message
    assert checked[0].scope == Scope.campaign("1007")
    assert campaign_stand_ins(mapping) == [2]


def test_no_stand_in_without_a_campaign_column_or_beside_a_lone_one() -> None:
    # With no Campaign column read, a Campaign Name is no stand-in for anything.
    assert "campaign_when_empty" not in _mapping(phone=0, reason=3).describe()
    assert campaign_stand_ins(_mapping(phone=0)) == []
    lone = ColumnMapping(header_row=1, headers=("Phone", "Campaign"), phone=0, campaign=1)
    assert "campaign_when_empty" not in lone.describe()


def test_several_stand_ins_are_named_in_the_order_they_are_tried() -> None:
    headers = ("Phone", "Campaign", "Campaign Name", "Campaign No")
    mapping = ColumnMapping(header_row=1, headers=headers, phone=0, campaign=1)
    assert campaign_stand_ins(mapping) == [2, 3]
    assert mapping.describe()["campaign_when_empty"] == (
        "Campaign Name (column C), then Campaign No (column D)"
    )
