"""Run a confirmed DNC removal off the GUI thread, with progress, cancel and a full summary.

The summary lists every entry that was not removed and why: "not found" (already gone) is
reported as such, failures carry the service's reason, and entries left when the user
cancelled are listed as not attempted. Nothing is left without an outcome.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

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
from app.core.session import Session
from app.ui.delete_dialog import RemovalPlan
from app.ui.error_messages import user_message
from app.ui.tasks import Task, TaskRunner


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


def summary_text(result: RemovalResult) -> str:
    parts = [f"Removed {result.count(Outcome.REMOVED):,}"]
    if result.count(Outcome.NOT_FOUND):
        parts.append(f"not found (already gone) {result.count(Outcome.NOT_FOUND):,}")
    if result.count(Outcome.FAILED):
        parts.append(f"failed {result.count(Outcome.FAILED):,}")
    if result.count(Outcome.NOT_ATTEMPTED):
        parts.append(f"not attempted (cancelled) {result.count(Outcome.NOT_ATTEMPTED):,}")
    text = "; ".join(parts) + f" of {len(result.outcomes):,}."
    if result.lead_status:
        text += f" Lead status set to {result.lead_status} with each removal."
    return text


class RemovalProgressDialog(QDialog):
    """Progress of one removal, then its result.

    Signals:
        removal_finished(object): the :class:`RemovalResult` once every input has an outcome.
        removal_failed(object): the exception when the removal could not run at all.
        running_changed(bool): a run started (True) or ended (False); a retry is a new run.
        auth_problem(object, object): (exception, retry) when the token was rejected;
            ``retry()`` runs the entries that were not removed again.
    """

    removal_finished = Signal(object)
    removal_failed = Signal(object)
    running_changed = Signal(bool)
    auth_problem = Signal(object, object)

    def __init__(
        self,
        plan: RemovalPlan,
        session: Session,
        runner: TaskRunner,
        parent: QWidget | None = None,
        concurrency: int = DEFAULT_CONCURRENCY,
    ) -> None:
        super().__init__(parent)
        self.plan = plan
        self.session = session
        self.runner = runner
        self.concurrency = concurrency
        self.removal_result: RemovalResult | None = None
        self._task: Task | None = None
        self.setWindowTitle("Removing DNC entries")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.bar = QProgressBar(self)
        self.details = QPlainTextEdit(self)
        self.details.setReadOnly(True)
        self.details.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.cancel_button = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.close_button.clicked.connect(self.accept)
        self.close_button.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.details)
        layout.addWidget(self.buttons)
        self.resize(560, 200)

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(self, targets: list[RemovalTarget] | None = None) -> None:
        """Start removing the plan's entries (or ``targets``, when retrying)."""
        items: list[RemovalTarget] = targets or [RemovalTarget.of(e) for e in self.plan.entries]
        total = len(items)
        self.bar.setRange(0, total)
        self.bar.setValue(0)
        self.label.setText(f"Removing {total:,} entr{'y' if total == 1 else 'ies'}…")
        self.details.hide()
        self.cancel_button.show()
        self.cancel_button.setEnabled(True)
        self.close_button.hide()
        session, reason = self.session, self.plan.reason
        status = self.plan.lead_status.status if self.plan.lead_status else None
        concurrency = self.concurrency
        self._task = self.runner.submit(
            "remove DNC entries",
            lambda ctx: remove_dnc_entries(
                session,
                items,
                reason=reason,
                lead_status=status,
                concurrency=concurrency,
                cancel=ctx.cancel_event,
                progress=lambda done, n: ctx.report((done, n)),
            ),
            on_done=self._on_done,
            on_error=self._on_error,
            on_progress=self._on_progress,
        )
        self.running_changed.emit(True)

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self.cancel_button.setEnabled(False)
            self.label.setText("Cancelling: calls already sent finish first…")

    def reject(self) -> None:
        # Escape or the window's close button while running means cancel, not "hide the result".
        if self.running:
            self.cancel()
            return
        super().reject()

    def _on_progress(self, value: object) -> None:
        if isinstance(value, tuple) and len(value) == 2:
            done, total = value
            self.bar.setMaximum(int(total))
            self.bar.setValue(int(done))
            self.label.setText(f"Removed or checked {done:,} of {total:,}…")

    def _on_done(self, result: RemovalResult) -> None:
        self._task = None
        self.running_changed.emit(False)
        self.removal_result = result
        self.bar.setValue(self.bar.maximum())
        self.label.setText(summary_text(result))
        problems = result.problems
        if problems:
            self.details.setPlainText("\n".join(describe_outcome(p) for p in problems))
            self.details.show()
        self.cancel_button.hide()
        self.close_button.show()
        self.removal_finished.emit(result)
        auth = next(
            (p.error for p in problems if isinstance(p.error, AuthMissingError | AuthInvalidError)),
            None,
        )
        if auth is not None:
            retry_targets = [
                p.target for p in problems if p.outcome in (Outcome.FAILED, Outcome.NOT_ATTEMPTED)
            ]
            self.auth_problem.emit(auth, lambda: self.start(retry_targets))

    def _on_error(self, exc: BaseException) -> None:
        self._task = None
        self.running_changed.emit(False)
        # remove_dnc_entries records every outcome itself; reaching here means it could not
        # run at all (e.g. the journal could not be written), so nothing was removed by it.
        self.label.setText(user_message(exc, "Remove the DNC entries").text)
        self.cancel_button.hide()
        self.close_button.show()
        self.removal_failed.emit(exc)
