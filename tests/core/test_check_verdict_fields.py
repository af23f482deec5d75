"""The check marks the rows staging warns about, so no warning reads a row's message.

Staging's warnings on rows naming two scopes, reasons cut and campaigns the connection lacks
count the rows whose :class:`~app.core.sheet_check.Marks` say so, set where the check writes
each row's note. They used to find those rows by phrases of the message: a
reworded message would have dropped its warning without a test failing, and a row whose
message went on past the phrase (an unknown campaign on a late row) was not counted.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from app.api.models import Campaign
from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import (
    ROW_SCOPE_USED,
    SCOPE_CELL_USED,
    CheckedRow,
    CheckOptions,
    Marks,
    Outcome,
    check_all,
)
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_scope import CampaignDirectory
from app.core.sheet_types import CellValue, Row
from tests.core.sheet_factory import write_csv

DIRECTORY = CampaignDirectory(
    [
        Campaign("1001", "Solar Savings Outreach", True, "", ""),
        Campaign("1002", "Winter Push", True, "", ""),
        Campaign("1003", "Roof Repair", True, "", ""),
    ]
)
INSERTED = dt.date(2026, 11, 23)


def _checked(
    headers: tuple[str, ...], rows: list[list[CellValue]], **columns: int
) -> dict[int, CheckedRow]:
    mapping = ColumnMapping(header_row=1, headers=headers, phone=0, **columns)
    numbered: list[Row] = [(n, cells) for n, cells in enumerate(rows, 2)]
    options = CheckOptions(insertion_date=INSERTED, campaign_lookup=DIRECTORY)
    checked, _ = check_all(numbered, mapping, options)
    return {c.row: c for c in checked}


def _marks(c: CheckedRow) -> tuple[Outcome, tuple[str, ...], bool, tuple[int, str] | None]:
    """The row's outcome and marks (none: a row the warnings do not count)."""
    marks = c.marks or Marks()
    if c.marks is not None:
        assert c.marks != Marks()  # a row is marked only with something to count
    return c.outcome, marks.two_scopes, marks.reason_cut, marks.unknown_campaign


def test_rows_naming_two_scopes_say_which_scope_was_used() -> None:
    checked = _checked(
        ("Phone", "Scope", "Campaign ID", "Campaign Name"),
        [
            ["3035555009", "campaign:1001", "1001", "Solar Savings Outreach"],
            ["3035555010", "campaign:1001", "1002", ""],
            ["3035555011", "", "1002", "Roof Repair"],
            ["3035555012", "campaign:1001", "1002", "Roof Repair"],
            ["3035555010", "campaign:1001", "1002", ""],  # a duplicate: its message notes none
        ],
        scope=1,
        campaign=2,
    )
    assert _marks(checked[2]) == (Outcome.VALID, (), False, None)
    assert _marks(checked[3]) == (Outcome.VALID, (SCOPE_CELL_USED,), False, None)
    assert _marks(checked[4]) == (Outcome.VALID, (ROW_SCOPE_USED,), False, None)
    assert _marks(checked[5]) == (
        Outcome.VALID,
        (SCOPE_CELL_USED, ROW_SCOPE_USED),
        False,
        None,
    )
    assert _marks(checked[6]) == (Outcome.DUPLICATE, (), False, None)


def test_a_reason_cut_to_the_limit_is_marked_on_either_path() -> None:
    rows: list[list[CellValue]] = [
        ["3035550110", "R" * 255],
        ["3035550111", "S" * 256],
        ["3035550112", ""],
    ]
    # Phone and reason only: plain rows are decided inline (check_plain), the cut one is not.
    plain = _checked(("Phone", "Reason"), rows, reason=1)
    assert [_marks(c) for c in plain.values()] == [
        (Outcome.VALID, (), False, None),
        (Outcome.VALID, (), True, None),
        (Outcome.VALID, (), False, None),
    ]
    with_campaigns = _checked(
        ("Phone", "Reason", "Campaign"), [[*r, "1001"] for r in rows], reason=1, campaign=2
    )
    assert [_marks(c)[2] for c in with_campaigns.values()] == [False, True, False]


def test_a_campaign_the_connection_lacks_is_marked_with_its_column() -> None:
    checked = _checked(
        ("Phone", "Campaign ID", "Campaign Name", "Request Date"),
        [
            ["3035554001", "1001", "", "2026-11-20"],
            ["3035554002", "9999", "", "2026-11-20"],
            ["3035554003", "", "Medicare Enrollment 2026", "2026-11-20"],
            ["3035554004", "Holiday Promo", "", "2026-11-20"],
            # Late: the message goes on past the campaign's sentence.
            ["3035554005", "Holiday Promo", "", "2020-01-02"],
            ["3035554006", "", "Bob's \\ Promo", ""],
            ["3035554007", "global", "", ""],
        ],
        campaign=1,
        request_date=3,
    )
    assert _marks(checked[2]) == (Outcome.VALID, (), False, None)
    assert _marks(checked[3]) == (Outcome.INVALID, (), False, (1, "id 9999"))
    assert _marks(checked[4]) == (Outcome.INVALID, (), False, (2, "'Medicare Enrollment 2026'"))
    assert _marks(checked[5]) == (Outcome.INVALID, (), False, (1, "'Holiday Promo'"))
    assert checked[6].late
    assert _marks(checked[6]) == (Outcome.INVALID, (), False, (1, "'Holiday Promo'"))
    assert _marks(checked[7]) == (Outcome.INVALID, (), False, (2, repr("Bob's \\ Promo")))
    assert _marks(checked[8]) == (Outcome.VALID, (), False, None)


def test_an_invalid_campaign_cell_of_another_kind_is_not_marked() -> None:
    checked = _checked(
        ("Phone", "Scope", "Campaign"),
        [
            ["3035554008", "campaign", "Solar Savings Outreach"],
            ["3035554009", "campaign", "global"],  # the scope says a campaign: none named
            ["3035554010", "nonsense", ""],
        ],
        scope=1,
        campaign=2,
    )
    assert _marks(checked[2]) == (Outcome.VALID, (), False, None)
    assert _marks(checked[3]) == (Outcome.INVALID, (), False, None)
    assert _marks(checked[4]) == (Outcome.INVALID, (), False, None)


def test_a_late_row_and_a_name_with_a_backslash_are_counted_as_written(tmp_path: Path) -> None:
    rows = [
        ["Phone", "Campaign", "Request Date"],
        ["3035554002", "Holiday Promo", "2020-01-02"],
        ["3035554003", "Holiday Promo", ""],
        ["3035554004", "a\\b", ""],
    ]
    path = write_csv(tmp_path / "late.csv", rows)
    store, summary = stage_import(
        JobSettings(path, Scope.global_()),
        tmp_path / "jobs",
        campaign_lookup=DIRECTORY,
        connection=None,
    )
    with store:
        warnings = list(store.meta().get("warnings", []))
    assert summary.invalid == 3
    assert (
        "3 rows are invalid because column B ('Campaign') names no campaign on this "
        "connection ('Holiday Promo' and 'a\\\\b'; rows 2, 3 and 4). If that column does not "
        "hold this connection's campaigns (an SMS platform's or another dialer's campaigns), "
        "run the file again with --ignore-column 'Campaign': the column is then not read, and "
        "the job's scope (--scope) applies to every row."
    ) in warnings
