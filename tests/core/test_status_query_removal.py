"""Black-box B36 F1: a removal's unknown lead status was refused listing "every status" from a
blank /status/search, which the spec (query required) does not offer, and a service enforcing
it refused. The refusal now names the statuses like the code typed, found by searching its
beginnings, or says where to look them up; no blank search is sent. The service is the
sandbox on loopback, which refuses a blank query.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from app.core.removal_job import LeadStatusError, check_lead_status


class QueryWire(httpx.BaseTransport):
    """Forwards to the sandbox, recording each /status/search query."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.queries: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/status/search"):
            self.queries.append(parse_qs(request.read().decode()).get("query", [""])[0])
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def wire_api(wired_api: Any) -> tuple[Any, QueryWire]:
    wire = QueryWire()
    return wired_api(wire), wire


def test_a_known_status_is_one_search(wire_api: tuple[Any, QueryWire]) -> None:
    api, wire = wire_api
    assert check_lead_status(api, " dnc ") == "DNC"
    assert wire.queries == ["dnc"]


def test_a_typo_is_refused_naming_the_statuses_of_its_longest_beginning_found(
    wire_api: tuple[Any, QueryWire],
) -> None:
    api, wire = wire_api
    with pytest.raises(LeadStatusError) as info:
        check_lead_status(api, "DNCX")
    assert str(info.value) == (
        "The service has no lead status 'DNCX'; statuses whose code or name holds 'DNC': "
        "DNC (Do Not Call). Give one of them, as its code."
    )
    assert wire.queries == ["DNCX", "DNC"]


def test_a_part_of_a_code_names_what_it_found(wire_api: tuple[Any, QueryWire]) -> None:
    api, wire = wire_api
    with pytest.raises(LeadStatusError, match=r"holds 'CALLB': CALLBK \(Call Back\)\."):
        check_lead_status(api, "CALLB")
    assert wire.queries == ["CALLB"]


def test_nothing_like_it_says_where_to_look(wire_api: tuple[Any, QueryWire]) -> None:
    api, wire = wire_api
    with pytest.raises(LeadStatusError) as info:
        check_lead_status(api, "ZZZZ")
    assert "no status's code or name holds any beginning of it" in str(info.value)
    assert "in the window" in str(info.value)
    assert wire.queries == ["ZZZZ", "ZZZ", "ZZ", "Z"]
    assert "" not in wire.queries


def test_many_candidates_are_cut_to_ten(sandbox: Any, wire_api: tuple[Any, QueryWire]) -> None:
    api, _ = wire_api
    for i in range(12):
        api.insert_status(f"QA{i:02d}", f"Queue {i}")
    with pytest.raises(LeadStatusError) as info:
        check_lead_status(api, "QAX")
    message = str(info.value)
    assert "holds 'QA': QA00 (Queue 0), " in message
    assert "QA09 (Queue 9) and 2 more." in message and "QA10" not in message
