"""The checks before a job or an export starts, at a service answering HTTP 429 (black-box
W5 #1).

The checks (the token and campaign list, the list's purposes) had a retry loop of their own:
a 429 without Retry-After was waited out inside each of its tries for the client's whole
patience, the loop then tried again (four rounds of minutes), and all the while stderr said
the service had answered nothing. Now the checks' transport retries as a job's client does (a
429 without Retry-After waited out with growing holds until the service has refused every
request for the policy's patience, a 429 with Retry-After waited as asked for the policy's
attempts), stderr says the service is refusing for its rate limit, and giving up says so in
one sentence; nothing is sent and no job is made.

The service is a real socket proxy over loopback before a sandbox (:class:`Throttle`; the
sandbox's own ``--rate-limit`` always says Retry-After); the policy's waits are made tiny.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.transport import RetryPolicy
from app.cli import connection_args
from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN
from tests.core.test_job_hung_service_stop import _read_message

PHONE = "2025550142"
CAMPAIGNS = "/v1/campaigns/search"


def _policy(patience: float) -> RetryPolicy:
    return RetryPolicy(
        attempts=4,
        base_delay=0.001,
        max_delay=0.002,
        rate_limit_base=0.001,
        rate_limit_max=0.002,
        rate_limit_patience=patience,
        resend_unanswered=False,
    )


class Throttle:
    """An HTTP/1.1 proxy on loopback before ``upstream`` (host, port): a request to a path in
    :attr:`refuse` is answered ``429`` while that path's count lasts (with ``Retry-After:
    <retry_after>`` when set), and forwarded once it is spent; other requests are forwarded."""

    def __init__(self, upstream: tuple[str, int], retry_after: str | None = None) -> None:
        self.upstream = upstream
        self.retry_after = retry_after
        self.refuse: dict[str, int] = {}
        self.received: list[str] = []
        self.refused = 0
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

    def _answer_429(self) -> bytes:
        body = b'{"success": false, "error": "Too many requests"}'
        head = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
        if self.retry_after is not None:
            head += f"Retry-After: {self.retry_after}\r\n"
        head += f"Content-Length: {len(body)}\r\n\r\n"
        return head.encode() + body

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            while (request := _read_message(conn)) is not None:
                path = request.split(b" ", 2)[1].decode()
                with self._lock:
                    self.received.append(path)
                    left = self.refuse.get(path, 0)
                    if left > 0:
                        self.refuse[path] = left - 1
                        self.refused += 1
                if left > 0:
                    conn.sendall(self._answer_429())
                    continue
                with socket.create_connection(self.upstream) as up:
                    up.sendall(request)
                    answer = _read_message(up)
                if answer is None:
                    return
                conn.sendall(answer)


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    monkeypatch.setattr(connection_args, "CHECKS_RETRY", _policy(patience=60.0))
    monkeypatch.setattr(connection_args, "CHECK_WAITING_AFTER", 0.2)
    monkeypatch.setattr(connection_args, "CHECK_WAITING_EVERY", 0.4)


def _throttle(sandbox: Any, retry_after: str | None = None) -> Throttle:
    host, port = sandbox.base_url.split("//", 1)[1].rsplit(":", 1)
    return Throttle((host, int(port.rstrip("/"))), retry_after)


@pytest.fixture
def throttle(sandbox: Any) -> Iterator[Throttle]:
    proxy = _throttle(sandbox)
    yield proxy
    proxy.close()


def _import(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base_url: str
) -> tuple[int, dict[str, Any], str]:
    src = tmp_path / "one.csv"
    src.write_text(f"phone\n{PHONE}\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    code = main([*argv, "--base-url", base_url, "--json"])
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1, captured.out
    return code, json.loads(lines[0]), captured.err


def _nothing_sent(sandbox: Any, proxy: Throttle) -> None:
    assert not any("insert" in p or "delete" in p for p in proxy.received), proxy.received
    with ApiClient(sandbox.base_url, TOKEN) as api:
        assert api.search_dnc(offset=0, limit=100).items == []
    jobs = AppPaths.default().jobs_dir
    assert not jobs.exists() or not any(jobs.iterdir())


def test_a_429_without_retry_after_past_four_tries_is_waited_out_and_the_import_runs(
    sandbox: Any, throttle: Throttle, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # More refusals than the policy's attempts: a job's client waits them out, so the
    # checks do too.
    throttle.refuse[CAMPAIGNS] = 9
    code, out, err = _import(capsys, tmp_path, throttle.base_url)

    assert code == 0, (out, err)
    assert out["inserted"] == 1
    assert throttle.received.count(CAMPAIGNS) == 10


def test_a_service_refusing_every_check_for_the_whole_patience_is_said_and_given_up(
    sandbox: Any,
    throttle: Throttle,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(connection_args, "CHECKS_RETRY", _policy(patience=1.0))
    throttle.refuse[CAMPAIGNS] = 10**9
    code, out, err = _import(capsys, tmp_path, throttle.base_url)

    assert code == 1
    sentence = out["error"]
    assert sentence.startswith("Import of one.csv not started: ")
    assert f"the service at {throttle.base_url}" in sentence
    assert "refused every request for its rate limit (HTTP 429)" in sentence
    assert f"/campaigns/search refused {throttle.refused} times" in sentence
    assert "no Retry-After" in sentence and "try again later" in sentence
    # Waited out while it refused, and said so (it was called silence: "No answer from
    # the service").
    assert throttle.refused > connection_args.CHECKS_RETRY.attempts
    assert "The service has refused every request for its rate limit (HTTP 429)" in err
    assert f"the first of {throttle.base_url}{CAMPAIGNS}" in err
    # Given up once, not round after round of the whole patience.
    assert throttle.received.count(CAMPAIGNS) == throttle.refused
    _nothing_sent(sandbox, throttle)


def test_a_429_with_retry_after_gets_the_policys_attempts_then_is_given_up(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proxy = _throttle(sandbox, retry_after="0")
    try:
        proxy.refuse[CAMPAIGNS] = 10**9
        code, out, _err = _import(capsys, tmp_path, proxy.base_url)
    finally:
        proxy.close()

    assert code == 1
    attempts = connection_args.CHECKS_RETRY.attempts
    assert proxy.received.count(CAMPAIGNS) == attempts
    sentence = out["error"]
    assert "refused every request for its rate limit (HTTP 429)" in sentence
    assert f"refused {attempts} times, the last asking to wait 0 s by its Retry-After" in sentence
    _nothing_sent(sandbox, proxy)


def test_a_429_with_retry_after_within_the_attempts_lets_the_import_run(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proxy = _throttle(sandbox, retry_after="0")
    try:
        proxy.refuse[CAMPAIGNS] = connection_args.CHECKS_RETRY.attempts - 1
        code, out, err = _import(capsys, tmp_path, proxy.base_url)
    finally:
        proxy.close()
    assert code == 0, (out, err)
    assert out["inserted"] == 1


def test_an_export_naming_a_campaign_waits_out_429s_as_a_job_does(
    sandbox: Any, throttle: Throttle, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    throttle.refuse[CAMPAIGNS] = 9
    out_file = tmp_path / "out.csv"
    argv = ["export", "dnc", "--out", str(out_file), "--scope", "campaign:Spring Renewals"]
    code = main([*argv, "--base-url", throttle.base_url, "--json"])
    captured = capsys.readouterr()

    assert code == 0, captured.err
    assert json.loads(captured.out)["filters"]["scope"].startswith("campaign:Spring Renewals")
    assert out_file.exists()
    assert throttle.received.count(CAMPAIGNS) == 10
