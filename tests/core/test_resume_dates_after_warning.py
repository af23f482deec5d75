"""The check's warning naming rows whose request date is after the insertion date agrees with
the rows once they are inserted (black-box B28 F4, its Summary and JSON leftover).

A job checked on one day and run (resumed) on a later one inserts a row dated that later day
on it: 0 business days, and b223bb4 drops the row's own note. The warning written at check
time ("… 2 are after the insertion date (rows 2 and 3) …: their 10-business-day limit was not
checked") still named it in the Summary and the JSON ``warnings``.

Staged as if checked yesterday (the check's insertion date), then run against a sandbox today.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core import job_staging
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_report import write_report
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.core.sheet_check import CheckOptions, RowList
from tests.conftest import TOKEN

TODAY = dt.date.today()


def _staged_yesterday_run_today(
    tmp_path: Path, sandbox: Any, rows: list[list[str]]
) -> tuple[Any, list[str]]:
    """The job run, and its warnings as staged."""
    path = tmp_path / "requests.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["Phone", "Date received"], *rows])
    yesterday = TODAY - dt.timedelta(days=1)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(
            job_staging, "CheckOptions", functools.partial(CheckOptions, insertion_date=yesterday)
        )
        store, _ = stage_import(
            JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
        )
    staged = list(store.meta()["warnings"])
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(
        Connection("Sandbox", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal
    )
    try:
        assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    finally:
        session.close()
        journal.close()
    return store, staged


def _summary_texts(path: Path) -> list[str]:
    book = openpyxl.load_workbook(path)
    try:
        return [str(c) for row in book["Summary"].iter_rows(values_only=True) for c in row if c]
    finally:
        book.close()


def test_a_row_inserted_on_its_request_date_leaves_the_warning(
    sandbox: Any, tmp_path: Path
) -> None:
    later = TODAY + dt.timedelta(days=40)
    store, warnings = _staged_yesterday_run_today(
        tmp_path,
        sandbox,
        [
            ["3125550101", TODAY.isoformat()],
            ["3125550102", later.isoformat()],
            ["3125550103", "N/A"],
        ],
    )
    staged = [w for w in warnings if "not checked" in w]
    assert staged == [
        "1 row's request date could not be read (row 4) and 2 are after the insertion date "
        "(rows 2 and 3): their 10-business-day limit was not checked (each row's message in "
        "the report says why)."
    ]
    report = write_report(store, tmp_path / "report.xlsx")
    said = (
        "1 row's request date could not be read (row 4) and 1 is after the insertion date "
        "(row 3): their 10-business-day limit was not checked (each row's message in the "
        "report says why)."
    )
    warnings = store.meta()["warnings"]
    assert said in warnings
    assert not [w for w in warnings if "2 are after" in w]
    assert said in _summary_texts(report)
    # Written again (a later resume), it stays so.
    write_report(store, report)
    assert [w for w in store.meta()["warnings"] if "not checked" in w] == [said]
    store.close()


def test_the_warning_goes_when_no_row_is_left_in_it(sandbox: Any, tmp_path: Path) -> None:
    store, staged = _staged_yesterday_run_today(
        tmp_path, sandbox, [["3125550104", TODAY.isoformat()]]
    )
    assert any("is after the insertion date (row 2)" in w for w in staged)
    report = write_report(store, tmp_path / "report.xlsx")
    assert not [w for w in store.meta()["warnings"] if "after the insertion date" in w]
    assert not [t for t in _summary_texts(report) if "after the insertion date" in t]
    store.close()


def test_the_other_parts_are_kept_word_for_word() -> None:
    from app.core.job_report import after_dates_revised

    staged = (
        "1 row's request date could not be read (row 6) and 2 are after the insertion date "
        "(rows 2 and 4); 1 row has no request date (row 5): their 10-business-day limit was "
        "not checked (the report's Message column says why for each row with a date; the "
        "others' date cells are empty)."
    )
    assert after_dates_revised(staged, RowList(1, [4])) == staged.replace(
        "2 are after the insertion date (rows 2 and 4)", "1 is after the insertion date (row 4)"
    )
    assert after_dates_revised(staged, RowList()) == (
        "1 row's request date could not be read (row 6); 1 row has no request date (row 5): "
        "their 10-business-day limit was not checked (the report's Message column says why "
        "for each row with a date; the others' date cells are empty)."
    )
    many = (
        "12 rows' request dates are after the insertion date (rows 2, 3, 4, 5, 6, 7, 8, 9, 10, "
        "11 and 2 more): their 10-business-day limit was not checked (each row's message in "
        "the report says why)."
    )
    assert after_dates_revised(many, RowList(12, list(range(2, 12)))) == many
    assert after_dates_revised("1 row has no request date (row 5): its limit", RowList()) is None
    assert after_dates_revised("something else", RowList()) is None
    # Another sentence's words, with no list of rows in its brackets: not this one.
    assert after_dates_revised("2 are after the insertion date (rows 2-5 here).", RowList()) is None
