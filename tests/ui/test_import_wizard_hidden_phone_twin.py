"""The import wizard proposes, of two phone columns of one header, the visible one when the
other is hidden, as staging reads it (black-box bb13 F6): the numbers the person sees in the
file are the ones imported, and the hidden column's are named as not imported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.session import Session
from app.ui.tasks import TaskRunner
from tests.core.test_hidden_phone_column_twin import _listed, _workbook
from tests.ui.test_import_wizard import TIMEOUT, open_wizard, to_check_page


def test_the_wizard_reads_the_visible_phone_column(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    wizard = open_wizard(qtbot, session, runner, _workbook(tmp_path, "Phone"))
    to_check_page(qtbot, wizard, "hidden old numbers")
    assert wizard.mapping_page.mapping.phone == 2  # column C, shown
    said = wizard.check_page.second_phone
    assert said.isVisible() and "column B ('Phone')" in said.text(), said.text()
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()
    assert finished.args[0]["inserted"] == 5
    assert _listed(sandbox) == [
        "6505550100", "6505550102", "6505550104", "6505550201", "6505550203"
    ]  # fmt: skip
