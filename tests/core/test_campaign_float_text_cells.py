"""A campaign or scope cell holding a whole number written as a float's text ("1001.0", as a
CSV saved from a tool that read the column as numbers writes it) reads as that number, as the
float cell 1001.0 of an xlsx does (black-box N3 #7a: "no campaign is named '1001.0'")."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.models import Campaign
from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import CheckOptions, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_scope import CampaignDirectory, ScopeResolver

DIRECTORY = CampaignDirectory([Campaign("1001", "Spring Promo", True, "", "")])


@pytest.mark.parametrize(
    ("cell", "scope"),
    [
        ("1001.0", Scope.campaign("1001")),
        (" 1001.00 ", Scope.campaign("1001")),
        ("'1001.0", Scope.campaign("1001")),
        ("0.0", Scope.global_()),
        ("-1.0", Scope.purpose("")),
    ],
)
def test_a_float_text_reads_as_the_float_cell_does(cell: str, scope: Scope) -> None:
    resolver = ScopeResolver(DIRECTORY)
    number = float(cell.strip().lstrip("'"))
    assert resolver.campaign_cell(cell) == resolver.campaign_cell(number) == scope
    assert resolver.scope_cell(cell) == resolver.scope_cell(number)


@pytest.mark.parametrize("cell", ["1001.5", "1001.", "1.001.0", "1001.0x", "Promo 2.0"])
def test_other_texts_with_a_point_are_not_read_as_an_id(cell: str) -> None:
    found = ScopeResolver(DIRECTORY).campaign_cell(cell)
    assert found == f"no campaign is named {cell!r}"


def test_a_csv_campaign_id_written_as_a_float_is_that_campaign(tmp_path: Path) -> None:
    path = tmp_path / "requests.csv"
    path.write_text("Phone,Campaign ID\n2025550101,1001.0\n2025550102,1001\n")
    store, summary = stage_import(
        JobSettings(path, Scope.global_()),
        tmp_path / "jobs",
        connection=None,
        campaign_lookup=DIRECTORY,
    )
    try:
        assert (summary.valid, summary.invalid) == (2, 0)
        assert [r.scope for r in store.rows()] == ["campaign:1001", "campaign:1001"]
    finally:
        store.close()


def test_the_checker_takes_a_float_text_campaign() -> None:
    mapping = ColumnMapping(header_row=1, phone=0, campaign=1)
    checked, summary = check_all(
        [(2, ["2025550101", "1001.0"])], mapping, CheckOptions(campaign_lookup=DIRECTORY)
    )
    assert summary.invalid == 0 and checked[0].outcome is not Outcome.INVALID
    assert checked[0].scope == Scope.campaign("1001")
