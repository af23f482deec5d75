"""The client against a real sandbox over loopback HTTP: every endpoint and its error codes."""

from __future__ import annotations

from typing import Any

import pytest

from app.api import errors
from app.api.client import ApiClient, DncQuery
from app.api.models import ReasonFilter, WriteStatus
from app.api.scope import Scope, ScopeKind
from tests.conftest import LIMITED_TOKEN, READ_ONLY_TOKEN, TOKEN

US = "1"


def _campaigns(api: ApiClient) -> dict[str, Any]:
    return {c.name: c for c in api.campaigns()}


def test_campaigns_search_lists_active_and_inactive(api: ApiClient) -> None:
    campaigns = _campaigns(api)
    assert campaigns["Spring Renewals"].active is True
    assert campaigns["Old Winback"].active is False
    assert campaigns["Old Winback"].display_name == "Old Winback (inactive)"


def test_dnc_insert_search_update_delete_round_trip(api: ApiClient) -> None:
    camp = _campaigns(api)["Spring Renewals"]
    scope = Scope.campaign(camp.id)
    result = api.insert_dnc("2025550143", US, scope, reason="asked on call")
    assert result.status is WriteStatus.DONE and result.id.isdigit()

    page = api.search_dnc(DncQuery(phone_number="2025550143"))
    assert page.total == 1
    entry = page.items[0]
    assert entry.scope == scope
    assert entry.campaign_name == "Spring Renewals"
    assert entry.reason == "asked on call"
    assert entry.inserted_at is not None

    api.update_dnc(entry.id, reason="")  # blank reason clears it
    cleared = api.search_dnc(DncQuery(id=entry.id)).items[0]
    assert cleared.reason == ""
    assert api.search_dnc(DncQuery(reason=ReasonFilter.BLANK, scope=scope)).total == 1
    assert api.search_dnc(DncQuery(reason=ReasonFilter.NOT_BLANK, scope=scope)).total == 0

    api.update_dnc(entry.id, scope=Scope.global_())
    moved = api.search_dnc(DncQuery(id=entry.id)).items[0]
    assert moved.scope.kind is ScopeKind.GLOBAL

    deleted = api.delete_dnc("2025550143", US, Scope.global_())
    assert deleted.status is WriteStatus.DONE
    assert api.search_dnc(DncQuery(phone_number="2025550143")).total == 0


def test_dnc_insert_already_present_is_done_or_conflict(api: ApiClient) -> None:
    api.insert_dnc("2025550144", US, Scope.global_())
    again = api.insert_dnc("2025550144", US, Scope.global_())
    assert again.status is WriteStatus.ALREADY_PRESENT
    with pytest.raises(errors.ConflictError) as info:
        api.insert_dnc("2025550144", US, Scope.global_(), already_present_ok=False)
    assert info.value.code == 6008
    assert info.value.meaning == "phone already in DNC"
    assert info.value.field == "phone_number"


def test_dnc_validation_codes_name_the_field(api: ApiClient) -> None:
    with pytest.raises(errors.ValidationError) as bad_phone:
        api.insert_dnc("12ab", US, Scope.global_())
    assert (bad_phone.value.code, bad_phone.value.field) == (6006, "phone_number")
    assert "/dnc/insert" in str(bad_phone.value) and "6006" in str(bad_phone.value)

    with pytest.raises(errors.ValidationError) as bad_campaign:
        api.insert_dnc("2025550145", US, Scope.campaign("999999"))
    assert (bad_campaign.value.code, bad_campaign.value.field) == (6026, "campaign_id")

    with pytest.raises(errors.ValidationError) as no_purpose:
        api.insert_dnc("2025550145", US, Scope.purpose(""))
    assert no_purpose.value.field == "purpose"


def test_dnc_update_and_delete_not_found(api: ApiClient) -> None:
    with pytest.raises(errors.NotFoundError) as upd:
        api.update_dnc("987654", reason="x")
    assert upd.value.code == 6056
    with pytest.raises(errors.NotFoundError) as dele:
        api.delete_dnc("2025550199", US, Scope.global_())
    assert dele.value.code == 6001 and dele.value.meaning == "phone not found in DNC"
    quiet = api.delete_dnc("2025550199", US, Scope.global_(), not_found_ok=True)
    assert quiet.status is WriteStatus.NOT_FOUND


