"""Staging through the CLI for the third black-box pass (findings 1, 4, 5, 6 and smaller ones):
a Country column with an unknown value, removals from formats whose hidden rows cannot be seen,
formulas with no saved result in other columns than the phone, hidden sheets, hidden counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main


@pytest.fixture(autouse=True)
def _dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def dry_run(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> dict[str, Any]:
    assert main([*argv, "--scope", "global", "--dry-run", "--json"]) == status
    return dict(json.loads(capsys.readouterr().out))


def report_rows(data: dict[str, Any]) -> dict[int, tuple[Any, ...]]:
    book = openpyxl.load_workbook(data["report"], read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))
    book.close()
    return {r[0]: r for r in rows[1:]}


def test_a_country_column_with_an_unknown_value_is_still_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c6.csv"
    path.write_text("Phone,Country\n2079460123,United Kingdom\n2025554012,Narnia\n2025554013,\n")
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert (data["valid"], data["invalid"], data["warnings"]) == (2, 1, [])
    rows = report_rows(data)
    assert rows[2][1:4] == ("2079460123", "2079460123", "44")  # London, not Maine
    assert (
        "row 3: Country: cell B3 'Narnia' is not a country name or code DNC Desk knows: "
        "give the country's calling code (as 49) or its two-letter code (DE)" in rows[3]
    )
    assert rows[4][3] == "1"  # an empty cell takes the default code


def test_a_country_column_left_out_is_named_in_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c7.csv"
    path.write_text("Phone,Country\n2079460123,Narnia\n2025554012,Oz\n2025554013,US\n")
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert data["warnings"] == [
        "Column B ('Country') was not read as country codes: only 1 of its 3 values is a "
        "country code ('Narnia' (row 2) and 'Oz' (row 3) are no country code or name DNC Desk "
        "knows), so every row used the default code +1 (unless its number starts with "
        "its own, as +44; a row whose cell names a country of another code, as Mexico, is not "
        "taken). Correct the column's values to country codes or names (as 44 or "
        "United Kingdom) and run the file again."
    ]


def test_a_removal_from_an_ods_file_leaves_its_hidden_rows_alone_like_an_xlsx(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.core.test_sheet_hidden_rows import write_ods

    rows = [["Phone"], ["2025550101"], ["2025550102"], ["2025550103"]]
    path = write_ods(tmp_path / "h.ods", rows, frozenset({3}))
    data = dry_run(capsys, "remove", str(path))
    assert (data["rows"], data["pending"], data["not_attempted"]) == (3, 2, 1)
    outcomes = {n: r[5] for n, r in report_rows(data).items()}
    assert outcomes == {2: "valid (dry run)", 3: "not_attempted", 4: "valid (dry run)"}
    data = dry_run(capsys, "remove", str(path), "--include-hidden")
    assert (data["rows"], data["pending"]) == (3, 3)
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert (data["rows"], data["pending"]) == (3, 3)


def test_a_campaign_formula_with_no_saved_result_makes_the_row_invalid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Campaign"])
    ws.append(["2025554301", "=1000+1"])  # never calculated: reads as empty
    ws.append(["2025554301", None])  # the same number, global: not a "duplicate of row 2"
    ws.append(["2025554302", 1001])
    wb.save(tmp_path / "fcamp.xlsx")
    data = dry_run(capsys, "remove", str(tmp_path / "fcamp.xlsx"), "--per-row-scope")
    assert (data["rows"], data["valid"], data["invalid"], data["pending"]) == (3, 2, 1, 2)
    rows = report_rows(data)
    assert rows[2][1] == "2025554301" and rows[2][4:7] == (
        None,
        "invalid",
        "row 2: campaign: cell B2 holds a formula (=1000+1) with no saved result, so it reads "
        "as empty; open and save the file in Excel (or LibreOffice) to calculate it",
    )
    assert rows[3][4:6] == ("global", "valid (dry run)")
    assert rows[4][4] == "campaign:1001"


@pytest.mark.parametrize(
    ("header", "value", "role"),
    [
        ("Scope", '="campaign:"&1001', "scope"),
        ("Purpose", '=UPPER("surveys")', "purpose"),
        ("Country code", "=40+4", "phone_code"),
    ],
)
def test_a_formula_in_any_mapped_column_makes_the_row_invalid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], header: str, value: str, role: str
) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", header])
    ws.append(["2025554301", value])
    ws.append(["2025554302", None])
    wb.save(tmp_path / "f.xlsx")
    data = dry_run(capsys, "import", str(tmp_path / "f.xlsx"), "--into", "dnc")
    assert (data["valid"], data["invalid"]) == (1, 1)
    assert report_rows(data)[2][6].startswith(f"row 2: {role}: cell B2 holds a formula (=")


def test_a_formula_in_the_reason_column_leaves_the_row_valid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A reason decides neither the number nor where it goes: the request is honoured and the
    row names the cell (black-box L1 #3: a VLOOKUP's #N/A in Notes withheld real requests)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Reason"])
    ws.append(["2025554301", '="asked"'])
    ws.append(["2025554302", None])
    wb.save(tmp_path / "f.xlsx")
    data = dry_run(capsys, "import", str(tmp_path / "f.xlsx"), "--into", "dnc")
    assert (data["valid"], data["invalid"]) == (2, 0)
    row = report_rows(data)[2]
    assert row[5] == "valid (dry run)"
    assert "cell B2 holds a formula (=" in row[6]


def test_original_value_keeps_a_leading_tab_and_spaces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tab.csv"
    path.write_text("Phone\n\t2025554406\n 2025554407 \n")
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    rows = report_rows(data)
    assert rows[2][1:3] == ("\t2025554406", "2025554406")
    assert rows[3][1:3] == (" 2025554407 ", "2025554407")


def test_the_hidden_row_warning_counts_invalid_hidden_rows_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for row in (["Phone"], ["2025550101"], ["2025550102"], ["2025550103"], ["2025550101"]):
        ws.append(row)
    ws.append(["abc"])
    ws.append([None])
    ws.append(["2025550104"])
    for r in (2, 5, 6, 7):  # valid, valid (a duplicate), invalid, blank
        ws.row_dimensions[r].hidden = True
    wb.save(tmp_path / "hdup.xlsx")
    data = dry_run(capsys, "import", str(tmp_path / "hdup.xlsx"), "--into", "dnc")
    assert data["warnings"] == [
        "Rows 2 and 5–6 (3 rows) are hidden in sheet 'Sheet' of hdup.xlsx (hidden or filtered "
        "out); they are imported too."
    ]


def test_a_hidden_sheet_of_phone_numbers_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Sheet1"
    ws.append(["Phone"])
    for i in range(8):
        ws.append([f"20255580{i:02d}"])
    ws.sheet_state = "hidden"
    shown = wb.create_sheet("Visible")
    shown.append(["Phone"])
    shown.append(["2025558199"])
    week = wb.create_sheet("Week 2")
    week.append(["Phone"])
    week.append(["2025558198"])
    wb.save(tmp_path / "h.xlsx")
    data = dry_run(capsys, "import", str(tmp_path / "h.xlsx"), "--into", "dnc")
    assert data["rows"] == 1
    # 'Week 2', laid out as the sheet read, is counted in a warning of its own (session 32).
    assert data["warnings"] == [
        "Hidden sheet 'Sheet1' of h.xlsx also has a column of phone numbers but is not "
        "imported: only sheet 'Visible' is read. To import it, run the file again "
        "with --sheet NAME (as --sheet 'Sheet1').",
        "Sheet 'Week 2' of h.xlsx, laid out as sheet 'Visible', holds 1 more row with a phone "
        "number (1 in 'Week 2'), which is not imported: only sheet 'Visible' is read. To "
        f"import it too, run dnc-desk import {tmp_path / 'h.xlsx'} --into dnc --scope global "
        "--dry-run --sheet 'Week 2'",
    ]
    del wb["Week 2"]
    wb.save(tmp_path / "h.xlsx")
    data = dry_run(capsys, "remove", str(tmp_path / "h.xlsx"))
    assert data["warnings"] == [
        "Hidden sheet 'Sheet1' of h.xlsx also has a column of phone numbers but is not "
        "removed: only sheet 'Visible' is read. To remove its numbers, run the file again "
        "with --sheet NAME (as --sheet 'Sheet1')."
    ]


def test_a_column_of_country_names_under_an_unknown_header_is_named_in_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Black-box H4: a country column whose header the import does not know was ignored
    # without a word, and a Mexican number was read as a US one.
    path = tmp_path / "location.csv"
    path.write_text(
        "Phone,Location\n5512345678,Mexico\n2025554012,United States\n2025554013,USA\n"
        "2025554014,Mexico\n"
    )
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert data["warnings"] == [
        "Column B ('Location') holds country names ('Mexico') and was not read: its header "
        "names no column the import reads, so every row used the default code +1 (unless its "
        "number starts with its own, as +44). If those are the countries of the phone "
        "numbers, head the column Country (or choose it as the country column in the import "
        "wizard) and run the file again."
    ]
    assert report_rows(data)[2][3] == "1"  # read as the warning says, not on a guess


@pytest.mark.parametrize(
    "column",
    [
        # Every name is the default's country: nothing was read wrongly.
        ["United States", "USA", "United States"],
        # Two-letter values are US states as often as countries (CA, GA, IN, DE).
        ["CA", "GA", "IN", "DE"],
        # Fewer than four in five are country names: not a column of countries.
        ["Mexico", "Springfield", "Shelbyville", "Ogdenville"],
    ],
)
def test_columns_that_are_not_foreign_country_names_are_not_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], column: list[str]
) -> None:
    path = tmp_path / "place.csv"
    lines = [f"{2025554010 + i},{value}" for i, value in enumerate(column)]
    path.write_text("Phone,Place\n" + "\n".join(lines) + "\n")
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert data["warnings"] == []


def test_one_foreign_country_name_in_a_short_batch_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Re-test M1 #2: "too few values to tell" left a daily batch of two rows, 'Mexico' and
    # 'USA', read as +1 without a word; every filled value being a country name is enough.
    path = tmp_path / "place.csv"
    path.write_text("Phone,Place\n2025554010,Mexico\n2025554011,\n2025554012,\n")
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert [w for w in data["warnings"] if "holds country names ('Mexico')" in w], data


def test_a_column_of_country_names_says_nothing_once_a_country_column_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "both.csv"
    path.write_text(
        "Phone,Country,Location\n5512345678,Mexico,Mexico\n2025554012,US,Canada\n"
        "2025554013,US,Canada\n"
    )
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert data["warnings"] == []
    assert report_rows(data)[2][3] == "52"
