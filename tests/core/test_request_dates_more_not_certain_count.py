"""Late requests whose verdict hangs on the service's unknown time zone have their own count.

Black-box B32 leftover: an already-present row measured to its entry's day by the service's
clock (no entry this job inserted could tell the service's offset) says "not certain: …" in
its message, and was counted in ``late_requests`` (or not) with nothing in the counts, the
Summary or the warnings saying that some of them hang on it. ``late_requests_not_certain``
counts those of the late requests, the Summary says it after the late count, and a warning
names the rows, late or not.

A real sandbox run: the sandbox's clock at UTC-12, this computer's at UTC+14, both numbers
put on the list by an earlier job, so this job inserts nothing to learn the offset from.
"""

from __future__ import annotations

import csv
import datetime as dt
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.import_job import _is_late, run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN

FAST = RetryPolicy(attempts=4, base_delay=0.001, max_delay=0.002)
LATE_NOT_CERTAIN = "late_requests_not_certain"
LABEL = (
    "Requests later than 10 business days: of which not certain (counted to an entry's day "
    "by the service's clock, whose time zone is not known)"
)


@pytest.fixture
def kiritimati(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This computer at UTC+14."""
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _service_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    def stamp() -> str:
        return f"{dt.datetime.now(dt.UTC) - dt.timedelta(hours=12):%Y-%m-%d %H:%M:%S}"

    monkeypatch.setattr("app.sandbox.routes_dnc.now_timestamp", stamp)


def _request(counted_to: dt.date, shifted: dt.date, late: bool) -> dt.date:
    """A request day ``late`` (or not) counted to ``counted_to`` and the other way counted
    to ``shifted``."""
    for back in range(8, 25):
        received = counted_to - dt.timedelta(days=back)
        if _is_late(received, counted_to) is late and _is_late(received, shifted) is not late:
            return received
    pytest.skip(f"no request day tells {counted_to} from {shifted} (a weekend between)")


def _stage(tmp_path: Path, rows: list[list[str]]) -> JobStore:
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "in.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["phone", "Date received"], *rows])
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    return store


def _run(store: JobStore, server: Any, journal: ChangeJournal) -> dict[str, Any]:
    api = ApiClient(server.base_url, TOKEN, retry=FAST)
    session = Session(Connection("Sandbox", server.base_url), api, journal)
    try:
        assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    finally:
        session.close()
    return job_summary(store)


def _summary(path: str) -> dict[str, Any]:
    book = openpyxl.load_workbook(path)
    try:
        return {str(r[0]): r[1] for r in book["Summary"].iter_rows(values_only=True)}
    finally:
        book.close()


def test_late_requests_hanging_on_the_service_zone_are_counted_apart(
    make_sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kiritimati: None
) -> None:
    server = make_sandbox()
    _service_behind(monkeypatch)
    day = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=12)).date()  # the service's
    one_day = dt.timedelta(days=1)
    late = _request(day, day - one_day, late=True)  # a day earlier: not late
    in_time = _request(day, day + one_day, late=False)  # a day later: late
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    try:
        _run(_stage(tmp_path / "pre", [["3035550008", ""], ["3035550009", ""]]), server, journal)
        store = _stage(tmp_path, [["3035550008", f"{late}"], ["3035550009", f"{in_time}"]])
        s = _run(store, server, journal)
    finally:
        journal.close()

    rows = {r.national: r for r in store.rows()}
    assert all(r.outcome == "already_present" for r in rows.values())
    assert "not certain" in rows["3035550008"].message
    assert "would make the request not late" in rows["3035550008"].message
    assert "would make the request late" in rows["3035550009"].message
    assert s["late_requests"] == 1
    assert s[LATE_NOT_CERTAIN] == 1
    said = [w for w in store.meta()["warnings"] if "service's clock" in w]
    assert said == [
        "2 already-present rows are counted to their entry's day by the service's clock, whose "
        "time zone no entry this job inserted could tell, and a day either way on this "
        "computer's clock would change their verdict: rows 2, 3. 1 of the 1 late requests is "
        "among them (row 2): a day earlier would make it not late. The other is counted not "
        "late, though a day later would make it late."
    ]
    summary = _summary(s["report"])
    assert summary["Requests later than 10 business days"] == 1
    assert summary[LABEL] == 1
    assert said[0] in summary.values()
    store.close()


def test_a_job_with_none_counts_0_and_says_nothing(make_sandbox: Any, tmp_path: Path) -> None:
    server = make_sandbox()
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    try:
        store = _stage(tmp_path, [["3035550008", f"{dt.date.today()}"]])
        s = _run(store, server, journal)
    finally:
        journal.close()
    assert s[LATE_NOT_CERTAIN] == 0
    assert LABEL not in _summary(s["report"])
    assert not [w for w in store.meta().get("warnings") or [] if "service's clock" in w]
    store.close()
