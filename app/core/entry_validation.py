"""The rules the add and edit dialogs apply before anything is sent, without Qt.

The dialogs check every keystroke against these rules, so a number the service would reject
is explained beside its field at once. Field names are the API's request fields
(``phone_number``, ``phone_code``, ``campaign_id``, ``purpose``, ``reason``), the same names
the service's errors carry in ``ApiError.field``, so local and remote problems land beside
the same widget.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from app.api.models import DncEntry, SmsOptOut
from app.api.scope import Scope, ScopeKind
from app.core.phones import normalize, normalize_code, region_name

# The sandbox's (and, as far as we know, the service's) limit on reason and purpose text.
MAX_TEXT = 255


class EntryKind(Enum):
    """Which list an entry belongs to; the SMS API has its own rules (purpose, -BLANK-)."""

    DNC = "dnc"
    SMS = "sms"


@dataclass(frozen=True, slots=True)
class EntryDraft:
    """What the user typed into the dialog."""

    phone: str
    phone_code: str
    scope_kind: ScopeKind
    campaign_id: str = ""
    purpose: str = ""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ValidEntry:
    """A draft that passed every rule, in the API's terms."""

    phone_number: str
    phone_code: str
    scope: Scope
    purpose: str
    reason: str


@dataclass(frozen=True, slots=True)
class Validation:
    """Either ``entry`` or ``problems`` (field → one sentence)."""

    entry: ValidEntry | None
    problems: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.entry is not None


def check_phone_code(text: str) -> tuple[str | None, str]:
    """(code, "") or (None, why not)."""
    raw = text.strip()
    if not raw:
        return None, "Enter the country calling code, e.g. 1 for the US and Canada."
    code = normalize_code(raw.split(" ", 1)[0])
    if code is None:
        return None, f"{raw} is not a country calling code."
    return code, ""


def check_phone(text: str, phone_code: str) -> tuple[str | None, str]:
    """(national number, "") or (None, why not) for a number typed in any common format."""
    if not text.strip():
        return None, "Enter the phone number."
    result = normalize(text, phone_code)
    if not result.ok:
        reason = result.reason.rstrip(".") or f"not a valid {region_name(phone_code)} number"
        return None, f"{reason[0].upper()}{reason[1:]}."
    return result.national, ""


def validate(kind: EntryKind, draft: EntryDraft) -> Validation:
    """Every rule at once, so the dialog can show each field's problem beside it."""
    problems: dict[str, str] = {}
    code, why = check_phone_code(draft.phone_code)
    if code is None:
        problems["phone_code"] = why
    national: str | None = None
    if code is not None:
        national, why = check_phone(draft.phone, code)
        if national is None:
            problems["phone_number"] = why
    elif not draft.phone.strip():
        problems["phone_number"] = "Enter the phone number."
    purpose = draft.purpose.strip()
    reason = draft.reason.strip()
    scope: Scope | None = None
    if draft.scope_kind is ScopeKind.GLOBAL:
        scope = Scope.global_()
    elif draft.scope_kind is ScopeKind.PURPOSE:
        if not purpose:
            problems["purpose"] = (
                "Purpose is required for a purpose-scope opt-out (the service refuses it, code "
                "6080)."
                if kind is EntryKind.SMS
                else "A purpose-scope entry needs the purpose it applies to."
            )
        scope = Scope.purpose(purpose)
    elif not (cid := draft.campaign_id.strip()).isascii() or not cid.isdigit() or cid == "0":
        problems["campaign_id"] = "Pick the campaign this entry applies to."
    else:
        scope = Scope.campaign(draft.campaign_id)
    if len(purpose) > MAX_TEXT:
        problems["purpose"] = f"Purpose is {len(purpose)} characters; at most {MAX_TEXT}."
    if len(reason) > MAX_TEXT:
        problems["reason"] = f"Reason is {len(reason)} characters; at most {MAX_TEXT}."
    if problems or national is None or code is None or scope is None:
        return Validation(None, problems)
    return Validation(ValidEntry(national, code, scope, purpose, reason))


def draft_of(entry: DncEntry | SmsOptOut) -> EntryDraft:
    """The dialog's starting values when editing ``entry``."""
    return EntryDraft(
        phone=entry.phone_number,
        phone_code=entry.phone_code,
        scope_kind=entry.scope.kind,
        campaign_id=entry.scope.campaign_id,
        purpose=entry.purpose,
        reason=entry.reason,
    )


def changes(before: DncEntry | SmsOptOut, after: ValidEntry) -> dict[str, object]:
    """Keyword arguments for ``Session.update_dnc``/``update_sms``: only what changed.

    A reason emptied by the user is sent as ``""``, which clears it (DNC: a blank reason;
    SMS: the client sends ``-BLANK-``). Same for an SMS purpose. A DNC purpose cannot be
    cleared through the API (a blank one is ignored), so an emptied one is not sent.
    """
    out: dict[str, object] = {}
    if after.phone_number != before.phone_number:
        out["phone_number"] = after.phone_number
    if after.phone_code != before.phone_code:
        out["phone_code"] = after.phone_code
    if after.scope.api_campaign_id != before.scope.api_campaign_id:
        out["scope"] = after.scope
    if after.reason != before.reason:
        out["reason"] = after.reason
    if after.purpose != before.purpose and (after.purpose or isinstance(before, SmsOptOut)):
        out["purpose"] = after.purpose
    return out
