"""S18 H1b #2 (README "Remove", --lead-status): a real ``python -m app remove --lead-status``
killed (SIGKILL) after its row's delete and before the lead update after it, resumed, that
resume stopped (Ctrl+C) during the row's look-ups, and resumed again. The stop put the row
back to pending, so the second resume took it for a first send: the number gone, it ended
`not_found` ("not on the list") and its other lead was never set. Now the row stays "sending"
through the stop, and the second resume finds the number removed by the killed run and sets
the lead.

The killed run is a real process against the sandbox over loopback HTTP (its latency widens
the window between the delete and the lead update); the resumes run here, the first through
a transport that stops the job once the row's first look-up is answered."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.job_runner import JobControl
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.removal_job import run_removal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.lead_wire import seed_leads

ROOT = Path(__file__).resolve().parents[2]
SEARCH = "/v1/dnc/search"


class StopOnLookUp(httpx.BaseTransport):
    """To the sandbox; once a /dnc/search is answered, ``control`` (when set) is stopped (a
    Ctrl+C), so the row's next look-up is cancelled."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.control: JobControl | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._http.handle_request(request)
        if request.url.path == SEARCH and self.control is not None:
            self.control.suspend()
        return response

    def close(self) -> None:
        self._http.close()


def _statuses(sandbox: Any) -> dict[str, str]:
    return {str(r["id"]): str(r["status"]) for r in sandbox.store.all("SELECT * FROM leads")}


def _state(job: Path) -> tuple[str, str, str]:
    with sqlite3.connect(f"file:{job}?mode=ro", uri=True) as db:
        ((state, outcome, message),) = db.execute("SELECT state, outcome, message FROM rows")
    return str(state), str(outcome), str(message)


def _kill_after_the_delete(sandbox: Any, tmp_path: Path, paths: AppPaths) -> Path:
    src = tmp_path / "remove.csv"
    src.write_text("Phone\n3035550160\n")
    # Slow requests: the lead update after the delete waits out the latency before the
    # service takes it, and the kill comes then.
    sandbox.set_faults(latency_ms=500)
    env = {
        **os.environ,
        "DNC_DESK_TOKEN": TOKEN,
        "DNC_DESK_DATA_DIR": str(paths.data_dir),
        "DNC_DESK_CONFIG_DIR": str(paths.config_dir),
    }
    argv = [sys.executable, "-m", "app", "remove", str(src), "--scope", "global"]
    argv += ["--lead-status", "CALLBK", "--concurrency", "1", "--base-url", sandbox.base_url]
    argv += ["--note", "consumer asked", "--json"]
    proc = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while sandbox.store.scalar("SELECT count(*) FROM dnc"):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the removal never deleted the number"
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=10)
    sandbox.set_faults(latency_ms=0)
    (job,) = paths.jobs_dir.glob("*.dncjob")
    return job


@pytest.mark.slow
def test_a_resume_stopped_during_the_look_ups_leaves_the_row_to_the_next(
    sandbox: Any, tmp_path: Path
) -> None:
    # Listed only as 13035550160: its delete re-statuses the lead holding those digits; the
    # number's other lead is set by its own /leads/update after it.
    sandbox.bulk_seed_dnc([("13035550160", "1", "0", "another tool", "")])
    with ApiClient(sandbox.base_url, TOKEN) as api:
        list_id = api.insert_list("Denver leads list", api.campaigns()[0].id)
    plain, code = seed_leads(
        sandbox, list_id, [("3035550160", "1", "", "", "NEW"), ("13035550160", "1", "", "", "NEW")]
    )
    paths = AppPaths.default()
    job = _kill_after_the_delete(sandbox, tmp_path, paths)
    # Killed between the delete and the lead update: the other lead is not set yet.
    assert _statuses(sandbox) == {plain: "NEW", code: "CALLBK"}
    assert _state(job)[0] == "sending"

    wire = StopOnLookUp()
    journal = ChangeJournal(paths.journal_db)
    api = ApiClient(
        sandbox.base_url,
        TOKEN,
        http_transport=wire,
        retry=RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01),
    )
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    store = JobStore(job)
    try:
        control = JobControl()
        wire.control = control
        assert run_removal(store, session, concurrency=1, control=control) is JobStatus.PAUSED
        # Stopped during its look-ups: still one the killed run sent, not a first send.
        assert _state(job)[:2] == ("sending", "")
        assert _statuses(sandbox) == {plain: "NEW", code: "CALLBK"}
        wire.control = None

        assert run_removal(store, session, concurrency=1, control=JobControl()) is (
            JobStatus.FINISHED
        )
    finally:
        store.close()
        session.close()
        journal.close()

    state, outcome, message = _state(job)
    assert (state, outcome) == ("done", "removed"), message
    assert _statuses(sandbox) == {plain: "CALLBK", code: "CALLBK"}
    assert f"lead {plain} (list {list_id}) NEW→CALLBK" in message
    assert "not set" not in message
