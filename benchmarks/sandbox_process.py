"""Start the sandbox as a separate process for benchmarks (so it does not share our GIL)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

BENCH_TOKEN = "bench-token-0b5c"
_LINE = re.compile(r"DNC Desk sandbox serving (http://\S+)")


@contextmanager
def sandbox_process(extra_args: Sequence[str] = (), timeout: float = 30.0) -> Iterator[str]:
    """Yield the base URL of a sandbox subprocess started with ``extra_args``."""
    cmd = [
        sys.executable,
        "-m",
        "app",
        "sandbox",
        "--port",
        "0",
        *extra_args,
    ]
    # The token goes in the environment: a command line is visible to every local user.
    env = {**os.environ, "DNC_DESK_SANDBOX_TOKEN": BENCH_TOKEN}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + timeout
        assert proc.stdout is not None
        while True:
            line = proc.stdout.readline()
            if match := _LINE.search(line):
                break
            if (not line and proc.poll() is not None) or time.monotonic() > deadline:
                err = proc.stderr.read() if proc.stderr else ""
                raise RuntimeError(f"sandbox did not start: {err[-2000:]}")
        yield match.group(1)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
