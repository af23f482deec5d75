"""A progress dialog for one bulk write run off the GUI thread (removals, re-status, fixes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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

from app.ui.error_messages import user_message
from app.ui.plain_text import plain_label
from app.ui.tasks import Task, TaskContext, TaskRunner

# (summary sentence, one line per input that did not succeed)
Summary = tuple[str, list[str]]


class BulkProgressDialog(QDialog):
    """Runs one bulk write off the GUI thread: progress bar, Cancel, then the summary with
    every row that did not succeed.

    The work is a callable taking the :class:`TaskContext`; it reports progress as
    ``(done, total, message)`` tuples and must give every input an outcome itself (core's
    bulk functions do: cancelled inputs end as "not attempted").

    Signals:
        run_finished(object): the work's return value.
        run_failed(object): the exception when the work could not run at all.
        running_changed(bool): the work started (True) or ended (False).
    """

    run_finished = Signal(object)
    run_failed = Signal(object)
    running_changed = Signal(bool)

    def __init__(self, title: str, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.result_value: Any = None
        self.summary = ""
        self._task: Task | None = None
        self._action = title
        self.setWindowTitle(title)
        self.label = plain_label(QLabel(self))
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
        self.resize(560, 220)

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(
        self,
        total: int,
        work: Callable[[TaskContext], Any],
        summarize: Callable[[Any], Summary],
    ) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(0)
        self.label.setText(f"{self._action}: starting ({total:,})…")
        # A retry reuses the dialog: back to the running state.
        self.details.hide()
        self.cancel_button.show()
        self.cancel_button.setEnabled(True)
        self.close_button.hide()

        def done(value: Any) -> None:
            self._task = None
            self.running_changed.emit(False)
            self.result_value = value
            self.summary, problems = summarize(value)
            self.bar.setValue(self.bar.maximum())
            self.label.setText(self.summary)
            if problems:
                self.details.setPlainText("\n".join(problems))
                self.details.show()
            self._finish_buttons()
            self.run_finished.emit(value)

        def failed(exc: BaseException) -> None:
            self._task = None
            self.running_changed.emit(False)
            self.summary = user_message(exc, self._action).text
            self.label.setText(self.summary)
            self._finish_buttons()
            self.run_failed.emit(exc)

        self._task = self.runner.submit(
            self._action,
            work,
            on_done=done,
            on_error=failed,
            on_progress=self._on_progress,
            owner=self,
        )
        self.running_changed.emit(True)

    def _finish_buttons(self) -> None:
        self.cancel_button.hide()
        self.close_button.show()

    def _on_progress(self, value: object) -> None:
        if isinstance(value, tuple) and len(value) == 3:
            done, total, message = value
            if int(total) > 0:
                self.bar.setMaximum(int(total))
                self.bar.setValue(int(done))
            self.label.setText(str(message))

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self.cancel_button.setEnabled(False)
            self.label.setText("Cancelling: changes already sent finish first…")

    def reject(self) -> None:
        # Escape while running means cancel; the dialog stays to show what was done.
        if self.running:
            self.cancel()
            return
        super().reject()
