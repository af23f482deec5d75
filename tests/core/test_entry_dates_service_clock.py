"""Already-present entries' insert dates, read on the service's clock (the spec gives the date
neither a format nor a time zone).

Black-box B32 F1: a service whose insert dates are days ("2026-11-24") had entries THIS job
inserted (their answers lost) called "already on the list before this job": a bare day was read
as its midnight, more than 26 hours before the job. A day only proves the entry existed by its
end.

Black-box B32 F2: an already-present row was measured to its entry's day by the service's
clock, an inserted row to its insertion by this computer's: with the service at UTC-12 and the
computer at UTC+14, one real day was 10 business days (not late) on one row and 11 (late) on
the other. The job learns the service's offset from an entry it inserted and dates entries by
this computer's clock; when it cannot, a row whose verdict a day's shift would change says so.
"""

from __future__ import annotations

import csv
import datetime as dt
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.api.models import DncEntry, listed_by
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core import import_job
from app.core.connections import Connection
from app.core.import_job import (
    BEFORE_JOB,
    ServiceClock,
    _entry_words,
    _is_late,
    _listing_words,
    run_import,
    stage_import,
)
from app.core.job_exec import job_summary
from app.core.job_report import MAYBE_INSERTED, maybe_inserted
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.session import Session, e164, journal_target
from app.core.sheet_check import Target
from tests.conftest import TOKEN

FAST = RetryPolicy(attempts=4, base_delay=0.001, max_delay=0.002)
NUMBERS = [f"30355502{i:02d}" for i in range(30)]
BARE_DAY_TRIGGER = (
    "CREATE TRIGGER bare_day AFTER INSERT ON {table} BEGIN UPDATE {table} "
    "SET insert_date = substr(NEW.insert_date, 1, 10) WHERE id = NEW.id; END;"
)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


