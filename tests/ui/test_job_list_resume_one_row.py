"""Resuming from the Jobs tab a job with one row left says "1 row to send" (it said "1 rows").

The job is a real CLI import paused by a token that may read but not write, resumed from the
real Jobs tab against the same sandbox over loopback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.job_list import JobListView
from app.ui.tasks import TaskRunner
from tests.conftest import READ_ONLY_TOKEN

TIMEOUT = 30_000


def test_a_job_of_one_row_left_resumes_with_one_row_to_send(
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = tmp_path / "one.csv"
    src.write_text("Phone\n2025550101\n", encoding="utf-8")
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["status"], data["pending"]) == ("paused", 1)
    view = JobListView(AppPaths.default(), runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
        view.set_session(session)
    (job,) = view.model.jobs
    assert view.select_job(job.path) and view.resume_button.isEnabled()
    said: list[str] = []
    view.status_message.connect(said.append)
    view.resume_button.click()
    assert said == ["Resuming Import of one.csv: 1 row to send."]
    assert view.wizard is not None
