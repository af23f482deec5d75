"""Task W4: three wrong messages of the sheet check and reader, seen through a CLI dry run.

1. A campaign cell read as the purpose scope (``-1.0``, Excel's number -1, or the text a tool
   writes for it) showed its scope as ``campaign:-1.0`` (``campaign:-1`` for the number cell)
   in the report's Rows sheet; ``9912.0`` as ``campaign:9912.0``, though it is read as 9912.
2. A workbook cell longer than a spreadsheet cell can hold, cut to 32,767 characters as it is
   read, was said to hold 32767 characters, not the length it had.
3. Black-box R4 #6: a CSV with one or two words whose letters were saved as '?' ("Pa?s
   M?xico", "Se?or") got no warning: three were needed. Ordinary question marks still get
   none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.sheet_factory import SHEET_HEAD, cell, write_raw_xlsx

LOST = "in place of letters"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _dry_run(
    capsys: pytest.CaptureFixture[str], path: Path, report: Path, *more: str
) -> dict[str, Any]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--report", str(report), "--json", *more]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def _rows_sheet(report: Path) -> dict[int, dict[str, Any]]:
    """The report's Rows sheet: source row → {column header: value}."""
    table = CalamineWorkbook.from_path(str(report)).get_sheet_by_name("Rows").to_python()
    header = [str(v) for v in table[0]]
    return {int(row[0]): dict(zip(header, row, strict=False)) for row in table[1:]}


# 1 ---------------------------------------------------------------------------------------


