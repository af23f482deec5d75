"""A signal ends an export at once, even while its request waits on a service that never
answers (black-box B23 F1: SIGTERM at 3 s ended it only at ~31 s, its read timeout and
retries, after saying "No answer from the service for 10 s … still trying").

A real listener over loopback accepts the export's connection and never answers; a real
process of the CLI gets SIGTERM once its search is on the wire."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

TOKEN = "zq-9f8e7d6c5b4a-token"
# Well under the transport's read timeout and its retries (about 30 s in all): a bound on the
# behaviour, not a speed benchmark.
STOPPED_WITHIN = 10.0


class SilentService:
    """Accepts every connection, reads what is sent, answers nothing."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.asked = threading.Event()  # a search's request arrived
        self._conns: list[socket.socket] = []
        self._closed = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self._closed:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self._conns.append(conn)
            threading.Thread(target=self._read, args=(conn,), daemon=True).start()

    def _read(self, conn: socket.socket) -> None:
        seen = b""
        while True:
            try:
                chunk = conn.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            seen += chunk
            if b"/search" in seen:
                self.asked.set()

    def close(self) -> None:
        self._closed = True
        self.sock.close()
        for conn in self._conns:
            conn.close()


@pytest.fixture
def silent() -> Iterator[SilentService]:
    service = SilentService()
    yield service
    service.close()


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DNC_DESK_")}
    env.update(
        DNC_DESK_TOKEN=TOKEN,
        DNC_DESK_DATA_DIR=str(tmp_path / "data"),
        DNC_DESK_CONFIG_DIR=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "xdg-data"),
        XDG_CONFIG_HOME=str(tmp_path / "xdg-config"),
        XDG_CACHE_HOME=str(tmp_path / "xdg-cache"),
    )
    return env


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_sigterm_ends_an_export_waiting_on_a_silent_service(
    tmp_path: Path, silent: SilentService, suffix: str
) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / f"dnc{suffix}"
    cmd = [sys.executable, "-m", "app.cli.main", "export", "dnc", "--out", str(out)]
    cmd += ["--base-url", f"http://127.0.0.1:{silent.port}", "--json"]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(tmp_path),
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert silent.asked.wait(30), "the export sent no search"
        time.sleep(0.5)  # its request is waiting for the answer now
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    assert took < STOPPED_WITHIN, f"exited {took:.1f} s after SIGTERM: {stderr}"
    said = json.loads(stdout)
    assert said == {
        "error": "Interrupted: the export was cancelled and no file was written.",
        "exit_status": 143,
    }
    assert "still trying" not in stderr
    assert "running for" not in stderr
    assert list(out_dir.iterdir()) == []  # no file, no .part beside it
