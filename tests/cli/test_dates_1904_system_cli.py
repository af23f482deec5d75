"""End to end (black-box B28 F5): a plain number in the request-date column of a workbook set
to the 1904 date system is read in that system, as its date cells are, so its lateness is
measured from the date the workbook means."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from app.cli.main import main

_1904_DAY_0 = dt.date(1904, 1, 1)


@pytest.fixture(autouse=True)
def _dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def messages(capsys: pytest.CaptureFixture[str], path: Path) -> dict[int, str]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    book = openpyxl.load_workbook(data["report"], read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))[1:]
    book.close()
    return {int(r[0]): str(r[6] or "") for r in rows}


def book_of_numbers(path: Path, days: list[int], *, mac: bool) -> Path:
    book = openpyxl.Workbook()
    if mac:
        book.epoch = CALENDAR_MAC_1904
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Date received"])
    for i, day in enumerate(days):
        sheet.append([f"30361936{i:02d}", day])  # General format: a plain number
    book.save(path)
    return path


def test_a_number_in_a_1904_workbook_is_read_in_its_system(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    received = dt.date.today() - dt.timedelta(days=1)
    number = (received - _1904_DAY_0).days
    said = messages(capsys, book_of_numbers(tmp_path / "mac.xlsx", [number], mac=True))[2]
    # Before: read 1,462 days earlier in the 1900 system, four years late.
    assert (
        f"the number {number} is read as a spreadsheet's day number, {received.isoformat()} "
        "(the workbook's 1904 date system)"
    ) in said
    assert "late" not in said


def test_a_number_in_a_1900_workbook_is_read_in_its_system(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Its workbook part says the 1900 system: no 1904 reading beside it (B28 F5 leftover).
    received = dt.date.today() - dt.timedelta(days=1)
    number = (received - dt.date(1899, 12, 30)).days
    said = messages(capsys, book_of_numbers(tmp_path / "pc.xlsx", [number], mac=False))[2]
    assert (
        f"the number {number} is read as a spreadsheet's day number, {received.isoformat()} "
        "(the workbook's 1900 date system)"
    ) in said
    assert "1904" not in said
