"""Import jobs against the sandbox: exact outcome counts, rows visible in the service, dry run,
per-row scope, SMS with purpose, faults, pause/resume/cancel, the journal and the report."""

from __future__ import annotations

import csv
import re
import threading
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import DEFAULT_RETRY, RetryPolicy
from app.core import job_staging
from app.core.connections import Connection
from app.core.import_job import FOUND_AFTER_ERROR, run_import, stage_import
from app.core.job_exec import finish_dry_run, job_summary
from app.core.job_runner import JobControl, JobProgress
from app.core.job_staging import JobSettings, MappingError
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.core.sheet_check import Target
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_reader import open_sheet
from app.core.sheet_scope import CampaignDirectory
from app.core.sheet_types import SheetError
from tests.conftest import TOKEN


def numbers(n: int, start: int = 0) -> list[str]:
    return [f"(202) 555-{i:04d}" for i in range(start, start + n)]


def write_csv(path: Path, header: list[str], rows: list[list[Any]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def write_xlsx(path: Path, rows: list[list[Any]], title_rows: int = 0) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    for _ in range(title_rows):
        ws.append(["Opt-out requests, November"])
    for row in rows:
        ws.append(row)
    wb.save(path)
    return path


def dnc_rows(sandbox: Any) -> list[tuple[str, str, int, str]]:
    return [
        (r["phone_number"], r["phone_code"], r["campaign_id"], r["purpose"])
        for r in sandbox.store.all("SELECT * FROM dnc ORDER BY id")
    ]


def stage(settings: JobSettings, session: Session, jobs: Path) -> JobStore:
    lookup = CampaignDirectory(session.api.campaigns())
    store, _ = stage_import(settings, jobs, connection=session.connection, campaign_lookup=lookup)
    return store


def test_xlsx_import_exact_counts_and_rows_in_service(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    rows: list[list[Any]] = [["Phone", "Reason"]]
    rows += [[n, "asked"] for n in numbers(40)]
    rows += [[2025550100.0, ""], [12, ""], ["not a number", ""], [None, None], ["202-555-0003", ""]]
    path = write_xlsx(tmp_path / "in.xlsx", rows, title_rows=2)
    sandbox.bulk_seed_dnc([("2025550007", "1", "0", "", "")])
    settings = JobSettings(path, Scope.global_(), name="Nov vendor file", note="ticket 42")
    store = stage(settings, session, tmp_path / "jobs")
    status = run_import(store, session, concurrency=4)
    assert status is JobStatus.FINISHED
    s = job_summary(store)
    assert (s["rows"], s["valid"], s["invalid"], s["duplicates_in_file"], s["blank"]) == (
        45,
        41,
        2,
        1,
        1,
    )
    assert (s["inserted"], s["already_present"], s["failed"], s["not_attempted"]) == (40, 1, 0, 0)
    in_service = dnc_rows(sandbox)
    assert len(in_service) == 41
    assert {r[0] for r in in_service} == {f"202555{i:04d}" for i in range(40)} | {"2025550100"}
    # The report: Summary with name and note, one Rows line per sheet row.
    wb = openpyxl.load_workbook(s["report"], read_only=True)
    summary = dict(wb["Summary"].iter_rows(values_only=True))
    assert summary["Name"] == "Nov vendor file" and summary["Note"] == "ticket 42"
    assert summary["inserted"] == 40 and summary["already_present"] == 1
    report_rows = list(wb["Rows"].iter_rows(values_only=True))[1:]
    assert len(report_rows) == 45
    by_row = {r[0]: r for r in report_rows}
    assert by_row[4][2] == "2025550000" and by_row[4][5] == "inserted"
    assert by_row[min(by_row)][0] == 4  # header on row 3 under two title rows
    assert any(r[5] == "duplicate_in_file" and "row" in r[6] for r in report_rows)
    # Every write is journaled with the job id, the note and its file row (bb5 F3); job
    # start/finish events too.
    job_id = s["job"]
    entries = session.journal.query(job=job_id)
    intents = [e for e in entries if e.phase == "intent"]
    assert len(intents) == 41
    assert all(re.fullmatch(r"ticket 42 \(row [0-9]+\)", e.note) for e in intents)
    operations = {e.operation for e in entries if e.phase == "event"}
    assert {"job.start", "job.finish"} <= operations
    wb.close()


def test_dry_run_sends_nothing(sandbox: Any, session: Session, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "in.csv", ["phone"], [[n] for n in numbers(30)] + [["x"]])
    before = session.api.requests_sent
    store = stage(JobSettings(path, Scope.global_()), session, tmp_path / "jobs")
    report = finish_dry_run(store)
    assert session.api.requests_sent == before + 1  # the campaign lookup only
    assert dnc_rows(sandbox) == []
    s = job_summary(store)
    assert (s["rows"], s["valid"], s["invalid"], s["pending"]) == (31, 30, 1, 30)
    assert s["status"] == JobStatus.DRY_RUN
    wb = openpyxl.load_workbook(report, read_only=True)
    outcomes = [r[5] for r in list(wb["Rows"].iter_rows(values_only=True))[1:]]
    assert outcomes.count("valid (dry run)") == 30 and outcomes.count("invalid") == 1
    summary = dict(wb["Summary"].iter_rows(values_only=True))
    assert summary["valid (dry run: not sent)"] == 30 and summary["Status"] == "dry_run"
    wb.close()


def test_per_row_scope_column_and_campaign_names(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaigns = {c.name: c.id for c in session.api.campaigns()}
    spring = campaigns["Spring Renewals"]
    rows = [
        ["2025550001", "global"],
        ["2025550002", f"campaign:{spring}"],
        ["2025550003", "Spring Renewals"],
        ["2025550004", "purpose:Collections"],
        ["2025550005", "campaign:99999"],
        ["2025550006", ""],
    ]
    path = write_csv(tmp_path / "in.csv", ["Phone", "Scope"], rows)
    store = stage(JobSettings(path, Scope.global_()), session, tmp_path / "jobs")
    run_import(store, session)
    s = job_summary(store)
    # An unknown campaign id is checked against the campaign list fetched for the job: the
    # row is invalid before anything is sent, rather than failing at the service.
    assert (s["inserted"], s["failed"], s["invalid"]) == (5, 0, 1)
    bad = [r for r in store.rows() if r.outcome == "invalid"]
    assert bad[0].message == "row 6: scope: campaign 99999 does not exist on this connection"
    assert "campaign_check" not in store.meta()
    got = {(r[0], r[2], r[3]) for r in dnc_rows(sandbox)}
    assert got == {
        ("2025550001", 0, ""),
        ("2025550002", int(spring), ""),
        ("2025550003", int(spring), ""),
        ("2025550004", -1, "Collections"),
        ("2025550006", 0, ""),
    }


def test_sms_target_with_purpose(sandbox: Any, session: Session, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "in.csv", ["mobile"], [[n] for n in numbers(12)])
    settings = JobSettings(
        path, Scope.purpose("Marketing"), target=Target.SMS_OPT_OUT, reason="STOP reply"
    )
    store = stage(settings, session, tmp_path / "jobs")
    run_import(store, session)
    assert job_summary(store)["inserted"] == 12
    rows = sandbox.store.all("SELECT * FROM sms_opt_out")
    assert len(rows) == 12
    assert {(r["campaign_id"], r["purpose"], r["reason"]) for r in rows} == {
        (-1, "Marketing", "STOP reply")
    }


def test_faults_every_row_accounted(make_sandbox: Any, tmp_path: Path) -> None:
    server = make_sandbox(error_rate=0.15, drop_rate=0.1, rate_limit=6000)
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    # The default attempts with shorter backoff after a 5xx or a drop. A 429's Retry-After
    # (always 1 s here) is still honoured in full: the client caps it at 4 * max_delay = 1 s.
    quicker = RetryPolicy(attempts=DEFAULT_RETRY.attempts, base_delay=0.01, max_delay=0.25)
    session = Session(
        Connection("Flaky", server.base_url),
        ApiClient(server.base_url, TOKEN, retry=quicker),
        journal,
    )
    path = write_csv(tmp_path / "in.csv", ["phone"], [[n] for n in numbers(300)])
    store = stage(JobSettings(path, Scope.global_()), session, tmp_path / "jobs")
    assert run_import(store, session, concurrency=8) is JobStatus.FINISHED
    s = job_summary(store)
    assert s["pending"] == 0
    assert s["inserted"] + s["already_present"] + s["failed"] == 300
    in_service = {r[0] for r in dnc_rows(server)}
    # A failed row may still have reached the service (a drop after the write), never the reverse.
    assert len(in_service) >= s["inserted"] + s["already_present"]
    for row in store.rows():
        if row.outcome in ("inserted", "already_present"):
            assert row.national in in_service
        if row.outcome == "failed":
            assert row.message
    session.close()
    journal.close()


def test_a_lost_answer_then_already_present_says_the_first_attempt_may_have_inserted(
    make_sandbox: Any, tmp_path: Path
) -> None:
    # The sandbox drops the answer after doing the write, so the client's retry finds the
    # number already there. None of these numbers was on the list before the job.
    server = make_sandbox(drop_rate=0.5, seed=11)
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    # The default policy's attempts (what decides each row's outcome) with tiny pauses: the
    # backoff is not what this test checks, and the default's waits took most of its time.
    quick = RetryPolicy(attempts=DEFAULT_RETRY.attempts, base_delay=0.001, max_delay=0.002)
    session = Session(
        Connection("Drops", server.base_url),
        ApiClient(server.base_url, TOKEN, retry=quick),
        journal,
    )
    path = write_csv(tmp_path / "in.csv", ["phone"], [[n] for n in numbers(30)])
    store = stage(JobSettings(path, Scope.global_()), session, tmp_path / "jobs")
    assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    present = [r for r in store.rows() if r.outcome == "already_present"]
    assert present, "a 50 % drop rate over 30 rows must retry some inserts"
    retried = [r for r in present if not r.message.startswith(FOUND_AFTER_ERROR)]
    for row in retried:
        assert "an earlier attempt got no answer saying whether it was done" in row.message, (
            row.message
        )
        assert "may have inserted it" in row.message
        assert "answered after" in row.message
    # Every attempt wrote (only answers were dropped); a row whose every answer was lost is
    # looked up, found on the list and counted already present, not failed.
    assert len(dnc_rows(server)) == 30
    looked_up = [r for r in present if r.message.startswith(FOUND_AFTER_ERROR)]
    assert looked_up, "seed 11 loses every answer to some rows (one worker: the order is fixed)"
    for row in looked_up:
        assert "no answer from the service" in row.message, row.message
    assert not [r for r in store.rows() if r.outcome == "failed"]
    # None was on the list before the job: every "already present" may be the job's own.
    summary = job_summary(store)
    assert summary["already_present"] == summary["already_present_maybe_inserted"] == len(present)
    session.close()
    journal.close()


def test_pause_resume_cancel_in_process(sandbox: Any, session: Session, tmp_path: Path) -> None:
    sandbox.set_faults(latency_ms=20)
    path = write_csv(tmp_path / "in.csv", ["phone"], [[n] for n in numbers(400)])
    store = stage(JobSettings(path, Scope.global_()), session, tmp_path / "jobs")
    control = JobControl()
    seen: list[JobProgress] = []
    paused_at: list[int] = []

    def progress(p: JobProgress) -> None:
        seen.append(p)
        if p.done >= 40 and not paused_at:
            control.pause()
            paused_at.append(p.done)
            threading.Timer(0.5, check_and_cancel).start()

    def check_and_cancel() -> None:
        # Nothing new starts while paused: the count stays put (in-flight ones may land).
        n1 = len(dnc_rows(sandbox))
        threading.Event().wait(0.3)
        n2 = len(dnc_rows(sandbox))
        frozen.append(n1 == n2)
        control.resume()
        threading.Timer(0.3, control.cancel).start()

    frozen: list[bool] = []
    status = run_import(store, session, concurrency=4, control=control, progress=progress)
    assert status is JobStatus.CANCELLED
    assert frozen == [True]
    s = job_summary(store)
    assert s["inserted"] + s["not_attempted"] == 400
    assert 40 < s["inserted"] < 400
    assert len(dnc_rows(sandbox)) == s["inserted"]
    assert seen and seen[-1].rows_per_second > 0
    assert s["pending"] == 0


def test_bad_files_and_missing_phone_column(session: Session, tmp_path: Path) -> None:
    empty = tmp_path / "empty.xlsx"
    empty.write_bytes(b"")
    with pytest.raises(SheetError, match="empty"):
        stage(JobSettings(empty, Scope.global_()), session, tmp_path / "jobs")
    words = write_csv(tmp_path / "w.csv", ["name", "city"], [["Ann", "Paris"]])
    with pytest.raises(MappingError, match=r"No column of phone numbers was found in w\.csv") as e:
        stage(JobSettings(words, Scope.global_()), session, tmp_path / "jobs")
    assert "--phone-column" in e.value.cli_text and "--" not in str(e.value)
    with pytest.raises(
        MappingError, match=r"no column headed 'Tel'; its headers are 'name' \(A\), 'city' \(B\)"
    ):
        stage(JobSettings(words, Scope.global_(), phone_column="Tel"), session, tmp_path / "jobs")
    wb = openpyxl.Workbook()
    wb.active.title = "Notes"
    wb.active.append(["see the other sheet"])
    wb.create_sheet("Numbers").append(["2025550123"])
    wb.save(tmp_path / "two.xlsx")
    # No sheet named: the first sheet has no phone column, so the next one that has is used.
    store = stage(JobSettings(tmp_path / "two.xlsx", Scope.global_()), session, tmp_path / "jobs")
    assert job_summary(store)["valid"] == 1 and store.meta()["sheet"] == "Numbers"
    store = stage(
        JobSettings(tmp_path / "two.xlsx", Scope.global_(), sheet="Numbers"),
        session,
        tmp_path / "jobs",
    )
    assert job_summary(store)["valid"] == 1
    # A sheet named is used as named; and when no sheet has numbers, the first one's sentence.
    with pytest.raises(
        MappingError, match=r"sheet 'Notes' of two.xlsx \(its other sheets: 'Numbers'\)"
    ):
        stage(
            JobSettings(tmp_path / "two.xlsx", Scope.global_(), sheet="Notes"),
            session,
            tmp_path / "jobs",
        )
    wb["Numbers"]["A1"] = "call us back"
    wb.save(tmp_path / "none.xlsx")
    with pytest.raises(
        MappingError, match=r"sheet 'Notes' of none.xlsx \(its other sheets: 'Numbers'\)"
    ):
        stage(JobSettings(tmp_path / "none.xlsx", Scope.global_()), session, tmp_path / "jobs")


def test_phone_column_named_in_a_first_row_header_detection_missed(
    session: Session, tmp_path: Path
) -> None:
    # No cell looks like a phone number, so no header row is recognised; naming a column of
    # the first row makes that row the header, and every number below it is checked.
    words = write_csv(tmp_path / "w.csv", ["name", "Tel"], [["Ann", "call me"], ["Bo", "12"]])
    store = stage(JobSettings(words, Scope.global_(), phone_column="TEL"), session, tmp_path)
    s = job_summary(store)
    assert (s["rows"], s["invalid"]) == (2, 2)
    assert store.meta()["header_row"] == 1 and store.meta()["mapping"]["phone"] == "Tel (column B)"
    assert [r.original for r in store.rows()] == ["call me", "12"]


def _rows(store: JobStore) -> list[tuple[Any, ...]]:
    return [
        (r.row_number, r.original, r.national, r.phone_code, r.scope, r.outcome, r.message)
        for r in store.rows()
    ]


def test_public_stage_with_the_proposed_mapping_matches_the_cli_path(
    session: Session, tmp_path: Path
) -> None:
    rows: list[list[Any]] = [["Phone", "Reason"]]
    rows += [[n, "asked"] for n in numbers(8)] + [["12345", "typo"], [numbers(1)[0], "again"]]
    path = write_xlsx(tmp_path / "in.xlsx", rows, title_rows=2)
    settings = JobSettings(path, Scope.global_(), reason="default", phone_code="1")
    cli_store, cli_summary = job_staging.stage(
        settings, tmp_path / "a", kind="import", connection=session.connection
    )
    with open_sheet(path) as source:
        proposed = job_staging.map_sheet(source.preview(50), settings, path.name)
    gui_store, gui_summary = job_staging.stage(
        settings, tmp_path / "b", kind="import", connection=session.connection, mapping=proposed
    )
    assert gui_summary == cli_summary
    assert _rows(gui_store) == _rows(cli_store)
    ignore = {"job_id", "created", "report"}
    cli_meta = {k: v for k, v in cli_store.meta().items() if k not in ignore}
    assert {k: v for k, v in gui_store.meta().items() if k not in ignore} == cli_meta


def test_public_stage_with_a_chosen_mapping_and_corrections(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    rows: list[list[Any]] = [["Office", "Mobile", "Scope"]]
    rows += [["(202) 555-0999", n, "campaign:1"] for n in numbers(5)]
    rows += [["(202) 555-0999", "12345", ""]]  # row 7: fixed by hand below
    path = write_xlsx(tmp_path / "in.xlsx", rows)
    chosen = ColumnMapping(
        header_row=1, headers=("Office", "Mobile", "Scope"), phone=1, default_reason="asked"
    )
    settings = JobSettings(path, Scope.purpose("Collections"), reason="asked")
    store, summary = job_staging.stage(
        settings,
        tmp_path / "jobs",
        kind="import",
        connection=session.connection,
        mapping=chosen,
        corrections={7: "(202) 555-0177"},
        reports_dir=tmp_path / "reports",
    )
    assert chosen.default_scope == Scope.global_()  # the caller's mapping is left alone
    assert (summary.rows, summary.valid, summary.invalid) == (6, 6, 0)
    meta = store.meta()
    assert meta["mapping"] == {"phone": "Mobile (column B)"}  # no scope column: not chosen
    assert meta["corrections"] == {"7": "(202) 555-0177"}
    assert meta["report"] == str(tmp_path / "reports" / f"{meta['job_id']}.xlsx")
    fixed = next(r for r in store.rows() if r.row_number == 7)
    assert (fixed.original, fixed.national, fixed.scope) == (
        "12345",
        "2025550177",
        "purpose:Collections",
    )
    assert fixed.damage == "corrected in the import wizard (the file has '12345')"
    assert {r.reason for r in store.rows()} == {"asked"}
    run_import(store, session)
    assert job_summary(store)["inserted"] == 6
    assert ("2025550177", "1", -1, "Collections") in dnc_rows(sandbox)
    with pytest.raises(MappingError, match=r"No column of phone numbers is chosen for in\.xlsx"):
        job_staging.stage(
            settings,
            tmp_path / "jobs",
            kind="import",
            connection=None,
            mapping=ColumnMapping(header_row=1, headers=("Office", "Mobile", "Scope")),
        )


def test_429s_are_retried_and_rate_cap_keeps_under_the_limit(
    make_sandbox: Any, tmp_path: Path
) -> None:
    server = make_sandbox(rate_limit=1200)  # 20 requests/s, bursts of 20
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    path = write_csv(tmp_path / "in.csv", ["phone"], [[n] for n in numbers(30)])
    greedy = Session(Connection("S", server.base_url), ApiClient(server.base_url, TOKEN), journal)
    store = stage(JobSettings(path, Scope.global_()), greedy, tmp_path / "jobs")
    assert run_import(store, greedy, concurrency=16) is JobStatus.FINISHED
    s = job_summary(store)
    # 16 at once against a 20/s bucket draws 429s; every row still ends in one outcome.
    assert s["inserted"] + s["failed"] == 30 and s["pending"] == 0
    assert {r.code for r in store.rows() if r.outcome == "failed"} <= {""}
    retried = [e for e in journal.query(limit=10_000) if "attempts" in e.error]
    assert retried, "no request was rate limited: the test proves nothing"
    paced_api = ApiClient(server.base_url, TOKEN, requests_per_minute=900)
    paced = Session(Connection("S", server.base_url), paced_api, journal)
    path2 = write_csv(tmp_path / "in2.csv", ["phone"], [[n] for n in numbers(10, start=100)])
    store2 = stage(JobSettings(path2, Scope.global_()), paced, tmp_path / "jobs")
    before = len(journal.query(limit=10_000))
    run_import(store2, paced, concurrency=16)
    assert job_summary(store2)["inserted"] == 10
    new = journal.query(limit=10_000)[: len(journal.query(limit=10_000)) - before]
    assert not [e for e in new if "attempts" in e.error]
    greedy.close()
    paced.close()
    journal.close()


def test_report_continues_past_sheet_row_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core import job_report

    monkeypatch.setattr(job_report, "SHEET_ROW_LIMIT", 5)
    path = write_csv(tmp_path / "in.csv", ["phone"], [[n] for n in numbers(12)])
    store, summary = stage_import(
        JobSettings(path, Scope.global_(), report=tmp_path / "r.xlsx"),
        tmp_path / "jobs",
        connection=None,
    )
    assert summary.valid == 12
    finish_dry_run(store)
    wb = openpyxl.load_workbook(tmp_path / "r.xlsx", read_only=True)
    assert wb.sheetnames == ["Summary", "Rows", "Rows 2", "Rows 3"]
    data = [r for name in wb.sheetnames[1:] for r in list(wb[name].iter_rows(values_only=True))[1:]]
    assert [r[0] for r in data] == list(range(2, 14))
    wb.close()


def test_service_gone_mid_run_stops_the_job_resumable(
    make_sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core import job_runner
    from app.core.job_runner import JobAborted

    monkeypatch.setattr(job_runner, "UNREACHABLE_AFTER", 4)
    server = make_sandbox(latency_ms=10)
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    # Every row still retries as often as by default before it counts as unanswered, with
    # shorter pauses (they took most of this test's time). Not tiny ones: a row's retries must
    # outlast the server's shutdown (~0.1 s), or they can run out while a row in flight is still
    # answered, and the runner rightly records the row whose retries ran out as failed.
    quick = RetryPolicy(attempts=DEFAULT_RETRY.attempts, base_delay=0.1, max_delay=0.4)
    session = Session(
        Connection("S", server.base_url), ApiClient(server.base_url, TOKEN, retry=quick), journal
    )
    path = write_csv(tmp_path / "in.csv", ["phone"], [[n] for n in numbers(80)])
    store = stage(JobSettings(path, Scope.global_()), session, tmp_path / "jobs")

    def progress(p: JobProgress) -> None:
        if p.done >= 10 and server._server is not None:
            server.stop()

    with pytest.raises(JobAborted, match=r"^The service could not be reached \(connection refused"):
        run_import(store, session, concurrency=2, progress=progress)
    s = job_summary(store)
    assert s["status"] == JobStatus.PAUSED and s["failed"] == 0
    assert s["inserted"] >= 10 and s["pending"] == 80 - s["inserted"]
    session.close()
    journal.close()


def test_list_jobs_newest_first(tmp_path: Path) -> None:
    from app.core.job_exec import list_jobs

    path = write_csv(tmp_path / "in.csv", ["phone"], [[n] for n in numbers(3)])
    jobs = tmp_path / "jobs"
    first, _ = stage_import(JobSettings(path, Scope.global_(), name="A"), jobs, connection=None)
    finish_dry_run(first)
    first.close()
    second, _ = stage_import(JobSettings(path, Scope.global_(), name="B"), jobs, connection=None)
    second.close()
    listed = list_jobs(jobs)
    assert [j["name"] for j in sorted(listed, key=lambda j: j["name"])] == ["A", "B"]
    assert {j["status"] for j in listed} == {"dry_run", "ready"}
    assert all(j["rows"] == 3 for j in listed)


def test_the_reports_original_value_is_the_cells_exact_text(tmp_path: Path) -> None:
    # Black-box finding 15: "+44 7700 900124" showed in the report as "'+44 7700 900124", a
    # text the file never had. The cell is text with Excel's quote prefix: same text, no formula.
    path = write_csv(
        tmp_path / "in.csv", ["Phone"], [["+44 7700 900124"], ['="2025550157"'], ["=1+1"]]
    )
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    finish_dry_run(store)
    report = job_summary(store)["report"]
    wb = openpyxl.load_workbook(report)
    rows = list(wb["Rows"].iter_rows(min_row=2))
    originals = [row[1] for row in rows]
    assert [c.value for c in originals] == ["+44 7700 900124", '="2025550157"', "=1+1"]
    assert all(c.data_type == "s" and c.quotePrefix for c in originals)
    wb.close()
