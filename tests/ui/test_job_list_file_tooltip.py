"""The Jobs tab's File tooltip shows a file's name as written (GUI review B8 #1: a job made
from ``vendor <b>list & co.csv`` showed its name bold, the tags dropped)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.job_list import COL_FILE, JobListView
from app.ui.tasks import TaskRunner

TIMEOUT = 20_000


def _shown(tip: str) -> str:
    """What a tooltip shows: Qt reads it as HTML when it might be rich text."""
    if not GuiQt.mightBeRichText(tip):
        return tip
    doc = QTextDocument()
    doc.setHtml(tip)
    return doc.toPlainText()


def test_the_file_tooltip_shows_a_name_with_tags_as_written(
    qtbot: Any, session: Session, tmp_path: Path
) -> None:
    name = "vendor <b>list & co.csv"
    src = tmp_path / name
    src.write_text("Phone\n2025550143\n")
    store, _ = stage_import(
        JobSettings(src, Scope.global_(), name="Tags", note="B8"),
        AppPaths.default().jobs_dir,
        connection=session.connection,
    )
    store.close()
    runner = TaskRunner()
    view = JobListView(AppPaths.default(), runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT):
        view.set_session(session)
    tip = view.model.index(0, COL_FILE).data(Qt.ItemDataRole.ToolTipRole)
    assert _shown(tip).endswith(name), tip
    runner.cancel_all()
    runner.wait()
