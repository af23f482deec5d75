"""Bulk removal against the sandbox: removed / not on the list, lead re-status, journal, report."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.models import DncEntry
from app.api.scope import Scope
from app.api.transport import DEFAULT_RETRY, RetryPolicy
from app.core.connections import Connection
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.removal_job import (
    REMOVED_BY_LOST_ATTEMPT,
    LeadStatusError,
    check_lead_status,
    count_numbers,
    run_removal,
    stage_removal,
)
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.sheet_factory import write_sheets


def _csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone", "Scope"], *rows])
    return path


def _lead_list(sandbox: Any, api: ApiClient, campaign_id: str) -> str:
    return api.insert_list("Removal test list", campaign_id)


def test_removal_with_lead_restatus_and_not_found(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaign = session.api.campaigns()[0].id
    sandbox.bulk_seed_dnc(
        [(f"20255501{i:02d}", "1", "0", "", "") for i in range(10)]
        + [("2025550050", "1", campaign, "", "")]
    )
    list_id = _lead_list(sandbox, session.api, campaign)
    sandbox.bulk_seed_leads(list_id, [("(202) 555-0101", "1", "", ""), ("2025550099", "1", "", "")])
    rows = [[f"202555010{i}", ""] for i in range(6)]  # 0-5 on the list (global)
    rows += [["2025550077", ""], ["2025550050", f"campaign:{campaign}"], ["bad", ""]]
    path = _csv(tmp_path / "remove.csv", rows)
    status_code = check_lead_status(session.api, "dnc")
    assert status_code == "DNC"
    settings = JobSettings(
        path,
        Scope.global_(),
        lead_status=status_code,
        name="Removals",
        note="court order",
        scope_from_rows=True,
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=4) is JobStatus.FINISHED
    s = job_summary(store)
    assert (s["rows"], s["removed"], s["not_found"], s["invalid"], s["failed"]) == (9, 7, 1, 1, 0)
    assert "inserted" not in s
    left = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
    assert left == {f"20255501{i:02d}" for i in range(6, 10)}
    statuses = {r["phone_number"]: r["status"] for r in sandbox.store.all("SELECT * FROM leads")}
    assert statuses["(202) 555-0101"] == "DNC"
    assert statuses["2025550099"] != "DNC"
    not_found = [r for r in store.rows() if r.outcome == "not_found"]
    assert not_found[0].national == "2025550077" and "not on the list" in not_found[0].message
    intents = [e for e in session.journal.query(job=s["job"]) if e.phase == "intent"]
    # The number not on the list was looked up, and no delete was sent for it.
    assert len(intents) == 7 and {e.operation for e in intents} == {"dnc.delete"}
    # Each delete's journal keeps the entry it took off: what the opt-out was, and since when.
    for intent in intents:
        (entry,) = intent.before["entries"]
        assert entry["id"] and entry["insert_date"] and entry["phone_number"]
    assert all(re.fullmatch(r"court order \(row [0-9]+\)", e.note) for e in intents)
    wb = openpyxl.load_workbook(s["report"], read_only=True)
    summary = dict(wb["Summary"].iter_rows(values_only=True))
    assert summary["removed"] == 7 and summary["not_found"] == 1
    assert summary["Lead status set on removal"] == "DNC"
    wb.close()


def test_removal_without_restatus_leaves_leads(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaign = session.api.campaigns()[0].id
    sandbox.bulk_seed_dnc([("2025550001", "1", "0", "", "")])
    list_id = _lead_list(sandbox, session.api, campaign)
    sandbox.bulk_seed_leads(list_id, [("2025550001", "1", "", "")])
    before = sandbox.store.one("SELECT status FROM leads")["status"]
    store, _ = stage_removal(
        JobSettings(_csv(tmp_path / "r.csv", [["2025550001", ""]]), Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
    )
    run_removal(store, session)
    assert job_summary(store)["removed"] == 1
    assert sandbox.store.one("SELECT status FROM leads")["status"] == before
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0


def test_a_lost_answer_then_not_found_is_removed_by_the_earlier_attempt(
    make_sandbox: Any, tmp_path: Path
) -> None:
    # The sandbox drops the answer after the delete, so the retry finds nothing to delete.
    # Every number was on the list before the job (and when looked up just before its delete):
    # such a row was removed by its own earlier attempt.
    server = make_sandbox(drop_rate=0.5, seed=11)
    server.bulk_seed_dnc([(f"20255501{i:02d}", "1", "0", "", "") for i in range(30)])
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    # The default policy's attempts (what decides each row's outcome) with tiny pauses: the
    # backoff is not what this test checks, and the default's waits took most of its time.
    quick = RetryPolicy(attempts=DEFAULT_RETRY.attempts, base_delay=0.001, max_delay=0.002)
    session = Session(
        Connection("Drops", server.base_url),
        ApiClient(server.base_url, TOKEN, retry=quick),
        journal,
    )
    path = _csv(tmp_path / "r.csv", [[f"20255501{i:02d}", ""] for i in range(30)])
    store, _ = stage_removal(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    assert not [r for r in store.rows() if r.outcome == "not_found"]
    gone = [r for r in store.rows() if r.message.startswith(REMOVED_BY_LOST_ATTEMPT)]
    assert gone, "a 50 % drop rate over 30 rows must retry some deletes"
    for row in gone:
        assert row.outcome == "removed", row
        assert (
            "that attempt got no answer saying whether it was done and the retry found it gone"
            in row.message
        )
        assert "answered after" in row.message
    # A row whose look-up got no answer sent no delete: it failed saying so, still listed.
    listed = {r["phone_number"] for r in server.store.all("SELECT phone_number FROM dnc")}
    for row in store.rows():
        if row.outcome == "failed" and "/dnc/search" in row.message:
            assert row.national in listed and "may have done it" not in row.message
        else:
            assert row.national not in listed, row
    session.close()
    journal.close()


def test_unknown_lead_status_is_refused(session: Session) -> None:
    with pytest.raises(LeadStatusError, match="no lead status 'NOPE'"):
        check_lead_status(session.api, "NOPE")


def test_count_numbers_reads_the_sheet_and_column_the_removal_reads(tmp_path: Path) -> None:
    numbers = [[f"20255500{i:02d}", f"31255500{i:02d}" if i < 2 else None] for i in range(5)]
    path = write_sheets(
        tmp_path / "vendor.xlsx",
        {
            "Instructions": [["Remove the numbers on the next sheet"], ["Thank you"]],
            "Numbers": [["Phone", "Mobile"], *numbers],
            "Old": [["Phone"], ["2025550090"], ["2025550091"], ["2025550092"]],
        },
    )
    settings = JobSettings(path, Scope.global_())
    # No sheet named: the first sheet with a phone column, as staging chooses it.
    assert count_numbers(settings) == 5
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    assert store.meta()["sheet"] == "Numbers"
    store.close()
    assert count_numbers(JobSettings(path, Scope.global_(), sheet="Old")) == 3
    chosen = JobSettings(path, Scope.global_(), sheet="Numbers", phone_column="Mobile")
    assert count_numbers(chosen) == 2


def test_count_numbers_proposes_the_column_with_the_country_code(tmp_path: Path) -> None:
    # No header: column A holds 8 London numbers, column B 3 US numbers. Which one is the
    # phone column depends on the country code of numbers written without one.
    lines = [f"020 7946 00{i:02d},{f'2025550{i:03d}' if i < 4 else ''}" for i in range(1, 9)]
    path = tmp_path / "numbers.csv"
    path.write_text("\n".join(lines) + "\n")
    assert count_numbers(JobSettings(path, Scope.global_(), phone_code="1")) == 3
    assert count_numbers(JobSettings(path, Scope.global_(), phone_code="44")) == 8


def test_count_numbers_of_a_table_below_row_50(tmp_path: Path) -> None:
    rows: list[list[Any]] = [[None, None]] * 69 + [[None, "Phone"]]
    rows += [[None, 2025550140 + i] for i in range(12)]
    path = write_sheets(tmp_path / "late.xlsx", {"Sheet1": rows})
    assert count_numbers(JobSettings(path, Scope.global_())) == 12
    words = write_sheets(tmp_path / "words.xlsx", {"Sheet1": [["Name"], ["Ann"], ["Bob"]]})
    assert count_numbers(JobSettings(words, Scope.global_())) == 0


# ---------------------------------------------------------------- purpose scope
# /dnc/delete with campaign_id -1 removes the number's entries for every purpose at once.

OTHER_PURPOSE_REFUSAL = (
    "not removed: the number is also on the list for purpose 'Marketing', and the service "
    "removes every purpose at once; remove it with scope purpose (all purposes) to take them "
    "all off"
)


def _purpose_entries(api: ApiClient, number: str) -> dict[str, DncEntry]:
    query = DncQuery(scope=Scope.purpose(""), phone_number=number, phone_code="1")
    return {e.purpose: e for e in api.iter_dnc(query)}


def _delete_intents(session: Session, job: str) -> list[Any]:
    return [
        e
        for e in session.journal.query(job=job)
        if e.phase == "intent" and e.operation == "dnc.delete"
    ]


def _phones(path: Path, numbers: list[str]) -> Path:
    path.write_text("Phone\n" + "".join(f"{n}\n" for n in numbers))
    return path


def _run(session: Session, tmp_path: Path, settings: JobSettings) -> tuple[Any, dict[str, Any]]:
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session) is JobStatus.FINISHED
    return store, job_summary(store)


def test_purpose_removal_is_refused_when_the_number_has_another_purpose(
    session: Session, tmp_path: Path
) -> None:
    # The black-box reproduction: Surveys and Marketing, remove --scope purpose:Surveys.
    api = session.api
    api.insert_dnc("2025558101", "1", Scope.purpose("Surveys"), reason="survey opt-out")
    api.insert_dnc("2025558101", "1", Scope.purpose("Marketing"), reason="asked on call")
    path = _phones(tmp_path / "pp.csv", ["2025558101"])
    store, s = _run(session, tmp_path, JobSettings(path, Scope.purpose("Surveys")))
    assert (s["removed"], s["not_found"], s["failed"]) == (0, 0, 1)
    (row,) = store.rows()
    assert row.outcome == "failed" and row.message == OTHER_PURPOSE_REFUSAL
    assert set(_purpose_entries(api, "2025558101")) == {"Surveys", "Marketing"}
    assert _delete_intents(session, s["job"]) == []


def test_removing_the_only_purpose_removes_it_and_journals_the_entry(
    session: Session, tmp_path: Path
) -> None:
    api = session.api
    # Another number's other purpose, and a global entry of this one, are not touched.
    api.insert_dnc("2025558102", "1", Scope.purpose("Surveys"), reason="web form")
    api.insert_dnc("2025558102", "1", Scope.global_())
    api.insert_dnc("2025558103", "1", Scope.purpose("Marketing"))
    entry = _purpose_entries(api, "2025558102")["Surveys"]
    path = _phones(tmp_path / "one.csv", ["2025558102"])
    store, s = _run(session, tmp_path, JobSettings(path, Scope.purpose("Surveys")))
    assert (s["removed"], s["failed"]) == (1, 0)
    assert [r.message for r in store.rows()] == [""]
    assert _purpose_entries(api, "2025558102") == {}
    assert set(_purpose_entries(api, "2025558103")) == {"Marketing"}
    assert api.search_dnc(DncQuery(scope=Scope.global_(), phone_number="2025558102")).total == 1
    (intent,) = _delete_intents(session, s["job"])
    assert intent.before["campaign_id"] == "-1"
    assert intent.before["entries"] == [entry.as_dict()]
    assert intent.before["entries"][0]["reason"] == "web form"


def test_purpose_scope_without_text_removes_every_purpose_and_journals_them_all(
    session: Session, tmp_path: Path
) -> None:
    api = session.api
    api.insert_dnc("2025558104", "1", Scope.purpose("Surveys"), reason="survey opt-out")
    api.insert_dnc("2025558104", "1", Scope.purpose("Marketing"), reason="asked on call")
    entries = _purpose_entries(api, "2025558104")
    path = _phones(tmp_path / "all.csv", ["2025558104"])
    store, s = _run(session, tmp_path, JobSettings(path, Scope.purpose("")))
    assert (s["removed"], s["failed"]) == (1, 0)
    (row,) = store.rows()
    assert row.scope == "purpose:"
    assert row.message == "removed for purposes 'Marketing' and 'Surveys'"
    assert _purpose_entries(api, "2025558104") == {}
    (intent,) = _delete_intents(session, s["job"])
    recorded = sorted(intent.before["entries"], key=lambda e: e["purpose"])
    assert recorded == [entries["Marketing"].as_dict(), entries["Surveys"].as_dict()]
    assert {e["reason"] for e in recorded} == {"survey opt-out", "asked on call"}
    assert all(e["id"] and e["insert_date"] for e in recorded)


def test_purpose_scope_column_per_row(session: Session, tmp_path: Path) -> None:
    api = session.api
    for number, purposes in (
        ("2025558111", ["Surveys", "Marketing"]),  # purpose:Surveys: refused
        ("2025558112", ["Surveys", "Marketing"]),  # purpose (no text): invalid, both stay
        ("2025558113", ["Sales"]),  # purpose:Sales: the only one, goes
        ("2025558114", ["Marketing"]),  # purpose:Surveys: not listed for it, nothing sent
        ("2025558115", ["Sales"]),  # purpose:SALES: another purpose, nothing sent
    ):
        for purpose in purposes:
            api.insert_dnc(number, "1", Scope.purpose(purpose))
    path = _csv(
        tmp_path / "scoped.csv",
        [
            ["2025558111", "purpose:Surveys"],
            ["2025558112", "purpose"],
            ["2025558113", "purpose:Sales"],
            ["2025558114", "purpose:Surveys"],
            ["2025558115", "purpose:SALES"],
        ],
    )
    store, s = _run(session, tmp_path, JobSettings(path, Scope.global_(), scope_from_rows=True))
    rows = store.rows()
    by_number = {r.original: r for r in rows}
    assert [by_number[f"202555811{i}"].outcome for i in range(1, 6)] == [
        "failed",
        "invalid",
        "removed",
        "not_found",
        "not_found",
    ]
    assert by_number["2025558111"].message == OTHER_PURPOSE_REFUSAL
    # Every purpose only as the whole file's scope: an empty cell never widens a removal.
    assert by_number["2025558112"].message.startswith(
        "row 3: purpose: a purpose scope needs a purpose"
    )
    assert by_number["2025558114"].message == (
        "not on the list for purpose 'Surveys'; the number's entries for purpose 'Marketing' "
        "were left on the list (nothing was sent)"
    )
    # The service keeps "SALES" apart from "Sales": it is not the number's purpose.
    assert by_number["2025558115"].message.startswith("not on the list for purpose 'SALES'")
    assert set(_purpose_entries(api, "2025558111")) == {"Surveys", "Marketing"}
    assert set(_purpose_entries(api, "2025558112")) == {"Surveys", "Marketing"}
    assert _purpose_entries(api, "2025558113") == {}
    assert set(_purpose_entries(api, "2025558114")) == {"Marketing"}
    assert set(_purpose_entries(api, "2025558115")) == {"Sales"}
    intents = _delete_intents(session, s["job"])
    assert [len(e.before["entries"]) for e in intents] == [1]


def test_a_lost_answer_to_the_look_up_does_not_say_the_delete_may_have_been_done(
    make_sandbox: Any, tmp_path: Path
) -> None:
    server = make_sandbox()
    server.bulk_seed_dnc([("2025558120", "1", "-1", "", "Surveys")])
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(
        Connection("Down", server.base_url),
        ApiClient(server.base_url, TOKEN, retry=RetryPolicy(attempts=1)),
        journal,
    )
    path = _phones(tmp_path / "r.csv", ["2025558120"])
    store, _ = stage_removal(
        JobSettings(path, Scope.purpose("Surveys")), tmp_path / "jobs", connection=None
    )
    server.set_faults(drop_rate=1.0)  # the service answers nothing (the search included)
    assert run_removal(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    assert row.outcome == "failed" and "/dnc/search" in row.message, row.message
    assert "may have done it" not in row.message
    assert [e for e in journal.query() if e.operation == "dnc.delete"] == []
    session.close()
    journal.close()


def test_count_numbers_leaves_out_hidden_rows_unless_included(tmp_path: Path) -> None:
    from tests.core.test_sheet_hidden_rows import filtered_review

    path = filtered_review(tmp_path / "review.xlsx")
    assert count_numbers(JobSettings(path, Scope.global_())) == 2
    assert count_numbers(JobSettings(path, Scope.global_(), include_hidden=True)) == 6
