"""Black-box pass R1, the list view: a service answering a page with fewer rows than asked
before the end of its result (999 of 1,000) had the table take that page for the last and stop
at 999 of 2,500 rows. The table now keeps loading right after the rows received until the
service's total, and past the offset cap reads the last page from the cap, each row shown once.

The service is the sandbox on loopback, its answers cut short on the way back
(:class:`ShortWire`); pages are fetched on the task runner's threads, never the GUI thread.
"""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest
from PySide6.QtCore import QModelIndex

from app.api.client import ApiClient, DncQuery
from app.api.limits import PageLimits
from app.core.list_pager import ListPager, dnc_pager
from app.ui.entry_table_model import EntryTableModel
from app.ui.tasks import TaskRunner
from tests.core.test_export_short_pages import Shorten, ShortWire, at_most, one_short

TIMEOUT = 20_000


class ThreadNotingWire(ShortWire):
    """A :class:`ShortWire` that also notes whether a request was sent from the GUI thread."""

    def __init__(self, cut: Shorten) -> None:
        super().__init__(cut)
        self.on_gui_thread = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if threading.current_thread() is threading.main_thread():
            self.on_gui_thread += 1
        return super().handle_request(request)


@pytest.fixture
def short_api(wired_api: Any) -> Any:
    def make(cut: Shorten) -> tuple[ApiClient, ThreadNotingWire]:
        wire = ThreadNotingWire(cut)
        return wired_api(wire), wire

    return make


def _seed(sandbox: Any, n: int) -> set[str]:
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(n))
    return {str(row["id"]) for row in sandbox.store.all("SELECT id FROM dnc")}


def _load_all(qtbot: Any, model: EntryTableModel, pager: ListPager[Any]) -> int:
    """Start the search and scroll until the model has nothing more to fetch; returns pages."""
    with qtbot.waitSignal(model.page_loaded, timeout=TIMEOUT):
        model.start(pager)
    pages = 1
    while model.canFetchMore(QModelIndex()):
        with qtbot.waitSignal(model.page_loaded, timeout=TIMEOUT):
            model.fetchMore(QModelIndex())
        pages += 1
        assert pages < 50  # paging always ends
    return pages


def test_the_list_keeps_loading_past_a_page_one_row_short(
    qtbot: Any, sandbox: Any, short_api: Any, runner: TaskRunner
) -> None:
    ids = _seed(sandbox, 2_500)
    client, wire = short_api(one_short)
    model = EntryTableModel(runner)
    _load_all(qtbot, model, dnc_pager(client, DncQuery()))
    shown = [model.entry(r).id for r in range(model.rowCount())]
    assert sorted(shown) == sorted(ids)  # every row, each once (not 999 of 2,500)
    assert (model.total, model.unreachable, model.complete) == (2_500, 0, True)
    assert not model.canFetchMore(QModelIndex())
    # Each page starts right after the rows of the one before.
    assert wire.asked == [(0, 1000), (999, 1000), (1_998, 502)]
    assert wire.on_gui_thread == 0


def test_short_pages_near_the_offset_cap_show_every_reachable_row_once(
    qtbot: Any, qtmodeltester: Any, sandbox: Any, short_api: Any, runner: TaskRunner
) -> None:
    # A service giving 300 rows a page, paged by 500 under a cap of 1,000: the page after
    # the one ending at 1,200 starts at the cap, its first 200 rows already shown.
    ids = _seed(sandbox, 1_300)
    client, wire = short_api(at_most(300))
    pager: ListPager[Any] = ListPager(
        lambda offset, limit, cancel: client.search_dnc(
            DncQuery(), offset=offset, limit=limit, cancel=cancel
        ),
        PageLimits("/dnc/search", 100, 1000, max_offset=1000),
        page_size=500,
    )
    model = EntryTableModel(runner)
    qtmodeltester.check(model, force_py=True)
    _load_all(qtbot, model, pager)
    shown = [model.entry(r).id for r in range(model.rowCount())]
    assert sorted(shown) == sorted(ids)
    assert (model.total, model.unreachable, model.complete) == (1_300, 0, True)
    assert [offset for offset, _ in wire.asked] == [0, 300, 600, 900, 1_000]
    assert wire.on_gui_thread == 0
