"""A report's trailer counting its rows in the phone column ("Total: 7 opt-outs", "Total 7
records", "7 opt-outs total", "Count: 12") says it is a total line (black-box B2 #6: "'Total: 7
opt-outs' is not a phone number: it has only 1 digit"); a row of the table whose note begins
with such words, or whose phone cell holds a number beside one, is judged as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import Outcome, check_all
from app.core.sheet_mapping import ColumnMapping

TOTAL = "a report's total line, not a row of the table"
HEADERS = ("Phone", "First Name", "Last Name", "Notes")
MAPPING = ColumnMapping(header_row=1, headers=HEADERS, phone=0)


def _check(cells: list[object]) -> tuple[Outcome, str]:
    rows = [(1, list(HEADERS)), (2, ["303-555-0100", "Ann", "Lee", ""]), (3, cells)]
    checked, _ = check_all(rows, MAPPING)  # type: ignore[arg-type]
    return checked[1].outcome, checked[1].message


@pytest.mark.parametrize(
    "label", ["Total: 7 opt-outs", "Total 7 records", "7 opt-outs total", "Count: 12"]
)
def test_a_trailer_in_the_phone_column_is_a_total_line(label: str) -> None:
    assert _check([label, None, None, None]) == (
        Outcome.INVALID,
        f"row 3: phone: the row holds only {label!r} (column A): {TOTAL}",
    )


@pytest.mark.parametrize(
    ("cells", "said"),
    [
        # A row of the table: a note beginning so, beside a name or a number not valid.
        (["303-555", "Ann", "Lee", "Total 7 records"], "too short for a US number"),
        ([None, "Ann", "Lee", "Total: 7 opt-outs"], "the phone number is empty"),
        (["Total Fitness", None, None, None], "'Total Fitness' is not a phone number"),
    ],
)
def test_rows_of_the_table_are_not_total_lines(cells: list[object], said: str) -> None:
    outcome, message = _check(cells)
    assert outcome is Outcome.INVALID
    assert "total line" not in message and said in message


def test_a_number_written_after_total_is_read_as_the_number() -> None:
    assert _check(["Total 303-555-0101", None, None, None]) == (
        Outcome.INVALID,
        "row 3: phone: 'Total 303-555-0101' has words around the number; enter the number alone",
    )


def test_the_finding_file(tmp_path: Path) -> None:
    # The shape of v11_trailer.csv: blank lines, an empty line of commas, then the trailer.
    path = tmp_path / "v11_trailer.csv"
    path.write_text(
        "Phone Number,First Name,Last Name,Opt Out Date,Keyword,Notes\n"
        "+13036193460,José,Núñez,2026-11-10,STOP,said stop twice\n"
        "303.619.3462,Ann,O'Neil,2026-11-13,STOP ALL,\n"
        "\n\n,,,,,\nTotal: 2 opt-outs,,,,,\n",
        encoding="utf-8",
    )
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        rows = {r.row_number: r for r in store.rows()}
    assert (summary.valid, summary.invalid) == (2, 1)
    assert rows[7].message == (
        f"row 7: phone: the row holds only 'Total: 2 opt-outs' (column A): {TOTAL}"
    )
