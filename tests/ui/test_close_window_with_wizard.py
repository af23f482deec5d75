"""Closing the main window during an import started in the wizard, choosing "Pause and
close": the wizard closes with the window (it stayed on screen, saying its job was running,
over a window gone) and the job ends paused, resumable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from app.core.job_catalog import list_jobs
from app.core.paths import AppPaths
from app.ui.import_wizard import ImportWizard
from app.ui.job_progress import PAUSE, job_registry
from tests.ui.test_import_wizard_window import connected_window

TIMEOUT = 20_000
ROWS = 40


def test_pause_and_close_closes_the_running_wizard_too(
    make_window: Any, qtbot: Any, sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = connected_window(make_window, qtbot, sandbox)
    window.show()
    file = tmp_path / "numbers.csv"
    file.write_text("Phone\n" + "".join(f"(202) 555-{i + 100:04d}\n" for i in range(ROWS)))
    sandbox.set_faults(latency_ms=100)
    wizard = window.job_features.import_file(file)
    assert isinstance(wizard, ImportWizard)
    qtbot.waitUntil(lambda: wizard.source_page.probe is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: bool(wizard.campaign_lookup), timeout=TIMEOUT)
    wizard.next()
    wizard.next()
    wizard.target_page.note_edit.setText("closing test")
    wizard.target_page.concurrency_spin.setValue(1)
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    wizard.next()  # Start
    qtbot.waitUntil(lambda: wizard.currentId() == wizard.PAGE_RUN, timeout=TIMEOUT)
    handle = wizard.run_page.handle
    assert handle is not None
    qtbot.waitUntil(lambda: handle.last_progress is not None, timeout=TIMEOUT)
    assert wizard.isVisible()

    monkeypatch.setattr("app.ui.job_progress.close_choice", lambda _parent, _n: PAUSE)
    with qtbot.waitSignal(handle.finished, timeout=TIMEOUT) as ended:
        assert window.close()
    assert not window.isVisible()
    assert not wizard.isVisible()
    # No window of the app is left on screen, so Qt quits the app (quitOnLastWindowClosed).
    assert [w for w in QApplication.topLevelWidgets() if w.isVisible()] == []
    assert ended.args[0]["status"] == "paused"
    sent = sandbox.store.scalar("SELECT count(*) FROM dnc")
    (job,) = list_jobs(AppPaths.default().jobs_dir)
    assert job.resumable and job.pending == ROWS - sent > 0
    assert not job_registry().running()
