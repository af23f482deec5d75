"""Re-test U1 #9: a paused job's report says why the rows the service refused with HTTP 429
are pending.

Their Message was empty, while a row the token was refused for said it was sent and refused:
now such a row says the service refused it for its rate limit, nothing was inserted, and the
resume sends it again; a row not sent yet still says nothing, and the resume clears it all.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_report import write_report
from app.core.job_runner import JobAborted
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN

ROWS = 30
POLICY = RetryPolicy(
    attempts=4,
    base_delay=0.001,
    max_delay=0.002,
    rate_limit_base=0.001,
    rate_limit_max=0.002,
    rate_limit_patience=0.05,
)


class Throttled(httpx.BaseTransport):
    """Answers every insert 429 without ``Retry-After`` while ``refusing``; forwards every other
    request, and every insert after, to the sandbox."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self._lock = threading.Lock()
        self.refusing = True
        self.refused: set[str] = set()  # the numbers refused

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self.refusing and request.url.path.endswith("/dnc/insert"):
            form = dict(httpx.QueryParams(request.content.decode()))
            with self._lock:
                self.refused.add(form["phone_number"])
            body = {"success": False, "error": "Too many requests"}
            return httpx.Response(429, json=body, request=request)
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def session(make_sandbox: Any, tmp_path: Path) -> Iterator[tuple[Session, Throttled]]:
    server = make_sandbox()
    wire = Throttled()
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    api = ApiClient(server.base_url, TOKEN, http_transport=wire, retry=POLICY)
    s = Session(Connection("Throttled", server.base_url), api, journal)
    yield s, wire
    s.close()
    journal.close()


def _messages(path: Path) -> dict[str, tuple[str, str]]:
    book = openpyxl.load_workbook(path, read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))
    book.close()
    header = rows[0]
    number, outcome, message = (
        header.index("Normalized number"),
        header.index("Outcome"),
        header.index("Message"),
    )
    padded = [(*r, *[None] * len(header)) for r in rows[1:]]  # read-only drops empty cells
    return {str(r[number]): (str(r[outcome]), str(r[message] or "")) for r in padded}


def test_rows_refused_for_the_rate_limit_say_so_in_a_paused_jobs_report(
    session: tuple[Session, Throttled], tmp_path: Path
) -> None:
    s, wire = session
    src = tmp_path / "in.csv"
    src.write_text("phone\n" + "".join(f"202555{i + 1:04d}\n" for i in range(ROWS)))
    store, _ = stage_import(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=s.connection
    )
    with pytest.raises(JobAborted, match="kept refusing requests for its rate limit"):
        run_import(store, s, concurrency=2)
    assert store.meta()["status"] == "paused"
    assert job_summary(store)["pending"] == ROWS
    messages = _messages(write_report(store, tmp_path / "paused.xlsx"))
    assert wire.refused and len(wire.refused) < ROWS  # some rows were not sent yet
    for number, (outcome, message) in messages.items():
        assert outcome == "pending"
        if number in wire.refused:
            assert message.startswith("sent, and the service refused it "), message
            assert "for its rate limit (HTTP 429), so nothing was inserted" in message
            assert message.endswith("pending: the resume (--resume) sends it again")
        else:
            assert message == ""

    wire.refusing = False
    assert run_import(store, s, concurrency=2) is JobStatus.FINISHED
    assert job_summary(store)["inserted"] == ROWS
    messages = _messages(write_report(store, tmp_path / "resumed.xlsx"))
    assert not [m for _o, m in messages.values() if "rate limit" in m]
