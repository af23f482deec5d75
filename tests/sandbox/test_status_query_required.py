"""Black-box B36 F1: the spec gives /status/search "query (string, required; …)", and the
sandbox took a missing or blank one as "every status", so the app relied on what a service
enforcing the spec refuses. It now refuses it as its other missing parameters are refused: the
spec's failure envelope, message only (the spec lists no code for this endpoint), HTTP 400.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.errors import ApiError
from tests.sandbox.conftest import FULL, Api


@pytest.mark.parametrize("params", [{}, {"query": ""}, {"query": "   "}])
def test_a_missing_or_blank_query_is_refused(demo_api: Api, params: dict[str, str]) -> None:
    body = demo_api.fails("/status/search", None, 400, **params)
    assert body == {"success": False, "error": "Missing required parameter: query"}


def test_a_query_still_matches_code_or_name_case_insensitively(demo_api: Api) -> None:
    assert {s["status"] for s in demo_api.ok("/status/search", query="dnc")["data"]} >= {"DNC"}
    assert [s["status"] for s in demo_api.ok("/status/search", query=" Sale Made ")["data"]] == [
        "SALE"
    ]


def test_the_client_never_sends_a_blank_query(demo_api: Api) -> None:
    with ApiClient(demo_api.server.base_url, FULL) as client:
        for blank in ("", "  "):
            with pytest.raises(ValueError, match="code or name"):
                client.search_statuses(blank)
        assert "DNC" in {s.status for s in client.search_statuses("dnc")}
        # The sandbox's refusal reaches a caller as the service's failure, not as "none".
        with pytest.raises(ApiError, match="Missing required parameter: query"):
            client._read("/status/search", {"query": ""})


def every_status(api: Api) -> list[dict[str, Any]]:
    """Every status the sandbox has, through HTTP without a blank query: each code is
    alphanumeric, so one search a letter and digit finds them all."""
    found: dict[str, dict[str, Any]] = {}
    for char in "abcdefghijklmnopqrstuvwxyz0123456789":
        for status in api.ok("/status/search", query=char)["data"]:
            found[str(status["status"])] = status
    return list(found.values())


def test_every_status_is_found_by_its_characters(demo_api: Api) -> None:
    codes = {str(s["status"]) for s in every_status(demo_api)}
    count = demo_api.server.store.scalar("SELECT count(*) FROM lead_statuses")
    assert {"NEW", "DNC", "A", "B", "DNCREQ"} <= codes and len(codes) == int(count)
