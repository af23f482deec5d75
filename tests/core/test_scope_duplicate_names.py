"""Two campaigns on one connection with the same name (as names are matched: case, surrounding
spaces and invisible characters aside): a Campaign, Campaign Name or Scope cell naming it was
resolved silently to one of them (the last one listed), putting the entry in, or taking it off,
a campaign nobody chose. Now the row is invalid, naming the ids, unless exactly one of them is
spelled exactly as the cell (case included): the rule ``--scope campaign:NAME`` follows
(app/cli/import_cmd.py resolve_campaign_name), checked here against the CLI too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from app.core.sheet_scope import CampaignDirectory, ScopeResolver
from tests.conftest import TOKEN

# The sandbox fixture has "Spring Renewals" (active) and "Old Winback" (inactive).
SPRING = "Spring Renewals"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def directory(server: Any) -> CampaignDirectory:
    with ApiClient(server.base_url, TOKEN) as api:
        return CampaignDirectory(api.campaigns())


def ids_by_name(server: Any) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    with ApiClient(server.base_url, TOKEN) as api:
        for campaign in api.campaigns():
            found.setdefault(campaign.name, []).append(str(campaign.id))
    return found


def _json(capsys: pytest.CaptureFixture[str], argv: list[str], status: int = 0) -> dict[str, Any]:
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert code == status, out
    return dict(json.loads(out))


def _rows(report: str) -> list[dict[str, Any]]:
    """The report's Rows sheet, one dict per row keyed by its header."""
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        header, *rows = [tuple(r) for r in book["Rows"].iter_rows(values_only=True)]
    finally:
        book.close()
    # Read-only sheets leave out a row's empty cells at its end.
    return [
        dict(zip(header, row + (None,) * (len(header) - len(row)), strict=True)) for row in rows
    ]


def _ambiguous(cell: str, first: str, second: str) -> str:
    return (
        f"{cell!r} names 2 campaigns on this connection (ids {first} and {second}); "
        "write campaign:ID for the one meant"
    )


@pytest.mark.parametrize("header", ["Campaign", "Campaign Name", "Scope"])
def test_an_import_dry_run_refuses_a_name_two_campaigns_have(
    header: str, sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    second = sandbox.seed_campaign(SPRING, active=True)
    (first,) = [c for c in ids_by_name(sandbox)[SPRING] if c != second]
    (winback,) = ids_by_name(sandbox)["Old Winback"]
    src = tmp_path / "spring.csv"
    src.write_text(
        f"Phone,{header}\n3035551801,Spring Renewals\n3035551802,  spring renewals \n"
        f"3035551803,campaign:Spring Renewals\n3035551804,Old Winback\n3035551805,{first}\n"
    )
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url, "--dry-run"])
    assert (data["valid"], data["invalid"]) == (2, 3)
    rows = _rows(data["report"])
    field = "scope" if header == "Scope" else "campaign"
    assert [r["Outcome"] for r in rows] == ["invalid"] * 3 + ["valid (dry run)"] * 2
    assert rows[0]["Message"] == f"row 2: {field}: {_ambiguous(SPRING, first, second)}"
    assert rows[1]["Message"] == f"row 3: {field}: {_ambiguous('spring renewals', first, second)}"
    assert rows[2]["Message"] == f"row 4: {field}: {_ambiguous(SPRING, first, second)}"
    # A name one campaign has, and an id, still resolve.
    assert [r["Scope"] for r in rows[3:]] == [f"campaign:{winback}", f"campaign:{first}"]


