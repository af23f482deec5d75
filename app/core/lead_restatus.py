"""Set the status of leads (an audit's conflicting leads) through the journaled session.

The status is checked against ``/status/search`` first, so a typo fails once, before any lead
is touched. Writes run with bounded concurrency; each lead gets its own outcome row, and
cancelling stops new writes while the ones in flight finish and are recorded.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.api.concurrency import bounded_map
from app.api.errors import ApiError
from app.api.models import Lead, LeadStatus
from app.api.paging import Cancelled
from app.core.audit_types import Progress, no_progress
from app.core.session import CANCELLED_AFTER_LOST_ANSWER, Session, cancelled_after_refusals


class UnknownStatusError(ValueError):
    """The chosen status code is not one the service knows; the message says so."""


@dataclass(frozen=True, slots=True)
class RestatusRow:
    """The outcome for one lead: ``ok``, ``failed`` (with the error) or ``not_attempted``."""

    lead_id: str
    list_id: str
    old_status: str
    new_status: str
    outcome: str
    error: str = ""


@dataclass
class RestatusOutcome:
    """All rows of one re-status run, with its journal job id."""

    job: str
    status: str
    rows: list[RestatusRow] = field(default_factory=list)
    cancelled: bool = False

    @property
    def done(self) -> int:
        return sum(1 for r in self.rows if r.outcome == "ok")

    @property
    def failed(self) -> int:
        return sum(1 for r in self.rows if r.outcome == "failed")


def resolve_status(session: Session, code: str) -> LeadStatus:
    """The service's status with this code (case-insensitive), or UnknownStatusError."""
    wanted = code.strip()
    if not wanted:
        raise UnknownStatusError("Choose a lead status.")
    for status in session.api.search_statuses(wanted):
        if status.status.casefold() == wanted.casefold():
            return status
    raise UnknownStatusError(f"The service has no lead status {wanted!r}.")


def restatus_leads(
    session: Session,
    leads: Iterable[Lead],
    status_code: str,
    *,
    note: str = "",
    concurrency: int = 4,
    cancel: threading.Event | None = None,
    progress: Progress = no_progress,
) -> RestatusOutcome:
    """Give every lead (each once) the status; returns per-lead outcomes."""
    status = resolve_status(session, status_code)
    unique = list({lead.id: lead for lead in leads}.values())
    outcome = RestatusOutcome(job=f"restatus-{uuid.uuid4().hex[:12]}", status=status.status)
    total = len(unique)
    attempted: set[str] = set()
    why = note or "lead on an opt-out list that applies to its campaign"

    def write(lead: Lead) -> None:
        session.restatus_lead(lead, status.status, job=outcome.job, note=why, cancel=cancel)

    for done in bounded_map(write, unique, concurrency=concurrency, stop=cancel):
        lead = done.item
        attempted.add(lead.id)
        if done.error is None:
            row = RestatusRow(lead.id, lead.list_id, lead.status, status.status, "ok")
        elif isinstance(done.error, Cancelled):
            stopped = done.error
            ended, why = "not_attempted", ""
            if stopped.maybe_done:  # stopped between attempts after an answer was lost
                ended, why = "failed", CANCELLED_AFTER_LOST_ANSWER
            elif stopped.refused:
                why = cancelled_after_refusals(stopped.refused)
            row = RestatusRow(lead.id, lead.list_id, lead.status, status.status, ended, why)
        elif isinstance(done.error, ApiError):
            row = RestatusRow(
                lead.id, lead.list_id, lead.status, status.status, "failed", done.error.describe()
            )
        else:
            raise done.error
        outcome.rows.append(row)
        progress(
            len(outcome.rows), total, f"Set {outcome.done:,} of {total:,} leads to {status.status}"
        )
    for lead in unique:
        if lead.id not in attempted:
            outcome.cancelled = True
            outcome.rows.append(
                RestatusRow(lead.id, lead.list_id, lead.status, status.status, "not_attempted")
            )
    return outcome
