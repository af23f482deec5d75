"""Black-box L1 #4 (b): columns a person sets aside (``JobSettings.ignore_columns``).

An SMS platform's opt-out log has a Campaign column naming its own campaigns ("Holiday
Promo"), none of them the dialer's: every row was invalid and nothing let the job's scope apply
instead. A column named in ``ignore_columns`` (by header, letter or position, as
``phone_column``) is read by no role, not even as the other campaign column a row falls back
on, and the job's mapping names it as set aside.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.models import Campaign
from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError
from app.core.job_store import JobRow, JobStore
from app.core.sheet_check import CheckSummary
from app.core.sheet_scope import CampaignDirectory
from tests.core.sheet_factory import write_csv

DIRECTORY = CampaignDirectory(
    [
        Campaign("1001", "Solar Savings Outreach", True, "", ""),
        Campaign("1002", "Winter Push", True, "", ""),
    ]
)
SMS_LOG = [
    ["Phone Number", "Keyword", "Opt-Out Date", "Campaign", "Carrier"],
    ["13035553101", "STOP", "11/18/2026", "Holiday Promo", "Verizon Wireless"],
    ["13035553102", "END", "11/18/2026", "Holiday Promo", "T-Mobile USA"],
    ["13035553103", "STOP", "11/19/2026", "Back to School", "AT&T"],
]


def _stage(path: Path, tmp_path: Path, **options: object) -> tuple[JobStore, CheckSummary]:
    settings = JobSettings(path, Scope.global_(), **options)  # type: ignore[arg-type]
    return stage_import(settings, tmp_path / "jobs", connection=None, campaign_lookup=DIRECTORY)


def _rows(store: JobStore) -> list[JobRow]:
    return list(store.rows())


def test_a_campaign_column_of_another_platform_invalidates_every_row(tmp_path: Path) -> None:
    """Without the option, as the finding saw it (the reason the option exists)."""
    path = write_csv(tmp_path / "c2.csv", SMS_LOG)
    store, summary = _stage(path, tmp_path)
    with store:
        assert summary.invalid == 3
        assert store.meta()["mapping"]["campaign"] == "Campaign (column D)"


@pytest.mark.parametrize("named", ["Campaign", "campaign", "column:D", "#4", "D"])
def test_an_ignored_campaign_column_lets_the_job_scope_apply(tmp_path: Path, named: str) -> None:
    path = write_csv(tmp_path / "c2.csv", SMS_LOG)
    store, summary = _stage(path, tmp_path, ignore_columns=(named,))
    with store:
        assert (summary.valid, summary.invalid) == (3, 0)
        assert {r.scope for r in _rows(store)} == {"global"}
        mapping = store.meta()["mapping"]
        assert "campaign" not in mapping
        assert mapping["ignored (as asked)"] == "Campaign (column D)"
        assert mapping["phone"] == "Phone Number (column A)"


def test_an_ignored_column_naming_no_header_is_refused_as_the_phone_column_is(
    tmp_path: Path,
) -> None:
    path = write_csv(tmp_path / "c2.csv", SMS_LOG)
    with pytest.raises(MappingError) as as_phone:
        _stage(path, tmp_path, phone_column="Campagne")
    with pytest.raises(MappingError) as as_ignored:
        _stage(path, tmp_path, ignore_columns=("Campagne",))
    assert str(as_ignored.value) == str(as_phone.value)
    assert "has no column headed 'Campagne'" in str(as_ignored.value)
    with pytest.raises(MappingError, match="no column Z"):
        _stage(path, tmp_path, ignore_columns=("column:Z",))


def test_the_phone_column_cannot_be_ignored_too(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "c2.csv", SMS_LOG)
    with pytest.raises(MappingError, match="both as the phone column and as a column to ignore"):
        _stage(path, tmp_path, phone_column="Phone Number", ignore_columns=("column:A",))


def test_ignoring_the_guessed_phone_column_guesses_again_without_it(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "two.csv",
        [
            ["Phone", "Mobile", "Name"],
            ["(303) 555-0101", "(720) 555-0201", "Ann"],
            ["(303) 555-0102", "(720) 555-0202", "Bob"],
        ],
    )
    store, _ = _stage(path, tmp_path)
    with store:
        assert store.meta()["mapping"]["phone"] == "Phone (column A)"
    store, summary = _stage(path, tmp_path, ignore_columns=("Phone",))
    with store:
        assert store.meta()["mapping"]["phone"] == "Mobile (column B)"
        assert [r.national for r in _rows(store)] == ["7205550201", "7205550202"]
        assert summary.valid == 2
        # The set-aside column is no other column of phone numbers left unread either.
        assert not any("Phone" in w for w in store.meta().get("warnings", []))


def test_an_ignored_campaign_name_column_is_no_fallback_for_an_empty_id(tmp_path: Path) -> None:
    """A Campaign Name beside a Campaign ID stands in for an empty id cell, and is compared
    with a filled one; set aside, it does neither."""
    rows = [
        ["Phone", "Campaign ID", "Campaign Name"],
        ["(303) 555-0101", "", "Winter Push"],
        ["(303) 555-0102", "1001", "Winter Push"],
    ]
    path = write_csv(tmp_path / "names.csv", rows)
    store, _ = _stage(path, tmp_path)
    with store:
        read = _rows(store)
        assert read[0].scope == "campaign:1002"
        assert "Campaign Name" in read[1].message
    store, summary = _stage(path, tmp_path, ignore_columns=("Campaign Name",))
    with store:
        read = _rows(store)
        assert [r.scope for r in read] == ["global", "campaign:1001"]
        assert not any("Campaign Name" in r.message for r in read)
        assert summary.valid == 2
        # Nor does the job's mapping name it as read for any role.
        mapping = store.meta()["mapping"]
        assert mapping.pop("ignored (as asked)") == "Campaign Name (column C)"
        assert not any("Campaign Name" in v for v in mapping.values())


def test_an_ignored_date_column_is_not_read_nor_offered(tmp_path: Path) -> None:
    rows = [
        ["Phone", "Date Received", "Reason"],
        ["(303) 555-0101", "not a date", "asked"],
        ["(303) 555-0102", "2026-11-16", "asked"],
    ]
    path = write_csv(tmp_path / "dated.csv", rows)
    store, _ = _stage(path, tmp_path, ignore_columns=("Date Received", "column:C"))
    with store:
        meta = store.meta()
        assert "request_date" not in meta["mapping"]
        assert "reason" not in meta["mapping"]
        assert meta["mapping"]["ignored (as asked)"] == (
            "Date Received (column B), Reason (column C)"
        )
        assert not any("Date Received" in w for w in meta.get("warnings", []))
        assert {(r.request_date, r.reason, r.damage) for r in _rows(store)} == {("", "", "")}
