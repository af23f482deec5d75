"""Spreadsheet damage is counted where a run's result is read, not only in the report's per-row
Damage note column (black-box P2 #4): the text output says how many rows' phone cells a
spreadsheet had damaged (when any), ``--json`` has ``damaged`` for import and remove, and the
report's Summary counts them. A dry run's text also says how many rows a real run would send
(N2 #7), which for a removal leaving hidden rows on the list is fewer than the valid rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from app.cli.main import main
from app.core.job_report import DAMAGED_LABEL
from tests.conftest import TOKEN

# Rows 2, 3 and 5 are damaged: a number cut short by a scientific display (2.02555E+09), a
# number written with a decimal comma, and one past Excel's 15 digits (refused). Row 4 is clean.
# (A UK mobile stored as a number beside "UK" is read exactly under it: no damage, B5 #5.)
DAMAGED_ROWS = (
    (2025550000, "US"),
    ("3035550534,0", "US"),
    (2125551238, "US"),
    (4.91512345678901e19, "US"),
)


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _xlsx(path: Path, rows: tuple[tuple[object, str], ...], hidden: tuple[int, ...] = ()) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Country"])
    for row in rows:
        sheet.append(list(row))
    for number in hidden:
        sheet.row_dimensions[number].hidden = True
    book.save(path)
    return path


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def _summary(report: str) -> dict[str, Any]:
    sheet = CalamineWorkbook.from_path(report).get_sheet_by_name("Summary").to_python()
    return {str(row[0]): row[1] for row in sheet}


def _import(src: Path, *more: str) -> list[str]:
    return ["import", str(src), "--into", "dnc", "--scope", "global", *more]


def test_an_import_dry_run_counts_its_damaged_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _xlsx(tmp_path / "excel.xlsx", DAMAGED_ROWS)
    code, out, err = _run(capsys, _import(src, "--dry-run"))
    assert code == 0, err
    assert "  phone cells damaged by a spreadsheet: 3 (see the report's Damage note column)\n" in (
        out
    )
    code, out, err = _run(capsys, _import(src, "--dry-run", "--json"))
    assert code == 0, err
    data = json.loads(out)
    assert (data["valid"], data["invalid"], data["damaged"]) == (3, 1, 3)
    assert _summary(data["report"])[DAMAGED_LABEL] == 3
    # The warning names every kind of damage counted: row 3's decimal comma too (B13 #7).
    (damage,) = [w for w in data["warnings"] if "had damaged" in w]
    assert "(rows 2, 3 and 5), by scientific notation, a dropped leading 0, digits cut, or " in (
        damage
    )
    assert "decimals or separators written into the number; 1 of them is invalid." in damage


def test_a_clean_file_says_nothing_of_damage_and_counts_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "clean.csv"
    src.write_text("Phone\n3035550101\n2025550102\n")
    code, out, err = _run(capsys, _import(src, "--dry-run"))
    assert code == 0, err
    assert "damaged" not in out
    code, out, err = _run(capsys, _import(src, "--dry-run", "--json"))
    data = json.loads(out)
    assert code == 0 and data["damaged"] == 0
    assert _summary(data["report"])[DAMAGED_LABEL] == 0


def test_a_real_import_and_its_ended_resume_keep_the_count(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _xlsx(tmp_path / "excel.xlsx", DAMAGED_ROWS)
    url = ["--base-url", sandbox.base_url]
    code, out, err = _run(capsys, _import(src, *url, "--json"))
    assert code == 0, err
    data = json.loads(out)
    assert (data["inserted"], data["damaged"]) == (3, 3)
    assert _summary(data["report"])[DAMAGED_LABEL] == 3
    # The count is the job's, kept in its file: a later look at the job says it too.
    code, out, err = _run(capsys, ["import", "--resume", data["job"], *url, "--json"])
    assert code == 0, err
    assert json.loads(out)["damaged"] == 3
    code, out, err = _run(capsys, ["import", "--resume", data["job"], *url])
    assert code == 0, err
    assert "phone cells damaged by a spreadsheet: 3" in out


def test_a_removal_counts_its_damaged_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _xlsx(tmp_path / "excel.xlsx", DAMAGED_ROWS)
    argv = ["remove", str(src), "--scope", "global", "--dry-run"]
    code, out, err = _run(capsys, [*argv, "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["damaged"] == 3
    assert _summary(data["report"])[DAMAGED_LABEL] == 3
    code, out, err = _run(capsys, argv)
    assert code == 0, err
    assert "phone cells damaged by a spreadsheet: 3" in out


def test_a_dry_run_says_how_many_rows_a_real_run_would_send(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _xlsx(tmp_path / "excel.xlsx", DAMAGED_ROWS)
    code, out, err = _run(capsys, _import(src, "--dry-run"))
    assert code == 0, err
    assert "valid: 3, " in out and ", would be sent: 3, " in out
    # Still not "pending": nothing will send a dry run's rows.
    assert "pending" not in out


def test_a_removal_dry_run_would_not_send_its_hidden_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = (("3035550101", "US"), ("3035550102", "US"), ("3035550103", "US"))
    src = _xlsx(tmp_path / "hidden.xlsx", rows, hidden=(3,))
    argv = ["remove", str(src), "--scope", "global", "--dry-run"]
    code, out, err = _run(capsys, argv)
    assert code == 0, err
    assert "valid: 3, " in out and "not attempted: 1, " in out
    assert "would be sent: 2" in out
    code, out, err = _run(capsys, [*argv, "--json"])
    assert code == 0 and json.loads(out)["pending"] == 2, err
