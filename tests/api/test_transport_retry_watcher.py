"""What the CLI's checks before a start take from the transport (black-box W5 #1): a policy
that does not send again a request left unanswered, and a watcher told of every attempt.

The checks count unanswered requests themselves (they give up on a silent service sooner than
a job does) and leave every other retry, HTTP 429's included, to the transport, so a 429 is
waited out by the job's rule; their notices need each attempt's end, a retry's inside one call
included. A mock wire scripts the service's answers; the policy's waits are tiny.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from app.api.errors import ApiError, RateLimitedError, TransportError
from app.api.transport import RetryPolicy, Transport
from tests.conftest import TOKEN

URL = "http://127.0.0.1:9"
PATH = "/campaigns/search"

Step = Callable[[httpx.Request], httpx.Response]


def _policy(resend_unanswered: bool = True) -> RetryPolicy:
    return RetryPolicy(
        attempts=4,
        base_delay=0.001,
        max_delay=0.002,
        rate_limit_base=0.001,
        rate_limit_max=0.002,
        rate_limit_patience=60.0,
        resend_unanswered=resend_unanswered,
    )


def _ok(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"success": True, "data": []}, request=request)


def _too_many(request: httpx.Request) -> httpx.Response:
    return httpx.Response(429, json={"success": False, "error": "slow down"}, request=request)


def _failing(request: httpx.Request) -> httpx.Response:
    return httpx.Response(503, text="<html>down</html>", request=request)


def _timeout(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("no answer", request=request)


def _refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


class Script(httpx.BaseTransport):
    """Answers each request with the next step, the last one repeated."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.requests = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        step = self.steps[min(self.requests, len(self.steps) - 1)]
        self.requests += 1
        return step(request)


class Watch:
    """An AttemptWatcher that writes down what it is told."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def sent(self, url: str) -> None:
        self.seen.append(f"sent {url}")

    def ended(self, error: ApiError | None) -> None:
        self.seen.append("answered" if error is None else type(error).__name__)


def _transport(wire: Script, policy: RetryPolicy) -> Transport:
    return Transport(URL, TOKEN, retry=policy, http_transport=wire)


def test_a_read_left_unanswered_is_raised_at_once_when_the_policy_says_so() -> None:
    wire = Script(_timeout, _ok)
    transport = _transport(wire, _policy(resend_unanswered=False))
    with pytest.raises(TransportError) as info:
        transport.call(PATH, idempotent=True)
    assert info.value.sent and info.value.attempts == 1
    assert wire.requests == 1
    transport.close()


def test_a_read_left_unanswered_is_sent_again_by_default() -> None:
    wire = Script(_timeout, _ok)
    transport = _transport(wire, _policy())
    assert transport.call(PATH, idempotent=True)[1] == 2
    transport.close()


@pytest.mark.parametrize("step", [_refused, _failing, _too_many], ids=["refused", "5xx", "429"])
def test_every_other_failure_is_still_retried_without_resending_unanswered(step: Step) -> None:
    wire = Script(step, step, _ok)
    transport = _transport(wire, _policy(resend_unanswered=False))
    assert transport.call(PATH, idempotent=True)[1] == 3
    transport.close()


def test_the_watcher_is_told_of_every_attempt_a_retrys_included() -> None:
    wire = Script(_too_many, _failing, _ok)
    transport = _transport(wire, _policy())
    watch = Watch()
    transport.watcher = watch
    transport.call(PATH, idempotent=True)
    url = f"sent {URL}/v1{PATH}"
    assert watch.seen == [url, "RateLimitedError", url, "ServerError", url, "answered"]
    transport.close()


def test_a_call_refused_for_the_whole_patience_tells_the_watcher_each_refusal() -> None:
    wire = Script(_too_many)
    policy = RetryPolicy(
        attempts=1, rate_limit_base=0.001, rate_limit_max=0.002, rate_limit_patience=0.05
    )
    transport = _transport(wire, policy)
    watch = Watch()
    transport.watcher = watch
    with pytest.raises(RateLimitedError) as info:
        transport.call(PATH, idempotent=True)
    assert info.value.patience_spent
    assert watch.seen.count("RateLimitedError") == wire.requests > 1
    transport.close()
