"""The check's side of black-box Q3 #1 and #6 (with /tmp/bbQ/patch_q3a_sheet_check.diff).

#1: a request dated after the insertion date on a day with no business day between them (the
Saturday after a Friday, the holiday after a Wednesday) is named as after the insertion date
and has no count of business days, as a request dated the Monday after is (it was counted 0
days, on time, without a word).

#6: a row whose number is invalid (``12345``) keeps its request date, what the file said, in
the job and the report, with no business days and no late verdict."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_check import DATE_AFTER, CheckOptions, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import Row
from tests.conftest import TOKEN

AFTER = "the request date is after the insertion date"
DATED = ColumnMapping(phone=0, request_date=1, header_row=1)


@pytest.mark.parametrize(
    ("inserted", "received"),
    [
        (dt.date(2026, 11, 27), "2026-11-28"),  # Sat after Fri
        (dt.date(2026, 11, 27), "2026-11-29"),  # Sun after Fri
        (dt.date(2026, 11, 27), "2026-11-30"),  # Mon after Fri
        (dt.date(2026, 11, 25), "2026-11-26"),  # Thanksgiving after Wed
    ],
)
def test_a_request_dated_after_the_insertion_date_is_named(
    inserted: dt.date, received: str
) -> None:
    rows: list[Row] = [(1, ["Phone", "Date received"]), (2, ["3036202001", received])]
    checked, _ = check_all(rows, DATED, CheckOptions(insertion_date=inserted))
    (row,) = checked
    assert row.date_issue == DATE_AFTER
    assert row.business_days is None
    assert not row.late
    assert AFTER in row.date_note


def test_a_request_dated_on_the_insertion_date_counts_zero() -> None:
    rows: list[Row] = [(1, ["Phone", "Date received"]), (2, ["3036202001", "2026-11-27"])]
    checked, _ = check_all(rows, DATED, CheckOptions(insertion_date=dt.date(2026, 11, 27)))
    assert checked[0].business_days == 0
    assert checked[0].date_issue == ""


def test_an_invalid_number_keeps_its_request_date() -> None:
    rows: list[Row] = [
        (1, ["Phone", "Date received"]),
        (2, ["12345", "2026-11-02"]),
        (3, ["12345", "11/10/2026"]),
    ]
    checked, summary = check_all(rows, DATED, CheckOptions(insertion_date=dt.date(2026, 11, 23)))
    first, second = checked
    assert first.outcome is Outcome.INVALID
    assert (first.national, first.request_date, first.business_days, first.late) == (
        "",
        dt.date(2026, 11, 2),
        None,
        False,
    )
    assert "request received" not in first.message
    assert summary.late_requests == 0
    assert second.request_date == dt.date(2026, 11, 10)
    assert "ambiguous" in second.date_note


def test_the_report_shows_an_invalid_numbers_request_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    path = tmp_path / "dups.csv"
    old = (dt.date.today() - dt.timedelta(days=60)).isoformat()
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone", "Date received"], ["3036191101", old], ["12345", old]])
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    rows = list(openpyxl.load_workbook(data["report"])["Rows"].iter_rows(values_only=True))
    by_row = {r[0]: dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
    assert by_row[3]["Outcome"] == "invalid"
    assert by_row[3]["Request date"] == old
    assert by_row[3]["Business days to insertion"] is None
    assert by_row[2]["Late"] == "late"
    assert data["late_requests"] == 1
