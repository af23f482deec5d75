"""Campaign ids in a file's scope or campaign column, checked against the service's campaign list
(fetched once per job) while the file is staged: a row naming a campaign the connection lacks
ends invalid, naming the row and the id, instead of failing at the service row by row."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import openpyxl

from app.api.models import Campaign
from app.api.scope import Scope
from app.core.import_job import run_import, stage_import
from app.core.job_exec import finish_dry_run, job_summary
from app.core.job_staging import JobSettings
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_scope import CampaignDirectory, campaign_ids_checked


def write_csv(path: Path, header: list[str], rows: list[list[Any]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def ids(session: Session) -> dict[str, str]:
    return {c.name: c.id for c in session.api.campaigns()}


def messages(store: Any) -> dict[int, tuple[str, str]]:
    return {r.row_number: (r.outcome, r.message) for r in store.rows()}


def test_resolver_checks_ids_only_against_a_campaign_directory() -> None:
    directory = CampaignDirectory([Campaign("1001", "Spring Promo", True, "", "")])
    assert directory["Spring Promo"] == "1001" and directory.ids == {"1001"}
    assert campaign_ids_checked(directory)
    assert not campaign_ids_checked(CampaignDirectory.unchecked())
    assert not campaign_ids_checked({"Spring Promo": "1001"})
    rows = [
        (2, ["2025550101", "1001"]),
        (3, ["2025550102", "9912"]),
        (4, ["2025550103", 9912.0]),
        (5, ["2025550104", "spring promo"]),
        (6, ["2025550105", "campaign:9912"]),
    ]
    by_column = ColumnMapping(header_row=1, phone=0, campaign=1)
    by_scope = ColumnMapping(header_row=1, phone=0, scope=1)
    for mapping, field in ((by_column, "campaign"), (by_scope, "scope")):
        checked, summary = check_all(rows, mapping, CheckOptions(campaign_lookup=directory))
        assert (summary.valid, summary.invalid) == (2, 3)
        assert [c.scope for c in checked if c.scope] == [Scope.campaign("1001")] * 2
        # The field names the column; the detail does not say "campaign" a second time.
        noun = "id" if field == "campaign" else "campaign"
        assert (
            checked[1].message == f"row 3: {field}: {noun} 9912 does not exist on this connection"
        )
        assert checked[2].message.startswith("row 4: ") and "9912 does not" in checked[2].message
        assert (
            checked[4].message == f"row 6: {field}: {noun} 9912 does not exist on this connection"
        )
    # A service with no campaigns at all: every id is unknown (an empty list is still a list).
    none = CheckOptions(campaign_lookup=CampaignDirectory([]))
    checked, summary = check_all(rows[:1], by_column, none)
    assert checked[0].message == "row 2: campaign: id 1001 does not exist on this connection"
    # A plain name → id mapping resolves names but leaves ids unchecked, as before.
    checked, summary = check_all(
        rows, by_column, CheckOptions(campaign_lookup={"Spring Promo": "1001"})
    )
    assert (summary.valid, summary.invalid) == (5, 0)
    # With no campaign list at all, names cannot resolve, and say why.
    offline = CheckOptions(campaign_lookup=CampaignDirectory.unchecked())
    checked, summary = check_all(rows, by_column, offline)
    assert (summary.valid, summary.invalid) == (4, 1)
    assert checked[3].message == (
        "row 5: campaign: name 'spring promo' cannot be resolved without the service's "
        "campaign list"
    )


def test_import_refuses_unknown_campaign_ids_before_sending(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaigns = ids(session)
    spring, winback = campaigns["Spring Renewals"], campaigns["Old Winback"]
    rows: list[list[Any]] = [
        ["2025550101", spring],
        ["2025550102", "9912"],
        ["2025550103", "Spring Renewals"],
        ["2025550104", ""],
        ["2025550105", winback],  # inactive, but it exists
        ["2025550106", "No Such Campaign"],
        ["2025550107", f"campaign:{int(spring) + 5000}"],
    ]
    rows += [[f"20255502{i:02d}", "9912"] for i in range(60)]  # many rows, one id
    path = write_csv(tmp_path / "in.csv", ["Phone", "Campaign"], rows)
    before = session.api.requests_sent
    directory = CampaignDirectory(session.api.campaigns())  # once for the job
    store, summary = stage_import(
        JobSettings(path, Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
        campaign_lookup=directory,
    )
    # Staging asks the service nothing more, however many rows name campaigns.
    assert session.api.requests_sent == before + 1
    assert (summary.rows, summary.valid, summary.invalid) == (67, 4, 63)
    seen = messages(store)
    assert seen[3] == (
        "invalid",
        "row 3: campaign: id 9912 does not exist on this connection",
    )
    assert seen[7] == ("invalid", "row 7: campaign: no campaign is named 'No Such Campaign'")
    assert seen[8] == (
        "invalid",
        f"row 8: campaign: id {int(spring) + 5000} does not exist on this connection",
    )
    assert seen[9][1] == "row 9: campaign: id 9912 does not exist on this connection"
    run_import(store, session)
    s = job_summary(store)
    assert (s["inserted"], s["failed"], s["invalid"]) == (4, 0, 63)
    assert session.api.requests_sent == before + 1 + 4  # the list, then one insert per valid row
    got = {
        (r["phone_number"], str(r["campaign_id"])) for r in sandbox.store.all("SELECT * FROM dnc")
    }
    assert got == {
        ("2025550101", spring),
        ("2025550103", spring),
        ("2025550104", "0"),
        ("2025550105", winback),
    }


def test_dry_run_reports_unknown_campaigns(sandbox: Any, session: Session, tmp_path: Path) -> None:
    spring = ids(session)["Spring Renewals"]
    rows = [
        ["2025550101", f"campaign:{spring}"],
        ["2025550102", "campaign:9912"],
        ["2025550103", "9912"],
    ]
    path = write_csv(tmp_path / "in.csv", ["Phone", "Scope"], rows)
    store, _ = stage_import(
        JobSettings(path, Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
        campaign_lookup=CampaignDirectory(session.api.campaigns()),
    )
    report = finish_dry_run(store)
    s = job_summary(store)
    assert (s["valid"], s["invalid"], s["inserted"]) == (1, 2, 0)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        by_row = {r[0]: r for r in list(book["Rows"].iter_rows(values_only=True))[1:]}
    finally:
        book.close()
    assert by_row[3][5] == "invalid"
    assert "row 3: scope: campaign 9912 does not exist on this connection" in by_row[3]
    assert "row 4: scope: campaign 9912 does not exist on this connection" in by_row[4]


def test_offline_dry_run_says_campaign_ids_were_not_checked(tmp_path: Path) -> None:
    rows = [
        ["2025550101", "1001"],
        ["2025550102", "9912"],
        ["2025550103", "9912"],
        ["2025550104", "Spring Renewals"],
        ["2025550105", "global"],
        ["2025550102", "9912"],  # duplicate of row 3
    ]
    path = write_csv(tmp_path / "in.csv", ["Phone", "Scope"], rows)
    store, summary = stage_import(
        JobSettings(path, Scope.global_()),
        tmp_path / "jobs",
        connection=None,
        campaign_lookup=CampaignDirectory.unchecked(),
    )
    finish_dry_run(store)
    assert (summary.valid, summary.invalid, summary.duplicates_in_file) == (4, 1, 1)
    seen = messages(store)
    assert seen[2][1] == "row 2: campaign 1001 was not checked against the service (no connection)"
    assert seen[5] == (
        "invalid",
        "row 5: scope: 'Spring Renewals' is not global, campaign:ID or purpose:TEXT, and campaign "
        "names cannot be resolved without the service's campaign list",
    )
    assert store.meta()["campaign_check"] == (
        "Campaign ids were not checked, as there was no connection to fetch the campaign list "
        "from; rows name campaign 1001 (1 row), 9912 (3 rows), and a run with a connection "
        "refuses those that do not exist. Row 5 names a campaign by its name, so it counts as "
        "invalid here; with a connection (--connection or --base-url, a dry run too) the names "
        "are looked up, and a row whose name is one campaign's is valid."
    )


def test_unchecked_with_a_plain_lookup_is_said_too(session: Session, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "in.csv", ["Phone"], [["2025550101"], ["2025550102"]])
    store, _ = stage_import(
        JobSettings(path, Scope.campaign("9912")),
        tmp_path / "jobs",
        connection=session.connection,
        campaign_lookup={"Spring Renewals": "1"},
    )
    assert store.meta()["campaign_check"].startswith(
        "Campaign ids were not checked, as no campaign list of Sandbox was given; rows name "
        "campaign 9912 (2 rows)"
    )
    # A job scope with nothing per row and a checked list: nothing to say.
    store, _ = stage_import(
        JobSettings(path, Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
        campaign_lookup=CampaignDirectory(session.api.campaigns()),
    )
    assert "campaign_check" not in store.meta()


def test_removal_refuses_unknown_campaign_ids(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    spring = ids(session)["Spring Renewals"]
    sandbox.bulk_seed_dnc([("2025550101", "1", spring, "", ""), ("2025550102", "1", "0", "", "")])
    rows = [["2025550101", f"campaign:{spring}"], ["2025550102", "campaign:9912"]]
    path = write_csv(tmp_path / "rm.csv", ["Phone", "Scope"], rows)
    store, summary = stage_removal(
        JobSettings(path, Scope.global_(), scope_from_rows=True),
        tmp_path / "jobs",
        connection=session.connection,
        campaign_lookup=CampaignDirectory(session.api.campaigns()),
    )
    assert (summary.valid, summary.invalid) == (1, 1)
    run_removal(store, session)
    s = job_summary(store)
    assert (s["removed"], s["failed"], s["invalid"]) == (1, 0, 1)
    assert messages(store)[3] == (
        "invalid",
        "row 3: scope: campaign 9912 does not exist on this connection",
    )
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 1
