"""A Campaign column takes the words a Scope column takes (black-box finding D3): ``global``,
``Global``, ``ALL`` and ``all campaigns`` made a Campaign cell invalid ("no campaign is named
'global'") while a Scope cell read them as global and ``0`` in the Campaign column worked; and
``purpose:Collections`` in a Campaign column was refused, for the SMS opt-out list too.

A campaign on the connection named as such a word makes the cell say two things; taking either
could put the entry in the wrong scope (global for a campaign, or one campaign for global), so
the row is invalid in both kinds of column, naming both readings and how to write each.
``campaign:NAME`` is always the campaign. Related wording: a Scope cell naming a campaign the
connection lacks says so, instead of telling the user to write a campaign name.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from app.core.sheet_check import CheckedRow, CheckOptions, Outcome, Target, check_all
from app.core.sheet_mapping import propose_mapping
from app.core.sheet_scope import CampaignDirectory
from app.core.sheet_types import CellValue, Row
from tests.conftest import TOKEN

GLOBAL_WORDS = ["global", "Global", "ALL", "all campaigns", " GLOBAL "]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def directory(server: Any) -> CampaignDirectory:
    """The connection's campaign list, as a job fetches it."""
    with ApiClient(server.base_url, TOKEN) as api:
        return CampaignDirectory(api.campaigns())


def run(
    header: list[str],
    rows: list[list[CellValue]],
    options: CheckOptions,
    default: Scope | None = None,
) -> list[CheckedRow]:
    """Check ``rows`` under ``header`` with the mapping proposed from the header."""
    numbered: list[Row] = [(i, r) for i, r in enumerate(rows, 2)]
    mapping = dataclasses.replace(
        propose_mapping(header, numbered),
        header_row=1,
        default_scope=default or Scope.global_(),
    )
    checked, _ = check_all([(1, list(header)), *numbered], mapping, options)
    return checked


def numbers(count: int) -> list[str]:
    return [f"303555{1701 + i:04d}" for i in range(count)]


@pytest.mark.parametrize("header", ["Campaign", "Campaign ID", "Campaign Name"])
@pytest.mark.parametrize("default", [Scope.global_(), Scope.campaign("1")])
def test_a_campaign_column_reads_the_global_words_as_global(
    sandbox: Any, header: str, default: Scope
) -> None:
    campaigns = directory(sandbox)
    spring = campaigns["Spring Renewals"]
    cells: list[CellValue] = [*GLOBAL_WORDS, "0", 0, "Spring Renewals"]
    rows = [[n, c] for n, c in zip(numbers(len(cells)), cells, strict=True)]
    checked = run(["Phone", header], rows, CheckOptions(campaign_lookup=campaigns), default)
    assert [c.outcome for c in checked] == [Outcome.VALID] * len(cells), [
        c.message for c in checked
    ]
    assert [c.scope for c in checked] == [Scope.global_()] * 7 + [Scope.campaign(spring)]


@pytest.mark.parametrize("target", [Target.DNC, Target.SMS_OPT_OUT])
def test_a_campaign_column_takes_a_purpose_as_a_scope_column_does(
    sandbox: Any, target: Target
) -> None:
    options = CheckOptions(campaign_lookup=directory(sandbox), target=target)
    rows: list[list[CellValue]] = [
        ["3035551705", "purpose:Collections"],
        ["3035551706", "Purpose:Marketing "],
    ]
    for header in (["Phone", "Campaign"], ["Phone", "Scope"]):
        checked = run(header, rows, options)
        assert [(c.outcome, c.scope, c.purpose) for c in checked] == [
            (Outcome.VALID, Scope.purpose("Collections"), "Collections"),
            (Outcome.VALID, Scope.purpose("Marketing"), "Marketing"),
        ], [c.message for c in checked]
    # "purpose" takes its text from the Purpose column, as -1 does.
    rows = [["3035551707", "purpose", "Surveys"], ["3035551708", "-1", "Surveys"]]
    checked = run(["Phone", "Campaign", "Purpose"], rows, options)
    assert [c.scope for c in checked] == [Scope.purpose("Surveys")] * 2
    # A purpose word with no purpose is still refused, saying why.
    checked = run(["Phone", "Campaign"], [["3035551709", "purpose:"]], options)
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].message == (
        "row 2: campaign: a purpose scope needs its purpose text, e.g. purpose:Collections"
    )


def test_a_campaign_and_a_scope_cell_saying_global_agree(sandbox: Any) -> None:
    # A removal row whose cells disagree is invalid: "global" beside "0" does not disagree.
    options = CheckOptions(campaign_lookup=directory(sandbox), removal=True)
    rows: list[list[CellValue]] = [["3035551710", "global", "ALL"], ["3035551711", "0", "Global"]]
    checked = run(["Phone", "Scope", "Campaign"], rows, options)
    assert [(c.outcome, c.scope) for c in checked] == [(Outcome.VALID, Scope.global_())] * 2
    # Scope "campaign" wants a campaign in the Campaign column, and "global" is not one.
    checked = run(["Phone", "Scope", "Campaign"], [["3035551712", "campaign", "global"]], options)
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].message == (
        "row 2: campaign: the scope is 'campaign' but the campaign cell is 'global' (Global), "
        "not a campaign"
    )


