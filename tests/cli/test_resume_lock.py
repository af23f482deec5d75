"""``--resume`` of a job another process is running: refused in one sentence, non-zero exit,
and the job still sends every row exactly once (the service and the journal agree).

The first process reaches the sandbox through a proxy on loopback (:class:`Wire`) that holds
its writes past the first few until the second process has been refused: the first is still
running then however long the second takes to start, which no latency can promise.
"""

from __future__ import annotations

import csv
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from app.core import job_lock
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
ROWS = 300
CONCURRENCY = 4
# The writes the first run has answered before the wire holds the rest: rows done, most not.
LET_THROUGH = 10
# How long the wire holds a write at most (only a test that failed to release it waits so):
# under the CLI's 30 s request timeout, so the wire never passes on a write its sender gave up.
HOLD_AT_MOST = 25.0


class Wire:
    """A proxy on loopback in front of the sandbox: it passes every request on, but holds each
    write (any request but a ``/search``) after the first :data:`LET_THROUGH` until
    :meth:`release`. A run through it sends that many rows and then waits, still running."""

    def __init__(self, upstream: str) -> None:
        self.released = threading.Event()
        self._writes = 0
        self._lock = threading.Lock()
        http = self._http = httpx.Client(base_url=upstream, timeout=HOLD_AT_MOST)
        wire = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if not urlsplit(self.path).path.endswith("/search"):
                    with wire._lock:
                        wire._writes += 1
                        held = wire._writes > LET_THROUGH
                    if held:
                        wire.released.wait(HOLD_AT_MOST)
                headers = {
                    k: v
                    for k, v in self.headers.items()
                    if k.lower() not in ("host", "content-length", "connection")
                }
                answer = http.post(self.path, content=body, headers=headers)
                self.send_response(answer.status_code)
                for name in ("content-type", "retry-after"):
                    if name in answer.headers:
                        self.send_header(name, answer.headers[name])
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # http.server writes every request line to stderr otherwise

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def release(self) -> None:
        """Pass on the writes held and every one after them."""
        self.released.set()

    def close(self) -> None:
        self.release()
        self._server.shutdown()
        self._server.server_close()
        self._http.close()


@pytest.fixture
def wire(sandbox: Any) -> Iterator[Wire]:
    proxy = Wire(sandbox.base_url)
    yield proxy
    proxy.close()


def _csv(path: Path) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["phone"])
        writer.writerows([[f"(303) 555-{i:04d}"] for i in range(ROWS)])
    return path


