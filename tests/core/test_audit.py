"""Campaign audit against a sandbox seeded with known conflicts in every scope and field."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.api.errors import NotFoundError
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.core.audit_records import AuditRecords
from app.core.audit_report import result_json, write_report
from app.core.audit_run import AuditOptions, run_audit
from app.core.audit_types import AuditResult, ListKind, Strategy
from tests.conftest import TOKEN


@dataclass
class Seeded:
    """Ids of what :func:`seed_campaign_with_conflicts` created."""

    campaign: str
    other_campaign: str
    lists: dict[str, str]
    leads: dict[str, str]
    # (lead key, field, list kind, scope text) of every conflict the audit must find.
    expected: set[tuple[str, str, str, str]]


def seed_campaign_with_conflicts(api: ApiClient) -> Seeded:
    campaigns = {c.name: c.id for c in api.campaigns()}
    camp, other = campaigns["Spring Renewals"], campaigns["Old Winback"]
    lists = {
        "A": api.insert_list("Spring list A", camp),
        "B": api.insert_list("Spring list B (inactive)", camp, active=False),
        "X": api.insert_list("Winback list X", other),
    }
    leads = {
        # (202) 555-0101 is on the global DNC list as 2025550101.
        "L1": api.insert_lead(lists["A"], "(202) 555-0101", first_name="Ann", last_name="Lee"),
        # Its alt_phone_1 is on this campaign's DNC list.
        "L2": api.insert_lead(lists["A"], "2025550102", alt_phone_1="202.555.0103"),
        # On another campaign's DNC list only: no conflict.
        "L3": api.insert_lead(lists["A"], "2025550104"),
        # Inactive list; alt_phone_2 on a purpose-scoped DNC entry.
        "L4": api.insert_lead(lists["B"], "2025550108", alt_phone_2="+1 202 555 0105"),
        # SMS opt-outs: global (phone_number) and this campaign (alt_phone_1).
        "L5": api.insert_lead(lists["B"], "2025550106", alt_phone_1="2025550107"),
        # Cannot be parsed: reported, not proven clean.
        "L6": api.insert_lead(lists["A"], "12345678", first_name="Junk"),
        # Another campaign's lead carrying a globally blocked number: not this audit's.
        "L7": api.insert_lead(lists["X"], "2025550101"),
        # A UK lead written with its trunk 0, on the global list as national digits.
        "L8": api.insert_lead(lists["A"], "020 7946 0958", phone_code="44"),
    }
    api.insert_dnc("2025550101", "1", Scope.global_(), reason="asked on call")
    api.insert_dnc("2025550103", "1", Scope.campaign(camp), reason="campaign request")
    api.insert_dnc("2025550104", "1", Scope.campaign(other))
    api.insert_dnc("2025550105", "1", Scope.purpose("Collections"), reason="collections")
    api.insert_dnc("2079460958", "44", Scope.global_())
    api.insert_dnc("2025550199", "1", Scope.global_())  # on no lead
    api.insert_sms("2025550106", "1", Scope.global_(), reason="STOP")
    api.insert_sms("2025550107", "1", Scope.campaign(camp))
    api.insert_sms("2025550104", "1", Scope.campaign(other))
    expected = {
        ("L1", "phone_number", "DNC", "global"),
        ("L2", "alt_phone_1", "DNC", f"campaign:{camp}"),
        ("L4", "alt_phone_2", "DNC", "purpose:Collections"),
        ("L5", "phone_number", "SMS opt-out", "global"),
        ("L5", "alt_phone_1", "SMS opt-out", f"campaign:{camp}"),
        ("L8", "phone_number", "DNC", "global"),
    }
    return Seeded(camp, other, lists, leads, expected)


def found(result: AuditResult, seeded: Seeded) -> set[tuple[str, str, str, str]]:
    by_id = {v: k for k, v in seeded.leads.items()}
    return {
        (by_id[c.number.lead.id], c.number.field, c.entry.kind.value, str(c.entry.scope))
        for c in result.conflicts
    }


@pytest.fixture
def seeded(api: ApiClient) -> Seeded:
    return seed_campaign_with_conflicts(api)


def test_audit_finds_every_conflict_by_download(api: ApiClient, seeded: Seeded) -> None:
    result = run_audit(api, seeded.campaign, connection="Sandbox")
    assert found(result, seeded) == seeded.expected
    assert len(result.conflicts) == 6
    assert result.leads == 7  # L7 is on another campaign's list
    assert result.numbers == 9
    assert [(n.lead.id, n.raw) for n in result.unparseable] == [(seeded.leads["L6"], "12345678")]
    assert "too short" in result.unparseable[0].reason
    assert not result.clean
    assert {s.strategy for s in result.sources} == {Strategy.DOWNLOAD}
    assert len(result.sources) == 6  # DNC and SMS x global, campaign, purpose
    assert result.conflicts_by_scope() == {
        "DNC global": 2,
        f"DNC campaign:{seeded.campaign}": 1,
        "DNC purpose:Collections": 1,
        "SMS opt-out global": 1,
        f"SMS opt-out campaign:{seeded.campaign}": 1,
    }
    assert result.conflicts_by_list() == {seeded.lists["A"]: 3, seeded.lists["B"]: 3}
    assert {t.lead_list.id: (t.leads, t.numbers, t.unparseable) for t in result.lists} == {
        seeded.lists["A"]: (5, 5, 1),
        seeded.lists["B"]: (2, 4, 0),
    }
    l1 = next(c for c in result.conflicts if c.number.lead.id == seeded.leads["L1"])
    assert l1.entry.reason == "asked on call"
    assert l1.number.e164 == "+12025550101"
    assert l1.list_name == "Spring list A"
    assert l1.number.lead.name == "Ann Lee"
    assert l1.entry.insert_date
    assert [x.id for x in result.conflicting_leads] == list(
        dict.fromkeys(c.number.lead.id for c in result.conflicts)
    )


def test_lookup_strategy_finds_the_same_conflicts(api: ApiClient, seeded: Seeded) -> None:
    before = api.requests_sent
    result = run_audit(api, seeded.campaign, options=AuditOptions(max_download_pages=0))
    assert found(result, seeded) == seeded.expected
    assert {s.strategy for s in result.sources} == {Strategy.LOOKUP}
    # 10 distinct keys (9 parseable numbers + the unparseable number's digits): one search
    # per list and written form a download would match (N and 1N for each of the 9 NANP
    # numbers, N for the other), plus the first page of each of the six scopes and the other
    # reads.
    dnc = [s for s in result.sources if s.kind is ListKind.DNC]
    assert {s.requests for s in dnc} == {19}
    assert "one search per number and form answers all of these scopes" in dnc[0].why
    assert api.requests_sent - before < 60


def test_scope_over_the_offset_cap_is_looked_up(
    api: ApiClient, sandbox: Any, seeded: Seeded
) -> None:
    # 101,001 more global entries than paging can reach: the global scope must be looked up,
    # while the small campaign and purpose scopes are still downloaded.
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(101_001))
    result = run_audit(api, seeded.campaign)
    assert found(result, seeded) == seeded.expected
    strategies = {(s.kind, str(s.scope)): s for s in result.sources}
    global_dnc = strategies[(ListKind.DNC, "global")]
    assert global_dnc.strategy is Strategy.LOOKUP
    assert global_dnc.total == 101_004
    assert "offset cap" in global_dnc.why
    assert strategies[(ListKind.DNC, f"campaign:{seeded.campaign}")].strategy is Strategy.DOWNLOAD
    assert strategies[(ListKind.SMS, "global")].strategy is Strategy.DOWNLOAD


def test_clean_campaign(api: ApiClient) -> None:
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    list_id = api.insert_list("Clean list one", camp)
    api.insert_lead(list_id, "2025550150", alt_phone_1="(202) 555-0151")
    api.insert_dnc("2025550152", "1", Scope.global_())
    result = run_audit(api, camp)
    assert result.clean
    assert (result.leads, result.numbers, result.conflicts, result.unparseable) == (1, 2, [], [])


def test_many_pages_of_leads_fetched_concurrently(api: ApiClient, sandbox: Any) -> None:
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    big = api.insert_list("Big list of leads", camp)
    small = api.insert_list("Small list of leads", camp)
    # 4,000 is a whole number of pages: the audit must still see the end (an empty page).
    sandbox.bulk_seed_leads(big, ((f"2125{i:06d}", "1", "", "") for i in range(4_000)))
    sandbox.bulk_seed_leads(small, ((f"3125{i:06d}", "", "", "") for i in range(2_500)))
    api.insert_dnc("2125000001", "1", Scope.global_())
    api.insert_dnc("3125002499", "1", Scope.campaign(camp))
    result = run_audit(api, camp, options=AuditOptions(concurrency=4))
    assert result.leads == 6_500
    assert len({c.number.lead.id for c in result.conflicts}) == 2
    assert sorted(c.number.raw for c in result.conflicts) == ["2125000001", "3125002499"]
    assert result.lead_pages >= 5


def test_unknown_campaign_and_cancel(api: ApiClient) -> None:
    with pytest.raises(NotFoundError):
        run_audit(api, "999")
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    api.insert_lead(api.insert_list("Some list here", camp), "2025550150")
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        run_audit(api, camp, cancel=cancel)


def test_progress_is_reported(api: ApiClient, seeded: Seeded) -> None:
    seen: list[tuple[int, int, str]] = []
    run_audit(api, seeded.campaign, progress=lambda d, t, m: seen.append((d, t, m)))
    messages = " | ".join(m for _, _, m in seen)
    assert "Read 8 leads" not in messages  # L7 is another campaign's
    assert "Read 7 leads" in messages
    assert "Matching" in messages


def test_progress_of_one_lead_reads_as_one(api: ApiClient) -> None:
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    api.insert_lead(api.insert_list("The only list", camp), "2025550150")
    seen: list[str] = []
    run_audit(api, camp, progress=lambda _d, _t, m: seen.append(m))
    # It said "Read 1 leads (8 pages)" (pages are asked several at a time).
    read = [m for m in seen if m.startswith("Read ")]
    assert read and all(m.startswith("Read 1 lead (") for m in read), seen


def test_report_contents(api: ApiClient, seeded: Seeded, tmp_path: Path) -> None:
    result = run_audit(api, seeded.campaign, connection="Sandbox")
    path = tmp_path / "audit.xlsx"
    sha = write_report(result, path)
    assert len(sha) == 64
    wb = CalamineWorkbook.from_path(str(path))
    assert wb.sheet_names == ["Summary", "Conflicts", "Unparseable"]
    summary = wb.get_sheet_by_name("Summary").to_python()
    pairs = {row[0]: row[1] for row in summary if len(row) > 1 and row[0]}
    assert pairs["Connection"] == "Sandbox"
    assert pairs["Campaign"] == f"Spring Renewals (id {seeded.campaign})"
    assert pairs["Conflicts"] == 6
    assert pairs["Unparseable numbers"] == 1
    assert pairs["Result"] == "NOT clean"
    strategies = [r for r in summary if r[0] in ("DNC", "SMS opt-out")]
    assert {(r[1], r[2]) for r in strategies} >= {
        ("global", "download"),
        ("purpose (any)", "download"),
    }
    list_rows = {r[0]: r for r in summary if r[0] in seeded.lists.values()}
    assert list_rows[seeded.lists["B"]][1:4] == ["Spring list B (inactive)", "N", 2]
    conflicts = wb.get_sheet_by_name("Conflicts").to_python()
    assert conflicts[0][:3] == ["Lead id", "List id", "List"]
    # The service's clock, whose zone the API does not give, as the evidence pack heads it.
    assert conflicts[0][-1] == "Insert date (service's clock)"
    assert len(conflicts) == 7
    l1 = next(r for r in conflicts if r[0] == seeded.leads["L1"])
    assert l1[5:10] == ["phone_number", "(202) 555-0101", "+12025550101", "DNC", "global"]
    purpose = next(r for r in conflicts if r[0] == seeded.leads["L4"])
    assert purpose[9:11] == ["purpose:Collections", "Collections"]
    unparseable = wb.get_sheet_by_name("Unparseable").to_python()
    assert unparseable[1][:5] == [
        seeded.leads["L6"],
        seeded.lists["A"],
        "Junk",
        "phone_number",
        "12345678",
    ]
    assert TOKEN.encode() not in path.read_bytes()


def test_json_and_records(api: ApiClient, seeded: Seeded, tmp_path: Path) -> None:
    result = run_audit(api, seeded.campaign, connection="Sandbox")
    path = tmp_path / "r.xlsx"
    sha = write_report(result, path)
    data = result_json(result, path, sha)
    assert {k: data[k] for k in ("lists", "leads", "numbers", "conflicts", "unparseable")} == {
        "lists": 2,
        "leads": 7,
        "numbers": 9,
        "conflicts": 6,
        "unparseable": 1,
    }
    assert data["report"] == str(path)
    # The sheet heads the service's clock; --json keeps the key scripts read.
    assert all("Insert date" in row for row in data["conflict_rows"])
    assert data["conflict_rows"][0]["Insert date"]
    with AuditRecords(tmp_path / "audits.sqlite3") as records:
        records.add(result, path, sha)
        last = records.last(api.base_url, seeded.campaign)
        assert last is not None
        assert (last.conflicts, last.unparseable, last.clean) == (6, 1, False)
        assert last.report_sha256 == sha and last.report_intact() is True
        assert "6 conflicts" in last.summary
        assert records.last_clean(api.base_url, seeded.campaign) is None
        assert records.last("http://elsewhere", seeded.campaign) is None
        assert set(records.latest_by_campaign(api.base_url)) == {seeded.campaign}
        path.write_bytes(path.read_bytes() + b"tampered")
        assert last.report_intact() is False


def test_lead_with_an_impossible_phone_code_is_reported_not_fatal(
    api: ApiClient, sandbox: Any
) -> None:
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    list_id = api.insert_list("Odd codes list", camp)
    # The service would refuse these codes; data imported by other tools may still hold them.
    sandbox.bulk_seed_leads(
        list_id, [("2025550150", "99999", "", ""), ("2025550151", "x1", "", "")]
    )
    for options in (AuditOptions(), AuditOptions(max_download_pages=0)):
        result = run_audit(api, camp, options=options)
        assert sorted(n.phone_code for n in result.unparseable) == ["99999", "x1"]
        assert result.conflicts == []


def test_a_scope_rides_along_on_another_scopes_lookups(
    api: ApiClient, sandbox: Any, seeded: Seeded
) -> None:
    # The campaign scope needs 3 pages, over the limit of 2: its numbers are looked up. The
    # global scope (2 pages) would be cheap to download, but the same lookups answer it too.
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", seeded.campaign, "", "") for i in range(2_500))
    sandbox.bulk_seed_dnc((f"4{i:09d}", "1", "0", "", "") for i in range(1_500))
    result = run_audit(api, seeded.campaign, options=AuditOptions(max_download_pages=2))
    assert found(result, seeded) == seeded.expected
    dnc = {str(s.scope): s for s in result.sources if s.kind is ListKind.DNC}
    assert dnc[f"campaign:{seeded.campaign}"].strategy is Strategy.LOOKUP
    assert "exceed the download limit of 2" in dnc[f"campaign:{seeded.campaign}"].why
    assert dnc["global"].strategy is Strategy.LOOKUP
    assert "looked up for another scope" in dnc["global"].why
    # Purpose entries fit in the first page already read: kept as a (free) download.
    assert dnc["purpose:"].strategy is Strategy.DOWNLOAD
    assert dnc["purpose:"].requests == 1
