"""Run a confirmed DNC removal off the GUI thread, with progress, cancel and a full summary.

The summary lists every entry that was not removed and why: "not found" (already gone) is
reported as such, apart from a "not found" on a retry after a lost answer (this removal's own
earlier attempt may have removed it), failures carry the service's reason, and entries left
when the user cancelled are listed as not attempted. Nothing is left without an outcome.

With a lead status, a removed entry whose number kept a lead in its old status (the service
refused that lead's own ``/leads/update``: the entry stays removed) is listed too, its message
naming the lead, and the summary line says so rather than that the status was set with each
removal (black-box S18 H2b: the list view's removal sets every lead of the number since
f6d487d, and such a lead was shown nowhere).
"""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QDialog, QLabel, QMessageBox, QVBoxLayout, QWidget
from shiboken6 import Shiboken

from app.api.errors import AuthInvalidError, AuthMissingError
from app.core.dnc_removal import (
    DEFAULT_CONCURRENCY,
    Outcome,
    RemovalOutcome,
    RemovalResult,
    RemovalTarget,
    remove_dnc_entries,
)
from app.core.phones import format_for_display
from app.core.session import Session, e164, journal_target
from app.core.wording import counted
from app.ui.bulk_progress import BulkProgressDialog, Summary
from app.ui.delete_dialog import RemovalPlan
from app.ui.error_messages import user_message
from app.ui.plain_text import plain_label
from app.ui.tasks import TaskContext, TaskRunner


def describe_outcome(item: RemovalOutcome) -> str:
    target = item.target
    number = format_for_display(target.phone_number, target.phone_code)
    where = target.scope.label(target.entry.campaign_name if target.entry else "")
    if item.outcome is Outcome.FAILED and item.error is not None:
        why = user_message(item.error, "Remove").text
    else:
        why = item.message
    raw = f"+{target.phone_code} {target.phone_number}"
    return f"{number} ({raw}, {where}): {item.outcome.value} — {why}"


def kept_a_lead(item: RemovalOutcome, lead_status: str | None) -> bool:
    """Whether ``item`` was removed but a lead of its number may be in its old status: the
    service refused, or did not answer, the update setting that lead to ``lead_status`` (the
    item's message names the lead)."""
    return (
        bool(lead_status)
        and item.outcome is Outcome.REMOVED
        and item.leads_refused + item.leads_unanswered > 0
    )


def listed(result: RemovalResult) -> list[RemovalOutcome]:
    """The inputs the summary lists, in input order: every one not removed, and every removed
    one whose number kept a lead in its status (:func:`kept_a_lead`)."""
    return [
        o
        for o in result.outcomes
        if o.outcome is not Outcome.REMOVED or kept_a_lead(o, result.lead_status)
    ]


# The journal's operation for an entry a removal left not attempted.
NOT_ATTEMPTED_EVENT = "dnc.delete.not_attempted"
# Why the entries left were not attempted: the officer's Cancel, or the window closing.
CANCELLED = "cancelled"
WINDOW_CLOSED = "stopped because the window closed"


def journal_not_attempted(session: Session, result: RemovalResult, note: str, why: str) -> None:
    """One journal event per input left not attempted, named as its delete would have been
    (found by a search for its number), so a removal stopped part way leaves a trace of what
    it did not do (bb6 F6: 144 of 150 were in no journal row or report, only in a dialog)."""
    left = [o.target for o in result.outcomes if o.outcome is Outcome.NOT_ATTEMPTED]
    for target in left:
        session.journal.record_event(
            connection=session.connection.name,
            base_url=session.connection.base_url,
            operation=NOT_ATTEMPTED_EVENT,
            target=journal_target("dnc", target.phone_number, target.phone_code, target.scope),
            phone=e164(target.phone_number, target.phone_code),
            note=note,
            job=result.job,
            details={"why": why, "not_attempted": len(left), "of": len(result.outcomes)},
        )


def journal_note(result: RemovalResult) -> str:
    """Why the change journal lists fewer deletes than the headline counts inputs, when it
    does (black-box bb6 F2: an auditor found inputs missing from the journal): entries of one
    number and scope picked for several purposes share one delete, and an input whose leads
    could not be looked up first had none sent."""
    # Cancelled ones had no delete sent either; the headline counts them apart.
    sent = [o for o in result.outcomes if not o.not_sent and o.outcome is not Outcome.NOT_ATTEMPTED]
    shared = len(sent) - len({o.target.key for o in sent})
    unsent = sum(1 for o in result.outcomes if o.not_sent)
    notes: list[str] = []
    if shared:
        notes.append(
            f"{shared:,} shared a delete with another entry of the same number and scope (one "
            "delete removes it for every purpose)"
        )
    if unsent:
        notes.append(
            f"{unsent:,} failed before any delete was sent (their leads could not be looked "
            "up first)"
        )
    if not notes:
        return ""
    said = "; ".join(notes)
    return f" The change journal has no delete of its own for {shared + unsent:,}: {said}."


