"""The import wizard marks hidden sheets in its Sheet list, and its check reads a day/month
request-date column as staging does."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.core.paths import AppPaths
from app.core.session import Session
from app.core.sheet_check import CheckOptions
from app.core.sheet_mapping import ColumnMapping
from app.ui.import_wizard import ImportWizard
from app.ui.import_wizard_engine import check_file, probe_file
from app.ui.tasks import TaskRunner

TIMEOUT = 15_000


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    r.cancel_all()
    r.wait()


def _workbook(path: Path) -> Path:
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "To send"
    first.append(["Phone"])
    first.append(["2025550101"])
    hidden = wb.create_sheet("Old list")
    hidden.append(["Phone"])
    hidden.append(["7025991034"])
    hidden.sheet_state = "hidden"
    wb.save(path)
    return path


def test_a_hidden_sheet_is_marked_and_can_still_be_chosen(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    file = _workbook(tmp_path / "two.xlsx")
    wizard = ImportWizard(session, runner, AppPaths.default(), file)
    qtbot.addWidget(wizard)
    wizard.show()
    page = wizard.source_page
    qtbot.waitUntil(lambda: page.probe is not None, timeout=TIMEOUT)
    combo = page.sheet_combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["To send", "Old list (hidden)"]
    assert combo.currentData() == "To send" and "hidden" not in page.message.text()
    combo.setCurrentIndex(1)
    combo.activated.emit(1)
    qtbot.waitUntil(
        lambda: page.probe is not None and page.probe.sheet == "Old list", timeout=TIMEOUT
    )
    assert combo.currentText() == "Old list (hidden)"
    assert "sheet 'Old list' (hidden in the file)" in page.message.text()
    assert page.probe.preview[1][1] == ["7025991034"]


def test_the_wizards_check_reads_a_day_month_column_day_month(tmp_path: Path) -> None:
    path = tmp_path / "ddmm.csv"
    path.write_text(
        "Phone,Date Received\n303-555-1301,25/10/2026\n303-555-1302,11/10/2026\n"
        "303-555-1303,03/11/2026\n303-555-1304,20/11/2026\n"
    )
    probe = probe_file(path)
    mapping = ColumnMapping(header_row=1, headers=("Phone", "Date Received"), phone=0)
    mapping.request_date = 1
    options = CheckOptions(insertion_date=dt.date(2026, 11, 22))
    result = check_file(probe, mapping, options, {})
    # Read month/day, 11/10 and 03/11 would give one late request less (Nov 10 not late,
    # Mar 11 late, Nov 3 not): the counts shown must be the job's.
    assert result.summary.late_requests == 3
    assert result.summary.rows == 4


def test_the_wizards_check_reads_text_dates_as_the_date_cells_are_formatted(
    tmp_path: Path,
) -> None:
    """bb13 F8 in the window: '03/11/2026' beside date cells shown dd/mm/yyyy is 3 Nov, as the
    job reads it, not 11 Mar (a late request in the counts shown)."""
    path = tmp_path / "uk.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Date Received"])
    sheet.append(["303-555-1311", dt.datetime(2026, 11, 2)])
    sheet.append(["303-555-1312", "03/11/2026"])
    sheet["B2"].number_format = "DD/MM/YYYY"
    book.save(path)
    mapping = ColumnMapping(header_row=1, headers=("Phone", "Date Received"), phone=0)
    mapping.request_date = 1
    options = CheckOptions(insertion_date=dt.date(2026, 11, 10))
    result = check_file(probe_file(path), mapping, options, {})
    assert result.summary.late_requests == 0
    assert result.summary.formatted == (True, 2, "DD/MM/YYYY")
