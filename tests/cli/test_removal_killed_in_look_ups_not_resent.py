"""S18 H1 #2: a real ``python -m app remove`` killed (SIGKILL) while its row's look-ups ran,
then resumed: the row, refused on resume, does not say "sent again when the job was resumed",
as no delete of it was ever sent (the change journal has none). The runner said it by the job
file's "sending" mark alone, which the job sets before a row's look-ups."""

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


def _wait_for_sending(paths: AppPaths, proc: subprocess.Popen[str]) -> Path:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        for job in paths.jobs_dir.glob("*.dncjob"):
            try:
                with sqlite3.connect(f"file:{job}?mode=ro", uri=True) as db:
                    n = db.execute("SELECT count(*) FROM rows WHERE state = 'sending'").fetchone()
            except sqlite3.Error:
                continue
            if n[0]:
                return job
        time.sleep(0.05)
    raise AssertionError("the removal never marked its row sending")


@pytest.mark.slow
def test_a_row_killed_during_its_look_ups_is_not_said_sent_again(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Listed for two purposes: a removal for one of them is refused, no delete sent.
    sandbox.bulk_seed_dnc(
        [("3035550177", "1", "-1", "", "Surveys"), ("3035550177", "1", "-1", "", "Sales")]
    )
    src = tmp_path / "remove.csv"
    src.write_text("Phone\n3035550177\n")
    # Slow look-ups: the kill comes while they run, before anything is decided.
    sandbox.set_faults(latency_ms=1500)
    paths = AppPaths.default()
    env = {
        **os.environ,
        "DNC_DESK_TOKEN": TOKEN,
        "DNC_DESK_DATA_DIR": str(paths.data_dir),
        "DNC_DESK_CONFIG_DIR": str(paths.config_dir),
    }
    argv = [sys.executable, "-m", "app", "remove", str(src), "--scope", "purpose:Surveys"]
    argv += ["--base-url", sandbox.base_url, "--note", "consumer asked", "--json"]
    proc = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    job = _wait_for_sending(paths, proc)
    time.sleep(0.5)  # inside its first look-up
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=10)
    sandbox.set_faults(latency_ms=0)
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)

    assert main(["remove", "--resume", job.stem, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)

    assert data["failed"] == 1
    journal = ChangeJournal(paths.journal_db)
    assert journal.job_writes(job=data["job"], operation="dnc.delete", phone="+13035550177") == []
    journal.close()
    with sqlite3.connect(job) as db:
        ((message,),) = db.execute("SELECT message FROM rows").fetchall()
    assert message.startswith("not removed: the number is also on the list for purpose 'Sales'")
    assert "sent again" not in message
