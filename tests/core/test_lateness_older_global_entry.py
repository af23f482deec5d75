"""A campaign or purpose row inserted late is measured to the number's global entry from before
(black-box N3 #1), and "1 business day" is said so.

N3 #1: ``dnc-desk import s1_dnc.xlsx --into dnc --scope campaign:1005`` row 25 (3036193448,
Campaign ID 1001, requested 14 business days before) was inserted into campaign 1001 and
counted late, though the number had been on the global list (which blocks every campaign)
since 2023-06-08. Only rows answered "already present" were measured to a global entry.

Run through the real import job against a sandbox over loopback; entries and their insert dates
are written into the sandbox's database before the run (its API stamps the day it inserts).
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.core.sheet_check import Target
from app.core.sheet_dates import business_days_between, late_sentence
from tests.conftest import TOKEN

TWO_TRIES = RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.002)
TODAY = dt.datetime.now(dt.UTC).date()
GLOBAL = "a global entry covers every campaign and purpose"


class Wire(httpx.BaseTransport):
    """Forwards every request to the sandbox, recording each search's number and campaign;
    with ``fail_global`` every search of the global list is answered 503."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.searches: list[tuple[str, str]] = []
        self.fail_global = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        params = dict(request.url.params)
        params.update({k: v[0] for k, v in parse_qs(request.content.decode()).items()})
        if request.url.path.endswith("/search"):
            campaign = params.get("campaign_id", "")
            self.searches.append((params.get("phone_number", ""), campaign))
            if self.fail_global and campaign == "0":
                return httpx.Response(503, text="<html>Service Unavailable</html>", request=request)
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _seed(
    sandbox: Any, number: str, inserted: dt.date | str, campaign: str = "0", table: str = "dnc"
) -> str:
    sandbox.store.execute(
        f"INSERT INTO {table}(phone_number, phone_code, campaign_id, reason, purpose, insert_date)"
        " VALUES (?, '1', ?, '', '', ?)",
        (number, int(campaign), f"{inserted} 09:30:00"),
    )
    (row,) = sandbox.store.all(
        f"SELECT id FROM {table} WHERE phone_number = ? AND campaign_id = ?",
        (number, int(campaign)),
    )
    return str(row["id"])


def _business_days_ago(days: int) -> dt.date:
    day = TODAY
    while business_days_between(day, TODAY) < days:
        day -= dt.timedelta(days=1)
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


def test_a_late_inserted_campaign_row_counts_to_an_older_global_entry(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    campaign = sandbox.seed_campaign("Spring outreach")
    asked = _business_days_ago(14)
    recent_ask = _business_days_ago(3)
    # N3 #1's row 25; one listed globally after its request (late still, counted to that
    # entry); one late with no global entry; and one not late, which costs no global look-up.
    since_2023, global_after, nowhere, not_late = (f"303619344{i}" for i in range(4))
    listed_after = _business_days_ago(2)  # 12 business days after the request
    ids = {
        since_2023: _seed(sandbox, since_2023, "2023-06-08"),
        global_after: _seed(sandbox, global_after, listed_after),
    }
    _seed(sandbox, not_late, "2023-06-08")
    wire = Wire()
    store = _run(
        tmp_path,
        sandbox,
        journal,
        wire,
        [
            [since_2023, asked.isoformat()],
            [global_after, asked.isoformat()],
            [nowhere, asked.isoformat()],
            [not_late, recent_ask.isoformat()],
        ],
        Scope.campaign(campaign),
    )
    rows = {r.national: r for r in store.rows()}
    assert {r.outcome for r in rows.values()} == {"inserted"}, rows
    assert rows[since_2023].message.endswith(
        f"on the list since 2023-06-08 (global entry {ids[since_2023]}), before the request was "
        f"received: not late; {GLOBAL}"
    ), rows[since_2023].message
    assert rows[since_2023].honoured_on == "2023-06-08"
    late_days = business_days_between(asked, listed_after)
    assert rows[global_after].message.endswith(
        late_sentence(
            asked,
            late_days,
            f"{listed_after}, when global entry {ids[global_after]} put the number on the list",
        )
        + f"; {GLOBAL}"
    ), rows[global_after].message
    assert rows[global_after].honoured_on == listed_after.isoformat()
    assert GLOBAL not in rows[nowhere].message + rows[not_late].message
    assert rows[nowhere].honoured_on == rows[not_late].honoured_on == ""
    # One global search for each late row, none for the row in time; inserts search nothing.
    # The rows still late after it also search the number's other written forms, in the
    # campaign and on the global list (S21 F4).
    other_forms = [
        (form, where)
        for n in (global_after, nowhere)
        for form in (f"1{n}", f"001{n}", f"0111{n}")
        for where in (str(campaign), "0")
    ]
    assert sorted(wire.searches) == sorted(
        [*((n, "0") for n in (since_2023, global_after, nowhere)), *other_forms]
    ), wire.searches


def test_a_late_inserted_sms_purpose_row_counts_to_a_global_opt_out(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    number = "3036193450"
    opt_out = _seed(sandbox, number, "2023-06-08", table="sms_opt_out")
    store = _run(
        tmp_path,
        sandbox,
        journal,
        Wire(),
        [[number, _business_days_ago(14).isoformat()]],
        Scope.purpose("Surveys"),
        Target.SMS_OPT_OUT,
    )
    (row,) = store.rows()
    assert row.outcome == "inserted"
    assert row.message.endswith(
        f"on the list since 2023-06-08 (global entry {opt_out}), before the request was "
        f"received: not late; {GLOBAL}"
    ), row.message
    assert row.honoured_on == "2023-06-08"


def test_a_late_inserted_row_whose_global_look_up_fails_says_so(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    campaign = sandbox.seed_campaign("Spring outreach")
    number = "3036193460"
    _seed(sandbox, number, "2023-06-08")
    wire = Wire()
    wire.fail_global = True
    store = _run(
        tmp_path,
        sandbox,
        journal,
        wire,
        [[number, _business_days_ago(14).isoformat()]],
        Scope.campaign(campaign),
    )
    (row,) = store.rows()
    assert row.outcome == "inserted"
    assert (
        "whether a global entry, which covers every campaign and purpose, put the number on the "
        "list sooner could not be checked (the look-up failed: " in row.message
    ), row.message
    assert row.honoured_on == ""


def test_a_present_row_listed_one_business_day_after_its_request_says_day(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    number = "3036193470"
    asked = _business_days_ago(5)
    listed = asked + dt.timedelta(days=1)
    while business_days_between(asked, listed) < 1:
        listed += dt.timedelta(days=1)
    entry = _seed(sandbox, number, listed)
    store = _run(tmp_path, sandbox, journal, Wire(), [[number, asked.isoformat()]], Scope.global_())
    (row,) = store.rows()
    assert row.message.endswith(
        f"on the list since {listed} (entry {entry}), 1 business day after the request was "
        "received: not late"
    ), row.message
