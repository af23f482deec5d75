"""``dnc-desk remove`` takes only the scope it was given (black-box pass 3, finding 1): a row
whose Scope cell names another scope than ``--scope`` is invalid and nothing is sent for it,
unless ``--per-row-scope`` asks for each row's own scope by name. The report's Summary says
which of the two the job did."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.cli.main import main
from tests.conftest import TOKEN

NUMBER = "7205000016"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _scopes_listed(api: ApiClient) -> set[str]:
    """Every scope the number is listed in (a search with no scope filter)."""
    query = DncQuery(phone_number=NUMBER, phone_code="1")
    return {str(e.scope) for e in api.iter_dnc(query) if e.phone_number == NUMBER}


def _remove(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["remove", *argv, "--json", "--note", "Consumer asked, ticket 5"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def _summary(report: str) -> dict[str, Any]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        return {r[0]: r[1] for r in book["Summary"].iter_rows(values_only=True) if r}
    finally:
        book.close()


def test_a_scope_cell_never_widens_a_removal_unless_per_row_scopes_are_asked_for(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        campaign = next(c.id for c in api.campaigns())
        api.insert_dnc(NUMBER, "1", Scope.global_())
        api.insert_dnc(NUMBER, "1", Scope.campaign(campaign))
        listed = _scopes_listed(api)
        assert listed == {"global", f"campaign:{campaign}"}
        src = tmp_path / "ov.csv"
        src.write_text(f"Phone,Scope\n{NUMBER},global\n")
        base = [str(src), "--base-url", sandbox.base_url, "--scope", f"campaign:{campaign}"]

        data = _remove(capsys, *base)
        assert (data["rows"], data["invalid"], data["removed"]) == (1, 1, 0)
        assert _scopes_listed(api) == listed  # nothing was sent
        summary = _summary(data["report"])
        assert summary["Scope"] == (
            f"campaign:{campaign} (rows of the file naming another scope are invalid)"
        )

        data = _remove(capsys, *base, "--per-row-scope")
        assert (data["rows"], data["invalid"], data["removed"]) == (1, 0, 1)
        assert _scopes_listed(api) == {f"campaign:{campaign}"}  # the global entry, as asked
        assert _summary(data["report"])["Scope"] == (
            f"per row from the file; campaign:{campaign} for rows naming none"
        )
