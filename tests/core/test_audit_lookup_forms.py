"""Black-box bb7 #1: the audit's look-up mode searched each lead number only as its national
digits, so a DNC entry kept as "13035550199" or an SMS opt-out kept with the UK trunk 0
("07911123456") was missed and the audit said "clean", while a download found them.

Against the sandbox over loopback HTTP, the leads and entries inserted over the API.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from app.core.audit_run import AuditOptions, AuditResult, run_audit
from app.core.audit_types import Strategy
from tests.conftest import TOKEN

GLOBAL = Scope.global_()


def _seed(api: ApiClient) -> tuple[str, dict[str, str]]:
    """A campaign whose leads' numbers are listed only in other written forms (and one in the
    app's own, and one not at all); the lead ids by what they show."""
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    list_id = api.insert_list("bb7 written forms", camp)
    leads = {
        "nanp_1": api.insert_lead(list_id, "(303) 555-0199", phone_code="1"),
        "uk_trunk": api.insert_lead(list_id, "+44 7911 123456", phone_code="44"),
        "uk_trunk_dnc": api.insert_lead(list_id, "07911 123457", phone_code="44"),
        "plain": api.insert_lead(list_id, "303-555-0198", phone_code="1"),
        "clean": api.insert_lead(list_id, "303-555-0197", phone_code="1"),
    }
    api.insert_dnc("13035550199", "1", GLOBAL, reason="typed by another tool")
    api.insert_sms("07911123456", "44", GLOBAL)
    api.insert_dnc("07911123457", "44", Scope.campaign(camp))
    api.insert_dnc("3035550198", "1", GLOBAL)
    return camp, leads


def _conflicts(result: AuditResult) -> set[tuple[str, str, str]]:
    return {(c.number.lead.id, c.entry.kind.value, c.entry.phone_number) for c in result.conflicts}


def test_lookups_find_every_written_form_a_download_finds(api: ApiClient) -> None:
    camp, leads = _seed(api)
    downloaded = run_audit(api, camp, connection="Sandbox")
    looked_up = run_audit(api, camp, connection="Sandbox", options=AuditOptions(4, 0))
    assert {s.strategy for s in downloaded.sources} == {Strategy.DOWNLOAD}
    assert {s.strategy for s in looked_up.sources} == {Strategy.LOOKUP}
    assert {lead for lead, *_ in _conflicts(downloaded)} == {
        leads["nanp_1"],
        leads["uk_trunk"],
        leads["uk_trunk_dnc"],
        leads["plain"],
    }
    assert _conflicts(looked_up) == _conflicts(downloaded)
    for source in looked_up.sources:
        # 5 numbers: 3 NANP ones in N and CN, 2 UK ones in N and 0N.
        assert source.why.startswith(
            "5 numbers looked up in the written forms N, 0N and CN (N the national digits, "
            "C the phone code), 10 searches"
        ), source.why


def test_the_audit_command_gives_the_same_conflicts_in_either_mode(
    api: ApiClient,
    sandbox: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    camp, _ = _seed(api)
    found = []
    for extra in ([], ["--max-download-pages", "0"]):
        status = main(["audit", "campaign", camp, "--base-url", sandbox.base_url, "--json", *extra])
        out, err = capsys.readouterr()
        assert status == 3, err
        data = json.loads(out)
        found.append(
            sorted((r["Lead id"], r["On list"], r["Entry id"]) for r in data["conflict_rows"])
        )
    assert found[0] == found[1] and len(found[0]) == 4


def test_a_service_refusing_a_form_is_not_a_failed_audit(make_sandbox: Any) -> None:
    # A service strict on phone formats refuses a DNC search of a trunk-0 form (code 6006):
    # it keeps no entry so, and the audit says the form was not looked up.
    strict = make_sandbox(dnc_phone_format="strict")
    strict.seed_campaign("Spring Renewals", active=True)
    with ApiClient(strict.base_url, TOKEN) as api:
        camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
        list_id = api.insert_list("bb7 strict", camp)
        lead = api.insert_lead(list_id, "07911 123458", phone_code="44")
        api.insert_dnc("7911123458", "44", GLOBAL)
        downloaded = run_audit(api, camp, connection="Sandbox")
        looked_up = run_audit(api, camp, connection="Sandbox", options=AuditOptions(4, 0))
    assert _conflicts(looked_up) == _conflicts(downloaded) == {(lead, "DNC", "7911123458")}
    dnc = [s for s in looked_up.sources if s.kind.value == "DNC"]
    assert all(s.strategy is Strategy.LOOKUP for s in dnc)
    assert all("not looked up in 07911123458: the service refuses" in s.why for s in dnc), [
        s.why for s in dnc
    ]


def test_the_forms_a_service_refuses_are_named_a_few_then_counted(make_sandbox: Any) -> None:
    strict = make_sandbox(dnc_phone_format="strict")
    strict.seed_campaign("Spring Renewals", active=True)
    with ApiClient(strict.base_url, TOKEN) as api:
        camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
        list_id = api.insert_list("bb7 strict many", camp)
        for i in range(5):
            api.insert_lead(list_id, f"07911 12346{i}", phone_code="44")
        result = run_audit(api, camp, connection="Sandbox", options=AuditOptions(4, 0))
    why = next(s.why for s in result.sources if s.kind.value == "DNC")
    assert "not looked up in 07911123460, 07911123461 and 07911123462: " in why, why
    assert "(and 2 other forms refused so)" in why, why


@pytest.mark.parametrize("max_pages", [None, 0])
def test_an_italian_landline_kept_with_its_leading_zero_meets_its_lead(
    api: ApiClient, max_pages: int | None
) -> None:
    # The 0 of an Italian landline is part of the number: the app writes the entry so and
    # normalizing keeps it, but the match keyed the entry without it and the audit said clean.
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    list_id = api.insert_list("bb7 italian leads", camp)
    lead = api.insert_lead(list_id, "06 1234 5678", phone_code="39")
    api.insert_dnc("0612345678", "39", GLOBAL)
    result = run_audit(api, camp, connection="Sandbox", options=AuditOptions(4, max_pages))
    assert _conflicts(result) == {(lead, "DNC", "0612345678")}
