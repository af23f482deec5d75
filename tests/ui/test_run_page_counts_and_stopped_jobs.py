"""The run page's counts add up to the rows done (bb6 F3: in-file duplicates were left out),
and the word on jobs stopped before the end names the Jobs tab, counted (bb6 F8)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.job_store import JobStatus
from app.core.session import Session
from app.ui.import_wizard import ImportWizard
from app.ui.job_progress import job_registry
from app.ui.tasks import TaskRunner
from tests.ui.test_import_wizard_window import connected_window
from tests.ui.test_job_list_running import job_file, list_view

TIMEOUT = 20_000


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    for handle in job_registry().handles:
        handle.cancel()
    r.cancel_all()
    r.wait()


def test_run_page_counts_show_the_duplicates_in_the_file(
    make_window: Any, qtbot: Any, sandbox: Any, tmp_path: Path
) -> None:
    window = connected_window(make_window, qtbot, sandbox)
    file = tmp_path / "numbers.csv"
    unique = [f"(202) 555-{i + 100:04d}\n" for i in range(20)]
    file.write_text("Phone\n" + "".join(unique) + "".join(unique[:3]) + "not a phone\n")
    wizard = window.job_features.import_file(file)
    assert isinstance(wizard, ImportWizard)
    qtbot.waitUntil(lambda: wizard.source_page.probe is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: bool(wizard.campaign_lookup), timeout=TIMEOUT)
    wizard.next()
    wizard.next()
    wizard.target_page.note_edit.setText("counts test")
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    wizard.next()  # Start
    qtbot.waitUntil(lambda: wizard.run_page.handle is not None, timeout=TIMEOUT)
    handle = wizard.run_page.handle
    assert handle is not None
    qtbot.waitUntil(lambda: handle.result is not None, timeout=TIMEOUT)
    text = wizard.run_page.counts_label.text()
    assert "inserted: 20" in text and "invalid (not sent): 1" in text
    assert "duplicates in the file (not sent): 3" in text


def test_stopped_jobs_are_counted_and_the_jobs_tab_named(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    job_file(session, tmp_path, JobStatus.PAUSED)
    view = list_view(qtbot, runner, session)
    assert len(view.resumable_jobs()) == 1
    assert view.status_text() == (
        "1 job stopped before the end: select it in the Jobs tab and click Resume."
    )
