"""Import a spreadsheet of numbers into the DNC list or the SMS opt-out list.

:func:`stage_import` reads and checks the file into a new job file; :func:`run_import` sends the
rows still to send (a fresh job or a resumed one) through the journaled :class:`Session`.
An entry the list already has counts as done ("already present"), never as a failure.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from pathlib import Path

from app.api.models import WriteStatus
from app.core.connections import Connection
from app.core.job_exec import execute
from app.core.job_runner import JobControl, JobProgress, RowResult, SendFn
from app.core.job_staging import JobSettings, stage
from app.core.job_store import JobRow, JobStatus, JobStore, Outcome, scope_from_text
from app.core.session import Session
from app.core.sheet_check import CheckSummary, Target

RESENT_PRESENT = (
    "sent again after the job was interrupted; the list already had it "
    "(most likely from the first send)"
)
# An earlier attempt's answer was lost (timeout, dropped connection), then the retry found the
# number listed: that attempt may have inserted it.
RETRIED_PRESENT = (
    "on the list when the request was retried; the answer to an earlier attempt was lost, "
    "so that attempt may have inserted it"
)


def stage_import(
    settings: JobSettings,
    jobs_dir: Path,
    *,
    connection: Connection | None,
    campaign_lookup: Mapping[str, str] | None = None,
) -> tuple[JobStore, CheckSummary]:
    """Check the file and write a new import job file (nothing is sent)."""
    return stage(
        settings, jobs_dir, kind="import", connection=connection, campaign_lookup=campaign_lookup
    )


def insert_sender(
    session: Session, target: Target, job_id: str, note: str, stop: threading.Event | None = None
) -> SendFn:
    """The function that sends one row of an import job.

    ``stop`` (the job's :attr:`JobControl.stop`) cancels a row's insert while it waits for its
    turn under the rate limit, never once its first attempt was sent: the row is then pending
    again, and its journal intent ``not_attempted``.
    """
    insert = session.insert_dnc if target is Target.DNC else session.insert_sms

    def send(row: JobRow, resent: bool) -> RowResult:
        result = insert(
            row.national,
            row.phone_code,
            scope_from_text(row.scope),
            reason=row.reason,
            purpose=row.purpose,
            job=job_id,
            note=note,
            stop_before_send=stop,
        )
        extra = f"answered after {result.attempts} attempts" if result.retried else ""
        if result.status is WriteStatus.ALREADY_PRESENT:
            if resent:
                text = RESENT_PRESENT
            elif result.earlier_attempt_lost:
                # The answer to an earlier attempt was lost: that attempt may well be what put
                # the number on the list, which matters when the insertion date is evidence.
                text = RETRIED_PRESENT
            else:
                text = result.message or "already on the list"
            return RowResult(Outcome.ALREADY_PRESENT, "; ".join(x for x in (text, extra) if x))
        text = "sent again after the job was interrupted" if resent else ""
        return RowResult(Outcome.INSERTED, "; ".join(x for x in (text, extra) if x))

    return send


def run_import(
    store: JobStore,
    session: Session,
    *,
    concurrency: int = 8,
    control: JobControl | None = None,
    progress: Callable[[JobProgress], None] | None = None,
) -> JobStatus:
    """Send every unfinished row of the import job in ``store``; returns its new status."""
    meta = store.meta()
    send = insert_sender(
        session,
        Target(meta["target"]),
        str(meta["job_id"]),
        str(meta.get("note", "")),
        control.stop if control is not None else None,
    )
    return execute(
        store, session, send, concurrency=concurrency, control=control, progress=progress
    )
