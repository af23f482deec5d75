"""Re-test U1: the campaign audit and evidence against a service answering as the spec allows.

- #6: a service ignoring ``/lists/search``'s status filter answers each list for both statuses;
  the audit crashed (ZeroDivisionError), also with no leads at all.
- #1: ``/leads/search`` reports no total, and a service giving at most 300 leads a page had the
  audit keep 300 of 2,500 leads (and throw away the page it read at offset 2,000).
- #2: one empty DNC page at offset 1,000 of 1,500 entries ended the download ("all 1,500
  entries reachable", 1,000 used); entries still not given must be looked up or counted, and
  then the audit is not clean.
- #5: evidence kept 80 of 150 entries of the number at an empty page, unsaid.

The service is the sandbox on loopback, its answers changed on the way back (:class:`U1Wire`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode

import httpx
import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.audit_report import result_json, write_report
from app.core.audit_run import run_audit
from app.core.audit_types import ListKind, Strategy
from app.core.evidence import gather_evidence, write_evidence_xlsx
from tests.conftest import TOKEN
from tests.core.test_audit import found, seed_campaign_with_conflicts

DNC = "/v1/dnc/search"
# (query params, offset, total) -> whether the service answers this DNC page empty.
Emptier = Callable[[dict[str, str], int, int], bool]


def never(params: dict[str, str], offset: int, total: int) -> bool:
    return False


@dataclass(eq=False)  # hashable: the client keys its pools by transport
class U1Wire(httpx.BaseTransport):
    """Forwards to the sandbox; gives at most ``leads_cap`` leads a page, answers every lists
    search with the lists of both statuses when ``ignore_status``, and a DNC page empty (its
    total kept) where ``empty`` says. ``asked`` records each search's (path, offset, rows)."""

    leads_cap: int | None = None
    ignore_status: bool = False
    empty: Emptier = never
    asked: list[tuple[str, int, int]] = field(default_factory=list)
    _http: httpx.HTTPTransport = field(default_factory=httpx.HTTPTransport)

    def _send(self, request: httpx.Request, params: dict[str, str]) -> Any:
        headers = {k: v for k, v in request.headers.items() if k.lower() != "content-length"}
        again = httpx.Request(
            request.method, request.url, headers=headers, content=urlencode(params)
        )
        response = self._http.handle_request(again)
        response.read()
        return json.loads(response.content)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        params = {k: v[0] for k, v in parse_qs(request.read().decode()).items()}
        if path == "/v1/lists/search" and self.ignore_status:
            body = self._send(request, {**params, "status": "1"})
            inactive = self._send(request, {**params, "status": "0"})
            body["data"] = [*body.get("data", []), *inactive.get("data", [])]
            return httpx.Response(200, json=body)
        if path not in ("/v1/leads/search", DNC):
            return self._http.handle_request(request)
        body = self._send(request, params)
        offset = int(params.get("offset", "0"))
        if path == DNC and int(params.get("limit", "0")) > 1:
            data = body["data"]
            if self.empty(params, offset, int(data["total"])):
                data["entries"] = []
            self.asked.append((path, offset, len(data["entries"])))
        elif path == "/v1/leads/search":
            if self.leads_cap is not None:
                body["results"] = body["results"][: self.leads_cap]
            self.asked.append((path, offset, len(body["results"])))
        return httpx.Response(200, json=body)

    def close(self) -> None:
        self._http.close()


Wired = Callable[..., tuple[ApiClient, U1Wire]]


@pytest.fixture
def wired(wired_api: Any) -> Wired:
    def make(**options: Any) -> tuple[ApiClient, U1Wire]:
        wire = U1Wire(**options)
        return wired_api(wire), wire

    return make


def _numbers(n: int) -> list[str]:
    return [f"303{6190000 + i:07d}" for i in range(n)]


def _campaign_with_leads(sandbox: Any, api: ApiClient, n: int) -> tuple[str, str]:
    campaign = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    list_id = api.insert_list("Big list of leads", campaign)
    sandbox.bulk_seed_leads(list_id, ((num, "1", "", "") for num in _numbers(n)))
    return campaign, list_id


