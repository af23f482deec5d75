"""A --phone-column naming a column with no phone number in it, beside one holding them:
every row is invalid, and the warning points to the column holding the numbers (black-box
B30 F5: `--phone-column Reason` or `C` turned every row invalid without a word of 'Tel')."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def _dry(path: Path, column: str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--phone-column", column, "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_csv_column_of_letters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "cols.csv"
    src.write_text("Name,Tel,C,Notes\nAnn,303-555-0501,x,n1\nBob,303-555-0502,y,n2\n")
    data = _dry(src, "C", capsys)
    assert data["invalid"] == 2
    said = [w for w in data["warnings"] if "--phone-column 'C'" in w]  # type: ignore[union-attr]
    assert said == [
        "--phone-column 'C' names column C ('C'), in which none of the first rows holds a phone "
        "number, while column B ('Tel') does: if the numbers meant are there, run the file again "
        "with --phone-column column:B."
    ]


def test_workbook_reason_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "wb.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in [("Phone", "Reason"), ("3035550601", "asked"), ("3035550602", "by mail")]:
        sheet.append(row)
    book.save(src)
    data = _dry(src, "Reason", capsys)
    assert data["invalid"] == 2
    assert any("column A ('Phone') does" in w for w in data["warnings"])  # type: ignore[union-attr]


def test_named_column_with_numbers_says_nothing_of_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "two.csv"
    src.write_text("Home,Mobile\n3035550701,3035550801\n3035550702,3035550802\n")
    data = _dry(src, "Mobile", capsys)
    assert data["valid"] == 2
    assert not [w for w in data["warnings"] if "--phone-column" in w]  # type: ignore[union-attr]
