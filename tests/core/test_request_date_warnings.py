"""Request dates the 10-business-day limit cannot be checked on (black-box D4): a cell that is
not a date ("N/A", "13/25/2026", "Monster 11/02/2026"), a date after the insertion date, an empty
cell in the request-date column. They are counted in the check's summary and named in one
staging warning (the CLI's note line, the JSON's warnings, the report's Summary), not only in
the report's Message column; a date after the insertion date has no business days."""

from __future__ import annotations

import csv
import datetime as dt
import json
import sqlite3
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.import_job import stage_import
from app.core.job_report import lateness, settled_message, sheet_shown, write_report
from app.core.job_runner import JobRunner, RowResult
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, Outcome
from app.core.sheet_check import DATE_AFTER, DATE_MISSING, DATE_UNREAD, CheckOptions, check_all
from app.core.sheet_dates import business_days_between
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import unchecked_dates_sentence

# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"

TODAY = dt.date.today()
LATER = TODAY + dt.timedelta(days=40)
OLD = TODAY - dt.timedelta(days=90)


def _csv(path: Path, dates: list[str | None]) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone", "Date received"])
        for i, date in enumerate(dates):
            writer.writerow([f"303555{1300 + i:04d}", date or ""])
    return path


# Rows 2.. of the file: which cannot be checked, and why.
DATES: list[str | None] = [
    OLD.isoformat(),  # 2: late
    "N/A",  # 3: not a date
    TODAY.isoformat(),  # 4
    None,  # 5: empty
    "13/25/2026",  # 6: not a date
    LATER.isoformat(),  # 7: after the insertion date
    "Monster 11/02/2026",  # 8: not a date
    (LATER + dt.timedelta(days=3)).isoformat(),  # 9: after
]
WARNING = (
    "3 rows' request dates could not be read (rows 3, 6 and 8) and 2 are after the insertion "
    "date (rows 7 and 9); 1 row has no request date (row 5): their 10-business-day limit was "
    "not checked (the report's Message column says why for each row with a date; the "
    "others' date cells are empty)."
)


