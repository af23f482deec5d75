"""``dnc-desk evidence`` says which lead forms it searched and which snapshots it could not
read (black-box B37 F2, F4): a lead "1.404.281.8404" is found, ``--json`` gives
``lead_forms_searched`` (the texts the leads' phone fields were searched for) and
``snapshots_not_read`` (file name: why), and the printed summary says both. Run through
``main`` against a sandbox over loopback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def test_the_json_and_the_summary_say_the_lead_forms_and_unread_snapshots(
    sandbox: Any, api: ApiClient, capsys: pytest.CaptureFixture[str]
) -> None:
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    lead = api.insert_lead(api.insert_list("Black-box B37 list", camp), "1.404.281.8404")
    snapshots: Path = AppPaths.default().snapshots_dir
    snapshots.mkdir(parents=True, exist_ok=True)
    (snapshots / "broken.sqlite3").write_bytes(b"junk" * 100)
    url = ["--base-url", sandbox.base_url]
    assert main(["evidence", "4042818404", *url, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [x["id"] for x in data["leads"]] == [lead]
    assert "1.404.281.8404" in data["lead_forms_searched"]
    assert "404.281.8404" in data["lead_forms_searched"]
    assert list(data["snapshots_not_read"]) == ["broken.sqlite3"]
    assert main(["evidence", "4042818405", *url]) == 0
    out = capsys.readouterr().out
    assert 'No lead in the written forms searched: "4042818405"' in out
    assert "not found" in out
    assert "Snapshot broken.sqlite3 could not be read" in out
