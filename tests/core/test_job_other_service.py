"""A job's rows go only to the service it was started on (black-box pass 4, finding 1): a
resume through a connection to another service is refused in one sentence and sends nothing,
where it used to send the rest there under a report naming the first service."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import JobOnAnotherService, _service
from app.core.job_lock import JobBusy
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.session import Session
from tests.conftest import TOKEN


def _staged(session: Session, tmp_path: Path) -> Any:
    src = tmp_path / "in.csv"
    with src.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone"], *[[f"20255501{i:02d}"] for i in range(5)]])
    store, _ = stage_import(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    return store


def test_a_resume_on_another_service_is_refused_and_sends_nothing(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    store = _staged(session, tmp_path)
    other_url = "http://127.0.0.1:9"  # nothing answers here: a request would fail, not pass
    other = Session(Connection("Other", other_url), ApiClient(other_url, TOKEN), session.journal)
    with pytest.raises(JobOnAnotherService) as refused:
        run_import(store, other)
    assert isinstance(refused.value, JobBusy)  # handled as a refusal: no resume hint
    assert str(refused.value) == (
        f"Job {store.meta()['job_id']} was started on {session.connection.base_url} "
        f"(connection {session.connection.name!r}), not on {other_url}; its rows go only to "
        "the service it was started on, so resume it there."
    )
    assert store.counts()["pending"] == 5 and other.api.requests_sent == 0
    other.close()
    # On its own service it runs, and the same address written another way is the same.
    same = session.connection.base_url.rstrip("/").upper().replace("HTTP://", "http://") + "/v1/"
    assert _service(same) == _service(session.connection.base_url)
    assert run_import(store, session) is JobStatus.FINISHED
    assert store.counts()["inserted"] == 5
    store.close()


@pytest.mark.parametrize(
    ("started", "resumed"),
    [
        ("http://dnc.example", "HTTP://DNC.EXAMPLE:80/v1/"),
        ("https://dnc.example/api", "https://DNC.example:443/api/V1"),
        ("http://[::1]:8765", "http://[::1]:8765/v1"),
    ],
)
def test_the_same_service_written_another_way_is_the_same(started: str, resumed: str) -> None:
    # Re-test J2: a default port or an upper-case /V1 made it "another service".
    assert _service(started) == _service(resumed)


@pytest.mark.parametrize(
    ("started", "resumed"),
    [("http://dnc.example", "https://dnc.example"), ("http://a.example:8080", "http://a.example")],
)
def test_another_scheme_or_port_is_another_service(started: str, resumed: str) -> None:
    assert _service(started) != _service(resumed)


def test_a_job_started_with_a_base_url_is_not_named_twice(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # Black-box B4 #10: "was started on http://… (connection 'http://…')" repeated the URL, as
    # a job started with --base-url has its connection named after its URL.
    url = sandbox.base_url
    started = Session(Connection(url, url), ApiClient(url, TOKEN), session.journal)
    store = _staged(started, tmp_path)
    other_url = "http://127.0.0.1:9"
    other = Session(Connection(other_url, other_url), ApiClient(other_url, TOKEN), session.journal)
    with pytest.raises(JobOnAnotherService) as refused:
        run_import(store, other)
    assert str(refused.value) == (
        f"Job {store.meta()['job_id']} was started on {url}, not on {other_url}; its rows "
        "go only to the service it was started on, so resume it there."
    )
    other.close()
    started.close()
    store.close()
