"""The check's warning on request dates whose limit was not checked is said again by the
report from the rows staging kept in the job file, not from its words read back.

Staging writes "1 row's request date could not be read (row 4) and 2 are after the insertion
date (rows 2 and 3): …"; a row inserted on or after its date (a resume days later) leaves the
"after" part (black-box B28 F4). The report read the rows back from those words with regexes;
now staging keeps them (``UNCHECKED_DATE_ROWS``) and the report renders the sentence from
them. A job file staged before they were kept is still revised from its words.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core import job_staging
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_report import write_report
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.core.sheet_check import CheckOptions
from tests.conftest import TOKEN

TODAY = dt.date.today()
# The job meta key of the rows kept (staging_notes.UNCHECKED_DATE_ROWS).
UNCHECKED_DATE_ROWS = "unchecked_date_rows"
STAGED = (
    "1 row's request date could not be read (row 4) and 2 are after the insertion date "
    "(rows 2 and 3); 1 row has no request date (row 5): their 10-business-day limit was not "
    "checked (the report's Message column says why for each row with a date; the others' "
    "date cells are empty)."
)
REVISED = STAGED.replace(
    "2 are after the insertion date (rows 2 and 3)", "1 is after the insertion date (row 3)"
)


def _staged_yesterday(tmp_path: Path) -> JobStore:
    """A job checked as if yesterday: row 2 is dated today (after that day), row 3 in 40
    days, row 4 unreadable, row 5 undated."""
    path = tmp_path / "requests.csv"
    rows = [
        ["3125550101", TODAY.isoformat()],
        ["3125550102", (TODAY + dt.timedelta(days=40)).isoformat()],
        ["3125550103", "N/A"],
        ["3125550104", ""],
    ]
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
    return store


def _run(store: JobStore, sandbox: Any, tmp_path: Path) -> None:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(
        Connection("Sandbox", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal
    )
    try:
        assert run_import(store, session, concurrency=2) is JobStatus.FINISHED
    finally:
        session.close()
        journal.close()


def _dates_warnings(store: JobStore) -> list[str]:
    return [w for w in store.meta().get("warnings") or [] if "not checked" in w]


def test_staging_keeps_the_rows_and_the_report_says_it_again_of_them(
    sandbox: Any, tmp_path: Path
) -> None:
    store = _staged_yesterday(tmp_path)
    assert _dates_warnings(store) == [STAGED]
    assert store.meta()[UNCHECKED_DATE_ROWS] == {
        "unread": {"count": 1, "first": [4]},
        "after": {"count": 2, "first": [2, 3]},
        "undated": {"count": 1, "first": [5]},
    }
    _run(store, sandbox, tmp_path)
    report = write_report(store, tmp_path / "report.xlsx")
    assert _dates_warnings(store) == [REVISED]
    # The job file names the rows the warning now names.
    assert store.meta()[UNCHECKED_DATE_ROWS]["after"] == {"count": 1, "first": [3]}
    write_report(store, report)
    assert _dates_warnings(store) == [REVISED]
    store.close()


def test_the_words_the_rows_are_said_again_from_are_not_read(sandbox: Any, tmp_path: Path) -> None:
    """The rows kept decide which warning is theirs: words naming other rows are not read
    back and revised."""
    store = _staged_yesterday(tmp_path)
    # As if the check had named another undated row than the rows it kept: the report goes
    # by the rows, and this is not their sentence.
    store.set_meta(
        {"warnings": [w.replace("(row 5)", "(row 9)") for w in store.meta()["warnings"]]}
    )
    _run(store, sandbox, tmp_path)
    write_report(store, tmp_path / "report.xlsx")
    assert _dates_warnings(store) == [STAGED.replace("(row 5)", "(row 9)")]
    assert store.meta()[UNCHECKED_DATE_ROWS]["after"] == {"count": 2, "first": [2, 3]}
    store.close()


def test_a_job_file_staged_before_the_rows_were_kept_is_revised_from_its_words(
    sandbox: Any, tmp_path: Path
) -> None:
    store = _staged_yesterday(tmp_path)
    path = store.path
    store.close()
    with sqlite3.connect(path) as db:  # the old form: no rows kept
        db.execute("DELETE FROM meta WHERE key = ?", (UNCHECKED_DATE_ROWS,))
    db.close()
    store = JobStore(path)
    assert UNCHECKED_DATE_ROWS not in store.meta()
    _run(store, sandbox, tmp_path)
    report = write_report(store, tmp_path / "report.xlsx")
    assert _dates_warnings(store) == [REVISED]
    write_report(store, report)
    assert _dates_warnings(store) == [REVISED]
    assert UNCHECKED_DATE_ROWS not in store.meta()
    store.close()