def test_dnc_purpose_scope_round_trip(api: ApiClient) -> None:
    api.insert_dnc("2025550150", US, Scope.purpose("Collections"), reason="letter")
    page = api.search_dnc(DncQuery(scope=Scope.purpose("Collections")))
    assert page.total == 1
    assert page.items[0].scope == Scope.purpose("Collections")
    assert page.items[0].scope.label() == "Purpose: Collections"
    assert api.search_dnc(DncQuery(scope=Scope.purpose("Marketing"))).total == 0


def test_dnc_delete_restatuses_leads_in_scope(api: ApiClient) -> None:
    camp = _campaigns(api)["Spring Renewals"]
    list_id = api.insert_list("Spring list 2026", camp.id)
    lead_a = api.insert_lead(list_id, "2025550160", phone_code=US, status="NEW")
    lead_b = api.insert_lead(
        list_id, "2025550161", phone_code=US, alt_phone_1="2025550160", status="NEW"
    )
    api.insert_dnc("2025550160", US, Scope.campaign(camp.id))
    code = api.search_statuses("NEW")[0].status
    api.delete_dnc("2025550160", US, Scope.campaign(camp.id), lead_status=code)
    statuses = {lead.id: lead.status for lead in api.search_leads({"list_id": list_id}).items}
    assert statuses[lead_a] == code
    assert statuses[lead_b] == code


def test_dnc_delete_with_unknown_status_is_refused(api: ApiClient) -> None:
    api.insert_dnc("2025550162", US, Scope.global_())
    with pytest.raises(errors.ValidationError) as info:
        api.delete_dnc("2025550162", US, Scope.global_(), lead_status="NOPE99")
    assert (info.value.code, info.value.field) == (6005, "lead_status")
    assert api.search_dnc(DncQuery(phone_number="2025550162")).total == 1


def test_sms_insert_search_update(api: ApiClient) -> None:
    assert api.insert_sms("2025550170", US, Scope.global_(), reason="STOP").status is (
        WriteStatus.DONE
    )
    assert api.insert_sms("2025550170", US, Scope.global_()).status is (WriteStatus.ALREADY_PRESENT)
    page = api.search_sms(DncQuery(phone_number="2025550170"))
    assert page.total == 1
    rec = page.items[0]
    assert rec.reason == "STOP" and rec.scope.is_global
    api.update_sms(
        rec.id, phone_number=rec.phone_number, phone_code=rec.phone_code, scope=rec.scope, reason=""
    )  # sent as -BLANK-
    assert api.search_sms(DncQuery(id=rec.id)).items[0].reason == ""


def test_sms_purpose_is_mandatory_for_purpose_scope(api: ApiClient) -> None:
    with pytest.raises(errors.ValidationError) as info:
        api.insert_sms("2025550171", US, Scope.purpose(""))
    assert (info.value.code, info.value.field) == (6080, "purpose")


def test_statuses_search_insert_update(api: ApiClient) -> None:
    created = api.insert_status(
        "REVW1", "Compliance review", final=False, dnc=False, hex_color="#3366ff"
    )
    assert created == "REVW1"
    found = [s for s in api.search_statuses("compliance") if s.status == "REVW1"]
    assert found and found[0].custom and found[0].hex_color.lower() == "#3366ff"
    api.update_status("REVW1", name="Compliance hold", dnc=True)
    again = next(s for s in api.search_statuses("REVW1") if s.status == "REVW1")
    assert again.name == "Compliance hold" and again.dnc
    system = next(s for s in api.search_statuses("DNC") if not s.custom)
    with pytest.raises(errors.ValidationError) as info:
        api.update_status(system.status, name="renamed")
    assert info.value.code == 6069
    with pytest.raises(errors.ValidationError) as bad:
        api.insert_status("X", "too short code")
    assert bad.value.code == 6061


def test_leads_and_lists(api: ApiClient) -> None:
    camp = _campaigns(api)["Spring Renewals"]
    with pytest.raises(errors.ValidationError) as short:
        api.insert_list("short", camp.id)
    assert short.value.code == 6046
    list_id = api.insert_list("Renewals batch A", camp.id, description="test")
    assert list_id
    lists = api.all_lists(camp.id)
    assert [x.name for x in lists] == ["Renewals batch A"]
    lead_id = api.insert_lead(list_id, "2025550180", first_name="Ada", phone_code=US)
    api.update_lead(lead_id, status="CALLBK")
    lead = api.search_leads({"lead_id": lead_id}).items[0]
    assert lead.status == "CALLBK" and lead.first_name == "Ada"
    assert lead.phones() == [("phone_number", "2025550180")]
    api.delete_lead(lead_id)
    assert api.search_leads({"lead_id": lead_id}).items == []
    with pytest.raises(errors.NotFoundError) as gone:
        api.update_lead(lead_id, status="NEW")
    assert gone.value.code == 6071
    with pytest.raises(errors.NotFoundError) as no_list:
        api.insert_lead("424242", "2025550181")
    assert no_list.value.code == 6002


