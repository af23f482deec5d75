"""Resuming from the Jobs tab a job that another process (a CLI import) is running, or that this
app is already running: refused in one sentence, nothing sent, the other run unharmed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_catalog import list_jobs
from app.core.job_staging import JobSettings
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.job_list import COL_STATUS, JobListView
from app.ui.job_progress import JobHandle, ResumeWizard
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN

TIMEOUT = 30_000
ROOT = Path(__file__).resolve().parents[2]
ROWS = 200


def test_resume_of_a_job_a_cli_process_is_running_is_refused(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    src = tmp_path / "in.csv"
    src.write_text("phone\n" + "".join(f"(303) 555-{i:04d}\n" for i in range(ROWS)))
    sandbox.set_faults(latency_ms=60)
    paths = AppPaths.default()
    argv = [sys.executable, "-m", "app", "import", str(src), "--into", "dnc", "--scope", "global",
            "--base-url", sandbox.base_url, "--concurrency", "2"]  # fmt: skip
    proc = subprocess.Popen(
        argv,
        cwd=ROOT,
        env={**os.environ, "DNC_DESK_TOKEN": TOKEN},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        qtbot.waitUntil(
            lambda: any(j.done >= 10 for j in list_jobs(paths.jobs_dir)), timeout=TIMEOUT
        )
        view = JobListView(paths, runner)
        qtbot.addWidget(view)
        with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
            view.set_session(session)
        job = view.model.jobs[0]
        # The list says the CLI runs it, and offers no resume (test_job_list_running.py).
        assert view.model.index(0, COL_STATUS).data() == (
            f"running in another process (pid {proc.pid})"
        )
        assert view.select_job(job.path) and not view.resume_button.isEnabled()
        # A resume asked all the same (from a list read just before the CLI took the job) is
        # refused by the run lock: the wizard the Resume button opens, started by hand.
        handle = JobHandle(runner, session, "import", job_path=job.path, parent=runner)
        wizard = ResumeWizard(handle, "Resume", view)
        wizard.show()
        qtbot.waitUntil(lambda: bool(wizard.handle.error), timeout=TIMEOUT)
        assert proc.poll() is None  # refused while the CLI still ran it
        page = wizard.run_page
        assert re.fullmatch(
            rf"Job {job.job_id} is being run by another process \(pid {proc.pid}, "
            r"since (\d\d\d\d-\d\d-\d\d )?\d\d:\d\d UTC\); wait for it to finish or stop it "
            r"first\.",
            page.error_label.text(),
        ), page.error_label.text()
        assert page.rate_label.text() == "Not started."
        assert session.journal.query(job=job.job_id, limit=10) == []  # this app sent nothing
        # Refused while the CLI still ran it: the latency that kept it running has done its
        # job, and the rest of its run (every row sent once, checked below) needs none.
        sandbox.set_faults(latency_ms=0)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    journal = ChangeJournal(paths.journal_db)
    events = journal.query(job=job.job_id, limit=10_000)
    journal.close()
    sent = Counter(e.phone for e in events if e.phase == "intent")
    assert len(sent) == ROWS and set(sent.values()) == {1}
    numbers = [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")]
    assert len(numbers) == len(set(numbers)) == ROWS


def test_two_resumes_of_one_job_in_this_app(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    src = tmp_path / "in.csv"
    src.write_text("Phone\n" + "".join(f"202555{i:04d}\n" for i in range(40)))
    store, _ = stage_import(
        JobSettings(src, Scope.global_(), name="Twice"),
        AppPaths.default().jobs_dir,
        connection=session.connection,
    )
    store.close()
    sandbox.set_faults(latency_ms=40)
    first = JobHandle(runner, session, "import", job_path=store.path, concurrency=1)
    second = JobHandle(runner, session, "import", job_path=store.path, concurrency=1)
    first.start()
    qtbot.waitUntil(lambda: first.last_progress is not None, timeout=TIMEOUT)
    with qtbot.waitSignal(second.failed, timeout=TIMEOUT) as refused:
        second.start()
    assert re.fullmatch(
        r"Job import-\S+ is already being run by this program \(since "
        r"(\d\d\d\d-\d\d-\d\d )?\d\d:\d\d UTC\); wait for it to finish or stop it first\.",
        refused.args[0],
    ), refused.args[0]
    assert first.running
    sandbox.set_faults(latency_ms=0)  # it kept the first run going until the refusal; no more
    qtbot.waitUntil(lambda: first.result is not None, timeout=TIMEOUT)
    summary = first.result
    assert summary is not None
    assert (summary["status"], summary["inserted"], summary["already_present"]) == (
        "finished",
        40,
        0,
    )
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 40
