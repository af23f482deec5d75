"""A count of one reads as one in what the CLI prints: "1 of 1 entry checked", not "1 of 1
entries". Run through ``main`` against a sandbox over loopback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from tests.conftest import READ_ONLY_TOKEN, TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _out(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> str:
    assert main(list(argv)) == status
    return capsys.readouterr().out


def test_health_and_snapshot_of_a_list_of_one_entry(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    url = ["--base-url", sandbox.base_url]
    api.insert_dnc("2025550101", "1", Scope.global_())
    # Exit status 3: findings (the entry has no reason, and is on the DNC list only).
    health = _out(capsys, "health", *url, status=3).splitlines()
    assert "DNC: 1 of 1 entry checked" in health
    assert "SMS opt-out: 0 of 0 entries checked" in health
    snapshot = _out(capsys, "snapshot", "dnc", "--scope", "global", *url)
    assert snapshot.startswith("Saved 1 of 1 entry: "), snapshot


def test_a_paused_job_of_one_row_is_named_with_one_row(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = tmp_path / "one.csv"
    src.write_text("Phone\n2025550101\n", encoding="utf-8")
    base = ["import", str(src), "--into", "dnc", "--scope", "global"]
    base += ["--base-url", sandbox.base_url]
    # Paused by a token that may read but not write: its one row still to send.
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    assert main([*base, "--json"]) == 1
    paused = json.loads(capsys.readouterr().out)["job"]
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    assert main([*base, "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert f"Job {paused}, made from one.csv on " in err
    assert "can still be resumed (paused, 0 of 1 row done)" in err, err
