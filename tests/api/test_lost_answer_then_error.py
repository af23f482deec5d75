"""A write whose first answer was lost and whose retry then failed says the service may have
done it (``ApiError.earlier_attempt_lost`` and the error's text).

Mock transports: the sandbox cannot be told to drop exactly the first answer and fail exactly
the retry (its faults are random per request), so the sequence of answers is scripted here.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from app.api import errors
from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from tests.conftest import TOKEN

QUICK = RetryPolicy(attempts=4, base_delay=0.001, max_delay=0.002)
LOST = errors.EARLIER_ATTEMPT_LOST
OK_INSERT = b'{"success": true, "id": 7}'

Step = Callable[[httpx.Request], httpx.Response]


def _drop(request: httpx.Request) -> httpx.Response:
    # The request went out; the connection died before the answer (what the sandbox's drop does).
    raise httpx.RemoteProtocolError("Server disconnected without sending a response.")


def _timeout(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("timed out", request=request)


def _refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("Connection refused", request=request)


def _status(code: int) -> Step:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(code, content=b"<html>Service Temporarily Unavailable</html>")

    return answer


def _json(status: int, body: bytes) -> Step:
    return lambda request: httpx.Response(
        status, content=body, headers={"content-type": "application/json"}
    )


def scripted(*steps: Step) -> tuple[httpx.MockTransport, list[str]]:
    """A transport answering each request with the next step; the last step repeats."""
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        return steps[min(len(seen), len(steps)) - 1](request)

    return httpx.MockTransport(handler), seen


def client(transport: httpx.MockTransport, retry: RetryPolicy = QUICK) -> ApiClient:
    return ApiClient("http://127.0.0.1:9", TOKEN, http_transport=transport, retry=retry)


@pytest.mark.parametrize("lose", [_drop, _timeout], ids=["dropped", "timeout"])
def test_insert_answer_lost_then_503_carries_the_flag(lose: Step) -> None:
    transport, seen = scripted(lose, _status(503))
    with client(transport, RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.002)) as api:
        with pytest.raises(errors.ServerError) as info:
            api.insert_dnc("2025550123", "1", Scope.global_())
    exc = info.value
    assert seen == ["/v1/dnc/insert", "/v1/dnc/insert"]
    assert exc.earlier_attempt_lost is True
    assert exc.attempts == 2 and exc.http_status == 503
    # str() is what the change journal records; describe() is what a job row says.
    for text in (str(exc), exc.describe()):
        assert "the service failed with HTTP 503" in text
        assert text.endswith(f"; {LOST}"), text
    assert LOST == (
        "an earlier attempt got no answer saying whether it was done, so the service may have "
        "done it"
    )


def test_flag_survives_later_5xx_retries_until_attempts_run_out() -> None:
    transport, seen = scripted(_drop, _status(502), _status(503))
    with client(transport) as api:
        with pytest.raises(errors.ServerError) as info:
            api.delete_dnc("2025550123", "1", Scope.global_(), not_found_ok=True)
    assert len(seen) == 4
    assert info.value.earlier_attempt_lost and info.value.attempts == 4
    assert LOST in str(info.value)


def test_answer_lost_then_a_refusal_of_the_value_carries_the_flag() -> None:
    # Any error after a lost answer, not only a 5xx: the first attempt may have been done.
    refusal = b'{"success": false, "error": "insert failed", "code": 6056}'
    transport, _ = scripted(_drop, _json(200, refusal))
    with client(transport) as api:
        with pytest.raises(errors.ServiceError) as info:
            api.insert_dnc("2025550123", "1", Scope.global_())
    assert info.value.earlier_attempt_lost
    assert str(info.value) == f"/dnc/insert: code 6056 (insert failed), insert failed; {LOST}"


def test_answer_lost_then_connection_refused_says_it_was_maybe_done() -> None:
    # The last attempt never left, but the first one did: the no-answer error must say so.
    transport, _ = scripted(_drop, _refused)
    with client(transport) as api:
        with pytest.raises(errors.TransportError) as info:
            api.insert_dnc("2025550123", "1", Scope.global_())
    exc = info.value
    assert exc.sent is False and exc.earlier_attempt_lost
    assert "cannot connect to" in str(exc) and str(exc).endswith(f"; {LOST}")


def test_every_answer_lost_keeps_todays_text() -> None:
    # The last attempt's own answer was lost: the flag is set, but the job runner already
    # words a sent request's lost answer, so the error's text is not changed.
    transport, _ = scripted(_drop)
    with client(transport) as api:
        with pytest.raises(errors.TransportError) as info:
            api.insert_dnc("2025550123", "1", Scope.global_())
    exc = info.value
    assert exc.sent and exc.earlier_attempt_lost and exc.attempts == 4
    assert str(exc) == "/dnc/insert: the connection to http://127.0.0.1:9 broke before the " + (
        "answer came (RemoteProtocolError)"
    )


def test_one_503_keeps_todays_message() -> None:
    transport, seen = scripted(_status(503))
    with client(transport, RetryPolicy(attempts=1)) as api:
        with pytest.raises(errors.ServerError) as info:
            api.insert_dnc("2025550123", "1", Scope.global_())
    exc = info.value
    assert len(seen) == 1 and not exc.earlier_attempt_lost
    assert str(exc) == (
        "/dnc/insert: the service failed with HTTP 503 Service Unavailable and an HTML page"
    )
    assert str(exc) == exc.describe() == exc.args[0]


def test_503s_say_an_earlier_one_may_have_done_it() -> None:
    # Black-box R1 #2: a 5xx says nothing of whether the write was done (a service can fail
    # after it), so the attempts after one are flagged as after a lost answer.
    transport, seen = scripted(_status(503))
    with client(transport) as api:
        with pytest.raises(errors.ServerError) as info:
            api.insert_dnc("2025550123", "1", Scope.global_())
    exc = info.value
    assert len(seen) == 4 and exc.earlier_attempt_lost
    assert str(exc) == (
        f"/dnc/insert: the service failed with HTTP 503 Service Unavailable and an HTML page; "
        f"{LOST}"
    )


def test_connection_refused_then_503_is_not_flagged() -> None:
    # A refused connection provably never reached the service: nothing may have been done.
    transport, _ = scripted(_refused, _refused, _refused, _status(503))
    with client(transport) as api:
        with pytest.raises(errors.ServerError) as info:
            api.insert_dnc("2025550123", "1", Scope.global_())
    assert not info.value.earlier_attempt_lost
    assert LOST not in str(info.value)


def test_a_read_is_never_flagged() -> None:
    transport, _ = scripted(_drop, _status(503))
    with client(transport) as api:
        with pytest.raises(errors.ServerError) as info:
            api.search_dnc(DncQuery())
    assert not info.value.earlier_attempt_lost
    assert LOST not in str(info.value)


def test_answer_lost_then_success_is_unchanged() -> None:
    transport, _ = scripted(_drop, _json(200, OK_INSERT))
    with client(transport) as api:
        result = api.insert_dnc("2025550123", "1", Scope.global_())
    assert result.id == "7" and result.attempts == 2 and result.retried
