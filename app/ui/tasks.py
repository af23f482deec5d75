"""The bridge between the GUI thread and background work.

Widgets never call the network, files or databases themselves: they hand a plain
callable to :class:`TaskRunner`, which runs it on a thread pool and delivers the result,
the error or progress back on the GUI thread. Core code knows nothing of Qt; it gets a
:class:`TaskContext` with a cancel event, a pause event and a ``report`` callback.

Signals are always connected to bound slots of a :class:`Task` created on the GUI thread
with an explicit queued connection: a Python callable connected without a receiver would
run in the worker thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal, Slot
from shiboken6 import Shiboken

log = logging.getLogger(__name__)


class TaskContext:
    """What a background callable may use: cancellation, pausing and progress reports."""

    def __init__(self, task: Task) -> None:
        self._task = task
        self.cancel_event = threading.Event()
        self.pause_event = threading.Event()

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    def report(self, progress: object) -> None:
        """Send a progress value to the GUI thread (any object; the caller agrees on it)."""
        self._task._progress_sig.emit(progress)


class Task(QObject):
    """One background job.

    Signals (emitted on the GUI thread):
        done(object): the callable's return value.
        failed(object): the exception it raised.
        progress(object): each value passed to ``TaskContext.report``.
        finished(): after done or failed.
    """

    done = Signal(object)
    failed = Signal(object)
    progress = Signal(object)
    finished = Signal()

    _done_sig = Signal(object)
    _failed_sig = Signal(object)
    _progress_sig = Signal(object)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.context = TaskContext(self)
        self.running = True
        self._done_sig.connect(self._on_done, Qt.ConnectionType.QueuedConnection)
        self._failed_sig.connect(self._on_failed, Qt.ConnectionType.QueuedConnection)
        self._progress_sig.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)

    def cancel(self) -> None:
        self.context.cancel_event.set()
        self.context.pause_event.clear()

    def pause(self) -> None:
        self.context.pause_event.set()

    def resume(self) -> None:
        self.context.pause_event.clear()

    @property
    def paused(self) -> bool:
        return self.context.pause_event.is_set()

    @Slot(object)
    def _on_done(self, value: object) -> None:
        self.running = False
        self.done.emit(value)
        self.finished.emit()

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        self.running = False
        self.failed.emit(exc)
        self.finished.emit()

    @Slot(object)
    def _on_progress(self, value: object) -> None:
        self.progress.emit(value)


class _Runnable(QRunnable):
    def __init__(self, task: Task, fn: Callable[[TaskContext], Any]) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._task = task
        self._fn = fn

    def run(self) -> None:
        try:
            result = self._fn(self._task.context)
        except BaseException as exc:  # every failure must reach the GUI, not kill the pool
            log.debug("task %s failed: %s", self._task.name, type(exc).__name__)
            self._task._failed_sig.emit(exc)
        else:
            self._task._done_sig.emit(result)


class TaskRunner(QObject):
    """Runs callables off the GUI thread. Keep one per window; tasks are its children."""

    def __init__(self, parent: QObject | None = None, max_threads: int = 6) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max_threads)
        self._tasks: set[Task] = set()

    def submit(
        self,
        name: str,
        fn: Callable[[TaskContext], Any],
        *,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        on_progress: Callable[[Any], None] | None = None,
        owner: QObject | None = None,
    ) -> Task:
        """``owner``: the widget the callbacks act on; once it is deleted (a dialog closed with
        WA_DeleteOnClose while the task ran) they are not called, instead of raising
        "Internal C++ object already deleted" in the event loop."""
        task = Task(name, self)
        if on_done is not None:
            task.done.connect(_while_alive(owner, on_done))
        if on_error is not None:
            task.failed.connect(_while_alive(owner, on_error))
        if on_progress is not None:
            task.progress.connect(_while_alive(owner, on_progress))
        self._tasks.add(task)
        task.finished.connect(lambda: self._forget(task))
        self._pool.start(_Runnable(task, fn))
        return task

    def _forget(self, task: Task) -> None:
        # Hand the finished task to Python's reference counting instead of deleteLater():
        # a posted DeferredDelete can outlive the runner (which deletes its children) and
        # then crash on a second delete.
        self._tasks.discard(task)
        task.setParent(None)

    @property
    def active(self) -> list[Task]:
        return [t for t in self._tasks if t.running]

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def wait(self, msecs: int = 30_000) -> bool:
        """Block until every task ended (used at shutdown and in tests)."""
        return bool(self._pool.waitForDone(msecs))


def _while_alive(owner: QObject | None, callback: Callable[[Any], None]) -> Callable[[Any], None]:
    if owner is None:
        return callback

    def call(value: Any) -> None:
        if Shiboken.isValid(owner):
            callback(value)
        else:
            log.debug("a task's answer arrived after its widget was closed; dropped")

    return call
