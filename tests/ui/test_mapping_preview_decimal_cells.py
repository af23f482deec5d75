"""A phone cell written as a decimal ("2025550123.0", a pandas export's float column) is
shown by the mapping preview as the check page counts it: no damage when the number was kept
exactly (black-box B6 #7), and a flag beside a count of damaged rows when a number cell lost
its leading 0 (a UK number under code 44)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.import_wizard import ImportWizard
from app.ui.tasks import TaskRunner

TIMEOUT = 20_000
VERDICT = 4  # the preview's column saying how the row reads


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    r.cancel_all()
    r.wait()


def _preview_and_count(
    qtbot: Any, session: Session, runner: TaskRunner, file: Path, code: str
) -> tuple[list[str], int]:
    wizard = ImportWizard(session, runner, AppPaths.default(), file)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitUntil(lambda: wizard.source_page.probe is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: bool(wizard.campaign_lookup), timeout=TIMEOUT)
    wizard.next()
    assert wizard.currentId() == wizard.PAGE_MAPPING
    page = wizard.mapping_page
    page.code_edit.setText(code)
    page.update_preview()
    model = page.preview_model
    verdicts = [model.item(row, VERDICT).text() for row in range(model.rowCount())]
    wizard.next()
    wizard.target_page.note_edit.setText("decimal cells")
    wizard.next()
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    result = wizard.check_page.result
    assert result is not None
    return verdicts, result.summary.damaged


def _write(tmp_path: Path, form: str, cells: list[Any]) -> Path:
    if form == "csv":
        file = tmp_path / "pandas.csv"
        file.write_text("Phone\n" + "".join(f"{cell}\n" for cell in cells))
        return file
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone"])
    for cell in cells:
        sheet.append([cell])
    file = tmp_path / "sheet.xlsx"
    book.save(file)
    return file


# The decimal as a CSV's text, as an xlsx text cell, and as an xlsx number cell (a float).
@pytest.mark.parametrize(
    ("form", "cells"),
    [
        ("csv", ["2025550123.0", "3035550188.0", "7205550101"]),
        ("xlsx", ["2025550123.0", "3035550188.0", "7205550101"]),
        ("xlsx", [2025550123.0, 3035550188.0, 7205550101]),
    ],
)
def test_a_whole_number_written_as_a_decimal_is_not_flagged_or_counted(
    qtbot: Any, session: Session, runner: TaskRunner, tmp_path: Path, form: str, cells: list[Any]
) -> None:
    file = _write(tmp_path, form, cells)
    verdicts, damaged = _preview_and_count(qtbot, session, runner, file, "1")
    assert verdicts == ["valid"] * 3
    assert damaged == 0


def test_a_decimal_cell_that_lost_its_0_is_flagged_as_it_is_counted(
    qtbot: Any, session: Session, runner: TaskRunner, tmp_path: Path
) -> None:
    file = tmp_path / "uk.csv"
    file.write_text("Phone\n7911123456.0\n07911123457\n")
    verdicts, damaged = _preview_and_count(qtbot, session, runner, file, "44")
    assert verdicts[0].startswith("cell '7911123456.0' was written as a decimal number"), verdicts
    assert verdicts[1] == "valid"
    assert damaged == 1
