"""Black-box S19 U2b: a connection's or a campaign's name shows as written in the dialogs that
quote it.

U2 (``app/ui/plain_text``) left the token dialog's heading, the Connections dialog's heading
and banner, and the confirmation questions quoting a campaign's or a connection's name to Qt's
guess: a connection named ``<b>Ops</b>`` showed as bold "Ops", a campaign ``A <i>test</i>`` as
"A test" in italics. A window title dropped a ``[*]`` in a name (Qt's "modified" mark). They now
show every character of the name.

Real widgets (the message boxes are the ones ``QMessageBox.question`` opens, answered through
the application's modal widget); the campaign is the sandbox's over loopback."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QWidget

from app.core.connections import Connection, ConnectionStore
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.tokens import TokenStore
from app.ui.audit_table_model import RAW_ROLE, CampaignRow
from app.ui.campaigns_view import CampaignsView
from app.ui.connection_dialog import ConnectionsDialog
from app.ui.tasks import TaskRunner
from app.ui.token_dialog import TokenDialog
from tests.conftest import TOKEN

TIMEOUT = 20_000
CONNECTION = "<b>Ops</b> [*]"
CAMPAIGN = "A <i>test</i> & co"


# The real one, before tests/ui/conftest.py turns every message box into a failure.
REAL_QUESTION = QMessageBox.question


@pytest.fixture(autouse=True)
def real_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests answer the real question boxes themselves (see Answerer)."""
    monkeypatch.setattr(QMessageBox, "question", REAL_QUESTION)


def shows(text: str, fmt: Qt.TextFormat = Qt.TextFormat.AutoText) -> str:
    """What a widget with text format ``fmt`` shows of ``text``, HTML rendered as Qt does."""
    rich = fmt == Qt.TextFormat.RichText or (
        fmt == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(text)
    )
    if not rich:
        return text
    doc = QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText()


def labels_show(widget: QWidget) -> list[str]:
    return [
        shows(label.text(), label.textFormat())
        for label in widget.findChildren(QLabel)
        if label.isVisibleTo(widget)
    ]


def title_shown(widget: QWidget) -> str:
    """The title the window system is given (Qt has read its ``[*]`` marks by then)."""
    window = widget.windowHandle()
    assert window is not None
    return window.title()


class Answerer:
    """Answers the next message box opened: records what it shows, then presses ``button``."""

    def __init__(self, button: QMessageBox.StandardButton) -> None:
        self.button = button
        self.texts: list[str] = []
        self.titles: list[str] = []
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._look)
        self.timer.start()

    def _look(self) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            return
        self.timer.stop()
        self.texts.append(shows(box.text(), box.textFormat()))
        self.titles.append(title_shown(box))
        pressed = box.button(self.button)
        assert pressed is not None
        pressed.click()


def test_connections_dialog_quotes_the_name_as_written(
    qtbot: Any, paths: AppPaths, runner: TaskRunner, memory_keyring: Any
) -> None:
    ConnectionStore(paths.connections_file).save(Connection(CONNECTION, "http://127.0.0.1:9"))
    memory_keyring.passwords[("dnc-desk", CONNECTION)] = TOKEN
    dialog = ConnectionsDialog(ConnectionStore(paths.connections_file), TokenStore(), runner)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.name_edit.text() == CONNECTION, timeout=TIMEOUT)
    assert shows(dialog.heading.text(), dialog.heading.textFormat()) == f"Edit {CONNECTION}"
    qtbot.waitUntil(lambda: "system keyring" in dialog.token_state.text(), timeout=TIMEOUT)

    # Forget token: the question names the connection; so does the banner once done.
    answer = Answerer(QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(dialog.forget_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(answer.texts), timeout=TIMEOUT)
    assert answer.texts[0].startswith(f"Remove the stored token of {CONNECTION}? ")
    qtbot.waitUntil(lambda: "forgotten" in dialog.message.text(), timeout=TIMEOUT)
    assert f"The token of {CONNECTION} is forgotten." in labels_show(dialog.message)

    # Remove: the question quotes the name and the address.
    answer = Answerer(QMessageBox.StandardButton.No)
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(answer.texts), timeout=TIMEOUT)
    assert answer.texts[0].startswith(
        f"Remove the connection {CONNECTION} (http://127.0.0.1:9) and forget its token?"
    )


def test_token_dialog_heading_and_title_show_the_name(
    qtbot: Any, runner: TaskRunner, memory_keyring: Any
) -> None:
    dialog = TokenDialog(Connection(CONNECTION, "http://127.0.0.1:9"), TokenStore(), runner)
    qtbot.addWidget(dialog)
    dialog.show()
    assert f"Enter the API token for {CONNECTION}" in labels_show(dialog)
    assert title_shown(dialog) == f"API token — {CONNECTION}"


def test_deactivate_question_quotes_the_campaign_as_written(
    qtbot: Any, runner: TaskRunner, sandbox: Any, session: Session
) -> None:
    sandbox.seed_campaign(CAMPAIGN, active=True)
    view = CampaignsView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.campaigns_loaded, timeout=TIMEOUT):
        view.set_session(session)
    for row in range(view.proxy.rowCount()):
        item = view.proxy.index(row, 0).data(RAW_ROLE)
        if isinstance(item, CampaignRow) and item.campaign.name == CAMPAIGN:
            view.table.selectRow(row)
            campaign = item.campaign
            break
    else:
        pytest.fail("the campaign is not listed")
    answer = Answerer(QMessageBox.StandardButton.No)
    view.deactivate_selected()
    qtbot.waitUntil(lambda: bool(answer.texts), timeout=TIMEOUT)
    assert answer.texts[0].startswith(f"Deactivate {CAMPAIGN} (id {campaign.id})? ")
