"""A job whose service refuses its connections says in its closing sentence that the service
could not be reached, not that it "stopped answering" (S19 W1).

Since S18 D1 the waiting line of a job whose sandbox was stopped mid-run said no connection
could be made, but the sentence the job stopped with (the job's result, the CLI's stderr, the
report's Summary: the job's ``stopped_because``) still said "The service stopped answering (it
could not be reached …)": a refused connection is a service that is down, not one that is
slow. Now a run of refused connections says "could not be reached (connection refused …)", a
run of requests that reached the service and got no answer still says "stopped answering",
and a run of both says both.

Real parts: the sandbox over loopback, stopped mid-run (its port then refuses connections).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.errors import TransportError
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core import job_runner
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_runner import JobAborted, JobControl, JobProgress
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN

ROWS = 200


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _stage(session: Session, tmp_path: Path) -> JobStore:
    src = tmp_path / "in.csv"
    src.write_text("phone\n" + "".join(f"202555{i:04d}\n" for i in range(1, ROWS + 1)))
    store, _ = stage_import(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    return store


def _stopped_mid_run(
    sandbox: Any, session: Session, store: JobStore
) -> tuple[BaseException | JobStatus, JobStore]:
    """Run the import; once rows have gone in, stop the sandbox (its port then refuses every
    connection) and let the job run to its own stop."""
    stopped = threading.Event()
    # Progress is reported at most every 0.25 s: rows that take time keep the first report
    # with rows done well before the last row (a fast run could finish between two reports).
    sandbox.set_faults(latency_ms=10)

    def progress(p: JobProgress) -> None:
        if p.done >= 5 and not stopped.is_set():
            stopped.set()
            sandbox.stop()

    try:
        result: BaseException | JobStatus = run_import(
            store, session, concurrency=2, control=JobControl(), progress=progress
        )
    except JobAborted as exc:
        result = exc
    assert stopped.is_set(), result
    return result, store


def _session(sandbox: Any, journal: ChangeJournal, retry: RetryPolicy) -> Session:
    api = ApiClient(sandbox.base_url, TOKEN, timeout=5.0, retry=retry)
    return Session(Connection("Sandbox", sandbox.base_url), api, journal)


def test_a_job_whose_service_went_down_says_it_could_not_be_reached(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    quick = RetryPolicy(attempts=4, base_delay=0.1, max_delay=0.4)
    session = _session(sandbox, journal, quick)
    result, store = _stopped_mid_run(sandbox, session, _stage(session, tmp_path))
    session.close()
    assert isinstance(result, JobAborted), result
    text = str(result)
    assert text.startswith(
        "The service could not be reached (connection refused, the last time at /dnc/"
    ), text
    assert "stopped answering" not in text, text
    assert "; the job was stopped and can be resumed." in text, text
    # What the CLI and the report say of the stop: the job file's word.
    assert store.status == JobStatus.PAUSED
    assert store.meta()["stopped_because"] == text


def test_a_job_refused_for_the_silence_limit_says_it_could_not_be_reached(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each request tried on and on (so no row ends): the job stops for the silence limit,
    # scaled down from 180 s. It said "The service stopped answering (nothing answered for …
    # the oldest request unanswered was to …)".
    monkeypatch.setattr(job_runner, "SILENT_STOP_AFTER", 1.5)
    monkeypatch.setattr(job_runner, "ABANDON_AFTER", 0.5)
    patient = RetryPolicy(attempts=1000, base_delay=0.05, max_delay=0.1)
    session = _session(sandbox, journal, patient)
    result, _store = _stopped_mid_run(sandbox, session, _stage(session, tmp_path))
    session.close()
    assert isinstance(result, JobAborted), result
    text = str(result)
    assert text.startswith("The service could not be reached (no connection could be made for "), (
        text
    )
    assert f"; the last tried was {sandbox.base_url}/v1/dnc/" in text, text
    assert "stopped answering" not in text and "unanswered" not in text, text


def _refused(endpoint: str) -> TransportError:
    # As the transport raises a connection the service's port refused.
    return TransportError(
        endpoint,
        "cannot connect to http://127.0.0.1:9 ([Errno 111] Connection refused)",
        sent=False,
    )


def _timed_out(endpoint: str) -> TransportError:
    return TransportError(
        endpoint, "no answer from http://127.0.0.1:9 within the timeout (ReadTimeout)", timeout=True
    )


def test_the_stop_says_what_came_of_the_requests_since_the_last_answer() -> None:
    words: Callable[..., tuple[str, str]] = job_runner._no_answer_words
    assert words(_timed_out("/dnc/insert"), None) == (
        "stopped answering",
        "no answer within the timeout, the last to /dnc/insert",
    )
    assert words(None, _refused("/dnc/search")) == (
        "could not be reached",
        "connection refused, the last time at /dnc/search",
    )
    assert words(_timed_out("/dnc/insert"), _refused("/dnc/search")) == (
        "stopped answering and could not be reached",
        "no answer within the timeout, the last to /dnc/insert; "
        "connection refused, the last time at /dnc/search",
    )
    unknown = TransportError(
        "/dnc/search",
        "cannot connect to http://nowhere.invalid ([Errno -2] Name or service not known)",
        sent=False,
    )
    assert words(None, unknown)[1] == "its host name not found, the last time at /dnc/search"
