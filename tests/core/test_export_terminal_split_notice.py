"""Black-box B15 #3: on a terminal ``dnc-desk export`` said nothing while it split the search
(five minutes under load): the progress line counts rows, and none is read before the split
is planned. Without a terminal "Export running for 30 s: splitting the search into parts…"
came every 30 s; it comes on a terminal too. Here stderr is a real pseudo-terminal, the
sandbox answers slowly and a search reaches 1,000 rows, so the split of 1,500 rows takes a
few seconds of counts.
"""

from __future__ import annotations

import io
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from app.api.limits import PageLimits
from app.cli import export_cmd
from app.cli.main import main
from app.core import export_job
from tests.conftest import TOKEN

SMALL_CAP = PageLimits("/dnc/search", 100, 1000, max_offset=500)


def test_a_terminal_is_told_the_export_is_splitting_the_search(
    make_sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = make_sandbox(latency_ms=30)
    slow.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(1_500))
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    monkeypatch.setattr(export_job, "DNC_SEARCH", SMALL_CAP)
    # Scaled down from 30 s: the split's ~230 counts take about two seconds here.
    monkeypatch.setattr(export_cmd, "SAY_EVERY", 0.3)
    master, slave = os.openpty()
    terminal = io.TextIOWrapper(io.FileIO(slave, "w", closefd=True), encoding="utf-8")
    said = bytearray()

    def listen() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal's other end closed
                return
            if not chunk:
                return
            said.extend(chunk)

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert terminal.isatty()
    monkeypatch.setattr(sys, "stderr", terminal)
    out = tmp_path / "t.csv"
    try:
        code = main(["export", "dnc", "--out", str(out), "--base-url", slow.base_url])
        terminal.flush()
    finally:
        monkeypatch.undo()
        terminal.close()
    listener.join(5)
    os.close(master)
    text = said.decode("utf-8", "replace")
    assert code == 0, text
    assert "Export running for " in text
    assert "s: splitting the search into parts the service's paging reaches, " in text
    assert " searches counted so far." in text
    # And the rows still come on the progress line once they are read.
    assert "/1,500 rows" in text
