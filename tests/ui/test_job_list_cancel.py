"""The Jobs tab could not cancel a paused or interrupted job: giving it up took resuming it and
pressing its wizard's Cancel job…, which sent rows first. Its Cancel job… now asks (naming the
job and the rows left), cancels it off the GUI thread as ``dnc-desk jobs cancel`` does (its
rows not sent end not attempted, its report is written, a new job of its file is no longer
refused) and lists it again; a refusal (a row's write may have reached the service) is shown as
it is, changing nothing.

The jobs are real CLI imports over loopback HTTP to the sandbox: one paused by a token that may
read but not write, one a real process killed while two inserts were on the wire."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from app.cli.main import main
from app.core.job_catalog import read_job
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.job_list import JobListView
from app.ui.tasks import TaskRunner
from tests.cli.test_jobs_cancel import _unanswered
from tests.cli.test_jobs_cmd import STARTED, _csv, _spawn, _wait_for_line
from tests.conftest import READ_ONLY_TOKEN, TOKEN

TIMEOUT = 30_000


def _boxes(monkeypatch: pytest.MonkeyPatch, kind: str, answer: Any) -> list[tuple[str, str]]:
    """Answer message boxes of ``kind`` with ``answer``, keeping their titles and texts."""
    shown: list[tuple[str, str]] = []

    def box(_parent: Any, title: str, text: str, *_a: Any, **_k: Any) -> Any:
        shown.append((title, text))
        return answer

    monkeypatch.setattr(QMessageBox, kind, staticmethod(box))
    return shown


def _jobs_tab(qtbot: Any, runner: TaskRunner, session: Session, job_file: Path) -> JobListView:
    view = JobListView(AppPaths.default(), runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
        view.set_session(session)
    assert view.select_job(job_file)
    return view


def _outcomes(job_file: Path) -> list[tuple[str, str]]:
    with JobStore(job_file) as store:
        return [(row.outcome, row.message) for row in store.rows()]


def test_a_paused_job_is_cancelled_from_the_jobs_tab(
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = _csv(tmp_path / "in.csv", 3)
    base = ["import", str(src), "--into", "dnc", "--scope", "global"]
    base += ["--base-url", sandbox.base_url]
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    assert main([*base, "--json", "--name", "Spring list"]) == 1
    paused = json.loads(capsys.readouterr().out)["job"]
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    job_file = AppPaths.default().jobs_dir / f"{paused}.dncjob"
    report = job_file.with_suffix(".xlsx")
    report.unlink(missing_ok=True)  # the pause's: the cancel writes the job's anew
    view = _jobs_tab(qtbot, runner, session, job_file)
    assert view.cancel_button.isEnabled() and view.cancel_button.text() == "&Cancel job…"

    # Asked, and answered No: nothing changes.
    asked = _boxes(monkeypatch, "question", QMessageBox.StandardButton.No)
    view.cancel_button.click()
    assert len(asked) == 1 and read_job(job_file).status == "paused"
    title, text = asked[0]
    assert title == "Cancel the job"
    assert text.startswith(f"Cancel job {paused} (Spring list)? Its 3 rows not sent yet end "), text
    assert "not attempted" in text and "Its report is written" in text

    asked = _boxes(monkeypatch, "question", QMessageBox.StandardButton.Yes)
    said: list[str] = []
    view.status_message.connect(said.append)
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):  # listed again once it has ended
        view.cancel_button.click()
        assert not view.cancel_button.isEnabled()  # while it runs off the GUI thread
    assert len(asked) == 1
    assert said == [
        f"Job {paused} cancelled: 3 rows not sent end not attempted (cancelled before it was "
        f"sent); it no longer holds up a new job of its file. Report: {report}"
    ]
    assert report.is_file()
    ended = _outcomes(job_file)
    assert [o for o, _ in ended] == ["not_attempted"] * 3, ended
    assert all(m.endswith("cancelled before it was sent") for _, m in ended), ended
    (job,) = view.model.jobs
    assert job.status == "cancelled" and view.select_job(job.path)
    assert not view.cancel_button.isEnabled() and not view.resume_button.isEnabled()
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    # No longer held up: a new job of the file runs.
    assert main(base) == 0
    assert "finished." in capsys.readouterr().out


def test_a_job_with_writes_that_may_have_reached_the_service_is_not_cancelled(
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sandbox.set_faults(latency_ms=1500)  # the kill comes while two inserts are on the wire
    src = _csv(tmp_path / "big.csv", 6)
    output = tmp_path / "out.txt"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    proc = _spawn([*argv, "--base-url", sandbox.base_url, "--concurrency", "2"], output)
    try:
        job_id = _wait_for_line(output, proc, STARTED)[1]
        _unanswered(job_id, proc, output, 2)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    sandbox.set_faults(latency_ms=0)
    job_file = AppPaths.default().jobs_dir / f"{job_id}.dncjob"
    before = _outcomes(job_file)
    view = _jobs_tab(qtbot, runner, session, job_file)
    assert view.cancel_button.isEnabled()  # interrupted: it can be resumed, or cancelled

    _boxes(monkeypatch, "question", QMessageBox.StandardButton.Yes)
    warned = _boxes(monkeypatch, "warning", QMessageBox.StandardButton.Ok)
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
        view.cancel_button.click()
    assert len(warned) == 1, warned
    title, text = warned[0]
    assert title == "Job not cancelled"
    assert text.startswith(f"Job {job_id} was not cancelled: the change journal shows "), text
    assert "that may have reached the service" in text
    assert text.endswith(
        "Resume the job first, which looks each of them up and settles it before any other "
        "row: select it in the Jobs tab and click Resume (Pause then stops it), and cancel it "
        "after with Cancel job…"
    ), text
    # Nothing changed: still to be resumed, no row called not attempted.
    assert _outcomes(job_file) == before
    assert read_job(job_file).status == "running" and read_job(job_file).pending == 6
    assert view.select_job(job_file) and view.cancel_button.isEnabled()
