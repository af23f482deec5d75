"""DNC endpoints through HTTP: envelopes, scope rules, codes, limits, delete side effects."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest

from tests.sandbox.conftest import Api

NUMBER = "2025550143"


def insert(api: Api, campaign_id: str = "0", number: str = NUMBER, **extra: str) -> int:
    body = api.ok(
        "/dnc/insert", phone_number=number, phone_code="1", campaign_id=campaign_id, **extra
    )
    assert body["success"] is True
    assert isinstance(body["id"], int)
    return int(body["id"])


def entries(api: Api, **filters: Any) -> list[dict[str, str]]:
    result: list[dict[str, str]] = api.ok("/dnc/search", **filters)["data"]["entries"]
    return result


def test_insert_then_search_returns_the_entry_shape(api: Api, campaign: str) -> None:
    entry_id = insert(api, campaign, reason="Customer request")
    body = api.ok("/dnc/search", phone_number=NUMBER)
    assert set(body) == {"data"}
    assert body["data"]["offset"] == 0 and body["data"]["limit"] == 100
    assert body["data"]["total"] == 1
    (entry,) = body["data"]["entries"]
    assert entry["id"] == str(entry_id)
    assert entry["campaign_id"] == campaign
    assert entry["campaign_name"] == "Test Campaign One"
    assert re.fullmatch(r"[0-9a-f-]{36}", entry["campaign_uid"])
    assert entry["reason"] == "Customer request" and entry["purpose"] == ""
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", entry["insert_date"])
    assert entry["insert_date"].startswith(date.today().isoformat())
    assert all(isinstance(value, str) for value in entry.values())


def test_global_and_purpose_scopes_have_blank_campaign_names(api: Api) -> None:
    insert(api, "0")
    insert(api, "-1", purpose="Marketing")
    for entry in entries(api):
        assert entry["campaign_name"] == "" and entry["campaign_uid"] == ""


def test_insert_validation_codes(api: Api, campaign: str) -> None:
    base = {"phone_number": NUMBER, "phone_code": "1", "campaign_id": "0"}
    for bad in ({"phone_number": "12345"}, {"phone_number": "20255501ab"}, {"phone_code": "12345"}):
        api.fails("/dnc/insert", 6006, 400, **{**base, **bad})
    api.fails("/dnc/insert", 6026, 400, **{**base, "campaign_id": "999999"})
    api.fails("/dnc/insert", 6026, 400, **{**base, "campaign_id": "abc"})
    api.fails("/dnc/insert", 6057, 400, **base, reason="r" * 256)
    api.fails("/dnc/insert", 6058, 400, **base, purpose="p" * 256)
    api.fails("/dnc/insert", 6058, 400, **{**base, "campaign_id": "-1"})


def test_duplicates_conflict_per_scope_and_purpose(api: Api, campaign: str) -> None:
    insert(api, "0")
    api.fails("/dnc/insert", 6008, 409, phone_number=NUMBER, phone_code="1", campaign_id="0")
    insert(api, campaign)  # same number, other scope: allowed
    insert(api, "-1", purpose="Marketing")
    insert(api, "-1", purpose="Surveys")
    api.fails(
        "/dnc/insert", 6008, 409, phone_number=NUMBER, phone_code="1", campaign_id="-1",
        purpose="Marketing",
    )  # fmt: skip
    # Outside the purpose scope the purpose is an annotation, not part of the key.
    api.fails(
        "/dnc/insert", 6008, 409, phone_number=NUMBER, phone_code="1", campaign_id="0",
        purpose="Other",
    )  # fmt: skip


def test_update_changes_fields_and_blank_reason_clears(api: Api, campaign: str) -> None:
    entry_id = insert(api, "0", reason="Old reason", purpose="Note")
    body = api.ok("/dnc/update", id=entry_id, campaign_id=campaign, reason="New reason")
    assert body == {"success": True, "id": entry_id}
    (entry,) = entries(api, id=entry_id)
    assert entry["campaign_id"] == campaign and entry["reason"] == "New reason"
    api.ok("/dnc/update", id=entry_id, phone_number="2025550199")
    (entry,) = entries(api, id=entry_id)
    assert entry["phone_number"] == "2025550199" and entry["reason"] == "New reason"
    api.ok("/dnc/update", id=entry_id, reason="")
    (entry,) = entries(api, id=entry_id)
    assert entry["reason"] == "" and entry["purpose"] == "Note"


def test_update_errors(api: Api, campaign: str) -> None:
    first = insert(api, "0")
    second = insert(api, "0", number="2025550144")
    api.fails("/dnc/update", 6056, 404, id=999999)
    api.fails("/dnc/update", 6056, 404, id="x")
    api.fails("/dnc/update", 6004, 400, id=first, phone_number="12")
    api.fails("/dnc/update", 6026, 400, id=first, campaign_id="424242")
    api.fails("/dnc/update", 6057, 400, id=first, reason="r" * 256)
    api.fails("/dnc/update", 6058, 400, id=first, campaign_id="-1")
    api.fails("/dnc/update", 6008, 409, id=second, phone_number=NUMBER)
    # A failed update leaves the entry as it was.
    (entry,) = entries(api, id=second)
    assert entry["phone_number"] == "2025550144"


def test_search_filters(api: Api, campaign: str) -> None:
    insert(api, "0", reason="Litigator")
    insert(api, "0", number="2025550144")
    insert(api, campaign, number="2025550145", reason="Asked")
    insert(api, "-1", number="2025550146", purpose="Surveys")
    assert len(entries(api)) == 4
    assert {e["phone_number"] for e in entries(api, reason="-BLANK-")} == {
        "2025550144",
        "2025550146",
    }
    assert {e["reason"] for e in entries(api, reason="-NOTBLANK-")} == {"Litigator", "Asked"}
    assert [e["phone_number"] for e in entries(api, campaign_id=campaign)] == ["2025550145"]
    assert [e["phone_number"] for e in entries(api, campaign_id="-1")] == ["2025550146"]
    assert len(entries(api, campaign_id="0")) == 2
    assert [e["phone_number"] for e in entries(api, purpose="Surveys")] == ["2025550146"]
    assert entries(api, purpose="Survey") == []
    assert len(entries(api, phone_code="1")) == 4 and entries(api, phone_code="44") == []
    today = date.today().isoformat()
    assert len(entries(api, insert_date=today)) == 4
    assert len(entries(api, insert_date=today + " 00:00:00")) == 4
    assert entries(api, insert_date="2001-01-01") == []
    assert entries(api, phone_number="3035550100") == []


def test_search_errors_and_limits(api: Api) -> None:
    api.fails("/dnc/search", 6057, 400, reason="Litigator")
    api.fails("/dnc/search", 6008, 400, insert_date="22/11/2026")
    api.fails("/dnc/search", 6008, 400, insert_date="2026-02-30")
    api.fails("/dnc/search", 6026, 400, campaign_id="31337")
    api.fails("/dnc/search", 6006, 400, phone_number="abc")
    api.fails("/dnc/search", 6058, 400, purpose="p" * 256)
    api.fails("/dnc/search", 6008, 400, limit=1001)
    api.fails("/dnc/search", 6008, 400, limit=-1)
    api.fails("/dnc/search", 6008, 400, offset=100_001)
    api.fails("/dnc/search", 6008, 400, offset="ten")
    data = api.ok("/dnc/search", limit=1000, offset=100_000)["data"]
    assert data["limit"] == 1000 and data["offset"] == 100_000 and data["entries"] == []


def test_paging_is_stable_in_id_order(demo_api: Api) -> None:
    first = demo_api.ok("/dnc/search", limit=1000)["data"]
    second = demo_api.ok("/dnc/search", limit=1000, offset=1000)["data"]
    assert first["total"] == second["total"] > 1000
    ids = [int(e["id"]) for e in first["entries"] + second["entries"]]
    assert ids == sorted(ids) and len(set(ids)) == len(ids) == first["total"]


def test_delete_removes_every_entry_in_the_scope(api: Api, campaign: str) -> None:
    insert(api, "-1", purpose="Marketing")
    insert(api, "-1", purpose="Surveys")
    insert(api, "0")
    insert(api, campaign)
    assert api.ok("/dnc/delete", phone_number=NUMBER, phone_code="1", campaign_id="-1") == {
        "success": True
    }
    assert sorted(e["campaign_id"] for e in entries(api)) == sorted(["0", campaign])
    api.ok("/dnc/delete", phone_number=NUMBER, phone_code="1", campaign_id=campaign)
    assert [e["campaign_id"] for e in entries(api)] == ["0"]
    api.fails("/dnc/delete", 6001, 404, phone_number=NUMBER, phone_code="1", campaign_id=campaign)


def test_delete_validation_codes(api: Api) -> None:
    base = {"phone_number": NUMBER, "phone_code": "1", "campaign_id": "0"}
    api.fails("/dnc/delete", 6000, 400, **{**base, "phone_number": "55"})
    api.fails("/dnc/delete", 6003, 400, **{**base, "phone_code": "+1"})
    api.fails("/dnc/delete", 6002, 400, **{**base, "campaign_id": "777"})
    api.fails("/dnc/delete", 6001, 404, **base)


def _lead(api: Api, list_id: str, phone: str, **extra: str) -> str:
    body = api.ok("/leads/insert", list_id=list_id, phone_number=phone, **extra)
    return str(body["id"])


def _status_of(api: Api, lead_id: str) -> str:
    (lead,) = api.ok("/leads/search", lead_id=lead_id)["results"]
    return str(lead["status"])


@pytest.fixture
def two_campaign_leads(api: Api, campaign: str) -> dict[str, str]:
    other = api.server.seed_campaign("Test Campaign Two")
    list_a = api.ok("/lists/insert", name="List in campaign one", campaign_id=campaign)["id"]
    list_b = api.ok("/lists/insert", name="List in campaign two", campaign_id=other)["id"]
    return {
        "campaign": campaign,
        "in_a_primary": _lead(api, list_a, NUMBER, phone_code="1"),
        "in_a_alt": _lead(api, list_a, "3035550100", alt_phone_2=NUMBER),
        "in_a_formatted": _lead(api, list_a, "(202) 555-0143"),
        "in_a_other_code": _lead(api, list_a, NUMBER, phone_code="44"),
        "in_b": _lead(api, list_b, NUMBER, phone_code="1"),
        "unrelated": _lead(api, list_a, "3035550101", phone_code="1"),
    }


def test_delete_with_lead_status_in_campaign_scope(
    api: Api, two_campaign_leads: dict[str, str]
) -> None:
    leads = two_campaign_leads
    insert(api, leads["campaign"])
    api.ok(
        "/dnc/delete", phone_number=NUMBER, phone_code="1", campaign_id=leads["campaign"],
        update_lead_status="true", lead_status="CALLBK",
    )  # fmt: skip
    assert _status_of(api, leads["in_a_primary"]) == "CALLBK"
    assert _status_of(api, leads["in_a_alt"]) == "CALLBK"
    assert _status_of(api, leads["in_a_formatted"]) == "CALLBK"
    assert _status_of(api, leads["in_a_other_code"]) == "NEW"
    assert _status_of(api, leads["in_b"]) == "NEW"
    assert _status_of(api, leads["unrelated"]) == "NEW"


def test_delete_with_lead_status_in_global_scope(
    api: Api, two_campaign_leads: dict[str, str]
) -> None:
    leads = two_campaign_leads
    insert(api, "0")
    api.ok(
        "/dnc/delete", phone_number=NUMBER, phone_code="1", campaign_id="0",
        update_lead_status="true", lead_status="NI",
    )  # fmt: skip
    assert _status_of(api, leads["in_b"]) == "NI"
    assert _status_of(api, leads["in_a_primary"]) == "NI"
    assert _status_of(api, leads["unrelated"]) == "NEW"


def test_delete_lead_status_rules(api: Api, two_campaign_leads: dict[str, str]) -> None:
    leads = two_campaign_leads
    insert(api, "0")
    api.fails(
        "/dnc/delete", 6005, 400, phone_number=NUMBER, phone_code="1", campaign_id="0",
        update_lead_status="true", lead_status="NOSUCH",
    )  # fmt: skip
    assert len(entries(api)) == 1  # nothing deleted
    # A blank lead_status deletes but leaves lead statuses alone.
    api.ok(
        "/dnc/delete", phone_number=NUMBER, phone_code="1", campaign_id="0",
        update_lead_status="true", lead_status="",
    )  # fmt: skip
    assert entries(api) == []
    assert _status_of(api, leads["in_b"]) == "NEW"
