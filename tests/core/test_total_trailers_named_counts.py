"""A report's trailer naming what it counts ("Total Opt-Outs: 6", "Records:" beside "6
records", "Number of records: 6", "Rows: 6", "6 records", "Opt-outs total: 6") says it is a
total line, as "Total" and "Count of Phone" do (black-box B7 #7: they were "it has only 1
digit" and "the phone number is empty"); a number with a word ("Cell: 480-555-5503",
"Records 4805555503") is judged as the phone number it is."""

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

TOTAL = "a report's total line, not a row of the table"
HEADERS = ("Name", "Phone", "Reason")
MAPPING = ColumnMapping(header_row=1, headers=HEADERS, phone=1)


def _check(cells: list[object]) -> tuple[Outcome, str]:
    rows = [(1, list(HEADERS)), (2, ["Ann", "303-555-0100", "verbal"]), (3, cells)]
    checked, _ = check_all(rows, MAPPING)  # type: ignore[arg-type]
    return checked[1].outcome, checked[1].message


@pytest.mark.parametrize(
    "label",
    [
        "Total Opt-Outs: 6",
        "Total DNC requests: 12",
        "Total DNC requests 12",
        "Total # of opt-outs: 6",
        "Grand Total Opt-Outs: 6",
        "Total opt-outs (6)",
        "Records: 6",
        "Records:",
        "Rows: 6",
        "Rows returned: 6",
        "Opt-outs: 6",
        "Number of records: 6",
        "No. of records: 6",
        "# of opt-outs: 6",
        "6 records",
        "(6 records)",
        "6 records found",
        "Showing 6 records",
        "1 record",
        "Opt-outs total: 6",
        "Opt-Out Total: 6",
        "Records total: 6",
        "Row count: 6",
    ],
)
def test_a_trailer_in_the_phone_column_is_a_total_line(label: str) -> None:
    assert _check([None, label, None]) == (
        Outcome.INVALID,
        f"row 3: phone: the row holds only {label!r} (column B): {TOTAL}",
    )


@pytest.mark.parametrize(
    ("cells", "said"),
    [
        (["Records:", None, "6 records"], "'Records:' (column A) and '6 records' (column C)"),
        (["Records:", None, 6], "'Records:' (column A) and 6 (column C)"),
        (["Number of records", None, "6"], "'Number of records' (column A) and '6' (column C)"),
        (["Total Opt-Outs", None, 6], "'Total Opt-Outs' (column A) and 6 (column C)"),
        (["Total", None, "(6 opt-outs)"], "'Total' (column A) and '(6 opt-outs)' (column C)"),
    ],
)
def test_a_trailer_beside_its_count_is_a_total_line(cells: list[object], said: str) -> None:
    assert _check(cells) == (Outcome.INVALID, f"row 3: phone: the row holds only {said}: {TOTAL}")


INVALID, VALID = Outcome.INVALID, Outcome.VALID


@pytest.mark.parametrize(
    ("cells", "outcome", "said"),
    [
        # A phone number with a word, or a word of a header before a phone number.
        ([None, "Cell: 480-555-5503", None], VALID, "the label 'Cell' was left out"),
        ([None, "Records 4805555503", None], INVALID, "has words around the number"),
        ([None, "Rows: 480-555-5503", None], INVALID, "has words around the number"),
        (["Records:", "4805555503", None], VALID, ""),
        (["Total: 4805555503", None, None], INVALID, "the phone number is empty"),
        (["Number of records: 4805555503", None, None], INVALID, "the phone number is empty"),
        # A short number with a label that counts nothing: judged as the number it is.
        ([None, "Cell 5550", None], INVALID, "too short for a US number: 4 digits"),
        ([None, "Number: 5550", None], INVALID, "too short for a US number: 4 digits"),
        ([None, "Phone: 6", None], INVALID, "this does not look like a phone number"),
        ([None, "Total Fitness", None], INVALID, "'Total Fitness' is not a phone number"),
        # Other text beside the label: a row of the table.
        (["Records:", None, "refund"], INVALID, "the phone number is empty"),
        (["Total", None, "6 records", "see notes"], INVALID, "the phone number is empty"),
    ],
)
def test_rows_of_the_table_are_not_total_lines(
    cells: list[object], outcome: Outcome, said: str
) -> None:
    got, message = _check(cells)
    assert got is outcome
    assert "total line" not in message and said in message


def test_total_line_names_the_count_beside_the_label() -> None:
    assert total_line(["Records:", None, "6 records"], 1) == (
        f"the row holds only 'Records:' (column A) and '6 records' (column C): {TOTAL}"
    )
    assert total_line(["Records:", None, "6 days late"], 1) == ""


def test_the_finding_files(tmp_path: Path) -> None:
    # The shapes of f45_vendor_portal_report.xlsx and f03_totals.xlsx.
    day = dt.datetime(2026, 11, 20, 9, 30)
    portal: list[list[object]] = [
        ["Vendor Portal - Opt-Out Report"],
        [],
        ["#", "Opt-Out Date", "Mobile Number", "Keyword", "Carrier"],
    ]
    portal += [[i, day, f"1212555450{i}", "STOP", "Verizon"] for i in range(6)]
    portal += [[], [None, None, "Total Opt-Outs: 6"]]
    totals: list[list[object]] = [["Name", "Phone", "Reason"]]
    totals += [[f"P{i}", f"303-555-030{i}", "verbal"] for i in range(6)]
    totals += [[], ["Total", "6"], ["Count of Phone", 6], ["Records:", None, "6 records"]]
    for name, rows, number, said in [
        ("portal.xlsx", portal, 11, "'Total Opt-Outs: 6' (column C)"),
        ("totals.xlsx", totals, 11, "'Records:' (column A) and '6 records' (column C)"),
    ]:
        path = write_sheets(tmp_path / name, {"Report": rows})
        store, summary = stage_import(
            JobSettings(path, Scope.global_()), tmp_path / f"jobs-{name}", connection=None
        )
        with store:
            got = {r.row_number: r for r in store.rows()}
        assert got[number].outcome == "invalid"
        assert got[number].message == f"row {number}: phone: the row holds only {said}: {TOTAL}"
        assert summary.valid == 6
