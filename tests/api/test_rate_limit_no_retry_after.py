"""Black-box pass R1 #6: a 429 without ``Retry-After`` is waited out as a per-minute limit.

The service's rate limits are per minute (the spec), so a call refused without being told how
long to wait goes on trying, its waits growing towards a minute, until the service has refused
it for the policy's patience (minutes by default), and a job stops for a resume only then: it
used to give up after the policy's four attempts (a second or so), and the job paused after 7 s.
A 429 with ``Retry-After`` behaves as before (the policy's attempts, each waiting it out).

The sandbox's 429s always carry Retry-After, so a mock transport answers here; the waits are
made tiny by the policy, and the patience is what the tests vary.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api import errors
from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import DEFAULT_RETRY, RetryPolicy
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_runner import JobAborted
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN


def _policy(patience: float) -> RetryPolicy:
    return RetryPolicy(
        attempts=4,
        base_delay=0.001,
        max_delay=0.002,
        rate_limit_base=0.001,
        rate_limit_max=0.002,
        rate_limit_patience=patience,
    )


class Refusing(httpx.BaseTransport):
    """Answers the first ``refusals`` requests 429 (with ``Retry-After`` when given), every
    later one as a successful insert."""

    def __init__(self, refusals: int, retry_after: str | None = None) -> None:
        self.refusals = refusals
        self.retry_after = retry_after
        self.requests = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        if self.requests <= self.refusals:
            headers = {} if self.retry_after is None else {"Retry-After": self.retry_after}
            body = {"success": False, "error": "Too many requests"}
            return httpx.Response(429, json=body, headers=headers, request=request)
        return httpx.Response(200, json={"success": True, "id": self.requests}, request=request)


def _client(wire: httpx.BaseTransport, policy: RetryPolicy) -> ApiClient:
    return ApiClient("http://127.0.0.1:9", TOKEN, http_transport=wire, retry=policy)


def test_a_call_refused_without_retry_after_keeps_trying_within_its_patience() -> None:
    wire = Refusing(30)
    with _client(wire, _policy(patience=600.0)) as api:
        result = api.insert_dnc("2025550123", "1", Scope.global_())
    assert result.attempts == 31 and wire.requests == 31


def test_a_call_refused_for_its_whole_patience_gives_up_saying_so() -> None:
    wire = Refusing(10**9)
    with _client(wire, _policy(patience=0.05)) as api:
        with pytest.raises(errors.RateLimitedError) as info:
            api.insert_dnc("2025550123", "1", Scope.global_())
    assert info.value.patience_spent and info.value.retry_after is None
    assert wire.requests >= 4


def test_a_429_with_retry_after_keeps_the_policys_attempts() -> None:
    wire = Refusing(10**9, retry_after="0")
    with _client(wire, _policy(patience=600.0)) as api:
        with pytest.raises(errors.RateLimitedError) as info:
            api.insert_dnc("2025550123", "1", Scope.global_())
    assert wire.requests == 4 and not info.value.patience_spent


def test_the_default_policy_waits_out_a_per_minute_window() -> None:
    rng = random.Random(1)
    holds = [DEFAULT_RETRY.rate_limit_delay(n, rng) for n in range(1, 9)]
    assert holds[:7] == sorted(holds[:7])  # growing, to the cap
    assert holds[-1] >= 45.0 and max(holds) <= DEFAULT_RETRY.rate_limit_max == 60.0
    assert sum(holds[:7]) >= 60.0  # a minute's window passes within them
    assert DEFAULT_RETRY.rate_limit_patience >= 120.0


def _import(tmp_path: Path, wire: httpx.BaseTransport, policy: RetryPolicy) -> tuple[Any, Any]:
    path = tmp_path / "numbers.csv"
    path.write_text("Phone\n" + "".join(f"20255501{i:02d}\n" for i in range(5)))
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    api = _client(wire, policy)
    session = Session(Connection("Mock", "http://127.0.0.1:9"), api, journal)
    return store, session


def test_a_job_refused_without_retry_after_does_not_pause_within_the_patience(
    tmp_path: Path,
) -> None:
    # 36 refusals of 5 rows paused the job (black-box R1 #6); within its patience the job
    # waits them out and every row goes in.
    store, session = _import(tmp_path, Refusing(40), _policy(patience=600.0))
    try:
        assert run_import(store, session, concurrency=8) is JobStatus.FINISHED
    finally:
        session.close()
        session.journal.close()
    assert job_summary(store)["inserted"] == 5


def test_a_job_refused_for_the_whole_patience_pauses_for_a_resume(tmp_path: Path) -> None:
    store, session = _import(tmp_path, Refusing(10**9), _policy(patience=0.05))
    try:
        with pytest.raises(JobAborted, match="kept refusing requests for its rate limit"):
            run_import(store, session, concurrency=2)
    finally:
        session.close()
        session.journal.close()
    assert store.meta()["status"] == "paused"
    assert job_summary(store)["pending"] == 5