def test_a_campaign_named_like_a_global_word_makes_the_cell_ambiguous(
    make_sandbox: Any,
) -> None:
    server = make_sandbox()
    named_global = server.seed_campaign("Global", active=True)
    named_all = server.seed_campaign("All", active=True)
    named_purpose = server.seed_campaign("Purpose", active=True)
    campaigns = directory(server)
    options = CheckOptions(campaign_lookup=campaigns)
    for header in ("Campaign", "Scope"):
        rows: list[list[CellValue]] = [
            ["3035551720", "global"],
            ["3035551721", "ALL"],
            ["3035551722", "purpose"],
            ["3035551723", "all campaigns"],  # no campaign has this name
            ["3035551724", "0"],
            ["3035551725", "campaign:Global"],
            ["3035551726", f"campaign:{named_all}"],
        ]
        checked = run(["Phone", header], rows, options)
        field = header.lower()
        assert [c.outcome for c in checked] == [Outcome.INVALID] * 3 + [Outcome.VALID] * 4
        assert checked[0].message == (
            f"row 2: {field}: 'global' could mean the global scope or the campaign named "
            f"'global' (campaign:{named_global}) on this connection; write 0 for the global "
            f"scope, or campaign:{named_global} for the campaign"
        )
        assert "'ALL' could mean the global scope or the campaign named 'ALL'" in (
            checked[1].message
        )
        assert checked[2].message == (
            f"row 4: {field}: 'purpose' could mean a purpose scope or the campaign named "
            f"'purpose' (campaign:{named_purpose}) on this connection; write -1 with the "
            f"purpose in a Purpose column for a purpose scope, or campaign:{named_purpose} for "
            "the campaign"
        )
        assert [c.scope for c in checked[3:]] == [
            Scope.global_(),
            Scope.global_(),
            Scope.campaign(named_global),
            Scope.campaign(named_all),
        ]


def test_a_scope_cell_naming_no_campaign_says_the_connection_has_none(sandbox: Any) -> None:
    options = CheckOptions(campaign_lookup=directory(sandbox))
    checked = run(["Phone", "Scope"], [["3035551730", "Nonexistent Campaign"]], options)
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].message == (
        "row 2: scope: 'Nonexistent Campaign' is not a scope and no campaign on this "
        "connection has that name"
    )
    assert "or a campaign name" not in checked[0].message
    # A connection with no campaigns at all has none of that name either.
    empty = CheckOptions(campaign_lookup=CampaignDirectory([]))
    checked = run(["Phone", "Scope"], [["3035551731", "Nonexistent Campaign"]], empty)
    assert "no campaign on this connection has that name" in checked[0].message


def test_without_the_campaign_list_the_global_words_still_read_as_global() -> None:
    # An offline dry run: names cannot be checked, the words need no list.
    options = CheckOptions(campaign_lookup=CampaignDirectory.unchecked())
    rows = [[n, c] for n, c in zip(numbers(4), GLOBAL_WORDS, strict=False)]
    checked = run(["Phone", "Campaign"], rows, options, Scope.campaign("7"))
    assert [(c.outcome, c.scope) for c in checked] == [(Outcome.VALID, Scope.global_())] * 4


# ---- the commands, as the tester ran them ----------------------------------------------


def _dry_run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert main([*argv, "--dry-run", "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def _rows_sheet(report: str) -> list[tuple[Any, ...]]:
    import openpyxl

    book = openpyxl.load_workbook(report, read_only=True)
    try:
        return [tuple(r) for r in book["Rows"].iter_rows(values_only=True)]
    finally:
        book.close()


def test_import_reads_global_in_a_campaign_column(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "campglobal.csv"
    src.write_text(
        "Phone,Campaign\n3035551701,global\n3035551702,Global\n3035551703,ALL\n"
        "3035551704,0\n3035551705,Spring Renewals\n3035551706,all campaigns\n"
    )
    base = ["import", str(src), "--scope", "global", "--base-url", sandbox.base_url]
    data = _dry_run(capsys, [*base, "--into", "dnc"])
    assert (data["valid"], data["invalid"]) == (6, 0)
    sms = tmp_path / "sms1.csv"
    sms.write_text(
        "Mobile,Campaign,Keyword\n+1 303 555 1003,global,UNSUBSCRIBE\n"
        "3035551005,purpose:Collections,STOP\n"
    )
    argv = ["import", str(sms), "--into", "sms-opt-out", "--scope", "global"]
    data = _dry_run(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (data["valid"], data["invalid"]) == (2, 0)
    scopes = [row[4] for row in _rows_sheet(data["report"])[1:]]
    assert scopes == ["global", "purpose:Collections"]


def test_a_removal_takes_global_in_a_campaign_column_as_its_own_scope(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A removal for --scope global: the row saying global names no other scope.
    src = tmp_path / "remove.csv"
    src.write_text("Phone,Campaign\n3035551740,Global\n3035551741,Spring Renewals\n")
    argv = ["remove", str(src), "--scope", "global", "--base-url", sandbox.base_url]
    data = _dry_run(capsys, argv)
    assert (data["valid"], data["invalid"]) == (1, 1)
    rows = _rows_sheet(data["report"])
    assert "another scope" not in " ".join(str(v) for v in rows[1])
    assert "this removal is for Global" in " ".join(str(v) for v in rows[2])
