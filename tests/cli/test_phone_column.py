"""``--phone-column`` through ``dnc-desk import``/``remove``: header names win over column
letters, ``column:C`` and ``#3`` pick by position, and a missing or ambiguous name is refused in
one sentence naming the headers the sheet has (exit status 2, a bad argument)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.job_staging import JobSettings, MappingError, open_mapped

# The office line is in every row and looks like a phone column; the opt-out numbers are in Tel.
HEADERS = ["Account", "Office phone", "Tel", "CC", "Notes"]


def vendor_xlsx(path: Path, headers: list[str] = HEADERS, width: int = 0) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append([*headers, *([None] * max(0, width - len(headers)))])
    for i in range(12):
        ws.append([f"AC-{i}", "(202) 555-0999", f"(202) 555-01{i:02d}", 1, "asked"])
    ws.append(["AC-12", "(202) 555-0999", "12345", 1, "typo"])
    if width:
        ws.cell(row=2, column=width, value="far right")
    wb.save(path)
    return path


def dry_run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any], str]:
    code = main(["import", *argv, "--into", "dnc", "--scope", "global", "--dry-run", "--json"])
    captured = capsys.readouterr()
    out = captured.out.strip()
    return code, (json.loads(out) if out else {}), captured.err.strip()


def originals(report: str) -> list[str]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        return [str(r[1]) for r in list(book["Rows"].iter_rows(values_only=True))[1:]]
    finally:
        book.close()


@pytest.mark.parametrize("column", ["TEL", "tel", " Tel ", "column:C", "Column:c", "#3"])
def test_the_named_column_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], column: str
) -> None:
    src = vendor_xlsx(tmp_path / "vendor.xlsx")
    code, data, err = dry_run(capsys, str(src), "--phone-column", column)
    assert code == 0, err
    # Tel holds 12 distinct numbers and one typo; the office column would give 1 + 12 dupes.
    assert (data["rows"], data["valid"], data["invalid"], data["duplicates_in_file"]) == (
        13,
        12,
        1,
        0,
    )
    assert originals(data["report"])[:2] == ["(202) 555-0100", "(202) 555-0101"]


def test_short_header_names_win_over_column_letters_the_sheet_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 500 columns wide: CC (column 81) and NO (column 379) exist as letters, but a header
    # named CC or No is what a person means.
    headers = ["Account", "Office phone", "No", "CC", "Notes"]
    src = vendor_xlsx(tmp_path / "wide.xlsx", headers, width=500)
    code, data, err = dry_run(capsys, str(src), "--phone-column", "No")
    assert code == 0, err
    assert (data["valid"], data["invalid"]) == (12, 1)
    # A bare letter still works when no header has that name.
    code, data, err = dry_run(capsys, str(src), "--phone-column", "c")
    assert code == 0, err
    assert (data["valid"], data["invalid"]) == (12, 1)


def test_missing_name_is_one_sentence_naming_the_headers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = vendor_xlsx(tmp_path / "vendor.xlsx")
    for wrong in ("Ph", "Mobile", "column:Z", "#9"):
        code, data, err = dry_run(capsys, str(src), "--phone-column", wrong)
        # A bad argument (exit 2); --json: the refusal is one JSON object with the sentence
        # of stderr.
        assert code == 2 and data == {"error": err, "exit_status": 2}
        assert len(err.splitlines()) == 1, err
        assert err.count(". ") == 0 and err.endswith("."), err
    code, _, err = dry_run(capsys, str(src), "--phone-column", "Ph")
    assert err == (
        "vendor.xlsx has no column headed 'Ph'; its headers are 'Account' (A), "
        "'Office phone' (B), 'Tel' (C), 'CC' (D), 'Notes' (E) (a column can also be given by "
        "position, as column:A or #1)."
    )
    code, _, err = dry_run(capsys, str(src), "--phone-column", "#9")
    assert "vendor.xlsx has no column #9; its columns are A to E (#1 to #5)." in err


def test_ambiguous_name_is_refused_naming_the_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = vendor_xlsx(tmp_path / "two.xlsx", ["Account", "Tel", "tel", "CC", "Notes"])
    code, _, err = dry_run(capsys, str(src), "--phone-column", "Tel")
    assert code == 2
    assert (
        "'Tel' heads 2 columns of two.xlsx (B and C); choose one by letter, as column:B or" in err
    )
    code, data, err = dry_run(capsys, str(src), "--phone-column", "column:C")
    assert code == 0 and data["valid"] == 12


def test_remove_takes_the_same_column_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = vendor_xlsx(tmp_path / "vendor.xlsx")
    code = main(["remove", str(src), "--scope", "global", "--dry-run", "--json",
                 "--phone-column", "TEL"])  # fmt: skip
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out)["valid"] == 12
    code = main(["remove", str(src), "--scope", "global", "--dry-run", "--phone-column", "Ph"])
    assert code == 2 and "no column headed 'Ph'" in capsys.readouterr().err


def test_no_phone_column_names_the_options_on_the_command_line_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Names"
    ws.append(["Name", "City"])
    ws.append(["Ann", "Austin"])
    wb.create_sheet("Notes").append(["read me"])
    path = tmp_path / "no-phones.xlsx"
    wb.save(path)
    code, data, err = dry_run(capsys, str(path))
    assert code != 0 and data == {"error": err, "exit_status": code}
    assert err.endswith(
        "No column of phone numbers was found in sheet 'Names' of no-phones.xlsx; name it with "
        "--phone-column (a header name, or a column as column:C or #3), or choose another "
        "sheet with --sheet ('Notes')."
    )
    # The GUI (bulk removal) shows str() of the same error: no command-line options in it.
    with pytest.raises(MappingError) as caught:
        open_mapped(path, JobSettings(path, Scope.global_()), None)
    assert str(caught.value) == (
        "No column of phone numbers was found in sheet 'Names' of no-phones.xlsx "
        "(its other sheets: 'Notes')."
    )


def test_a_country_column_of_names_gives_each_row_its_code(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Black-box finding 9: "United Kingdom" and "Australia" used to be dropped, and the rows
    # judged as US numbers.
    src = tmp_path / "countries.csv"
    src.write_text(
        "Phone,Country\n7911123470,United Kingdom\n7911123471,UK\n412345671,Australia\n"
        "2025554041,United States\n"
    )
    code, data, err = dry_run(capsys, str(src))
    assert code == 0, err
    assert (data["rows"], data["valid"], data["invalid"]) == (4, 4, 0)
