"""The window's side of imports: actions, the Jobs tab, a dropped file opening the wizard, and
closing while a job runs (keep working, or pause so the job can be resumed next start)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.import_job import stage_import
from app.core.job_catalog import list_jobs
from app.core.job_staging import JobSettings
from app.core.paths import AppPaths
from app.ui.import_wizard import ImportWizard
from app.ui.import_wizard_window import JOBS_TAB
from app.ui.job_progress import CANCEL, KEEP, PAUSE, JobHandle, job_registry
from app.ui.main_window import MainWindow
from tests.conftest import TOKEN

TIMEOUT = 20_000


def connected_window(make_window: Any, qtbot: Any, sandbox: Any) -> MainWindow:
    window: MainWindow = make_window()
    with qtbot.waitSignal(window.backend_ready, timeout=10_000):
        window.start()
    assert not window.job_features.act_import.isEnabled()
    with qtbot.waitSignal(window.session_ready, timeout=10_000):
        window.state.activate(
            Connection("Test", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN)
        )
    return window


# Qt 6 keeps only the QPoint constructor of QDragEnterEvent, and PySide marks it deprecated.
@pytest.mark.filterwarnings("ignore:Function.*QDragEnterEvent:DeprecationWarning")
def test_actions_tab_and_dropped_file(
    make_window: Any, qtbot: Any, sandbox: Any, tmp_path: Path
) -> None:
    window = connected_window(make_window, qtbot, sandbox)
    features = window.job_features
    assert all(a.isEnabled() for a in (features.act_import, features.act_bulk_remove,
                                       features.act_export))  # fmt: skip
    labels = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert labels[-1] == JOBS_TAB
    menus = [a.text() for a in window.menuBar().actions()]
    assert menus.index("&Jobs") == menus.index("&Help") - 1

    file = tmp_path / "dropped.csv"
    file.write_text("Phone\n2025550143\n")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(file))])
    enter = QDragEnterEvent(
        window.rect().center(), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )  # fmt: skip
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(
        QPointF(window.rect().center()), Qt.DropAction.CopyAction, mime,
        Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
    )  # fmt: skip
    QApplication.sendEvent(window, drop)
    wizard = features.dialog
    assert isinstance(wizard, ImportWizard)
    qtbot.waitUntil(lambda: wizard.source_page.probe is not None, timeout=TIMEOUT)
    assert wizard.source_page.path_edit.text() == str(file)
    wizard.close()

    other = tmp_path / "notes.pdf"
    other.write_text("x")
    mime.setUrls([QUrl.fromLocalFile(str(other))])
    refused = QDragEnterEvent(
        window.rect().center(), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )  # fmt: skip
    refused.ignore()
    QApplication.sendEvent(window, refused)
    assert not refused.isAccepted()


@pytest.mark.parametrize("choice", [PAUSE, CANCEL])
def test_closing_while_a_job_runs(
    make_window: Any, qtbot: Any, sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    choice: str,
) -> None:  # fmt: skip
    window = connected_window(make_window, qtbot, sandbox)
    session = window.state.session
    assert session is not None
    sandbox.set_faults(latency_ms=150)
    file = tmp_path / "slow.csv"
    file.write_text("Phone\n" + "".join(f"202555{i:04d}\n" for i in range(30)))
    paths = AppPaths.default()

    def stage() -> Any:
        return stage_import(
            JobSettings(file, Scope.global_(), name="Slow", note="closing test"),
            paths.jobs_dir,
            connection=session.connection,
        )

    handle = JobHandle(window.runner, session, "import", stage=stage, concurrency=1)
    handle.start()
    qtbot.waitUntil(lambda: handle.last_progress is not None, timeout=TIMEOUT)

    asked: list[int] = []
    answers = [KEEP, choice]

    def answer(_parent: Any, running: int) -> str:
        asked.append(running)
        return answers.pop(0)

    monkeypatch.setattr("app.ui.job_progress.close_choice", answer)
    window.show()
    assert not window.close()  # "Keep working"
    assert window.isVisible() and handle.running
    with qtbot.waitSignal(handle.finished, timeout=TIMEOUT) as ended:
        assert window.close()
    assert asked == [1, 1]
    summary = ended.args[0]
    sent = sandbox.store.scalar("SELECT count(*) FROM dnc")
    assert 0 < sent < 30
    job = list_jobs(paths.jobs_dir)[0]
    if choice == PAUSE:
        assert summary["status"] == "paused" and job.resumable
        assert job.pending == 30 - sent  # every row not sent is kept for the resume
    else:
        assert summary["status"] == "cancelled" and not job.resumable
        assert job.counts["not_attempted"] == 30 - sent
    assert not job_registry().running()