def test_a_removal_takes_no_entry_off_for_a_name_two_campaigns_have(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    second = sandbox.seed_campaign(SPRING, active=True)
    (first,) = [c for c in ids_by_name(sandbox)[SPRING] if c != second]
    (winback,) = ids_by_name(sandbox)["Old Winback"]
    sandbox.bulk_seed_dnc(
        [
            ("3035551811", "1", first, "", ""),
            ("3035551811", "1", second, "", ""),
            ("3035551812", "1", winback, "", ""),
        ]
    )
    src = tmp_path / "remove.csv"
    src.write_text("Phone,Campaign\n3035551811,Spring Renewals\n3035551812,old winback\n")
    argv = ["remove", str(src), "--scope", "global", "--per-row-scope"]
    data = _json(
        capsys, [*argv, "--base-url", sandbox.base_url, "--note", "ticket 12: duplicate names"]
    )
    assert (data["removed"], data["invalid"]) == (1, 1)
    rows = _rows(data["report"])
    assert rows[0]["Outcome"] == "invalid"
    assert rows[0]["Message"] == f"row 2: campaign: {_ambiguous(SPRING, first, second)}"
    assert (rows[1]["Outcome"], rows[1]["Scope"]) == ("removed", f"campaign:{winback}")
    left = sandbox.store.all("SELECT phone_number, campaign_id FROM dnc ORDER BY campaign_id")
    # Neither Spring Renewals entry was taken off; the unique name's was.
    assert [(r["phone_number"], str(r["campaign_id"])) for r in left] == [
        ("3035551811", first),
        ("3035551811", second),
    ]


def test_a_removal_for_one_of_them_refuses_the_row_naming_both(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The job's own scope is one of the two: the row's name may mean the other.
    second = sandbox.seed_campaign(SPRING, active=True)
    (first,) = [c for c in ids_by_name(sandbox)[SPRING] if c != second]
    sandbox.bulk_seed_dnc([("3035551821", "1", second, "", "")])
    src = tmp_path / "remove.csv"
    src.write_text("Phone,Campaign\n3035551821,Spring Renewals\n")
    argv = ["remove", str(src), "--scope", f"campaign:{second}", "--base-url", sandbox.base_url]
    data = _json(capsys, [*argv, "--note", "ticket 13"])
    assert (data["removed"], data["invalid"]) == (0, 1)
    assert _rows(data["report"])[0]["Message"] == (
        f"row 2: campaign: {_ambiguous(SPRING, first, second)}"
    )
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 1


def test_an_exact_spelling_singles_one_out_as_the_scope_option_does(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shouting = sandbox.seed_campaign("SPRING RENEWALS", active=True)
    (first,) = ids_by_name(sandbox)[SPRING]
    src = tmp_path / "case.csv"
    src.write_text(
        "Phone,Campaign\n3035551831,SPRING RENEWALS\n3035551832,Spring Renewals\n"
        "3035551833,spring renewals\n"
    )
    base = ["--into", "dnc", "--base-url", sandbox.base_url, "--dry-run"]
    data = _json(capsys, ["import", str(src), "--scope", "global", *base])
    rows = _rows(data["report"])
    assert [r["Scope"] for r in rows[:2]] == [f"campaign:{shouting}", f"campaign:{first}"]
    assert rows[2]["Outcome"] == "invalid"
    assert rows[2]["Message"] == (
        f"row 4: campaign: {_ambiguous('spring renewals', first, shouting)}"
    )
    # --scope campaign:NAME reads the same three spellings the same way.
    numbers = tmp_path / "one.csv"
    numbers.write_text("Phone\n3035551834\n")
    for name, expected in (("SPRING RENEWALS", shouting), (SPRING, first)):
        data = _json(capsys, ["import", str(numbers), "--scope", f"campaign:{name}", *base])
        assert _rows(data["report"])[0]["Scope"] == f"campaign:{expected}"
    data = _json(
        capsys, ["import", str(numbers), "--scope", "campaign:spring renewals", *base], status=2
    )
    # Each quoted as the service spells it (black-box pass L3 #8), not as typed.
    assert (
        f"Campaigns {first} ('Spring Renewals') and {shouting} ('SPRING RENEWALS')"
        in (data["error"])
    )


def test_the_resolver_with_two_campaigns_of_one_name(sandbox: Any) -> None:
    second = sandbox.seed_campaign(SPRING, active=True)
    named_global = [sandbox.seed_campaign("Global", active=True) for _ in range(2)]
    campaigns = directory(sandbox)
    (first,) = [c for c in ids_by_name(sandbox)[SPRING] if c != second]
    resolver = ScopeResolver(campaigns)
    message = _ambiguous(SPRING, first, second)
    assert resolver.campaign_cell(SPRING) == message
    assert resolver.scope_cell(SPRING) == message
    assert resolver.scope_cell(f"campaign:{SPRING}") == message
    assert resolver.campaign_cell(f"campaign:{SPRING}") == message
    assert resolver.campaign_cell("Old Winback") == Scope.campaign(
        ids_by_name(sandbox)["Old Winback"][0]
    )
    # A global word two campaigns are named as: both named, either reading refused.
    assert resolver.campaign_cell("Global") == (
        f"'Global' could mean the global scope or one of the 2 campaigns named 'Global' "
        f"(campaign:{named_global[0]} and campaign:{named_global[1]}) on this connection; "
        "write 0 for the global scope, or campaign:ID for the campaign meant"
    )
    assert resolver.campaign_cell(f"campaign:{named_global[0]}") == Scope.campaign(named_global[0])
    # A plain name -> id mapping (two keys alike but for case) is read by the same rule.
    plain = ScopeResolver({"Summer": "4", "SUMMER": "5"})
    assert plain.campaign_cell("SUMMER") == Scope.campaign("5")
    assert plain.campaign_cell("summer") == _ambiguous("summer", "4", "5")
