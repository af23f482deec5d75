"""The report's Reason column (last in the Rows sheet) holds what each row is sent with, and a
removal row's reason goes into its delete's journal note (black-box B9 #3, B10 #8).

Staged from real files and written by the real report writer; the removal runs against a
sandbox over loopback.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.entry_validation import MAX_TEXT
from app.core.import_job import stage_import
from app.core.job_report import BLANK_RUN_LINE, ROW_COLUMNS, write_report
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.removal_job import delete_note, run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _rows(report: Path) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    book = openpyxl.load_workbook(report)
    try:
        header, *rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    return header, rows


def _report_of(tmp_path: Path, text: str, reason: str) -> Path:
    path = tmp_path / "numbers.csv"
    path.write_text(text, encoding="utf-8")
    settings = JobSettings(path, Scope.global_(), reason=reason)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    try:
        return write_report(store, tmp_path / "report.xlsx")
    finally:
        store.close()


def test_a_job_reading_no_reasons_keeps_its_columns(tmp_path: Path) -> None:
    header, rows = _rows(_report_of(tmp_path, "Phone\n3036195021\n", ""))
    # Nothing to say of a reason: the sheet is as it was, for readers from the right too.
    assert header == ROW_COLUMNS and len(rows[0]) == len(ROW_COLUMNS)


def test_a_default_reason_alone_adds_the_column(tmp_path: Path) -> None:
    header, rows = _rows(_report_of(tmp_path, "Phone\n3036195021\n", "web form"))
    assert header == (*ROW_COLUMNS, "Reason") and rows[0][-1] == "web form"


def test_a_cut_reason_is_shown_as_sent_and_a_blank_run_line_has_none(tmp_path: Path) -> None:
    long = "x" * (MAX_TEXT + 20)
    path = tmp_path / "requests.csv"
    lines = ["Phone,Reason", f"3036195021,{long}", "3036195022,by letter"]
    lines += [","] * BLANK_RUN_LINE  # one line of the Rows sheet
    lines += ["3036195023,"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    settings = JobSettings(path, Scope.global_(), reason="default reason")
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    try:
        report = write_report(store, tmp_path / "report.xlsx")
        stored = {r.row_number: r.reason for r in store.rows()}
    finally:
        store.close()
    header, rows = _rows(report)
    assert header == (*ROW_COLUMNS, "Reason")
    reason = header.index("Reason")
    by_row = {str(r[0]): r for r in rows}
    # What the job sends (cut to the service's limit), not the cell.
    assert by_row["2"][reason] == stored[2] == long[:MAX_TEXT]
    assert by_row["3"][reason] == "by letter"
    assert by_row[f"{len(lines)}"][reason] == "default reason"
    run = by_row[f"4–{3 + BLANK_RUN_LINE}"]
    assert len(run) == len(header) and run[reason] is None
    assert run[header.index("Outcome")] == "blank"


def test_the_delete_note_keeps_the_jobs_note_first() -> None:
    class Row:
        row_number = 7
        reason = " consent re-obtained "

    row: Any = Row()
    assert delete_note("ticket 9", row) == "ticket 9 (row 7: consent re-obtained)"
    assert delete_note("", row) == "row 7: consent re-obtained"
    Row.reason = "  "
    # No reason: the row is named all the same (bb5 F3), kept nowhere else in the chain.
    assert delete_note("ticket 9", row) == "ticket 9 (row 7)"


def test_a_removal_journals_each_rows_reason_with_its_delete(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    campaign = sandbox.seed_campaign("Solar Savings Outreach")
    sandbox.bulk_seed_dnc(
        [("3036195031", "1", campaign, "", ""), ("3036195032", "1", campaign, "", "")]
    )
    path = tmp_path / "remove.csv"
    path.write_text(
        "Phone,Remarks\n3036195031,caller asked twice\n3036195032,@SUM(A1)\n", encoding="utf-8"
    )
    settings = JobSettings(path, Scope.campaign(campaign), note="batch 12")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    api = ApiClient(sandbox.base_url, TOKEN)
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    try:
        assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
        report = write_report(store, tmp_path / "report.xlsx")
    finally:
        session.close()
        store.close()
    header, rows = _rows(report)
    assert "Late" not in header and header[-1] == "Reason"
    reason, outcome = header.index("Reason"), header.index("Outcome")
    assert [(r[outcome], r[reason]) for r in rows] == [
        ("removed", "caller asked twice"),
        ("removed", "@SUM(A1)"),
    ]
    intents = {
        e.phone: e.note for e in journal.query(operation="dnc.delete") if e.phase == "intent"
    }
    assert intents == {
        "+13036195031": "batch 12 (row 2: caller asked twice)",
        "+13036195032": "batch 12 (row 3: @SUM(A1))",
    }
