"""For tests of removals that re-status leads: a transport to the sandbox that records each
request's path and can answer ``/leads/search`` itself (the one fault the sandbox cannot
produce alone), a session through it, and leads seeded with a status."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

from app.api.client import ApiClient
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN

LEADS_SEARCH = "/v1/leads/search"


class Forwarding(httpx.BaseTransport):
    """Sends every request to the sandbox, recording its path; ``fail`` (when set) answers the
    ``/leads/search`` requests instead (a response, or an exception to raise)."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.paths: list[str] = []
        self.fail: Callable[[httpx.Request], httpx.Response] | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        if self.fail is not None and request.url.path == LEADS_SEARCH:
            return self.fail(request)
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


def wired_session(sandbox: Any, tmp_path: Path, wire: Forwarding) -> Iterator[Session]:
    """A session on ``sandbox`` through ``wire`` with quick retries (a fixture's body)."""
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    api = ApiClient(
        sandbox.base_url,
        TOKEN,
        http_transport=wire,
        retry=RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01),
    )
    s = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    yield s
    s.close()
    journal.close()


def seed_leads(sandbox: Any, list_id: str, rows: list[tuple[str, str, str, str, str]]) -> list[str]:
    """Leads (phone, code, alt 1, alt 2, status) in ``list_id``; returns their ids in order."""
    first = int(sandbox.store.scalar("SELECT coalesce(max(id), 0) FROM leads")) + 1
    sandbox.bulk_seed_leads(list_id, [row[:4] for row in rows])
    ids = [str(first + n) for n in range(len(rows))]
    for lead_id, row in zip(ids, rows, strict=True):
        sandbox.store.execute("UPDATE leads SET status = ? WHERE id = ?", (row[4], int(lead_id)))
    return ids
