"""Black-box finding S31 bb4 #6 in the window: the bulk removal dialog started a removal of a
file that a paused removal of it (the same list, the same scope) still had rows of to send.
Start now refuses it in one sentence naming that job and saying to resume it from the Jobs
tab; nothing is removed and no second job file is left."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.bulk_removal_dialog import BulkRemovalDialog
from app.ui.job_progress import job_registry
from app.ui.tasks import TaskRunner
from tests.conftest import READ_ONLY_TOKEN, TOKEN

TIMEOUT = 30_000


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    for handle in job_registry().handles:
        handle.cancel()
    r.cancel_all()
    r.wait()


def test_a_removal_beside_a_paused_removal_of_the_same_file_is_refused_naming_it(
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    file = tmp_path / "gone.csv"
    file.write_text("Phone\n3035550123\n3035550124\n", encoding="utf-8")
    where = ["--scope", "global", "--base-url", sandbox.base_url]
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    assert main(["import", str(file), "--into", "dnc", *where]) == 0
    capsys.readouterr()
    # A removal of it paused by a token that may read but not write (same data folder).
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    assert main(["remove", str(file), *where, "--json", "--note", "ticket 12"]) == 1
    paused = json.loads(capsys.readouterr().out)["job"]
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    dialog = BulkRemovalDialog(session, runner, AppPaths.default())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.source_page.path_edit.setText(str(file))
    qtbot.waitUntil(dialog.source_page.isComplete, timeout=TIMEOUT)
    dialog.next()
    options = dialog.options_page
    options.reason_edit.setText("Consumer request, ticket 12")
    qtbot.waitUntil(lambda: options.count is not None, timeout=TIMEOUT)
    with qtbot.waitSignal(dialog.job_started, timeout=TIMEOUT) as started:
        dialog.next()
    handle = started.args[0]
    qtbot.waitUntil(lambda: bool(handle.error), timeout=TIMEOUT)
    assert handle.error.startswith(f"Removal of gone.csv not started: job {paused} "), handle.error
    assert "(paused, 0 of 2 rows done); resume it from the Jobs tab" in handle.error
    # Not the move of a job file out of the jobs folder it once said: the Jobs tab's cancel.
    assert handle.error.endswith(
        "to start anew instead, cancel it first: select it in the Jobs tab and click Cancel "
        "job… (its rows not sent end not attempted)."
    ), handle.error
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 2
    jobs = sorted(p.stem for p in AppPaths.default().jobs_dir.glob("removal-*.dncjob"))
    assert jobs == [paused]
