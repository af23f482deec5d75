"""Lead statuses and campaigns through HTTP."""

from __future__ import annotations

from tests.sandbox.conftest import LIMITED, Api
from tests.sandbox.test_status_query_required import every_status

FLAGS = {
    "final": "N", "reached": "Y", "success": "N", "dnc": "N", "callback": "Y", "contact": "Y",
    "voicemail": "N",
}  # fmt: skip
OPTIONS = list(FLAGS)


def test_status_search_matches_code_or_name(demo_api: Api) -> None:
    everything = every_status(demo_api)
    codes = {s["status"] for s in everything}
    assert {"NEW", "CALLBK", "DNC", "SALE", "NA", "B", "DROP"} <= codes
    assert any(s["custom_status"] for s in everything)
    assert any(not s["custom_status"] for s in everything)
    for status in everything:
        assert set(status) == {
            "status", "name", *OPTIONS, "workflow_disposition_event_option", "custom_status",
            "hex_color",
        }  # fmt: skip
        assert status["hex_color"].startswith("#") and len(status["hex_color"]) == 7
        assert all(status[option] in ("Y", "N") for option in OPTIONS)
    by_code = {s["status"]: s for s in everything}
    assert by_code["DNC"]["dnc"] == "Y"
    assert by_code["SALE"]["success"] == "Y" and by_code["SALE"]["final"] == "Y"
    assert {s["status"] for s in demo_api.ok("/status/search", query="callb")["data"]} >= {"CALLBK"}
    assert [s["status"] for s in demo_api.ok("/status/search", query="sale made")["data"]] == [
        "SALE"
    ]
    assert demo_api.ok("/status/search", query="zzzz") == {"data": []}


def test_status_insert_and_validation_order(api: Api) -> None:
    body = api.ok(
        "/status/insert", status="VIP1", name="Very Important", hex_color="a1B2c3", **FLAGS
    )
    assert body == {"success": True, "code": 200, "data": {"new": "1", "status": "VIP1"}}
    (created,) = api.ok("/status/search", query="VIP1")["data"]
    assert created["custom_status"] is True and created["hex_color"] == "#A1B2C3"
    api.fails("/status/insert", None, 409, status="VIP1", name="Again", **FLAGS)
    api.fails("/status/insert", 6060, 400, status="OK2", **FLAGS)
    api.fails("/status/insert", 6061, 400, status="X", name="Too short", **FLAGS)
    api.fails("/status/insert", 6061, 400, status="TOOLONG", name="Too long", **FLAGS)
    api.fails("/status/insert", 6061, 400, status="A-B", name="Not alnum", **FLAGS)
    for index, option in enumerate(OPTIONS):
        missing = {key: value for key, value in FLAGS.items() if key != option}
        api.fails("/status/insert", 6062 + index, 400, status="OK3", name="Name", **missing)
        api.fails(
            "/status/insert", 6062 + index, 400, status="OK3", name="Name", **{**FLAGS, option: "X"}
        )
    api.fails("/status/insert", 6078, 400, status="OK4", name="Name", hex_color="#A1B2C3", **FLAGS)
    api.fails("/status/insert", 6078, 400, status="OK4", name="Name", hex_color="GGGGGG", **FLAGS)


def test_status_update_rules(api: Api) -> None:
    api.ok("/status/insert", status="MINE", name="Mine", **FLAGS)
    assert api.ok(
        "/status/update", status="MINE", name="Renamed", final="Y", hex_color="00ff00"
    ) == {
        "success": True,
        "data": {"status": "MINE"},
    }
    (status,) = api.ok("/status/search", query="MINE")["data"]
    assert status["name"] == "Renamed" and status["final"] == "Y"
    assert status["hex_color"] == "#00FF00" and status["reached"] == "Y"
    api.fails("/status/update", 6069, 400, status="SALE", name="Nope")
    api.fails("/status/update", 6069, 404, status="GHOST", name="Nope")
    api.fails("/status/update", 6069, 400, name="No code")
    for index, option in enumerate(OPTIONS):
        api.fails("/status/update", 6071 + index, 400, status="MINE", **{option: ""})
    api.fails("/status/update", 6078, 400, status="MINE", hex_color="12345")


def test_campaign_search_shape(demo_api: Api) -> None:
    body = demo_api.ok("/campaigns/search")
    assert set(body) == {"data"}
    campaigns = body["data"]
    assert len(campaigns) >= 4
    assert {c["status"] for c in campaigns} == {"Y", "N"}
    for campaign in campaigns:
        assert set(campaign) == {"id", "name", "status", "last_call_date"}
        assert campaign["id"].isdigit()
        when = campaign["last_call_date"]
        assert set(when) == {"date", "timezone_type", "timezone"}
        assert isinstance(when["timezone_type"], int) and len(when["date"]) == 10


def test_campaign_status_changes_and_codes(api: Api) -> None:
    campaign = api.server.seed_campaign("Switchable Campaign", active=True)
    assert api.ok("/campaigns/status", campaign_id=campaign, status="false") == {"success": True}
    (found,) = [c for c in api.ok("/campaigns/search")["data"] if c["id"] == campaign]
    assert found["status"] == "N" and found["name"] == "Switchable Campaign"
    api.ok("/campaigns/status", campaign_id=campaign, status="true")
    assert [c["status"] for c in api.ok("/campaigns/search")["data"]] == ["Y"]
    api.fails("/campaigns/status", 6026, 404, campaign_id="99999", status="true")
    api.fails("/campaigns/status", 6026, 404, status="true")
    api.fails("/campaigns/status", 6080, 400, campaign_id=campaign, status="yes")
    api.fails("/campaigns/status", None, 403, token=LIMITED, campaign_id=campaign, status="false")
