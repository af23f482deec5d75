"""A late request honoured long before under another written form of the number is not late
(B9 #2, B12 #11).

A DNC entry may keep a number otherwise than DNC Desk writes it ("17025550133" under code 1,
"447911123456" typed under code 1 for a UK mobile); removals and evidence look them all up
(:func:`app.core.dnc_removal.form_searches`). An import looked up only the form it sends: a
row whose number was on the list for years as 17025550133 was inserted again as 7025550133 and
its request reported late, counted to that day. Now a row whose request would be late looks up
the other forms (in its scope and, for a campaign or purpose row, the global list) and is
measured to an older entry found so, naming the form; rows not late cost no extra search.

Run through the real import job against a sandbox over loopback; entries and their insert dates
are written into the sandbox's database before the run (its API stamps the day it inserts).
The wire only forwards requests and records each search, or answers a named number's searches
503.
"""

from __future__ import annotations

import csv
import datetime as dt
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
from app.core.job_store import JobRow, JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.core.sheet_check import Target
from app.core.sheet_dates import business_days_between
from tests.conftest import TOKEN

TWO_TRIES = RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.002)
TODAY = dt.datetime.now(dt.UTC).date()
GLOBAL = "a global entry covers every campaign and purpose"


class Wire(httpx.BaseTransport):
    """Forwards every request to the sandbox, recording each search's number, code and
    campaign; every search of a number in ``failing`` is answered 503."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.searches: list[tuple[str, str, str]] = []
        self.failing: set[str] = set()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        params = dict(request.url.params)
        params.update({k: v[0] for k, v in parse_qs(request.content.decode()).items()})
        if request.url.path.endswith("/search"):
            number = params.get("phone_number", "")
            self.searches.append(
                (number, params.get("phone_code", ""), params.get("campaign_id", ""))
            )
            if number in self.failing:
                return httpx.Response(503, text="<html>Service Unavailable</html>", request=request)
        return self._http.handle_request(request)

    def numbers(self) -> set[str]:
        return {n for n, _, _ in self.searches}

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _seed(
    sandbox: Any,
    number: str,
    inserted: dt.date | str,
    code: str = "1",
    campaign: str = "0",
    table: str = "dnc",
) -> str:
    sandbox.store.execute(
        f"INSERT INTO {table}(phone_number, phone_code, campaign_id, reason, purpose, insert_date)"
        " VALUES (?, ?, ?, '', '', ?)",
        (number, code, int(campaign), f"{inserted} 09:30:00"),
    )
    (row,) = sandbox.store.all(
        f"SELECT id FROM {table} WHERE phone_number = ? AND phone_code = ? AND campaign_id = ?",
        (number, code, int(campaign)),
    )
    return str(row["id"])


def _business_days_ago(days: int) -> dt.date:
    day = TODAY
    while business_days_between(day, TODAY) < days:
        day -= dt.timedelta(days=1)
    return day


def _business_days_after(start: dt.date, days: int) -> dt.date:
    day = start
    while business_days_between(start, day) < days:
        day += dt.timedelta(days=1)
    return day


def _run(
    tmp_path: Path,
    sandbox: Any,
    journal: ChangeJournal,
    wire: Wire,
    rows: list[list[str]],
    scope: Scope,
    target: Target = Target.DNC,
) -> JobStore:
    path = tmp_path / "requests.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["Phone", "Date received"], *rows])
    store, _ = stage_import(
        JobSettings(path, scope, target=target), tmp_path / "jobs", connection=None
    )
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=TWO_TRIES)
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    try:
        assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    finally:
        session.close()
    return store


def _rows(store: JobStore) -> dict[str, JobRow]:
    return {r.national: r for r in store.rows()}


def test_a_late_row_listed_for_years_in_another_form_is_not_late(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    asked = _business_days_ago(30)
    # B9 #2: listed since 2024 as 17025550133; one listed as 17025550134 three business days
    # after its request; one late listed in no form; one in time, listed in another form too,
    # which must cost no search of its other forms.
    since_2024, in_time, nowhere, not_late = (f"702555013{i}" for i in (3, 4, 5, 6))
    three_after = _business_days_after(asked, 3)
    ids = {
        since_2024: _seed(sandbox, "1" + since_2024, "2024-03-02"),
        in_time: _seed(sandbox, "1" + in_time, three_after),
    }
    _seed(sandbox, "1" + not_late, "2024-03-02")
    wire = Wire()
    store = _run(
        tmp_path,
        sandbox,
        journal,
        wire,
        [
            [since_2024, asked.isoformat()],
            [in_time, asked.isoformat()],
            [nowhere, asked.isoformat()],
            [not_late, _business_days_ago(3).isoformat()],
        ],
        Scope.global_(),
    )
    rows = _rows(store)
    assert {r.outcome for r in rows.values()} == {"inserted"}, rows
    assert rows[since_2024].message.endswith(
        f"on the list as 1{since_2024} since 2024-03-02 (entry {ids[since_2024]}), before the "
        "request was received: not late"
    ), rows[since_2024].message
    assert rows[since_2024].honoured_on == "2024-03-02"
    assert rows[in_time].message.endswith(
        f"on the list as 1{in_time} since {three_after} (entry {ids[in_time]}), 3 business days "
        "after the request was received: not late"
    ), rows[in_time].message
    assert rows[in_time].honoured_on == three_after.isoformat()
    # Not listed in any form: still counted to its insertion (today), nothing said.
    assert "30 business days before its insertion" in rows[nowhere].message, rows[nowhere]
    assert "not late" not in rows[nowhere].message
    assert rows[nowhere].honoured_on == ""
    assert rows[not_late].message == "" and rows[not_late].honoured_on == ""
    # The late rows' other forms were searched, the row in time's were not.
    assert {f"1{since_2024}", f"001{since_2024}", f"0111{nowhere}"} <= wire.numbers()
    assert not any(not_late in n for n in wire.numbers()), wire.searches
    # The job's report counts the row listed in no form alone as late.
    summary = job_summary(store)
    assert summary["late_requests"] == 1, summary
    sheet = openpyxl.load_workbook(summary["report"])
    try:
        values = {r[0]: r[1] for r in sheet["Summary"].iter_rows(values_only=True)}
    finally:
        sheet.close()
    assert values["Requests later than 10 business days"] == 1, values


def test_a_present_row_is_measured_to_its_oldest_entry_in_another_form(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    number = "7025550140"
    asked = _business_days_ago(30)
    _seed(sandbox, number, _business_days_ago(2))  # as the app writes it: 28 days late
    old = _seed(sandbox, "1" + number, "2024-03-02")
    store = _run(tmp_path, sandbox, journal, Wire(), [[number, asked.isoformat()]], Scope.global_())
    rows = _rows(store)
    row = rows[number]
    assert row.outcome == "already_present"
    assert row.message.endswith(
        f"on the list as 1{number} since 2024-03-02 (entry {old}), before the request was "
        "received: not late"
    ), row.message
    assert row.honoured_on == "2024-03-02"


def test_a_late_uk_campaign_row_finds_a_global_entry_kept_under_another_code(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    campaign = sandbox.seed_campaign("Autumn outreach")
    old = _seed(sandbox, "447911123456", "2023-06-08", code="1")  # typed under code 1
    wire = Wire()
    store = _run(
        tmp_path,
        sandbox,
        journal,
        wire,
        [["+447911123456", _business_days_ago(30).isoformat()]],
        Scope.campaign(campaign),
    )
    rows = _rows(store)
    row = rows["7911123456"]
    assert row.outcome == "inserted"
    assert row.message.endswith(
        f"on the list as 447911123456 under phone code 1 since 2023-06-08 (global entry {old}), "
        f"before the request was received: not late; {GLOBAL}"
    ), row.message
    assert row.honoured_on == "2023-06-08"
    # Searched under any phone code, as removals and evidence do.
    assert ("447911123456", "", "0") in wire.searches, wire.searches


def test_a_late_sms_row_finds_an_opt_out_in_another_form(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    number = "7025550150"
    opt_out = _seed(sandbox, "1" + number, "2024-03-02", table="sms_opt_out")
    store = _run(
        tmp_path,
        sandbox,
        journal,
        Wire(),
        [[number, _business_days_ago(30).isoformat()]],
        Scope.global_(),
        Target.SMS_OPT_OUT,
    )
    rows = _rows(store)
    row = rows[number]
    assert row.outcome == "inserted"
    assert row.message.endswith(
        f"on the list as 1{number} since 2024-03-02 (entry {opt_out}), before the request was "
        "received: not late"
    ), row.message
    assert row.honoured_on == "2024-03-02"


def test_a_failed_look_up_of_another_form_says_so(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    inserted, present = "7025550160", "7025550161"
    _seed(sandbox, "1" + inserted, "2024-03-02")
    _seed(sandbox, present, _business_days_ago(2))
    _seed(sandbox, "1" + present, "2024-03-02")
    wire = Wire()
    wire.failing = {"1" + inserted, "1" + present}
    asked = _business_days_ago(30).isoformat()
    store = _run(
        tmp_path, sandbox, journal, wire, [[inserted, asked], [present, asked]], Scope.global_()
    )
    rows = _rows(store)
    first = rows[inserted]
    assert first.outcome == "inserted"
    assert (
        "whether an entry keeping the number in another written form put it on the list sooner "
        f"could not be checked (the look-up of 1{inserted} failed: " in first.message
    ), first.message
    assert first.honoured_on == ""
    second = rows[present]
    assert second.outcome == "already_present"
    assert (
        "whether an earlier entry put the number on the list could not be checked (in another "
        f"written form, the look-up of 1{present} failed: " in second.message
    ), second.message
    # Still counted to the entry it was found under (late), the earlier one unchecked.
    assert f"request received {asked}, 28 business days before " in second.message, second.message
    assert second.honoured_on == _business_days_ago(2).isoformat()


def test_a_campaign_row_whose_own_look_up_fails_is_measured_to_another_form(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    campaign = sandbox.seed_campaign("Autumn outreach")
    number = "7025550170"
    _seed(sandbox, number, _business_days_ago(2), campaign=campaign)
    old = _seed(sandbox, "1" + number, "2024-03-02", campaign=campaign)
    wire = Wire()
    wire.failing = {number}  # the campaign's and the global list's look-ups as it is sent
    store = _run(
        tmp_path,
        sandbox,
        journal,
        wire,
        [[number, _business_days_ago(30).isoformat()]],
        Scope.campaign(campaign),
    )
    rows = _rows(store)
    row = rows[number]
    assert row.outcome == "already_present"
    # Before the request: honoured, whatever an entry the failed look-ups missed says.
    assert (
        f"on the list as 1{number} since 2024-03-02 (entry {old}), before the request was "
        "received: not late" in row.message
    ), row.message
    assert row.honoured_on == "2024-03-02"
