"""Fault injection: latency, proxy-style 5xx answers, dropped connections and rate limiting.

Implemented as plain ASGI middleware so a dropped response can be cut off mid-body, which is
what a client sees when a real connection dies after the server has acted on the request.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import threading
import time
from typing import Any
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.sandbox.endpoints import failure
from app.sandbox.errors import ApiError

RATE_LIMITED = "Rate limit exceeded; retry later"

# uvicorn logs this when a response is left incomplete, which is exactly what a drop does on
# purpose; filtering it keeps intentional faults out of the logs.
_INCOMPLETE_RESPONSE = "ASGI callable returned without completing response."

_ERROR_PAGES = {
    502: "Bad Gateway",
    503: "Service Temporarily Unavailable",
}


class _DropNoticeFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != _INCOMPLETE_RESPONSE


def quiet_intentional_drops() -> None:
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(existing, _DropNoticeFilter) for existing in logger.filters):
        logger.addFilter(_DropNoticeFilter())


def burst_capacity(per_minute: int) -> int:
    """Requests a token may send at once under ``per_minute``: a second's worth, at least 2.

    A second's worth keeps a client from bursting far beyond the steady rate. The floor of 2
    is for limits under 120 a minute, where a second holds less than one request: a bucket of
    one refused any two requests sent together (concurrency 2, a check beside a row) however
    far under the limit, and a client spacing its requests exactly 60/N s apart whenever one
    arrived a hair early. Never more than ``per_minute``: two at once under a limit of one a
    minute would be twice the limit.
    """
    return min(per_minute, max(2, per_minute // 60))


class TokenBuckets:
    """Per-token token buckets: refill at ``per_minute / 60`` per second, hold
    :func:`burst_capacity` tokens."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self.rate = per_minute / 60.0
        self.capacity = float(burst_capacity(per_minute))
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str, now: float) -> float:
        """Take one token; return 0 on success, else the seconds until one is available."""
        with self._lock:
            tokens, last = self._buckets.get(key, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate


class FaultSettings:
    """Runtime-adjustable fault levels; rates are fractions of requests from 0 to 1.

    Setting ``rate_limit`` (requests per minute per token, 0 disables) starts fresh buckets, so
    a new limit never inherits the debts of an old one.
    """

    def __init__(self) -> None:
        self.latency_ms = 0.0
        self.error_rate = 0.0
        self.drop_rate = 0.0
        self.limiter: TokenBuckets | None = None
        # Requests being answered now, and the most at once since the start: what a client's
        # bound on requests in flight looks like from the service's side.
        self.in_flight = 0
        self.most_in_flight = 0

    @property
    def rate_limit(self) -> int:
        return 0 if self.limiter is None else self.limiter.per_minute

    @rate_limit.setter
    def rate_limit(self, per_minute: int) -> None:
        self.limiter = TokenBuckets(per_minute) if per_minute > 0 else None


class FaultInjector:
    """ASGI middleware applying :class:`FaultSettings` to every HTTP request."""

    def __init__(self, app: ASGIApp, settings: FaultSettings, seed: int) -> None:
        self.app = app
        self.settings = settings
        self.random = random.Random(seed)

    def _chance(self, rate: float) -> bool:
        return rate > 0 and self.random.random() < rate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        settings = self.settings
        settings.in_flight += 1  # one event loop: no lock needed
        settings.most_in_flight = max(settings.most_in_flight, settings.in_flight)
        try:
            await self._answer(settings, scope, receive, send)
        finally:
            settings.in_flight -= 1

    async def _answer(
        self, settings: FaultSettings, scope: Scope, receive: Receive, send: Send
    ) -> None:
        if settings.latency_ms > 0:
            await asyncio.sleep(settings.latency_ms / 1000.0)
        limiter = settings.limiter
        if limiter is not None:
            body, receive = await _buffered(receive)
            wait = limiter.take(_auth_token(scope, body), time.monotonic())
            if wait > 0:
                retry_after = str(max(1, math.ceil(wait)))
                error = ApiError(RATE_LIMITED, None, 429, {"Retry-After": retry_after})
                await failure(error)(scope, receive, send)
                return
        if self._chance(settings.error_rate):
            await _error_page(send, self.random.choice(sorted(_ERROR_PAGES)))
            return
        if self._chance(settings.drop_rate):
            await self.app(scope, receive, _dropping(send))
            return
        await self.app(scope, receive, send)


async def _buffered(receive: Receive) -> tuple[bytes, Receive]:
    """Read the whole request body and return it with a ``receive`` that replays it."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return body, replay


def _auth_token(scope: Scope, body: bytes) -> str:
    """The request's token for bucketing; unparseable bodies share the anonymous bucket."""
    query: dict[str, list[str]] = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    with contextlib.suppress(UnicodeDecodeError):
        query.update(parse_qs(body.decode("utf-8")))
    values = query.get("auth_token") or [""]
    return values[-1]


async def _error_page(send: Send, status: int) -> None:
    title = f"{status} {_ERROR_PAGES[status]}"
    body = (
        f"<html>\r\n<head><title>{title}</title></head>\r\n<body>\r\n"
        f"<center><h1>{title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/html"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _dropping(send: Send) -> Send:
    """A ``send`` that passes the headers and half the body, then goes silent.

    The response is left incomplete, so the server closes the connection and the client reads
    fewer bytes than the announced content-length.
    """
    cut = False

    async def wrapped(message: Message) -> None:
        nonlocal cut
        if cut:
            return
        if message["type"] == "http.response.start":
            await send(message)
            return
        if message["type"] == "http.response.body":
            cut = True
            body: Any = message.get("body", b"")
            await send(
                {"type": "http.response.body", "body": body[: len(body) // 2], "more_body": True}
            )

    return wrapped
