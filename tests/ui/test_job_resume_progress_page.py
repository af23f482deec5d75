"""A job resumed from the Jobs tab shows its progress as rows are sent (black-box bb1 F5: the
page of a resumed import read "17 of 3,000 rows" for a minute while rows were sent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer

from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.job_list import JobListView
from app.ui.job_progress import JobHandle, ResumeWizard
from app.ui.tasks import TaskRunner
from tests.ui.test_job_resume_pace import ROWS, TIMEOUT, runner, staged_job  # noqa: F401


def test_a_resumed_jobs_page_moves_with_the_rows_and_ends_right(
    qtbot: Any,
    runner: TaskRunner,  # noqa: F811
    session: Session,
    sandbox: Any,
    tmp_path: Path,
) -> None:
    path = staged_job(session, tmp_path, {"concurrency": 2, "rate_limit": None})
    sandbox.set_faults(latency_ms=100)
    # A first run paused part way, as "Pause and close" leaves it.
    first = JobHandle(runner, session, "import", job_path=path)
    ended: list[object] = []
    first.finished.connect(ended.append)
    first.start()
    qtbot.waitUntil(lambda: first.last_progress is not None and first.last_progress.done >= 6)
    first.suspend()
    qtbot.waitUntil(lambda: bool(ended), timeout=TIMEOUT)
    done_before = ROWS - int(first.result["pending"])  # type: ignore[index]
    assert 0 < done_before < ROWS

    view = JobListView(AppPaths.default(), runner)
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
        view.set_session(session)
    assert view.select_job(path)
    finished: list[dict[str, Any]] = []
    view.job_finished.connect(finished.append)
    view.resume_button.click()
    wizard = view.wizard
    assert isinstance(wizard, ResumeWizard)
    page = wizard.run_page
    shown: list[tuple[int, str]] = []
    sampler = QTimer()
    sampler.timeout.connect(lambda: shown.append((page.bar.value(), page.counts_label.text())))
    sampler.start(50)
    qtbot.waitUntil(lambda: bool(finished), timeout=TIMEOUT)
    sampler.stop()
    # The page takes the end after the Jobs tab does (connected later): once it has, too.
    qtbot.waitUntil(lambda: page.bar.value() == ROWS, timeout=TIMEOUT)
    shown.append((page.bar.value(), page.counts_label.text()))
    values = sorted({value for value, _ in shown if value > 0})
    # The bar went up in steps between where the first run stopped and the end...
    assert len([v for v in values if done_before < v < ROWS]) >= 3, shown
    assert values == sorted(values) and values[-1] == ROWS
    # ...and the counts with it, ending as the job's summary does.
    assert finished[0]["inserted"] == ROWS and finished[0]["pending"] == 0
    assert page.counts_label.text() == f"inserted: {ROWS}"
    assert page.bar.value() == ROWS
