"""A service that takes requests and never answers (black-box L4 #8).

With the fault proxy answering nothing (``hangafter``), a stopped import went on with its
retries and the look-ups after them: SIGTERM took about 3 minutes to end the process, and
for 8 minutes before it nothing said the service was silent. Now:

* once the job is stopped no request of it starts (no retry, no look-up, no row held back),
  and a request still on the wire a moment later is cut off (its connection shut), so the
  run ends within seconds, not after its timeouts; each row so cut is left "sending", its
  journal intent "unknown", and the resume sends it again and settles it;
* while the service answers nothing, the job's progress says so (``JobProgress.waiting``),
  with since when and the request waiting.

The service here is a real socket server over loopback (:class:`Gateway`): a proxy before a
sandbox that forwards each request, or, for the endpoints told to hang, takes the request
and never answers it.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core import job_runner
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_runner import JobControl, JobProgress
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, RowState
from app.core.journal import ChangeJournal
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN

# The client's timeout per request: the client's 4 attempts and a look-up's 4 more would keep
# a stopped job going for minutes; a stopped job must end well within one.
TIMEOUT = 8.0
ROOT = Path(__file__).resolve().parents[2]
ROWS = 6
PHONES = [f"20255501{i:02d}" for i in range(ROWS)]  # none ending 0000: that is a damage note


class Gateway:
    """An HTTP/1.1 proxy on loopback before ``upstream`` (host, port): requests to a path in
    :attr:`hang` are read and never answered (the connection stays open until the client
    closes it); from the :attr:`fail_from`-th request on (counting from 0), every request is
    answered ``502 Bad Gateway`` with an HTML page, as a gateway whose service is down; the
    others are forwarded and their answers sent back."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.hang: set[str] = set()
        # Path -> how many of its next requests are closed unanswered (a flaky proxy).
        self.drop: dict[str, int] = {}
        self.fail_from: int | None = None
        self.received: list[str] = []  # the paths of the requests read, in order
        self.hung = 0  # requests taken and left unanswered
        self.cut = 0  # of those, how many the client closed its end of
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self._open: list[socket.socket] = []
        self._done = threading.Event()
        self.base_url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._done.set()
        with self._lock:
            for conn in self._open:
                conn.close()
        self._listener.close()

    def _accept(self) -> None:
        while not self._done.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                self._open.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            while (request := _read_message(conn)) is not None:
                path = request.split(b" ", 2)[1].decode()
                with self._lock:
                    failing = self.fail_from is not None and len(self.received) >= self.fail_from
                    self.received.append(path)
                    hang = path in self.hang
                    if hang:
                        self.hung += 1
                    dropped = self.drop.get(path, 0) > 0
                    if dropped:
                        self.drop[path] -= 1
                if dropped:
                    return  # the connection closed with the request read, unanswered
                if failing:
                    conn.sendall(BAD_GATEWAY)
                    continue
                if hang:
                    # Never answered: wait for the client to give up on the connection.
                    while conn.recv(65536):
                        pass
                    with self._lock:
                        self.cut += 1
                    return
                with socket.create_connection(self.upstream) as up:
                    up.sendall(request)
                    answer = _read_message(up)
                if answer is None:
                    return
                conn.sendall(answer)


_PAGE = b"<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>"
BAD_GATEWAY = (
    b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\n"
    b"Content-Length: " + str(len(_PAGE)).encode() + b"\r\n\r\n" + _PAGE
)


def _read_message(sock: socket.socket) -> bytes | None:
    """One HTTP message (head and Content-Length body) from ``sock``; None at its end."""
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = sock.recv(65536)
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        body += chunk
    return head + b"\r\n\r\n" + body


@pytest.fixture
def gateway(sandbox: Any) -> Iterator[Gateway]:
    host, port = sandbox.base_url.split("//", 1)[1].rsplit(":", 1)
    proxy = Gateway((host, int(port.rstrip("/"))))
    yield proxy
    proxy.close()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _session(gateway: Gateway, journal: ChangeJournal) -> Session:
    api = ApiClient(gateway.base_url, TOKEN, timeout=TIMEOUT)
    return Session(Connection("Gateway", gateway.base_url), api, journal)


def _csv(tmp_path: Path) -> Path:
    src = tmp_path / "in.csv"
    src.write_text("phone\n" + "".join(f"{p}\n" for p in PHONES))
    return src


