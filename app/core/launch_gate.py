"""The campaign launch gate: activate a campaign only after a clean, recent audit.

:func:`gate_check` answers from the local audit records; :func:`activate` performs the change
through the journaled session. Activating without a clean audit in the window is an override:
the caller must confirm it, with a reason, and it is recorded in the change journal as a
``gate.override`` event before the status change is sent. Deactivating is never gated.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from app.api.errors import PermissionDeniedError
from app.api.models import Campaign, WriteResult
from app.core.audit_records import AuditRecord, AuditRecords
from app.core.session import Session

DEFAULT_WINDOW_HOURS = 24


class GateRefused(Exception):
    """The campaign was not activated; ``str()`` is one sentence for the user."""


@dataclass(frozen=True, slots=True)
class GateDecision:
    """Whether the campaign may be activated without asking, and why."""

    campaign_id: str
    allowed: bool  # a clean audit within the window exists
    reason: str
    last_audit: AuditRecord | None  # the latest audit, clean or not
    last_clean: AuditRecord | None
    window_hours: float

    @property
    def needs_confirmation(self) -> bool:
        return not self.allowed


def _parse(stamp: str) -> datetime | None:
    try:
        return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError:
        return None


def gate_check(
    records: AuditRecords,
    base_url: str,
    campaign_id: str,
    window_hours: float = DEFAULT_WINDOW_HOURS,
    *,
    now: datetime | None = None,
) -> GateDecision:
    """Is there a clean audit of the campaign within ``window_hours``? What was the last one?"""
    now = now or datetime.now(UTC)
    last = records.last(base_url, campaign_id)
    clean = records.last_clean(base_url, campaign_id)
    window = timedelta(hours=window_hours)

    def decision(allowed: bool, reason: str) -> GateDecision:
        return GateDecision(campaign_id, allowed, reason, last, clean, window_hours)

    if last is None:
        return decision(False, "The campaign has never been audited.")
    finished = _parse(last.finished_at)
    if not last.clean:
        return decision(
            False, f"The last audit ({last.finished_at}) was not clean: {last.summary}."
        )
    if finished is None or now - finished > window:
        return decision(
            False,
            f"The last clean audit ({last.finished_at}) is older than {window_hours:g} hours.",
        )
    return decision(True, f"Clean audit at {last.finished_at}: {last.summary}.")


def activate(
    session: Session,
    campaign: Campaign,
    decision: GateDecision,
    *,
    confirmed: bool = False,
    override_reason: str = "",
) -> WriteResult:
    """Activate the campaign; without a clean recent audit only when ``confirmed`` with a
    reason, and the override is journaled first."""
    if decision.campaign_id != campaign.id:
        raise ValueError("the gate decision is for another campaign")
    if not decision.allowed:
        if not confirmed:
            raise GateRefused(f"{decision.reason} Confirm the override to activate anyway.")
        if not override_reason.strip():
            raise GateRefused("An override needs a reason, for the change journal.")
        last = decision.last_audit
        session.journal.record_event(
            connection=session.connection.name,
            base_url=session.connection.base_url,
            operation="gate.override",
            target=f"campaign id={campaign.id} ({campaign.name})",
            note=override_reason.strip(),
            details={
                "campaign_id": campaign.id,
                "gate": decision.reason,
                "window_hours": decision.window_hours,
                "last_audit_at": last.finished_at if last else "",
                "last_audit_clean": last.clean if last else None,
                "last_audit_report_sha256": last.report_sha256 if last else "",
            },
        )
    return set_status(session, campaign, True, note=override_reason.strip())


def deactivate(session: Session, campaign: Campaign, *, note: str = "") -> WriteResult:
    return set_status(session, campaign, False, note=note)


def set_status(
    session: Session, campaign: Campaign, active: bool, *, note: str = ""
) -> WriteResult:
    """Change the status through the session; a token without campaign management is refused
    with a sentence that says so (the refusal is in the journal too)."""
    try:
        return session.set_campaign_status(campaign, active, note=note)
    except PermissionDeniedError:
        verb = "activate" if active else "deactivate"
        raise GateRefused(
            f"The service refused to {verb} {campaign.name}: this connection's token lacks the "
            "campaign-management permission; ask an administrator."
        ) from None


class LaunchGate:
    """The gate for one session: ``gate_check(campaign_id, window_hours)`` then ``activate``.

    A convenience for the GUI and CLI, which hold a session and the audit records anyway.
    """

    def __init__(self, session: Session, records: AuditRecords) -> None:
        self.session = session
        self.records = records

    def gate_check(
        self, campaign_id: str, window_hours: float = DEFAULT_WINDOW_HOURS
    ) -> GateDecision:
        return gate_check(self.records, self.session.connection.base_url, campaign_id, window_hours)

    def activate(
        self,
        campaign: Campaign,
        decision: GateDecision | None = None,
        *,
        confirmed: bool = False,
        override_reason: str = "",
    ) -> WriteResult:
        decision = decision or self.gate_check(campaign.id)
        return activate(
            self.session,
            campaign,
            decision,
            confirmed=confirmed,
            override_reason=override_reason,
        )

    def deactivate(self, campaign: Campaign, *, note: str = "") -> WriteResult:
        return deactivate(self.session, campaign, note=note)