def test_campaign_status_needs_campaign_management(api: ApiClient, sandbox: Any) -> None:
    camp = _campaigns(api)["Old Winback"]
    api.set_campaign_status(camp.id, True)
    assert _campaigns(api)["Old Winback"].active is True
    with ApiClient(sandbox.base_url, LIMITED_TOKEN) as limited:
        with pytest.raises(errors.PermissionDeniedError):
            limited.set_campaign_status(camp.id, False)
        limited.insert_dnc("2025550190", US, Scope.global_())  # other writes are allowed


def test_read_only_token_reads_but_cannot_write(sandbox: Any) -> None:
    with ApiClient(sandbox.base_url, READ_ONLY_TOKEN) as ro:
        assert ro.search_dnc().total == 0
        with pytest.raises(errors.PermissionDeniedError) as info:
            ro.insert_dnc("2025550191", US, Scope.global_())
    assert "Insufficient permissions" in info.value.message


def test_missing_invalid_and_revoked_tokens(sandbox: Any) -> None:
    with ApiClient(sandbox.base_url, "") as none, pytest.raises(errors.AuthMissingError):
        none.campaigns()
    with ApiClient(sandbox.base_url, "not-a-real-token") as bad:
        with pytest.raises(errors.AuthInvalidError) as info:
            bad.campaigns()
    assert info.value.message == "Invalid or expired authentication token"
    with ApiClient(sandbox.base_url, TOKEN) as good:
        good.campaigns()
        sandbox.revoke_token(TOKEN)
        with pytest.raises(errors.AuthInvalidError):
            good.campaigns()


def test_limits_are_checked_before_sending(api: ApiClient) -> None:
    before = api.requests_sent
    with pytest.raises(errors.LimitError) as info:
        api.search_dnc(limit=1001)
    assert info.value.field == "limit"
    with pytest.raises(errors.LimitError):
        api.search_dnc(offset=100_001)
    with pytest.raises(errors.LimitError):
        api.search_sms(limit=5000)
    with pytest.raises(errors.LimitError):
        api.search_leads(limit=2001)
    assert api.requests_sent == before


def test_paging_reports_rows_beyond_the_offset_cap(make_sandbox: Any) -> None:
    server = make_sandbox()
    total = 102_500
    server.bulk_seed_dnc(
        (f"20255{i:05d}", "1", "0", "", "") if i < 100_000 else (f"30355{i:05d}", "1", "0", "", "")
        for i in range(total)
    )
    with ApiClient(server.base_url, TOKEN) as client:
        search = client.iter_dnc(page_size=1000)
        ids = [entry.id for entry in search]
    assert search.total == total
    assert search.fetched == len(ids) == 101_000
    assert len(set(ids)) == len(ids)
    assert search.unreachable == 1_500
    assert search.complete is False


def test_paging_small_result_is_complete(demo_api: ApiClient) -> None:
    search = demo_api.iter_sms(page_size=100)
    rows = list(search)
    assert search.total == len(rows) > 0
    assert search.unreachable == 0 and search.complete


def test_a_paced_copy_caps_its_own_requests_and_leaves_the_client_as_it_was(
    api: ApiClient,
) -> None:
    import time

    paced = api.paced(600)  # one request every 0.1 s
    try:
        assert TOKEN not in repr(paced) and paced.base_url == api.base_url
        started = time.monotonic()
        for _ in range(4):
            assert _campaigns(paced)
        assert time.monotonic() - started >= 0.3  # three gaps of 0.1 s at least
        assert paced.requests_sent == 4
    finally:
        paced.close()
    # The original keeps its connections and has no cap: it still answers after the copy
    # closed, and counts only its own requests.
    before = api.requests_sent
    assert _campaigns(api)
    assert api.requests_sent == before + 1
    assert api._t.pacer is None
