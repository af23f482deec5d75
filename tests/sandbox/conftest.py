"""Sandbox fixtures: servers on free loopback ports, exercised only through HTTP."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from app.sandbox.runner import SandboxServer

FULL = "sbx-full-token"
READ_ONLY = "sbx-read-token"
LIMITED = "sbx-limited-token"


class Api:
    """Form-POSTs to one sandbox, with the full token unless told otherwise."""

    def __init__(self, server: SandboxServer) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.base_url + "/v1", timeout=10.0)

    def post(self, path: str, /, token: str | None = FULL, **params: Any) -> httpx.Response:
        data = {key: str(value) for key, value in params.items()}
        if token is not None:
            data["auth_token"] = token
        return self.http.post(path, data=data)

    def ok(self, path: str, /, token: str | None = FULL, **params: Any) -> Any:
        response = self.post(path, token, **params)
        assert response.status_code == 200, response.text
        return response.json()

    def fails(
        self,
        path: str,
        code: int | None,
        http_status: int,
        /,
        token: str | None = FULL,
        **params: Any,
    ) -> dict[str, Any]:
        """Assert the failure envelope, the endpoint code (or its absence) and the HTTP status."""
        response = self.post(path, token, **params)
        body: dict[str, Any] = response.json()
        assert body["success"] is False, body
        assert isinstance(body["error"], str) and body["error"]
        if code is None:
            assert "code" not in body, body
        else:
            assert body.get("code") == code, body
        assert response.status_code == http_status, (response.status_code, body)
        return body

    def close(self) -> None:
        self.http.close()


def start(**options: Any) -> SandboxServer:
    settings: dict[str, Any] = {
        "token": FULL,
        "read_only_token": READ_ONLY,
        "limited_token": LIMITED,
    }
    settings.update(options)
    return SandboxServer(**settings).start()


@pytest.fixture(scope="package")
def demo_api() -> Iterator[Api]:
    """A demo-data sandbox shared by all sandbox tests; they must not change its data."""
    server = start(demo=True)
    api = Api(server)
    yield api
    api.close()
    server.stop()


@pytest.fixture
def make_api() -> Iterator[Callable[..., Api]]:
    """Fresh sandboxes for tests whose writes must not leak; stopped after the test."""
    created: list[Api] = []

    def make(**options: Any) -> Api:
        api = Api(start(**options))
        created.append(api)
        return api

    yield make
    for api in created:
        api.close()
        api.server.stop()


@pytest.fixture(scope="package")
def empty_server() -> Iterator[SandboxServer]:
    server = start(demo=False)
    yield server
    server.stop()


@pytest.fixture
def api(empty_server: SandboxServer) -> Iterator[Api]:
    """An empty sandbox (system lead statuses only), wiped before each test.

    Reusing one server and resetting its data is much faster than a server per test.
    """
    empty_server.reset_demo_data()
    empty_server.set_faults(latency_ms=0, error_rate=0, drop_rate=0, rate_limit=0)
    api = Api(empty_server)
    yield api
    api.close()


@pytest.fixture
def campaign(api: Api) -> str:
    return api.server.seed_campaign("Test Campaign One")
