"""Black-box bb16 F12: the DNC list view held 100 of 230 entries when the next page failed;
meanwhile 10 of the entries shown were deleted. Retry asked offset 100, which now started
10 entries further on: the view said "220 matches, all loaded" while 10 entries still on the
list were never shown (Select all + Copy missed them). Plain scrolling had the same gap when
entries were deleted between two pages. A page whose total differs from the page before is now
read again from before its offset and the rows after the last row held are added: every entry
still on the list is shown, and the status says rows shown may have been removed since.

The service is the sandbox on loopback behind :class:`PageWire` (see
``test_list_view_failed_page``), which can fail one page and records every offset asked.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.ui.entry_table_model import ListMoved
from app.ui.list_view import EntryListView, ListKind
from app.ui.tasks import TaskRunner
from tests.ui import test_list_view_failed_page as failed_page
from tests.ui.test_list_view_failed_page import (
    ATTEMPTS,
    TIMEOUT,
    PageWire,
    _ids,
    _scroll_until_stopped,
)

wired_session = failed_page.wired_session  # the fixture: sessions over a PageWire


def _listed(sandbox: Any) -> set[str]:
    return {str(row[0]) for row in sandbox.store.execute("SELECT id FROM dnc").fetchall()}


def _delete(sandbox: Any, ids: list[int]) -> None:
    sandbox.store.executemany("DELETE FROM dnc WHERE id = ?", [(i,) for i in ids])


def _view(qtbot: Any, runner: TaskRunner, session: Any) -> EntryListView:
    view = EntryListView(ListKind.DNC, runner)
    view.page_size = 50
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    return view


def test_retry_after_entries_above_were_deleted_shows_every_entry_still_listed(
    qtbot: Any, runner: TaskRunner, sandbox: Any, wired_session: Any
) -> None:
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", "0", "", "") for i in range(230))
    wire = PageWire("/dnc/search", offset=100, times=ATTEMPTS)
    view = _view(qtbot, runner, wired_session(wire))
    _scroll_until_stopped(qtbot, view)
    assert view.model.failed is not None and view.model.rowCount() == 100
    shown = sorted(int(i) for i in _ids(view))
    _delete(sandbox, shown[:10])  # another officer removes 10 of the entries shown

    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(view.retry_button, Qt.MouseButton.LeftButton)
    _scroll_until_stopped(qtbot, view)

    after = _ids(view)
    assert len(after) == len(set(after))  # each entry once
    assert _listed(sandbox) - set(after) == set()  # none still listed left out
    assert view.model.complete
    status = view.status_text()
    assert "220 matches, all loaded" in status
    assert "10 of the 230 rows shown may have been removed since" in status


def test_scrolling_after_entries_above_were_deleted_skips_none(
    qtbot: Any, runner: TaskRunner, sandbox: Any, wired_session: Any
) -> None:
    sandbox.bulk_seed_dnc((f"203{i:07d}", "1", "0", "", "") for i in range(230))
    wire = PageWire("/dnc/search", offset=-1, times=0)
    view = _view(qtbot, runner, wired_session(wire))
    assert view.model.rowCount() == 50
    shown = sorted(int(i) for i in _ids(view))
    _delete(sandbox, shown[5:12])  # removed between the first page and the next
    _scroll_until_stopped(qtbot, view)

    after = _ids(view)
    assert len(after) == len(set(after))
    assert _listed(sandbox) - set(after) == set()
    # The page at 50 saw the total change and was read again from 7 + 1 rows before it.
    assert wire.asked[:3] == [0, 50, 42]


def test_a_list_moved_out_of_reach_says_so_and_retry_searches_again(
    qtbot: Any, runner: TaskRunner, sandbox: Any, wired_session: Any
) -> None:
    sandbox.bulk_seed_dnc((f"204{i:07d}", "1", "0", "", "") for i in range(400))
    wire = PageWire("/dnc/search", offset=-1, times=0)
    view = _view(qtbot, runner, wired_session(wire))
    shown = [int(i) for i in _ids(view)]
    _delete(sandbox, shown)  # every row held is gone: nothing to find the place by
    failures: list[BaseException] = []
    view.model.load_failed.connect(failures.append)
    view.table.scrollToBottom()
    qtbot.waitUntil(lambda: bool(failures), timeout=TIMEOUT)

    assert isinstance(failures[0], ListMoved)
    assert not view.problem_row.isHidden()
    text = view.load_problem.text()
    assert "the list changed while it was loaded (400 matches then, 350 now)" in text
    assert "Press Retry to search again from the start" in text
    assert not view.model.complete

    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(view.retry_button, Qt.MouseButton.LeftButton)
    _scroll_until_stopped(qtbot, view)
    assert set(_ids(view)) == _listed(sandbox)


def test_pages_of_an_unchanged_list_are_asked_as_before(
    qtbot: Any, runner: TaskRunner, sandbox: Any, wired_session: Any
) -> None:
    sandbox.bulk_seed_dnc((f"205{i:07d}", "1", "0", "", "") for i in range(120))
    wire = PageWire("/dnc/search", offset=-1, times=0)
    view = _view(qtbot, runner, wired_session(wire))
    _scroll_until_stopped(qtbot, view)
    assert wire.asked == [0, 50, 100]
    assert len(set(_ids(view))) == 120


def test_removals_mostly_below_the_read_position_skip_none_and_loading_goes_on(
    qtbot: Any, runner: TaskRunner, sandbox: Any, wired_session: Any
) -> None:
    """The total shrank by 60, only 5 of them above: the page read back holds only rows
    already shown, and loading goes on from there without the view being scrolled again."""
    sandbox.bulk_seed_dnc((f"206{i:07d}", "1", "0", "", "") for i in range(230))
    wire = PageWire("/dnc/search", offset=-1, times=0)
    view = _view(qtbot, runner, wired_session(wire))
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.table.scrollToBottom()
    held = sorted(int(i) for i in _ids(view))
    assert len(held) == 100
    ahead = sorted(int(i) for i in _listed(sandbox) - set(_ids(view)))
    _delete(sandbox, held[20:25] + ahead[:55])
    _scroll_until_stopped(qtbot, view)

    after = _ids(view)
    assert len(after) == len(set(after))
    assert _listed(sandbox) - set(after) == set()
    assert view.model.complete
