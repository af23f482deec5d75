"""S21 K2 (black-box B14 F2): an import killed (SIGKILL) after the change journal recorded a
row's insert (written ahead of its request) and before the service received that request. On
resume the row is sent once, and the service receives exactly one insert of it: the row must
not say it was "sent again", nor the evidence pack that "the job sent it again". Both said so
of a request the app cannot know left the process.

The state is made for real and deterministically: a proxy in front of the sandbox takes the
job's first insert and never forwards or answers it, and the import is killed once the proxy
holds it (its intent journaled, no outcome). The resume goes through the same proxy, which
forwards every later request."""

from __future__ import annotations

import http.server
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.cli.main import main
from app.core.evidence import NOT_KNOWN, gather_evidence
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
NUMBER = "6172019846"
INSERT = "/dnc/insert"


class HoldFirstInsert:
    """A proxy to ``upstream`` that holds the first insert request it gets (read, never
    forwarded nor answered) and forwards every other request; ``inserts`` counts the inserts
    the service received through it."""

    def __init__(self, upstream: str, write: str = INSERT) -> None:
        self.upstream = upstream
        self.write = write
        self.held = threading.Event()
        self.release = threading.Event()
        self.inserts = 0
        self._lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # one request a connection: closed after it

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _relay(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(size) if size else b""
                if self.path.split("?")[0].endswith(proxy.write):
                    with proxy._lock:
                        hold = not proxy.held.is_set()
                        proxy.held.set()
                        if not hold:
                            proxy.inserts += 1
                    if hold:
                        proxy.release.wait(60)
                        return
                keep = ("content-type", "authorization", "accept")
                headers = {k: v for k, v in self.headers.items() if k.lower() in keep}
                answer = httpx.request(
                    self.command,
                    proxy.upstream + self.path,
                    content=body,
                    headers=headers,
                    timeout=30,
                )
                self.send_response(answer.status_code)
                for name in ("content-type", "retry-after"):
                    if name in answer.headers:
                        self.send_header(name, answer.headers[name])
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _relay

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def proxy(sandbox: Any) -> Iterator[HoldFirstInsert]:
    held = HoldFirstInsert(sandbox.base_url)
    yield held
    held.close()


def _kill_once_held(
    paths: AppPaths, proxy: HoldFirstInsert, src: Path, command: list[str] | None = None
) -> Path:
    """Run the import (or ``command``) through ``proxy`` and SIGKILL it once its first write is
    held."""
    env = {
        **os.environ,
        "DNC_DESK_TOKEN": TOKEN,
        "DNC_DESK_DATA_DIR": str(paths.data_dir),
        "DNC_DESK_CONFIG_DIR": str(paths.config_dir),
    }
    argv = [sys.executable, "-m", "app", "import", str(src), "--into", "dnc", "--scope", "global"]
    if command is not None:
        argv = [sys.executable, "-m", "app", *command]
    argv += ["--base-url", proxy.url, "--concurrency", "1", "--note", "opt-outs", "--json"]
    proc = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while not proxy.held.wait(0.05):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the import never sent its insert"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=10)
    (job,) = paths.jobs_dir.glob("*.dncjob")
    return job


@pytest.mark.slow
def test_a_row_whose_insert_never_reached_the_service_is_not_said_sent_again(
    sandbox: Any,
    proxy: HoldFirstInsert,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = tmp_path / "optouts.csv"
    src.write_text(f"Phone\n{NUMBER}\n")
    paths = AppPaths.default()
    job = _kill_once_held(paths, proxy, src)

    # The killed run left the insert journaled with no outcome; the service has nothing.
    journal = ChangeJournal(paths.journal_db)
    (intent,) = journal.query(operation="dnc.insert", phone=f"+1{NUMBER}")
    assert intent.phase == "intent"
    journal.close()
    assert sandbox.store.all("SELECT phone_number FROM dnc") == []

    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    assert main(["import", "--resume", job.stem, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["inserted"], data["failed"]) == (1, 0)
    # The service received the row's insert once: the resume's.
    assert proxy.inserts == 1
    assert [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")] == [
        NUMBER
    ]

    with sqlite3.connect(job) as db:
        ((outcome, message),) = db.execute("SELECT outcome, message FROM rows").fetchall()
    assert outcome == "inserted"
    assert "sent again" not in message, message
    assert message.startswith(
        "sent when the job was resumed (an earlier attempt, interrupted, may have reached the "
        "service)"
    ), message

    journal = ChangeJournal(paths.journal_db)
    try:
        # The journal's writes went to the proxy's address: a pack keeps its own service's.
        with ApiClient(proxy.url, TOKEN) as api:
            pack = gather_evidence(api, journal, None, NUMBER)
    finally:
        journal.close()
    # Newest first: the resume's insert, then the killed run's, which is not known.
    resumed, killed = pack.writes
    assert resumed.result == "inserted" and killed.intent.id == intent.id
    assert killed.result == NOT_KNOWN
    assert "the job sent it again" not in killed.words, killed.words
    assert (
        "the job sent it (again, if the interrupted attempt had reached the service) "
        f"(entry #{resumed.intent.id}): inserted"
    ) in killed.words, killed.words


@pytest.mark.slow
def test_a_row_whose_delete_never_reached_the_service_is_not_said_sent_again(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sandbox.bulk_seed_dnc([(NUMBER, "1", "0", "consumer asked", "")])
    proxy = HoldFirstInsert(sandbox.base_url, "/dnc/delete")
    try:
        src = tmp_path / "removals.csv"
        src.write_text(f"Phone\n{NUMBER}\n")
        paths = AppPaths.default()
        command = ["remove", str(src), "--scope", "global"]
        job = _kill_once_held(paths, proxy, src, command)
        # The delete never reached the service: the number is still listed.
        assert [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")] == [
            NUMBER
        ]
        monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
        assert main(["remove", "--resume", job.stem, "--json"]) == 0
        capsys.readouterr()
        assert proxy.inserts == 1  # the resume's delete, the only one the service received
    finally:
        proxy.close()
    assert sandbox.store.all("SELECT phone_number FROM dnc") == []
    with sqlite3.connect(job) as db:
        ((outcome, message),) = db.execute("SELECT outcome, message FROM rows").fetchall()
    assert outcome == "removed"
    assert "sent again" not in message, message
    assert message.endswith(
        "sent when the job was resumed (an earlier attempt, interrupted, may have reached the "
        "service)"
    ), message
