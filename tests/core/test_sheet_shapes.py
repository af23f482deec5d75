"""Generated files of many shapes, read end to end (open, header, mapping, check) with the exact
counts each must produce."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping, propose_from_preview
from app.core.sheet_reader import open_sheet
from tests.core import sheet_factory as f

Counts = tuple[int, int, int, int, int, int]  # rows, valid, invalid, duplicates, blank, damaged


def analyze(
    path: Path, sheet: str | None = None, options: CheckOptions | None = None
) -> tuple[ColumnMapping, list[CheckedRow], CheckSummary]:
    with open_sheet(path, sheet) as source:
        mapping = propose_from_preview(source.preview(50))
        checked, summary = check_all(source.iter_rows(), mapping, options)
    return mapping, checked, summary


def counts(summary: CheckSummary) -> Counts:
    s = summary
    return (s.rows, s.valid, s.invalid, s.duplicates_in_file, s.blank, s.damaged)


def test_header_not_on_row_one(tmp_path: Path) -> None:
    path = f.write_xlsx(
        tmp_path / "h.xlsx",
        [
            ["Do-not-call requests, November 2026"],
            [],
            ["From: Vendor X (questions: 800-555-0100 ext 4)"],
            ["Phone Number", "Reason"],
            ["(202) 555-0123", "asked"],
            ["202-555-0124", "mail"],
            [],
            ["202555012", "typo"],
            ["2025550123", "again"],
            ["+1 202 555 0125", ""],
        ],
    )
    mapping, checked, summary = analyze(path)
    assert mapping.header_row == 4 and mapping.phone == 0 and mapping.reason == 1
    assert counts(summary) == (6, 3, 1, 1, 1, 0)
    assert [c.row for c in checked] == [5, 6, 7, 8, 9, 10]
    assert checked[3].message.startswith("row 8: phone: too short")
    assert checked[4].message == "row 9: duplicate of row 5"


def test_numbers_stored_as_numbers_floats_and_text(tmp_path: Path) -> None:
    path = f.write_xlsx(
        tmp_path / "n.xlsx",
        [["Phone"], [2025550123], [2025550124.0], ["2025550125.0"], ["2025550126"], [2025550123.0]],
    )
    _, checked, summary = analyze(path)
    assert counts(summary) == (5, 4, 0, 1, 0, 0)
    # Every digit of the text '2025550125.0' is there (black-box B6 #7): no damage.
    assert [c.damage for c in checked] == [""] * 5


def test_scientific_notation(tmp_path: Path) -> None:
    path = f.write_xlsx(
        tmp_path / "e.xlsx",
        [["Phone"], ["2.02555E+09"], ["2.025550123E+09"], ["2,02555E+09"], [12025550124.0]],
    )
    _, checked, summary = analyze(path)
    assert [c.outcome for c in checked] == [
        Outcome.INVALID,
        Outcome.VALID,
        Outcome.INVALID,
        Outcome.VALID,
    ]
    assert counts(summary) == (4, 2, 2, 0, 0, 3)


def test_apostrophes_are_text_markers_not_damage(tmp_path: Path) -> None:
    path = f.write_xlsx(tmp_path / "a.xlsx", [["Phone"], ["'2025550123"], ["'+1 202 555 0124"]])
    _, checked, summary = analyze(path)
    assert counts(summary) == (2, 2, 0, 0, 0, 0)
    assert [c.national for c in checked] == ["2025550123", "2025550124"]


def test_mixed_countries_with_a_country_code_column(tmp_path: Path) -> None:
    path = f.write_xlsx(
        tmp_path / "c.xlsx",
        [
            ["Phone", "Country Code"],
            [2025550123, 1],
            ["07400 123456", 44],
            [7400123457, 44],
            ["0412 345 678", 61],
            [412345679, "+61"],
            ["+1 (202) 555-0123", "1"],
            ["12345", 44],
            ["2025550199", "XX"],
        ],
    )
    mapping, checked, summary = analyze(path)
    assert (mapping.phone, mapping.phone_code) == (0, 1)
    # No damage: the number cells 7400123457 and 412345679 are each the number as a list
    # keeps it, read exactly under the row's own code (black-box B5 #5).
    assert counts(summary) == (8, 5, 2, 1, 0, 0)
    assert [c.phone_code for c in checked[:5]] == ["1", "44", "44", "61", "61"]
    assert checked[2].damage == ""
    assert checked[5].message == "row 7: duplicate of row 2"
    assert (
        checked[7].message
        == "row 9: Country Code: cell B9 'XX' is not a country name or code DNC Desk knows: "
        "give the country's calling code (as 49) or its two-letter code (DE)"
    )


def test_blank_rows_are_counted(tmp_path: Path) -> None:
    path = f.write_xlsx(
        tmp_path / "b.xlsx",
        [["Phone", "Reason"], [2025550123, "x"], [None, None], ["   ", ""], [2025550124, "y"]],
    )
    _, checked, summary = analyze(path)
    assert counts(summary) == (4, 2, 0, 0, 2, 0)
    assert checked[1].message == "row 3: blank row"


def test_merged_cells(tmp_path: Path) -> None:
    path = f.write_xlsx(
        tmp_path / "m.xlsx",
        [
            ["Opt-outs", None],
            ["Phone", "Reason"],
            [2025550123, "called in"],
            [2025550124, None],
            [2025550125, None],
        ],
        merged=["A1:B1", "B3:B5"],
    )
    mapping, checked, summary = analyze(path)
    assert mapping.header_row == 2
    assert counts(summary) == (3, 3, 0, 0, 0, 0)
    assert [c.reason for c in checked] == ["called in"] * 3


def test_several_sheets(tmp_path: Path) -> None:
    path = f.write_xlsx(
        tmp_path / "s.xlsx",
        [],
        title="Cover",
        hidden_first=[["Phone"], [2025550100]],
        more_sheets={
            "Numbers": [["Phone"], [2025550123], [2025550124]],
            "UK": [["Mobile", "Country"], ["07400 123456", "UK"]],
        },
    )
    _, _, summary = analyze(path)
    assert counts(summary) == (2, 2, 0, 0, 0, 0)
    _, checked, summary = analyze(path, "UK")
    assert counts(summary) == (1, 1, 0, 0, 0, 0)
    assert (checked[0].phone_code, checked[0].national) == ("44", "7400123456")


def test_huge_declared_dimension(tmp_path: Path) -> None:
    _, _, summary = analyze(f.huge_dimension_xlsx(tmp_path / "dim.xlsx"))
    assert counts(summary) == (3, 3, 0, 0, 0, 0)


def test_one_unnamed_column_of_numbers(tmp_path: Path) -> None:
    path = f.write_xlsx(tmp_path / "one.xlsx", [[2025550100 + i] for i in range(20)])
    mapping, checked, summary = analyze(path)
    assert mapping.header_row is None and mapping.phone == 0
    assert counts(summary) == (20, 20, 0, 0, 0, 0)
    assert checked[0].row == 1
    csv_path = f.write_csv(tmp_path / "one.csv", [[f"202555{i:04d}"] for i in range(100, 120)])
    _, _, summary = analyze(csv_path)
    assert counts(summary) == (20, 20, 0, 0, 0, 0)


CSV_ROWS = [
    ["Phone", "Reason", "Country Code"],
    ["(202) 555-0123", "Café – stop, now", "1"],
    ["", "", ""],
    ["07400 123456", "Zoë; by letter", "44"],
    ["2025550123", "dup", "+1"],
    ["2.02555E+09", "damaged", "1"],
]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "cp1252"])
@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_csv_encodings_and_delimiters(tmp_path: Path, encoding: str, delimiter: str) -> None:
    path = f.write_csv(tmp_path / "x.csv", CSV_ROWS, encoding=encoding, delimiter=delimiter)
    mapping, checked, summary = analyze(path)
    assert (mapping.header_row, mapping.phone, mapping.reason, mapping.phone_code) == (1, 0, 1, 2)
    assert counts(summary) == (5, 2, 1, 1, 1, 1)
    assert checked[0].reason == "Café – stop, now"
    assert checked[2].reason == "Zoë; by letter"


def test_request_dates_in_a_sheet(tmp_path: Path) -> None:
    path = f.write_xlsx(
        tmp_path / "d.xlsx",
        [
            ["Phone", "Date received"],
            [2025550123, dt.datetime(2026, 11, 2, 10, 0)],
            [2025550124, dt.date(2026, 11, 16)],
            [2025550125, "11/04/2026"],
            [2025550126, 46328],
        ],
    )
    options = CheckOptions(insertion_date=dt.date(2026, 11, 20))
    mapping, checked, summary = analyze(path, options=options)
    assert mapping.request_date == 1
    assert [c.business_days for c in checked] == [13, 4, 11, 13]
    assert (summary.late_requests, summary.ambiguous_dates) == (3, 1)