# -- U1 #6 ----------------------------------------------------------------------------------


def test_lists_answered_for_both_statuses_are_audited_once(api: ApiClient, wired: Wired) -> None:
    seeded = seed_campaign_with_conflicts(api)
    client, _ = wired(ignore_status=True)
    result = run_audit(client, seeded.campaign)
    assert sorted(t.lead_list.id for t in result.lists) == sorted(
        [seeded.lists["A"], seeded.lists["B"]]
    )
    assert found(result, seeded) == seeded.expected
    assert result.leads == 7


def test_a_campaign_of_empty_lists_answered_for_both_statuses_is_audited(
    api: ApiClient, wired: Wired
) -> None:
    campaign = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    api.insert_list("Empty list of leads", campaign)
    client, _ = wired(ignore_status=True)
    result = run_audit(client, campaign)
    assert (len(result.lists), result.leads, result.clean) == (1, 0, True)


# -- U1 #1 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("cap", [300, 1_999], ids=["at-most-300", "one-short-of-2000"])
def test_every_lead_is_read_past_pages_shorter_than_asked(
    sandbox: Any, api: ApiClient, wired: Wired, cap: int
) -> None:
    campaign, list_id = _campaign_with_leads(sandbox, api, 2_500)
    client, wire = wired(leads_cap=cap)
    result = run_audit(client, campaign)
    assert result.leads == 2_500
    assert [(t.lead_list.id, t.leads, t.numbers) for t in result.lists] == [(list_id, 2_500, 2_500)]
    leads = [(o, rows) for p, o, rows in wire.asked if p == "/v1/leads/search"]
    # Read on right after the rows received, each page asked once, until an empty page.
    assert leads[-1] == (2_500, 0)
    assert len({o for o, _ in leads}) == len(leads)


def test_full_lead_pages_end_at_an_empty_page(sandbox: Any, api: ApiClient, wired: Wired) -> None:
    campaign, _ = _campaign_with_leads(sandbox, api, 2_500)
    client, wire = wired()
    result = run_audit(client, campaign)
    assert result.leads == 2_500
    assert sorted(o for p, o, _ in wire.asked if "leads" in p) == [
        0,
        2_000,
        2_500,
        *range(4_000, 16_000, 2_000),
    ]


# -- U1 #2 ----------------------------------------------------------------------------------


def _global_dnc(sandbox: Any, n: int) -> None:
    sandbox.bulk_seed_dnc((num, "1", "0", "", "") for num in _numbers(n))


def _global_scope(params: dict[str, str]) -> bool:
    return "phone_number" not in params and params.get("campaign_id") == "0"


def test_an_empty_dnc_page_before_the_total_is_asked_again(
    sandbox: Any, api: ApiClient, wired: Wired
) -> None:
    campaign, _ = _campaign_with_leads(sandbox, api, 1_500)
    _global_dnc(sandbox, 1_500)
    emptied: set[int] = set()

    def once(params: dict[str, str], offset: int, total: int) -> bool:
        if _global_scope(params) and offset == 1_000 and offset not in emptied:
            emptied.add(offset)
            return True
        return False

    client, wire = wired(empty=once)
    result = run_audit(client, campaign)
    assert len(result.conflicts) == 1_500
    source = next(
        s for s in result.sources if s.kind is ListKind.DNC and s.scope == Scope.global_()
    )
    assert (source.strategy, source.fetched, source.unread) == (Strategy.DOWNLOAD, 1_500, 0)
    assert [rows for p, o, rows in wire.asked if p == DNC and o == 1_000] == [0, 500]


