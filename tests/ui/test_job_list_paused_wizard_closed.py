"""A job paused on its import wizard's run page, then the wizard closed (its subtitle says the
job keeps running, see the Jobs tab), could neither be resumed nor cancelled from the Jobs tab:
it is still this process's run, so both buttons were disabled with no word why, nothing
re-opened its progress, and only quitting the app freed it (bb14 W5). The Jobs tab now resumes
such a run (showing its progress again) or cancels it, as its wizard would have.

Real wizards and a real Jobs tab, over loopback HTTP to the sandbox."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app.core.job_catalog import read_job
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.import_wizard import ImportWizard
from app.ui.job_list import JobListView
from app.ui.job_progress import JobHandle, ResumeWizard, job_registry
from app.ui.tasks import TaskRunner

TIMEOUT = 60_000
ROWS = 40


def _paused_then_closed(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> JobHandle:
    """An import of ROWS rows paused on its run page after a few rows, its wizard closed."""
    src = tmp_path / "w.csv"
    src.write_text("Phone\n" + "".join(f"404555{i:04d}\n" for i in range(ROWS)))
    wizard = ImportWizard(session, runner, AppPaths.default(), src)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitUntil(lambda: wizard.source_page.probe is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: bool(wizard.campaign_lookup), timeout=TIMEOUT)
    wizard.next()
    wizard.next()
    wizard.target_page.concurrency_spin.setValue(1)
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    sandbox.set_faults(latency_ms=100)
    wizard.next()
    qtbot.waitUntil(lambda: wizard.run_page.handle is not None, timeout=TIMEOUT)
    handle = wizard.run_page.handle
    assert handle is not None
    qtbot.waitUntil(
        lambda: handle.last_progress is not None and handle.last_progress.done >= 2,
        timeout=TIMEOUT,
    )
    wizard.run_page.pause()
    qtbot.waitUntil(lambda: "pausing" not in wizard.run_page.rate_label.text(), timeout=TIMEOUT)
    wizard.close()
    sandbox.set_faults(latency_ms=0)
    assert handle.running and handle.paused
    assert shown_in(handle) is None
    return handle


def shown_in(handle: JobHandle) -> QWidget | None:
    """The open window whose run page shows ``handle``."""
    for widget in QApplication.topLevelWidgets():
        page = getattr(widget, "run_page", None)
        if widget.isVisible() and getattr(page, "handle", None) is handle:
            return widget
    return None


def _jobs_tab(qtbot: Any, runner: TaskRunner, session: Session, job_file: Path) -> JobListView:
    view = JobListView(AppPaths.default(), runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
        view.set_session(session)
    assert view.select_job(job_file)
    return view


def _outcomes(job_file: Path) -> Counter[str]:
    with JobStore(job_file) as store:
        return Counter(row.outcome for row in store.rows())


def test_a_paused_job_whose_wizard_closed_is_resumed_from_the_jobs_tab(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    handle = _paused_then_closed(qtbot, runner, session, sandbox, tmp_path)
    assert handle.job_path is not None
    view = _jobs_tab(qtbot, runner, session, handle.job_path)
    assert view.resume_button.isEnabled()
    assert "paused job" in view.resume_button.toolTip()
    assert view.cancel_button.isEnabled()
    with qtbot.waitSignal(handle.finished, timeout=TIMEOUT):
        view.resume_button.click()
        shown = shown_in(handle)
        assert isinstance(shown, ResumeWizard)  # its progress, shown again
        qtbot.addWidget(shown)
        assert not handle.paused
        assert not view.resume_button.isEnabled()
        assert "nothing to resume" in view.resume_button.toolTip()
    assert handle.result is not None and handle.result["status"] == "finished"
    assert _outcomes(handle.job_path) == {"inserted": ROWS}
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == ROWS
    qtbot.waitUntil(lambda: shown.currentPage() is shown.result_page, timeout=TIMEOUT)


def test_a_paused_job_whose_wizard_closed_is_cancelled_from_the_jobs_tab(
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    handle = _paused_then_closed(qtbot, runner, session, sandbox, tmp_path)
    job_file = handle.job_path
    assert job_file is not None
    view = _jobs_tab(qtbot, runner, session, job_file)
    asked: list[str] = []

    def yes(_parent: Any, _title: str, text: str, *_a: Any, **_k: Any) -> Any:
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", staticmethod(yes))
    assert view.cancel_button.isEnabled()
    with qtbot.waitSignal(handle.finished, timeout=TIMEOUT):
        view.cancel_button.click()
        assert not view.cancel_button.isEnabled()  # asked once, cancelling
        assert "being cancelled" in view.cancel_button.toolTip()
    assert len(asked) == 1 and "not attempted" in asked[0]
    sent = sandbox.store.scalar("SELECT count(*) FROM dnc")
    outcomes = _outcomes(job_file)
    assert outcomes == {"inserted": sent, "not_attempted": ROWS - sent}
    assert 2 <= sent < ROWS
    assert handle.result is not None and handle.result["status"] == "cancelled"
    assert job_registry().by_path(job_file) is None
    assert read_job(job_file).status == "cancelled"
    assert Path(handle.result["report"]).is_file()
    qtbot.waitUntil(lambda: not view.cancel_button.isEnabled(), timeout=TIMEOUT)


def test_the_jobs_tab_resumes_a_job_whose_wizard_is_open_in_that_wizard(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    handle = _paused_then_closed(qtbot, runner, session, sandbox, tmp_path)
    assert handle.job_path is not None
    shown = ResumeWizard(handle, "progress", None)  # its progress, open again
    qtbot.addWidget(shown)
    shown.show()
    run_page = shown.run_page
    assert run_page.resume_button.isEnabled() and not run_page.pause_button.isEnabled()
    view = _jobs_tab(qtbot, runner, session, handle.job_path)
    with qtbot.waitSignal(handle.finished, timeout=TIMEOUT):
        view.resume_button.click()
        assert shown_in(handle) is shown  # no second window over the same run
        # Its buttons follow the resume made in the Jobs tab.
        assert run_page.pause_button.isEnabled() and not run_page.resume_button.isEnabled()
    assert _outcomes(handle.job_path) == {"inserted": ROWS}
