"""The add/edit dialogs' rules, without Qt."""

from __future__ import annotations

from app.api.models import DncEntry, SmsOptOut
from app.api.scope import Scope, ScopeKind
from app.core.entry_validation import EntryDraft, EntryKind, changes, draft_of, validate


def _dnc(**kw: str) -> DncEntry:
    values = {
        "id": "7",
        "phone_number": "2025550143",
        "phone_code": "1",
        "campaign_id": "0",
        "reason": "Customer request",
        "purpose": "",
        "insert_date": "2024-01-02 03:04:05",
    }
    values.update(kw)
    return DncEntry.from_api(values)


def test_common_formats_normalize() -> None:
    for typed in ("(202) 555-0143", "202.555.0143", "+1 202 555 0143", "2025550143"):
        result = validate(EntryKind.DNC, EntryDraft(typed, "1", ScopeKind.GLOBAL))
        assert result.ok, typed
        assert result.entry is not None
        assert (result.entry.phone_number, result.entry.phone_code) == ("2025550143", "1")
        assert result.entry.scope == Scope.global_()


def test_each_problem_names_its_field() -> None:
    result = validate(EntryKind.DNC, EntryDraft("12345", "1", ScopeKind.CAMPAIGN))
    assert not result.ok
    assert (
        result.problems["phone_number"]
        == "Too short for a US number: 5 digits, expected 10 digits."
    )
    assert "campaign" in result.problems["campaign_id"].lower()
    bad_code = validate(EntryKind.DNC, EntryDraft("2025550143", "9999", ScopeKind.GLOBAL))
    assert "not a country calling code" in bad_code.problems["phone_code"]
    empty = validate(EntryKind.DNC, EntryDraft("", "1", ScopeKind.GLOBAL))
    assert empty.problems == {"phone_number": "Enter the phone number."}
    long_reason = validate(
        EntryKind.DNC, EntryDraft("2025550143", "1", ScopeKind.GLOBAL, reason="x" * 300)
    )
    assert "at most 255" in long_reason.problems["reason"]


def test_purpose_scope_needs_purpose() -> None:
    sms = validate(EntryKind.SMS, EntryDraft("2025550143", "1", ScopeKind.PURPOSE))
    assert "6080" in sms.problems["purpose"]
    dnc = validate(EntryKind.DNC, EntryDraft("2025550143", "1", ScopeKind.PURPOSE))
    assert "purpose" in dnc.problems
    ok = validate(
        EntryKind.SMS, EntryDraft("2025550143", "1", ScopeKind.PURPOSE, purpose="Surveys")
    )
    assert ok.entry is not None and ok.entry.scope == Scope.purpose("Surveys")


def test_campaign_scope() -> None:
    result = validate(EntryKind.DNC, EntryDraft("2025550143", "1", ScopeKind.CAMPAIGN, "1001"))
    assert result.entry is not None and result.entry.scope == Scope.campaign("1001")
    assert not validate(EntryKind.DNC, EntryDraft("2025550143", "1", ScopeKind.CAMPAIGN, "0")).ok


def test_changes_only_what_changed_and_blank_reason_clears() -> None:
    before = _dnc()
    same = validate(EntryKind.DNC, draft_of(before)).entry
    assert same is not None and changes(before, same) == {}
    cleared = validate(
        EntryKind.DNC, EntryDraft("2025550143", "1", ScopeKind.GLOBAL, reason="")
    ).entry
    assert cleared is not None and changes(before, cleared) == {"reason": ""}
    moved = validate(
        EntryKind.DNC,
        EntryDraft("2025550144", "1", ScopeKind.CAMPAIGN, "1001", reason="Customer request"),
    ).entry
    assert moved is not None
    assert changes(before, moved) == {"phone_number": "2025550144", "scope": Scope.campaign("1001")}


def test_dnc_purpose_blank_is_not_sent_but_sms_purpose_blank_clears() -> None:
    dnc = _dnc(purpose="Marketing")
    entry = validate(
        EntryKind.DNC, EntryDraft("2025550143", "1", ScopeKind.GLOBAL, reason="Customer request")
    ).entry
    assert entry is not None and changes(dnc, entry) == {}
    sms = SmsOptOut.from_api(
        {
            "id": "3",
            "phone_number": "2025550143",
            "phone_code": "1",
            "campaign_id": "0",
            "reason": "STOP",
            "purpose": "Surveys",
        }
    )
    entry = validate(EntryKind.SMS, EntryDraft("2025550143", "1", ScopeKind.GLOBAL)).entry
    assert entry is not None and changes(sms, entry) == {"reason": "", "purpose": ""}
