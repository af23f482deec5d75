"""A window removal with a lead status looks the number's leads up before each delete; those
reads are asked again in rounds while the service fails them (a 5xx), so a flaky service does
not fail an input "before any delete was sent" for a read that is harmless to repeat (fx9
follow-up: 14 of 60 inputs so on a sandbox with --drop-rate 0.6), nor for the service's rate
limit refusing a look-up a few times in a row (many look-ups per entry under --rate-limit)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.dnc_removal import Outcome, remove_dnc_entries
from app.core.journal import ChangeJournal
from app.core.session import Session

NUMBER = "7185550232"


def _unavailable(request: httpx.Request) -> httpx.Response:
    return httpx.Response(503, json={"error": "unavailable"}, request=request)


def _refused(request: httpx.Request) -> httpx.Response:
    body = {"success": False, "error": "Rate limit exceeded; retry later"}
    return httpx.Response(429, json=body, headers={"Retry-After": "1"}, request=request)


class LeadSearchFailsFirst(httpx.BaseTransport):
    """Forwards to the sandbox, answering the first ``failures`` ``/leads/search`` with
    ``answer``: more than one read's retries (and rounds) inside the lead look-up."""

    def __init__(self, failures: int, answer: Callable[[httpx.Request], httpx.Response]) -> None:
        self.inner = httpx.HTTPTransport()
        self.failures = failures
        self.answer = answer
        self.failed = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/leads/search") and self.failed < self.failures:
            self.failed += 1
            return self.answer(request)
        response = self.inner.handle_request(request)
        response.read()
        return response

    def close(self) -> None:
        self.inner.close()


# The client's 2 attempts times the search's 2 rounds fail one look-up on 503s, and 2 429s in
# a row (each Retry-After waited out) fail it too: one more of each.
@pytest.mark.parametrize(
    ("failures", "answer"), [(5, _unavailable), (3, _refused)], ids=["503", "429"]
)
def test_lead_look_up_failing_for_a_while_is_asked_again(
    api: ApiClient,
    sandbox: Any,
    wired_api: Any,
    tmp_path: Path,
    failures: int,
    answer: Callable[[httpx.Request], httpx.Response],
) -> None:
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")
    wire = LeadSearchFailsFirst(failures, answer)
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    try:
        session = Session(Connection("Test", sandbox.base_url), wired_api(wire), journal)
        entries = list(api.iter_dnc(DncQuery(phone_number=NUMBER)))
        result = remove_dnc_entries(session, entries, reason="asked", lead_status="DNC")
    finally:
        journal.close()
    [outcome] = result.outcomes
    assert outcome.outcome is Outcome.REMOVED, outcome.message
    assert wire.failed == failures
    assert list(api.iter_dnc(DncQuery(phone_number=NUMBER))) == []
