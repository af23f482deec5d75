"""An export from the window of a search scoped to a campaign names the campaign on its About
sheet, beside its id, as the CLI's export does (W5 #3 fixed the CLI; the dialog passed only
the query, whose scope holds the id: the About sheet said ``scope=campaign:1``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from python_calamine import CalamineWorkbook

from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.export_dialog import ExportDialog
from app.ui.list_view import EntryListView, ListKind
from app.ui.main_window import default_view_factory
from app.ui.tasks import TaskRunner
from tests.ui.test_export_dialog import TIMEOUT, export, seed
from tests.ui.test_import_wizard_window import connected_window


def test_the_about_sheet_names_the_campaign_of_the_search(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    campaign = next(c for c in session.api.campaigns() if c.name == "Spring Renewals")
    seed(sandbox, campaign.id)
    view = EntryListView(ListKind.DNC, runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    bar = view.filter_bar
    qtbot.waitUntil(lambda: bar.scope_combo.findData(campaign.id) >= 0, timeout=TIMEOUT)
    assert bar.scope_said() == ""  # any scope: nothing to name
    bar.scope_combo.setCurrentIndex(bar.scope_combo.findData(campaign.id))
    said = bar.scope_said()
    assert said == f"campaign:Spring Renewals (id {campaign.id})"
    query = bar.query()
    assert query is not None
    out = tmp_path / "campaign.xlsx"
    dialog = ExportDialog(
        session, runner, AppPaths.default(), "dnc", query, bar.describe(), scope_said=said
    )
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(out))
    export(qtbot, dialog)
    assert dialog.export_result is not None and dialog.export_result.rows == 5
    book = CalamineWorkbook.from_path(str(out))
    try:
        about = dict((r[0], r[1]) for r in book.get_sheet_by_name("About").to_python() if r)
    finally:
        book.close()
    assert f"scope=campaign:Spring Renewals (id {campaign.id})" in str(about["Filters"]), about


def test_the_windows_export_action_passes_the_campaigns_name(
    make_window: Any, qtbot: Any, sandbox: Any
) -> None:
    window = connected_window(
        lambda: make_window(view_factory=default_view_factory), qtbot, sandbox
    )
    view = window.list_views["dnc"]
    assert isinstance(view, EntryListView)
    window.tabs.setCurrentWidget(view)
    bar = view.filter_bar
    session = window.state.session
    assert session is not None
    campaign = next(c for c in session.api.campaigns() if c.name == "Spring Renewals")
    qtbot.waitUntil(lambda: bar.scope_combo.findData(campaign.id) >= 0, timeout=TIMEOUT)
    bar.scope_combo.setCurrentIndex(bar.scope_combo.findData(campaign.id))
    dialog = window.job_features.export_search()
    assert dialog is not None
    qtbot.addWidget(dialog)
    assert dialog.scope_said == f"campaign:Spring Renewals (id {campaign.id})"
