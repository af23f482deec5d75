"""Fault injection through HTTP: 5xx pages, dropped responses, rate limits, latency."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import httpx
import pytest

from tests.sandbox.conftest import FULL, LIMITED, Api

NUMBER = "2025550143"


def dnc_total(api: Api) -> int:
    return int(api.ok("/dnc/search")["data"]["total"])


def insert_params() -> dict[str, str]:
    return {"phone_number": NUMBER, "phone_code": "1", "campaign_id": "0"}


def test_error_rate_answers_html_5xx_without_applying_writes(api: Api) -> None:
    api.server.set_faults(error_rate=1.0)
    response = api.post("/dnc/insert", **insert_params())
    assert response.status_code in (502, 503)
    assert response.headers["content-type"].startswith("text/html")
    assert response.text.lstrip().startswith("<html>")
    api.server.set_faults(error_rate=0.0)
    assert dnc_total(api) == 0


def test_error_rate_is_a_fraction_of_requests(make_api: Callable[..., Api]) -> None:
    api = make_api(demo=False, error_rate=0.3, seed=7)
    statuses = [api.post("/campaigns/search").status_code for _ in range(100)]
    failures = sum(status >= 500 for status in statuses)
    assert 10 <= failures <= 50
    assert set(statuses) <= {200, 502, 503}


def test_drop_applies_the_write_then_cuts_the_response(api: Api) -> None:
    api.server.set_faults(drop_rate=1.0)
    with pytest.raises(httpx.RemoteProtocolError):
        api.post("/dnc/insert", **insert_params())
    api.server.set_faults(drop_rate=0.0)
    assert dnc_total(api) == 1
    api.fails("/dnc/insert", 6008, 409, **insert_params())


def test_rate_limit_per_token_with_retry_after(api: Api) -> None:
    # 120 per minute: refills 2 per second, bursts of at most 2.
    api.server.set_faults(rate_limit=120)
    assert [api.post("/campaigns/search").status_code for _ in range(2)] == [200, 200]
    response = api.post("/campaigns/search")
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) >= 1
    body = response.json()
    assert body["success"] is False and "code" not in body and body["error"]
    # Buckets are per token.
    assert api.post("/campaigns/search", token=LIMITED).status_code == 200
    time.sleep(0.6)
    assert api.post("/campaigns/search").status_code == 200
    api.server.set_faults(rate_limit=0)
    assert all(api.post("/campaigns/search").status_code == 200 for _ in range(20))


def test_rate_limited_writes_are_not_applied(api: Api) -> None:
    api.server.set_faults(rate_limit=60)
    api.ok("/campaigns/search")
    api.ok("/campaigns/search")
    response = api.post("/dnc/insert", **insert_params())
    assert response.status_code == 429
    api.server.set_faults(rate_limit=0)
    assert dnc_total(api) == 0


def test_a_limit_under_120_a_minute_lets_two_requests_go_together(api: Api) -> None:
    # Under 120 a minute a second holds less than one request; the bucket still holds two, so
    # a client with two requests in flight (a check beside a row) is not refused for it.
    api.server.set_faults(rate_limit=60)
    statuses: list[int] = []
    pair = [
        threading.Thread(target=lambda: statuses.append(api.post("/campaigns/search").status_code))
        for _ in range(2)
    ]
    for thread in pair:
        thread.start()
    for thread in pair:
        thread.join()
    assert statuses == [200, 200]
    third = api.post("/campaigns/search")
    assert third.status_code == 429 and third.headers["Retry-After"] == "1"
    api.server.set_faults(rate_limit=0)


def test_a_limit_of_one_a_minute_lets_one_request_go(api: Api) -> None:
    # Two at once would be twice the limit within its minute.
    api.server.set_faults(rate_limit=1)
    api.ok("/campaigns/search")
    refused = api.post("/campaigns/search")
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
    api.server.set_faults(rate_limit=0)


def test_latency_overlaps_under_concurrency(make_api: Callable[..., Api]) -> None:
    api = make_api(demo=False, latency_ms=300)
    single_start = time.perf_counter()
    api.ok("/campaigns/search")
    assert time.perf_counter() - single_start >= 0.3
    results: list[int] = []
    limits = httpx.Limits(max_connections=8)
    with httpx.Client(base_url=api.server.base_url + "/v1", limits=limits) as client:

        def call() -> None:
            response = client.post("/campaigns/search", data={"auth_token": FULL})
            results.append(response.status_code)

        threads = [threading.Thread(target=call) for _ in range(8)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
    assert results == [200] * 8
    # Serially this would take 8 x 0.3 s; overlapping requests take about one latency.
    assert 0.3 <= elapsed < 1.2


def test_fault_settings_are_validated(api: Api) -> None:
    with pytest.raises(ValueError):
        api.server.set_faults(error_rate=1.5)
    with pytest.raises(ValueError):
        api.server.set_faults(drop_rate=-0.1)


@pytest.mark.parametrize("rate", ["2", "-0.1", "lots"])
def test_a_fault_rate_outside_0_to_1_is_a_bad_argument(rate: str) -> None:
    # Re-test J2: "--error-rate 2" exited 1 ("error_rate must be between 0 and 1") as if the
    # sandbox had failed; it is a bad argument.
    from app.cli.main import main

    with pytest.raises(SystemExit) as exit_info:
        main(["sandbox", "--error-rate", rate, "--port", "0"])
    assert exit_info.value.code == 2
