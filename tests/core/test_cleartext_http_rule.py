"""Black-box R5 #9: the one rule, in core and in the client itself: no token over plain http://
to a host that is not this machine (loopback: 127.0.0.0/8, ::1, localhost)."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, CleartextRefused
from app.api.errors import LimitError
from app.core.connection_check import check_token
from app.core.connections import (
    Connection,
    ConnectionConfigError,
    ConnectionStore,
    cleartext_problem,
    connection_url_problem,
)
from tests.conftest import TOKEN


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000",
        "http://127.9.8.7/v1",
        "http://[::1]:8765",
        "http://localhost:8000",
        "HTTP://LOCALHOST",
        "http://app.localhost",
        "https://192.0.2.2:18682",
        "https://dialer.example.com",
    ],
)
def test_this_computer_or_https_is_allowed(url: str) -> None:
    assert cleartext_problem(url) is None
    assert connection_url_problem(url) is None


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("http://192.0.2.2:18682", "192.0.2.2"),
        ("http://10.0.0.5", "10.0.0.5"),
        ("HTTP://Dialer.Example.com/v1/", "dialer.example.com"),
        ("http://0.0.0.0:8000", "0.0.0.0"),
        ("http://127.0.0.1.nip.io", "127.0.0.1.nip.io"),
        ("http://localhost.example.com", "localhost.example.com"),
        ("http://[2001:db8::1]:8080", "2001:db8::1"),
    ],
)
def test_plain_http_to_another_host_is_refused_in_one_sentence(url: str, host: str) -> None:
    problem = cleartext_problem(url)
    assert problem == (
        f"Plain http:// to {host} would send the API token unencrypted across the network: "
        "use the service's https:// address (http:// is only for a test service on this "
        "computer: localhost, 127.0.0.1 or ::1)."
    )
    assert connection_url_problem(url) == problem


def test_such_a_connection_is_not_saved(tmp_path: Path) -> None:
    store = ConnectionStore(tmp_path / "connections.json")
    with pytest.raises(ConnectionConfigError, match=r"Plain http:// to 192\.0\.2\.2 would"):
        store.save(Connection("Lab", "http://192.0.2.2:18682"))
    assert not (tmp_path / "connections.json").exists()
    store.save(Connection("Local", "http://127.0.0.1:18682"))
    assert [c.name for c in store.list()] == ["Local"]


def test_one_saved_before_the_rule_is_still_listed_so_it_can_be_changed(tmp_path: Path) -> None:
    path = tmp_path / "connections.json"
    entries = [{"name": "Lab", "base_url": "http://192.0.2.9:18682"}]
    path.write_text(json.dumps({"version": 1, "active": "Lab", "connections": entries}))
    store = ConnectionStore(path)
    assert store.active == Connection("Lab", "http://192.0.2.9:18682")
    store.save(Connection("Lab", "https://192.0.2.9:18443"))
    assert ConnectionStore(path).active == Connection("Lab", "https://192.0.2.9:18443")


@pytest.fixture
def connects(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    made: list[tuple[Any, ...]] = []

    def refuse(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        made.append(tuple(address))
        raise ConnectionRefusedError("refused by the test")

    monkeypatch.setattr(socket, "create_connection", refuse)
    return made


def test_the_client_itself_refuses_before_anything_is_sent(
    connects: list[tuple[Any, ...]],
) -> None:
    # Whoever builds a client (the window opening a saved connection, a token check) is
    # refused, and the refusal is one a person reads as "not sent".
    with pytest.raises(CleartextRefused) as caught:
        ApiClient("http://192.0.2.9:18682", TOKEN)
    assert isinstance(caught.value, LimitError)
    assert caught.value.host == "192.0.2.9"
    assert "use the service's https:// address" in caught.value.message
    with pytest.raises(CleartextRefused):
        check_token("http://192.0.2.9:18682", TOKEN)
    assert connects == []


def test_the_client_still_reaches_the_sandbox_over_loopback_http(sandbox: Any) -> None:
    assert sandbox.base_url.startswith("http://127.0.0.1:")
    assert check_token(sandbox.base_url, TOKEN).campaigns > 0