@pytest.fixture
def kiritimati(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This computer at UTC+14 (its date is the one request dates and insertions are on)."""
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _entry(stamp: str, entry_id: str = "7") -> DncEntry:
    return DncEntry(entry_id, "3035550008", "1", Scope.global_(), "", "", stamp, "", "")


def _stage(tmp_path: Path, rows: list[list[str]], target: Target = Target.DNC) -> JobStore:
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "in.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["phone", "Date received"], *rows])
    settings = JobSettings(path, Scope.global_(), target=target)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    return store


def _run(store: JobStore, server: Any, journal: ChangeJournal) -> dict[str, Any]:
    api = ApiClient(server.base_url, TOKEN, retry=FAST)
    session = Session(Connection("Sandbox", server.base_url), api, journal)
    try:
        assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    finally:
        session.close()
    return job_summary(store)


# ---------------------------------------------------------------- F1: a bare day


def test_a_bare_day_counts_as_its_end() -> None:
    assert listed_by("2026-11-24") == dt.datetime(2026, 11, 25)
    assert listed_by("2026-11-24 13:05:00") == dt.datetime(2026, 11, 24, 13, 5)
    assert listed_by("") is None


def test_an_entry_of_the_day_before_the_job_is_not_called_before_it() -> None:
    since = dt.datetime(2026, 11, 25, 3, 0)  # the job's start, UTC
    # 2026-11-24 may be this job's own entry (the service's clock is behind UTC).
    before, found = _entry_words([_entry("2026-11-24")], since)
    assert before == ""
    assert "entry 7 found, inserted 2026-11-24" in found
    # A day that ended more than the slack before the job is before it.
    before, _ = _entry_words([_entry("2026-11-22")], since)
    assert before == BEFORE_JOB.format(id="7", date="2026-11-22")
    # A time keeps its own moment.
    before, _ = _entry_words([_entry("2026-11-24 00:30:00")], since)
    assert before == BEFORE_JOB.format(id="7", date="2026-11-24 00:30:00")


@pytest.mark.parametrize("target", [Target.DNC, Target.SMS_OPT_OUT])
def test_own_inserts_dated_by_day_are_counted_as_maybe_inserted(
    make_sandbox: Any,
    journal: ChangeJournal,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    target: Target,
) -> None:
    server = make_sandbox(seed=7)
    table = "dnc" if target is Target.DNC else "sms_opt_out"
    server.store.execute(BARE_DAY_TRIGGER.format(table=table))
    day = dt.datetime.now().date()  # the sandbox's day, cut from its stamps
    # The job started 27 hours after the service's midnight (as B32 F1's did, at 03:00 UTC
    # with the service at UTC-12): a day's midnight is then more than 26 hours before it.
    start = dt.datetime.combine(day, dt.time()) + dt.timedelta(hours=27)
    monkeypatch.setattr(import_job, "job_start", lambda meta: start)
    store = _stage(tmp_path, [[n, ""] for n in NUMBERS], target)
    server.set_faults(drop_rate=0.3)
    s = _run(store, server, journal)
    server.set_faults(drop_rate=0.0)

    present = [r for r in store.rows() if r.outcome == "already_present"]
    assert present, "the drop fault lost no answer"
    # The list was empty: every such row is this job's own insert, its answer lost.
    assert not [r.message for r in present if "before this job" in r.message]
    assert all(maybe_inserted(r) for r in present)
    assert s[MAYBE_INSERTED] == len(present)


# ---------------------------------------------------------------- F2: the service's clock


def test_the_offset_is_learnt_from_an_inserted_entry_when_plausible() -> None:
    answered = dt.datetime(2026, 11, 25, 2, 43, 10, tzinfo=dt.UTC)
    clock = ServiceClock()
    clock.learn("2026-11-24 14:43:08", answered)
    assert clock.offset == dt.timedelta(hours=-12)
    clock = ServiceClock()
    clock.learn("2026-11-25 08:13:07", answered)  # UTC+5:30
    assert clock.offset == dt.timedelta(hours=5, minutes=30)
    # Neither a day nor a stamp far from a 15-minute step nor beyond UTC+14 tells it.
    for stamp in ("2026-11-24", "2026-11-25 02:50:10", "2026-11-26 00:43:10"):
        clock = ServiceClock()
        clock.learn(stamp, answered)
        assert clock.offset is None, stamp


def test_an_entry_is_dated_by_this_computers_clock(kiritimati: None) -> None:
    clock = ServiceClock()
    clock.learn("2026-11-24 14:43:08", dt.datetime(2026, 11, 25, 2, 43, 10, tzinfo=dt.UTC))
    # 14:43 at UTC-12 is 02:43 UTC, 16:43 at UTC+14: the next day here.
    assert clock.day("2026-11-24 14:43:08") == (dt.date(2026, 11, 25), True)
    assert clock.day("2026-11-24") == (dt.date(2026, 11, 24), False)
    assert ServiceClock().day("2026-11-24 14:43:08") == (dt.date(2026, 11, 24), False)


def test_a_verdict_a_days_shift_would_change_is_not_certain(kiritimati: None) -> None:
    received, today = dt.date(2026, 11, 9), dt.date(2026, 11, 25)
    first = (dt.date(2026, 11, 24), _entry("2026-11-24 14:43:08"), False, "")
    text, _ = _listing_words(received, today, first, "", clock=ServiceClock())
    assert "10 business days after the request was received: not late" in text
    assert "not certain: entry 7's date is the service's" in text
    assert "a day later on this computer's clock would make the request late" in text
    # Far from the limit, a day changes nothing: nothing is said.
    text, _ = _listing_words(dt.date(2026, 11, 20), today, first, "", clock=ServiceClock())
    assert "not certain" not in text
    # With the clock learnt, the entry's day here is said.
    clock = ServiceClock()
    clock.learn("2026-11-24 14:43:08", dt.datetime(2026, 11, 25, 2, 43, 10, tzinfo=dt.UTC))
    moved = (dt.date(2026, 11, 25), first[1], False, "")
    text, honoured = _listing_words(received, today, moved, "", clock=clock)
    assert "11 business days before 2026-11-25" in text
    assert "entry 7 inserted 2026-11-24 14:43:08 by the service's clock (UTC-12:00)" in text
    assert "not certain" not in text and honoured == "2026-11-25"


def _service_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sandbox's clock at UTC-12."""

    def stamp() -> str:
        return f"{dt.datetime.now(dt.UTC) - dt.timedelta(hours=12):%Y-%m-%d %H:%M:%S}"

    monkeypatch.setattr("app.sandbox.routes_dnc.now_timestamp", stamp)


def _request_between(listed: dt.date, today: dt.date) -> dt.date:
    """A request day not late counted to ``listed`` and late counted to ``today``."""
    for back in range(10, 25):
        received = listed - dt.timedelta(days=back)
        if not _is_late(received, listed) and _is_late(received, today):
            return received
    pytest.skip(f"no request day tells {listed} from {today} (a weekend between)")


def test_present_and_inserted_rows_of_one_real_day_agree(
    make_sandbox: Any,
    journal: ChangeJournal,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kiritimati: None,
) -> None:
    server = make_sandbox()
    _service_behind(monkeypatch)
    today = dt.date.today()  # UTC+14
    service_day = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=12)).date()
    received = _request_between(service_day, today)
    _run(_stage(tmp_path / "pre", [["3035550008", ""]]), server, journal)
    # The inserted row first, so its entry has told the clock before the present row is
    # measured.
    store = _stage(tmp_path, [["3035550098", f"{received}"], ["3035550008", f"{received}"]])
    s = _run(store, server, journal)

    rows = {r.national: r for r in store.rows()}
    assert rows["3035550098"].outcome == "inserted"
    assert rows["3035550008"].outcome == "already_present"
    # Both were put on the list on this computer's same day: both late.
    assert s["late_requests"] == 2
    assert "by the service's clock (UTC-12:00)" in rows["3035550008"].message


