"""The task bridge delivers results, errors and progress on the GUI thread."""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QThread
from PySide6.QtWidgets import QApplication

from app.ui.tasks import TaskContext, TaskRunner


def _on_gui_thread() -> bool:
    app = QApplication.instance()
    return app is not None and QThread.currentThread() is app.thread()


def test_result_and_progress_arrive_on_gui_thread(qtbot: Any) -> None:
    runner = TaskRunner()
    worker_threads: list[bool] = []
    seen: list[tuple[str, object, bool]] = []

    def work(ctx: TaskContext) -> int:
        worker_threads.append(threading.current_thread() is threading.main_thread())
        for i in range(3):
            ctx.report(i)
        return 42

    task = runner.submit(
        "work",
        work,
        on_done=lambda v: seen.append(("done", v, _on_gui_thread())),
        on_progress=lambda p: seen.append(("progress", p, _on_gui_thread())),
    )
    with qtbot.waitSignal(task.finished, timeout=5000):
        pass
    assert worker_threads == [False]
    assert seen == [
        ("progress", 0, True),
        ("progress", 1, True),
        ("progress", 2, True),
        ("done", 42, True),
    ]
    runner.wait()


def test_errors_arrive_as_exceptions(qtbot: Any) -> None:
    runner = TaskRunner()
    got: list[BaseException] = []

    def boom(ctx: TaskContext) -> None:
        raise ValueError("bad row 7")

    task = runner.submit("boom", boom, on_error=got.append)
    with qtbot.waitSignal(task.failed, timeout=5000):
        pass
    assert isinstance(got[0], ValueError) and str(got[0]) == "bad row 7"
    runner.wait()


def test_cancel_reaches_the_worker(qtbot: Any) -> None:
    runner = TaskRunner()
    started = threading.Event()

    def wait_for_cancel(ctx: TaskContext) -> str:
        started.set()
        return "cancelled" if ctx.cancel_event.wait(5) else "timed out"

    task = runner.submit("wait", wait_for_cancel)
    assert started.wait(5)
    with qtbot.waitSignal(task.done, timeout=5000) as blocker:
        task.cancel()
    assert blocker.args == ["cancelled"]
    runner.wait()
