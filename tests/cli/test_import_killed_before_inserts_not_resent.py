"""S18 H1b #1: a real ``python -m app import`` killed (SIGKILL) while its rows were in flight
but before their inserts were sent (during the look-up of a UK number's trunk-0 form, which
the job makes after marking the row "sending"), then resumed. The rows' inserts on resume are
their first: the row inserted and the row found already on the list do not say "sent again
when the job was resumed", nor that the list had it "most likely from the first send" (the
change journal has no insert of either before the resume). They said it by the job file's
"sending" mark alone."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
NEW = "+447911123456"
LISTED = "+447911123457"


def _wait_for_sending(paths: AppPaths, proc: subprocess.Popen[str], rows: int) -> Path:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        for job in paths.jobs_dir.glob("*.dncjob"):
            try:
                with sqlite3.connect(f"file:{job}?mode=ro", uri=True) as db:
                    n = db.execute("SELECT count(*) FROM rows WHERE state = 'sending'").fetchone()
            except sqlite3.Error:
                continue
            if n[0] >= rows:
                return job
        time.sleep(0.05)
    raise AssertionError("the import never marked its rows sending")


@pytest.mark.slow
def test_rows_killed_before_their_inserts_are_not_said_sent_again(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On the global list before the job (another tool's entry).
    sandbox.bulk_seed_dnc([("7911123457", "44", "0", "another tool", "")])
    src = tmp_path / "import.csv"
    src.write_text(f"Phone\n{NEW}\n{LISTED}\n")
    # Slow requests: the kill comes during the rows' trunk-0 look-ups, before any insert.
    sandbox.set_faults(latency_ms=1500)
    paths = AppPaths.default()
    env = {
        **os.environ,
        "DNC_DESK_TOKEN": TOKEN,
        "DNC_DESK_DATA_DIR": str(paths.data_dir),
        "DNC_DESK_CONFIG_DIR": str(paths.config_dir),
    }
    argv = [sys.executable, "-m", "app", "import", str(src), "--into", "dnc", "--scope", "global"]
    argv += ["--base-url", sandbox.base_url, "--concurrency", "2", "--note", "opt-outs", "--json"]
    proc = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    job = _wait_for_sending(paths, proc, 2)
    time.sleep(0.5)  # inside the look-ups
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=10)
    sandbox.set_faults(latency_ms=0)
    journal = ChangeJournal(paths.journal_db)
    for phone in (NEW, LISTED):
        assert journal.query(operation="dnc.insert", phone=phone) == []
    journal.close()
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)

    assert main(["import", "--resume", job.stem, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)

    assert (data["inserted"], data["already_present"], data["failed"]) == (1, 1, 0)
    with sqlite3.connect(job) as db:
        rows = dict(db.execute("SELECT outcome, message FROM rows").fetchall())
    assert rows["inserted"] == ""
    # As a first send's "already present": the service's own words, nothing of a resend.
    assert "sent again" not in rows["already_present"]
    assert "first send" not in rows["already_present"]
    assert data.get("already_present_maybe_inserted", 0) == 0
