"""The scope of a DNC entry or SMS opt-out: global, a purpose, or one campaign.

The API encodes scope in ``campaign_id``: ``0`` is global, ``-1`` is a purpose-type
entry (its ``purpose`` text names the purpose), anything else is a campaign id.
Callers use :class:`Scope` everywhere so no one handles the magic strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

GLOBAL_CAMPAIGN_ID = "0"
PURPOSE_CAMPAIGN_ID = "-1"


class ScopeKind(Enum):
    GLOBAL = "global"
    PURPOSE = "purpose"
    CAMPAIGN = "campaign"


class ScopeError(ValueError):
    """A scope written by a person (CLI flag, spreadsheet cell) could not be understood."""


@dataclass(frozen=True, slots=True)
class Scope:
    """Where an entry applies. Build with :meth:`global_`, :meth:`purpose` or :meth:`campaign`."""

    kind: ScopeKind
    campaign_id: str = ""
    purpose_text: str = ""

    @classmethod
    def global_(cls) -> Scope:
        return cls(ScopeKind.GLOBAL)

    @classmethod
    def purpose(cls, text: str) -> Scope:
        return cls(ScopeKind.PURPOSE, purpose_text=text.strip())

    @classmethod
    def campaign(cls, campaign_id: str | int) -> Scope:
        cid = str(campaign_id).strip()
        # ASCII digits: str.isdigit() takes "²", no campaign id the service knows.
        if not (cid.isascii() and cid.isdigit()) or cid == GLOBAL_CAMPAIGN_ID:
            raise ScopeError(f"campaign id must be a positive number, not {cid!r}")
        return cls(ScopeKind.CAMPAIGN, campaign_id=cid)

    @classmethod
    def from_api(cls, campaign_id: object, purpose: str = "") -> Scope:
        """The scope of a record as the service returned it."""
        cid = str(campaign_id if campaign_id is not None else "").strip()
        if cid in ("", GLOBAL_CAMPAIGN_ID):
            return cls.global_()
        if cid == PURPOSE_CAMPAIGN_ID:
            return cls.purpose(purpose or "")
        return cls(ScopeKind.CAMPAIGN, campaign_id=cid)

    @classmethod
    def parse(cls, text: str) -> Scope:
        """Parse ``global``, ``campaign:ID`` or ``purpose:TEXT`` (as the CLI and files write it)."""
        raw = text.strip()
        low = raw.lower()
        if low in ("global", "0", "all"):
            return cls.global_()
        if low.startswith("campaign:"):
            return cls.campaign(raw.split(":", 1)[1])
        if low.startswith("purpose:"):
            purpose_text = raw.split(":", 1)[1].strip()
            if not purpose_text:
                raise ScopeError("a purpose scope needs its purpose text, e.g. purpose:Collections")
            return cls.purpose(purpose_text)
        if raw.isascii() and raw.isdigit():
            return cls.campaign(raw)
        raise ScopeError(f"{raw!r} is not a scope; use global, campaign:ID or purpose:TEXT")

    @property
    def api_campaign_id(self) -> str:
        if self.kind is ScopeKind.GLOBAL:
            return GLOBAL_CAMPAIGN_ID
        if self.kind is ScopeKind.PURPOSE:
            return PURPOSE_CAMPAIGN_ID
        return self.campaign_id

    @property
    def is_global(self) -> bool:
        return self.kind is ScopeKind.GLOBAL

    @property
    def is_purpose(self) -> bool:
        return self.kind is ScopeKind.PURPOSE

    @property
    def is_campaign(self) -> bool:
        return self.kind is ScopeKind.CAMPAIGN

    def label(self, campaign_name: str = "") -> str:
        """How a person reads the scope: ``Global``, ``Purpose: …`` or the campaign's name."""
        if self.kind is ScopeKind.GLOBAL:
            return "Global"
        if self.kind is ScopeKind.PURPOSE:
            return f"Purpose: {self.purpose_text}" if self.purpose_text else "Purpose"
        return campaign_name or f"Campaign {self.campaign_id}"

    def __str__(self) -> str:
        if self.kind is ScopeKind.GLOBAL:
            return "global"
        if self.kind is ScopeKind.PURPOSE:
            return f"purpose:{self.purpose_text}"
        return f"campaign:{self.campaign_id}"
