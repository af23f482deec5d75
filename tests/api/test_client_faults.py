"""Retries, faults and token secrecy, against the sandbox's fault injection over loopback.

Mock transports appear only for answers the sandbox cannot produce (an empty 200 body).
"""

from __future__ import annotations

import logging
import threading
import traceback
from typing import Any

import httpx
import pytest

from app.api import errors
from app.api.client import ApiClient, DncQuery
from app.api.concurrency import bounded_map
from app.api.models import WriteStatus
from app.api.scope import Scope
from app.api.transport import NO_RETRY, RequestPacer, RetryPolicy
from tests.conftest import TOKEN

FAST_RETRY = RetryPolicy(attempts=8, base_delay=0.01, max_delay=0.05)


def test_reads_survive_server_errors(make_sandbox: Any) -> None:
    server = make_sandbox(demo=True)
    server.set_faults(error_rate=0.5)
    with ApiClient(server.base_url, TOKEN, retry=FAST_RETRY) as api:
        for _ in range(10):
            assert api.campaigns()
        # Half the requests failed, so retries must have happened.
        assert api.requests_sent > 10


def test_server_error_page_is_a_clear_error(make_sandbox: Any) -> None:
    server = make_sandbox()
    server.set_faults(error_rate=1.0)
    with ApiClient(server.base_url, TOKEN, retry=NO_RETRY) as api:
        with pytest.raises(errors.ServerError) as info:
            api.campaigns()
    text = str(info.value)
    assert "/campaigns/search" in text and "HTTP 5" in text and "HTML page" in text


def test_empty_body_is_a_clear_error() -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=b""))
    with ApiClient("http://127.0.0.1:9", TOKEN, http_transport=transport, retry=NO_RETRY) as api:
        with pytest.raises(errors.ServerError) as info:
            api.campaigns()
    assert "empty body" in str(info.value)


def test_dropped_inserts_are_retried_and_each_number_lands_once(make_sandbox: Any) -> None:
    server = make_sandbox()
    server.set_faults(drop_rate=0.3)
    numbers = [f"20255501{i:02d}" for i in range(60)]
    outcomes: dict[str, WriteStatus] = {}
    with ApiClient(server.base_url, TOKEN, retry=FAST_RETRY) as api:
        for done in bounded_map(
            lambda n: api.insert_dnc(n, "1", Scope.global_()), numbers, concurrency=8
        ):
            assert done.error is None, done.error
            assert done.result is not None
            outcomes[done.item] = done.result.status
            if done.result.status is WriteStatus.ALREADY_PRESENT:
                # Every number is new, so "already present" can only answer a retry.
                assert done.result.retried
        # A drop happens after the insert is applied, so some retries find it present.
        assert WriteStatus.ALREADY_PRESENT in set(outcomes.values())
        server.set_faults(drop_rate=0.0)
        stored = [e.phone_number for e in api.iter_dnc()]
    assert sorted(stored) == sorted(numbers)


def test_non_idempotent_write_is_not_retried_after_a_drop(make_sandbox: Any) -> None:
    server = make_sandbox()
    camp = server.seed_campaign("Drop Test Campaign")
    with ApiClient(server.base_url, TOKEN, retry=FAST_RETRY) as api:
        list_id = api.insert_list("Drop test list", camp)
        server.set_faults(drop_rate=1.0)
        with pytest.raises(errors.TransportError):
            api.insert_lead(list_id, "2025550123")
        sent = api.requests_sent
        server.set_faults(drop_rate=0.0)
        # Exactly one request went out for the insert (no retry that could duplicate it).
        assert sent == 2
        assert len(api.search_leads({"list_id": list_id}).items) == 1


def test_rate_limit_429_is_retried(make_sandbox: Any) -> None:
    server = make_sandbox(demo=True)
    server.set_faults(rate_limit=600)  # 10 per second, small burst
    with ApiClient(
        server.base_url, TOKEN, retry=RetryPolicy(attempts=10, base_delay=0.05, max_delay=0.5)
    ) as api:
        results = list(bounded_map(lambda _: api.campaigns(), range(40), concurrency=8))
    assert all(r.error is None for r in results)
    assert api.requests_sent > 40  # some were answered 429 and sent again


