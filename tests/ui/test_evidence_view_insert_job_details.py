"""The window's evidence pack names an insert's job row, request date and report, as the
CLI's does (S20 J1 left it: the view gave gather_evidence no jobs folder, so the pack named
the job only)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from app.api.scope import Scope
from app.core.evidence import EvidencePack
from app.core.import_job import run_import, stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.evidence_view import EvidenceView
from app.ui.tasks import TaskRunner

TIMEOUT = 20_000


def test_the_windows_pack_names_the_insert_jobs_row_and_request(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    paths = AppPaths.default()
    source = tmp_path / "requests.csv"
    source.write_text("Phone,Request Date\n2025550461,2026-01-05\n")
    settings = JobSettings(source, Scope.global_(), name="Front desk requests")
    store, _ = stage_import(settings, paths.jobs_dir, connection=session.connection)
    assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    store.close()

    view = EvidenceView(runner, paths)
    qtbot.addWidget(view)
    view.set_session(session)
    qtbot.keyClicks(view.number_edit, "2025550461")
    with qtbot.waitSignal(view.evidence_ready, timeout=TIMEOUT) as blocker:
        qtbot.keyClick(view.number_edit, Qt.Key.Key_Return)
    pack = blocker.args[0]
    assert isinstance(pack, EvidencePack)
    (write,) = pack.writes
    facts = pack.jobs[write.intent.id]
    assert (facts.name, facts.row_number, facts.request_date, facts.late) == (
        "Front desk requests",
        2,
        "2026-01-05",
        True,
    )
