"""Black-box B36 F1: the spec makes /status/search's query required, and the evidence pack
named its leads' statuses from one blank search ("every status"), so through a service (or
proxy) refusing a blank query ``dnc-desk evidence`` failed outright. The pack now searches
each status its leads have, takes the exact code's name, and a failed search costs the name,
not the pack. The service is the sandbox on loopback, which refuses a blank query as the spec
says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.core.evidence import STATUS_NAME_NOT_READ, gather_evidence, write_evidence_xlsx

NUMBER = "2025550123"


class StatusWire(httpx.BaseTransport):
    """Forwards to the sandbox; records each /status/search query, and answers the search of
    a code in ``failing`` with a service failure."""

    def __init__(self, failing: frozenset[str] = frozenset()) -> None:
        self._http = httpx.HTTPTransport()
        self.failing = failing
        self.queries: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/status/search"):
            query = parse_qs(request.read().decode()).get("query", [""])[0]
            self.queries.append(query)
            if query in self.failing:
                return httpx.Response(500, json={"success": False, "error": "Internal error"})
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


def _leads(sandbox: Any, api: ApiClient) -> dict[str, str]:
    """Leads of NUMBER by status: two sharing DNC, NA (whose search also finds NAX1, named
    "Name check"), a custom status, and one whose status the service no longer has."""
    api.insert_status("NAX1", "Name check")
    api.insert_status("REVW1", "Compliance review")
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    list_id = api.insert_list("Status names list", camp)
    ids = {
        status: api.insert_lead(list_id, NUMBER, status=status)
        for status in ("DNC", "NA", "REVW1", "NEW")
    }
    api.insert_lead(list_id, "2025550000", alt_phone_1=NUMBER, status="DNC")
    # A status deleted on the service after the lead got it: the lead keeps its code.
    sandbox.store.execute("UPDATE leads SET status = 'GONE9' WHERE id = ?", (ids["NEW"],))
    return ids


def test_evidence_names_each_status_its_leads_have_without_a_blank_search(
    sandbox: Any, wired_api: Any
) -> None:
    wire = StatusWire()
    api = wired_api(wire)
    ids = _leads(sandbox, api)
    wire.queries.clear()
    pack = gather_evidence(api, None, None, NUMBER, "1")
    names = {h.lead.status: h.status_name for h in pack.leads}
    assert names == {
        "DNC": "Do Not Call",
        "NA": "No Answer",
        "REVW1": "Compliance review",
        "GONE9": "",
    }
    assert {h.lead.id for h in pack.leads} >= set(ids.values())
    # One search a distinct status, none blank.
    assert sorted(wire.queries) == ["DNC", "GONE9", "NA", "REVW1"]
    assert pack.status_names_not_read == {}


def test_a_failed_status_search_costs_its_name_not_the_pack(
    sandbox: Any, wired_api: Any, tmp_path: Path
) -> None:
    wire = StatusWire(failing=frozenset({"REVW1"}))
    api = wired_api(wire)
    _leads(sandbox, api)
    pack = gather_evidence(api, None, None, NUMBER, "1")
    names = {h.lead.status: h.status_name for h in pack.leads}
    assert names["REVW1"] == STATUS_NAME_NOT_READ
    assert names["DNC"] == "Do Not Call"
    assert list(pack.status_names_not_read) == ["REVW1"]
    assert "/status/search" in pack.status_names_not_read["REVW1"]

    out = tmp_path / "evidence.xlsx"
    write_evidence_xlsx(pack, out)
    wb = CalamineWorkbook.from_path(str(out))
    summary = dict(r[:2] for r in wb.get_sheet_by_name("Summary").to_python())
    assert "REVW1 (" in summary["Status names not read"]
    leads = wb.get_sheet_by_name("Leads").to_python()
    assert [r[7] for r in leads if r[6] == "REVW1"] == [STATUS_NAME_NOT_READ]
