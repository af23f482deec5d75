"""Lists and leads through HTTP."""

from __future__ import annotations

from tests.sandbox.conftest import Api


def make_list(api: Api, campaign: str, name: str = "Spring Web Leads", **extra: str) -> str:
    body = api.ok("/lists/insert", name=name, campaign_id=campaign, **extra)
    assert body["success"] is True
    assert body["data"] == {"list_id": body["id"]} and isinstance(body["id"], str)
    return str(body["id"])


def test_list_insert_search_update(api: Api, campaign: str) -> None:
    list_id = make_list(api, campaign, description="From the web form")
    inactive = make_list(api, campaign, name="Dormant Imported Leads", status="0")
    (found,) = api.ok("/lists/search", status=1)["data"]
    assert found == {
        "id": list_id, "name": "Spring Web Leads", "status": "Y", "last_called_at": "",
        "description": "From the web form", "campaign_id": campaign,
    }  # fmt: skip
    assert [row["id"] for row in api.ok("/lists/search", status=0)["data"]] == [inactive]
    assert api.ok("/lists/search", status=1, campaign_id="123456") == {"data": []}
    assert [row["id"] for row in api.ok("/lists/search", status=1, id=list_id)["data"]] == [list_id]

    other = api.server.seed_campaign("Another Campaign")
    body = api.ok("/lists/update", list_id=list_id, name="Renamed Web Leads", campaign_id=other)
    assert body == {"success": True, "data": {"list_id": list_id}}
    api.ok("/lists/update", list_id=list_id, status=0)
    rows = {row["id"]: row for row in api.ok("/lists/search", status=0)["data"]}
    assert rows[list_id]["name"] == "Renamed Web Leads" and rows[list_id]["campaign_id"] == other
    assert rows[list_id]["status"] == "N"


def test_list_codes(api: Api, campaign: str) -> None:
    make_list(api, campaign)
    api.fails("/lists/insert", 6003, 400, campaign_id=campaign)
    api.fails("/lists/insert", 6046, 400, name="Short", campaign_id=campaign)
    api.fails("/lists/insert", 6081, 409, name="Spring Web Leads", campaign_id=campaign)
    api.fails("/lists/insert", 6004, 404, name="Unknown Campaign List", campaign_id="97979")
    api.fails("/lists/insert", 6004, 404, name="Global Scope List", campaign_id="0")
    api.fails("/lists/insert", None, 400, name="Bad Status List", campaign_id=campaign, status=2)
    api.fails(
        "/lists/insert", None, 400, name="Long Description", campaign_id=campaign,
        description="d" * 256,
    )  # fmt: skip
    second = make_list(api, campaign, name="Second Batch Of Leads")
    api.fails("/lists/update", 6002, 404, list_id="424242", name="Whatever Name")
    api.fails("/lists/update", 6002, 404, name="Whatever Name")
    api.fails("/lists/update", 6046, 400, list_id=second, name="Too short")
    api.fails("/lists/update", 6046, 400, list_id=second, name="x" * 31)
    api.fails("/lists/update", 6081, 409, list_id=second, name="Spring Web Leads")
    api.fails("/lists/update", 6004, 404, list_id=second, campaign_id="31313")
    api.fails("/lists/search", 6002, 404, status=1, id="55555")
    api.fails("/lists/search", None, 400)
    api.fails("/lists/search", None, 400, status="Y")


