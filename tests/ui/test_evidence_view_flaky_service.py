"""The Evidence tab on a flaky service (black-box bb3 F5) and with an empty number (F1).

F5: a look-up whose one DNC search the service never answers (the sandbox behind
:class:`FailingWire`) showed only "Look up …: the connection … broke", no pack; it now shows the
pack, the failed search named in red, and never "on no list".
F1: Look up with the number box emptied left the previous number's error on screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.evidence import EvidencePack
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.evidence_view import NUMBER_NEEDED, EvidenceView
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN
from tests.core.test_evidence_flaky_service import FOREVER, FailingWire, dnc_search_of

TIMEOUT = 20_000
NUMBER = "2025550123"


def test_evidence_tab_shows_the_pack_and_names_a_failed_search(
    qtbot: Any, runner: TaskRunner, sandbox: Any, tmp_path: Path
) -> None:
    api = ApiClient(
        sandbox.base_url,
        TOKEN,
        http_transport=FailingWire(dnc_search_of(NUMBER), times=FOREVER),
        retry=RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01),
    )
    api.insert_sms(NUMBER, "1", Scope.global_(), reason="STOP")
    session = Session(Connection("Test", sandbox.base_url), api, ChangeJournal(tmp_path / "j"))
    try:
        view = EvidenceView(runner, AppPaths.default())
        qtbot.addWidget(view)
        view.set_session(session)
        qtbot.keyClicks(view.number_edit, NUMBER)
        with qtbot.waitSignal(view.evidence_ready, timeout=TIMEOUT) as blocker:
            qtbot.keyClick(view.number_edit, Qt.Key.Key_Return)
        pack = blocker.args[0]
        assert isinstance(pack, EvidencePack) and not pack.fully_known
        assert view.sms_model.rowCount() == 1 and view.export_button.isEnabled()
        text = view.summary.text()
        assert "⚠ DNC searches not read (1), so not known: 2025550123 under phone code 1" in text
    finally:
        session.close()
        session.journal.close()


def test_look_up_with_no_number_replaces_the_last_error(
    qtbot: Any, runner: TaskRunner, session: Session
) -> None:
    view = EvidenceView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.set_session(session)
    messages: list[str] = []
    view.status_message.connect(messages.append)
    qtbot.keyClicks(view.number_edit, "12345")
    qtbot.mouseClick(view.lookup_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "cannot be looked up" in view.summary.text(), timeout=TIMEOUT)
    view.number_edit.clear()
    qtbot.mouseClick(view.lookup_button, Qt.MouseButton.LeftButton)
    assert view.summary.text() == NUMBER_NEEDED
    assert messages[-1] == NUMBER_NEEDED
