"""List health findings on crafted data, the cross-list gaps, and the redundant-entry fix."""

from __future__ import annotations

from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.list_health import (
    check_health,
    passing_reason,
    purpose_key,
    remove_redundant,
    younger_than_honor_period,
)
from app.core.session import Session


def _seed(api: ApiClient, sandbox: Any) -> tuple[str, str]:
    ids = {c.name: c.id for c in api.campaigns()}
    camp, inactive = ids["Spring Renewals"], ids["Old Winback"]
    sandbox.bulk_seed_dnc(
        [
            ("2025550101", "1", "0", "asked", ""),
            ("2025550101", "1", camp, "dup", ""),  # redundant with the global entry
            ("2025550102", "1", camp, "", ""),  # blank reason
            ("5550123", "1", "0", "x", ""),  # not a valid US number
            ("2025550103", "1", "4242", "y", ""),  # campaign that does not exist
            ("2025550104", "1", inactive, "y", ""),  # inactive campaign
            ("2025550105", "1", "-1", "z", "Collections"),
            ("2025550106", "1", "-1", "z", "collections  "),  # near-duplicate purpose
            ("2025550108", "1", "-1", "z", "Marketing"),
        ]
    )
    sandbox.store.execute(
        "UPDATE dnc SET insert_date = '2020-01-02 03:04:05' WHERE phone_number = '2025550104'"
    )
    api.insert_sms("2025550101", "1", Scope.global_(), reason="STOP")
    api.insert_sms("2025550107", "1", Scope.global_(), reason="STOP")
    api.insert_sms("2025550105", "1", Scope.purpose("COLLECTIONS"), reason="STOP")
    return camp, inactive


def test_findings(session: Session, sandbox: Any) -> None:
    camp, _ = _seed(session.api, sandbox)
    check = check_health(session.api)
    dnc = check.dnc
    assert (dnc.reported_total, dnc.checked, dnc.unreachable) == (9, 9, 0)

    def numbers(code: str) -> list[str]:
        return sorted(e.phone_number for e in dnc.finding(code).entries)

    assert numbers("invalid_number") == ["5550123"]
    assert "US number" in next(iter(dnc.finding("invalid_number").details.values()))
    redundant = dnc.finding("redundant")
    assert [(e.phone_number, e.campaign_id) for e in redundant.entries] == [("2025550101", camp)]
    assert redundant.fixable
    assert numbers("missing_campaign") == ["2025550103"]
    assert numbers("inactive_campaign") == ["2025550104"]
    assert numbers("blank_reason") == ["2025550102"]
    near = dnc.finding("near_duplicate_purpose")
    assert sorted(e.purpose for e in near.entries) == ["Collections", "collections  "]
    assert dnc.ages["over 3 years"] == 1
    assert dnc.ages["under 30 days"] == 8
    assert not check.sms.finding("redundant").fixable  # no SMS delete endpoint

    gaps = {g.scope: g for g in check.gaps}
    assert [e.phone_number for e in gaps["global"].sms_not_dnc] == ["2025550107"]
    assert [e.phone_number for e in gaps["global"].dnc_not_sms] == ["5550123"]
    # Purposes compare by their normalized spelling: COLLECTIONS on SMS matches the DNC list.
    assert [e.phone_number for e in gaps["purpose:collections"].dnc_not_sms] == ["2025550106"]
    assert gaps["purpose:collections"].sms_not_dnc == []
    assert [e.phone_number for e in gaps[f"campaign:{camp}"].dnc_not_sms] == [
        "2025550101",
        "2025550102",
    ]
    assert purpose_key("  Collections   Dept ") == "collections dept"


def test_one_scope_only(session: Session, sandbox: Any) -> None:
    camp, _ = _seed(session.api, sandbox)
    check = check_health(session.api, Scope.campaign(camp))
    assert check.dnc.checked == 2
    assert check.dnc.finding("redundant").entries == []  # the global entry is out of scope
    assert [e.phone_number for e in check.dnc.finding("blank_reason").entries] == ["2025550102"]


def test_fix_removes_the_campaign_duplicates(session: Session, sandbox: Any) -> None:
    _seed(session.api, sandbox)
    finding = check_health(session.api).dnc.finding("redundant")
    (cover,) = finding.covers.values()
    # bb3 F6: the finding names the global entry covering each campaign copy.
    assert finding.details == {
        finding.entries[0].id: f"global id {cover.id}, reason 'asked', inserted {cover.insert_date}"
    }
    rows = remove_redundant(session, finding, reason="Consolidated: covered globally")
    assert [(r.entry.phone_number, r.outcome) for r in rows] == [("2025550101", "ok")]
    left = session.api.search_dnc(DncQuery(phone_number="2025550101")).items
    assert [str(e.scope) for e in left] == ["global"]
    deletes = session.journal.query(operation="dnc.delete")
    assert {e.outcome for e in deletes} == {"", "ok"}
    assert deletes[0].job.startswith("health-fix-")
    # The officer's reason is journaled with each delete, as the Delete dialog journals it.
    assert {e.note for e in deletes if e.phase == "intent"} == {
        "Consolidated: covered globally (redundant: the number is on the global DNC list, "
        f"global id {cover.id}, reason 'asked', inserted {cover.insert_date})"
    }
    assert check_health(session.api).dnc.finding("redundant").entries == []
    with pytest.raises(ValueError, match="only the redundant"):
        remove_redundant(session, check_health(session.api).dnc.finding("blank_reason"), reason="x")


