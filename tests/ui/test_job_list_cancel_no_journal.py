"""The Jobs tab's Cancel job… with the change journal gone (black-box bb16 F8, as ``dnc-desk
jobs cancel``): rows in flight when the job was killed were called not attempted once the
journal that showed them maybe sent was deleted or moved, and the cancel made a new journal.
Now it refuses naming the missing journal, and makes none. The job a real CLI import, killed
while two inserts were on the wire, over loopback HTTP to the sandbox."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from app.core.job_catalog import read_job
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.tasks import TaskRunner
from tests.cli.test_jobs_cancel import _unanswered
from tests.cli.test_jobs_cmd import STARTED, _csv, _spawn, _wait_for_line
from tests.ui.test_job_list_cancel import TIMEOUT, _boxes, _jobs_tab, _outcomes


def test_rows_in_flight_with_no_journal_are_not_cancelled_and_no_journal_is_made(
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
    journal = AppPaths.default().journal_db
    for part in journal.parent.glob(journal.name + "*"):
        part.unlink()
    job_file = AppPaths.default().jobs_dir / f"{job_id}.dncjob"
    before = _outcomes(job_file)
    view = _jobs_tab(qtbot, runner, session, job_file)

    _boxes(monkeypatch, "question", QMessageBox.StandardButton.Yes)
    warned = _boxes(monkeypatch, "warning", QMessageBox.StandardButton.Ok)
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
        view.cancel_button.click()
    assert len(warned) == 1, warned
    title, text = warned[0]
    assert title == "Job not cancelled"
    assert text.startswith(f"Job {job_id} was not cancelled: there is no change journal at "), text
    assert "which the job file shows were being sent when the job stopped" in text
    assert text.endswith("and cancel it after with Cancel job…"), text
    assert _outcomes(job_file) == before
    assert read_job(job_file).status == "running"
    assert not journal.exists()
