"""Black-box B32 F6: ``evidence --json`` gave each entry's id, scope and reason but not its
insert date (by the service's clock), which the pack has."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from tests.conftest import TOKEN


def test_evidence_json_entries_have_their_insert_date(
    api: ApiClient,
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    api.insert_dnc("2025550123", "1", Scope.global_(), reason="asked")
    api.insert_sms("2025550123", "1", Scope.global_(), reason="STOP")
    sandbox.store.execute("UPDATE dnc SET insert_date = '2024-03-02 10:11:12'")
    out = tmp_path / "pack.xlsx"
    argv = ["evidence", "2025550123", "--json", "--out", str(out), "--base-url", sandbox.base_url]
    status = main(argv)
    printed, err = capsys.readouterr()
    assert status == 3, err
    data = json.loads(printed)
    assert [e["insert_date"] for e in data["dnc"]] == ["2024-03-02 10:11:12"]
    assert data["sms_opt_out"][0]["insert_date"].startswith("20")
