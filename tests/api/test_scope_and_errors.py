"""Pure tests of Scope parsing and of how failure envelopes become typed errors."""

from __future__ import annotations

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.api import errors
from app.api.limits import DNC_SEARCH, LEADS_SEARCH
from app.api.scope import Scope, ScopeError, ScopeKind
from app.api.transport import decode_response, encode_params


@given(st.integers(min_value=1, max_value=10**9))
def test_campaign_scope_round_trips(cid: int) -> None:
    scope = Scope.campaign(cid)
    assert Scope.parse(str(scope)) == scope
    assert Scope.from_api(scope.api_campaign_id) == scope


@given(st.text(min_size=1).filter(lambda t: t.strip() != "" and t == t.strip()))
def test_purpose_scope_round_trips(text: str) -> None:
    scope = Scope.purpose(text)
    assert Scope.parse(str(scope)) == scope
    assert Scope.from_api("-1", text) == scope


def test_api_encoding_of_scopes() -> None:
    assert Scope.global_().api_campaign_id == "0"
    assert Scope.purpose("Collections").api_campaign_id == "-1"
    assert Scope.from_api("0").kind is ScopeKind.GLOBAL
    assert Scope.from_api(0).kind is ScopeKind.GLOBAL
    assert Scope.from_api("1001").label("Spring") == "Spring"
    assert Scope.global_().label() == "Global"
    for bad in ("", "purpose:", "campaign:abc", "campaign:0", "everything"):
        with pytest.raises(ScopeError):
            Scope.parse(bad)


def test_params_encoding() -> None:
    assert encode_params({"a": True, "b": False, "c": None, "d": 3}) == {
        "a": "true",
        "b": "false",
        "d": "3",
    }


@pytest.mark.parametrize(
    ("path", "code", "cls", "field"),
    [
        ("/dnc/insert", 6008, errors.ConflictError, "phone_number"),
        ("/dnc/insert", 6026, errors.ValidationError, "campaign_id"),
        ("/dnc/search", 6008, errors.ValidationError, ""),
        ("/dnc/delete", 6001, errors.NotFoundError, "phone_number"),
        ("/dnc/delete", 6005, errors.ValidationError, "lead_status"),
        ("/dnc/insert", 6056, errors.ServiceError, ""),
        ("/status/insert", 6065, errors.ValidationError, "dnc"),
        ("/status/update", 6077, errors.ValidationError, "voicemail"),
        ("/sms-opt-out/update", 6059, errors.ConflictError, "phone_number"),
    ],
)
def test_codes_are_endpoint_scoped(path: str, code: int, cls: type, field: str) -> None:
    exc = errors.error_from_failure(path, "server words", code, 400)
    assert type(exc) is cls
    assert exc.field == field
    assert exc.meaning == errors.CODES[(path, code)].meaning
    assert f"code {code}" in str(exc) and "server words" in str(exc)


@pytest.mark.parametrize(
    ("message", "cls"),
    [
        ("Missing authentication token", errors.AuthMissingError),
        ("Invalid or expired authentication token", errors.AuthInvalidError),
        ("Invalid authentication token", errors.AuthInvalidError),
        ("Insufficient permissions for this operation", errors.PermissionDeniedError),
        ("Duplicate status code", errors.ConflictError),
        ("Status not found", errors.NotFoundError),
    ],
)
def test_auth_and_message_only_failures(message: str, cls: type) -> None:
    assert type(errors.error_from_failure("/status/insert", message, None, 400)) is cls


def _response(status: int, body: bytes, ctype: str = "application/json") -> httpx.Response:
    return httpx.Response(
        status,
        content=body,
        headers={"content-type": ctype},
        request=httpx.Request("POST", "http://x/v1/dnc/search"),
    )


def test_decode_html_and_garbage_bodies() -> None:
    with pytest.raises(errors.ServerError, match="HTTP 502 Bad Gateway and an HTML page"):
        decode_response("/dnc/search", _response(502, b"<html>oops</html>", "text/html"))
    with pytest.raises(errors.ServerError, match="not JSON"):
        decode_response("/dnc/search", _response(200, b"\x00\xffnot json", "text/plain"))
    with pytest.raises(errors.ValidationError):
        decode_response(
            "/dnc/search", _response(400, b'{"success": false, "error": "bad", "code": 6057}')
        )
    assert decode_response("/campaigns/search", _response(200, b'{"data": []}')) == {"data": []}


def test_reachable_rows_under_offset_cap() -> None:
    assert DNC_SEARCH.reachable(150_000, 1000) == 101_000
    assert DNC_SEARCH.reachable(5_000, 1000) == 5_000
    assert DNC_SEARCH.reachable(150_000, 300) == 100_200
    assert LEADS_SEARCH.reachable(10**7, 2000) == 10**7
