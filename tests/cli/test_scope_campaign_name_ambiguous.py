"""``--scope campaign:NAME`` matching several campaigns quotes each campaign's own name
(black-box pass L3 #8: 'Spring Renewals' and 'spring renewals' were said to be "all named
'SPRING RENEWALS'", the name as typed, which neither is)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _refusal(sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> str:
    path = tmp_path / "numbers.csv"
    path.write_text("Phone\n3035550101\n")
    argv = ["import", str(path), "--into", "dnc", "--scope", f"campaign:{name}", "--dry-run"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 2
    return capsys.readouterr().err


def test_each_campaign_is_quoted_as_the_service_spells_it(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = sandbox.store.one("SELECT id FROM campaigns WHERE name = 'Spring Renewals'")["id"]
    second = sandbox.seed_campaign("spring renewals")
    err = _refusal(sandbox, tmp_path, capsys, "SPRING RENEWALS")
    assert f"Campaigns {first} ('Spring Renewals') and {second} ('spring renewals') on " in err
    assert "the name 'SPRING RENEWALS', so --scope campaign:SPRING RENEWALS does not say" in err
    assert "all named" not in err


def test_campaigns_spelled_alike_are_all_named_so(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = sandbox.store.one("SELECT id FROM campaigns WHERE name = 'Spring Renewals'")["id"]
    second = sandbox.seed_campaign("Spring Renewals")
    err = _refusal(sandbox, tmp_path, capsys, "Spring Renewals")
    assert f"Campaigns {first} and {second} on the service at " in err
    assert "are all named 'Spring Renewals', so --scope" in err
