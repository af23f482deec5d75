"""End to end (black-box B28 F5 leftover): a plain number in the request-date column of an
.xlsx set to the 1900 date system is read in that system, its note naming it and giving no
1904 reading, which that workbook cannot mean; a CSV's number keeps both readings, its file
saying no system."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main

_1900_DAY_0 = dt.date(1899, 12, 30)


@pytest.fixture(autouse=True)
def _dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def _messages(capsys: pytest.CaptureFixture[str], path: Path) -> dict[int, str]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    book = openpyxl.load_workbook(data["report"], read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))[1:]
    book.close()
    return {int(r[0]): str(r[6] or "") for r in rows}


def test_a_number_in_a_1900_workbook_has_its_reading_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    received = dt.date.today() - dt.timedelta(days=1)
    number = (received - _1900_DAY_0).days
    path = tmp_path / "pc.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Date received"])
    sheet.append(["3036193600", number])  # General format: a plain number
    book.save(path)
    said = _messages(capsys, path)[2]
    assert (
        f"the number {number} is read as a spreadsheet's day number, {received.isoformat()} "
        "(the workbook's 1900 date system)"
    ) in said
    assert "1904" not in said


def test_a_number_in_a_csv_keeps_both_readings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    received = dt.date.today() - dt.timedelta(days=1)
    number = (received - _1900_DAY_0).days
    path = tmp_path / "plain.csv"
    path.write_text(f"Phone,Date received\n3036193600,{number}\n", encoding="utf-8")
    later = received + dt.timedelta(days=1462)
    assert (
        f"the number {number} is read as a spreadsheet's day number, {received.isoformat()} "
        f"(the 1900 date system; in a workbook set to the 1904 date system it is {later})"
    ) in _messages(capsys, path)[2]
