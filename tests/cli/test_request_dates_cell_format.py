"""Text dates that read either way beside date cells (bb13 F8). A 'Date received' column of
date cells formatted dd/mm/yyyy (LibreOffice's UK date) and text dates '03/11/2026' read the
text month/day, "as US files write dates … no date there reads one way only to tell which": a
request received 3 Nov was dated 11 Mar, 179 business days late. The date cells' number format
is the column's order when no text date tells it; text that does still decides. Dry runs of
real xlsx files through ``main``."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main


@pytest.fixture(autouse=True)
def _dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def _book(path: Path, cell_format: str, texts: list[str]) -> Path:
    """Rows 2 and 4: date cells (2 and 4 Nov 2026) in ``cell_format``; then ``texts``."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Date received"])
    cells: list[object] = [dt.datetime(2026, 11, 2), texts[0], dt.datetime(2026, 11, 4)]
    for i, value in enumerate([*cells, *texts[1:]]):
        sheet.append([f"30361937{i:02d}", value])
        if isinstance(value, dt.datetime):
            sheet.cell(row=i + 2, column=2).number_format = cell_format
    book.save(path)
    return path


def _dry_run(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[dict[int, str], list[str]]:
    """Each row's request date as the report gives it, and the warnings."""
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    book = openpyxl.load_workbook(data["report"], read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))
    book.close()
    at = rows[0].index("Request date")
    return {int(r[0]): str(r[at]) for r in rows[1:]}, data["warnings"]  # type: ignore[arg-type]


def test_text_dates_are_read_as_the_columns_date_cells_are_formatted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _book(tmp_path / "uk.xlsx", "DD/MM/YYYY", ["03/11/2026", "05/11/2026"])
    dates, warnings = _dry_run(capsys, path)
    assert [dates[3][:10], dates[5][:10]] == ["2026-11-03", "2026-11-05"], dates
    said = [w for w in warnings if "read either way" in w]
    assert said == [
        "The 2 dates that read either way in column B ('Date received') (rows 3 and 5) were "
        "read day/month, as the column's date cells are formatted (row 2: 'DD/MM/YYYY'): no "
        "date there reads one way only to tell which. If they are written the other way "
        "round, write them as year-month-day (2026-11-02) and run the file again; each row's "
        "message in the report gives both readings."
    ], warnings


def test_a_month_first_format_says_why_its_dates_were_read_month_day(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _book(tmp_path / "us.xlsx", "mm/dd/yyyy", ["11/03/2026"])
    dates, warnings = _dry_run(capsys, path)
    assert dates[3][:10] == "2026-11-03"
    assert any(
        w.startswith(
            "The 1 date that reads either way in column B ('Date received') (row 3) was read "
            "month/day, as the column's date cells are formatted (row 2: 'mm/dd/yyyy')"
        )
        for w in warnings
    ), warnings


def test_a_text_date_that_reads_one_way_only_still_decides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # '11/23/2026' can only be month/day: the text says how this column's text is written.
    path = _book(tmp_path / "mixed.xlsx", "DD/MM/YYYY", ["11/03/2026", "11/23/2026"])
    dates, warnings = _dry_run(capsys, path)
    assert dates[3][:10] == "2026-11-03"
    assert any("written month/day (row 5: '11/23/2026')" in w for w in warnings), warnings


@pytest.mark.parametrize(
    ("suffix", "exporter"),
    [("xls", "Gnumeric_Excel:excel_biff8"), ("ods", "Gnumeric_OpenCalc:odf")],
)
def test_xls_and_ods_date_cells_formats_are_read_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str, exporter: str
) -> None:
    """The same workbook saved by Gnumeric as .xls (FORMAT and XF records) and .ods (a
    number:date-style day first)."""
    source = _book(tmp_path / "uk.xlsx", "DD/MM/YYYY", ["03/11/2026", "05/11/2026"])
    path = tmp_path / f"uk.{suffix}"
    subprocess.run(
        ["ssconvert", "-T", exporter, str(source), str(path)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    dates, warnings = _dry_run(capsys, path)
    assert [dates[3][:10], dates[5][:10]] == ["2026-11-03", "2026-11-05"], dates
    assert any(
        "(rows 3 and 5) were read day/month, as the column's date cells are formatted (row 2: " in w
        for w in warnings
    ), warnings