def _cli(*argv: str) -> subprocess.Popen[str]:
    env = {**os.environ, "DNC_DESK_TOKEN": TOKEN}  # the test's data and config dirs too
    return subprocess.Popen(
        [sys.executable, "-m", "app", *argv],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _running_job(paths: AppPaths, proc: subprocess.Popen[str], kind: str) -> Path:
    """The job file of ``proc`` once it has some rows done and many still to send (its
    writes past those held by the wire)."""
    deadline = time.monotonic() + 120  # a process start on a loaded machine, then ten rows
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        for job in paths.jobs_dir.glob(f"{kind}-*.dncjob"):
            try:
                with sqlite3.connect(f"file:{job}?mode=ro", uri=True) as db:
                    n = db.execute("SELECT count(*) FROM rows WHERE state = 'done'").fetchone()[0]
            except sqlite3.Error:
                continue
            if n >= LET_THROUGH:
                assert n < ROWS // 2, "the first run is too fast for this test"
                return job
        time.sleep(0.02)
    raise AssertionError("the job made no progress")


def _sent_once(paths: AppPaths, job: str, operation: str) -> None:
    journal = ChangeJournal(paths.journal_db)
    events = journal.query(job=job, limit=10_000)
    journal.close()
    per_phone = Counter(e.phone for e in events if e.phase == "intent" and e.operation == operation)
    assert set(per_phone) == {f"+1303555{i:04d}" for i in range(ROWS)}
    assert set(per_phone.values()) == {1}, "a row was sent twice"
    ops = Counter(e.operation for e in events)
    assert (ops["job.start"], ops["job.resume"], ops["job.finish"]) == (1, 0, 1)


def _refused(
    command: str, job: Path, first: subprocess.Popen[str], base_url: str, resume: str = ""
) -> None:
    # With a pace of its own: a refused resume must not change the running job's stored pace.
    second = _cli(
        command, "--resume", resume or job.stem, "--base-url", base_url, "--concurrency", "7"
    )
    out, err = second.communicate(timeout=60)
    assert second.returncode != 0, f"the second run was not refused: {out} {err}"
    assert first.poll() is None, "the first run ended before the second was refused"
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    sentence = (
        rf"Job {job.stem} is being run by another process \(pid {first.pid}, since "
        r"(\d\d\d\d-\d\d-\d\d )?\d\d:\d\d UTC\); wait for it to finish or stop it first\."
    )
    assert re.fullmatch(sentence, err.strip()), err  # no "Resume with:" hint: nothing ran here


@pytest.mark.slow
def test_import_resume_while_another_process_runs_it_is_refused(
    sandbox: Any, wire: Wire, tmp_path: Path
) -> None:
    paths = AppPaths.default()
    first = _cli(
        *("import", str(_csv(tmp_path / "in.csv")), "--into", "dnc", "--scope", "global"),
        *("--base-url", wire.base_url, "--concurrency", str(CONCURRENCY), "--json"),
    )
    job = _running_job(paths, first, "import")
    _refused("import", job, first, wire.base_url)
    wire.release()  # the first run, held while the second was refused, sends the rest
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    with sqlite3.connect(f"file:{job}?mode=ro", uri=True) as db:
        stored = dict(db.execute("SELECT key, value FROM meta WHERE key = 'concurrency'"))
    assert json.loads(stored["concurrency"]) == CONCURRENCY, "the refused resume changed it"
    data = json.loads(out)
    assert data["status"] == "finished"
    assert (data["inserted"], data["already_present"], data["pending"]) == (ROWS, 0, 0)
    numbers = [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")]
    assert len(numbers) == len(set(numbers)) == ROWS
    _sent_once(paths, data["job"], "dnc.insert")
    assert not job_lock.lock_path(job).exists()  # released with the run


@pytest.mark.slow
def test_remove_resume_while_another_process_runs_it_is_refused(
    sandbox: Any, wire: Wire, tmp_path: Path
) -> None:
    paths = AppPaths.default()
    src = _csv(tmp_path / "in.csv")
    # The numbers the file lists, on the list as an import of it leaves them (put straight in
    # the sandbox: a CLI import first cost a process start and its own run).
    added = sandbox.bulk_seed_dnc([(f"303555{i:04d}", "1", "0", "", "") for i in range(ROWS)])
    assert added == ROWS
    first = _cli(
        *("remove", str(src), "--scope", "global", "--base-url", wire.base_url),
        *("--concurrency", str(CONCURRENCY), "--json", "--note", "Consumer asked"),
    )
    job = _running_job(paths, first, "removal")
    _refused("remove", job, first, wire.base_url)
    wire.release()  # the first run, held while the second was refused, sends the rest
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    data = json.loads(out)
    assert (data["status"], data["removed"], data["not_found"]) == ("finished", ROWS, 0)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    _sent_once(paths, data["job"], "dnc.delete")


@pytest.mark.slow
def test_a_copy_of_the_job_file_is_refused_while_the_original_runs(
    sandbox: Any, wire: Wire, tmp_path: Path
) -> None:
    """The lock is on the job's id too: a copy of the job file (elsewhere, under another name)
    carries the id, and running it beside the original would send the same rows twice."""
    paths = AppPaths.default()
    first = _cli(
        *("import", str(_csv(tmp_path / "in.csv")), "--into", "dnc", "--scope", "global"),
        *("--base-url", wire.base_url, "--concurrency", str(CONCURRENCY), "--json"),
    )
    job = _running_job(paths, first, "import")
    copy = tmp_path / "elsewhere" / "copy.dncjob"
    copy.parent.mkdir()
    # A consistent copy of the running job (its WAL included), as a backup tool would make.
    with sqlite3.connect(f"file:{job}?mode=ro", uri=True) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    src.close()
    dst.close()
    _refused("import", job, first, wire.base_url, resume=str(copy))
    wire.release()  # the first run, held while the second was refused, sends the rest
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    data = json.loads(out)
    assert (data["status"], data["inserted"], data["already_present"]) == ("finished", ROWS, 0)
    _sent_once(paths, data["job"], "dnc.insert")
    # Both lock files went with the run.
    assert not job_lock.lock_path(job).exists()
    assert not job_lock.id_lock_path(job.stem).exists()
    assert not job_lock.lock_path(copy).exists()
    # Once the original has finished, the copy (its rows pending as when it was made) is
    # still refused: resuming it would send them again and call them "already present".
    late = _cli("import", "--resume", str(copy), "--base-url", wire.base_url)
    out, err = late.communicate(timeout=60)
    assert late.returncode != 0, f"the stale copy ran: {out} {err}"
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert re.fullmatch(
        rf"Job {job.stem} was already finished on \S+ from {re.escape(os.path.realpath(job))}; "
        r"this file is a copy made before that, and resuming it would send its rows again\.",
        err.strip(),
    ), err
    _sent_once(paths, data["job"], "dnc.insert")
