"""Evidence for a number written with its own country code (black-box finding 12)."""

from __future__ import annotations

import pytest

from app.api.client import ApiClient
from app.core.evidence import EvidenceError, gather_evidence


@pytest.mark.parametrize("written", ["+44 7911 123456", "0044 7911 123456"])
def test_a_number_with_its_own_code_is_looked_up_under_it(api: ApiClient, written: str) -> None:
    pack = gather_evidence(api, None, None, written, "1")
    assert (pack.phone_code, pack.national, pack.e164) == ("44", "7911123456", "+447911123456")


def test_an_invalid_number_with_its_own_code_gets_its_real_reason(api: ApiClient) -> None:
    with pytest.raises(EvidenceError) as caught:
        gather_evidence(api, None, None, "+44 20 7946 000", "1")
    assert "not a valid United Kingdom number" in str(caught.value)
    assert "but the country code is" not in str(caught.value)


def test_the_default_code_still_applies_to_numbers_without_one(api: ApiClient) -> None:
    assert gather_evidence(api, None, None, "07911 123456", "44").e164 == "+447911123456"
    assert gather_evidence(api, None, None, "(202) 555-0123", "1").e164 == "+12025550123"


def test_a_lead_keeping_the_number_with_its_own_code_is_found(api: ApiClient) -> None:
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    list_id = api.insert_list("Evidence UK leads", camp)
    lead = api.insert_lead(list_id, "2025550000", alt_phone_1="+447911123456")
    pack = gather_evidence(api, None, None, "+44 7911 123456", "1")
    assert [(h.lead.id, h.field) for h in pack.leads] == [(lead, "alt_phone_1")]
