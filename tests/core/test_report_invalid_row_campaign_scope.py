"""Review RV3 F5: an invalid-phone row's Scope cell in the report (so that a row corrected there
and imported again goes where its file meant it to) was read from the campaign column the
PREVIOUS row's scope check chose. After a row whose Campaign ID was empty and took its campaign
from the Campaign Name column, the next invalid rows' "Campaign ID 9" was written as 'global'."""

import datetime as dt
from collections.abc import Sequence

from app.core.sheet_check import CheckOptions, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import CellValue

H = ("Phone", "Campaign ID", "Campaign Name")
MAPPING = ColumnMapping(phone=0, campaign=1, headers=H, header_row=1)
OPTS = CheckOptions(
    insertion_date=dt.date(2026, 11, 24), campaign_lookup={"Spring": "7", "Summer": "9"}
)


def _written(rows: Sequence[tuple[int, Sequence[CellValue]]]) -> dict[int, str]:
    checked, _ = check_all([(1, list(H)), *((n, list(c)) for n, c in rows)], MAPPING, OPTS)
    return {c.row: c.scope_written for c in checked if c.outcome is Outcome.INVALID}


def test_alone_the_invalid_row_names_its_campaign() -> None:
    assert _written([(3, ["12345", "9", None])]) == {3: "campaign:9"}  # passes


def test_after_a_row_whose_campaign_came_from_the_name_column() -> None:
    rows = [(2, ["3035550123", None, "Spring"]), (3, ["12345", "9", None]), (4, ["555", "9", None])]
    assert _written(rows) == {3: "campaign:9", 4: "campaign:9"}  # fails: 'global', 'global'


def test_after_a_row_whose_campaign_came_from_the_id_column() -> None:
    rows = [(2, ["3035550123", "9", None]), (3, ["12345", None, "Spring"])]
    # Shown by its id, as a valid row's scope is (black-box bb5 W2).
    assert _written(rows) == {3: "campaign:7"}  # failed: 'global'
