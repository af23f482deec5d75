"""Black-box B36 F3 in the GUI: an export of one UK number from a service strict on phone
formats, which refuses to search the number with its trunk 0 (code 6006): the export stopped
with that error; it now writes the number's entry and its dialog says the trunk-0 form was not
looked up, and why. Against the sandbox started with ``dnc_phone_format="strict"`` over
loopback HTTP, through the real dialog."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog

from app.api.client import DncQuery
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.export_dialog import ExportDialog
from app.ui.tasks import TaskRunner

TIMEOUT = 20_000
UK = "7911129992"


@pytest.fixture
def sandbox(make_sandbox: Callable[..., Any]) -> Any:
    """An empty sandbox whose DNC search refuses a phone_number starting with 0."""
    return make_sandbox(dnc_phone_format="strict")


def test_the_dialog_exports_the_number_and_names_the_refused_trunk_form(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    sandbox.bulk_seed_dnc([(UK, "44", "0", "", "")])
    out = tmp_path / "one.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *_a: (str(out), "")))
    query = DncQuery(phone_number=UK, phone_code="44")
    dialog = ExportDialog(session, runner, AppPaths.default(), "dnc", query, f"number +44{UK}")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.choose_button.click()
    with qtbot.waitSignal(dialog.exported, timeout=TIMEOUT):
        dialog.export_button.click()

    assert dialog.export_result is not None and dialog.export_result.rows == 1
    assert dialog.status.text() == (
        f"Exported 1 row to {out}.\n\nNot looked up in 0{UK}: the service refuses that phone "
        "number format (code 6006, invalid phone format), so it keeps no entry written so."
    )
