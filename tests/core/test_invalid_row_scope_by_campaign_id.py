"""Black-box bb5 W2 (session 31): in a per-row-scope file whose Campaign column names campaigns
("Solar Savings Outreach"), valid rows' Scope cells in the report read ``campaign:1001`` while a
row invalid for its phone cell (a formula never calculated, a number too short) read
``campaign:Solar Savings Outreach``. Every row shows a campaign its cell names by its id; a name
no campaign has stays as written, so the report says what the file said."""

from __future__ import annotations

from app.api.models import Campaign
from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_scope import CampaignDirectory


def test_an_invalid_rows_named_campaign_is_shown_by_its_id() -> None:
    directory = CampaignDirectory([Campaign("1001", "Solar Savings Outreach", True, "", "")])
    rows = [
        (2, ["3032916579", "Solar Savings Outreach"]),
        (3, ["12345", "Solar Savings Outreach"]),  # too short: invalid for its number
        (4, [None, "solar savings outreach"]),  # phone cell read empty (a formula's, unsaved)
        (5, ["12345", "Wind Outreach"]),  # a name no campaign has
    ]
    mapping = ColumnMapping(header_row=1, phone=0, campaign=1)
    checked, _ = check_all(rows, mapping, CheckOptions(campaign_lookup=directory, removal=True))
    shown = {c.row: str(c.scope) if c.scope is not None else c.scope_written for c in checked}
    assert shown[2] == "campaign:1001"
    assert shown[3] == "campaign:1001", checked[1]
    assert shown[4] == "campaign:1001", checked[2]
    assert shown[5] == "campaign:Wind Outreach", checked[3]
