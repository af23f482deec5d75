"""Black-box bb10 F5: scrolling the SMS opt-out list (3,390 matches), the page at row 3,000
failed every attempt. The count label became "Search failed" over the 3,000 rows still shown,
nothing said 390 were missing, scrolling loaded nothing more and no Retry was offered. The
view now keeps the rows, says "3,000 of 3,390 shown" and why loading stopped, and offers a
Retry that loads the rest from where it stopped, each row once.

The service is the sandbox on loopback behind :class:`PageWire`, which fails the search page
at one offset a set number of times (a broken connection, or an HTML 502 page); the client
tries each page as often as its retry policy allows before the view hears of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from app.api.client import ApiClient
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.sandbox.params import now_timestamp
from app.ui.entry_table_model import COL_ID
from app.ui.list_view import EntryListView, ListKind
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN

TIMEOUT = 20_000
ATTEMPTS = 2  # the client's attempts at each page before the view hears of a failure


class PageWire(httpx.BaseTransport):
    """Forwards to the sandbox; the search page at ``offset`` fails ``times`` times, as a
    broken connection or (``html_502``) a proxy's HTML error page. ``asked`` records the
    offset of every search request sent."""

    def __init__(self, path: str, offset: int, times: int, html_502: bool = False) -> None:
        self._http = httpx.HTTPTransport()
        self.path = path
        self.offset = offset
        self.times = times
        self.html_502 = html_502
        self.failed = 0
        self.asked: list[int] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith(self.path):
            offset = int(parse_qs(request.read().decode()).get("offset", ["0"])[0])
            self.asked.append(offset)
            if offset == self.offset and self.failed < self.times:
                self.failed += 1
                if self.html_502:
                    return httpx.Response(
                        502,
                        headers={"Content-Type": "text/html"},
                        content=b"<html><body><h1>502 Bad Gateway</h1></body></html>",
                    )
                raise httpx.RemoteProtocolError("peer closed connection", request=request)
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def wired_session(sandbox: Any, tmp_path: Path) -> Iterator[Any]:
    sessions: list[Session] = []

    def make(wire: PageWire) -> Session:
        api = ApiClient(
            sandbox.base_url,
            TOKEN,
            http_transport=wire,
            retry=RetryPolicy(attempts=ATTEMPTS, base_delay=0.01, max_delay=0.01),
        )
        journal = ChangeJournal(tmp_path / f"journal{len(sessions)}.sqlite3")
        session = Session(Connection("Test", sandbox.base_url), api, journal)
        sessions.append(session)
        return session

    yield make
    for session in sessions:
        session.close()
        session.journal.close()


def _seed_sms(sandbox: Any, n: int) -> None:
    stamp = now_timestamp()
    sandbox.store.executemany(
        "INSERT INTO sms_opt_out(phone_number, phone_code, campaign_id, reason, purpose,"
        " insert_date) VALUES (?, ?, 0, '', '', ?)",
        ((f"303{i:07d}", "1", stamp) for i in range(n)),
    )


def _view(qtbot: Any, runner: TaskRunner, kind: ListKind, session: Session) -> EntryListView:
    view = EntryListView(kind, runner)
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    return view


def _scroll_until_stopped(qtbot: Any, view: EntryListView) -> None:
    """Scroll to the bottom until every row is in or a page failed."""
    for _ in range(50):
        if view.model.complete or view.model.failed is not None:
            return
        before = view.proxy.rowCount()
        view.table.scrollToBottom()
        qtbot.waitUntil(
            lambda b=before: view.proxy.rowCount() > b or view.model.failed is not None,
            timeout=TIMEOUT,
        )
    raise AssertionError("scrolling never ended")


def _ids(view: EntryListView) -> list[str]:
    return [view.proxy.index(r, COL_ID).data() for r in range(view.proxy.rowCount())]


def test_a_failed_sms_page_keeps_the_rows_says_what_is_missing_and_retry_loads_the_rest(
    qtbot: Any, runner: TaskRunner, sandbox: Any, wired_session: Any
) -> None:
    _seed_sms(sandbox, 3_390)
    wire = PageWire("/sms-opt-out/search", offset=3_000, times=ATTEMPTS)
    view = _view(qtbot, runner, ListKind.SMS, wired_session(wire))
    messages: list[str] = []
    view.status_message.connect(messages.append)
    _scroll_until_stopped(qtbot, view)

    assert wire.failed == ATTEMPTS  # the page was tried as often as the client allows
    assert view.proxy.rowCount() == 3_000  # the rows loaded stay
    assert view.count_label.text() == "3,000 of 3,390 shown"
    assert view.problem_row.isVisible() and view.retry_button.isEnabled()
    said = view.load_problem.text()
    assert said.startswith(
        "SMS opt-out list: 3,000 of 3,390 shown; loading the next page failed: the connection"
    )
    assert said.endswith("Press Retry to load the other 390 from row 3,001; the rows shown stay.")
    assert messages[-1] == said and view.status_text() == said
    # Copying everything shown says the copy is not the whole result.
    view.table.selectAll()
    view.copy_selection()
    assert messages[-1] == (
        "Copied 3,000 rows; the other 390 of the 3,390 matches are not loaded, so not copied."
    )
    assert QGuiApplication.clipboard().text().count("\n") == 3_000

    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(view.retry_button, Qt.MouseButton.LeftButton)
    assert wire.asked[-1] == 3_000  # from where it stopped, not page 1 again
    assert wire.asked.count(0) == 1
    ids = _ids(view)
    assert len(ids) == len(set(ids)) == 3_390
    assert view.count_label.text() == "3,390 matches"
    assert not view.problem_row.isVisible()
    assert view.status_text() == "SMS opt-out list: 3,390 matches, all loaded."


def test_a_dnc_page_answered_with_an_html_502_is_offered_again_and_loads(
    qtbot: Any, runner: TaskRunner, sandbox: Any, wired_session: Any
) -> None:
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", "0", "", "") for i in range(230))
    # Two rounds of failure: the first Retry fails too, and says so again.
    wire = PageWire("/dnc/search", offset=100, times=2 * ATTEMPTS, html_502=True)
    view = EntryListView(ListKind.DNC, runner)
    view.page_size = 50
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(wired_session(wire))
    _scroll_until_stopped(qtbot, view)
    assert view.proxy.rowCount() == 100
    assert view.count_label.text() == "100 of 230 shown"
    assert "HTTP 502" in view.load_problem.text()
    assert view.load_problem.text().endswith("the other 130 from row 101; the rows shown stay.")

    with qtbot.waitSignal(view.model.load_failed, timeout=TIMEOUT):
        qtbot.mouseClick(view.retry_button, Qt.MouseButton.LeftButton)
    assert view.problem_row.isVisible() and view.count_label.text() == "100 of 230 shown"
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(view.retry_button, Qt.MouseButton.LeftButton)
    _scroll_until_stopped(qtbot, view)
    ids = _ids(view)
    assert len(ids) == len(set(ids)) == 230
    assert wire.failed == 2 * ATTEMPTS and not view.problem_row.isVisible()
    assert view.count_label.text() == "230 matches"


def test_a_failed_first_page_offers_retry_which_searches_again(
    qtbot: Any, runner: TaskRunner, sandbox: Any, wired_session: Any
) -> None:
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", "0", "", "") for i in range(3))
    wire = PageWire("/dnc/search", offset=0, times=ATTEMPTS)
    view = EntryListView(ListKind.DNC, runner)
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.model.load_failed, timeout=TIMEOUT):
        view.set_session(wired_session(wire))
    assert view.count_label.text() == "Search failed"
    assert view.load_problem.text().startswith("Search the DNC list: the connection")
    assert view.load_problem.text().endswith("Press Retry to search again.")
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(view.retry_button, Qt.MouseButton.LeftButton)
    assert view.count_label.text() == "3 matches" and not view.problem_row.isVisible()
