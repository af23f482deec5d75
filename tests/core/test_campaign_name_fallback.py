"""A Campaign Name column beside a Campaign ID (or Scope) column whose cell is empty.

Black-box finding: with both a campaign-id and a campaign-name column, a row whose id cell was
empty went to the job's default scope (``--scope campaign:1003``, or global) and only noted
that the name disagreed; a name no campaign has was not refused. An empty cell names nothing:
the row's scope is the one its name cell names, and an unknown name makes the row invalid,
naming the cell. Two filled cells that disagree keep the existing rule (an import takes the
mapped column's scope and says so; a removal row is invalid), and a removal still takes only
its own scope unless per-row scopes were asked for.
"""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path
from typing import Any

from app.api.models import Campaign
from app.api.scope import Scope
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.removal_job import stage_removal
from app.core.session import Session
from app.core.sheet_check import CheckedRow, CheckOptions, Outcome, check_all
from app.core.sheet_mapping import propose_mapping
from app.core.sheet_scope import CampaignDirectory
from app.core.sheet_types import CellValue, Row

DIRECTORY = CampaignDirectory(
    [
        Campaign("1001", "Solar Savings Outreach", True, "", ""),
        Campaign("1002", "Winter Push", True, "", ""),
        Campaign("1003", "Roof Repair", True, "", ""),
    ]
)
SOLAR = "Solar Savings Outreach"
NOWHERE = "No Such Campaign"
IMPORT = CheckOptions(campaign_lookup=DIRECTORY)
ID_AND_NAME = ["Phone", "Campaign ID", "Campaign Name"]


def run(
    header: list[str],
    rows: list[list[CellValue]],
    default: Scope,
    options: CheckOptions | None = None,
) -> list[CheckedRow]:
    """Check ``rows`` under ``header`` as a file would be: the mapping proposed from the
    header (as the CLI and the wizard start), the header on row 1."""
    numbered: list[Row] = [(i, r) for i, r in enumerate(rows, 2)]
    proposed = propose_mapping(header, numbered)
    mapping = dataclasses.replace(proposed, header_row=1, default_scope=default)
    checked, summary = check_all([(1, list(header)), *numbered], mapping, options)
    assert summary.rows == len(rows)
    return checked


def test_the_mapping_reads_the_id_column_and_the_name_beside_it() -> None:
    # The case of the finding: the id column is the mapped one, the name another campaign column.
    numbered: list[Row] = [(2, ["3035550601", None, SOLAR])]
    mapping = propose_mapping(ID_AND_NAME, numbered)
    assert (mapping.campaign, mapping.scope) == (1, None)


def test_an_empty_id_cell_takes_the_campaign_the_name_cell_names() -> None:
    rows: list[list[CellValue]] = [
        ["303-555-0601", None, SOLAR],
        ["303-555-0604", "", "winter push"],
    ]
    for default in (Scope.campaign("1003"), Scope.global_()):
        checked = run(ID_AND_NAME, rows, default, IMPORT)
        assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.VALID]
        assert [c.scope for c in checked] == [Scope.campaign("1001"), Scope.campaign("1002")]
        # Nothing was not used, so nothing is said about it.
        assert [c.message for c in checked] == ["", ""]


def test_an_empty_id_cell_and_an_unknown_name_is_invalid_naming_the_cell() -> None:
    rows: list[list[CellValue]] = [["303-555-0602", None, NOWHERE]]
    checked = run(ID_AND_NAME, rows, Scope.campaign("1003"), IMPORT)
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].scope is None
    assert checked[0].message == (
        "row 2: campaign: no campaign is named 'No Such Campaign' "
        "(the 'Campaign Name' cell; the 'Campaign ID' cell is empty)"
    )


def test_an_id_and_a_name_that_agree() -> None:
    rows: list[list[CellValue]] = [
        ["303-555-0605", "1001", SOLAR],
        ["303-555-0606", 1002, "Winter Push"],
    ]
    checked = run(ID_AND_NAME, rows, Scope.campaign("1003"), IMPORT)
    assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.VALID]
    assert [c.scope for c in checked] == [Scope.campaign("1001"), Scope.campaign("1002")]
    assert [c.message for c in checked] == ["", ""]


