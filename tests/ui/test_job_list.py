"""The Jobs tab: a job interrupted by a crash is listed as such and resumed without sending a
row twice; reports open; a job of another connection is not resumed against this one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from app.api.scope import Scope
from app.core.connections import Connection
from app.core.import_job import stage_import
from app.core.job_catalog import list_jobs
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore, Outcome, utc_now
from app.core.paths import AppPaths
from app.core.session import Session, e164, journal_target
from app.ui.job_list import COL_STATUS, JobListView
from app.ui.job_progress import ResumeWizard, job_registry
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN

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


def crashed_job(sandbox: Any, session: Session, tmp_path: Path) -> Path:
    """A job file as a killed process leaves it: 3 rows answered, 1 in flight, 6 never sent.

    The in-flight row reached the service before the crash, as it may have: its insert's
    journal intent has no outcome.
    """
    csv = tmp_path / "ten.csv"
    csv.write_text("Phone\n" + "".join(f"202555{i:04d}\n" for i in range(10)))
    store, _ = stage_import(
        JobSettings(csv, Scope.global_(), name="Crashed import", note="ticket 7"),
        AppPaths.default().jobs_dir,
        connection=session.connection,
    )
    rows = list(store.unfinished())
    store.set_meta({"started": utc_now()})
    store.set_status(JobStatus.RUNNING)
    for row in rows[:4]:
        store.mark_sending(row.seq)
    for row in rows[:3]:
        store.mark_done(row.seq, Outcome.INSERTED)
    store.flush()
    session.journal.record_intent(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation="dnc.insert",
        target=journal_target("dnc", rows[3].national, "1", Scope.global_()),
        phone=e164(rows[3].national, "1"),
        job=str(store.meta()["job_id"]),
    )
    store.close()
    sandbox.bulk_seed_dnc([(f"202555{i:04d}", "1", "0", "", "") for i in range(4)])
    return store.path


def list_view(qtbot: Any, runner: TaskRunner, session: Session | None) -> JobListView:
    view = JobListView(AppPaths.default(), runner)
    qtbot.addWidget(view)
    view.resize(1100, 400)
    view.show()
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
        view.set_session(session)
    return view


def test_interrupted_job_is_resumed_without_sending_twice(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    path = crashed_job(sandbox, session, tmp_path)
    view = list_view(qtbot, runner, session)
    assert view.model.rowCount() == 1
    status = view.model.index(0, COL_STATUS).data()
    assert status == "interrupted"
    assert "4 of 10" not in view.model.index(0, 4).data()  # the in-flight row is not done
    assert view.model.index(0, 4).data().startswith("3 of 10")
    assert "can be resumed" in view.summary.text()
    assert not view.resume_button.isEnabled()  # nothing selected yet
    assert view.select_job(path)
    assert view.resume_button.isEnabled()

    finished: list[dict[str, Any]] = []
    view.job_finished.connect(finished.append)
    view.resume_button.click()
    wizard = view.wizard
    assert isinstance(wizard, ResumeWizard)
    qtbot.waitUntil(lambda: bool(finished), timeout=TIMEOUT)
    summary = finished[0]
    assert summary["status"] == "finished"
    assert (summary["inserted"], summary["already_present"], summary["pending"]) == (9, 1, 0)
    phones = [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")]
    assert sorted(phones) == [f"202555{i:04d}" for i in range(10)]  # each once
    with JobStore(path) as store:
        resent = [r for r in store.rows() if r.outcome == "already_present"]
    assert [r.national for r in resent] == ["2025550003"]
    # "sent again", or, its insert journaled with no outcome, "sent" (S21 K2).
    assert "when the job was resumed" in resent[0].message
    qtbot.waitUntil(lambda: wizard.currentId() == 1, timeout=TIMEOUT)  # the result page
    assert wizard.result_page.value_labels["inserted"].text() == "9"

    qtbot.waitUntil(lambda: view.model.index(0, COL_STATUS).data() == "finished", timeout=TIMEOUT)
    opened: list[str] = []
    monkeypatch.setattr(
        "app.ui.job_progress.QDesktopServices.openUrl",
        staticmethod(lambda url: opened.append(url.toLocalFile()) or True),
    )
    view.select_job(path)
    view.report_button.click()
    qtbot.waitUntil(lambda: bool(opened), timeout=TIMEOUT)
    assert opened == [summary["report"]] and Path(summary["report"]).is_file()


def test_report_of_a_never_finished_job_is_written_on_demand(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    path = crashed_job(sandbox, session, tmp_path)
    report = list_jobs(AppPaths.default().jobs_dir)[0].report
    assert not report.exists()
    opened: list[str] = []
    monkeypatch.setattr(
        "app.ui.job_progress.QDesktopServices.openUrl",
        staticmethod(lambda url: opened.append(url.toLocalFile()) or True),
    )
    view = list_view(qtbot, runner, session)
    view.select_job(path)
    view.report_button.click()
    qtbot.waitUntil(lambda: bool(opened), timeout=TIMEOUT)
    assert opened == [str(report)] and report.is_file()


def test_job_of_another_connection_is_not_resumed_here(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    path = crashed_job(sandbox, session, tmp_path)
    # Another service: nothing may be sent there (the check comes before any request).
    other = Session(
        Connection("Production", "https://dialer.example.com"), session.api, session.journal
    )
    warned: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "warning", staticmethod(lambda _p, _t, text: warned.append(text))
    )
    view = list_view(qtbot, runner, other)
    view.select_job(path)
    view.resume_button.click()
    assert warned and "'Test'" in warned[0]
    assert view.wizard is None
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 4


@pytest.mark.slow
def test_cli_import_killed_with_sigkill_is_resumed_from_the_list(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    rows = 80
    src = tmp_path / "in.csv"
    src.write_text("phone\n" + "".join(f"(303) 555-{i:04d}\n" for i in range(rows)))
    sandbox.set_faults(latency_ms=40)
    paths = AppPaths.default()
    env = {
        **os.environ,
        "DNC_DESK_TOKEN": TOKEN,
        "DNC_DESK_DATA_DIR": str(paths.data_dir),
        "DNC_DESK_CONFIG_DIR": str(paths.config_dir),
    }
    argv = [sys.executable, "-m", "app", "import", str(src), "--into", "dnc", "--scope", "global",
            "--base-url", sandbox.base_url, "--concurrency", "2", "--name", "killed",
            "--note", "resume after a crash"]  # fmt: skip
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        qtbot.waitUntil(
            lambda: any(j.done >= 10 for j in list_jobs(paths.jobs_dir)), timeout=TIMEOUT
        )
        assert proc.poll() is None  # still sending when killed
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    sandbox.set_faults(latency_ms=0)
    view = list_view(qtbot, runner, session)
    job = view.model.jobs[0]
    assert view.model.index(0, COL_STATUS).data() == "interrupted" and job.pending > 0
    view.select_job(job.path)
    finished: list[dict[str, Any]] = []
    view.job_finished.connect(finished.append)
    view.resume_button.click()
    qtbot.waitUntil(lambda: bool(finished), timeout=TIMEOUT)
    summary = finished[0]
    assert summary["status"] == "finished" and summary["pending"] == 0
    assert summary["inserted"] + summary["already_present"] == rows
    numbers = [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")]
    assert len(numbers) == len(set(numbers)) == rows
