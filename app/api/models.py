"""Typed records of the contact-center API, built from the service's JSON.

The service returns ids as strings and flags as ``Y``/``N``; these classes keep the raw
strings where the API defines them and add typed helpers, so nothing upstream parses JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum
from typing import Any, Generic, TypeVar

from app.api.scope import Scope

T = TypeVar("T")

TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S"


def _s(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if value is None:
        return ""
    return str(value)


def _flag(data: Mapping[str, Any], key: str) -> bool:
    return _s(data, key).strip().upper() in ("Y", "1", "TRUE")


def parse_timestamp(text: str) -> datetime | None:
    """The API's ``YYYY-MM-DD HH:MM:SS`` (or bare date) as a naive datetime, else None."""
    text = text.strip()
    for fmt in (TIMESTAMP_FORMAT, "%Y-%m-%d"):
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def listed_by(text: str) -> datetime | None:
    """The latest time an insert date allows (naive, the service's clock): a bare date proves
    only that the entry existed by the end of that day, so it counts as that day's end."""
    when = parse_timestamp(text)
    if when is not None and is_bare_date(text):
        return when + timedelta(days=1)
    return when


def is_bare_date(text: str) -> bool:
    """Whether an insert date is a day with no time of day (``2026-11-24``)."""
    try:
        datetime.strptime(text.strip(), "%Y-%m-%d")
    except ValueError:
        return False
    return True


class ReasonFilter(Enum):
    """The API's reason filter: any value, ``-BLANK-`` or ``-NOTBLANK-``."""

    ANY = ""
    BLANK = "-BLANK-"
    NOT_BLANK = "-NOTBLANK-"


@dataclass(frozen=True, slots=True)
class DncEntry:
    id: str
    phone_number: str
    phone_code: str
    scope: Scope
    campaign_uid: str
    campaign_name: str
    insert_date: str
    reason: str
    purpose: str

    @classmethod
    def from_api(cls, data: Mapping[str, Any]) -> DncEntry:
        purpose = _s(data, "purpose")
        return cls(
            id=_s(data, "id"),
            phone_number=_s(data, "phone_number"),
            phone_code=_s(data, "phone_code"),
            scope=Scope.from_api(data.get("campaign_id"), purpose),
            campaign_uid=_s(data, "campaign_uid"),
            campaign_name=_s(data, "campaign_name"),
            insert_date=_s(data, "insert_date"),
            reason=_s(data, "reason"),
            purpose=purpose,
        )

    @property
    def inserted_at(self) -> datetime | None:
        return parse_timestamp(self.insert_date)

    def as_dict(self) -> dict[str, str]:
        """Plain values for journals and exports."""
        return {
            "id": self.id,
            "phone_number": self.phone_number,
            "phone_code": self.phone_code,
            "campaign_id": self.scope.api_campaign_id,
            "scope": str(self.scope),
            "campaign_name": self.campaign_name,
            "insert_date": self.insert_date,
            "reason": self.reason,
            "purpose": self.purpose,
        }


@dataclass(frozen=True, slots=True)
class SmsOptOut:
    id: str
    phone_number: str
    phone_code: str
    scope: Scope
    campaign_name: str
    insert_date: str
    reason: str
    purpose: str

    @classmethod
    def from_api(cls, data: Mapping[str, Any]) -> SmsOptOut:
        purpose = _s(data, "purpose")
        return cls(
            id=_s(data, "id"),
            phone_number=_s(data, "phone_number"),
            phone_code=_s(data, "phone_code"),
            scope=Scope.from_api(data.get("campaign_id"), purpose),
            campaign_name=_s(data, "campaign_name"),
            insert_date=_s(data, "insert_date"),
            reason=_s(data, "reason"),
            purpose=purpose,
        )

    @property
    def inserted_at(self) -> datetime | None:
        return parse_timestamp(self.insert_date)

    def as_dict(self) -> dict[str, str]:
        return {
            "id": self.id,
            "phone_number": self.phone_number,
            "phone_code": self.phone_code,
            "campaign_id": self.scope.api_campaign_id,
            "scope": str(self.scope),
            "campaign_name": self.campaign_name,
            "insert_date": self.insert_date,
            "reason": self.reason,
            "purpose": self.purpose,
        }


@dataclass(frozen=True, slots=True)
class Campaign:
    id: str
    name: str
    active: bool
    last_call_date: str
    last_call_timezone: str

    @classmethod
    def from_api(cls, data: Mapping[str, Any]) -> Campaign:
        last = data.get("last_call_date")
        date = tz = ""
        if isinstance(last, Mapping):
            date = _s(last, "date")
            tz = _s(last, "timezone")
        elif last is not None:
            date = str(last)
        return cls(
            id=_s(data, "id"),
            name=_s(data, "name"),
            active=_flag(data, "status"),
            last_call_date=date,
            last_call_timezone=tz,
        )

    @property
    def display_name(self) -> str:
        return self.name if self.active else f"{self.name} (inactive)"


