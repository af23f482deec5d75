"""Black-box pass R1, evidence for a number: a service answering a search page with fewer rows
than asked before the end of its result had the evidence pack take that page for the last, so
entries of the number after it were left out of the pack. The search now pages on right after
the rows received until the service's total.

The service is the sandbox on loopback, its answers cut short on the way back
(:class:`ShortWire`): here it never gives more than two rows a page.
"""

from __future__ import annotations

from typing import Any

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.evidence import gather_evidence
from tests.conftest import TOKEN
from tests.core.test_export_short_pages import ShortWire, at_most


def test_evidence_holds_every_entry_of_the_number_past_a_short_page(
    sandbox: Any, api: ApiClient
) -> None:
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    scopes = [Scope.global_(), Scope.campaign(camp)]
    scopes += [Scope.purpose(p) for p in ("Collections", "Marketing", "Surveys")]
    for scope in scopes:
        api.insert_dnc("2025550123", "1", scope)
    for scope in scopes[:3]:
        api.insert_sms("2025550123", "1", scope)
    api.insert_dnc("2025550999", "1", Scope.global_())  # another number
    wire = ShortWire(at_most(2))
    client = ApiClient(
        sandbox.base_url,
        TOKEN,
        http_transport=wire,
        retry=RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01),
    )
    try:
        pack = gather_evidence(client, None, None, "202-555-0123", "1")
    finally:
        client.close()
    assert sorted(str(e.scope) for e in pack.dnc) == sorted(str(s) for s in scopes)
    assert sorted(str(e.scope) for e in pack.sms) == sorted(str(s) for s in scopes[:3])
    assert len({e.id for e in pack.dnc}) == 5
    # The pages after a short one start right after its rows.
    assert {offset for offset, _ in wire.asked} == {0, 2, 4}
