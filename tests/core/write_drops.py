"""A transport that loses every answer to one write endpoint (``/sms-opt-out/update`` …)
through the sandbox's own drop fault (the write is done, its answer cut off), or that breaks
the connection before the service gets the request at all (nothing done); shared by the tests
of an add or edit whose last attempt got no answer, settled by a look-up (black-box bb10 F6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

SEARCHES = ("/dnc/search", "/sms-opt-out/search")


class SandboxDropsWrites(httpx.BaseTransport):
    """Forwards to the sandbox, with its drop fault on for each request to ``path`` (every
    attempt's answer lost, so the write ends in an error); ``reach=False``: those requests
    never reach the service. ``after_drop(request)`` may answer each search after the first
    drop (None: forward)."""

    def __init__(
        self,
        sandbox: Any,
        path: str,
        *,
        reach: bool = True,
        after_drop: Callable[[httpx.Request], httpx.Response | None] | None = None,
    ) -> None:
        self.inner = httpx.HTTPTransport()
        self.sandbox = sandbox
        self.path = path
        self.reach = reach
        self.after_drop = after_drop
        self.dropped = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if self.dropped and self.after_drop is not None and path.endswith(SEARCHES):
            answer = self.after_drop(request)
            if answer is not None:
                return answer
        if not path.endswith(self.path):
            return self._forward(request)
        self.dropped += 1
        if not self.reach:
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.")
        self.sandbox.set_faults(drop_rate=1.0)
        try:
            return self._forward(request)
        finally:
            self.sandbox.set_faults(drop_rate=0.0)

    def _forward(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        response.read()
        return response

    def close(self) -> None:
        self.inner.close()


def unavailable(_request: httpx.Request) -> httpx.Response:
    """A search answered HTTP 503: the look-up after the lost answer fails."""
    return httpx.Response(503, text="Service Unavailable")