def test_an_id_and_a_name_that_disagree_keep_the_existing_rule() -> None:
    rows: list[list[CellValue]] = [
        ["303-555-0603", "1002", SOLAR],
        ["303-555-0607", "1002", NOWHERE],
    ]
    checked = run(ID_AND_NAME, rows, Scope.campaign("1003"), IMPORT)
    # An import takes the id column's campaign and says the name was not used.
    assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.VALID]
    assert [c.scope for c in checked] == [Scope.campaign("1002")] * 2
    assert checked[0].message == (
        "row 2: the row's scope is Campaign 1002 but its 'Campaign Name' cell is "
        "'Solar Savings Outreach' (Campaign 1001); the row's scope is used"
    )
    assert "no campaign is named 'No Such Campaign'" in checked[1].message
    # A removal row where they disagree is invalid, per-row scopes or not.
    for per_row in (False, True):
        options = CheckOptions(campaign_lookup=DIRECTORY, removal=True, scope_from_rows=per_row)
        checked = run(ID_AND_NAME, rows, Scope.campaign("1002"), options)
        assert [c.outcome for c in checked] == [Outcome.INVALID, Outcome.INVALID]
        assert checked[0].message == (
            "row 2: campaign: the row's scope is Campaign 1002 but its 'Campaign Name' cell is "
            "'Solar Savings Outreach' (Campaign 1001)"
        )


def test_both_cells_empty_takes_the_default_scope() -> None:
    rows: list[list[CellValue]] = [["303-555-0608", None, None]]
    checked = run(ID_AND_NAME, rows, Scope.campaign("1003"), IMPORT)
    assert (checked[0].outcome, checked[0].scope) == (Outcome.VALID, Scope.campaign("1003"))


def test_an_empty_scope_cell_and_a_name_column() -> None:
    # Scope, Campaign ID and Campaign Name: the scope and id cells empty, the name names it.
    header = ["Phone", "Scope", "Campaign ID", "Campaign Name"]
    rows: list[list[CellValue]] = [
        ["303-555-0611", None, None, SOLAR],
        ["303-555-0612", None, None, NOWHERE],
        # Scope "campaign" takes the campaign from the name when the id cell is empty.
        ["303-555-0613", "campaign", None, "Winter Push"],
        # A scope cell and a name that disagree: the existing rule, naming the name's cell.
        ["303-555-0614", "global", None, SOLAR],
        ["303-555-0615", None, None, None],
    ]
    checked = run(header, rows, Scope.campaign("1003"), IMPORT)
    assert [c.outcome for c in checked] == [
        Outcome.VALID,
        Outcome.INVALID,
        Outcome.VALID,
        Outcome.VALID,
        Outcome.VALID,
    ]
    assert [c.scope for c in checked] == [
        Scope.campaign("1001"),
        None,
        Scope.campaign("1002"),
        Scope.global_(),
        Scope.campaign("1003"),
    ]
    assert checked[1].message == (
        "row 3: campaign: no campaign is named 'No Such Campaign' "
        "(the 'Campaign Name' cell; the 'Campaign ID' cell is empty)"
    )
    assert checked[3].message == (
        "row 5: the scope cell says Global but the 'Campaign Name' cell is "
        "'Solar Savings Outreach' (Campaign 1001); the scope cell's scope is used"
    )
    # A Scope column and only a name column: the name column is the campaign column itself.
    short = [[r[0], r[1], r[3]] for r in rows]
    checked = run(["Phone", "Scope", "Campaign Name"], short, Scope.campaign("1003"), IMPORT)
    assert [c.scope for c in checked] == [
        Scope.campaign("1001"),
        None,
        Scope.campaign("1002"),
        Scope.global_(),
        Scope.campaign("1003"),
    ]
    assert checked[1].message == "row 3: campaign: no campaign is named 'No Such Campaign'"


