"""Evidence for one number: every list, leads in every field, journal history, snapshots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.audit_types import ListKind
from app.core.evidence import EvidenceError, gather_evidence, write_evidence_xlsx
from app.core.session import Session
from app.core.snapshots import take_snapshot
from tests.conftest import TOKEN


def test_evidence_pack(session: Session, tmp_path: Path) -> None:
    api = session.api
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    list_id = api.insert_list("Evidence list one", camp)
    snapshots = tmp_path / "snapshots"
    # A snapshot from before the number was added, then the additions (journaled).
    take_snapshot(api, ListKind.DNC, None, snapshots, connection="Sandbox")
    session.insert_dnc(
        "2025550123", "1", Scope.global_(), reason="consumer called", note="ticket 9"
    )
    session.insert_dnc("2025550123", "1", Scope.campaign(camp))
    session.insert_sms("2025550123", "1", Scope.purpose("Marketing"), reason="STOP")
    session.insert_dnc("2025550999", "1", Scope.global_())  # another number
    take_snapshot(api, ListKind.DNC, None, snapshots, connection="Sandbox")
    lead_a = api.insert_lead(list_id, "(202) 555-0123", first_name="Ann", status="DNC")
    lead_b = api.insert_lead(list_id, "2025550000", alt_phone_2="+12025550123")
    lead_c = api.insert_lead(list_id, "2025550001", alt_phone_1="2025550123")
    api.insert_lead(list_id, "2025550124")  # a neighbour, not a hit

    pack = gather_evidence(
        api, session.journal, snapshots, "202-555-0123", "1", connection="Sandbox"
    )
    assert pack.e164 == "+12025550123"
    assert sorted(str(e.scope) for e in pack.dnc) == ["campaign:" + camp, "global"]
    assert [(str(e.scope), e.reason) for e in pack.sms] == [("purpose:Marketing", "STOP")]
    assert [(h.lead.id, h.field) for h in pack.leads] == [
        (lead_a, "phone_number"),
        (lead_b, "alt_phone_2"),
        (lead_c, "alt_phone_1"),
    ]
    assert pack.leads[0].list_name == "Evidence list one"
    assert pack.leads[0].status_name == "Do Not Call"
    assert {e.operation for e in pack.journal} == {"dnc.insert", "sms.insert"}
    assert len(pack.journal) == 6  # three writes, intent + outcome each
    assert [bool(s.entries) for s in pack.snapshots] == [False, True]
    assert len(pack.snapshots[1].entries) == 2

    out = tmp_path / "evidence.xlsx"
    sha = write_evidence_xlsx(pack, out)
    assert len(sha) == 64
    wb = CalamineWorkbook.from_path(str(out))
    assert wb.sheet_names == ["Summary", "DNC", "SMS opt-out", "Leads", "Journal", "Snapshots"]
    summary = dict(r[:2] for r in wb.get_sheet_by_name("Summary").to_python())
    assert summary["Evidence for"] == "+12025550123"  # exact text, in a quotePrefix cell
    assert summary["Leads carrying it"] == 3
    assert summary["Snapshots listing it"] == 1
    journal_rows = wb.get_sheet_by_name("Journal").to_python()
    assert "ticket 9" in {r[8] for r in journal_rows}
    assert len(wb.get_sheet_by_name("Leads").to_python()) == 4
    assert TOKEN.encode() not in out.read_bytes()


def test_unparseable_number_is_refused(api: ApiClient) -> None:
    with pytest.raises(EvidenceError, match="cannot be looked up"):
        gather_evidence(api, None, None, "12345", "1")


def test_evidence_finds_entries_kept_with_a_trunk_0_and_leads_typed_other_ways(
    session: Session, sandbox: Any, tmp_path: Path
) -> None:
    # Black-box findings: a UK entry entered by hand with its trunk 0 ("02079460009", which a
    # removal finds and deletes) was on neither list for the evidence pack; leads typed
    # "312.555.0009" or "(312)555-0009" were not found, though the service re-statuses them.
    api = session.api
    sandbox.bulk_seed_dnc([("02079460009", "44", "0", "by hand", "")])
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    list_id = api.insert_list("Evidence forms", camp)
    uk_lead = api.insert_lead(list_id, "020 7946 0009", phone_code="44")
    typed = ["312.555.0009", "312 555 0009", "(312)555-0009", "312-555-0009", "+1 312-555-0009"]
    us_leads = {api.insert_lead(list_id, form) for form in typed}
    uk = gather_evidence(api, None, None, "+44 20 7946 0009", "1")
    assert [(e.phone_number, e.reason) for e in uk.dnc] == [("02079460009", "by hand")]
    assert [h.lead.id for h in uk.leads] == [uk_lead]
    us = gather_evidence(api, None, None, "3125550009", "1")
    assert {h.lead.id for h in us.leads} == us_leads
