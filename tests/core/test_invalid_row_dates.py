"""An invalid row whose phone number is valid (a campaign that does not exist, a purpose clash)
keeps its normalized number, request date, business days and lateness (black-box D8): whoever
fixes the row must see that the request is overdue already. Late ones count among the late
requests, and the warning and the report's Summary say that some of them were not sent."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.import_job import stage_import
from app.core.job_exec import finish_dry_run
from app.core.job_report import LATE_INVALID, LATE_INVALID_LABEL
from app.core.job_staging import JobSettings
from app.core.sheet_check import CheckOptions, Outcome, check_all
from app.core.sheet_dates import business_days_between
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import late_invalid_sentence

# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"

INSERTED = dt.date(2026, 11, 20)
LOOKUP = {"Solar Savings Outreach": "1001"}
TODAY = dt.date.today()
OLD = TODAY - dt.timedelta(days=90)


def test_an_invalid_row_keeps_its_number_date_and_lateness() -> None:
    mapping = ColumnMapping(phone=0, campaign=1, purpose=2, request_date=3)
    options = CheckOptions(insertion_date=INSERTED, campaign_lookup=LOOKUP)
    rows = [
        (2, ["3035551901", "Solar Savings Outreach", None, "2026-11-02"]),  # valid, late
        (3, ["3035551902", "Nope Campaign", None, "2026-01-05"]),  # invalid, late
        (4, ["12345", "Solar Savings Outreach", None, "2026-01-05"]),  # invalid number
        (5, ["3035551903", "Nope Campaign", None, "2026-11-19"]),  # invalid, not late
        (6, ["3035551904", "purpose:Surveys", "Marketing", "2026-01-05"]),  # purpose clash
        (7, ["3035551905", "Nope Campaign", None, "not sure"]),  # invalid, no date read
    ]
    checked, summary = check_all(rows, mapping, options)
    assert [c.outcome for c in checked] == [Outcome.VALID] + [Outcome.INVALID] * 5
    days = business_days_between(dt.date(2026, 1, 5), INSERTED)
    third = checked[1]
    assert (third.phone_code, third.national) == ("1", "3035551902")
    assert (third.request_date, third.business_days, third.late) == (
        dt.date(2026, 1, 5),
        days,
        True,
    )
    assert third.message == (
        "row 3: campaign: no campaign is named 'Nope Campaign'; request received 2026-01-05, "
        f"{days} business days before 2026-11-20, when the file was checked (limit 10)"
    )
    # An invalid number has no number to keep, and no request to count; its request date is
    # kept, what the file said (black-box Q3 #6).
    assert (
        checked[2].national,
        checked[2].request_date,
        checked[2].business_days,
        checked[2].late,
    ) == ("", dt.date(2026, 1, 5), None, False)
    assert (checked[3].national, checked[3].business_days, checked[3].late) == (
        "3035551903",
        1,
        False,
    )
    assert checked[3].message == "row 5: campaign: no campaign is named 'Nope Campaign'"
    assert (checked[4].national, checked[4].late) == ("3035551904", True)
    assert checked[4].message.startswith("row 6: purpose: the row says 'Marketing'")
    assert (checked[5].national, checked[5].date_note) == (
        "3035551905",
        f"'not sure' is not a date{READ_AS_DATES}",
    )
    assert summary.late_requests == 3  # rows 2, 3 and 6
    assert (summary.late_invalid.count, summary.late_invalid.first) == (2, [3, 6])
    assert summary.unread_dates.first == [7]
    assert late_invalid_sentence(summary) == (
        "The late requests include 2 invalid rows, which are not sent (rows 3 and 6): their "
        "request dates are already more than 10 business days old; fix those rows (each row's "
        "message says what is wrong) and import them soon."
    )


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "q4.csv"
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone", "Campaign Name", "Date requested"])
        writer.writerow(["3035551901", "Solar Savings Outreach", OLD.isoformat()])  # 2
        writer.writerow(["3035551902", "Nope Campaign", OLD.isoformat()])  # 3: invalid, late
        writer.writerow(["3035551903", "Nope Campaign", TODAY.isoformat()])  # 4: invalid
        writer.writerow(["3035551904", "Solar Savings Outreach", TODAY.isoformat()])  # 5
    return path


def _book(path: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    book = openpyxl.load_workbook(path)
    return list(book["Summary"].iter_rows(values_only=True)), list(
        book["Rows"].iter_rows(values_only=True)
    )


def test_the_report_keeps_them_and_counts_the_late_one(tmp_path: Path) -> None:
    store, summary = stage_import(
        JobSettings(_file(tmp_path), Scope.global_()),
        tmp_path / "jobs",
        connection=None,
        campaign_lookup=LOOKUP,
    )
    assert (summary.valid, summary.invalid, summary.late_requests) == (2, 2, 2)
    warning = (
        "The late requests include 1 invalid row, which is not sent (row 3): their request "
        "dates are already more than 10 business days old; fix those rows (each row's message "
        "says what is wrong) and import them soon."
    )
    assert warning in store.meta()["warnings"]
    report = finish_dry_run(store)
    assert (store.meta()["late_requests"], store.meta()[LATE_INVALID]) == (2, 1)
    sheet, rows = _book(str(report))
    days = business_days_between(OLD, TODAY)
    by_row = {r[0]: r for r in rows[1:]}
    assert by_row[3][1:4] == ("3035551902", "3035551902", "1")
    assert by_row[3][5] == "invalid"
    assert by_row[3][8:] == (OLD.isoformat(), days, "late")
    assert by_row[4][8:] == (TODAY.isoformat(), 0, None)
    assert ("Requests later than 10 business days", 2) in sheet
    assert (LATE_INVALID_LABEL, 1) in sheet
    store.close()


def test_no_late_invalid_row_no_summary_line(tmp_path: Path) -> None:
    path = tmp_path / "ok.csv"
    path.write_text(f"Phone,Date requested\n3035551901,{OLD.isoformat()}\n")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    sheet, _ = _book(str(finish_dry_run(store)))
    assert ("Requests later than 10 business days", 1) in sheet
    assert not any(row[0] == LATE_INVALID_LABEL for row in sheet)
    assert not any("invalid row" in str(w) for w in store.meta().get("warnings") or [])
    store.close()


def test_the_cli_counts_late_invalid_rows_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Offline, a campaign name cannot be looked up: those rows are invalid, numbers valid.
    argv = ["import", str(_file(tmp_path)), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["invalid"], data["late_requests"]) == (4, 2)
    assert any(
        w.startswith("The late requests include 2 invalid rows, which are not sent (rows 2 and 3)")
        for w in data["warnings"]
    )


def test_a_duplicate_row_is_not_counted_late_again(tmp_path: Path) -> None:
    # The check counts a late number once (on its first row); the report and the job's
    # count (--json late_requests) counted its duplicate rows too: 3 late requests for 2.
    path = tmp_path / "dups.csv"
    path.write_text(
        "Phone,Date requested\n"
        f"3035551901,{OLD.isoformat()}\n"
        f"3035551902,{OLD.isoformat()}\n"
        f"3035551901,{(OLD + dt.timedelta(days=1)).isoformat()}\n"
        f"3035551903,{TODAY.isoformat()}\n"
    )
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    assert (summary.late_requests, summary.duplicates_in_file) == (2, 1)
    report = finish_dry_run(store)
    assert store.meta()["late_requests"] == 2
    sheet, rows = _book(str(report))
    assert ("Requests later than 10 business days", 2) in sheet
    duplicate = next(r for r in rows[1:] if r[0] == 4)
    assert duplicate[5] == "duplicate_in_file"
    # Its request date stays; its days and lateness are its first row's (row 2).
    assert duplicate[8:] == ((OLD + dt.timedelta(days=1)).isoformat(), None, None)
    assert sum(1 for r in rows[1:] if r[10] == "late") == 2
    store.close()
