"""A campaign column's header says what its digits are (black-box B21 F1), and an offline dry
run says a campaign cell's scope word went unchecked (B21 F9).

A Campaign Name cell '12', beside campaign 12 and campaign 17 named '12', was refused as two
campaigns: the column holds names, so it is campaign 17. A Campaign ID column's '12' is campaign
12; a column saying neither ("Campaign") still refuses the row, naming both. An offline dry run
read a Campaign Name cell 'All' as global without a word, though the run refuses it when a
campaign is named 'All': the row now says it was not checked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

# The same sandbox fixtures and readers as the digit-named campaigns' first tests (S25 FXB).
from tests.core.test_campaign_names_of_digits import (
    _digit_named,
    _entries,
    _json,
    _rows,
    token_env,
)

__all__ = ["token_env"]  # autouse: imported to run here too


@pytest.mark.parametrize("header", ["Campaign Name", "campaign_name", "Campaign Title"])
def test_digits_in_a_campaign_name_column_name_the_campaign_named_so(
    header: str, sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, named = _digit_named(sandbox)
    src = tmp_path / "names.csv"
    src.write_text(f"Phone,{header}\n7205550160,{first}\n7205550161,campaign:{first}\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (data["inserted"], data["invalid"]) == (2, 0)
    # campaign:ID is the id, in a Campaign Name column too.
    assert _entries(sandbox) == [("7205550160", named), ("7205550161", first)]


@pytest.mark.parametrize("header", ["Campaign ID", "Campaign #", "CampaignId"])
def test_digits_in_a_campaign_id_column_are_the_id(
    header: str, sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, _ = _digit_named(sandbox)
    src = tmp_path / "ids.csv"
    src.write_text(f"Phone,{header}\n7205550170,{first}\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (data["inserted"], data["invalid"]) == (1, 0)
    assert _entries(sandbox) == [("7205550170", first)]


def test_digits_in_a_column_saying_neither_are_still_refused_naming_both(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, named = _digit_named(sandbox)
    src = tmp_path / "either.csv"
    src.write_text(f"Phone,Campaign\n7205550180,{first}\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (data["inserted"], data["invalid"]) == (0, 1)
    message = _rows(data["report"])[0]["Message"]
    assert f"could mean campaign {first} (its id) or the campaign named {first!r}" in message
    assert f"campaign:{named} for the one named {first!r}" in message
    assert _entries(sandbox) == []


def test_a_removal_by_campaign_name_takes_off_the_named_campaigns_entry_only(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, named = _digit_named(sandbox)
    sandbox.bulk_seed_dnc([("7205550190", "1", first, "", ""), ("7205550190", "1", named, "", "")])
    src = tmp_path / "rm.csv"
    src.write_text(f"Phone,Campaign Name\n7205550190,{first}\n")
    argv = ["remove", str(src), "--scope", "global", "--per-row-scope", "--note", "B21 F1"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (data["removed"], data["invalid"]) == (1, 0)
    assert _entries(sandbox) == [("7205550190", first)]


def test_a_removal_checks_the_id_and_name_columns_agree_as_each_column_reads(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, named = _digit_named(sandbox)
    sandbox.bulk_seed_dnc(
        [
            ("7205550201", "1", first, "", ""),
            ("7205550201", "1", named, "", ""),
            ("7205550202", "1", first, "", ""),
            ("7205550202", "1", named, "", ""),
        ]
    )
    src = tmp_path / "idname.csv"
    # Row 2: id 17 beside the name '12' (campaign 17's): they agree. Row 3: id 12 beside the
    # name '12' (campaign 17's): they name two campaigns.
    src.write_text(
        f"Phone,Campaign ID,Campaign Name\n7205550201,{named},{first}\n7205550202,{first},{first}\n"
    )
    argv = ["remove", str(src), "--scope", "global", "--per-row-scope", "--note", "B21 F1"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (data["removed"], data["invalid"]) == (1, 1)
    message = _rows(data["report"])[1]["Message"]
    assert message == (
        f"row 3: campaign: the row's scope is Campaign {first} but its 'Campaign Name' cell is "
        f"{first!r} (Campaign {named})"
    )
    assert _entries(sandbox) == [
        ("7205550201", first),
        ("7205550202", first),
        ("7205550202", named),
    ]


_OFFLINE_NOTE = (
    "row 2: 'All' is read as Global, but not checked against the service's campaigns (no "
    "connection): a run with a connection refuses the row if a campaign is named 'All'"
)


@pytest.mark.parametrize("header", ["Campaign Name", "Campaign"])
def test_an_offline_dry_run_says_a_scope_word_in_a_campaign_cell_went_unchecked(
    header: str, sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "all.csv"
    src.write_text(f"Phone,{header}\n7205550210,All\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    offline = _json(capsys, argv)
    assert (offline["valid"], offline["invalid"]) == (1, 0)
    row = _rows(offline["report"])[0]
    assert (row["Scope"], row["Message"]) == ("global", _OFFLINE_NOTE)
    # With a connection and no campaign so named the row is global, with nothing to say.
    online = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (online["valid"], online["invalid"]) == (1, 0)
    assert _rows(online["report"])[0]["Message"] is None
    # And a campaign named 'All' makes it invalid, as the offline note warned.
    named = sandbox.seed_campaign("All", active=True)
    refused = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (refused["valid"], refused["invalid"]) == (0, 1)
    assert f"campaign:{named} for the campaign" in _rows(refused["report"])[0]["Message"]
