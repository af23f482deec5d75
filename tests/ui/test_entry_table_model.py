"""EntryTableModel: lazy pages from a real sandbox, checked by QAbstractItemModelTester."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, Qt

from app.api.client import ApiClient, DncQuery
from app.api.models import Campaign, DncEntry
from app.api.scope import Scope
from app.core.list_pager import dnc_pager
from app.ui.entry_table_model import (
    COL_CODE,
    COL_ID,
    COL_INSERTED,
    COL_PHONE,
    COL_REASON,
    COL_SCOPE,
    COPY_ROLE,
    HEADERS,
    RAW_ROLE,
    SORT_ROLE,
    EntrySortProxy,
    EntryTableModel,
)
from app.ui.tasks import TaskRunner


def _wait_loaded(qtbot: Any, model: EntryTableModel) -> None:
    qtbot.waitUntil(lambda: not model.loading, timeout=10_000)


def test_pages_load_until_the_end_under_the_model_tester(
    qtbot: Any, qtmodeltester: Any, sandbox: Any, api: ApiClient, runner: TaskRunner
) -> None:
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", "0", "", "") for i in range(250))
    model = EntryTableModel(runner)
    qtmodeltester.check(model, force_py=True)
    with qtbot.waitSignal(model.page_loaded, timeout=10_000) as first:
        model.start(dnc_pager(api, DncQuery(), page_size=100))
    assert first.args == [100, 250]
    assert model.rowCount() == 100 and model.total == 250
    assert model.canFetchMore(QModelIndex())
    pages = 1
    while model.canFetchMore(QModelIndex()):
        with qtbot.waitSignal(model.page_loaded, timeout=10_000):
            model.fetchMore(QModelIndex())
            model.fetchMore(QModelIndex())  # a second call while one is in flight does nothing
        pages += 1
    assert pages == 3 and model.rowCount() == 250 and model.complete
    numbers = [model.entry(r).phone_number for r in range(250)]
    assert numbers == [f"202{i:07d}" for i in range(250)]


def test_new_search_drops_late_pages_of_the_old_one(
    qtbot: Any, sandbox: Any, api: ApiClient, runner: TaskRunner
) -> None:
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", "0", "", "") for i in range(30))
    campaign = sandbox.seed_campaign("Only Campaign")
    sandbox.bulk_seed_dnc((f"303{i:07d}", "1", campaign, "", "") for i in range(5))
    sandbox.set_faults(latency_ms=300)
    model = EntryTableModel(runner)
    model.start(dnc_pager(api, DncQuery(), page_size=10))
    old_generation = model.generation
    sandbox.set_faults(latency_ms=0)
    with qtbot.waitSignal(model.page_loaded, timeout=10_000) as loaded:
        model.start(dnc_pager(api, DncQuery(scope=Scope.campaign(campaign)), page_size=10))
    assert model.generation == old_generation + 1
    assert loaded.args == [5, 5]
    runner.wait()
    qtbot.wait(50)  # let any queued result of the old search be delivered (and dropped)
    assert model.rowCount() == 5
    assert all(model.entry(r).phone_number.startswith("303") for r in range(5))


def test_display_raw_copy_and_sort_roles(
    qtbot: Any, qtmodeltester: Any, sandbox: Any, api: ApiClient, runner: TaskRunner
) -> None:
    active = sandbox.seed_campaign("Alpha Active", active=True)
    inactive = sandbox.seed_campaign("Zulu Closed", active=False)
    api.insert_dnc("2025550143", "1", Scope.global_(), reason="Customer request")
    api.insert_dnc("2025550144", "1", Scope.campaign(inactive))
    api.insert_dnc("7700900123", "44", Scope.purpose("Surveys"))
    api.insert_dnc("2025550145", "1", Scope.campaign(active))
    model = EntryTableModel(runner)
    model.set_campaigns(
        [
            Campaign(active, "Alpha Active", True, "", ""),
            Campaign(inactive, "Zulu Closed", False, "", ""),
        ]
    )
    with qtbot.waitSignal(model.page_loaded, timeout=10_000):
        model.start(dnc_pager(api, DncQuery()))
    qtmodeltester.check(model, force_py=True)
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(len(HEADERS))] == list(
        HEADERS
    )
    # The short header says whose clock in its tip, as the exported files head the column.
    tip = model.headerData(COL_INSERTED, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert tip == "Insert date (service's clock): the API does not give the service's time zone"
    first = model.index(0, COL_PHONE)
    assert first.data() == "(202) 555-0143"
    assert first.data(COPY_ROLE) == "2025550143"
    assert "2025550143" in first.data(Qt.ItemDataRole.ToolTipRole)
    assert isinstance(first.data(RAW_ROLE), DncEntry)
    assert model.index(0, COL_SCOPE).data() == "Global"
    assert model.index(0, COL_REASON).data() == "Customer request"
    assert model.index(1, COL_SCOPE).data() == "Zulu Closed (inactive)"
    assert model.index(1, COL_SCOPE).data(Qt.ItemDataRole.ForegroundRole) is not None
    assert model.index(2, COL_SCOPE).data() == "Purpose: Surveys"
    assert model.index(2, COL_PHONE).data() == "+44 7700 900123"
    assert model.index(2, COL_CODE).data() == "+44"
    assert model.index(3, COL_SCOPE).data() == "Alpha Active"
    assert model.index(3, COL_ID).data(SORT_ROLE) > model.index(0, COL_ID).data(SORT_ROLE)

    proxy = EntrySortProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy, force_py=True)
    proxy.sort(COL_SCOPE, Qt.SortOrder.AscendingOrder)
    assert [proxy.index(r, COL_SCOPE).data() for r in range(4)] == [
        "Alpha Active",
        "Global",
        "Purpose: Surveys",
        "Zulu Closed (inactive)",
    ]
    proxy.sort(COL_ID, Qt.SortOrder.DescendingOrder)
    ids = [int(proxy.index(r, COL_ID).data()) for r in range(4)]
    assert ids == sorted(ids, reverse=True)


def test_failed_page_stops_fetching_until_retry(
    qtbot: Any, sandbox: Any, api: ApiClient, runner: TaskRunner
) -> None:
    sandbox.bulk_seed_dnc((f"202{i:07d}", "1", "0", "", "") for i in range(20))
    from tests.conftest import TOKEN

    model = EntryTableModel(runner)
    with qtbot.waitSignal(model.page_loaded, timeout=10_000):
        model.start(dnc_pager(api, DncQuery(), page_size=10))
    sandbox.revoke_token(TOKEN)
    with qtbot.waitSignal(model.load_failed, timeout=10_000) as failed:
        model.fetchMore(QModelIndex())
    assert "token" in str(failed.args[0]).lower()
    assert model.failed is not None and not model.canFetchMore(QModelIndex())
    assert model.rowCount() == 10
