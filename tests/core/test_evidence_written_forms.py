"""Black-box pass P2 #3: the evidence pack finds a number kept in any written form.

The tester inserted 00447911123482 and 4407911123481 (the digits of "+44 (0)7911 123481") under
code 44 and 0012125550408 under code 1 straight over the API, which takes them; ``evidence
"+44 7911 123482"`` and ``evidence "+1 212 555 0408"`` answered no DNC entry, "on no list" to
counsel. The pack now searches every form an entry may keep the number in (with its trunk 0,
its country code, the exit code 00 or 011, the code and trunk 0), those carrying the country
code under any phone code (an entry "447911123482" kept under code 1 is the UK number), each
hit confirmed by normalizing, and it says which forms it searched.

Against the sandbox over loopback HTTP, the entries inserted over the API.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.evidence import gather_evidence, write_evidence_xlsx
from tests.conftest import TOKEN

GLOBAL = Scope.global_()


def _forms(path: Path, sheet: str) -> dict[str, str]:
    header, *rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name(sheet).to_python()
    return {r[header.index("Number")]: r[header.index("Written form")] for r in rows}


@pytest.mark.parametrize(
    ("number", "stored", "code", "words"),
    [
        (
            "+44 7911 123482",
            "00447911123482",
            "44",
            "with 00 and its country code 44 in the digits",
        ),
        (
            "+44 7911 123481",
            "4407911123481",
            "44",
            "with its country code 44 and its trunk 0 in the digits",
        ),
        ("+1 212 555 0408", "0012125550408", "1", "with 00 and its country code 1 in the digits"),
        (
            "+44 7911 123483",
            "011447911123483",
            "44",
            "with 011 and its country code 44 in the digits",
        ),
        (
            "+44 7911 123484",
            "004407911123484",
            "44",
            "with 00, its country code 44 and its trunk 0 in the digits",
        ),
    ],
)
def test_an_entry_kept_in_an_exit_code_or_code_and_trunk_form_is_in_the_pack(
    api: ApiClient, tmp_path: Path, number: str, stored: str, code: str, words: str
) -> None:
    api.insert_dnc(stored, code, GLOBAL, reason="by hand")
    api.insert_sms(stored, code, GLOBAL, reason="by hand")
    pack = gather_evidence(api, None, None, number, "1")
    assert [(e.phone_number, e.phone_code) for e in pack.dnc] == [(stored, code)]
    assert [(e.phone_number, e.phone_code) for e in pack.sms] == [(stored, code)]
    out = tmp_path / "evidence.xlsx"
    write_evidence_xlsx(pack, out)
    assert _forms(out, "DNC") == {stored: words}
    assert _forms(out, "SMS opt-out") == {stored: words}


def test_an_entry_under_another_phone_code_is_in_the_pack_saying_so(
    api: ApiClient, tmp_path: Path
) -> None:
    api.insert_dnc("447911123482", "1", GLOBAL, reason="wrong code")
    # Digits that are the US number 7911123482 under code 1 are another number: left out.
    api.insert_dnc("7911123482", "1", GLOBAL)
    # A code form that is a valid number under its own code is that number: left out.
    api.insert_dnc("447911123482", "49", GLOBAL)
    pack = gather_evidence(api, None, None, "+44 7911 123482", "1")
    assert [(e.phone_number, e.phone_code) for e in pack.dnc] == [("447911123482", "1")]
    out = tmp_path / "evidence.xlsx"
    write_evidence_xlsx(pack, out)
    assert _forms(out, "DNC") == {
        "447911123482": "with its country code 44 in the digits, kept under phone code 1"
    }


def test_the_pack_says_which_forms_it_searched(api: ApiClient, tmp_path: Path) -> None:
    pack = gather_evidence(api, None, None, "+1 212 555 0408", "1")
    assert pack.dnc == []
    searched = (
        "2125550408 under phone code 1; 12125550408, 0012125550408, 01112125550408 under any "
        "phone code"
    )
    assert pack.dnc_searched == pack.sms_searched == searched
    out = tmp_path / "evidence.xlsx"
    write_evidence_xlsx(pack, out)
    summary = dict(CalamineWorkbook.from_path(str(out)).get_sheet_by_name("Summary").to_python())
    assert summary["DNC forms searched"] == summary["SMS forms searched"] == searched


class _SmsWantsCode(httpx.BaseTransport):
    """The sandbox, except that an SMS search with a phone number and no phone code is refused
    as the spec's error table allows (6026, "missing or invalid country code")."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.content.decode()
        if request.url.path.endswith("/sms-opt-out/search") and (
            "phone_number=" in body and "phone_code=" not in body
        ):
            refusal = {"success": False, "error": "Missing or invalid country code", "code": 6026}
            return httpx.Response(400, json=refusal)
        return self._http.handle_request(request)


def test_a_service_wanting_a_phone_code_on_sms_searches_gets_the_number_s(sandbox: Any) -> None:
    with ApiClient(sandbox.base_url, TOKEN, http_transport=_SmsWantsCode()) as api:
        api.insert_sms("00447911123482", "44", GLOBAL)
        pack = gather_evidence(api, None, None, "+44 7911 123482", "1")
    assert [e.phone_number for e in pack.sms] == ["00447911123482"]
    assert pack.sms_searched == (
        "7911123482, 07911123482, 447911123482, 4407911123482, 00447911123482, "
        "011447911123482, 004407911123482 under phone code 44"
    )