def test_a_number_cell_minus_one_shows_the_purpose_scope_it_is_read_as(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Campaign", "Reason"])
    ws.append(["3035551501", "global", "asked"])
    ws.append(["3035551506", -1.0, "asked"])  # Excel's number -1: the purpose scope
    path = tmp_path / "camp.xlsx"
    wb.save(path)
    report = tmp_path / "camp_report.xlsx"
    data = _dry_run(capsys, path, report)
    assert data["invalid"] == 1, data
    rows = _rows_sheet(report)
    assert rows[3]["Outcome"] == "invalid"
    assert "a purpose scope needs a purpose" in rows[3]["Message"]
    assert rows[3]["Scope"] == "purpose"  # was campaign:-1


def test_campaign_cells_written_as_floats_show_the_scope_they_are_read_as(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As a tool that read the column as numbers saves a CSV (black-box R4's camp.csv).
    path = tmp_path / "camp.csv"
    path.write_text(
        "Phone,Campaign\n3035551501,global\n3035551504,9912.0\n3035551506,-1.0\n",
        encoding="utf-8",
    )
    report = tmp_path / "camp_report.xlsx"
    data = _dry_run(capsys, path, report, "--base-url", sandbox.base_url)
    assert data["invalid"] == 2, data
    rows = _rows_sheet(report)
    assert "id 9912 does not exist" in rows[3]["Message"], rows[3]
    assert rows[3]["Scope"] == "campaign:9912"  # was campaign:9912.0
    assert "a purpose scope needs a purpose" in rows[4]["Message"], rows[4]
    assert rows[4]["Scope"] == "purpose"  # was campaign:-1.0


# 2 ---------------------------------------------------------------------------------------


def test_a_cell_cut_as_read_is_said_to_hold_the_length_it_had(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # openpyxl and Excel write no longer cell: assembled by hand, as a generator's may be.
    rows = [
        f'<row r="1">{cell("A1", "Phone")}{cell("B1", "Reason")}</row>',
        f'<row r="2">{cell("A2", "3035550100")}{cell("B2", "ok")}</row>',
        f'<row r="3">{cell("A3", "7" * 40_000)}{cell("B3", "long number")}</row>',
        f'<row r="4">{cell("A4", "3035550101")}{cell("B4", "r" * 50_000)}</row>',
    ]
    sheet = SHEET_HEAD + "<sheetData>" + "".join(rows) + "</sheetData></worksheet>"
    path = write_raw_xlsx(tmp_path / "long.xlsx", sheet)
    report = tmp_path / "long_report.xlsx"
    data = _dry_run(capsys, path, report)
    assert (data["valid"], data["invalid"]) == (2, 1), data
    shown = _rows_sheet(report)
    assert shown[3]["Message"] == (
        "row 3: phone: the cell holds 40000 characters, far too long for a phone number (it "
        "was cut to 32,767, the most a spreadsheet cell can hold, as it was read)"
    )
    assert len(shown[3]["Original value"]) == 32_767
    assert shown[4]["Message"] == "row 4: reason cut to 255 characters (it had 50000)"


def test_a_purpose_cell_cut_as_read_is_said_to_have_its_length(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        f'<row r="1">{cell("A1", "Phone")}{cell("B1", "Purpose")}</row>',
        f'<row r="2">{cell("A2", "3035550101")}{cell("B2", "p" * 45_000)}</row>',
    ]
    sheet = SHEET_HEAD + "<sheetData>" + "".join(rows) + "</sheetData></worksheet>"
    path = write_raw_xlsx(tmp_path / "purpose.xlsx", sheet)
    report = tmp_path / "purpose_report.xlsx"
    data = _dry_run(capsys, path, report)
    assert data["invalid"] == 1, data
    assert _rows_sheet(report)[2]["Message"] == ("row 2: purpose: 45000 characters, at most 255")


# 3 ---------------------------------------------------------------------------------------


def _lost_warnings(data: dict[str, Any]) -> list[str]:
    return [w for w in data["warnings"] if LOST in w]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # R4's q.csv: two words, in one cell.
        ("Phone,Notes\n3035551105,Pa?s M?xico\n", "('Pa?s' and 'M?xico')"),
        # R4's q3.csv: two words, in two rows.
        ("Phone,Reason\n3035551106,Se?or asked\n3035551107,Pa?s\n", "('Se?or' and 'Pa?s')"),
        # One country, once, among numbers of other countries.
        (
            "Name,Phone,Country\nAna Ruiz,55 1234 5678,M?xico\nBo Chen,303-555-4954,USA\n"
            "Cy Park,303-555-4955,USA\n",
            "('M?xico')",
        ),
        # A name: "Jos?" alone is not told from a question, "Mu?oz" is.
        (
            "Name,Phone,Reason\nJos? Mu?oz,303-555-4001,asked to stop\n"
            "Mary Smith,303-555-4002,Why? Not interested\n",
            "('Mu?oz')",
        ),
        # A lowercase reason: "se?or" alone might be "ok?thanks", a typed join; "n?mero" not.
        (
            "Phone,Reason\n3035551108,el se?or pidi? no llamar a este n?mero\n",
            "('se?or' and 'n?mero')",
        ),
    ],
)
def test_one_or_two_words_with_lost_letters_are_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: str
) -> None:
    path = tmp_path / "lost.csv"
    path.write_bytes(text.encode("cp1252"))
    data = _dry_run(capsys, path, tmp_path / "r.xlsx")
    warnings = _lost_warnings(data)
    assert len(warnings) == 1, data["warnings"]
    assert warnings[0].startswith(f"lost.csv has '?' {LOST} {words}: "), warnings


OPT_OUTS = """Phone,Name,Reason,Source
3035552001,Mary Smith,Why?,SMS reply
3035552002,John Doe,call me? no - wrong person,Call
3035552003,Ann Lee,see https://example.com/optout.php?id=3&lang=es,Web form
3035552004,Raj Patel,www.example.com/unsub?token=abc123,Web form
3035552005,???,STOP,SMS reply
3035552006,Tom Brown,Did you call?Yes,Call
3035552007,Kim Ng,ok?thanks,SMS reply
3035552008,Lee Park,Y?N,Import
3035552009,Sam Cole,why?because I said so,SMS reply
3035552010,Eve Hart,Stop texting me??,SMS reply
3035552011,A?B?C,wrong number?!,Call
"""


def test_ordinary_question_marks_get_no_lost_letters_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "optouts.csv"
    path.write_text(OPT_OUTS, encoding="utf-8")
    data = _dry_run(capsys, path, tmp_path / "r.xlsx")
    assert data["valid"] == 11, data
    assert _lost_warnings(data) == [], data["warnings"]
