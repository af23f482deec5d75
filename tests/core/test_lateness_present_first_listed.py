"""An already-present row's request is measured to the day its number was first on the list,
not to the day the job found it (black-box L3 #1: numbers on the global list since 2023-06-08
and 2025-10-23, requested 2026-10-01 and 2026-09-01, were flagged late, "35 business days
before 2026-11-23, when the job found the number on the list", and counted in
``late_requests`` and the Summary; both requests had been honoured at once).

Run through the real import job against a sandbox over loopback; the entries' insert dates
are written into the sandbox's database before the run (its API stamps the day it inserts).
"""

from __future__ import annotations

import csv
import datetime as dt
import sqlite3
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
from app.core.job_report import late_count
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.core.sheet_dates import business_days_between, late_sentence
from tests.conftest import TOKEN

FAST = RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.002)
LATE_LABEL = "Requests later than 10 business days"
TODAY = dt.datetime.now(dt.UTC).date()  # the day the job counts to


class Counting(httpx.BaseTransport):
    """Forwards every request to the sandbox, counting the searches of each number; a search
    of a number in ``failing`` is answered 503 instead."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.searches: dict[str, int] = {}
        self.failing: set[str] = set()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/search"):
            params = dict(request.url.params)
            params.update({k: v[0] for k, v in parse_qs(request.content.decode()).items()})
            number = params.get("phone_number", "")
            self.searches[number] = self.searches.get(number, 0) + 1
            if number in self.failing:
                return httpx.Response(503, text="<html>Service Unavailable</html>", request=request)
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _seed(sandbox: Any, number: str, inserted: str) -> str:
    """Put ``number`` on the global list as inserted at ``inserted``; returns its entry id."""
    sandbox.bulk_seed_dnc([(number, "1", "0", "", "")])
    sandbox.store.execute(
        "UPDATE dnc SET insert_date = ? WHERE phone_number = ?", (inserted, number)
    )
    (row,) = sandbox.store.all("SELECT id FROM dnc WHERE phone_number = ?", (number,))
    return str(row["id"])


def _run(
    tmp_path: Path, sandbox: Any, journal: ChangeJournal, wire: Counting, rows: list[list[str]]
) -> tuple[JobStore, dict[str, Any]]:
    path = tmp_path / "requests.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["Phone", "Date received"], *rows])
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=FAST)
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    try:
        assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    finally:
        session.close()
    return store, job_summary(store)


def _report(path: str) -> tuple[dict[Any, Any], dict[str, tuple[Any, ...]]]:
    book = openpyxl.load_workbook(path)
    try:
        summary = {r[0]: r[1] for r in book["Summary"].iter_rows(values_only=True)}
        header, *rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    number = header.index("Normalized number")
    return summary, {str(r[number]): r for r in rows}


def test_present_rows_count_to_the_day_their_number_was_first_listed(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    listed_long_ago, same_day, in_time, late, new, recent = (f"303555140{i}" for i in range(1, 7))
    asked = TODAY - dt.timedelta(days=60)
    asked_early = TODAY - dt.timedelta(days=90)
    soon, much_later = asked_early + dt.timedelta(days=7), asked_early + dt.timedelta(days=40)
    ids = {
        listed_long_ago: _seed(sandbox, listed_long_ago, "2023-06-08 15:21:00"),
        same_day: _seed(sandbox, same_day, f"{asked} 16:00:00"),
        in_time: _seed(sandbox, in_time, f"{soon} 09:00:00"),
        late: _seed(sandbox, late, f"{much_later} 09:00:00"),
        recent: _seed(sandbox, recent, "2023-06-08 15:21:00"),
    }
    wire = Counting()
    store, summary = _run(
        tmp_path,
        sandbox,
        journal,
        wire,
        [
            [listed_long_ago, asked.isoformat()],
            [same_day, asked.isoformat()],
            [in_time, asked_early.isoformat()],
            [late, asked_early.isoformat()],
            [new, asked.isoformat()],  # not listed: inserted today, late
            [recent, (TODAY - dt.timedelta(days=1)).isoformat()],  # not late counted to today
        ],
    )
    rows = {r.national: r for r in store.rows()}
    assert {n: r.outcome for n, r in rows.items()} == {
        listed_long_ago: "already_present",
        same_day: "already_present",
        in_time: "already_present",
        late: "already_present",
        new: "inserted",
        recent: "already_present",
    }
    message = {n: r.message for n, r in rows.items()}
    assert message[listed_long_ago].endswith(
        f"on the list since 2023-06-08 (entry {ids[listed_long_ago]}), before the request was "
        "received: not late"
    ), message[listed_long_ago]
    assert message[same_day].endswith(
        f"on the list since {asked} (entry {ids[same_day]}), the day the request was received: "
        "not late"
    ), message[same_day]
    soon_days = business_days_between(asked_early, soon)
    assert message[in_time].endswith(
        f"on the list since {soon} (entry {ids[in_time]}), {soon_days} business days after the "
        "request was received: not late"
    ), message[in_time]
    late_days = business_days_between(asked_early, much_later)
    assert late_days > 10
    assert message[late].endswith(
        late_sentence(
            asked_early,
            late_days,
            f"{much_later}, when entry {ids[late]} put the number on the list",
        )
    ), message[late]
    # The sentence counted to the day the job found it is gone from every present row.
    assert not any(
        "when the job found the number" in m or "when the file was checked" in m
        for n, m in message.items()
        if n != new
    ), message
    # Not late counted to today either, yet measured the same way (re-test M2 #2).
    assert message[recent].endswith(
        f"on the list since 2023-06-08 (entry {ids[recent]}), before the request was received: "
        "not late"
    ), message[recent]

    # The JSON's count, the Summary's and the rows' agree: the late present row and the new one.
    assert summary["late_requests"] == 2, summary
    sheet, report_rows = _report(summary["report"])
    assert sheet[LATE_LABEL] == 2
    assert {n for n, r in report_rows.items() if r[-1] == "late"} == {late, new}
    days = {n: r[-2] for n, r in report_rows.items()}
    assert days[listed_long_ago] == days[same_day] == days[recent] == 0
    assert (days[in_time], days[late]) == (soon_days, late_days)
    assert days[new] == business_days_between(asked, TODAY)

    # Every present row with a request date costs a look-up, one each (re-test M2 #2); the
    # late ones (present or inserted) also search the number's other written forms (S21 F4).
    assert wire.searches == {
        listed_long_ago: 1,
        same_day: 1,
        in_time: 1,
        late: 1,
        recent: 1,
        **{form: 1 for n in (late, new) for form in (f"1{n}", f"001{n}", f"0111{n}")},
    }, wire.searches


def test_a_failed_look_up_keeps_the_row_and_the_day_the_job_found_it(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    number = "3035551411"
    _seed(sandbox, number, "2023-06-08 15:21:00")
    asked = TODAY - dt.timedelta(days=60)
    wire = Counting()
    wire.failing.add(number)
    store, summary = _run(tmp_path, sandbox, journal, wire, [[number, asked.isoformat()]])
    (row,) = store.rows()
    assert row.outcome == "already_present"
    days = business_days_between(asked, TODAY)
    said = late_sentence(asked, days, f"{TODAY}, when the job found the number on the list")
    assert (
        f"; {said}; when the number was first on the list could not be checked (the look-up "
        "failed: " in row.message
    ), row.message
    assert row.message.endswith("so the request is counted to the day the job found it")
    assert row.honoured_on == ""
    assert summary["late_requests"] == 1
    sheet, report_rows = _report(summary["report"])
    assert sheet[LATE_LABEL] == 1
    assert report_rows[number][-2:] == (days, "late")


def test_a_job_file_from_before_the_honoured_day_opens_and_counts_as_it_did(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.dncjob"
    JobStore(path).close()
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE rows DROP COLUMN honoured_on")
    db.execute(
        "INSERT INTO rows(row_number, original, national, phone_code, scope, request_date,"
        " state, outcome, done_at) VALUES (2, 'x', '3035551420', '1', 'global', '2026-01-05',"
        " 'done', 'already_present', '2026-03-02 10:00:00')"
    )
    db.commit()
    db.close()
    with JobStore(path) as store:
        (row,) = store.rows()
        assert row.honoured_on == ""
        assert late_count(store) == 1  # counted to the day it ended, as before
        store.set_honoured(row.seq, "2025-12-01")
        (row,) = store.rows()
        assert row.honoured_on == "2025-12-01"
        assert late_count(store) == 0


def test_a_present_row_already_looked_up_costs_no_second_look_up(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    # A number the list keeps with its trunk 0 is found by the look-up made before its insert,
    # and that look-up's entry dates it: no look-up more.
    sandbox.bulk_seed_dnc([("02079460009", "44", "0", "by hand", "")])
    sandbox.store.execute("UPDATE dnc SET insert_date = '2023-06-08 15:21:00'")
    (entry,) = sandbox.store.all("SELECT id FROM dnc")
    asked = TODAY - dt.timedelta(days=60)
    wire = Counting()
    store, summary = _run(
        tmp_path, sandbox, journal, wire, [["+44 20 7946 0009", asked.isoformat()]]
    )
    (row,) = store.rows()
    assert row.outcome == "already_present"
    assert row.message.endswith(
        f"on the list since 2023-06-08 (entry {entry['id']}), before the request was received: "
        "not late"
    ), row.message
    assert wire.searches == {"02079460009": 1}, wire.searches
    assert summary["late_requests"] == 0
