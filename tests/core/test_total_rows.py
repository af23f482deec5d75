"""A report's total line ("Total | | 20" ending a NetSuite saved search, "Subtotal | | 4" after
each group of a Salesforce summary report, "Count", "Sum") is invalid and says it is a total,
not "too short for a US number: 2 digits" or "this does not look like a phone number"
(black-box Q1 #3)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import Outcome, check_all
from app.core.sheet_header import total_line
from app.core.sheet_mapping import ColumnMapping
from tests.core.sheet_factory import write_sheets

DAY = dt.datetime(2026, 11, 18)


def _messages(path: Path, tmp_path: Path) -> dict[int, tuple[str, str]]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    rows = {r.row_number: (str(r.outcome), r.message) for r in store.rows()}
    store.close()
    return rows


def test_a_netsuite_total_row(tmp_path: Path) -> None:
    rows: list[list[object]] = [
        ["Acme Lending Corp"],
        ["DNC Saved Search"],
        [],
        ["Internal ID", "Name", "Phone", "Date Received", "Memo"],
    ]
    rows += [[1000 + i, f"Cust {i}", f"602-555-43{i:02d}", DAY, ""] for i in range(20)]
    rows += [["Total", None, 20], ["Total records: 20"]]
    path = write_sheets(tmp_path / "netsuite_search.xlsx", {"Results": rows})
    messages = _messages(path, tmp_path)
    assert messages[25] == (
        "invalid",
        "row 25: phone: the row holds only 'Total' (column A) and 20 (column C): a report's "
        "total line, not a row of the table",
    )


def test_salesforce_subtotal_rows(tmp_path: Path) -> None:
    rows: list[list[object]] = [["Opt-Out Source", "Contact: Full Name", "Phone", "Opt-Out Date"]]
    rows += [["Opt-Out Source: Web form (2 records)"]]
    rows += [[None, f"Person {i}", f"(512) 555-810{i}", DAY] for i in range(2)]
    rows += [["Subtotal", None, 2]]
    rows += [[None, "Person 2", "(512) 555-8102", DAY]]
    rows += [["Subtotal", None, 1], ["Grand Total (3 records)"]]
    path = write_sheets(tmp_path / "sf_summary_report.xlsx", {"Report": rows})
    messages = _messages(path, tmp_path)
    assert messages[5] == (
        "invalid",
        "row 5: phone: the row holds only 'Subtotal' (column A) and 2 (column C): a report's "
        "subtotal line, not a row of the table",
    )
    assert messages[7][1].startswith("row 7: phone: the row holds only 'Subtotal' (column A)")
    assert [m for m in messages.values() if m[0] != "invalid"] == [("", "")] * 3


HEADERS = ("Name", "Phone", "Amount")
MAPPING = ColumnMapping(header_row=1, headers=HEADERS, phone=1)


def _check(cells: list[object]) -> tuple[Outcome, str]:
    checked, _ = check_all([(1, list(HEADERS)), (2, cells)], MAPPING)  # type: ignore[list-item]
    return checked[0].outcome, checked[0].message


@pytest.mark.parametrize(
    ("cells", "said"),
    [
        (["Total", 20, 1500.5], "'Total' (column A), 20 (column B) and 1500.5 (column C)"),
        (["Count", "12"], "'Count' (column A) and '12' (column B)"),
        (["Sum", None, 44], "'Sum' (column A) and 44 (column C)"),
        (["Grand Total", 9.0], "'Grand Total' (column A) and 9 (column B)"),
        (["Total:", "", "$1,200"], "'Total:' (column A) and '$1,200' (column C)"),
    ],
)
def test_total_lines_say_so(cells: list[object], said: str) -> None:
    outcome, message = _check(cells)
    assert outcome is Outcome.INVALID
    assert message == (
        f"row 2: phone: the row holds only {said}: a report's total line, not a row of the table"
    )


@pytest.mark.parametrize(
    "cells",
    [
        ["Sum Kim", 20],  # a name that only begins so
        ["Totally Fit LLC", 20],
        ["Total", 20, "refund"],  # other text: a row of the table
        ["Bo", 20],
    ],
)
def test_other_short_numbers_are_not_totals(cells: list[object]) -> None:
    outcome, message = _check(cells)
    assert outcome is Outcome.INVALID
    assert "total line" not in message


def test_a_total_row_holding_a_phone_number_is_read_as_one() -> None:
    assert _check(["Total", "303-555-0100"]) == (Outcome.VALID, "")
    assert total_line(["Total", "303-555-0100"], 1) == ""
