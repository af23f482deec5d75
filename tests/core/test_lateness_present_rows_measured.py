"""Already-present rows are all measured to the day their number was first on the list, a
failed look-up of that day is said in the job's warnings, an entry from before the job settles
a row an attempt of this job might have inserted, and a row in a campaign or purpose counts a
global entry too (re-test M2 #2, #3, #4, #7).

M2 #2: only a row that would be late counted to today was looked up, so a4_recent.csv's number
listed since 2023 with a request three business days old said "3 business days" and just
"Phone number already in DNC". M2 #3: at --error-rate 0.8, 7 of 9 late requests were late only
because "when the number was first on the list could not be checked", with ``warnings: []``.
M2 #4: a row whose retried insert found the number listed said "…that attempt may have
inserted it; … on the list since 2021-07-03 (entry 3), before the request was received" and was
counted in ``already_present_maybe_inserted``. M2 #7: a campaign row was late at 34 business
days, counted to its campaign entry, though the number had been on the global list since 2024.

Run through the real import job against a sandbox over loopback; entries and their insert dates
are written into the sandbox's database before the run (its API stamps the day it inserts).
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.cli.import_cmd import print_result, result_summary
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_report import (
    LATE_UNCHECKED,
    MAYBE_INSERTED,
    PRESENT_UNCHECKED,
    RETRIED_PRESENT,
    maybe_inserted,
    write_report,
)
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.core.sheet_check import Target
from app.core.sheet_dates import business_days_between, late_sentence
from tests.conftest import TOKEN

TWO_TRIES = RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.002)
TODAY = dt.datetime.now(dt.UTC).date()  # the day the job counts to
GLOBAL = "a global entry covers every campaign and purpose"


class Wire(httpx.BaseTransport):
    """Forwards every request to the sandbox, recording each search's number and campaign;
    the first ``fail_searches[number]`` searches of a number (every one for -1) are answered
    503 (with ``fail_global``, every search of the global list), and the first attempt of an
    insert of a number in ``lose_insert`` is lost before the service reads it (a timeout: the
    client cannot tell it was not done)."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.searches: list[tuple[str, str]] = []
        self.fail_searches: dict[str, int] = {}
        self.lose_insert: set[str] = set()
        self.fail_global = False  # every search of the global list answered 503

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        params = dict(request.url.params)
        params.update({k: v[0] for k, v in parse_qs(request.content.decode()).items()})
        number = params.get("phone_number", "")
        if request.url.path.endswith("/search"):
            self.searches.append((number, params.get("campaign_id", "")))
            left = self.fail_searches.get(number, 0)
            if self.fail_global and params.get("campaign_id") == "0":
                return httpx.Response(503, text="<html>Service Unavailable</html>", request=request)
            if left:
                self.fail_searches[number] = left - 1 if left > 0 else left
                return httpx.Response(503, text="<html>Service Unavailable</html>", request=request)
        elif request.url.path.endswith("/insert") and number in self.lose_insert:
            self.lose_insert.discard(number)
            raise httpx.ReadTimeout("timed out reading the answer", request=request)
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()

    def count(self, number: str) -> int:
        return sum(1 for n, _ in self.searches if n == number)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _seed(
    sandbox: Any,
    number: str,
    inserted: dt.date | str,
    campaign: str = "0",
    purpose: str = "",
    table: str = "dnc",
) -> str:
    """Put ``number`` on the list (``table``) in ``campaign`` as inserted on ``inserted``;
    returns its entry id."""
    sandbox.store.execute(
        f"INSERT INTO {table}(phone_number, phone_code, campaign_id, reason, purpose, insert_date)"
        " VALUES (?, '1', ?, '', ?, ?)",
        (number, int(campaign), purpose, f"{inserted} 09:30:00"),
    )
    (row,) = sandbox.store.all(
        f"SELECT id FROM {table} WHERE phone_number = ? AND campaign_id = ?",
        (number, int(campaign)),
    )
    return str(row["id"])


def _run(
    tmp_path: Path,
    sandbox: Any,
    journal: ChangeJournal,
    wire: Wire,
    rows: list[list[str]],
    scope: Scope | None = None,
    target: Target = Target.DNC,
) -> tuple[JobStore, dict[str, Any]]:
    path = tmp_path / "requests.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["Phone", "Date received"], *rows])
    settings = JobSettings(path, scope or Scope.global_(), target=target)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=TWO_TRIES)
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    try:
        assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    finally:
        session.close()
    return store, job_summary(store)


def _report(path: str) -> tuple[list[tuple[Any, ...]], dict[str, tuple[Any, ...]]]:
    book = openpyxl.load_workbook(path)
    try:
        summary = list(book["Summary"].iter_rows(values_only=True))
        header, *rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    number = header.index("Normalized number")
    return summary, {str(r[number]): r for r in rows}


