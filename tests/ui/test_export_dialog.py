"""Export of the DNC view's current search from the GUI: xlsx and CSV read back with the
spreadsheet reader, cancel leaves no file, unreachable rows are reported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog

from app.api.client import DncQuery
from app.api.limits import PageLimits
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.sheet_reader import open_sheet
from app.ui.export_dialog import ExportDialog
from app.ui.list_view import EntryListView, ListKind
from app.ui.tasks import TaskRunner

TIMEOUT = 20_000


def seed(sandbox: Any, campaign: str) -> None:
    rows = [(f"20255501{i:02d}", "1", "0", "", "") for i in range(30)]
    rows += [(f"31255502{i:02d}", "1", campaign, "Asked on call", "") for i in range(5)]
    sandbox.bulk_seed_dnc(rows)


def export(qtbot: Any, dialog: ExportDialog) -> None:
    with qtbot.waitSignal(dialog.exported, timeout=TIMEOUT):
        dialog.export_button.click()


def test_export_current_search_to_xlsx_and_csv(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    campaign = session.api.campaigns()[0].id
    seed(sandbox, campaign)
    view = EntryListView(ListKind.DNC, runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    qtbot.waitUntil(lambda: view.filter_bar.scope_combo.findData(campaign) >= 0, timeout=TIMEOUT)
    view.filter_bar.scope_combo.setCurrentIndex(view.filter_bar.scope_combo.findData(campaign))
    query = view.filter_bar.query()
    assert query is not None
    out = tmp_path / "out" / "campaign.xlsx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *_a: (str(out), "")))
    dialog = ExportDialog(
        session, runner, AppPaths.default(), "dnc", query, view.filter_bar.describe()
    )
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.choose_button.click()
    assert dialog.path_edit.text() == str(out)
    export(qtbot, dialog)
    assert dialog.export_result is not None and dialog.export_result.rows == 5
    assert "Exported 5 rows" in dialog.status.text() and "⚠" not in dialog.status.text()
    with open_sheet(out, "Entries") as source:
        rows = list(source.iter_rows())
    assert rows[0][1][0] == "phone_number"
    assert sorted(r[1][0] for r in rows[1:]) == [f"31255502{i:02d}" for i in range(5)]
    assert {r[1][6] for r in rows[1:]} == {"Asked on call"}

    dialog.csv_radio.setChecked(True)
    assert dialog.path_edit.text().endswith("campaign.csv")
    export(qtbot, dialog)
    with open_sheet(Path(dialog.path_edit.text())) as source:
        csv_rows = list(source.iter_rows())
    assert len(csv_rows) == 6 and str(csv_rows[1][1][0]).startswith("31255502")


def test_unreachable_rows_are_reported(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    # The service's cap (offset 100,000) scaled down: one page of 20 is all a search reaches.
    sandbox.bulk_seed_dnc([(f"20255503{i:02d}", "1", "0", "", "") for i in range(30)])
    monkeypatch.setattr(
        "app.core.export_job.DNC_SEARCH",
        PageLimits("/dnc/search", default_limit=20, max_limit=20, max_offset=0),
    )
    dialog = ExportDialog(session, runner, AppPaths.default(), "dnc", DncQuery(), "")
    qtbot.addWidget(dialog)
    dialog.page_size = 20
    dialog.path_edit.setText(str(tmp_path / "all.csv"))
    export(qtbot, dialog)
    result = dialog.export_result
    assert result is not None and (result.rows, result.unreachable) == (20, 10)
    assert "10 matching rows could not be reached" in dialog.status.text()


def test_cancel_leaves_no_file(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([(f"2025{i:06d}", "1", "0", "", "") for i in range(3000)])
    sandbox.set_faults(latency_ms=300)
    dialog = ExportDialog(session, runner, AppPaths.default(), "dnc", DncQuery(), "")
    qtbot.addWidget(dialog)
    out = tmp_path / "cancelled.csv"
    dialog.path_edit.setText(str(out))
    dialog.export_button.click()
    assert not dialog.export_button.isEnabled()
    dialog.cancel_button.click()
    qtbot.waitUntil(lambda: "cancelled" in dialog.status.text(), timeout=TIMEOUT)
    assert not out.exists()
    assert dialog.export_button.isEnabled()
