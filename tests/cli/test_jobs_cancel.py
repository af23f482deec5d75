"""``dnc-desk jobs cancel JOB``: a paused or interrupted job could only be given up by moving
its job file out of the jobs folder, which left its rows without an outcome, no report, and the
record out of sight. Now the job ends as a cancel during its run ends it: its rows not sent end
not attempted, its report is written, and a new job of its file is no longer refused.

Rows whose write may have reached the service (in flight when the process was killed: the
change journal has their intent and no outcome) are not called not attempted: the cancel is
refused, changing nothing, and says to resume first. A job another process runs cannot be
cancelled from here. All over loopback HTTP to the sandbox, the killed import a real process.
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.job_catalog import read_job
from app.core.job_store import JobStore
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.cli.test_jobs_cmd import STARTED, _csv, _spawn, _wait_for_line
from tests.conftest import READ_ONLY_TOKEN, TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _messages(job_file: Path) -> list[tuple[str, str]]:
    with JobStore(job_file) as store:
        return [(row.outcome, row.message) for row in store.rows()]


def test_a_paused_job_cancelled_ends_its_rows_writes_its_report_and_frees_its_file(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = _csv(tmp_path / "in.csv", 3)
    base = ["import", str(src), "--into", "dnc", "--scope", "global"]
    base += ["--base-url", sandbox.base_url]
    # Paused by a token that may read but not write: 3 rows left to send.
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    assert main([*base, "--json"]) == 1
    paused = json.loads(capsys.readouterr().out)["job"]
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    job_file = AppPaths.default().jobs_dir / f"{paused}.dncjob"
    report = job_file.with_suffix(".xlsx")
    report.unlink(missing_ok=True)  # the pause's report: the cancel writes the job's anew

    assert main(["jobs", "cancel", paused, "--json"]) == 0
    out, err = capsys.readouterr()
    said = json.loads(out)
    assert said["status"] == "cancelled" and said["cancelled"] is True, err
    assert said["already_ended"] is False
    assert said["rows_cancelled"] == 3 and said["not_attempted"] == 3 and said["pending"] == 0
    assert said["report"] == str(report) and report.is_file()
    assert said["message"].startswith(f"Job {paused} cancelled: 3 rows not sent end not ")
    ended = _messages(job_file)
    assert [o for o, _ in ended] == ["not_attempted"] * 3, ended
    # After a row's staged note (row 2's zeros), as a cancel during a run words it.
    assert all(m.endswith("cancelled before it was sent") for _, m in ended), ended
    info = read_job(job_file)
    assert info.status == "cancelled" and info.meta.get("finished")
    # The journal says how the job ended, and who ended it.
    ends = ChangeJournal(AppPaths.default().journal_db).query(operation="job.finish", job=paused)
    assert [e.after["status"] for e in ends] == ["cancelled"]
    assert ends[0].after["cancelled_by"] == "dnc-desk jobs cancel"
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    # The listing says its rows were not sent, not "3/3" as if all were (black-box bb15).
    assert main(["jobs", "--all"]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if paused in line]
    assert "cancelled" in listed[0] and "3/3 (3 not attempted)" in listed[0], listed

    # No longer held up: a new job of the file runs (it was refused while the job was paused).
    assert main(base) == 0
    assert "finished." in capsys.readouterr().out
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 3
    # A second cancel changes nothing, and says the job had ended.
    assert main(["jobs", "cancel", paused]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith(f"Job {paused} was already cancelled at ")
    assert out.rstrip().endswith("nothing was changed.")


def _unanswered(job_id: str, proc: Any, output: Path, n: int) -> None:
    """Wait until ``n`` of the job's inserts are journaled and not answered (on the wire)."""
    journal = ChangeJournal(AppPaths.default().journal_db)
    deadline = time.monotonic() + 60
    while len(journal.unanswered_intents(job_id)) < n:
        assert time.monotonic() < deadline and proc.poll() is None, output.read_text()
        time.sleep(0.05)


def test_rows_in_flight_when_killed_are_not_called_not_attempted_and_a_running_job_stays(
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
        # Running in another process: not to be cancelled from here.
        assert main(["jobs", "cancel", job_id]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"Job {job_id} is being run now by pid {proc.pid}"), err
        assert "stop that run (Ctrl+C in its terminal pauses it)" in err
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    sandbox.set_faults(latency_ms=0)
    job_file = AppPaths.default().jobs_dir / f"{job_id}.dncjob"
    before = _messages(job_file)

    assert main(["jobs", "cancel", job_id, "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out) == {"error": err.rstrip("\n"), "exit_status": 1}
    assert err.startswith(f"Job {job_id} was not cancelled: the change journal shows a write "), err
    assert "that may have reached the service" in err
    assert "Resume the job first, which looks each of them up and settles it" in err
    assert f"{resume} (Ctrl+C then pauses it), and cancel it after with: dnc-desk jobs cancel " \
        f"{job_id}\n" in err  # fmt: skip
    # Nothing changed: the job is still to be resumed, no row called not attempted.
    assert _messages(job_file) == before
    assert read_job(job_file).status == "running" and read_job(job_file).pending == 6
    # The way on it named: resumed, every row settled; then it has ended.
    assert main(resume.split()[1:]) == 0
    capsys.readouterr()
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 6
    assert main(["jobs", "cancel", job_id]) == 0
    assert f"Job {job_id} had already finished at " in capsys.readouterr().out


def test_a_job_that_is_not_there_is_named_with_where_ids_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["jobs", "cancel", "import-nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("There is no job 'import-nope' to cancel in "), err
    assert "dnc-desk jobs --all lists every job with its id." in err