def _business_days_ago(days: int) -> dt.date:
    day = TODAY
    while business_days_between(day, TODAY) < days:
        day -= dt.timedelta(days=1)
    return day


# ---------------------------------------------------------------- M2 #2: every present row


def test_a_present_row_not_late_counted_to_today_is_measured_to_its_entry_too(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    # a4_recent.csv: listed since 2023, asked three business days ago; a8.csv row 3: the entry
    # a day before the request; and one listed two days after its request, within the limit.
    since_2023, day_before, after = "3035557101", "3035557102", "3035557103"
    asked = _business_days_ago(3)
    asked_a_week_ago = _business_days_ago(6)
    listed_after = asked_a_week_ago + dt.timedelta(days=2)
    ids = {
        since_2023: _seed(sandbox, since_2023, "2023-06-08"),
        day_before: _seed(sandbox, day_before, asked - dt.timedelta(days=1)),
        after: _seed(sandbox, after, listed_after),
    }
    wire = Wire()
    store, summary = _run(
        tmp_path,
        sandbox,
        journal,
        wire,
        [
            [since_2023, asked.isoformat()],
            [day_before, asked.isoformat()],
            [after, asked_a_week_ago.isoformat()],
        ],
    )
    rows = {r.national: r for r in store.rows()}
    assert {r.outcome for r in rows.values()} == {"already_present"}
    assert rows[since_2023].message == (
        f"Phone number already in DNC; on the list since 2023-06-08 (entry {ids[since_2023]}), "
        "before the request was received: not late"
    )
    assert rows[day_before].message.endswith(
        f"on the list since {asked - dt.timedelta(days=1)} (entry {ids[day_before]}), before the "
        "request was received: not late"
    ), rows[day_before].message
    in_time = business_days_between(asked_a_week_ago, listed_after)
    assert rows[after].message.endswith(
        f"on the list since {listed_after} (entry {ids[after]}), {in_time} business days after "
        "the request was received: not late"
    ), rows[after].message
    assert (rows[since_2023].honoured_on, rows[after].honoured_on) == (
        "2023-06-08",
        listed_after.isoformat(),
    )
    # The report's business days count to those days, not to today.
    _, report_rows = _report(summary["report"])
    days = {n: r[-2] for n, r in report_rows.items()}
    assert days == {since_2023: 0, day_before: 0, after: in_time}, days
    assert in_time < business_days_between(asked_a_week_ago, TODAY)
    # One look-up each, in the row's scope.
    assert sorted(wire.searches) == sorted((n, "0") for n in ids), wire.searches
    assert summary["late_requests"] == 0


def test_a_present_row_without_a_request_date_costs_no_look_up(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    number = "3035557111"
    _seed(sandbox, number, "2023-06-08")
    wire = Wire()
    store, _ = _run(tmp_path, sandbox, journal, wire, [[number, ""]])
    (row,) = store.rows()
    assert row.outcome == "already_present"
    assert row.message == "Phone number already in DNC"
    assert wire.searches == []


# ---------------------------------------------------------------- M2 #3: said in the warnings


def test_present_rows_whose_look_up_failed_are_counted_in_the_jobs_warnings(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    numbers = [f"30355572{i:02d}" for i in range(9)]
    asked_long_ago = TODAY - dt.timedelta(days=60)
    for n in numbers:
        _seed(sandbox, n, "2021-07-03")
    late_unchecked = numbers[:6]  # on the list since 2021, but their look-ups fail
    recent_unchecked = numbers[6]  # its look-up fails too; not late counted to today
    checked = numbers[7:]  # looked up: not late
    new = "3035557299"  # not listed: inserted today, late
    wire = Wire()
    wire.fail_searches = {n: -1 for n in [*late_unchecked, recent_unchecked]}
    rows_in = [[n, asked_long_ago.isoformat()] for n in numbers]
    rows_in[6] = [recent_unchecked, _business_days_ago(2).isoformat()]
    store, summary = _run(
        tmp_path, sandbox, journal, wire, [*rows_in, [new, asked_long_ago.isoformat()]]
    )
    rows = {r.national: r for r in store.rows()}
    source = {n: r.row_number for n, r in rows.items()}
    assert summary["late_requests"] == 7  # six unchecked present rows and the new one
    assert rows[recent_unchecked].message.startswith(
        "Phone number already in DNC; when the number was first on the list could not be "
        "checked (the look-up failed: "
    ), rows[recent_unchecked].message
    assert all("on the list since 2021-07-03" in rows[n].message for n in checked)

    late_rows = ", ".join(str(source[n]) for n in late_unchecked[:5])
    present_rows = late_rows  # the first five rows named are the same
    sentence = (
        "7 already-present rows could not be checked against the day the number was first on "
        "the list (a look-up failed), so their requests are counted to the day the job found "
        f"the number or to the later entry found: rows {present_rows} and 2 more. 6 of the 7 "
        f"late requests are among them (rows {late_rows} and 1 more): they may have been "
        "honoured sooner, even before the request was received."
    )
    meta = store.meta()
    assert meta["warnings"] == [sentence], meta.get("warnings")
    assert (meta[PRESENT_UNCHECKED], meta[LATE_UNCHECKED]) == (7, 6)
    # The report's Summary and the CLI's JSON warnings and notes say it.
    sheet, _ = _report(summary["report"])
    assert ("Warning", sentence) in sheet, sheet
    assert result_summary(store)["warnings"] == [sentence]
    out = io.StringIO()
    with redirect_stdout(out):
        print_result(store, argparse.Namespace(json=False), "done")
    assert f"  note: {sentence}" in out.getvalue().splitlines()

    # Written again (the GUI rewrites a job's report), the sentence is there once.
    write_report(store, Path(summary["report"]))
    assert store.meta()["warnings"] == [sentence]
    sheet, _ = _report(summary["report"])
    assert [r for r in sheet if r[0] and str(r[0]).startswith("Warning")] == [("Warning", sentence)]


def test_staging_warnings_stay_beside_the_unchecked_sentence(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    number = "3035557301"
    _seed(sandbox, number, "2021-07-03")
    wire = Wire()
    wire.fail_searches = {number: -1}
    # A request date that is not a date: staging warns of it.
    store, summary = _run(
        tmp_path,
        sandbox,
        journal,
        wire,
        [[number, (TODAY - dt.timedelta(days=60)).isoformat()], ["3035557302", "N/A"]],
    )
    warnings = store.meta()["warnings"]
    assert len(warnings) == 2, warnings
    assert "request date could not be read (row 3)" in warnings[0]
    assert warnings[1].startswith(
        "1 already-present row could not be checked against the day the number was first on "
        "the list (a look-up failed), so its request is counted to the day the job found the "
        "number or to the later entry found: row 2. 1 of the 1 late requests is among them "
        "(row 2): it may have been honoured sooner"
    ), warnings[1]
    sheet, _ = _report(summary["report"])
    assert [r[1] for r in sheet if str(r[0]).startswith("Warning ")] == warnings


# ---------------------------------------------------------------- M2 #4: before the job


def test_an_entry_the_date_look_up_finds_from_before_the_job_is_not_counted_as_the_jobs(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    # The insert's first answer is lost; the retry finds the number listed (since 2021), the
    # look-up made for that fails, and the one made for the request's day finds the entry.
    number = "3035557401"
    entry = _seed(sandbox, number, "2021-07-03")
    wire = Wire()
    wire.lose_insert = {number}
    wire.fail_searches = {number: 2}  # both tries of the first look-up
    asked = TODAY - dt.timedelta(days=60)
    store, summary = _run(tmp_path, sandbox, journal, wire, [[number, asked.isoformat()]])
    (row,) = store.rows()
    assert row.outcome == "already_present"
    assert row.message == (
        f"already on the list before this job (entry {entry}, inserted 2021-07-03 09:30:00); "
        f"answered after 2 attempts; on the list since 2021-07-03 (entry {entry}), before the "
        "request was received: not late"
    ), row.message
    assert RETRIED_PRESENT not in row.message
    assert not maybe_inserted(row)
    assert summary[MAYBE_INSERTED] == 0
    assert summary["late_requests"] == 0
    assert wire.count(number) == 3  # the failed look-up's two tries, and the date look-up


def test_a_retried_row_whose_look_ups_all_fail_still_may_be_the_jobs(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    number = "3035557402"
    _seed(sandbox, number, "2021-07-03")
    wire = Wire()
    wire.lose_insert = {number}
    wire.fail_searches = {number: -1}
    store, summary = _run(
        tmp_path, sandbox, journal, wire, [[number, (TODAY - dt.timedelta(days=60)).isoformat()]]
    )
    (row,) = store.rows()
    assert row.message.startswith(RETRIED_PRESENT), row.message
    assert maybe_inserted(row)
    assert summary[MAYBE_INSERTED] == 1


# ---------------------------------------------------------------- M2 #7: the global entry


def test_a_campaign_row_counts_to_the_global_entry_when_it_is_older(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    campaign = sandbox.seed_campaign("Spring outreach")
    recent = TODAY - dt.timedelta(days=3)
    asked = TODAY - dt.timedelta(days=60)
    # a1_scopes.xlsx row 11: on the global list since 2024, its campaign entry recent.
    global_2024, global_later, campaign_only, campaign_first = (
        f"303555750{i}" for i in range(1, 5)
    )
    listed_late = asked + dt.timedelta(days=30)
    ids = {
        global_2024: _seed(sandbox, global_2024, "2024-03-04"),
        global_later: _seed(sandbox, global_later, listed_late),
        campaign_first: _seed(sandbox, campaign_first, "2022-01-10", campaign),
    }
    in_campaign = {n: _seed(sandbox, n, recent, campaign) for n in (global_2024, global_later)}
    in_campaign[campaign_only] = _seed(sandbox, campaign_only, recent, campaign)
    wire = Wire()
    store, summary = _run(
        tmp_path,
        sandbox,
        journal,
        wire,
        [
            [n, asked.isoformat()]
            for n in (global_2024, global_later, campaign_only, campaign_first)
        ],
        scope=Scope.campaign(campaign),
    )
    rows = {r.national: r for r in store.rows()}
    assert {r.outcome for r in rows.values()} == {"already_present"}, rows
    assert rows[global_2024].message.endswith(
        f"on the list since 2024-03-04 (global entry {ids[global_2024]}), before the request was "
        f"received: not late; {GLOBAL}"
    ), rows[global_2024].message
    late_days = business_days_between(asked, listed_late)
    assert rows[global_later].message.endswith(
        late_sentence(
            asked,
            late_days,
            f"{listed_late}, when global entry {ids[global_later]} put the number on the list",
        )
        + f"; {GLOBAL}"
    ), rows[global_later].message
    assert rows[campaign_only].message.endswith(
        late_sentence(
            asked,
            business_days_between(asked, recent),
            f"{recent}, when entry {in_campaign[campaign_only]} put the number on the list",
        )
    ), rows[campaign_only].message
    assert rows[campaign_first].message.endswith(
        f"on the list since 2022-01-10 (entry {ids[campaign_first]}), before the request was "
        "received: not late"
    ), rows[campaign_first].message
    assert GLOBAL not in rows[campaign_first].message + rows[campaign_only].message

    assert summary["late_requests"] == 2  # global_later and campaign_only
    _, report_rows = _report(summary["report"])
    days = {n: r[-2] for n, r in report_rows.items()}
    assert days[global_2024] == days[campaign_first] == 0
    assert days[global_later] == late_days
    # The global list is searched only for rows whose campaign entry is after the request.
    assert sorted(wire.searches) == sorted(
        [
            *[(n, campaign) for n in rows],
            (global_2024, "0"),
            (global_later, "0"),
            (campaign_only, "0"),
            # The rows still late after those look-ups also search the number's other written
            # forms, in the campaign and on the global list (S21 F4); no row in time does.
            *[
                (form, where)
                for n in (global_later, campaign_only)
                for form in (f"1{n}", f"001{n}", f"0111{n}")
                for where in (campaign, "0")
            ],
        ]
    ), wire.searches


def test_a_failed_global_look_up_is_said_and_counted(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    campaign = sandbox.seed_campaign("Spring outreach")
    number = "3035557511"
    recent = TODAY - dt.timedelta(days=3)
    entry = _seed(sandbox, number, recent, campaign)
    _seed(sandbox, number, "2024-03-04")
    asked = TODAY - dt.timedelta(days=60)
    wire = Wire()
    wire.fail_global = True
    store, summary = _run(
        tmp_path,
        sandbox,
        journal,
        wire,
        [[number, asked.isoformat()]],
        scope=Scope.campaign(campaign),
    )
    (row,) = store.rows()
    said = late_sentence(
        asked,
        business_days_between(asked, recent),
        f"{recent}, when entry {entry} put the number on the list",
    )
    assert (
        f"{said}; whether an earlier entry put the number on the list could not be checked "
        "(on the global list, the look-up failed: " in row.message
    ), row.message
    assert row.honoured_on == recent.isoformat()
    assert summary["late_requests"] == 1
    assert store.meta()[LATE_UNCHECKED] == 1


def test_an_sms_purpose_row_counts_to_a_global_opt_out(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    number = "3035557521"
    recent = TODAY - dt.timedelta(days=3)
    _seed(sandbox, number, recent, "-1", "Surveys", table="sms_opt_out")
    opt_out = _seed(sandbox, number, "2024-03-04", table="sms_opt_out")
    wire = Wire()
    store, summary = _run(
        tmp_path,
        sandbox,
        journal,
        wire,
        [[number, (TODAY - dt.timedelta(days=60)).isoformat()]],
        scope=Scope.purpose("Surveys"),
        target=Target.SMS_OPT_OUT,
    )
    (row,) = store.rows()
    assert row.outcome == "already_present"
    assert row.message.endswith(
        f"on the list since 2024-03-04 (global entry {opt_out}), before the request was "
        f"received: not late; {GLOBAL}"
    ), row.message
    assert summary["late_requests"] == 0
    assert sorted(wire.searches) == [(number, "-1"), (number, "0")], wire.searches
