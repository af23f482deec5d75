"""A transport that loses the answers of ``/dnc/delete`` through the sandbox's own drop fault
(the delete is done, its answer cut off), and a fixture making window-removal sessions over it:
shared by the tests of a lost-answer delete settled by a look-up (commits 0df369b, 8960cb7)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.session import Session

SEARCH = "/dnc/search"


class SandboxDropsDeletes(httpx.BaseTransport):
    """Forwards to the sandbox with its drop fault on for the first ``/dnc/delete`` (``every``:
    for each one); ``after_drop(request)`` may answer or precede each ``/dnc/search`` after
    the first drop (None: forward)."""

    def __init__(
        self,
        sandbox: Any,
        after_drop: Callable[[httpx.Request], httpx.Response | None] | None = None,
        *,
        every: bool = False,
    ) -> None:
        self.inner = httpx.HTTPTransport()
        self.sandbox = sandbox
        self.after_drop = after_drop
        self.every = every
        self.dropped = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if self.dropped and self.after_drop is not None and path.endswith(SEARCH):
            answer = self.after_drop(request)
            if answer is not None:
                return answer
        drop = path.endswith("/dnc/delete") and (self.every or not self.dropped)
        if drop:
            self.sandbox.set_faults(drop_rate=1.0)
        try:
            response = self.inner.handle_request(request)
            response.read()
            return response
        finally:
            if drop:
                self.dropped += 1
                self.sandbox.set_faults(drop_rate=0.0)

    def close(self) -> None:
        self.inner.close()


@pytest.fixture
def make_session(
    wired_api: Any, sandbox: Any, tmp_path: Path
) -> Iterator[Callable[[SandboxDropsDeletes], Session]]:
    journals: list[ChangeJournal] = []

    def make(wire: SandboxDropsDeletes) -> Session:
        journals.append(ChangeJournal(tmp_path / f"journal{len(journals)}.sqlite3"))
        return Session(Connection("Test", sandbox.base_url), wired_api(wire), journals[-1])

    yield make
    for journal in journals:
        journal.close()
