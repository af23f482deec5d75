"""A pause no longer loses the look-ups a late row's lateness depends on (black-box B28 F2).

A row whose request is late counted to its insertion (or to the day the job found its number
listed) looks for an older entry of the number, here one keeping it as 13036199000. Those
look-ups wait their turn under the rate limit; a pause (SIGTERM) cut them short and the rows
ended "could not be checked (the look-up was stopped with the job)", late, and ``--resume``
never made them: numbers listed long before their requests stayed late. Now the paused job
counts those rows in a warning of their own (not "a look-up failed") and the resume makes
the look-ups, so the rows are measured to the older entry: 0 business days, not late.

A real process over loopback, sent SIGTERM once its first insert is on the list.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_dates import business_days_between
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
ROWS = 12
NUMBERS = [f"30361990{i:02d}" for i in range(ROWS)]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _late_day() -> dt.date:
    """A request day 15 business days before today: late counted to today."""
    today = dt.date.today()
    day = today
    while business_days_between(day, today) < 15:
        day -= dt.timedelta(days=1)
    return day


def _seed_other_forms(sandbox: Any) -> None:
    """Each number on the global list since 2025 as 1 followed by it, with no phone code."""
    for national in NUMBERS:
        sandbox.store.execute(
            "INSERT INTO dnc(phone_number, phone_code, campaign_id, reason, purpose, insert_date)"
            " VALUES (?, '', 0, '', '', '2025-03-02 09:30:00')",
            (f"1{national}",),
        )


def _entries(sandbox: Any) -> int:
    (row,) = sandbox.store.all("SELECT count(*) AS n FROM dnc")
    return int(row["n"])


def _paused(argv: list[str], sandbox: Any) -> dict[str, Any]:
    """Run ``dnc-desk ARGV --json``; SIGTERM it once its first insert is on the list."""
    before = _entries(sandbox)
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", *argv, "--json"],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while _entries(sandbox) == before:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
    return dict(json.loads(out))


def test_resume_makes_the_look_ups_a_pause_cut_short(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed_other_forms(sandbox)
    sheet = tmp_path / "late.csv"
    day = _late_day().isoformat()
    sheet.write_text(
        "Phone,Date received\n" + "".join(f"{n},{day}\n" for n in NUMBERS), encoding="utf-8"
    )
    url = sandbox.base_url
    argv = ["import", str(sheet), "--into", "dnc", "--scope", "global", "--base-url", url]
    paused = _paused([*argv, "--rate-limit", "60"], sandbox)
    assert paused["status"] == "paused", paused
    stopped = [w for w in paused["warnings"] if "stopped with the job" in w]
    # The stop came while look-ups waited their turn: they are the resume's, and not said
    # to have failed.
    assert len(stopped) == 1, paused["warnings"]
    assert "until the job is resumed, which makes those look-ups" in stopped[0]
    assert not any("a look-up failed" in w for w in paused["warnings"]), paused["warnings"]

    resume = ["import", "--resume", paused["job"], "--base-url", url, "--rate-limit", "0"]
    assert main([*resume, "--json"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    rows = list(openpyxl.load_workbook(resumed["report"])["Rows"].iter_rows(values_only=True))
    assert resumed["status"] == "finished", resumed
    assert resumed["late_requests"] == 0, rows
    assert not any("stopped with the job" in w for w in resumed["warnings"]), resumed
    header = list(rows[0])
    message, days = header.index("Message"), header.index("Business days to insertion")
    body = [r for r in rows[1:] if r[0] is not None]
    assert len(body) == ROWS
    for r in body:
        assert "since 2025-03-02" in str(r[message]), r
        assert "stopped with the job" not in str(r[message]), r
        assert r[days] == 0, r