def test_fix_needs_a_reason_and_removes_only_the_chosen_entries(
    session: Session, sandbox: Any
) -> None:
    camp, _ = _seed(session.api, sandbox)
    session.api.insert_dnc("2025550107", "1", Scope.global_(), reason="Wrong number")
    session.api.insert_dnc("2025550107", "1", Scope.campaign(camp), reason="never call")
    sandbox.store.execute(
        "UPDATE dnc SET insert_date = '2019-03-04 05:06:07' WHERE phone_number = '2025550101'"
    )
    finding = check_health(session.api).dnc.finding("redundant")
    assert len(finding.entries) == 2
    # F6: no silent deletes; a blank reason is refused before anything is sent.
    with pytest.raises(ValueError, match="reason"):
        remove_redundant(session, finding, reason="  ")
    assert session.journal.query(operation="dnc.delete") == []
    young = [e for e in finding.entries if younger_than_honor_period(e)]
    assert [e.phone_number for e in young] == ["2025550107"]
    assert passing_reason(finding.covers[young[0].id].reason)
    assert passing_reason("number REASSIGNED") and passing_reason("test entry")
    assert not passing_reason("Consumer protested; latest request")
    old = [e for e in finding.entries if not younger_than_honor_period(e)]
    rows = remove_redundant(session, finding, reason="old copies", entries=old)
    assert [(r.entry.phone_number, r.outcome) for r in rows] == [("2025550101", "ok")]
    left = session.api.search_dnc(DncQuery(scope=Scope.campaign(camp))).items
    assert sorted(e.phone_number for e in left) == ["2025550102", "2025550107"]


def test_near_duplicate_purposes_name_their_spellings_and_entries(
    session: Session, sandbox: Any
) -> None:
    _seed(session.api, sandbox)
    sandbox.bulk_seed_dnc(
        [
            ("2025550121", "1", "-1", "z", "Collections"),
            ("2025550122", "1", "-1", "z", "Collections"),
            ("2025550123", "1", "-1", "z", "MARKETING"),
        ]
    )
    near = check_health(session.api).dnc.finding("near_duplicate_purpose")

    assert near.title == (
        "Purposes spelled more than one way, which the service keeps as different purposes "
        "('Collections' (3 entries) and 'collections  ' (1 entry); 'MARKETING' (1 entry) and "
        "'Marketing' (1 entry); give each purpose's entries the one spelling the campaigns use)"
    )
    odd = next(e for e in near.entries if e.purpose == "collections  ")
    assert near.details[odd.id] == (
        "one purpose spelled 'Collections' (3 entries) and 'collections  ' (1 entry): update "
        "the entries not spelled as the campaigns spell it"
    )


def test_near_duplicate_purposes_compare_as_an_import_compares_them(
    session: Session, sandbox: Any
) -> None:
    """Health said nothing of purposes that differ only by Unicode form or an invisible
    character, which an import's check (job_staging.purpose_key) calls one purpose spelled
    several ways: a 'Müller' whose accent is a separate mark, a full-width 'Ｌｏａｎ', a
    zero-width space. The spellings are named so that they do not read the same."""
    sandbox.bulk_seed_dnc(
        [
            ("2025550131", "1", "-1", "z", "M\u00fcller"),
            ("2025550132", "1", "-1", "z", "Mu\u0308ller"),
            ("2025550133", "1", "-1", "z", "Loan Offers"),
            ("2025550134", "1", "-1", "z", "\uff2c\uff4f\uff41\uff4e Offers"),
            ("2025550135", "1", "-1", "z", "Loan\u200b Offers"),
        ]
    )
    near = check_health(session.api).dnc.finding("near_duplicate_purpose")

    assert sorted(e.phone_number for e in near.entries) == [
        "2025550131",
        "2025550132",
        "2025550133",
        "2025550134",
        "2025550135",
    ]
    assert "'Mu\\u0308ller' (1 entry)" in near.title
    assert "'Müller' (1 entry)" in near.title


def test_near_duplicate_title_names_five_purposes_at_most(session: Session, sandbox: Any) -> None:
    words = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"]
    sandbox.bulk_seed_dnc(
        [
            (f"20255502{i:02d}", "1", "-1", "z", spelling)
            for i, spelling in enumerate(s for w in words for s in (w, w.lower()))
        ]
    )
    near = check_health(session.api).dnc.finding("near_duplicate_purpose")

    assert len(near.entries) == 12
    assert "'Echo' (1 entry) and 'echo' (1 entry); 1 more purpose spelled so;" in near.title
    assert "Foxtrot" not in near.title
