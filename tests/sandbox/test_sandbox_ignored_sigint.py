"""The sandbox started with Ctrl+C ignored (a shell's background job, ``nohup``) keeps serving
through a SIGINT and still stops on SIGTERM; the window follows the same rule."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.sandbox.test_sandbox_runner import CLI_CODE, FULL, ROOT


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_a_sandbox_started_with_sigint_ignored_serves_on_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable, "-c", CLI_CODE, "--port", "0", "--token", FULL,
        "--db", str(tmp_path / "cli.sqlite3"),
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
        preexec_fn=_ignore_sigint,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.fullmatch(r"DNC Desk sandbox serving (http://127\.0\.0\.1:\d+)\n", line)
        assert match, line
        url = match.group(1) + "/v1/campaigns/search"
        process.send_signal(signal.SIGINT)
        # The sandbox checks for a stop twice a second: a stop taken would end it by now.
        time.sleep(1.5)
        assert process.poll() is None
        response = httpx.post(url, data={"auth_token": FULL})
        assert response.status_code == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
