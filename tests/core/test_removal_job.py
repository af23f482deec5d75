"""Bulk removal against the sandbox: removed / not on the list, lead re-status, journal, report."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.removal_job import (
    LeadStatusError,
    check_lead_status,
    count_numbers,
    run_removal,
    stage_removal,
)
from app.core.session import Session
from tests.conftest import TOKEN


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    s = Session(
        Connection("Sandbox", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal
    )
    yield s
    s.close()
    journal.close()


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
        [(f"20255500{i:02d}", "1", "0", "", "") for i in range(10)]
        + [("2025550050", "1", campaign, "", "")]
    )
    list_id = _lead_list(sandbox, session.api, campaign)
    sandbox.bulk_seed_leads(list_id, [("(202) 555-0001", "1", "", ""), ("2025550099", "1", "", "")])
    rows = [[f"202555000{i}", ""] for i in range(6)]  # 0-5 on the list (global)
    rows += [["2025550077", ""], ["2025550050", f"campaign:{campaign}"], ["bad", ""]]
    path = _csv(tmp_path / "remove.csv", rows)
    status_code = check_lead_status(session.api, "dnc")
    assert status_code == "DNC"
    settings = JobSettings(
        path, Scope.global_(), lead_status=status_code, name="Removals", note="court order"
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=4) is JobStatus.FINISHED
    s = job_summary(store)
    assert (s["rows"], s["removed"], s["not_found"], s["invalid"], s["failed"]) == (9, 7, 1, 1, 0)
    assert "inserted" not in s
    left = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
    assert left == {f"20255500{i:02d}" for i in range(6, 10)}
    statuses = {r["phone_number"]: r["status"] for r in sandbox.store.all("SELECT * FROM leads")}
    assert statuses["(202) 555-0001"] == "DNC"
    assert statuses["2025550099"] != "DNC"
    not_found = [r for r in store.rows() if r.outcome == "not_found"]
    assert not_found[0].national == "2025550077" and "not on the list" in not_found[0].message
    intents = [e for e in session.journal.query(job=s["job"]) if e.phase == "intent"]
    assert len(intents) == 8 and {e.operation for e in intents} == {"dnc.delete"}
    assert all(e.note == "court order" for e in intents)
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


def test_a_lost_answer_then_not_found_says_the_first_attempt_may_have_removed(
    make_sandbox: Any, tmp_path: Path
) -> None:
    # The sandbox drops the answer after the delete, so the retry finds nothing to delete.
    # Every number was on the list before the job.
    server = make_sandbox(drop_rate=0.5, seed=11)
    server.bulk_seed_dnc([(f"20255500{i:02d}", "1", "0", "", "") for i in range(30)])
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(
        Connection("Drops", server.base_url), ApiClient(server.base_url, TOKEN), journal
    )
    path = _csv(tmp_path / "r.csv", [[f"20255500{i:02d}", ""] for i in range(30)])
    store, _ = stage_removal(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    gone = [r for r in store.rows() if r.outcome == "not_found"]
    assert gone, "a 50 % drop rate over 30 rows must retry some deletes"
    for row in gone:
        assert "the answer to the first attempt was lost" in row.message, row.message
        assert "may have removed it" in row.message
    assert server.store.scalar("SELECT count(*) FROM dnc") == 0
    session.close()
    journal.close()


def test_unknown_lead_status_is_refused(session: Session) -> None:
    with pytest.raises(LeadStatusError, match="no lead status 'NOPE'"):
        check_lead_status(session.api, "NOPE")


def _workbook(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    wb.remove(first)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)
    return path


def test_count_numbers_reads_the_sheet_and_column_the_removal_reads(tmp_path: Path) -> None:
    numbers = [[f"20255500{i:02d}", f"31255500{i:02d}" if i < 2 else None] for i in range(5)]
    path = _workbook(
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
    path = _workbook(tmp_path / "late.xlsx", {"Sheet1": rows})
    assert count_numbers(JobSettings(path, Scope.global_())) == 12
    words = _workbook(tmp_path / "words.xlsx", {"Sheet1": [["Name"], ["Ann"], ["Bob"]]})
    assert count_numbers(JobSettings(words, Scope.global_())) == 0
