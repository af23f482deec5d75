"""The transport's connection pools: one per thread (dealt in turn), closed together, and the
request each one sends: form body, headers, timeouts, proxies from the environment."""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from app.api import errors
from app.api.client import ApiClient
from app.api.concurrency import bounded_map
from app.api.scope import Scope
from app.api.transport import NO_RETRY, POOL_SHARDS, Transport
from tests.conftest import TOKEN


def _pool_of_new_thread(transport: Transport) -> httpx.BaseTransport:
    found: list[httpx.BaseTransport] = []
    thread = threading.Thread(target=lambda: found.append(transport._pool()))
    thread.start()
    thread.join()
    return found[0]


def test_each_thread_keeps_its_own_pool_until_every_pool_is_dealt() -> None:
    transport = Transport("http://127.0.0.1:9", TOKEN)
    try:
        mine = transport._pool()
        assert transport._pool() is mine
        others = [_pool_of_new_thread(transport) for _ in range(POOL_SHARDS - 1)]
        assert len({id(p) for p in [mine, *others]}) == POOL_SHARDS
        # The next thread shares the first pool again: the number of pools is bounded.
        assert _pool_of_new_thread(transport) is mine
    finally:
        transport.close()


def test_pools_split_the_connection_limit() -> None:
    small = Transport("http://127.0.0.1:9", TOKEN, max_connections=4)
    try:
        pools = {id(_pool_of_new_thread(small)) for _ in range(8)}
        assert len(pools) == 4
    finally:
        small.close()


def test_close_closes_every_pool_and_refuses_new_threads() -> None:
    transport = Transport("http://127.0.0.1:9", TOKEN)
    pools = [_pool_of_new_thread(transport) for _ in range(3)]
    closed: list[httpx.BaseTransport] = []
    for pool in pools:
        original = pool.close
        pool.close = lambda p=pool, c=original: (closed.append(p), c())[1]  # type: ignore[method-assign]
    transport.close()
    assert closed == pools
    with pytest.raises(RuntimeError):
        _pool_of_new_thread_raising(transport)


def test_a_thread_that_already_has_a_pool_cannot_send_after_close(sandbox: Any) -> None:
    transport = Transport(sandbox.base_url, TOKEN, retry=NO_RETRY)
    transport.call("/campaigns/search", {}, idempotent=True)  # this thread now has a pool
    transport.close()
    # Before: the thread's pool quietly opened a new connection that nothing would close.
    with pytest.raises(RuntimeError, match="closed"):
        transport.call("/campaigns/search", {}, idempotent=True)


def _pool_of_new_thread_raising(transport: Transport) -> None:
    failure: list[BaseException] = []

    def run() -> None:
        try:
            transport._pool()
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def test_a_given_transport_is_the_only_pool_and_sees_the_form_request() -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"success": True, "data": []})

    given = httpx.MockTransport(answer)
    with ApiClient("http://127.0.0.1:9/", TOKEN, http_transport=given, timeout=7.0) as api:
        list(bounded_map(lambda _: api.campaigns(), range(8), concurrency=4))
    assert len(seen) == 8
    request = seen[0]
    assert request.method == "POST"
    assert str(request.url) == "http://127.0.0.1:9/v1/campaigns/search"
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert request.headers["user-agent"].startswith("DNC-Desk/")
    assert request.headers["accept"] == "application/json"
    assert request.extensions["timeout"]["read"] == 7.0
    assert request.extensions["timeout"]["connect"] == 7.0
    form = parse_qs(request.content.decode())
    assert form["auth_token"] == [TOKEN]
    # The token is a form field, never part of the URL.
    assert TOKEN not in str(request.url)


def test_proxy_from_the_environment_is_used_unless_the_host_is_excluded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[Any] = []

    class Recording(httpx.HTTPTransport):
        def __init__(self, **kwargs: Any) -> None:
            made.append(kwargs.get("proxy"))
            super().__init__(**{k: v for k, v in kwargs.items() if k != "proxy"})

    monkeypatch.setattr(httpx, "HTTPTransport", Recording)
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("NO_PROXY", "internal.example")
    for name in ("https_proxy", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    for url in ("https://api.example.com", "https://internal.example"):
        transport = Transport(url, TOKEN)
        transport._pool()
        transport.close()
    assert made == ["http://proxy.example:3128", None]


def test_many_threads_over_the_pools_against_the_sandbox(make_sandbox: Any) -> None:
    server = make_sandbox()
    numbers = [f"20255502{i:02d}" for i in range(64)]
    with ApiClient(server.base_url, TOKEN, retry=NO_RETRY) as api:
        done = list(
            bounded_map(lambda n: api.insert_dnc(n, "1", Scope.global_()), numbers, concurrency=16)
        )
        assert all(d.error is None for d in done)
        assert api.search_dnc(limit=1).total == len(numbers)
        assert api.requests_sent == len(numbers) + 1


def test_a_closed_port_is_a_transport_error_that_was_not_sent() -> None:
    with ApiClient("http://127.0.0.1:9", TOKEN, retry=NO_RETRY, timeout=2.0) as api:
        with pytest.raises(errors.TransportError) as info:
            api.campaigns()
    assert info.value.sent is False


def test_pools_share_one_tls_context(monkeypatch: pytest.MonkeyPatch) -> None:
    # Loading the CA bundle takes ~30 ms: once per pool made a 16-wide start 0.5 s late.
    made: list[object] = []
    original = httpx.create_ssl_context

    def counting(*args: Any, **kwargs: Any) -> Any:
        made.append(object())
        return original(*args, **kwargs)

    monkeypatch.setattr(httpx, "create_ssl_context", counting)
    transport = Transport("https://api.example.com", TOKEN)
    try:
        pools = {id(_pool_of_new_thread(transport)) for _ in range(6)}
    finally:
        transport.close()
    assert len(pools) == 6 and len(made) == 1


def test_a_connection_opening_while_the_client_closes_is_closed_too(
    sandbox: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The ResourceWarning of the UI tests (a dialog's "load campaigns" task still connecting
    # when the session fixture closed the client): httpcore's pool.close() forgets a
    # connection whose socket is still being opened, so the socket was never closed.
    from httpcore._backends.sync import SyncBackend

    opened: list[Any] = []
    connecting, closing = threading.Event(), threading.Event()
    original = SyncBackend.connect_tcp

    def slow_connect(self: SyncBackend, *args: Any, **kwargs: Any) -> Any:
        stream = original(self, *args, **kwargs)
        opened.append(stream)
        connecting.set()
        closing.wait(10)
        return stream

    monkeypatch.setattr(SyncBackend, "connect_tcp", slow_connect)
    transport = Transport(sandbox.base_url, TOKEN, retry=NO_RETRY)
    outcome: list[object] = []

    def send() -> None:
        try:
            outcome.append(transport.call("/campaigns/search", {}, idempotent=True)[1])
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=send)
    worker.start()
    try:
        assert connecting.wait(10)
        transport.close()
    finally:
        closing.set()
        worker.join(10)
    sockets = [stream.get_extra_info("socket") for stream in opened]
    still_open = [sock.fileno() != -1 for sock in sockets]
    for sock in sockets:
        sock.close()
    assert still_open == [False]
    # The request already in flight was answered; the client takes no new ones.
    assert outcome == [1]
    with pytest.raises(RuntimeError, match="closed"):
        transport.call("/campaigns/search", {}, idempotent=True)
