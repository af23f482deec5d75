"""The Jobs tab and a job another process runs now (a ``dnc-desk import`` in a terminal): it was
listed as "interrupted" (its file says running and this app was not running it) and offered
for a resume. Now, as ``dnc-desk jobs`` does (app.core.job_catalog.run_by), the row says the
job is running in another process, naming its pid, Resume is not offered for it, and once that
process has stopped the row says interrupted again, with Resume, by itself.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_catalog import read_job
from app.core.job_lock import Holder
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, Outcome, utc_now
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.job_list import COL_STATUS, JobListView, job_state
from app.ui.job_progress import job_registry
from app.ui.tasks import TaskRunner

TIMEOUT = 20_000
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    for handle in job_registry().handles:
        handle.cancel()
    r.cancel_all()
    r.wait()


def job_file(session: Session, tmp_path: Path, status: JobStatus) -> Path:
    """A job file with 3 of 10 rows answered whose file says ``status``."""
    csv = tmp_path / "ten.csv"
    csv.write_text("Phone\n" + "".join(f"202555{i:04d}\n" for i in range(10)))
    store, _ = stage_import(
        JobSettings(csv, Scope.global_(), name="Terminal import"),
        AppPaths.default().jobs_dir,
        connection=session.connection,
    )
    rows = list(store.unfinished())
    store.set_meta({"started": utc_now()})
    store.set_status(status)
    for row in rows[:3]:
        store.mark_sending(row.seq)
        store.mark_done(row.seq, Outcome.INSERTED)
    store.flush()
    store.close()
    return store.path


def hold_run_lock(job: Path) -> subprocess.Popen[str]:
    """Another process that takes the job's run lock (its file's and its id's, as a runner
    does), says so, and waits to be killed."""
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from app.core import job_lock\n"
        "lock = job_lock.acquire(Path(sys.argv[1]), sys.argv[2])\n"
        "print('held', flush=True)\n"
        "time.sleep(120)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(job), read_job(job).job_id],
        cwd=ROOT,
        env=dict(os.environ),  # the test's data folder, for the id's lock
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "held\n", proc.communicate()
    return proc


def list_view(qtbot: Any, runner: TaskRunner, session: Session) -> JobListView:
    view = JobListView(AppPaths.default(), runner)
    qtbot.addWidget(view)
    view.resize(1100, 400)
    view.show()
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
        view.set_session(session)
    return view


@pytest.mark.parametrize("status", [JobStatus.RUNNING, JobStatus.PAUSED])
def test_a_job_another_process_runs_is_listed_as_running_there_without_resume(
    status: JobStatus,
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    tmp_path: Path,
) -> None:
    # PAUSED: a paused job another process is resuming (its file not yet marked running).
    job = job_file(session, tmp_path, status)
    holder = hold_run_lock(job)
    try:
        view = list_view(qtbot, runner, session)
        cell = view.model.index(0, COL_STATUS)
        assert cell.data() == f"running in another process (pid {holder.pid})"
        tip = cell.data(Qt.ItemDataRole.ToolTipRole)
        assert tip.startswith(f"Another process (pid {holder.pid}, since "), tip
        assert "it can be resumed here only once that process has stopped" in tip
        assert view.select_job(job)
        assert not view.resume_button.isEnabled()
        assert "another process" in view.resume_button.toolTip().lower()
        assert view.summary.text() == "1 job; 1 running in another process"
        assert view.resumable_jobs() == [] and view.status_text() == ""
        # Not even asked directly: nothing is sent, no wizard opens.
        view.resume_selected()
        assert view.wizard is None
        # Its report is the other process's to write: not written from here meanwhile.
        messages: list[str] = []
        view.status_message.connect(messages.append)
        view.report_button.click()
        assert messages == ["The report is written when the job ends or pauses."]
        assert not read_job(job).report.exists()
        assert holder.poll() is None
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=10)
    # The list reads the jobs again by itself while another process runs one: once it has
    # stopped, a job left running is interrupted and can be resumed, a paused one paused.
    shown = "interrupted" if status is JobStatus.RUNNING else "paused — can be resumed"
    qtbot.waitUntil(lambda: view.model.index(0, COL_STATUS).data() == shown, timeout=TIMEOUT)
    assert view.select_job(job) and view.resume_button.isEnabled()
    assert view.summary.text() == "1 job; 1 can be resumed"
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0


def test_the_status_names_the_runner_as_the_lock_does(session: Session, tmp_path: Path) -> None:
    info = read_job(job_file(session, tmp_path, JobStatus.RUNNING))
    assert job_state(info, None) == "interrupted"
    here = socket.gethostname()
    assert job_state(info, None, Holder(4242, here, "")) == "running in another process (pid 4242)"
    assert job_state(info, None, Holder(4242, "laptop-7", "")) == (
        "running in another process (pid 4242 on laptop-7)"
    )
    assert job_state(info, None, Holder(0, "", "")) == "running in another process"
    # This very process (a run outside the job registry) is not another one.
    assert job_state(info, None, Holder(os.getpid(), here, "")) == "running"
