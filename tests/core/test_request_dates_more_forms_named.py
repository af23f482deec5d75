"""A request-date cell that is not a date is told which forms are read (black-box B30 F9c:
"'Nov the 2nd' is not a date" named none, and the officer could not tell how to write it).

The forms named are read: each is Nov 2, 2026.
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core import sheet_dates
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_dates import parse_request_date

FORMS = ("2026-11-02", "11/02/2026", "02.11.2026", "2 Nov 2026")
SAID = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"


@pytest.mark.parametrize("form", FORMS)
def test_each_form_named_is_read(form: str) -> None:
    assert parse_request_date(form, dt.date(2026, 11, 25)).date == dt.date(2026, 11, 2)


def test_the_forms_named_are_these() -> None:
    assert getattr(sheet_dates, "READ_FORMS", None) == FORMS


@pytest.mark.parametrize(
    ("cell", "note"),
    [
        ("Nov the 2nd", "'Nov the 2nd' is not a date"),
        ("13/25/2026", "'13/25/2026' is not a date"),
        (True, "TRUE is not a date"),
        (12.5, "12.5 is not a date"),
    ],
)
def test_a_cell_not_a_date_names_the_forms_read(cell: str | bool | float, note: str) -> None:
    assert parse_request_date(cell).note == f"{note}{SAID}"


def test_other_notes_name_none() -> None:
    assert parse_request_date(dt.time(10, 30)).note == "10:30 is a time of day, not a date"
    assert "read as dates" not in parse_request_date("1899-12-25").note


def test_the_rows_message_says_it(tmp_path: Path) -> None:
    path = tmp_path / "requests.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["Phone", "Date received"], ["3125550101", "N/A"]])
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    (row,) = store.rows()
    assert row.message == f"row 2: request date: 'N/A' is not a date{SAID}"
    store.close()