def summary_text(result: RemovalResult, why: str = CANCELLED) -> str:
    parts = [f"Removed {result.count(Outcome.REMOVED):,}"]
    # Removed ones whose delete ended in an error, settled by a look-up finding them gone: the
    # journal keeps the delete's "failed" outcome with a settled event beside it (bb6 F1).
    settled = sum(
        1 for o in result.outcomes if o.outcome is Outcome.REMOVED and o.earlier_attempt_lost
    )
    if settled:
        parts[0] += (
            f" ({settled:,} of them ended in an error after a lost answer, and a look-up "
            "right after found them gone)"
        )
    not_found = [o for o in result.outcomes if o.outcome is Outcome.NOT_FOUND]
    # Not found on a retry after a lost answer is most likely this removal's own doing: not
    # counted as "already gone" (black-box bb3 F4).
    lost = sum(1 for o in not_found if o.earlier_attempt_lost)
    if gone := len(not_found) - lost:
        parts.append(f"not found (already gone) {gone:,}")
    if lost:
        parts.append(
            f"not found when retried (an earlier attempt whose answer was lost may have "
            f"removed it) {lost:,}"
        )
    if result.count(Outcome.FAILED):
        parts.append(f"failed {result.count(Outcome.FAILED):,}")
    if result.count(Outcome.NOT_ATTEMPTED):
        parts.append(f"not attempted ({why}) {result.count(Outcome.NOT_ATTEMPTED):,}")
    text = "; ".join(parts) + f" of {len(result.outcomes):,}."
    text += journal_note(result)
    if status := result.lead_status:
        text += f" Lead status set to {status} with each removal"
        kept = [o for o in result.outcomes if kept_a_lead(o, status)]
        # A refused update keeps the lead's status; an unanswered one may have been done.
        how = (
            "the service refused to update, which keeps its status"
            if all(o.leads_unanswered == 0 for o in kept)
            else "the service refused or did not answer the update of, which may keep its status"
        )
        if len(kept) == 1:
            text += f", but 1 removed entry's number has a lead {how}"
        elif kept:
            text += f", but {len(kept):,} removed entries' numbers have a lead {how}"
        text += "."
    return text


class RemovalProgressDialog(BulkProgressDialog):
    """Progress of one removal, then its result (the shared bulk-write dialog, plus retry
    after a rejected token).

    Signals:
        removal_finished(object): the :class:`RemovalResult` once every input has an outcome.
        removal_failed(object): the exception when the removal could not run at all.
        running_changed(bool): a run started (True) or ended (False); a retry is a new run.
        auth_problem(object, object): (exception, retry) when the token was rejected;
            ``retry()`` runs the entries that were not removed again.
    """

    removal_finished = Signal(object)
    removal_failed = Signal(object)
    auth_problem = Signal(object, object)

    def __init__(
        self,
        plan: RemovalPlan,
        session: Session,
        runner: TaskRunner,
        parent: QWidget | None = None,
        concurrency: int = DEFAULT_CONCURRENCY,
    ) -> None:
        super().__init__("Removing DNC entries", runner, parent)
        self.plan = plan
        self.session = session
        self.concurrency = concurrency
        self.removal_result: RemovalResult | None = None
        # Read by the run's thread once it ends: a holder the closure keeps, whatever
        # becomes of the dialog.
        self._stop = {"why": CANCELLED}
        self.run_finished.connect(self._on_removed)
        self.run_failed.connect(self.removal_failed)
        # Said while the service's rate limit holds the run: no entry may end for minutes
        # (each takes ~19 requests with a lead status: its leads looked up in every written
        # form), and "0 of 60" alone looked stuck (black-box bb6 F9).
        self.wait_label = plain_label(QLabel(self))
        self.wait_label.setWordWrap(True)
        self.wait_label.hide()
        layout = self.layout()
        if isinstance(layout, QVBoxLayout):
            layout.insertWidget(2, self.wait_label)
        self._refusals_seen = 0
        self._refused_at: float | None = None
        self._refusal_watch = QTimer(self)
        self._refusal_watch.setInterval(REFUSAL_CHECK_MS)
        self._refusal_watch.timeout.connect(self._check_refusals)
        self.running_changed.connect(self._watch_refusals)

    def set_session(self, session: Session) -> None:
        """The token of the same connection was replaced: the retry removes through
        ``session`` (the old one's client is closed)."""
        self.session = session

    def start(self, targets: list[RemovalTarget] | None = None) -> None:  # type: ignore[override]
        """Start removing the plan's entries (or ``targets``, when retrying)."""
        items: list[RemovalTarget] = targets or [RemovalTarget.of(e) for e in self.plan.entries]
        session, reason = self.session, self.plan.reason
        status = self.plan.lead_status.status if self.plan.lead_status else None
        concurrency = self.concurrency
        stop = self._stop

        def work(ctx: TaskContext) -> RemovalResult:
            result = remove_dnc_entries(
                session,
                items,
                reason=reason,
                lead_status=status,
                concurrency=concurrency,
                cancel=ctx.cancel_event,
                progress=lambda done, n: ctx.report(
                    (done, n, f"Removed or checked {done:,} of {n:,}…")
                ),
            )
            # Here, not in the dialog: the window may be closed (the app quitting, waiting
            # for this thread) by the time the result reaches the GUI thread.
            journal_not_attempted(session, result, reason, stop["why"])
            return result

        super().start(len(items), work, lambda r: _summary(r, stop["why"]))
        total = len(items)
        self.label.setText(f"Removing {total:,} entr{'y' if total == 1 else 'ies'}…")

    def _watch_refusals(self, running: bool) -> None:
        if running:
            self._refusals_seen = self.session.api.rate_limit_refusals
            self._refused_at = None
            self._refusal_watch.start()
        else:
            self._refusal_watch.stop()
            self.wait_label.hide()

    def _check_refusals(self) -> None:
        """Show the waiting line while the service refused a request for its rate limit in
        the last :data:`WAIT_SAID_FOR` seconds; hide it once requests get through again."""
        refusals = self.session.api.rate_limit_refusals
        now = time.monotonic()
        if refusals > self._refusals_seen:
            self._refused_at = now
            self._refusals_seen = refusals
        if self._refused_at is None or now - self._refused_at > WAIT_SAID_FOR:
            self.wait_label.hide()
            return
        self.wait_label.setText(waiting_text(self.plan.lead_status is not None))
        self.wait_label.show()

    def left(self) -> int:
        """Entries not yet removed or checked (all of them before the first answer)."""
        return self.bar.maximum() - self.bar.value()

    def stop_for_close(self) -> None:
        """The window is closing: the requests in flight finish, the rest end not attempted
        (journaled, saying why), and the dialog goes with the window."""
        self._stop["why"] = WINDOW_CLOSED
        self.cancel()
        # QDialog's own reject: this class's keeps a running dialog open (Escape cancels).
        QDialog.reject(self)

    def _on_removed(self, result: RemovalResult) -> None:
        self.removal_result = result
        self.removal_finished.emit(result)
        problems = result.problems
        auth = next(
            (p.error for p in problems if isinstance(p.error, AuthMissingError | AuthInvalidError)),
            None,
        )
        if auth is not None:
            retry_targets = [
                p.target for p in problems if p.outcome in (Outcome.FAILED, Outcome.NOT_ATTEMPTED)
            ]
            self.auth_problem.emit(auth, lambda: self._retry(retry_targets))

    def _retry(self, targets: list[RemovalTarget]) -> None:
        # Nothing once the dialog is closed (its result was read) or already running again.
        if Shiboken.isValid(self) and self.isVisible() and not self.running:
            self.start(targets)


