"""Black-box finding in header detection: a vendor's key/value preamble above the table
("Contact phone:, 202-555-0199") must not hide the header below it; a header that would skip
rows of numbers in its own phone column is never chosen."""

from __future__ import annotations

from pathlib import Path

from app.core.sheet_check import check_all
from app.core.sheet_header import detect_header
from app.core.sheet_mapping import propose_from_preview
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import CellValue, Row


def numbered(*rows: list[CellValue]) -> list[Row]:
    return [(i, list(r)) for i, r in enumerate(rows, 1)]


PREAMBLE: list[list[CellValue]] = [
    ["Vendor:", "ACME Corp", None],
    ["Date:", "2026-01-05", None],
    ["Contact phone:", "202-555-0199", None],
    [None, None, None],
]


def test_a_preamble_with_a_contact_number_does_not_hide_the_header() -> None:
    rows = numbered(
        *PREAMBLE,
        ["Phone", "Reason", "Date received"],
        ["2025550101", "asked", "2026-01-02"],
        ["2025550102", "rude", "2026-01-02"],
    )
    assert detect_header(rows) == 5


def test_the_whole_file_checks_from_below_the_header(tmp_path: Path) -> None:
    path = tmp_path / "vendor.csv"
    lines = [
        "Vendor:,ACME Corp",
        "Date:,2026-01-05",
        "Contact phone:,202-555-0199",
        "",
        "Phone,Reason,Date received",
        "2025550101,asked,2026-01-02",
        "2025550102,rude,2026-01-02",
    ]
    path.write_text("\n".join(lines) + "\n")
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
        checked, summary = check_all(source.iter_rows(), mapping)
    assert mapping.header_row == 5 and mapping.phone == 0
    assert [c.row for c in checked] == [6, 7]
    assert (summary.valid, summary.invalid) == (2, 0)


def test_numbers_above_a_later_header_in_its_phone_column_keep_the_file_headerless() -> None:
    # Two lists pasted together: rows 1-2 would be skipped if row 3 became the header.
    rows = numbered(
        ["2025550101", "asked"],
        ["2025550102", "rude"],
        ["Phone", "Reason"],
        ["2025550103", "x"],
    )
    assert detect_header(rows) is None
