"""``dnc-desk jobs cancel`` with the change journal gone (deleted, moved, lost): black-box
bb16 F8. Rows the job file shows in flight when the job was killed were called "not attempted"
(the journal that showed them maybe sent was gone), and the cancel made a new journal holding
its end alone, which then verified intact. Now such rows refuse the cancel, naming the missing
journal, and no cancel makes a journal. Over loopback HTTP to the sandbox, the killed import a
real process.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.job_catalog import read_job
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from tests.cli.test_jobs_cancel import _unanswered
from tests.cli.test_jobs_cmd import STARTED, _csv, _spawn, _wait_for_line
from tests.conftest import READ_ONLY_TOKEN, TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _journal_moved_away(tmp_path: Path) -> Path:
    journal = AppPaths.default().journal_db
    kept = tmp_path / "kept"
    kept.mkdir()
    for part in journal.parent.glob(journal.name + "*"):
        part.rename(kept / part.name)
    assert not journal.exists()
    return journal


def _states(job_file: Path) -> list[tuple[str, str, str]]:
    with JobStore(job_file) as store:
        return [(row.state, row.outcome, row.message) for row in store.rows()]


def test_rows_in_flight_with_no_journal_refuse_the_cancel_and_no_journal_is_made(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.set_faults(latency_ms=1500)  # the kill comes while two inserts are on the wire
    src = _csv(tmp_path / "big.csv", 6)
    output = tmp_path / "out.txt"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    proc = _spawn([*argv, "--base-url", sandbox.base_url, "--concurrency", "2"], output)
    try:
        found = _wait_for_line(output, proc, STARTED)
        job_id, resume = found[1], found[2]
        _unanswered(job_id, proc, output, 2)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    sandbox.set_faults(latency_ms=0)
    job_file = AppPaths.default().jobs_dir / f"{job_id}.dncjob"
    journal = _journal_moved_away(tmp_path)
    before = _states(job_file)
    assert [s for s, _, _ in before].count("sending") == 2, before

    assert main(["jobs", "cancel", job_id, "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out) == {"error": err.rstrip("\n"), "exit_status": 1}
    assert err.startswith(f"Job {job_id} was not cancelled: there is no change journal at "), err
    assert "(deleted or moved?)" in err and "which the job file shows were being sent" in err
    assert "calling them not attempted could be untrue. If the journal was moved, put it " in err
    assert f"{resume} (Ctrl+C then pauses it), and cancel it after with: dnc-desk jobs " in err
    # Nothing changed, and no journal was made to launder the missing one.
    assert _states(job_file) == before
    assert read_job(job_file).status == "running"
    assert not journal.exists()


def test_a_paused_job_cancelled_with_no_journal_says_so_and_makes_none(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = _csv(tmp_path / "in.csv", 3)
    base = ["import", str(src), "--into", "dnc", "--scope", "global"]
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)  # paused: 3 rows left, none in flight
    assert main([*base, "--base-url", sandbox.base_url, "--json"]) == 1
    paused = json.loads(capsys.readouterr().out)["job"]
    journal = _journal_moved_away(tmp_path)

    assert main(["jobs", "cancel", paused, "--json"]) == 0
    out, err = capsys.readouterr()
    said = json.loads(out)
    assert said["cancelled"] is True and said["rows_cancelled"] == 3
    warning = said["warnings"][0]
    assert warning.startswith(f"The cancel of job {paused} is not recorded in a change journal: ")
    assert "and none was made for it" in warning and "journal verify" in warning
    assert err == f"warning: {warning}\n"
    assert not journal.exists()
