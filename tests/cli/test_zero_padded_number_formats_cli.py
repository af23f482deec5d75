"""``dnc-desk import`` of a workbook whose phone cells hold numbers with a zero-padding number
format ("0000000000", "00000000000"), as UK and Italian lists keep a leading 0: the sheet
shows 0351234568 where the cell holds 351234568. Each row is checked and stored as the number
the sheet shows, as the same sheet saved as CSV is, with no note that a spreadsheet damaged
it (S20 Z1, black-box B10 #1: row 5 was stored as another, mobile, number, row 7 as a US
number, row 4 refused)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient, DncQuery
from app.cli.main import main
from tests.conftest import TOKEN

# (the number the cell holds, its country code cell, its format), as the tester's h_src.xlsx.
ROWS = [
    (2079460010, 44, "00000000000"),
    (7911123460, 44, "00000000000"),
    (668850102, 39, "0000000000"),
    (351234568, 39, "0000000000"),
    (3035550190, 1, "0000000000"),
    (2079460011, None, "00000000000"),
    (612345679, 33, "0000000000"),
]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _workbook(tmp_path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Opt-outs"
    ws.append(["Phone", "Country Code", "Reason"])
    for number, code, shape in ROWS:
        ws.append([number, code, "padded format " + shape])
        ws.cell(ws.max_row, 1).number_format = shape
    path = tmp_path / "padded.xlsx"
    wb.save(path)
    return path


def _rows(report: Path) -> dict[int, dict[str, str]]:
    """Each row of the report's Rows sheet by its source row, its cells by their heading."""
    rows = CalamineWorkbook.from_path(str(report)).get_sheet_by_name("Rows").to_python()
    header = [str(h) for h in rows[0]]
    at = header.index("Source row")
    return {
        int(r[at]): {h: str(v) for h, v in zip(header, r, strict=False)}
        for r in rows[1:]
        if r and r[0] != ""
    }


# What each row reads as, as the same sheet saved as CSV with the shown text reads: (the text,
# the normalized number, the outcome). Row 7 has no country code and reads as an 11-digit
# number, invalid as a US one (not +1 207 946 0011).
WANTED = {
    2: ("02079460010", "2079460010", "valid (dry run)"),
    3: ("07911123460", "7911123460", "valid (dry run)"),
    4: ("0668850102", "0668850102", "valid (dry run)"),
    5: ("0351234568", "0351234568", "valid (dry run)"),
    6: ("3035550190", "3035550190", "valid (dry run)"),
    7: ("02079460011", "", "invalid"),
    8: ("0612345679", "612345679", "valid (dry run)"),
}


# The same workbook saved by Gnumeric as an .xls and an .ods (its exporter's name).
SAVED_AS = {"xls": "Gnumeric_Excel:excel_biff8", "ods": "Gnumeric_OpenCalc:odf"}


def _saved_as(tmp_path: Path, kind: str) -> Path:
    source = _workbook(tmp_path)
    if kind == "xlsx":
        return source
    if shutil.which("ssconvert") is None:
        pytest.skip("Gnumeric's ssconvert is needed")
    path = tmp_path / f"padded.{kind}"
    subprocess.run(
        ["ssconvert", "-T", SAVED_AS[kind], str(source), str(path)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return path


@pytest.mark.parametrize("kind", ["xlsx", "xls", "ods"])
def test_dry_run_checks_the_numbers_the_sheet_shows(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    report = tmp_path / "dry.xlsx"
    argv = ["import", str(_saved_as(tmp_path, kind)), "--into", "dnc", "--scope", "global"]
    argv += ["--dry-run", "--base-url", sandbox.base_url, "--report", str(report)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "valid: 6, invalid: 1" in out
    assert "damaged" not in out.lower()
    rows = _rows(report)
    got = {n: (r["Original value"], r["Normalized number"], r["Outcome"]) for n, r in rows.items()}
    assert got == WANTED
    assert [n for n, r in rows.items() if r["Damage note"]] == []
    assert "too long for a US number" in rows[7]["Message"]
    assert "+44 20 7946 0011" in rows[7]["Message"]


def test_import_stores_the_numbers_the_sheet_shows(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "sent.xlsx"
    argv = ["import", str(_workbook(tmp_path)), "--into", "dnc", "--scope", "global", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url, "--report", str(report)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["valid"], data["invalid"], data["inserted"]) == (6, 1, 6)
    with ApiClient(sandbox.base_url, TOKEN) as api:
        entries = api.search_dnc(DncQuery()).items
    stored = sorted((e.phone_code, e.phone_number) for e in entries)
    # Row 5 is the landline 035 1234568 the sheet shows, not the mobile +39 351 234 568; row
    # 4 went in; row 7 (no country, not a US number) was not sent.
    assert stored == [
        ("1", "3035550190"),
        ("33", "612345679"),
        ("39", "0351234568"),
        ("39", "0668850102"),
        ("44", "2079460010"),
        ("44", "7911123460"),
    ]
