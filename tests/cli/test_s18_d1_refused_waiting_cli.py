"""``import`` against a sandbox stopped mid-run says on stderr that no connection to the
service could be made (black-box B4 #9: it said "No answer from the service for 10 s (…
waiting on …/v1/dnc/insert); the job is still trying", of a service refusing connections).

The command runs as a user runs it (a subprocess over loopback); the sandbox is stopped once
rows have gone in (the job paced, so that it is still running then), so its port refuses
every connection after that.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
ROWS = 3000


def _wait_for(what: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_job_whose_service_went_down_says_so_on_stderr(sandbox: Any, tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text("Phone\n" + "".join(f"202555{i:04d}\n" for i in range(1, ROWS + 1)))
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--base-url",
            sandbox.base_url, "--concurrency", "2", "--rate-limit", "1200",
            "--json"]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", *argv],
        cwd=ROOT,
        env={**os.environ, "DNC_DESK_TOKEN": TOKEN},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    stderr = proc.stderr
    assert stderr is not None
    reader = threading.Thread(target=lambda: lines.extend(stderr), daemon=True)
    reader.start()
    try:

        def inserted() -> int:
            return len(sandbox.store.all("SELECT phone_number FROM dnc"))

        _wait_for(lambda: inserted() >= 5 or proc.poll() is not None, 60)
        assert proc.poll() is None, lines
        sandbox.stop()  # its port now refuses every connection
        # The app says it after WAITING_AFTER (10 s) with nothing answered.
        _wait_for(lambda: any(x.startswith("No ") for x in lines) or proc.poll() is not None, 60)
        proc.wait(timeout=120)  # a service that stays unreachable pauses the job
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join(timeout=5)
    said = [line for line in lines if line.startswith("No ")]
    assert said, lines
    assert said[0].startswith("No connection to the service could be made for "), said[0]
    assert f"trying {sandbox.base_url}/v1/dnc/insert); the job is still trying." in said[0]
    assert not any("No answer from the service" in line for line in lines), lines
    assert proc.returncode == 1, lines