def _report(path: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    book = openpyxl.load_workbook(path)  # not read-only: rows keep their empty last cells
    return list(book["Summary"].iter_rows(values_only=True)), list(
        book["Rows"].iter_rows(values_only=True)
    )


def test_the_check_counts_each_kind_and_names_the_rows() -> None:
    rows = [(n, [f"303555{1300 + n:04d}", d]) for n, d in enumerate(DATES, 2)]
    rows.append((10, ["303555130", "N/A"]))  # an invalid number: no limit to check
    rows.append((11, ["3035551302", None]))  # a duplicate of row 2: checked on row 2
    checked, summary = check_all(rows, ColumnMapping(phone=0, request_date=1), CheckOptions())
    issues = {c.row: c.date_issue for c in checked if c.date_issue}
    assert issues == {
        3: DATE_UNREAD,
        5: DATE_MISSING,
        6: DATE_UNREAD,
        7: DATE_AFTER,
        8: DATE_UNREAD,
        9: DATE_AFTER,
        11: DATE_MISSING,
    }
    assert (summary.unread_dates.count, summary.unread_dates.first) == (3, [3, 6, 8])
    assert (summary.future_dates.count, summary.future_dates.first) == (2, [7, 9])
    assert (summary.undated.count, summary.undated.first) == (1, [5])
    # A date after the insertion date is no count of business days.
    after = checked[5]
    assert (after.request_date, after.business_days, after.late) == (LATER, None, False)
    assert after.date_note == "the request date is after the insertion date"
    # The lists are not counts the wizard shows.
    assert "unread_dates" not in summary.as_dict()
    mapping = ColumnMapping(phone=0, request_date=1)
    assert unchecked_dates_sentence(mapping, summary) == WARNING


def test_one_kind_alone_and_many_rows_are_worded_so() -> None:
    mapping = ColumnMapping(phone=0, request_date=1)
    _, one = check_all([(2, ["3035551300", "N/A"])], mapping, CheckOptions())
    assert unchecked_dates_sentence(mapping, one) == (
        "1 row's request date could not be read (row 2): its 10-business-day limit was not "
        "checked (each row's message in the report says why)."
    )
    many = [(n, [f"303555{1000 + n:04d}", LATER]) for n in range(2, 16)]
    many += [(n, [f"303555{1000 + n:04d}", None]) for n in range(16, 18)]
    _, summary = check_all(many, mapping, CheckOptions())
    assert unchecked_dates_sentence(mapping, summary) == (
        "14 rows' request dates are after the insertion date (rows 2, 3, 4, 5, 6, 7, 8, 9, 10, "
        "11 and 4 more); 2 rows have no request date (rows 16 and 17): their 10-business-day "
        "limit was not checked (the report's Message column says why for each row with a "
        "date; the others' date cells are empty)."
    )
    _, clean = check_all([(2, ["3035551300", TODAY])], mapping, CheckOptions())
    assert unchecked_dates_sentence(mapping, clean) == ""
    # No request-date column: nothing to say.
    _, none = check_all([(2, ["3035551300"])], ColumnMapping(phone=0), CheckOptions())
    assert unchecked_dates_sentence(ColumnMapping(phone=0), none) == ""


def test_staging_warns_and_the_report_shows_no_days_for_a_date_after_insertion(
    tmp_path: Path,
) -> None:
    path = _csv(tmp_path / "dates.csv", DATES)
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    assert store.meta()["warnings"] == [WARNING]
    assert (summary.late_requests, summary.valid) == (1, len(DATES))
    store.close()
    assert lateness(LATER.isoformat(), "", "") == (None, False)
    assert lateness(OLD.isoformat(), "", "")[1] is True


def test_the_cli_says_it_on_a_note_line_in_the_json_and_in_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _csv(tmp_path / "dates.csv", DATES)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert WARNING in data["warnings"]
    assert data["late_requests"] == 1
    summary, rows = _report(data["report"])
    assert ("Warning", WARNING) in summary
    by_row = {r[0]: r for r in rows[1:]}
    # Row 7's date is after the insertion date: no business days, not late; its note stays.
    assert by_row[7][8:] == (LATER.isoformat(), None, None)
    assert by_row[7][6] == "row 7: the request date is after the insertion date"
    assert by_row[3][6] == f"row 3: request date: 'N/A' is not a date{READ_AS_DATES}"
    assert by_row[7][7] is None and by_row[3][7] is None  # no phone cell was damaged
    assert main(argv) == 0
    assert f"  note: {WARNING}" in capsys.readouterr().out.splitlines()


def test_a_removal_has_no_request_dates_to_warn_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _csv(tmp_path / "dates.csv", DATES)
    assert main(["remove", str(path), "--scope", "global", "--dry-run", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert not any("business-day" in w for w in data["warnings"])


# ---- the late message says the day it counts to (black-box D10) -------------------------


def _row(message: str, request_date: str, row_number: int = 5) -> JobRow:
    return JobRow(
        seq=1,
        row_number=row_number,
        original="3035551300",
        national="3035551300",
        phone_code="1",
        scope="global",
        reason="",
        purpose="",
        request_date=request_date,
        damage="",
        state="sending",
        outcome="",
        code="",
        message=message,
        done_at="",
    )


CHECKED = (
    "request received 2026-11-10, 9 business days before 2026-11-24, when the file was checked "
    "(limit 10)"
)


def test_a_row_inserted_says_how_late_its_insertion_was() -> None:
    done = dt.date(2026, 11, 30)  # Thanksgiving (Nov 26) is no business day: 12
    inserted = (
        "request received 2026-11-10, 12 business days before its insertion on 2026-11-30 "
        "(limit 10)"
    )
    # Not late when checked, late when sent (a resume days later): the message says so.
    assert settled_message(_row("", "2026-11-10"), Outcome.INSERTED, done) == f"row 5: {inserted}"
    late_checked = CHECKED.replace("9 business", "11 business")
    # Late when checked: counted again to the insertion, in place, other notes kept.
    staged = f"row 5: the label 'cell' was left out; {late_checked}; reason cut to 255 characters"
    assert settled_message(_row(staged, "2026-11-10"), Outcome.INSERTED, done) == (
        f"row 5: the label 'cell' was left out; {inserted}; reason cut to 255 characters"
    )
    # Found on the list: the check's sentence goes and the import's own words say how late it
    # was, counted to when the number was first listed (black-box L3 #1).
    assert settled_message(_row("", "2026-11-10"), Outcome.ALREADY_PRESENT, done) == ""
    assert settled_message(_row(staged, "2026-11-10"), Outcome.ALREADY_PRESENT, done) == (
        "row 5: the label 'cell' was left out; reason cut to 255 characters"
    )
    # Not honoured: the check's own sentence stays; a row late only now says when it ended.
    failed = f"row 5: {late_checked}"
    assert settled_message(_row(failed, "2026-11-10"), Outcome.FAILED, done) == failed
    assert settled_message(_row("", "2026-11-10"), Outcome.FAILED, done) == (
        "row 5: request received 2026-11-10, 12 business days before 2026-11-30, when this row "
        "ended without being inserted (limit 10)"
    )
    # Not late at its insertion: nothing to say; no date: the message as staged.
    on_time = dt.date(2026, 11, 12)
    assert settled_message(_row("", "2026-11-10"), Outcome.INSERTED, on_time) == ""
    assert settled_message(_row(f"row 5: {CHECKED}", "2026-11-10"), Outcome.INSERTED, on_time) == ""
    assert settled_message(_row("row 5: x", ""), Outcome.INSERTED, done) == "row 5: x"


def test_a_run_after_the_check_writes_the_late_message_of_each_inserted_row(
    tmp_path: Path,
) -> None:
    path = _csv(tmp_path / "late.csv", [OLD.isoformat(), OLD.isoformat(), TODAY.isoformat()])
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    staged = {r.row_number: r.message for r in store.rows()}
    assert staged[2].endswith("when the file was checked (limit 10)")
    # As a check made before row 2 was late left it (the black-box run: checked on Nov 24,
    # resumed on Nov 30): no late sentence.
    db = sqlite3.connect(store.path)
    db.execute("UPDATE rows SET message = '' WHERE row_number = 2")
    db.commit()
    db.close()

    def send(row: JobRow, resent: bool) -> RowResult:
        if row.row_number == 3:
            return RowResult(Outcome.FAILED, "HTTP 500: the service failed")
        return RowResult(Outcome.INSERTED)

    JobRunner(store, send, concurrency=1).run()
    report = write_report(store, tmp_path / "report.xlsx")
    _, rows = _report(str(report))
    by_row = {r[0]: r for r in rows[1:]}
    done = {r.row_number: r.done_at[:10] for r in store.rows()}
    days = business_days_between(OLD, dt.date.fromisoformat(done[2]))
    assert by_row[2][6] == (
        f"row 2: request received {OLD.isoformat()}, {days} business days before its insertion "
        f"on {done[2]} (limit 10)"
    )
    assert by_row[2][9:] == (days, "late")
    # Row 3 was not inserted: the check's sentence stays, then why it failed.
    assert by_row[3][6] == f"{staged[3]}; HTTP 500: the service failed"
    assert by_row[4][6] is None  # on time
    store.close()


def test_the_summary_names_no_sheet_for_a_text_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _csv(tmp_path / "k500.csv", [TODAY.isoformat()])
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--json"]) == 0
    summary, _ = _report(json.loads(capsys.readouterr().out)["report"])
    assert ("Sheet", "(text file)") in summary
    # As the CLI's "columns read" line, which names the sheet of a workbook only.
    assert main(argv) == 0
    assert "  columns read: phone = 'Phone' (A)" in capsys.readouterr().out
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Opt-outs"
    sheet.append(["Phone"])
    sheet.append(["3035551300"])
    book.save(tmp_path / "k500.xlsx")
    assert main(["import", str(tmp_path / "k500.xlsx"), *argv[2:], "--json"]) == 0
    summary, _ = _report(json.loads(capsys.readouterr().out)["report"])
    assert ("Sheet", "Opt-outs") in summary
    # A job file staged before text files said so: known by its file's name.
    assert sheet_shown({"sheet": "k500", "file": "/data/k500.CSV"}) == "(text file)"
    assert sheet_shown({"sheet": "k500", "file": "/data/k500.xlsx"}) == "k500"
