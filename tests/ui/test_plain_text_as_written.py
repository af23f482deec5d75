"""Black-box S19 U2: text from the service, the user or a file shows as written in the window,
and a removal's valid count says how many of its rows are looked up as written.

#1: the Evidence tab's summary is rich text and showed a refusal quoting what was typed
(``<b>call me</b> &amp; co``) as bold "call me & co"; a reason's tooltip in the list view, a
job's note tooltip, guessed rich text the same way. They are now escaped: what the widget shows
(its HTML rendered as Qt renders it) holds the characters typed.

#2: ``dnc-desk remove`` says "valid: 3 (of which 1 not a valid number today, looked up as
written: …)" of a file holding UK 7911600927 under 44 (R2, black-box V4 #1); the bulk removal
wizard (its run and result pages) and the Jobs tab said only the valid count. They now say it
in the CLI's words.

Real widgets against a fresh sandbox over loopback; files in tmp_path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QFileDialog, QLabel

from app.api.client import ApiClient
from app.core.connections import Connection
from app.core.job_catalog import read_job
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.bulk_removal_dialog import BulkRemovalDialog
from app.ui.entry_table_model import COL_REASON
from app.ui.evidence_view import EvidenceView
from app.ui.job_list import COL_NOTE, COL_OUTCOMES, JobTableModel, outcomes_text
from app.ui.job_progress import job_registry
from app.ui.list_view import EntryListView, ListKind
from app.ui.plain_text import literal
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN

TIMEOUT = 20_000
TYPED = "<b>call me</b> &amp; co"
SAID = "not a valid number today, looked up as written: removed if the list holds it, else invalid"


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    for handle in job_registry().handles:
        handle.cancel()
    r.cancel_all()
    r.wait()


def shown(text: str, rich: bool) -> str:
    """What a widget shows of ``text``: rendered as Qt renders HTML when it reads it so."""
    if not rich:
        return text
    doc = QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText()


def label_shows(label: QLabel) -> str:
    fmt = label.textFormat()
    rich = fmt == Qt.TextFormat.RichText or (
        fmt == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(label.text())
    )
    return shown(label.text(), rich)


def tip_shows(tip: str) -> str:
    """A tooltip is read as rich text when Qt guesses it is."""
    return shown(tip, GuiQt.mightBeRichText(tip))


def test_literal_leaves_plain_text_and_escapes_what_qt_would_read_as_html() -> None:
    assert literal("a & b &amp; c") == "a & b &amp; c"  # read as plain: shown as it is
    for text in (TYPED, "x &lt; y", "<0791 600927>\nsecond line"):
        assert tip_shows(literal(text)).replace("\u2028", "\n") == text


def test_evidence_summary_shows_a_refusal_and_a_connection_name_as_written(
    qtbot: Any, runner: TaskRunner, sandbox: Any, tmp_path: Path
) -> None:
    session = Session(
        Connection("<b>Ops</b> & co", sandbox.base_url),
        ApiClient(sandbox.base_url, TOKEN),
        ChangeJournal(tmp_path / "journal.sqlite3"),
    )
    try:
        view = EvidenceView(runner, AppPaths.default())
        qtbot.addWidget(view)
        view.set_session(session)
        view.number_edit.setText(TYPED)
        view.look_up()
        qtbot.waitUntil(lambda: view._task is None, timeout=TIMEOUT)
        refused = label_shows(view.summary)
        assert f"{TYPED!r} cannot be looked up" in refused
        view.number_edit.setText("2025550143")
        view.look_up()
        qtbot.waitUntil(lambda: view.pack is not None, timeout=TIMEOUT)
        assert label_shows(view.summary).startswith("+12025550143 on <b>Ops</b> & co, collected")
    finally:
        session.close()
        session.journal.close()


def test_a_reason_tooltip_in_the_list_shows_as_written(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    sandbox.bulk_seed_dnc([("2025550143", "1", "0", TYPED, "")])
    view = EntryListView(ListKind.DNC, runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    index = view.model.index(0, COL_REASON)
    assert index.data() == TYPED
    assert tip_shows(index.data(Qt.ItemDataRole.ToolTipRole)) == TYPED


def test_a_removal_says_its_rows_looked_up_as_written_in_the_wizard_and_the_jobs_tab(
    qtbot: Any,
    runner: TaskRunner,
    session: Session,
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The list holds the UK number in no range in use today, and one of the two US numbers.
    sandbox.bulk_seed_dnc([("7911600927", "44", "0", "", ""), ("2025550001", "1", "0", "", "")])
    file = tmp_path / "remove.csv"
    file.write_text("Phone\n+44 7911 600927\n2025550001\n2025550002\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: (str(file), "")))
    dialog = BulkRemovalDialog(session, runner, AppPaths.default())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.source_page.browse_button.click()
    qtbot.waitUntil(dialog.source_page.isComplete, timeout=TIMEOUT)
    dialog.next()
    options = dialog.options_page
    options.reason_edit.setText("Consumer asked to be called again")
    options.name_edit.setText(TYPED)
    qtbot.waitUntil(lambda: options.count == 3, timeout=TIMEOUT)
    staged: list[str] = []
    with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT) as finished:
        dialog.next()
        handle = dialog.run_page.handle
        assert handle is not None
        # After the run page's own slot: what it says once the file is checked.
        handle.staged.connect(lambda _s: staged.append(dialog.run_page.rate_label.text()))
    summary = finished.args[0]
    assert (summary["removed"], summary["not_found"], summary["invalid"]) == (2, 1, 0)
    assert staged == [f"3 valid rows to send (of which 1 {SAID}); starting…"]
    qtbot.waitUntil(lambda: dialog.currentId() == dialog.PAGE_RESULT, timeout=TIMEOUT)
    result = dialog.result_page
    assert result.value_labels["valid"].text() == f"3 (of which 1 {SAID})"
    # The job's name is shown as typed in the result's bold headline.
    assert label_shows(result.headline).startswith(f"{TYPED}: finished.")

    info = read_job(Path(summary["job_file"]))
    assert "1 valid, not a valid number today, looked up as written" in outcomes_text(info)
    model = JobTableModel()
    model.set_jobs([info])
    tip = model.index(0, COL_OUTCOMES).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == f"valid: 3 (of which 1 {SAID})"
    assert "7911600927" not in {
        r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")
    }
    # A note guessed as rich text shows as written in its tooltip.
    info.meta["note"] = TYPED
    assert tip_shows(model.index(0, COL_NOTE).data(Qt.ItemDataRole.ToolTipRole)) == TYPED
