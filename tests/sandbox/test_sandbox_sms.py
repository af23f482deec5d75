"""SMS opt-out endpoints through HTTP."""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.sandbox.conftest import Api

NUMBER = "2025550143"


def insert(api: Api, campaign_id: str = "0", number: str = NUMBER, **extra: str) -> None:
    body = api.ok(
        "/sms-opt-out/insert", phone_number=number, phone_code="1", campaign_id=campaign_id, **extra
    )
    assert body == {"success": True}


def records(api: Api, **filters: Any) -> list[dict[str, str]]:
    result: list[dict[str, str]] = api.ok("/sms-opt-out/search", **filters)["records"]
    return result


def test_insert_and_search_envelope(api: Api, campaign: str) -> None:
    insert(api, campaign, reason="Replied STOP")
    body = api.ok("/sms-opt-out/search")
    assert set(body) == {"success", "offset", "limit", "total", "records"}
    assert body["success"] is True and body["limit"] == 1000 and body["offset"] == 0
    assert body["total"] == 1
    (record,) = body["records"]
    assert set(record) == {
        "id", "phone_number", "phone_code", "reason", "purpose", "insert_date", "campaign_id",
        "campaign_name",
    }  # fmt: skip
    assert record["campaign_name"] == "Test Campaign One" and record["campaign_id"] == campaign
    assert record["reason"] == "Replied STOP"
    assert record["insert_date"].startswith(date.today().isoformat())


def test_insert_codes(api: Api) -> None:
    base = {"phone_number": NUMBER, "phone_code": "1", "campaign_id": "0"}
    api.fails("/sms-opt-out/insert", 6006, 400, **{**base, "campaign_id": "5150"})
    api.fails("/sms-opt-out/insert", 6007, 400, **{**base, "phone_number": "202-555"})
    api.fails("/sms-opt-out/insert", 6026, 400, **{**base, "phone_code": ""})
    api.fails("/sms-opt-out/insert", 6026, 400, **{**base, "phone_code": "12345"})
    api.fails("/sms-opt-out/insert", 6057, 400, **base, purpose="p" * 256)
    api.fails("/sms-opt-out/insert", 6058, 400, **base, reason="r" * 256)
    api.fails("/sms-opt-out/insert", 6080, 400, **{**base, "campaign_id": "-1"})
    insert(api)
    api.fails("/sms-opt-out/insert", 6008, 409, **base)
    insert(api, "-1", purpose="Marketing")
    insert(api, "-1", purpose="Surveys")
    api.fails("/sms-opt-out/insert", 6008, 409, **{**base, "campaign_id": "-1"}, purpose="Surveys")


def test_update_rules(api: Api, campaign: str) -> None:
    insert(api, "0", reason="Replied STOP", purpose="Note")
    insert(api, "0", number="2025550144")
    first, second = (r["id"] for r in records(api))
    base = {"phone_number": NUMBER, "phone_code": "1", "campaign_id": campaign}
    body = api.ok("/sms-opt-out/update", id=first, **base)
    assert body == {"success": True, "data": {"id": first}}
    (record,) = records(api, id=first)
    assert record["campaign_id"] == campaign and record["reason"] == "Replied STOP"
    api.ok("/sms-opt-out/update", id=first, **base, reason="-BLANK-", purpose="-BLANK-")
    (record,) = records(api, id=first)
    assert record["reason"] == "" and record["purpose"] == ""
    api.ok("/sms-opt-out/update", id=first, **base, reason="New reason")
    assert records(api, id=first)[0]["reason"] == "New reason"

    api.fails("/sms-opt-out/update", 4001, 400, id=first, phone_number=NUMBER, phone_code="1")
    api.fails("/sms-opt-out/update", 4002, 400, id=first, **{**base, "phone_code": "+1"})
    api.fails("/sms-opt-out/update", 4002, 400, id=first, **{**base, "campaign_id": "global"})
    api.fails("/sms-opt-out/update", 6056, 404, id="987654", **base)
    api.fails("/sms-opt-out/update", 6056, 400, **base)
    api.fails("/sms-opt-out/update", 6008, 400, id=first, **{**base, "phone_number": "12"})
    api.fails("/sms-opt-out/update", 6026, 400, id=first, **{**base, "phone_code": "12345"})
    api.fails("/sms-opt-out/update", 6004, 404, id=first, **{**base, "campaign_id": "8080"})
    api.fails("/sms-opt-out/update", 6057, 400, id=first, **base, purpose="p" * 256)
    api.fails("/sms-opt-out/update", 6058, 400, id=first, **base, reason="r" * 256)
    api.fails("/sms-opt-out/update", 6080, 400, id=first, **{**base, "campaign_id": "-1"})
    api.fails(
        "/sms-opt-out/update", 6059, 409, id=second, phone_number=NUMBER, phone_code="1",
        campaign_id=campaign,
    )  # fmt: skip


def test_search_filters_and_limits(api: Api, campaign: str) -> None:
    insert(api, "0", reason="Replied STOP")
    insert(api, campaign, number="2025550144")
    insert(api, "-1", number="2025550145", purpose="Surveys", reason="Asked")
    assert [r["phone_number"] for r in records(api, reason="-BLANK-")] == ["2025550144"]
    assert len(records(api, reason="-NOTBLANK-")) == 2
    assert [r["phone_number"] for r in records(api, campaign_id="-1")] == ["2025550145"]
    assert [r["phone_number"] for r in records(api, purpose="Surveys")] == ["2025550145"]
    assert [r["phone_number"] for r in records(api, phone_number="2025550144")] == ["2025550144"]
    assert len(records(api, insert_date=date.today().isoformat())) == 3
    assert records(api, insert_date="2000-01-01") == []
    api.fails("/sms-opt-out/search", 6058, 400, reason="STOP")
    api.fails("/sms-opt-out/search", 6057, 400, purpose="p" * 256)
    api.fails("/sms-opt-out/search", 6006, 400, campaign_id="4040")
    api.fails("/sms-opt-out/search", 6026, 400, phone_code="abc")
    api.fails("/sms-opt-out/search", 7231, 400, offset=100_001)
    api.fails("/sms-opt-out/search", 7231, 400, offset=-5)
    api.fails("/sms-opt-out/search", 7231, 400, limit=1001)
    api.fails("/sms-opt-out/search", None, 400, insert_date="yesterday")
    page = api.ok("/sms-opt-out/search", limit=1, offset=1)
    assert page["total"] == 3 and len(page["records"]) == 1


def test_demo_sms_paging_covers_all(demo_api: Api) -> None:
    first = demo_api.ok("/sms-opt-out/search", limit=200)
    rest = demo_api.ok("/sms-opt-out/search", offset=200)
    ids = [int(r["id"]) for r in first["records"] + rest["records"]]
    assert len(ids) == first["total"] and ids == sorted(ids)
    assert {r["campaign_id"] for r in first["records"] + rest["records"]} >= {"0", "-1"}
