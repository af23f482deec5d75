"""Black-box W5 #2 and #3.

#3: an export's About sheet said a campaign given by name (``--scope campaign:"Spring
Renewals"``) as its id alone, while ``--json`` said both: a compliance officer reading the
file later could not tell which campaign it was. The About sheet's Filters now say the scope as
``--json`` does, the name as typed with the id beside it.

#2: the refusal of an option given empty, which every reading command (export, snapshot,
health, evidence, audit, diff) makes, lived in export_cmd and the others imported it from
there; it is a shared CLI argument helper, in connection_args, with the same sentences.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli import (
    audit_cmd,
    connection_args,
    diff_cmd,
    evidence_cmd,
    export_cmd,
    health_cmd,
    snapshot_cmd,
)
from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _about(path: Path) -> dict[str, str]:
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("About").to_python()
    return {str(row[0]): str(row[1]) for row in rows if row and row[0] != "Search"}


def test_the_about_sheet_names_a_campaign_given_by_name_with_its_id(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    campaign = next(c.id for c in api.campaigns() if c.name == "Spring Renewals")
    api.insert_dnc("2025550101", "1", Scope.campaign(campaign))
    out = tmp_path / "spring.xlsx"
    status = main(
        [
            "export", "dnc", "--out", str(out), "--scope", "campaign:Spring Renewals",
            "--reason", "not-blank", "--json", "--base-url", sandbox.base_url,
        ]
    )  # fmt: skip
    printed = capsys.readouterr()
    assert status == 0, printed.err
    data = json.loads(printed.out)
    said = f"campaign:Spring Renewals (id {campaign})"
    assert data["filters"] == {"scope": said, "reason": "not-blank"}
    assert _about(out)["Filters"] == f"scope={said}, reason=not-blank"


def test_the_about_sheet_says_a_campaign_given_by_id_as_typed(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    campaign = next(c.id for c in api.campaigns() if c.name == "Spring Renewals")
    out = tmp_path / "by-id.xlsx"
    status = main(
        ["export", "dnc", "--out", str(out), "--scope", f"campaign:{campaign}",
         "--base-url", sandbox.base_url]
    )  # fmt: skip
    assert status == 0, capsys.readouterr().err
    assert _about(out)["Filters"] == f"scope=campaign:{campaign}"


def test_the_empty_option_refusal_is_connection_args_and_every_reading_command_uses_it() -> None:
    for module in (export_cmd, snapshot_cmd, health_cmd, evidence_cmd, audit_cmd, diff_cmd):
        assert module.refuse_empty_options is connection_args.refuse_empty_options, module
        assert module.CONNECTION_OPTIONS is connection_args.CONNECTION_OPTIONS, module
    assert snapshot_cmd.SCOPE_OPTION is health_cmd.SCOPE_OPTION is connection_args.SCOPE_OPTION
    assert export_cmd.refuse_empty_options.__module__ == "app.cli.connection_args"

    args = argparse.Namespace(scope=" ", base_url=None, connection=None)
    with pytest.raises(connection_args.CliError) as info:
        connection_args.refuse_empty_options(
            args, (connection_args.SCOPE_OPTION, *connection_args.CONNECTION_OPTIONS)
        )
    assert info.value.status == connection_args.EXIT_USAGE
    assert str(info.value) == (
        f"--scope was given without a scope: give {connection_args.SCOPE_HELP}, or leave the "
        "option out to read the whole list."
    )