@dataclass(frozen=True, slots=True)
class LeadStatus:
    status: str
    name: str
    final: bool
    reached: bool
    success: bool
    dnc: bool
    callback: bool
    contact: bool
    voicemail: bool
    custom: bool
    hex_color: str
    workflow_disposition_event_option: str = ""

    @classmethod
    def from_api(cls, data: Mapping[str, Any]) -> LeadStatus:
        custom = data.get("custom_status")
        return cls(
            status=_s(data, "status"),
            name=_s(data, "name"),
            final=_flag(data, "final"),
            reached=_flag(data, "reached"),
            success=_flag(data, "success"),
            dnc=_flag(data, "dnc"),
            callback=_flag(data, "callback"),
            contact=_flag(data, "contact"),
            voicemail=_flag(data, "voicemail"),
            custom=custom is True or str(custom).lower() in ("true", "1", "y"),
            hex_color=_s(data, "hex_color"),
            workflow_disposition_event_option=_s(data, "workflow_disposition_event_option"),
        )

    @property
    def flags(self) -> dict[str, bool]:
        return {
            "final": self.final,
            "reached": self.reached,
            "success": self.success,
            "dnc": self.dnc,
            "callback": self.callback,
            "contact": self.contact,
            "voicemail": self.voicemail,
        }


LEAD_PHONE_FIELDS = ("phone_number", "alt_phone_1", "alt_phone_2")


@dataclass(frozen=True, slots=True)
class Lead:
    id: str
    list_id: str
    status: str
    phone_number: str
    phone_code: str
    alt_phone_1: str
    alt_phone_2: str
    first_name: str
    last_name: str
    fields: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_api(cls, data: Mapping[str, Any]) -> Lead:
        return cls(
            id=_s(data, "id"),
            list_id=_s(data, "list_id"),
            status=_s(data, "status"),
            phone_number=_s(data, "phone_number"),
            phone_code=_s(data, "phone_code"),
            alt_phone_1=_s(data, "alt_phone_1"),
            alt_phone_2=_s(data, "alt_phone_2"),
            first_name=_s(data, "first_name"),
            last_name=_s(data, "last_name"),
            fields={str(k): "" if v is None else str(v) for k, v in data.items()},
        )

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    def phones(self) -> list[tuple[str, str]]:
        """(field name, number) for every non-blank phone field of the lead."""
        return [(f, getattr(self, f)) for f in LEAD_PHONE_FIELDS if getattr(self, f).strip()]


@dataclass(frozen=True, slots=True)
class LeadList:
    id: str
    name: str
    active: bool
    campaign_id: str
    description: str
    last_called_at: str

    @classmethod
    def from_api(cls, data: Mapping[str, Any]) -> LeadList:
        return cls(
            id=_s(data, "id"),
            name=_s(data, "name"),
            active=_flag(data, "status"),
            campaign_id=_s(data, "campaign_id"),
            description=_s(data, "description"),
            last_called_at=_s(data, "last_called_at"),
        )


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a search, with the service's total where the endpoint reports one."""

    items: Sequence[T]
    offset: int
    limit: int
    total: int | None

    def __len__(self) -> int:
        return len(self.items)


class WriteStatus(Enum):
    """How an idempotent write ended."""

    DONE = "done"
    ALREADY_PRESENT = "already_present"
    NOT_FOUND = "not_found"


@dataclass(frozen=True, slots=True)
class WriteResult:
    """The outcome of one write the service accepted (or that was already in effect).

    ``retried`` is True when the answer came after more than one attempt (after a lost
    answer, a 5xx or a 429 alike).

    ``earlier_attempt_lost`` is True when an earlier attempt of this write got no answer saying
    whether it was done (a timeout or a dropped connection after sending, a 5xx, an answer that
    is not the API's JSON or not saying ``success: true``; the transport's
    :attr:`~app.api.errors.ApiError.earlier_attempt_lost`): that attempt may have done the
    write, so an ``ALREADY_PRESENT`` may be our own insert and a ``NOT_FOUND`` our own delete.
    It is set only on those two statuses: the transport returns a successful answer with its
    attempt count alone, so for ``DONE`` the client cannot know whether an answer was lost
    and leaves it False.
    """

    status: WriteStatus
    id: str = ""
    attempts: int = 1
    message: str = ""
    earlier_attempt_lost: bool = False

    @property
    def retried(self) -> bool:
        return self.attempts > 1