def test_a_removal_takes_only_its_scope_unless_per_row_scopes_were_asked_for() -> None:
    rows: list[list[CellValue]] = [
        ["303-555-0601", None, SOLAR],
        ["303-555-0602", None, NOWHERE],
        ["303-555-0608", None, None],
    ]
    removal = CheckOptions(campaign_lookup=DIRECTORY, removal=True)
    # The name names another campaign than the removal's: the row is invalid, saying so.
    checked = run(ID_AND_NAME, rows, Scope.campaign("1003"), removal)
    assert [c.outcome for c in checked] == [Outcome.INVALID, Outcome.INVALID, Outcome.VALID]
    assert checked[0].message == (
        "row 2: scope: the file says Campaign 1001 but this removal is for Campaign 1003; "
        "a removal takes only the scope it was given (--per-row-scope takes each row's scope "
        "from the file)"
    )
    assert checked[1].message == (
        "row 3: campaign: no campaign is named 'No Such Campaign' "
        "(the 'Campaign Name' cell; the 'Campaign ID' cell is empty)"
    )
    assert checked[2].scope == Scope.campaign("1003")
    # The name names the removal's own campaign: the row is removed from it.
    checked = run(ID_AND_NAME, rows, Scope.campaign("1001"), removal)
    assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.INVALID, Outcome.VALID]
    assert checked[0].scope == Scope.campaign("1001")
    # Per-row scopes, asked for: the row takes the campaign its name names, not the job's.
    per_row = CheckOptions(campaign_lookup=DIRECTORY, removal=True, scope_from_rows=True)
    checked = run(ID_AND_NAME, rows, Scope.campaign("1003"), per_row)
    assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.INVALID, Outcome.VALID]
    assert [c.scope for c in checked] == [Scope.campaign("1001"), None, Scope.campaign("1003")]


# ---- end to end: staged from a file against a sandbox -----------------------------------


def _write_csv(path: Path, header: list[str], rows: list[list[Any]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _campaign_ids(sandbox: Any, session: Session) -> tuple[str, str, str]:
    solar = sandbox.seed_campaign(SOLAR)
    winter = sandbox.seed_campaign("Winter Push")
    other = sandbox.seed_campaign("Roof Repair")
    assert {c.id for c in session.api.campaigns()} >= {solar, winter, other}
    return solar, winter, other


def test_import_with_an_id_and_a_name_column(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    solar, winter, other = _campaign_ids(sandbox, session)
    path = _write_csv(
        tmp_path / "cboth.csv",
        ID_AND_NAME,
        [
            ["303-555-0601", "", SOLAR],
            ["303-555-0602", "", NOWHERE],
            ["303-555-0603", winter, SOLAR],
            ["303-555-0604", "", ""],
        ],
    )
    lookup = CampaignDirectory(session.api.campaigns())
    settings = JobSettings(path, Scope.campaign(other))
    store, _ = stage_import(
        settings, tmp_path / "jobs", connection=session.connection, campaign_lookup=lookup
    )
    assert run_import(store, session) is JobStatus.FINISHED
    s = job_summary(store)
    assert (s["rows"], s["inserted"], s["invalid"], s["failed"]) == (4, 3, 1, 0)
    bad = [r for r in store.rows() if r.outcome == "invalid"]
    assert bad[0].message == (
        "row 3: campaign: no campaign is named 'No Such Campaign' "
        "(the 'Campaign Name' cell; the 'Campaign ID' cell is empty)"
    )
    in_service = {
        (r["phone_number"], r["campaign_id"])
        for r in sandbox.store.all("SELECT phone_number, campaign_id FROM dnc")
    }
    assert in_service == {
        ("3035550601", int(solar)),
        ("3035550603", int(winter)),
        ("3035550604", int(other)),
    }


def test_removal_staged_with_an_id_and_a_name_column(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    solar, _, other = _campaign_ids(sandbox, session)
    path = _write_csv(
        tmp_path / "remove.csv",
        ID_AND_NAME,
        [["303-555-0601", "", SOLAR], ["303-555-0602", "", NOWHERE], ["303-555-0604", "", ""]],
    )
    lookup = CampaignDirectory(session.api.campaigns())
    for per_row, wanted in (
        (False, ["invalid", "invalid", "pending"]),
        (True, ["pending", "invalid", "pending"]),
    ):
        settings = JobSettings(path, Scope.campaign(other), scope_from_rows=per_row)
        store, _ = stage_removal(
            settings,
            tmp_path / f"jobs-{per_row}",
            connection=session.connection,
            campaign_lookup=lookup,
        )
        rows = sorted(store.rows(), key=lambda r: r.row_number)
        assert [r.outcome or r.state for r in rows] == wanted
        assert "the 'Campaign Name' cell" in rows[1].message
        if per_row:
            assert rows[0].scope == str(Scope.campaign(solar))
        else:
            assert f"this removal is for Campaign {other}" in rows[0].message
