"""Plain records shared by the campaign audit's stages (gather, sources, match, report).

Everything here is a frozen dataclass or an enum so a GUI can show results without knowing
how they were produced, and tests can compare them directly.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from app.api.models import DncEntry, Lead, LeadList, SmsOptOut
from app.api.paging import Cancelled
from app.api.scope import Scope

# (done, total, message); total 0 means "not known yet" (lead searches report no total).
Progress = Callable[[int, int, str], None]

# Each read of the audit is tried this often in all (each with the client's own retries) while
# the service fails it, as evidence asks its searches again (black-box bb7 #1: one 502 after the
# client's retries ended the whole audit).
READ_ROUNDS = 3


def no_progress(done: int, total: int, message: str) -> None:
    """The progress callback used when the caller passes none."""


def check_cancel(cancel: threading.Event | None) -> None:
    """Raise :class:`Cancelled` when the caller asked the work to stop."""
    if cancel is not None and cancel.is_set():
        raise Cancelled


class ListKind(Enum):
    """Which opt-out list an entry comes from."""

    DNC = "DNC"
    SMS = "SMS opt-out"


class Strategy(Enum):
    """How the audit learned a scope's entries."""

    DOWNLOAD = "download"
    LOOKUP = "lookup"


# An entry's insert_date is the service's clock, whose zone the API does not give: every table
# that shows it (evidence pack, audit report, the window's views) heads it so (black-box B32).
INSERT_DATE_HEADER = "Insert date (service's clock)"


@dataclass(frozen=True, slots=True)
class OptOutRecord:
    """A DNC entry or an SMS opt-out, in one shape so both lists match the same way."""

    kind: ListKind
    id: str
    phone_number: str
    phone_code: str
    scope: Scope
    campaign_name: str
    insert_date: str
    reason: str
    purpose: str

    @classmethod
    def from_dnc(cls, entry: DncEntry) -> OptOutRecord:
        return cls(
            ListKind.DNC,
            entry.id,
            entry.phone_number,
            entry.phone_code,
            entry.scope,
            entry.campaign_name,
            entry.insert_date,
            entry.reason,
            entry.purpose,
        )

    @classmethod
    def from_sms(cls, record: SmsOptOut) -> OptOutRecord:
        return cls(
            ListKind.SMS,
            record.id,
            record.phone_number,
            record.phone_code,
            record.scope,
            record.campaign_name,
            record.insert_date,
            record.reason,
            record.purpose,
        )


@dataclass(frozen=True, slots=True)
class LeadNumber:
    """One phone field of one lead, with its matching key or the reason it has none."""

    lead: Lead
    field: str
    raw: str
    phone_code: str
    # (phone_code, national) to match on; for a number that does not parse, its bare digits
    # (so junk that is on a list as the same junk is still caught), or None with no digits.
    key: tuple[str, str] | None
    ok: bool  # the number parses as a valid number for its country code
    reason: str = ""  # why it does not parse

    @property
    def e164(self) -> str:
        return f"+{self.key[0]}{self.key[1]}" if self.ok and self.key is not None else ""


@dataclass(frozen=True, slots=True)
class Conflict:
    """A lead number found on an opt-out list that applies to the campaign."""

    number: LeadNumber
    entry: OptOutRecord
    list_name: str

    @property
    def scope_label(self) -> str:
        """``global``, ``campaign:ID`` or ``purpose:TEXT``: purpose conflicts keep their purpose
        because the API does not say which campaigns a purpose covers."""
        return str(self.entry.scope)


@dataclass(frozen=True, slots=True)
class ScopeSource:
    """How one (list, scope) pair was consulted, for the report's "strategy per scope"."""

    kind: ListKind
    scope: Scope
    strategy: Strategy
    total: int  # entries the service reported in the scope (at planning time)
    fetched: int  # entries received (downloaded, or found by lookups)
    requests: int
    why: str
    # Entries the service counted but did not give, even asked again (an empty page before
    # its total): the scope is not fully checked, so the audit is not clean.
    unread: int = 0
    # Numbers (``+CODE NATIONAL``) whose search the service failed in every round: not checked
    # in this scope (and the scopes the same searches answer), so the audit is not clean
    # (black-box bb7 #1).
    not_checked: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ListTotals:
    """Per lead list: what the audit read and found."""

    lead_list: LeadList
    leads: int
    numbers: int
    unparseable: int
    conflicts: int


@dataclass(frozen=True)
class AuditResult:
    """Everything one campaign audit established; plain data for the GUI, CLI and report."""

    connection: str
    base_url: str
    campaign_id: str
    campaign_name: str
    started_at: str  # UTC, ISO 8601
    finished_at: str
    lists: list[ListTotals]
    leads: int
    numbers: int
    unparseable: list[LeadNumber]
    conflicts: list[Conflict]
    sources: list[ScopeSource]
    timings: dict[str, float] = field(default_factory=dict)
    lead_pages: int = 0

    @property
    def unread(self) -> int:
        """Opt-out entries the service counted but did not give (black-box U1 #2)."""
        return sum(s.unread for s in self.sources)

    @property
    def not_checked(self) -> int:
        """Numbers whose look-up the service failed in every round, in any list (black-box
        bb7 #1), each counted once."""
        return len({n for s in self.sources for n in s.not_checked})

    @property
    def clean(self) -> bool:
        """No conflict, every number checked and every entry read: only then is the campaign
        proven clean."""
        return (
            not self.conflicts and not self.unparseable and not self.unread and not self.not_checked
        )

    @property
    def conflicting_leads(self) -> list[Lead]:
        """Each lead with at least one conflict, once, in the order first found."""
        seen: dict[str, Lead] = {}
        for conflict in self.conflicts:
            seen.setdefault(conflict.number.lead.id, conflict.number.lead)
        return list(seen.values())

    def conflicts_by_list(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for conflict in self.conflicts:
            out[conflict.number.lead.list_id] = out.get(conflict.number.lead.list_id, 0) + 1
        return out

    def conflicts_by_scope(self) -> dict[str, int]:
        """Keyed ``"DNC global"``, ``"SMS opt-out campaign:7"``, ``"DNC purpose:Collections"``."""
        out: dict[str, int] = {}
        for conflict in self.conflicts:
            key = f"{conflict.entry.kind.value} {conflict.scope_label}"
            out[key] = out.get(key, 0) + 1
        return out
