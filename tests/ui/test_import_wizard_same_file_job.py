"""Black-box finding S31 bb4 #6 in the window: the import wizard started a job of a file that
a paused job of it still had rows of to send (the same list, the same scope), so the rows could
be sent twice with neither job named. Start now refuses it in one sentence naming that job and
saying to resume it from the Jobs tab; nothing is sent and no second job file is left."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.tasks import TaskRunner
from tests.conftest import READ_ONLY_TOKEN, TOKEN
from tests.ui.test_import_wizard import TIMEOUT, open_wizard, to_check_page


def test_start_beside_a_paused_job_of_the_same_file_is_refused_naming_it(
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "vendor.csv"
    path.write_text("Phone,Reason\n7205550101,req\n7205550102,req\n")
    # A job of it paused by a token that may read but not write (the CLI's, same data folder).
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 1
    paused = json.loads(capsys.readouterr().out)["job"]
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard)
    with qtbot.waitSignal(wizard.job_started, timeout=TIMEOUT) as started:
        wizard.next()  # "Start import"
    handle = started.args[0]
    qtbot.waitUntil(lambda: bool(handle.error), timeout=TIMEOUT)
    assert handle.error.startswith(f"Import of vendor.csv not started: job {paused} "), handle.error
    assert "sends the same rows to the DNC list (scope global)" in handle.error
    assert "(paused, 0 of 2 rows done); resume it from the Jobs tab" in handle.error
    # Not the move of a job file out of the jobs folder it once said: the Jobs tab's cancel.
    assert handle.error.endswith(
        "to start anew instead, cancel it first: select it in the Jobs tab and click Cancel "
        "job… (its rows not sent end not attempted)."
    ), handle.error
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    jobs = sorted(p.stem for p in AppPaths.default().jobs_dir.glob("*.dncjob"))
    assert jobs == [paused]
