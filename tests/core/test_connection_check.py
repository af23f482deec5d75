"""Checking a token with one /campaigns/search call before it is saved."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from app.api import errors
from app.core.connection_check import TokenCheck, check_token
from tests.conftest import LIMITED_TOKEN, READ_ONLY_TOKEN, TOKEN


def test_accepted_token_reports_the_campaigns_it_sees(sandbox: Any) -> None:
    result = check_token(sandbox.base_url, TOKEN)
    assert result == TokenCheck(sandbox.base_url, campaigns=2, active_campaigns=1)
    assert result.summary == "Token accepted: it sees 2 campaigns (1 inactive)."
    assert check_token(sandbox.base_url + "/v1/", READ_ONLY_TOKEN).campaigns == 2
    assert check_token(sandbox.base_url, LIMITED_TOKEN).campaigns == 2


def test_summary_wording() -> None:
    assert TokenCheck("u", 1, 1).summary == "Token accepted: it sees 1 campaign."
    assert TokenCheck("u", 0, 0).summary == "Token accepted: it sees 0 campaigns."


def test_wrong_and_revoked_tokens_are_typed_errors(sandbox: Any) -> None:
    with pytest.raises(errors.AuthInvalidError):
        check_token(sandbox.base_url, "tok-not-a-real-one")
    sandbox.revoke_token(TOKEN)
    with pytest.raises(errors.AuthInvalidError) as info:
        check_token(sandbox.base_url, TOKEN)
    assert TOKEN not in str(info.value) and TOKEN not in repr(info.value)


def test_no_service_is_a_transport_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(errors.TransportError):
        check_token(f"http://127.0.0.1:{port}", TOKEN, timeout=2)