class Run:
    """A job run on a thread, as the CLI runs it, with its progress kept."""

    def __init__(self, start: Callable[[JobControl, Callable[[JobProgress], None]], Any]) -> None:
        self.control = JobControl()
        self.progress: list[JobProgress] = []
        self.result: Any = None
        self.ended = threading.Event()

        def run() -> None:
            try:
                self.result = start(self.control, self.progress.append)
            except BaseException as exc:
                self.result = exc
            finally:
                self.ended.set()

        threading.Thread(target=run, daemon=True).start()


def _wait_for(what: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _stop_and_time(run: Run, gateway: Gateway, session: Session) -> tuple[float, int, list[str]]:
    """Suspend the run (as SIGTERM does) and return how long it took to end, how many
    requests the job's client put on the wire after the stop, and the paths the gateway got
    meanwhile (for the message).

    Counted at the client, where the job's requests are: a full run once had the gateway get
    two searches after the stop that no code path of the job sends (each of its requests
    passes the job's gate, which refuses every one once the job is stopped, and the two
    deletes left hanging held both of its slots), most likely from a client another test in
    the worker left retrying a port since closed, which the gateway was then handed."""
    before = len(gateway.received)
    sent = session.api.requests_sent
    stopped = time.monotonic()
    run.control.suspend()
    # Bounded: a run that goes on with its retries and look-ups (the old way) fails here.
    assert run.ended.wait(TIMEOUT), "the stopped job did not end within one request timeout"
    took = time.monotonic() - stopped
    return took, session.api.requests_sent - sent, gateway.received[before:]


def test_a_stopped_import_ends_at_once_against_a_service_that_never_answers(
    sandbox: Any, gateway: Gateway, journal: ChangeJournal, tmp_path: Path
) -> None:
    gateway.hang = {"/v1/dnc/insert"}
    session = _session(gateway, journal)
    store, _ = stage_import(
        JobSettings(_csv(tmp_path), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    run = Run(lambda control, progress: run_import(
        store, session, concurrency=2, control=control, progress=progress
    ))  # fmt: skip
    _wait_for(lambda: gateway.hung == 2)  # both requests in flight, unanswered
    took, sent_after, received = _stop_and_time(run, gateway, session)
    assert run.result is JobStatus.PAUSED, run.result
    # Well under one request's timeout (the old run: the rest of its retries, then a look-up).
    assert took < TIMEOUT / 2, took
    # No request started after the stop: no retry, no look-up.
    assert sent_after == 0, received
    # The connections of the requests in flight were shut, not left to time out.
    _wait_for(lambda: gateway.cut == 2, 5)
    rows = list(store.rows())
    cut = [r for r in rows if r.state == RowState.SENDING.value]
    assert len(cut) == 2 and all(r.outcome == "" for r in cut)
    assert {r.state for r in rows if r not in cut} == {RowState.PENDING.value}
    job = str(store.meta()["job_id"])
    outcomes = {e.phone: e for e in journal.query(job=job) if e.phase == "outcome"}
    assert {p: e.outcome for p, e in outcomes.items()} == {
        f"+1{r.national}": "unknown" for r in cut
    }

    # Back up: the resume sends the two rows again as rows sent again, and the rest once.
    gateway.hang = set()
    assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    s = job_summary(store)
    assert (s["inserted"], s["failed"], s["pending"]) == (ROWS, 0, 0), s
    for row in store.rows():
        again = row.seq in {r.seq for r in cut}
        assert row.message.startswith("sent again when the job was resumed") is again, row
    numbers = [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")]
    assert sorted(numbers) == PHONES
    session.close()


def test_a_stopped_removal_ends_at_once_and_its_resume_settles_the_deletes_left_open(
    sandbox: Any, gateway: Gateway, journal: ChangeJournal, tmp_path: Path
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as direct:
        for phone in PHONES:
            direct.insert_dnc(phone, "1", Scope.global_())
    gateway.hang = {"/v1/dnc/delete"}  # the look-ups before the deletes are answered
    session = _session(gateway, journal)
    store, _ = stage_removal(
        JobSettings(_csv(tmp_path), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    run = Run(lambda control, progress: run_removal(
        store, session, concurrency=2, control=control, progress=progress
    ))  # fmt: skip
    _wait_for(lambda: gateway.hung == 2)
    took, sent_after, received = _stop_and_time(run, gateway, session)
    assert run.result is JobStatus.PAUSED, run.result
    assert took < TIMEOUT / 2, took
    assert sent_after == 0, received
    cut = [r for r in store.rows() if r.state == RowState.SENDING.value]
    assert len(cut) == 2

    gateway.hang = set()
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    s = job_summary(store)
    assert (s["removed"], s["not_found"], s["failed"], s["pending"]) == (ROWS, 0, 0, 0), s
    for row in store.rows():
        if row.seq in {r.seq for r in cut}:
            assert row.message.startswith("sent again when the job was resumed"), row
    assert sandbox.store.all("SELECT phone_number FROM dnc") == []
    session.close()


def test_the_progress_says_when_the_service_has_not_answered_for_a_while(
    sandbox: Any,
    gateway: Gateway,
    journal: ChangeJournal,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gateway.hang = {"/v1/dnc/insert"}
    session = _session(gateway, journal)
    store, _ = stage_import(
        JobSettings(_csv(tmp_path), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    monkeypatch.setattr(job_runner, "WAITING_AFTER", 1.0)  # not the app's 10 s
    run = Run(lambda control, progress: run_import(
        store, session, concurrency=2, control=control, progress=progress
    ))  # fmt: skip
    _wait_for(lambda: any(p.waiting for p in run.progress), 20)
    run.control.suspend()
    assert run.ended.wait(TIMEOUT)
    first = next(p for p in run.progress if p.waiting)
    assert first.waiting is not None
    assert first.waiting.url == f"{gateway.base_url}/v1/dnc/insert"
    assert first.waiting.seconds >= 1.0
    assert first.waiting.text().startswith("No answer from the service for ")
    # The last report, at the job's end, no longer says it waits.
    assert run.progress[-1].waiting is None
    session.close()


# The client's own timeout, which the CLI uses: SIGTERM must end the process within one.
CLI_TIMEOUT = 30.0


@pytest.mark.skipif(not hasattr(signal, "SIGTERM"), reason="needs SIGTERM")
def test_sigterm_ends_the_cli_at_once_against_a_service_that_never_answers(
    sandbox: Any, gateway: Gateway, tmp_path: Path
) -> None:
    """The L4 run as the tester ran it: ``import … --concurrency 2 --json`` through the proxy,
    the inserts never answered, then SIGTERM (it took about 3 minutes to exit)."""
    gateway.hang = {"/v1/dnc/insert"}
    src = tmp_path / "in.csv"
    src.write_text("Phone\n" + "".join(f"{p}\n" for p in PHONES))
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--base-url",
            gateway.base_url, "--concurrency", "2", "--json"]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", *argv],
        cwd=ROOT,
        env={**os.environ, "DNC_DESK_TOKEN": TOKEN},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for(lambda: gateway.hung == 2 or proc.poll() is not None)
        assert proc.poll() is None, proc.communicate()
        sent = len(gateway.received)
        stopped = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=CLI_TIMEOUT)
        took = time.monotonic() - stopped
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 143, err
    # Well within one request's timeout (the old run: its retries, then its look-ups).
    assert took < CLI_TIMEOUT / 2, took
    assert len(gateway.received) == sent, gateway.received
    data = json.loads(out)
    assert (data["status"], data["inserted"], data["pending"]) == ("paused", 0, ROWS), data


def test_the_cli_says_on_stderr_when_the_service_has_not_answered(
    sandbox: Any, gateway: Gateway, tmp_path: Path
) -> None:
    """L4 #8 (b), the CLI's part: under --json, with stderr not a terminal, the job said
    nothing while the service stayed silent for minutes."""
    gateway.hang = {"/v1/dnc/insert"}
    src = tmp_path / "in.csv"
    src.write_text("Phone\n" + "".join(f"{p}\n" for p in PHONES))
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--base-url",
            gateway.base_url, "--concurrency", "2", "--json"]  # fmt: skip
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
        # The app says it after WAITING_AFTER (10 s) of silence.
        _wait_for(lambda: any(x.startswith("No answer from the service") for x in lines), 40)
        said = [line for line in lines if line.startswith("No answer from the service for ")]
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=CLI_TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join(timeout=5)
    assert said, lines
    waiting = said[0]
    assert "/dnc/insert" in waiting and "the job is still trying." in waiting, waiting
    assert proc.returncode == 143, lines
