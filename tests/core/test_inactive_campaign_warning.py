"""An import into a campaign the service lists as inactive is warned of (black-box B21 F7:
``--scope campaign:1004`` or a row naming an inactive campaign gave no word, though ``health``
counts the entries of inactive campaigns as a finding)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    return dict(json.loads(captured.out))


def _ids(sandbox: Any) -> dict[str, str]:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        return {c.name: str(c.id) for c in api.campaigns()}


def _inactive_warnings(data: dict[str, Any]) -> list[str]:
    return [w for w in data.get("warnings", []) if "lists as inactive" in w]


def test_rows_naming_an_inactive_campaign_are_warned_of(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = _ids(sandbox)
    winback, spring = ids["Old Winback"], ids["Spring Renewals"]
    src = tmp_path / "v.csv"
    src.write_text(
        f"Phone,Campaign\n7205550601,Old Winback\n7205550602,{spring}\n7205550603,{winback}\n"
    )
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert _inactive_warnings(data) == [
        "2 rows go to a campaign the service lists as inactive: 'Old Winback' (campaign "
        f"{winback}; rows 2 and 4). The dialer does not call from an inactive campaign, and "
        "dnc-desk health counts its entries as a finding: check that these rows are meant "
        "for it."
    ]


def test_the_jobs_own_scope_naming_an_inactive_campaign_is_warned_of(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "v.csv"
    src.write_text("Phone\n7205550611\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "campaign:Old Winback"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert data["inserted"] == 1
    (said,) = _inactive_warnings(data)
    assert said.startswith("1 row goes to a campaign the service lists as inactive: 'Old Winback'")
    assert said.endswith("check that this row is meant for it.")


def test_an_active_campaign_and_a_removal_are_not_warned_of(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "v.csv"
    src.write_text("Phone\n7205550621\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "campaign:Spring Renewals"]
    assert _inactive_warnings(_json(capsys, [*argv, "--base-url", sandbox.base_url])) == []
    argv = ["remove", str(src), "--scope", "campaign:Old Winback", "--dry-run"]
    assert _inactive_warnings(_json(capsys, [*argv, "--base-url", sandbox.base_url])) == []
