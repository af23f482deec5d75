"""Shared fixtures: sandboxes on loopback, API clients, isolated dirs, an in-memory keyring."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import keyring
import keyring.backend
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# A suite started in the background by a non-interactive shell (`bash scripts/test.sh &`, a
# job runner) inherits SIGINT ignored, and so would every CLI the tests start and then press
# Ctrl+C on: the CLI keeps an ignored SIGINT ignored, as nohup asks, and those jobs ran to
# their end instead of pausing. The tests that start one with SIGINT ignored do so themselves.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Recognisable fake tokens: redaction tests grep logs, files and messages for them.
TOKEN = "tok-full-3f9a2c71d5e8"
READ_ONLY_TOKEN = "tok-read-8b41e07c2a93"
LIMITED_TOKEN = "tok-limited-5d2e9f13b6a0"
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


class CountingTransport(httpx.HTTPTransport):
    """A real HTTP transport that records the path of each request it sends, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.paths: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        return super().handle_request(request)


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A recommended (priority 1) keyring that lives in memory, for tests."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.passwords.pop((service, username), None)


@pytest.fixture(autouse=True)
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the app's config and data dirs at a per-test folder."""
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def _server(**kwargs: Any) -> Any:
    from app.sandbox.runner import SandboxServer

    options: dict[str, Any] = {
        "token": TOKEN,
        "read_only_token": READ_ONLY_TOKEN,
        "limited_token": LIMITED_TOKEN,
    }
    options.update(kwargs)
    return SandboxServer(**options).start()


@pytest.fixture(scope="session")
def demo_sandbox() -> Iterator[Any]:
    """One sandbox with demo data for the whole session. Tests must not change its data."""
    server = _server(demo=True)
    yield server
    server.stop()


@pytest.fixture
def make_sandbox() -> Iterator[Callable[..., Any]]:
    """Factory for fresh sandboxes (empty by default); all are stopped after the test."""
    started: list[Any] = []

    def factory(**kwargs: Any) -> Any:
        kwargs.setdefault("demo", False)
        server = _server(**kwargs)
        started.append(server)
        return server

    yield factory
    for server in started:
        server.stop()


@pytest.fixture
def sandbox(make_sandbox: Callable[..., Any]) -> Any:
    """A fresh, empty sandbox with two campaigns (one inactive) for tests that write."""
    server = make_sandbox()
    server.seed_campaign("Spring Renewals", active=True)
    server.seed_campaign("Old Winback", active=False)
    return server


@pytest.fixture
def api(sandbox: Any) -> Iterator[Any]:
    from app.api.client import ApiClient

    with ApiClient(sandbox.base_url, TOKEN) as client:
        yield client


@pytest.fixture
def wired_api(sandbox: Any) -> Iterator[Callable[[httpx.BaseTransport], Any]]:
    """``make(wire)``: an API client of the sandbox whose requests go through ``wire`` (a
    transport cutting or scripting the service's answers), with quick retries; each is
    closed after the test."""
    from app.api.client import ApiClient
    from app.api.transport import RetryPolicy

    clients: list[Any] = []

    def make(wire: httpx.BaseTransport) -> Any:
        client = ApiClient(
            sandbox.base_url,
            TOKEN,
            http_transport=wire,
            retry=RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01),
        )
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def demo_api(demo_sandbox: Any) -> Iterator[Any]:
    from app.api.client import ApiClient

    with ApiClient(demo_sandbox.base_url, TOKEN) as client:
        yield client


# What an already-present row this job may have inserted says of the entry its look-up found
# (import_job.FOUND_ENTRY, after "; "): the service's clock makes its date differ run to run.
_ENTRY_FOUND = re.compile(r"; entry \d+ found, inserted [0-9: -]+ by the service's clock")


def without_entry_found(message: str) -> str:
    """``message`` less the entry its look-up found (see :data:`_ENTRY_FOUND`)."""
    return _ENTRY_FOUND.sub("", message, count=1)
