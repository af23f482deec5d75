"""The Jobs tab and a job killed while its file was being read (black-box B14 F1): listed as
such, no Resume offered (the button's tooltip and the Status cell's say why); a job whose file
is being read now, in this process, is listed as reading it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.core.job_store import JobStore, NewRow
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.job_list import COL_OUTCOMES, COL_PROGRESS, COL_STATUS, JobListView
from app.ui.tasks import TaskRunner
from tests.cli.test_job_killed_while_staging import _csv, _killed_while_reading

TIMEOUT = 20_000


def _view(qtbot: Any, runner: TaskRunner, session: Session) -> JobListView:
    view = JobListView(AppPaths.default(), runner)
    qtbot.addWidget(view)
    view.resize(1100, 400)
    view.show()
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
        view.set_session(session)
    return view


@pytest.mark.skipif(sys.platform == "win32", reason="the child kills itself with SIGKILL")
def test_a_job_killed_while_reading_its_file_is_not_offered_for_a_resume(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    src = _csv(tmp_path / "in12.csv")
    job = _killed_while_reading(
        ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"], 10
    )
    view = _view(qtbot, runner, session)
    assert view.model.rowCount() == 1
    assert view.model.index(0, COL_STATUS).data() == (
        "stopped while reading its file (nothing sent)"
    )
    assert view.model.index(0, COL_PROGRESS).data() == "none sent"
    assert view.model.index(0, COL_OUTCOMES).data() == ""
    why = (
        f"Job {job.stem} stopped while reading {src}, before its rows were all stored, so "
        "nothing of it was sent and it cannot be resumed: start the import again with "
        "Import… and the same file."
    )
    tip = view.model.index(0, COL_STATUS).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == why
    assert view.resumable_jobs() == []
    assert "can be resumed" not in view.summary.text()
    assert view.select_job(job)
    assert not view.resume_button.isEnabled()
    assert not view.report_button.isEnabled()  # it would pass for a report of the file
    assert view.resume_button.toolTip() == why
    view.resume_selected()
    assert view.wizard is None


def test_a_job_whose_file_is_being_read_now_is_listed_as_reading_it(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    """This process stages it (as the import wizard does, on a worker thread): not stopped."""
    from app.core.job_exec import JobNotStaged, execute

    meta = {"kind": "import", "file": str(tmp_path / "big.xlsx"), "name": "big", "created": ""}
    store = JobStore.create(AppPaths.default().jobs_dir, "import-20261124-000000-abcdef", meta)
    store.add_rows([NewRow(2, "3035550100", "3035550100", "1", "global")])
    view = _view(qtbot, runner, session)
    assert view.model.index(0, COL_STATUS).data() == "reading its file"
    assert view.resumable_jobs() == []
    with pytest.raises(JobNotStaged, match=r"^Job import-20261124-000000-abcdef is still reading"):
        execute(store, session, lambda row, resent: None, concurrency=1)  # type: ignore[arg-type,return-value]
    assert list(session.journal.query(job="import-20261124-000000-abcdef", limit=10)) == []
    # Staging's last write (damaged cells counted) ends it: the job is an ordinary one now.
    store.set_meta({"damaged": 0, "staged": True})
    view.refresh()
    qtbot.waitUntil(
        lambda: view.model.index(0, COL_STATUS).data() == "not started", timeout=TIMEOUT
    )
    assert [j.job_id for j in view.resumable_jobs()] == ["import-20261124-000000-abcdef"]
    store.close()
