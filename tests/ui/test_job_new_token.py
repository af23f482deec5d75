"""An import or bulk removal running in the window when its connection's token is replaced
(revoked, a new one entered through the window's own token dialog) goes on through the new
session for its remaining rows: it kept the old one, whose client is closed, and every row
after the replacement failed "the API client is closed"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.connections import Connection, ConnectionStore
from app.core.import_job import stage_import
from app.core.job_catalog import list_jobs
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from app.core.removal_job import stage_removal
from app.sandbox.auth import Role
from app.ui.job_progress import JobHandle, job_registry
from app.ui.list_view import EntryListView
from app.ui.main_window import MainWindow, default_view_factory
from tests.conftest import TOKEN

SERVICE = "dnc-desk"
NEW_TOKEN = "tok-new-5d2f8e1a9c47"
TIMEOUT = 20_000
ROWS = 24


def _window(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any, memory_keyring: Any
) -> tuple[MainWindow, EntryListView]:
    store = ConnectionStore(paths.connections_file)
    store.save(Connection("Staging", sandbox.base_url))
    store.set_active("Staging")
    memory_keyring.passwords[(SERVICE, "Staging")] = TOKEN
    window = make_window(view_factory=default_view_factory)
    dnc = window.list_views["dnc"]
    assert isinstance(dnc, EntryListView)
    window.show()
    with qtbot.waitSignal(window.session_ready, timeout=TIMEOUT):
        window.start()
    qtbot.waitUntil(lambda: dnc.model.total is not None, timeout=TIMEOUT)
    return window, dnc


def _messages(path: Path, outcome: str) -> set[str]:
    store = JobStore(path)
    try:
        return {row.message for row in store.rows() if row.outcome != outcome}
    finally:
        store.close()


def _replace_token(qtbot: Any, window: MainWindow, dnc: EntryListView) -> None:
    """Revoke the token, let the DNC tab meet the refusal, enter a new one in its dialog."""
    old = window.state.session
    dnc.refresh()
    qtbot.waitUntil(lambda: window.token_dialog is not None, timeout=TIMEOUT)
    dialog = window.token_dialog
    assert dialog is not None
    qtbot.keyClicks(dialog.entry.field, NEW_TOKEN)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.state.session is not old, timeout=TIMEOUT)
    assert old is not None and old.api.closed


# A job's kind, the stage function, its rows' outcome, the journal's write, the list after it.
KINDS = {
    "import": (stage_import, "inserted", "dnc.insert", ROWS),
    "removal": (stage_removal, "removed", "dnc.delete", 0),
}


# A resume at a stored rate limit runs on a paced copy of the client, holding the old token.
@pytest.mark.parametrize(("kind", "rate_limit"), [("import", None), ("removal", None),
                                                  ("import", 600)])  # fmt: skip
def test_a_running_job_goes_on_through_the_new_token(
    make_window: Any, qtbot: Any, paths: AppPaths, sandbox: Any, memory_keyring: Any,
    tmp_path: Path, kind: str, rate_limit: int | None,
) -> None:  # fmt: skip
    stager, outcome, write, left = KINDS[kind]
    numbers = [f"202555{i + 100:04d}" for i in range(ROWS)]
    if kind == "removal":
        with ApiClient(sandbox.base_url, TOKEN) as api:
            for number in numbers:
                api.insert_dnc(number, "1", Scope.global_())
    window, dnc = _window(make_window, qtbot, paths, sandbox, memory_keyring)
    session = window.state.session
    assert session is not None
    sandbox.set_faults(latency_ms=100)
    file = tmp_path / "numbers.csv"
    file.write_text("Phone\n" + "".join(f"{n}\n" for n in numbers))

    def stage() -> Any:
        return stager(
            JobSettings(file, Scope.global_(), name="Token", note="new token test"),
            paths.jobs_dir,
            connection=session.connection,
        )

    if rate_limit is None:
        handle = JobHandle(window.runner, session, kind, stage=stage, concurrency=1)
    else:
        store, _ = stage()
        store.set_meta({"concurrency": 1, "rate_limit": rate_limit})
        store.close()
        handle = JobHandle(window.runner, session, kind, job_path=store.path)
    handle.start()
    qtbot.waitUntil(
        lambda: handle.last_progress is not None and handle.last_progress.done >= 2,
        timeout=TIMEOUT,
    )
    handle.pause()  # the job is still running (paused) while the token is replaced
    qtbot.wait(400)  # the request on the wire when paused has its answer
    sent = sandbox.store.scalar("SELECT count(*) FROM dnc")
    sandbox.revoke_token(TOKEN)
    sandbox.tokens.grant(NEW_TOKEN, Role.FULL)
    _replace_token(qtbot, window, dnc)
    assert handle.running, handle.error
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == sent

    with qtbot.waitSignal(handle.finished, timeout=TIMEOUT) as ended:
        handle.resume()
    assert ended.args[0]["status"] == "finished", ended.args[0]
    job = list_jobs(paths.jobs_dir)[0]
    assert job.counts[outcome] == ROWS, (job.counts, _messages(job.path, outcome))
    with ApiClient(sandbox.base_url, NEW_TOKEN) as api:
        listed = sorted(e.phone_number for e in api.iter_dnc(DncQuery()))
    assert listed == numbers[:left]
    new = window.state.session
    assert new is not None
    rows = new.journal.query(operation=write, limit=1000)
    # A write waiting (a paused job's gate) when the token's replacement closed the client is
    # refused before its intent: no "not sent" record, and the resume sends the row through
    # the new client. Every row one write, one outcome: nothing was sent twice.
    assert [r.error for r in rows if "closed" in r.error] == []
    assert sorted(r.outcome for r in rows if r.outcome) == ["ok"] * ROWS
    assert not job_registry().running()