def test_dnc_entries_never_given_are_looked_up_number_by_number(
    sandbox: Any, api: ApiClient, wired: Wired
) -> None:
    campaign, _ = _campaign_with_leads(sandbox, api, 1_500)
    _global_dnc(sandbox, 1_500)

    def always(params: dict[str, str], offset: int, total: int) -> bool:
        return _global_scope(params) and offset >= 1_000

    client, wire = wired(empty=always)
    result = run_audit(client, campaign)
    assert len(result.conflicts) == 1_500
    source = next(
        s for s in result.sources if s.kind is ListKind.DNC and s.scope == Scope.global_()
    )
    assert source.strategy is Strategy.LOOKUP
    assert "got 1,000 of its 1,500 entries" in source.why
    # Said in the scopes' order, the download looked up after the others still first.
    assert [s.scope for s in result.sources if s.kind is ListKind.DNC] == [
        Scope.global_(),
        Scope.campaign(campaign),
        Scope.purpose(""),
    ]
    assert "reachable" not in source.why
    assert (source.fetched, source.unread, result.unread) == (1_500, 0, 0)
    # Asked again, then looked up: never said to be all read.
    assert [rows for p, o, rows in wire.asked if p == DNC and o == 1_000] == [0, 0, 0]


def test_entries_never_given_even_looked_up_make_the_audit_not_clean(
    sandbox: Any, api: ApiClient, wired: Wired, tmp_path: Path
) -> None:
    campaign, _ = _campaign_with_leads(sandbox, api, 3)
    _global_dnc(sandbox, 3)

    def every_page(params: dict[str, str], offset: int, total: int) -> bool:
        return params.get("campaign_id", "0") == "0"  # the global scope, searched or looked up

    client, _ = wired(empty=every_page)
    result = run_audit(client, campaign)
    assert (result.conflicts, result.unread, result.clean) == ([], 3, False)
    source = next(
        s for s in result.sources if s.kind is ListKind.DNC and s.scope == Scope.global_()
    )
    assert source.unread == 3 and "3 entries counted for the numbers looked up" in source.why
    data = result_json(result, None)
    assert (data["clean"], data["entries_not_read"]) == (False, 3)
    path = tmp_path / "audit.xlsx"
    write_report(result, path)
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Summary").to_python()
    summary = {str(r[0]): r[1] for r in rows if r and r[0]}
    assert (summary["Result"], summary["Opt-out entries not read"]) == ("NOT clean", 3)


# -- U1 #5 ----------------------------------------------------------------------------------

NUMBER = "3036190000"


def _entries_of_one_number(sandbox: Any, n: int) -> None:
    sandbox.bulk_seed_dnc((NUMBER, "1", "-1", "", f"purpose {i}") for i in range(n))


class Capped(U1Wire):
    """40 DNC entries a page at most."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.url.path != DNC:
            return response
        body = json.loads(response.read())
        body["data"]["entries"] = body["data"]["entries"][:40]
        return httpx.Response(200, json=body)


def _capped_client(sandbox: Any, empty: Emptier) -> ApiClient:
    return ApiClient(
        sandbox.base_url,
        TOKEN,
        http_transport=Capped(empty=empty),
        retry=RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01),
    )


def test_evidence_asks_an_empty_page_again(sandbox: Any) -> None:
    _entries_of_one_number(sandbox, 150)
    emptied: set[int] = set()

    def once(params: dict[str, str], offset: int, total: int) -> bool:
        if offset == 80 and offset not in emptied:
            emptied.add(offset)
            return True
        return False

    with _capped_client(sandbox, once) as client:
        pack = gather_evidence(client, None, None, NUMBER)
    assert (len(pack.dnc), pack.dnc_not_read) == (150, 0)


def test_evidence_counts_and_says_entries_never_given(sandbox: Any, tmp_path: Path) -> None:
    _entries_of_one_number(sandbox, 150)
    with _capped_client(sandbox, lambda params, offset, total: offset >= 80) as client:
        pack = gather_evidence(client, None, None, NUMBER)
    assert (len(pack.dnc), pack.dnc_not_read, pack.sms_not_read) == (80, 70, 0)
    path = tmp_path / "evidence.xlsx"
    write_evidence_xlsx(pack, path)
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Summary").to_python()
    summary = {str(r[0]): r[1] for r in rows if r and r[0]}
    assert (summary["DNC entries"], summary["DNC entries not read"]) == (80, 70)
    assert "did not give" in str(summary["Entries not read"])
