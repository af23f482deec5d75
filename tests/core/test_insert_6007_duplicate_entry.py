"""Black-box B36 F6: the spec gives /dnc/insert two "already there" answers, 6007 "duplicate
entry" and 6008 "phone already in DNC"; the sandbox only ever answers 6008, so the import's
handling of 6007 (a conflict, app.api.errors) was never exercised. Here a transport forwards
everything to the sandbox but answers the insert of one number with 6007, as a service may:
the row ends ``already_present`` (docs/cli.md: a conflict answer to an insert means the number
was already on the list), counted so in the summary and the report, and journaled as such.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN

DUPLICATE = "3035550301"
NEW = "3035550302"
SIX_OH_OH_EIGHT = "3035550303"


class DuplicateEntryWire(httpx.BaseTransport):
    """Forwards to the sandbox, but answers /dnc/insert of DUPLICATE with 6007."""

    def __init__(self, http_status: int) -> None:
        self._http = httpx.HTTPTransport()
        self.http_status = http_status
        self.answered: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/dnc/insert"):
            number = parse_qs(request.read().decode()).get("phone_number", [""])[0]
            if number == DUPLICATE:
                self.answered.append(number)
                body = {"success": False, "error": "Duplicate entry", "code": 6007}
                return httpx.Response(self.http_status, json=body)
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


# The spec gives no HTTP status for a failure: the envelope's code decides, whatever it is.
@pytest.mark.parametrize("http_status", [409, 400, 200])
def test_an_insert_answered_6007_ends_already_present(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path, http_status: int
) -> None:
    # On the list before the job, as a duplicate entry is; the other already-present number
    # is answered by the sandbox's own 6008, for comparison.
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in (DUPLICATE, SIX_OH_OH_EIGHT)])
    src = tmp_path / "in.csv"
    with src.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["phone"], [DUPLICATE], [NEW], [SIX_OH_OH_EIGHT]])
    store, _ = stage_import(JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=None)
    wire = DuplicateEntryWire(http_status)
    api = ApiClient(
        sandbox.base_url,
        TOKEN,
        http_transport=wire,
        retry=RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.002),
    )
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    try:
        assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    finally:
        session.close()
    assert wire.answered == [DUPLICATE]  # answered once: a conflict is not retried

    rows = {r.national: r for r in store.rows()}
    assert rows[NEW].outcome == "inserted"
    assert rows[DUPLICATE].outcome == "already_present", rows[DUPLICATE]
    assert rows[SIX_OH_OH_EIGHT].outcome == "already_present"
    assert "Duplicate entry" in rows[DUPLICATE].message, rows[DUPLICATE].message
    summary = job_summary(store)
    assert (summary["inserted"], summary["already_present"], summary["failed"]) == (1, 2, 0)
    book = openpyxl.load_workbook(summary["report"], read_only=True)
    try:
        sheet = dict(book["Summary"].iter_rows(values_only=True))  # type: ignore[arg-type]
    finally:
        book.close()
    assert sheet["already_present"] == 2

    outcomes = [
        e
        for e in journal.query(job=summary["job"])
        if e.phase == "outcome" and e.operation == "dnc.insert"
    ]
    by_phone = {e.phone: e.outcome for e in outcomes}
    assert by_phone["+1" + DUPLICATE] == by_phone["+1" + SIX_OH_OH_EIGHT] == "already_present"
    assert by_phone["+1" + NEW] == "ok"
