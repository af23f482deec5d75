"""Authentication, permissions and HTTP conventions through HTTP."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.sandbox.conftest import FULL, LIMITED, READ_ONLY, Api

SEARCHES = [
    ("/dnc/search", {}),
    ("/sms-opt-out/search", {}),
    ("/campaigns/search", {}),
    ("/status/search", {"query": "dnc"}),
    ("/leads/search", {}),
    ("/lists/search", {"status": "1"}),
]
WRITES = [
    "/dnc/insert", "/dnc/update", "/dnc/delete", "/sms-opt-out/insert", "/sms-opt-out/update",
    "/campaigns/status", "/status/insert", "/status/update", "/leads/insert", "/leads/update",
    "/leads/delete", "/lists/insert", "/lists/update",
]  # fmt: skip
ALL_PATHS = [path for path, _ in SEARCHES] + WRITES


@pytest.mark.parametrize("path", ALL_PATHS)
def test_missing_and_invalid_tokens(demo_api: Api, path: str) -> None:
    body = demo_api.fails(path, None, 401, token=None)
    assert body == {"success": False, "error": "Missing authentication token"}
    body = demo_api.fails(path, None, 401, token="")
    assert body["error"] == "Missing authentication token"
    body = demo_api.fails(path, None, 401, token="not-a-token")
    assert body == {"success": False, "error": "Invalid or expired authentication token"}


@pytest.mark.parametrize(("path", "params"), SEARCHES)
def test_read_only_token_may_search(demo_api: Api, path: str, params: dict[str, str]) -> None:
    demo_api.ok(path, token=READ_ONLY, **params)
    demo_api.ok(path, token=LIMITED, **params)


@pytest.mark.parametrize("path", WRITES)
def test_read_only_token_may_not_write(demo_api: Api, path: str) -> None:
    body = demo_api.fails(path, None, 403, token=READ_ONLY)
    assert body == {"success": False, "error": "Insufficient permissions for this operation"}


def test_limited_token_writes_but_cannot_manage_campaigns(api: Api, campaign: str) -> None:
    api.ok("/dnc/insert", token=LIMITED, phone_number="2025550143", phone_code="1", campaign_id="0")
    body = api.fails(
        "/campaigns/status", None, 403, token=LIMITED, campaign_id=campaign, status="false"
    )
    assert body["error"] == "Insufficient permissions for this operation"
    api.ok("/campaigns/status", token=FULL, campaign_id=campaign, status="false")


def test_token_in_query_string_is_accepted(demo_api: Api) -> None:
    response = demo_api.http.post("/campaigns/search", params={"auth_token": FULL})
    assert response.status_code == 200 and response.json()["data"]


def test_revoked_token_stops_working_immediately(make_api: Callable[..., Api]) -> None:
    api = make_api(demo=False)
    api.ok("/campaigns/search", token=READ_ONLY)
    api.server.revoke_token(READ_ONLY)
    body = api.fails("/campaigns/search", None, 401, token=READ_ONLY)
    assert body["error"] == "Invalid or expired authentication token"
    api.ok("/campaigns/search")


def test_other_methods_and_unknown_paths(demo_api: Api) -> None:
    for method in ("GET", "PUT", "DELETE", "PATCH"):
        response = demo_api.http.request(method, "/dnc/search", params={"auth_token": FULL})
        assert response.status_code == 405
        assert response.json()["success"] is False
    response = demo_api.http.post("/dnc/nothing", data={"auth_token": FULL})
    assert response.status_code == 404 and response.json()["success"] is False


def test_responses_are_json(demo_api: Api) -> None:
    response = demo_api.post("/dnc/search", limit=1)
    assert response.headers["content-type"] == "application/json"


def test_multipart_bodies_are_read_too(demo_api: Api) -> None:
    response = demo_api.http.post(
        "/campaigns/search", files={"auth_token": (None, FULL), "unused": (None, "x")}
    )
    assert response.status_code == 200 and response.json()["data"]


def test_undecodable_body_is_a_validation_failure(demo_api: Api) -> None:
    response = demo_api.http.post(
        "/campaigns/search",
        content=b"auth_token=\xff\xfe",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 400
    assert response.json() == {"success": False, "error": "Malformed request body"}
