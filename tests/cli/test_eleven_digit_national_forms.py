"""A number whose national part has 11 digits (a Brazilian or Chinese mobile) is searched only
in forms the service takes (black-box R2 #4, #5: its 011-prefixed form has 16 digits, the
service refused that search with code 6006, and evidence failed for a listed number while a
removal of an unlisted one ended failed instead of not found)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from app.core.dnc_removal import stored_forms
from tests.conftest import TOKEN

LISTED = "11912345507"  # +55 11 91234-5507
UNLISTED = "11912345599"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def test_no_form_has_more_than_fifteen_digits() -> None:
    forms = stored_forms(LISTED, "55")
    assert forms and all(len(f) <= 15 for f in forms)
    assert "5511912345507" in forms and "005511912345507" in forms


def test_evidence_of_a_listed_brazilian_mobile(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc(LISTED, "55", Scope.global_())
    code = main(["evidence", "+55 11 91234-5507", "--base-url", sandbox.base_url, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 3, data
    assert data["number"] == "+5511912345507"
    assert [e["scope"] for e in data["dnc"]] == ["global"]


def test_removal_of_an_unlisted_brazilian_mobile_is_not_found(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc(LISTED, "55", Scope.global_())
    path = tmp_path / "remove.csv"
    path.write_text(f"Phone\n+55 11 91234-5507\n+55 {UNLISTED[:2]} {UNLISTED[2:]}\n")
    argv = ["remove", str(path), "--scope", "global", "--note", "R2 #5"]
    code = main([*argv, "--base-url", sandbox.base_url, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0, data
    assert (data["removed"], data["not_found"], data["failed"]) == (1, 1, 0), data
    assert sandbox.store.all("SELECT id FROM dnc") == []