def test_rate_limit_error_without_retries_carries_retry_after(make_sandbox: Any) -> None:
    server = make_sandbox(demo=True)
    server.set_faults(rate_limit=60)
    with ApiClient(server.base_url, TOKEN, retry=NO_RETRY) as api:
        caught: list[errors.RateLimitedError] = []
        for _ in range(5):
            try:
                api.campaigns()
            except errors.RateLimitedError as exc:
                caught.append(exc)
    assert caught and caught[0].retry_after is not None and caught[0].http_status == 429


def test_timeout_is_a_transport_error(make_sandbox: Any) -> None:
    server = make_sandbox()
    server.set_faults(latency_ms=600)
    with ApiClient(server.base_url, TOKEN, timeout=0.15, retry=NO_RETRY) as api:
        with pytest.raises(errors.TransportError) as info:
            api.campaigns()
    assert info.value.timeout is True
    assert "within the timeout" in str(info.value)


def test_connection_refused_is_a_transport_error() -> None:
    with ApiClient("http://127.0.0.1:9", TOKEN, retry=NO_RETRY) as api:
        with pytest.raises(errors.TransportError) as info:
            api.campaigns()
    assert info.value.sent is False and "cannot connect" in str(info.value)


def test_sixteen_requests_in_flight_over_one_pool(make_sandbox: Any) -> None:
    server = make_sandbox()
    server.set_faults(latency_ms=150)
    lock = threading.Lock()
    in_flight = peak = 0

    def call(n: int) -> None:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        try:
            api.insert_dnc(f"20255502{n:02d}", "1", Scope.global_())
        finally:
            with lock:
                in_flight -= 1

    with ApiClient(server.base_url, TOKEN) as api:
        results = list(bounded_map(call, range(48), concurrency=16))
        assert api.search_dnc(DncQuery()).total == 48
    assert all(r.error is None for r in results)
    assert peak == 16


def test_bounded_map_stop_leaves_the_rest_unstarted() -> None:
    stop = threading.Event()
    started: list[int] = []

    def work(n: int) -> int:
        started.append(n)
        if n == 5:
            stop.set()
        return n

    done = list(bounded_map(work, range(1000), concurrency=2, stop=stop))
    assert len(done) == len(started) < 20


def test_pacer_spaces_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    slept: list[float] = []
    monkeypatch.setattr("app.api.transport.time.monotonic", lambda: clock[0])

    def fake_sleep(seconds: float, cancel: object) -> None:
        slept.append(seconds)

    monkeypatch.setattr("app.api.transport._sleep", fake_sleep)
    pacer = RequestPacer(per_minute=120)  # one every 0.5 s
    for _ in range(4):
        pacer.wait()
    assert slept == pytest.approx([0.5, 1.0, 1.5], abs=0.01)
    # Never N+1 in a closed minute (black-box finding: 91 inserts in 60 s under a cap of 90):
    # the 121st request of a 120/min pace comes after the first's minute has passed.
    assert pacer.interval * 120 > 60.0


def test_token_never_in_logs_errors_or_reprs(
    make_sandbox: Any, caplog: pytest.LogCaptureFixture
) -> None:
    server = make_sandbox()
    caplog.set_level(logging.DEBUG)
    texts: list[str] = []
    with ApiClient(server.base_url, TOKEN, retry=FAST_RETRY) as api:
        texts.append(repr(api))
        api.insert_dnc("2025550111", "1", Scope.global_())
        for call in (
            lambda: api.insert_dnc("bad", "1", Scope.global_()),
            lambda: api.update_dnc("999999", reason="x"),
            lambda: api.search_dnc(limit=5000),
        ):
            try:
                call()
            except errors.ApiError as exc:
                texts += [str(exc), repr(exc), "".join(traceback.format_exception(exc))]
        server.set_faults(error_rate=1.0)
        try:
            api.campaigns()
        except errors.ApiError as exc:
            texts += [str(exc), repr(exc), "".join(traceback.format_exception(exc))]
        server.revoke_token(TOKEN)
        server.set_faults(error_rate=0.0)
        try:
            api.campaigns()
        except errors.AuthInvalidError as exc:
            texts += [str(exc), repr(exc), "".join(traceback.format_exception(exc))]
    texts.append(caplog.text)
    assert any("httpx" in r.name or "httpcore" in r.name for r in caplog.records)
    for text in texts:
        assert TOKEN not in text
