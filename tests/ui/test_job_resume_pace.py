"""A job keeps its pace in the GUI as with the CLI's ``--resume``: resumed from the Jobs tab it
runs at the requests in flight and the requests per minute stored in its meta (the cap on a
client of its own, not the shared one), and a job started here stores its own pace."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.models import WriteResult
from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_runner import DEFAULT_CONCURRENCY
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.job_list import JobListView
from app.ui.job_progress import JobHandle, ResumeWizard, job_registry, stored_pace
from app.ui.tasks import TaskRunner

TIMEOUT = 30_000
ROWS = 40


class CountingSession(Session):
    """The test's session, counting the inserts in flight at once."""

    def __init__(self, session: Session) -> None:
        super().__init__(session.connection, session.api, session.journal)
        self._lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0
        self.sent = 0

    def insert_dnc(self, *args: Any, **kwargs: Any) -> WriteResult:
        with self._lock:
            self.in_flight += 1
            self.sent += 1
            self.peak = max(self.peak, self.in_flight)
        try:
            return super().insert_dnc(*args, **kwargs)
        finally:
            with self._lock:
                self.in_flight -= 1


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    for handle in job_registry().handles:
        handle.cancel()
    r.cancel_all()
    r.wait()


def staged_job(session: Session, tmp_path: Path, pace: dict[str, Any] | None) -> Path:
    src = tmp_path / "in.csv"
    src.write_text("Phone\n" + "".join(f"202555{i:04d}\n" for i in range(ROWS)))
    store, _ = stage_import(
        JobSettings(src, Scope.global_(), name="Throttled"),
        AppPaths.default().jobs_dir,
        connection=session.connection,
    )
    if pace is not None:
        store.set_meta(pace)  # as `dnc-desk import --concurrency 2 --rate-limit 60` stores it
    store.close()
    return store.path


def resume_from_the_list(
    qtbot: Any, runner: TaskRunner, session: Session, path: Path
) -> tuple[ResumeWizard, dict[str, Any]]:
    view = JobListView(AppPaths.default(), runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
        view.set_session(session)
    assert view.select_job(path) and view.resume_button.isEnabled()
    finished: list[dict[str, Any]] = []
    view.job_finished.connect(finished.append)
    view.resume_button.click()
    wizard = view.wizard
    assert isinstance(wizard, ResumeWizard)
    qtbot.waitUntil(lambda: bool(finished), timeout=TIMEOUT)
    return wizard, finished[0]


def test_resume_from_the_jobs_tab_runs_at_the_stored_pace(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = staged_job(session, tmp_path, {"concurrency": 2, "rate_limit": None})
    sandbox.set_faults(latency_ms=80)
    counting = CountingSession(session)
    wizard, summary = resume_from_the_list(qtbot, runner, counting, path)
    assert (summary["status"], summary["inserted"]) == ("finished", ROWS)
    assert counting.sent == ROWS
    assert counting.peak == 2  # 8 (the default) before the job's pace was used
    handle = wizard.handle
    assert (handle.concurrency, handle.rate_limit) == (2, None)
    assert wizard.run_page.pace_label.text() == "Sending 2 requests at once."
    with JobStore(path) as store:  # the resume leaves the stored pace as it was
        assert (store.meta()["concurrency"], store.meta()["rate_limit"]) == (2, None)


def test_resume_from_the_jobs_tab_keeps_the_stored_rate_limit_on_its_own_client(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    # 1,200 a minute is one request every 50 ms: 40 rows take at least 39 gaps, where four
    # in flight against an answering sandbox take a fraction of that.
    path = staged_job(session, tmp_path, {"concurrency": 4, "rate_limit": 1200})
    started = time.monotonic()
    wizard, summary = resume_from_the_list(qtbot, runner, session, path)
    elapsed = time.monotonic() - started
    assert (summary["status"], summary["inserted"]) == ("finished", ROWS)
    assert elapsed >= (ROWS - 1) * 0.05, elapsed
    handle = wizard.handle
    assert (handle.concurrency, handle.rate_limit) == (4, 1200)
    assert wizard.run_page.pace_label.text() == (
        "Sending 4 requests at once. At most 1,200 requests a minute, as the job was started."
    )
    # The shared client is not capped (the other views keep their speed) and still works.
    assert session.api._t.pacer is None
    assert session.api.campaigns() is not None
    with JobStore(path) as store:
        assert (store.meta()["concurrency"], store.meta()["rate_limit"]) == (4, 1200)


def test_a_job_without_a_stored_pace_resumes_at_the_default(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = staged_job(session, tmp_path, None)  # a job file of an older version
    sandbox.set_faults(latency_ms=80)
    sandbox.faults.most_in_flight = 0
    counting = CountingSession(session)
    wizard, summary = resume_from_the_list(qtbot, runner, counting, path)
    assert summary["status"] == "finished"
    # Counted at the service: the job runs a few spare workers (journal writes around each
    # request) while its requests in flight stay at its concurrency.
    assert sandbox.faults.most_in_flight == DEFAULT_CONCURRENCY
    assert wizard.run_page.pace_label.text() == f"Sending {DEFAULT_CONCURRENCY} requests at once."


def test_a_job_started_here_stores_its_pace(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    src = tmp_path / "in.csv"
    src.write_text("Phone\n" + "".join(f"303555{i:04d}\n" for i in range(ROWS)))
    jobs_dir = AppPaths.default().jobs_dir
    sandbox.set_faults(latency_ms=80)
    counting = CountingSession(session)
    handle = JobHandle(
        runner,
        counting,
        "import",
        stage=lambda: stage_import(
            JobSettings(src, Scope.global_(), name="Slow"), jobs_dir, connection=session.connection
        ),
        concurrency=3,
    )
    with qtbot.waitSignal(handle.finished, timeout=TIMEOUT) as done:
        handle.start()
    assert done.args[0]["status"] == "finished"
    assert counting.peak == 3 and handle.concurrency == 3 and handle.rate_limit is None
    assert handle.job_path is not None
    with JobStore(handle.job_path) as store:
        meta = store.meta()
    assert (meta["concurrency"], meta["rate_limit"]) == (3, None)
    assert stored_pace(meta) == (3, None)


@pytest.mark.parametrize(
    ("meta", "pace"),
    [
        ({}, (DEFAULT_CONCURRENCY, None)),
        ({"concurrency": 2, "rate_limit": 60}, (2, 60)),
        ({"concurrency": 32, "rate_limit": None}, (32, None)),
        ({"concurrency": 0, "rate_limit": 0}, (DEFAULT_CONCURRENCY, None)),
        ({"concurrency": 33}, (DEFAULT_CONCURRENCY, None)),
        ({"concurrency": "2", "rate_limit": "60"}, (DEFAULT_CONCURRENCY, None)),
        ({"concurrency": True, "rate_limit": True}, (DEFAULT_CONCURRENCY, None)),
    ],
)
def test_stored_pace(meta: dict[str, Any], pace: tuple[int, int | None]) -> None:
    assert stored_pace(meta) == pace
