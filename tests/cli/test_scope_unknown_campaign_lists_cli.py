"""``--scope campaign:ID`` naming no campaign of the service lists the service's campaigns,
as audit's refusal does (black-box bb12 F3): it sent a person with only the CLI to the
window's Campaigns & audit tab. A service with many is listed in part, with its count."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from app.cli.campaign_list import LISTED_AT_MOST
from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _refusal(capsys: pytest.CaptureFixture[str], sandbox: Any, src: Path, *scope: str) -> str:
    argv = ["import", str(src), "--into", "dnc", *scope, "--base-url", sandbox.base_url]
    assert main([*argv, "--dry-run"]) == 2
    return capsys.readouterr().err.strip()


@pytest.fixture
def src(tmp_path: Path) -> Path:
    path = tmp_path / "b.csv"
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone"], ["303-555-0100"]])
    return path


def test_an_unknown_campaign_id_is_refused_listing_the_campaigns(
    sandbox: Any, src: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solar = sandbox.seed_campaign("Solar savings")
    err = _refusal(capsys, sandbox, src, "--scope", "campaign:9912")
    assert err.startswith(
        f"The service at {sandbox.base_url} has no campaign 9912; its campaigns are "
    ), err
    assert f"{solar} ('Solar savings')" in err
    assert err.endswith(": give one's id (campaign:ID) or its name (campaign:NAME).")
    assert "window" not in err and err.count("\n") == 0


def test_a_service_with_many_campaigns_is_listed_in_part(
    sandbox: Any, src: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for i in range(LISTED_AT_MOST + 5):
        sandbox.seed_campaign(f"Outreach {i}")
    err = _refusal(capsys, sandbox, src, "--scope", "campaign:987654321")
    said = err.split("; ", 1)[1]
    assert said.startswith("it has ") and f", the first {LISTED_AT_MOST} by id: " in said, err
    assert said.count("('") == LISTED_AT_MOST


def test_an_unknown_campaign_name_is_refused_listing_the_campaigns(
    sandbox: Any, src: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # black-box bb16 F7: a name no campaign has listed none, though an unknown id did.
    solar = sandbox.seed_campaign("Solar Savings Outreach")
    err = _refusal(capsys, sandbox, src, "--scope", "campaign:Solar")
    assert err.startswith(
        f"No campaign on the service at {sandbox.base_url} is named 'Solar' (--scope "
        "campaign:Solar); its campaigns are "
    ), err
    assert f"{solar} ('Solar Savings Outreach')" in err
    assert err.endswith(
        ": give one's id (campaign:ID) or its name as the service lists it (campaign:NAME)."
    )
    # The removal's refusal is the same; past the few listed whole, those close to the name.
    for i in range(LISTED_AT_MOST + 5):
        sandbox.seed_campaign(f"Outreach {i}")
    argv = ["remove", str(src), "--scope", "campaign:Solar Savings", "--note", "n"]
    assert main([*argv, "--base-url", sandbox.base_url, "--dry-run"]) == 2
    err = capsys.readouterr().err.strip()
    assert "is named 'Solar Savings' (--scope campaign:Solar Savings); it has " in err, err
    assert f" campaigns, of which close to it: {solar} ('Solar Savings Outreach')" in err, err
