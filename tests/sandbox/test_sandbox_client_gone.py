"""A client that hangs up mid-request (a cancelled CLI, a killed process, a timeout) is
ordinary for the sandbox: one quiet line, not a traceback on its stderr (black-box B30 F8)."""

from __future__ import annotations

import logging
import socket
import time
from urllib.parse import urlsplit

import pytest

from app.sandbox.runner import SandboxServer
from tests.sandbox.conftest import FULL, Api


def _hang_up_mid_body(server: SandboxServer, path: str) -> None:
    """POST ``path`` declaring a body longer than the one sent, then close the connection."""
    url = urlsplit(server.base_url)
    assert url.hostname is not None and url.port is not None
    with socket.create_connection((url.hostname, url.port), timeout=5) as conn:
        head = (
            f"POST /v1{path} HTTP/1.1\r\nHost: {url.hostname}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\n"
        )
        conn.sendall(head.encode() + b"auth_token=" + FULL.encode())
        time.sleep(0.2)


def test_a_client_hanging_up_mid_body_leaves_no_traceback(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    _hang_up_mid_body(api.server, "/campaigns/search")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not any(
        "hung up" in r.getMessage() for r in caplog.records
    ):
        time.sleep(0.05)
    sandbox = [r for r in caplog.records if r.name.startswith("app.sandbox")]
    said = [r.getMessage() for r in sandbox]
    assert any("hung up" in m and "/campaigns/search" in m for m in said), said
    assert not [r for r in sandbox if r.exc_info], [r.getMessage() for r in sandbox]
    # The server goes on answering.
    assert api.post("/campaigns/search").status_code == 200
