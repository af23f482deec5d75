"""S18 R1 (H1b leftover): a removal picked in the list view with a lead status whose own lead
update the service failed (a 5xx) or never answered, after the client's retries, said the lead
"keeps its status", which may be false, and not how to set it. Now it says, as the bulk removal
does since S18 H1b, that the lead may not have been set, and to set it on the service; a refused
update still keeps its status, and says how to set it too.

Against the sandbox over loopback HTTP; the transport answers the /leads/update requests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import DncQuery
from app.core.dnc_removal import Outcome, remove_dnc_entries
from app.core.session import Session
from tests.core.lead_wire import Forwarding, seed_leads, wired_session

UPDATE = "/v1/leads/update"


class Wire(Forwarding):
    """To the sandbox, but ``update`` (when set) answers each /leads/update request."""

    def __init__(self) -> None:
        super().__init__()
        self.update: Callable[[httpx.Request], httpx.Response] | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == UPDATE and self.update is not None:
            self.paths.append(request.url.path)
            return self.update(request)
        return super().handle_request(request)


@pytest.fixture
def wire() -> Wire:
    return Wire()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Wire) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, wire)


def _remove(session: Session, sandbox: Any) -> tuple[str, str, str, str]:
    """The entry 13035550150 picked and removed with lead status CALLBK: its delete sets the
    lead holding those digits, the number's other lead (3035550150) is set by its own update.
    Returns the outcome's message, the list id and the two leads' ids."""
    sandbox.bulk_seed_dnc([("13035550150", "1", "0", "another tool", "")])
    list_id = session.api.insert_list("Denver leads list", session.api.campaigns()[0].id)
    plain, code = seed_leads(
        sandbox, list_id, [("3035550150", "1", "", "", "NEW"), ("13035550150", "1", "", "", "NEW")]
    )
    entries = list(session.api.iter_dnc(DncQuery()))
    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="CALLBK")
    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.REMOVED, outcome.message
    return outcome.message, list_id, plain, code


def _failing(request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        503, json={"success": False, "error": {"code": 5000, "message": "try later"}}
    )


def _refused(request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        400, json={"success": False, "error": {"code": 6071, "message": "lead not found"}}
    )


def test_an_update_the_service_failed_may_have_been_done_and_says_how_to_set_it(
    sandbox: Any, session: Session, wire: Wire
) -> None:
    wire.update = _failing

    message, list_id, plain, code = _remove(session, sandbox)

    assert wire.paths.count(UPDATE) == 2  # the client's own retry: no answer said if it was done
    assert f"lead {code} (list {list_id}) NEW→CALLBK" in message
    assert "keeps its status" not in message
    assert (
        "; may not have been set to CALLBK: the service did not answer whether the update was "
        f"done (the change journal has each attempt): lead {plain} (list {list_id}): "
    ) in message
    assert message.endswith("; set it to CALLBK on the service (its lead update)")


def test_an_update_the_service_refused_keeps_its_status_and_says_how_to_set_it(
    sandbox: Any, session: Session, wire: Wire
) -> None:
    wire.update = _refused

    message, list_id, plain, _code = _remove(session, sandbox)

    assert (
        "; not set to CALLBK (the change journal has each attempt), so each keeps its status: "
        f"lead {plain} (list {list_id}): "
    ) in message
    assert "may not have been set" not in message
    assert message.endswith("; set it to CALLBK on the service (its lead update)")