def test_a_present_row_not_certain_when_nothing_tells_the_clock(
    make_sandbox: Any,
    journal: ChangeJournal,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kiritimati: None,
) -> None:
    server = make_sandbox()
    _service_behind(monkeypatch)
    service_day = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=12)).date()
    received = _request_between(service_day, service_day + dt.timedelta(days=1))
    _run(_stage(tmp_path / "pre", [["3035550008", ""]]), server, journal)
    store = _stage(tmp_path, [["3035550008", f"{received}"]])
    _run(store, server, journal)

    (row,) = store.rows()
    assert row.outcome == "already_present"
    assert "not late" in row.message
    assert "not certain: entry 1's date is the service's" in row.message


# ---------------------------------------------------------------- B33-1: another job's entry


class OtherJobFirst(httpx.BaseTransport):
    """Forwards to the sandbox; before this job's insert of ``number``, another job of the same
    data folder inserts it (the entry made in the sandbox, its answered insert recorded in the
    change journal as a session records it), as a second import running at once would."""

    def __init__(self, server: Any, journal: ChangeJournal, number: str) -> None:
        self._http = httpx.HTTPTransport()
        self.server, self.journal, self.number = server, journal, number

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/dnc/insert") and self.number in request.content.decode():
            time.sleep(1.1)  # past the second this job started in
            self.server.bulk_seed_dnc([(self.number, "1", "0", "", "")])
            (entry,) = self.server.store.all(
                "SELECT id FROM dnc WHERE phone_number = ?", (self.number,)
            )
            intent = self.journal.record_intent(
                connection="Sandbox",
                base_url=self.server.base_url,
                operation="dnc.insert",
                target=journal_target("dnc", self.number, "1", Scope.global_()),
                phone=e164(self.number, "1"),
                job="import-other-job",
            )
            self.journal.record_outcome(intent, outcome="ok", after={"id": str(entry["id"])})
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


def test_a_number_another_job_inserted_meanwhile_names_that_job(
    make_sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    server = make_sandbox()
    server.bulk_seed_dnc([("3035550001", "1", "0", "", "")])  # listed before the job
    wire = OtherJobFirst(server, journal, "3035550002")
    api = ApiClient(server.base_url, TOKEN, retry=FAST, http_transport=wire)
    session = Session(Connection("Sandbox", server.base_url), api, journal)
    store = _stage(tmp_path, [["3035550001", ""], ["3035550002", ""], ["3035550003", ""]])
    try:
        assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    finally:
        session.close()

    rows = {r.national: r for r in store.rows()}
    assert [rows[n].outcome for n in sorted(rows)] == [
        "already_present",
        "already_present",
        "inserted",
    ]
    assert rows["3035550001"].message == "Phone number already in DNC"
    said = rows["3035550002"].message
    assert said.startswith("already on the list: inserted by job import-other-job (entry 2, "), said
    assert said.endswith("not by this job"), said
    assert not maybe_inserted(rows["3035550002"])


# ---------------------------------------------------------------- B33-2: a campaign removed


class CampaignRemoved(httpx.BaseTransport):
    """Forwards to the sandbox; the campaign ``campaign`` is deleted after ``after`` inserts."""

    def __init__(self, server: Any, campaign: str, after: int) -> None:
        self._http = httpx.HTTPTransport()
        self.server, self.campaign, self.left = server, campaign, after

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/dnc/insert"):
            if self.left == 0:
                self.server.store.execute("DELETE FROM campaigns WHERE id = ?", (self.campaign,))
            self.left -= 1
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


def test_a_campaign_refused_as_invalid_during_the_job_is_named_in_a_warning(
    make_sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    server = make_sandbox()
    campaign = server.seed_campaign("Spring Renewals")
    path = tmp_path / "in.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["phone"], *[[n] for n in NUMBERS[:5]]])
    settings = JobSettings(path, Scope.campaign(campaign))
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    wire = CampaignRemoved(server, campaign, after=2)
    api = ApiClient(server.base_url, TOKEN, retry=FAST, http_transport=wire)
    session = Session(Connection("Sandbox", server.base_url), api, journal)
    try:
        assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    finally:
        session.close()

    s = job_summary(store)
    assert (s["inserted"], s["failed"]) == (2, 3)
    (warning,) = [w for w in store.meta().get("warnings") or [] if "code 6026" in w]
    assert warning.startswith(
        f"The service refused campaign {campaign} (3 rows, after 2 inserted in it) as invalid"
    )
    assert "may have been removed while the job ran" in warning
    assert "import them (the report's failed rows) under another scope" in warning
    # The rows stay failed, each saying what the service answered.
    assert all("code 6026" in r.message for r in store.rows() if r.outcome == "failed")
