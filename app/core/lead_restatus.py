"""Set the status of leads (an audit's conflicting leads) through the journaled session.

The status is checked against ``/status/search`` first, so a typo fails once, before any lead
is touched. Writes run with bounded concurrency; each lead gets its own outcome row, and
cancelling stops new writes while the ones in flight finish and are recorded.

Each lead is written with its own ``/leads/update``. A lead that already has the status is not
written: setting it would change nothing, yet be journaled as a change ("DNC→DNC"). As the
lead given may be an old reading (an audit's), it is looked up again first, and only skipped
when that look-up finds it in the status still: its row ends ``unchanged``, saying no request
was sent. Found in another status, it is written, journaled with the status it had then.
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


# The outcome of a lead found already in the status: no request was sent for it.
UNCHANGED = "unchanged"


@dataclass(frozen=True, slots=True)
class RestatusRow:
    """The outcome for one lead: ``ok``, ``unchanged`` (already in the status; nothing sent,
    ``error`` says so), ``failed`` (with the error) or ``not_attempted``."""

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

    @property
    def unchanged(self) -> int:
        return sum(1 for r in self.rows if r.outcome == UNCHANGED)


def resolve_status(session: Session, code: str) -> LeadStatus:
    """The service's status with this code (case-insensitive), or UnknownStatusError."""
    wanted = code.strip()
    if not wanted:
        raise UnknownStatusError("Choose a lead status.")
    for status in session.api.search_statuses(wanted):
        if status.status.casefold() == wanted.casefold():
            return status
    raise UnknownStatusError(f"The service has no lead status {wanted!r}.")


def _current(session: Session, lead: Lead, cancel: threading.Event | None) -> Lead | None:
    """``lead`` as the service has it now (None when it is gone). A read."""
    page = session.api.search_leads({"lead_id": lead.id}, limit=1, cancel=cancel)
    return next((x for x in page.items if x.id == lead.id), None)


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

    def write(lead: Lead) -> RestatusRow:
        if lead.status == status.status:
            try:
                now = _current(session, lead, cancel)
            except ApiError as exc:
                return RestatusRow(
                    lead.id,
                    lead.list_id,
                    lead.status,
                    status.status,
                    "failed",
                    f"it was already {status.status} and its status could not be looked up "
                    f"again, so no request was sent ({exc.describe()})",
                )
            if now is not None and now.status == status.status:
                return RestatusRow(
                    now.id,
                    now.list_id,
                    now.status,
                    status.status,
                    UNCHANGED,
                    f"already {status.status} (looked up just before): no request was sent",
                )
            # Changed since it was read (or gone: the update says so): written as it is now.
            lead = now or lead
        session.restatus_lead(lead, status.status, job=outcome.job, note=why, cancel=cancel)
        return RestatusRow(lead.id, lead.list_id, lead.status, status.status, "ok")

    for done in bounded_map(write, unique, concurrency=concurrency, stop=cancel):
        lead = done.item
        attempted.add(lead.id)
        if done.result is not None:
            row = done.result
        elif isinstance(done.error, Cancelled):
            # Not ``why``: the writes still in flight read it for their journal note.
            stopped = done.error
            ended, error = "not_attempted", ""
            if stopped.maybe_done:  # stopped between attempts after an answer was lost
                ended, error = "failed", CANCELLED_AFTER_LOST_ANSWER
            elif stopped.refused:
                error = cancelled_after_refusals(stopped.refused)
            row = RestatusRow(lead.id, lead.list_id, lead.status, status.status, ended, error)
        elif isinstance(done.error, ApiError):
            row = RestatusRow(
                lead.id, lead.list_id, lead.status, status.status, "failed", done.error.describe()
            )
        else:
            raise done.error or AssertionError("a write with neither result nor error")
        outcome.rows.append(row)
        text = f"Set {outcome.done:,} of {total:,} leads to {status.status}"
        if outcome.unchanged:
            text += f" ({outcome.unchanged:,} already {status.status}, not sent)"
        progress(len(outcome.rows), total, text)
    for lead in unique:
        if lead.id not in attempted:
            outcome.cancelled = True
            outcome.rows.append(
                RestatusRow(lead.id, lead.list_id, lead.status, status.status, "not_attempted")
            )
    return outcome
