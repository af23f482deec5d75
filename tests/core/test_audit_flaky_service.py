"""Black-box bb7 #1: on a flaky service (error rate 0.3, drop rate 0.2) the audit ended with
"The audit could not finish" on the first read that failed all of the client's attempts: no
report, no advice, the read never asked again. A failed read is now asked again (each page over
``READ_ROUNDS``, a number's lookup in later rounds); a number the service still fails is not
checked, which makes the audit not clean, and the report still names it and says what to do.

The service is the sandbox on loopback, behind :class:`FailingWire`, which breaks the
connection of chosen requests a set number of times.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.audit_report import write_report
from app.core.audit_run import AuditOptions, run_audit
from app.core.audit_sources import LOOKUP_ROUNDS
from app.core.audit_types import READ_ROUNDS, ListKind, Strategy
from tests.core.test_audit import Seeded, found, seed_campaign_with_conflicts
from tests.core.test_evidence_flaky_service import (
    FOREVER,
    Chooses,
    FailingWire,
    _summary,
    dnc_search_of,
)

Wired = Callable[[httpx.BaseTransport], ApiClient]
# wired_api's client makes 2 attempts a request; each page read is tried READ_ROUNDS times.
ONE_ROUND = 2 * READ_ROUNDS
LOOKUPS = AuditOptions(concurrency=4, max_download_pages=0)


@pytest.fixture
def seeded(api: ApiClient) -> Seeded:
    return seed_campaign_with_conflicts(api)


def test_a_lookup_failing_in_every_round_makes_the_audit_incomplete_not_failed(
    sandbox: Any, api: ApiClient, wired_api: Wired, tmp_path: Path
) -> None:
    camp = sandbox.seed_campaign("Clean campaign")
    list_id = api.insert_list("Clean list", camp)
    api.insert_lead(list_id, "2025550150")
    api.insert_lead(list_id, "2025550151")
    api.insert_dnc("2025550151", "1", Scope.global_(), reason="asked on call")
    wire = FailingWire(dnc_search_of("2025550150"), times=FOREVER)
    result = run_audit(wired_api(wire), camp, options=LOOKUPS)
    # Every round of every look-up of the number failed; the other number was checked.
    assert wire.failed == ONE_ROUND * LOOKUP_ROUNDS
    assert [c.number.raw for c in result.conflicts] == ["2025550151"]
    assert result.not_checked == 1
    assert not result.clean
    dnc = [s for s in result.sources if s.kind is ListKind.DNC]
    # One search answers the three scopes.
    assert [s.not_checked for s in dnc] == [("+1 2025550150",), (), ()]
    assert "+1 2025550150" in dnc[0].why and "run the audit again" in dnc[0].why
    sms = [s for s in result.sources if s.kind is ListKind.SMS]
    assert [s.not_checked for s in sms] == [(), (), ()]  # the SMS searches were answered
    report = tmp_path / "audit.xlsx"
    write_report(result, report)
    assert _summary(report)["Numbers not checked"] == [1]


def test_a_lookup_failing_a_whole_round_is_asked_again_later(
    api: ApiClient, seeded: Seeded, wired_api: Wired
) -> None:
    wire = FailingWire(dnc_search_of("2025550101"), times=ONE_ROUND)
    result = run_audit(wired_api(wire), seeded.campaign, options=LOOKUPS)
    assert wire.failed == ONE_ROUND
    assert found(result, seeded) == seeded.expected
    assert result.not_checked == 0


def _leads_of_list_a(seeded: Seeded) -> Chooses:
    return lambda path, params: (
        path.endswith("/leads/search") and params.get("list_id") == [seeded.lists["A"]]
    )


def _first_dnc_page(seeded: Seeded) -> Chooses:
    # The scopes' first pages are read one after the other: the global one takes every failure.
    return lambda path, params: (
        path.endswith("/dnc/search")
        and "phone_number" not in params
        and params.get("offset") == ["0"]
    )


def _campaigns(seeded: Seeded) -> Chooses:
    return lambda path, params: path.endswith("/campaigns/search")


def _lists(seeded: Seeded) -> Chooses:
    return lambda path, params: path.endswith("/lists/search")


@pytest.mark.parametrize("chooses", [_campaigns, _lists, _leads_of_list_a, _first_dnc_page])
def test_a_page_failing_the_clients_attempts_is_asked_again(
    api: ApiClient,
    seeded: Seeded,
    wired_api: Wired,
    chooses: Callable[[Seeded], Chooses],
) -> None:
    wire = FailingWire(chooses(seeded), times=ONE_ROUND - 1)
    result = run_audit(wired_api(wire), seeded.campaign)
    assert wire.failed == ONE_ROUND - 1
    assert found(result, seeded) == seeded.expected
    assert result.unread == 0
    assert {s.strategy for s in result.sources} == {Strategy.DOWNLOAD}


def test_a_download_page_failing_every_try_is_followed_by_lookups(
    sandbox: Any, api: ApiClient, seeded: Seeded, wired_api: Wired
) -> None:
    # 1,500 global entries: two pages, cheaper to download than to look up the 9 numbers.
    sandbox.bulk_seed_dnc((f"30355{i:05d}", "1", "0", "", "") for i in range(1500))
    second_page: Chooses = lambda path, params: (  # noqa: E731
        path.endswith("/dnc/search")
        and params.get("offset") == ["1000"]
        and "phone_number" not in params
    )
    wire = FailingWire(second_page, times=FOREVER)
    result = run_audit(wired_api(wire), seeded.campaign)
    assert wire.failed > 0
    assert found(result, seeded) == seeded.expected
    dnc_global = next(
        s for s in result.sources if s.kind is ListKind.DNC and s.scope == Scope.global_()
    )
    assert dnc_global.strategy is Strategy.LOOKUP
    assert "the service failed" in dnc_global.why
    assert result.not_checked == 0 and result.unread == 0
