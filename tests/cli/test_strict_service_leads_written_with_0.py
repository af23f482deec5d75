"""A service strict on phone formats (``/dnc/search`` refuses a phone_number starting with 0,
code 6006) and leads written with their trunk 0: removal with ``--lead-status``, audit and
evidence each find and handle those leads, since ``/leads/search``, which the spec gives no
phone-format error, is searched in every form, the 0 included (session 30, fx6 task 2: a guard
beside the B36 F3 fix, which skipped the refused forms for DNC searches alone).

Over loopback HTTP, through the CLI, against the sandbox's ``--dnc-phone-format strict``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN

# A UK mobile and a French one, each as a lead writes it: with its trunk 0.
LEADS = [("07911123456", "44"), ("0612345678", "33")]


@pytest.fixture
def sandbox(make_sandbox: Callable[..., Any]) -> Any:
    server = make_sandbox(dnc_phone_format="strict")
    server.seed_campaign("Spring Renewals", active=True)
    return server


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any]]:
    status = main([*argv, "--json"])
    return status, json.loads(capsys.readouterr().out)


def test_removal_audit_and_evidence_find_leads_written_with_0(
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    url = ["--base-url", sandbox.base_url]
    with ApiClient(sandbox.base_url, TOKEN) as api:
        campaign = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
        listed = api.insert_list("Week 48 leads", campaign)
    sandbox.bulk_seed_leads(listed, [(number, code, "", "") for number, code in LEADS])
    sheet = tmp_path / "numbers.csv"
    sheet.write_text("phone,country\n07911123456,GB\n0612345678,FR\n")
    for scope in ("global", f"campaign:{campaign}"):
        status, imported = run(
            capsys, ["import", str(sheet), "--into", "dnc", "--scope", scope, *url]
        )
        assert (status, imported["inserted"]) == (0, 2), imported

    status, audit = run(
        capsys, ["audit", "campaign", campaign, "--out", str(tmp_path / "a.xlsx"), *url]
    )
    assert status == 3 and audit["leads_in_conflict"] == 2, audit

    for number, code in LEADS:
        status, held = run(
            capsys,
            [
                "evidence",
                number,
                "--phone-code",
                code,
                *url,
                "--out",
                str(tmp_path / f"{code}.xlsx"),
            ],
        )
        assert status == 3 and len(held["dnc"]) == 2, held
        assert len(held["leads"]) == 1, held

    argv = ["remove", str(sheet), "--scope", f"campaign:{campaign}", "--lead-status", "DNC"]
    status, removed = run(capsys, [*argv, "--note", "asked to be called", *url])
    assert status == 0, removed
    assert (removed["removed"], removed["failed"], removed["leads_still_listed"]) == (2, 0, 2)
    with ApiClient(sandbox.base_url, TOKEN) as api:
        for number, _code in LEADS:
            leads = api.search_leads({"phone_number": number}).items
            assert [lead.status for lead in leads] == ["DNC"], number
