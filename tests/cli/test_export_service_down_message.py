"""``export`` whose service is stopped mid-export says on stderr that no connection to the
service could be made, as a running job says it (S19 W1; S18 D1 for jobs), not "No answer
from the service": a service whose port refuses connections is down, not slow.

Real parts: the command run in-process against the sandbox over loopback, stopped once the
export has begun writing its file (its port then refuses every connection); the notice's
10 s is scaled down, as the export gives up on a refusing service within seconds.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from app.cli import export_cmd
from app.cli.main import main
from tests.conftest import TOKEN


def test_an_export_whose_service_went_down_says_no_connection_could_be_made(
    make_sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    slow = make_sandbox(latency_ms=300)
    slow.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(50))
    monkeypatch.setattr(export_cmd, "QUIET_AFTER", 0.3)
    monkeypatch.setattr(export_cmd, "SAY_EVERY", 0.3)
    out = tmp_path / "out" / "e.csv"
    out.parent.mkdir()
    ended = threading.Event()

    def stop_once_writing() -> None:
        # The partial file beside the output: the export is past its checks, searching.
        while not ended.is_set() and not any(out.parent.glob("*.part")):
            time.sleep(0.01)
        slow.stop()

    stopper = threading.Thread(target=stop_once_writing, daemon=True)
    stopper.start()
    try:
        status = main(["export", "dnc", "--out", str(out), "--base-url", slow.base_url])
    finally:
        ended.set()
        stopper.join(timeout=10)
    err = capsys.readouterr().err
    assert status == 1, err
    lines = err.splitlines()
    said = [n for n, line in enumerate(lines) if line.startswith("No connection to the service")]
    assert said, err
    first = lines[said[0]]
    assert first.startswith("No connection to the service could be made for "), first
    assert first.endswith(f"; trying {slow.base_url}/v1/dnc/search); the export is still trying.")
    # Once a search has met a refused connection, the service is not said to be silent.
    assert not any(line.startswith("No answer") for line in lines[said[0] :]), err
    assert "cannot be reached" in lines[-1], err
