"""A duplicate row is measured and counted on its first row (docs/cli.md, "Request dates"): its
own request date after the insertion date gets no note that its limit was not checked, and a
first row measured from a duplicate's earlier date keeps no such note either.

Before: in a dry run, "row 3: duplicate of row 2; the request date is after the insertion
date", though the number is measured on row 2; and "row 4: the request date is after the
insertion date; measured from row 5's request date …", a row the warning on such dates did
not name until the report, reading the notes, named it there.
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_exec import finish_dry_run
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore

TODAY = dt.date.today()
PAST = (TODAY - dt.timedelta(days=3)).isoformat()
AHEAD = (TODAY + dt.timedelta(days=40)).isoformat()
LATER = (TODAY + dt.timedelta(days=45)).isoformat()
AFTER = "the request date is after the insertion date"


def _staged(tmp_path: Path, rows: list[list[str]]) -> JobStore:
    path = tmp_path / "requests.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["Phone", "Date received"], *rows])
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    return store


def _messages(store: JobStore) -> dict[int, str]:
    return {r.row_number: r.message for r in store.rows()}


def test_a_duplicate_says_nothing_of_its_own_date_after_the_insertion_date(
    tmp_path: Path,
) -> None:
    store = _staged(
        tmp_path,
        [
            ["3125550101", PAST],
            ["3125550101", AHEAD],  # measured on row 2, in time
            ["3125550102", AHEAD],
            ["3125550102", LATER],  # measured on row 4, after the insertion date
        ],
    )
    said = _messages(store)
    assert said[3] == "row 3: duplicate of row 2"
    assert said[4] == f"row 4: {AFTER}"
    assert said[5] == "row 5: duplicate of row 4"
    finish_dry_run(store)
    warnings = [w for w in store.meta()["warnings"] if "not checked" in w]
    assert warnings == [
        "1 row's request date is after the insertion date (row 4): its 10-business-day "
        "limit was not checked (each row's message in the report says why)."
    ]
    store.close()


def test_a_first_row_measured_from_a_duplicates_date_loses_its_after_note(
    tmp_path: Path,
) -> None:
    store = _staged(
        tmp_path,
        [
            ["3125550103", AHEAD],
            ["3125550103", PAST],  # row 2 is measured from this date
            ["3125550104", LATER],
        ],
    )
    said = _messages(store)
    assert said[2] == (
        f"row 2: measured from row 3's request date {PAST}, a request for the same number "
        "(this row's is after the insertion date)"
    )
    finish_dry_run(store)
    # The report names only row 4 (the check's count): row 2 is measured.
    warnings = [w for w in store.meta()["warnings"] if "not checked" in w]
    assert warnings == [
        "1 row's request date is after the insertion date (row 4): its 10-business-day "
        "limit was not checked (each row's message in the report says why)."
    ]
    store.close()
