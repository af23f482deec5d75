"""The Evidence tab says what the pack's Summary sheet says beyond its counts (black-box B37
F2, F4 and B36 F1, the window's side): the lead forms searched (a lead writing the number
another way is not found), the snapshot files that could not be read (not consulted: the tab
listed only the snapshots it read, so a damaged one went unseen) and the status codes whose
names the service's status search failed to give. Real widgets, the sandbox over loopback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from app.api.client import ApiClient
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.evidence_view import EvidenceView
from app.ui.tasks import TaskRunner
from tests.core.test_status_query_evidence import NUMBER, StatusWire, _leads

TIMEOUT = 20_000


def _look_up(qtbot: Any, runner: TaskRunner, session: Session, number: str) -> EvidenceView:
    view = EvidenceView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.show()
    view.set_session(session)
    qtbot.keyClicks(view.number_edit, number)
    with qtbot.waitSignal(view.evidence_ready, timeout=TIMEOUT):
        qtbot.keyClick(view.number_edit, Qt.Key.Key_Return)
    return view


def test_the_tab_shows_the_lead_forms_searched_and_the_snapshots_not_read(
    qtbot: Any, runner: TaskRunner, session: Session, api: ApiClient
) -> None:
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    api.insert_lead(api.insert_list("Black-box B37 list", camp), "1.404.281.8404")
    snapshots = AppPaths.default().snapshots_dir
    snapshots.mkdir(parents=True, exist_ok=True)
    (snapshots / "broken <1>.sqlite3").write_bytes(b"junk" * 100)
    view = _look_up(qtbot, runner, session, "4042818404")
    assert view.lead_model.rowCount() == 1
    text = view.summary.text()
    assert "listed in 0 of 0 saved snapshots, 1 not read." in text
    assert '<br>Lead forms searched: "4042818404", ' in text
    assert '"1.404.281.8404"' in text and "a lead keeping it written any other way" in text
    # Escaped: a file's name is shown as written, never read as markup.
    assert (
        "⚠ 1 snapshot file could not be read, so not consulted (whether it lists the number is "
        "not known): broken &lt;1&gt;.sqlite3 (not a DNC Desk snapshot DNC Desk can read)."
    ) in text
    assert view.tabs.tabText(4) == "Snapshots (1 not read)"
    assert "broken <1>.sqlite3: not a DNC Desk snapshot" in view.tabs.tabToolTip(4)
    assert "Status names not read" not in text

    # Another look-up with the file gone: the tab says nothing was left unread.
    (snapshots / "broken <1>.sqlite3").unlink()
    view.number_edit.clear()
    qtbot.keyClicks(view.number_edit, "4042818404")
    with qtbot.waitSignal(view.evidence_ready, timeout=TIMEOUT):
        qtbot.keyClick(view.number_edit, Qt.Key.Key_Return)
    assert view.tabs.tabText(4) == "Snapshots"
    assert "not read" not in view.summary.text()


def test_the_tab_names_the_status_codes_whose_names_were_not_read(
    qtbot: Any, runner: TaskRunner, sandbox: Any, wired_api: Any, tmp_path: Path
) -> None:
    api = wired_api(StatusWire(failing=frozenset({"REVW1"})))
    _leads(sandbox, api)
    session = Session(
        Connection("Test", sandbox.base_url), api, ChangeJournal(tmp_path / "journal.sqlite3")
    )
    try:
        view = _look_up(qtbot, runner, session, NUMBER)
    finally:
        session.journal.close()
    text = view.summary.text()
    assert (
        "<br>Status names not read: the service's search for these lead statuses failed, so "
        "their leads' status names are not known: REVW1 (/status/search"
    ) in text
    assert text.count("Status names not read") == 1 and "DNC (" not in text
