"""/leads/insert with check_dnc, through the app's client over loopback HTTP: a DNC entry is a
number under its phone code, so only a lead under that code (or under none) is refused."""

from __future__ import annotations

import pytest

from app.api import errors
from app.api.client import ApiClient
from app.api.scope import Scope

NUMBER = "2025550911"


def _list_id(api: ApiClient) -> str:
    camp = next(c for c in api.campaigns() if c.name == "Spring Renewals")
    return api.insert_list("Check DNC leads list", camp.id)


def test_us_entry_does_not_refuse_the_same_digits_under_44(api: ApiClient) -> None:
    list_id = _list_id(api)
    api.insert_dnc(NUMBER, "1", Scope.global_())

    uk_lead = api.insert_lead(list_id, NUMBER, phone_code="44", check_dnc=True)

    assert uk_lead.isdigit()
    with pytest.raises(errors.ServiceError, match="in the DNC list"):
        api.insert_lead(list_id, NUMBER, phone_code="1", check_dnc=True)


def test_uk_entry_does_not_refuse_the_same_digits_under_1(api: ApiClient) -> None:
    list_id = _list_id(api)
    api.insert_dnc(NUMBER, "44", Scope.global_())

    us_lead = api.insert_lead(list_id, NUMBER, phone_code="1", check_dnc=True)

    assert us_lead.isdigit()
    with pytest.raises(errors.ServiceError, match="in the DNC list"):
        api.insert_lead(list_id, NUMBER, phone_code="44", check_dnc=True)


def test_lead_without_a_code_is_refused_under_any_code(api: ApiClient) -> None:
    list_id = _list_id(api)
    api.insert_dnc(NUMBER, "44", Scope.global_())

    with pytest.raises(errors.ServiceError, match="in the DNC list"):
        api.insert_lead(list_id, NUMBER, check_dnc=True)
    assert api.search_leads({"list_id": list_id}).items == []