# How often the dialog looks for 429s, and how long after the last one it still says it waits.
REFUSAL_CHECK_MS = 1000
WAIT_SAID_FOR = 60.0


def waiting_text(lead_status: bool) -> str:
    """The progress line while the service's rate limit holds the removal."""
    text = (
        "Waiting on the service's rate limit: it is refusing requests (HTTP 429), so the "
        "removal goes on at the pace it accepts."
    )
    if lead_status:
        text += (
            " With a lead status each entry takes about 19 requests (its leads are looked up "
            "in every written form before its delete), so a few entries a minute at most."
        )
    return text + " Nothing is lost by waiting; Cancel stops before the next delete is sent."


def _summary(result: RemovalResult, why: str) -> Summary:
    return summary_text(result, why), [describe_outcome(p) for p in listed(result)]


def running_removals(window: QWidget) -> list[RemovalProgressDialog]:
    return [d for d in window.findChildren(RemovalProgressDialog) if d.running]


def removal_close_choice(parent: QWidget, left: int) -> bool:
    """Ask whether to stop the running list-view removals (not resumable) so the window can
    close: True to stop after the requests in flight, False to keep working."""
    entries = counted(left, "entry", "entries")
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle("A removal is still running")
    box.setText(
        f"A removal from the DNC list is still running: {entries} not removed or checked yet. "
        "It cannot be resumed later. Stop after the requests in flight: the entries left are "
        "not removed, and each is listed under its number in the Change journal tab "
        f"(operation {NOT_ATTEMPTED_EVENT}) so you can remove them again. Keep working: the window "
        "stays open until the removal ends."
    )
    stop = box.addButton("Stop and close", QMessageBox.ButtonRole.DestructiveRole)
    keep = box.addButton("Keep working", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(keep)
    box.exec()
    return box.clickedButton() is stop


def ask_before_close_removals(window: QWidget) -> bool:
    """When list-view removals are running, ask before the window closes; False keeps it
    open. Closing without asking cancelled them: "not attempted (cancelled)" though nobody
    cancelled (bb6 F6)."""
    running = running_removals(window)
    if not running:
        return True
    if not removal_close_choice(window, sum(d.left() for d in running)):
        return False
    for dialog in running:
        dialog.stop_for_close()
    return True
