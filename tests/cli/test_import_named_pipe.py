"""`dnc-desk import fifo.csv` of a named pipe waited for ever (black-box P3 #5): the job's
source fingerprint opened the pipe before staging could refuse it. It now ends at once with
the reader's sentence; run as a subprocess so the old hang fails by timeout, not for ever."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_importing_a_named_pipe_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    env = {
        **os.environ,
        "DNC_DESK_CONFIG_DIR": str(tmp_path / "cfg"),
        "DNC_DESK_DATA_DIR": str(tmp_path / "data"),
    }
    argv = [sys.executable, "-m", "app", "import", str(fifo), "--into", "dnc"]
    done = subprocess.run(
        [*argv, "--scope", "global", "--dry-run"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 1, done.stderr
    assert "is a pipe" in done.stderr and "save the list to a file first" in done.stderr
