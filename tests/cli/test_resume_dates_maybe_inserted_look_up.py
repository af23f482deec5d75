"""A row this job may have inserted whose entry look-up a pause cut short says, after the
resume, what the resume's look-up found (black-box B28 leftover of F2).

An insert's answer is lost, its retry finds the number listed ("that attempt may have inserted
it"), and the look-up for its entry is in flight when SIGTERM pauses the job: the row says "its
entry could not be looked up (the look-up was stopped with the job)". The resume made the
look-up again (d087469) but kept those words, beside "on the list since … (entry 3)", and the
report, written as the resume began, kept the paused run's message and its warning.

A real process over loopback, through a proxy that loses each number's first insert answer and
holds the look-ups after it until the test has sent SIGTERM.
"""

from __future__ import annotations

import datetime as dt
import http.server
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
DATED, UNDATED = "3036199201", "3036199202"
# A row whose insert is in flight when the job stops, sent again first on resume.
IN_FLIGHT = "3036199203"
STOPPED = "the look-up was stopped with the job"


class Proxy(http.server.ThreadingHTTPServer):
    """Forwards to the sandbox; while ``faulty``, each number's first insert is done and its
    answer lost (the connection closed), and every look-up after one is held for 8 s."""

    def __init__(self, upstream: str) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.upstream = upstream
        self.faulty = True
        self.lost: set[str] = set()
        self.held = 0
        self.lock = threading.Lock()
        self.release = threading.Event()  # ends the holds (the test's end)
        # Seconds each request waits once not ``faulty``: the report, written as the resume
        # runs, reaches the rows before their look-ups are answered.
        self.delay = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(http.server.BaseHTTPRequestHandler):
    server: Proxy

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._forward()

    def do_POST(self) -> None:
        self._forward()

    def _forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        proxy = self.server
        lose = False
        if proxy.faulty and self.path.endswith("/dnc/insert") and IN_FLIGHT.encode() in body:
            with proxy.lock:
                proxy.held += 1
            proxy.release.wait(8)
            self.close_connection = True  # never reached the service
            return
        if proxy.faulty and self.command == "POST" and self.path.endswith("/dnc/insert"):
            number = next((n for n in (DATED, UNDATED) if n.encode() in body), "")
            with proxy.lock:
                lose = bool(number) and number not in proxy.lost
                proxy.lost.add(number)
        elif proxy.faulty and proxy.lost and self.path.endswith("/dnc/search"):
            with proxy.lock:
                proxy.held += 1
            proxy.release.wait(8)
        elif not proxy.faulty:
            proxy.release.wait(proxy.delay)
        headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
        try:
            answer = httpx.request(
                self.command, proxy.upstream + self.path, headers=headers, content=body
            )
        except httpx.HTTPError:  # the sandbox stopped with the test
            self.close_connection = True
            return
        if lose:
            self.close_connection = True
            return
        self.send_response(answer.status_code)
        for key, value in answer.headers.items():
            if key.lower() not in ("content-length", "transfer-encoding", "connection"):
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(answer.content)))
        self.end_headers()
        self.wfile.write(answer.content)


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.fixture
def proxy(sandbox: Any) -> Iterator[Proxy]:
    server = Proxy(sandbox.base_url)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.release.set()
    server.shutdown()
    server.server_close()


def _paused(argv: list[str], proxy: Proxy) -> dict[str, Any]:
    """Run ``dnc-desk ARGV --json``; SIGTERM it once both rows' entry look-ups and the last
    row's insert are held."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", *argv, "--json"],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while proxy.held < 3:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
    return dict(json.loads(out))


def test_the_resume_says_the_entry_its_look_up_found(
    sandbox: Any, proxy: Proxy, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "requests.csv"
    day = (dt.date.today() - dt.timedelta(days=1)).isoformat()
    sheet.write_text(
        f"Phone,Date received\n{DATED},{day}\n{UNDATED},\n{IN_FLIGHT},{day}\n", encoding="utf-8"
    )
    argv = ["import", str(sheet), "--into", "dnc", "--scope", "global", "--base-url", proxy.url]
    paused = _paused(argv, proxy)
    assert paused["status"] == "paused", paused
    assert paused["already_present_maybe_inserted"] == 2, paused

    proxy.faulty, proxy.delay = False, 1.5
    resume = ["import", "--resume", paused["job"], "--base-url", proxy.url, "--concurrency", "1"]
    assert main([*resume, "--json"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert resumed["status"] == "finished", resumed
    assert not [w for w in resumed["warnings"] if STOPPED in w], resumed["warnings"]
    entries = {
        str(r["phone_number"]): str(r["id"])
        for r in sandbox.store.all("SELECT id, phone_number FROM dnc")
    }
    book = openpyxl.load_workbook(resumed["report"])
    header, *rows = list(book["Rows"].iter_rows(values_only=True))
    book.close()
    number, message = header.index("Normalized number"), header.index("Message")
    said = {str(r[number]): str(r[message]) for r in rows}
    for phone in (DATED, UNDATED):
        assert STOPPED not in said[phone], said[phone]
        assert "could not be looked up" not in said[phone], said[phone]
        assert "so that attempt may have inserted it" in said[phone], said[phone]
        assert f"entry {entries[phone]} found, inserted " in said[phone], said[phone]
    assert f"since {dt.date.today()} (entry {entries[DATED]})" in said[DATED], said[DATED]