def test_lead_insert_update_search_delete(api: Api, campaign: str) -> None:
    list_id = make_list(api, campaign)
    body = api.ok(
        "/leads/insert", list_id=list_id, phone_number="2025550143", phone_code="1",
        first_name="Ada", last_name="Lovelace", email="ada@example.com", alt_phone_1="3035550100",
        status="CALLBK", city="Austin", state="TX",
    )  # fmt: skip
    assert body["success"] is True and body["data"] == {"lead_id": body["id"]}
    lead_id = body["id"]
    page = api.ok("/leads/search", phone_number="2025550143")
    assert set(page) == {"results", "offset", "limit"}
    assert page["offset"] == 0 and page["limit"] == 10
    (lead,) = page["results"]
    assert lead["id"] == lead_id and lead["list_id"] == list_id and lead["status"] == "CALLBK"
    assert lead["alt_phone_1"] == "3035550100" and lead["created_at"] == lead["modified_at"]
    assert all(isinstance(value, str) for value in lead.values())

    body = api.ok("/leads/update", lead_id=lead_id, first_name="Augusta", status="SALE")
    assert body == {"success": True, "data": {"lead_id": lead_id}}
    (lead,) = api.ok("/leads/search", lead_id=lead_id)["results"]
    assert lead["first_name"] == "Augusta" and lead["status"] == "SALE"
    assert api.ok("/leads/search", first_name="Ada") == {"success": True, "results": []}
    assert api.ok("/leads/search", city="Austin", state="TX")["results"][0]["id"] == lead_id

    assert api.ok("/leads/delete", lead_id=lead_id) == {"success": True}
    assert api.ok("/leads/search", lead_id=lead_id) == {"success": True, "results": []}
    api.fails("/leads/delete", 6001, 404, lead_id=lead_id)


def test_lead_codes(api: Api, campaign: str) -> None:
    list_id = make_list(api, campaign)
    api.fails("/leads/insert", 6007, 400, list_id=list_id)
    api.fails("/leads/insert", 6007, 400, phone_number="2025550143")
    api.fails("/leads/insert", 6002, 404, list_id="777777", phone_number="2025550143")
    api.fails("/leads/insert", 6008, 400, list_id=list_id, phone_number="call me")
    api.fails("/leads/insert", 6008, 400, list_id=list_id, phone_number="123")
    api.fails(
        "/leads/insert", 6079, 400, list_id=list_id, phone_number="2025550143", email="not-an-email"
    )
    api.ok("/leads/insert", list_id=list_id, phone_number="(202) 555-0143")
    api.fails("/leads/insert", 6009, 409, list_id=list_id, phone_number="2025550143", check_dup=1)
    other_list = make_list(api, campaign, name="Another Lead Batch")
    api.ok("/leads/insert", list_id=other_list, phone_number="2025550143", check_dup=1)
    api.fails(
        "/leads/insert", 6009, 409, list_id=other_list, phone_number="2025550143", check_dup=4
    )
    api.fails("/leads/update", 6070, 400, lead_id="abc")
    api.fails("/leads/update", 6070, 400)
    api.fails("/leads/update", 6071, 404, lead_id="999999")


def test_lead_update_if_found_updates_the_existing_lead(api: Api, campaign: str) -> None:
    list_id = make_list(api, campaign)
    first = api.ok("/leads/insert", list_id=list_id, phone_number="2025550143")["id"]
    again = api.ok(
        "/leads/insert", list_id=list_id, phone_number="2025550143", update_if_found="true",
        first_name="Found",
    )  # fmt: skip
    assert again["id"] == first
    (lead,) = api.ok("/leads/search", phone_number="2025550143")["results"]
    assert lead["first_name"] == "Found"


def test_lead_search_limits_and_paging(demo_api: Api) -> None:
    demo_api.fails("/leads/search", 7258, 400, limit=2001)
    demo_api.fails("/leads/search", 7258, 400, limit=0)
    demo_api.fails("/leads/search", 7258, 400, limit="many")
    demo_api.fails("/leads/search", 7231, 400, offset=-1)
    demo_api.fails("/leads/search", 7231, 400, offset="x")
    first = demo_api.ok("/leads/search", limit=2000)
    assert first["limit"] == 2000 and len(first["results"]) == 2000
    second = demo_api.ok("/leads/search", limit=2000, offset=2000)
    assert second["offset"] == 2000 and 0 < len(second["results"]) <= 2000
    ids = [int(lead["id"]) for lead in first["results"] + second["results"]]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)


def test_lead_search_date_ranges(demo_api: Api) -> None:
    everything = demo_api.ok("/leads/search", limit=2000)["results"]
    day = sorted(lead["created_at"][:10] for lead in everything)[len(everything) // 2]
    same_day = demo_api.ok(
        "/leads/search", limit=2000, created_at_start_date=day, created_at_end_date=day
    )["results"]
    assert same_day and all(lead["created_at"].startswith(day) for lead in same_day)
    assert demo_api.ok("/leads/search", deleted_at_start="2020-01-01")["results"] == []
    demo_api.fails("/leads/search", None, 400, created_at_start_date="last week")
