"""A lazily filled table of DNC entries or SMS opt-outs over a :class:`ListPager`.

Rows arrive a page at a time as the view scrolls (``canFetchMore``/``fetchMore``); the fetch
runs on the :class:`TaskRunner` and rows are inserted when the page is back on the GUI thread.
Each new search bumps a generation number, so a page of an older search that arrives late is
dropped instead of mixing into the new result.

A page with fewer rows than asked ends the rows only when it reaches the total the service
reported (:func:`app.api.paging.next_offset`); before that the next page starts right after the
rows received (black-box pass R1: a service answering 999 of 1,000 rows had the list stop at 999
of 2,500). Past the offset cap the last page starts at the cap itself, its rows already shown
dropped by id.

Entries removed from the list above the read position between two pages (by this window, another
officer or a job) shift the later ones back, so the next page, asked at the count of rows held,
would start past rows still on the list: they would never be shown, and a view saying "all
loaded" copied without them (black-box bb16 F12, after a Retry minutes later; scrolling has the
same gap). One rule for every page after the first: when its total differs from the one the page
before reported, its rows are not taken as they are; the page is read again from before its
offset (back by how far the total shrank, and one row more), the last row held is found in it by
id and only the rows after it are added. When no row held is in reach (:data:`REALIGN_STEPS` pages
back), the view says rows may be missing and its Retry searches again from the start
(:class:`ListMoved`), as the export re-reads a part whose total changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QPalette
from PySide6.QtWidgets import QApplication

from app.api.models import Campaign, DncEntry, Page, SmsOptOut
from app.api.paging import next_offset
from app.core.audit_types import INSERT_DATE_HEADER
from app.core.list_pager import ListPager
from app.core.phones import format_for_display
from app.ui.plain_text import literal
from app.ui.tasks import Task, TaskRunner

Entry = DncEntry | SmsOptOut
Index = QModelIndex | QPersistentModelIndex

COL_PHONE, COL_CODE, COL_SCOPE, COL_REASON, COL_PURPOSE, COL_INSERTED, COL_ID = range(7)
HEADERS: tuple[str, ...] = (
    "Phone number",
    "Country code",
    "Scope",
    "Reason",
    "Purpose",
    "Inserted",
    "Id",
)

# The column is short for room; its tip says whose clock, as the exported files' headers do.
INSERTED_TIP = f"{INSERT_DATE_HEADER}: the API does not give the service's time zone"

RAW_ROLE = Qt.ItemDataRole.UserRole + 1  # the DncEntry / SmsOptOut itself
SORT_ROLE = Qt.ItemDataRole.UserRole + 2  # a key that sorts the column correctly
COPY_ROLE = Qt.ItemDataRole.UserRole + 3  # what "copy" puts on the clipboard (raw number)


def scope_label(entry: Entry, campaigns: dict[str, Campaign]) -> str:
    """``Global``, ``Purpose: …`` or the campaign's name, with inactive campaigns marked."""
    scope = entry.scope
    if not scope.is_campaign:
        return scope.label()
    campaign = campaigns.get(scope.campaign_id)
    if campaign is not None:
        return campaign.display_name
    return scope.label(entry.campaign_name)


# Pages read back, each one page further, to find the last row held after the list moved.
REALIGN_STEPS = 3


class ListMoved(Exception):
    """The list changed between two pages so far that the rows held could not be found again:
    rows on the list may be missing from the view. Retry searches again from the start."""

    def __init__(self, before: int, now: int) -> None:
        super().__init__(f"the list changed while it was loaded ({before:,} matches, now {now:,})")
        self.before = before
        self.now = now


def _id_key(entry_id: str) -> int:
    return int(entry_id) if entry_id.isdigit() else -1


class EntryTableModel(QAbstractTableModel):
    """The rows of one search, loaded page by page.

    Signals:
        loading_changed(bool): a page fetch started (True) or ended (False).
        page_loaded(int, int): rows loaded so far and the total the service reported.
        load_failed(object): a page fetch raised this exception; :meth:`retry` tries again.
    """

    loading_changed = Signal(bool)
    page_loaded = Signal(int, int)
    load_failed = Signal(object)

    def __init__(self, runner: TaskRunner, parent: Any = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._rows: list[Entry] = []
        self._held: dict[str, int] = {}  # each row's id and where it is in _rows
        self._pager: ListPager[Any] | None = None
        self._generation = 0
        self._total: int | None = None
        self._exhausted = False
        # Where the next page starts: right after the rows received, or the offset cap.
        self._next_offset = 0
        self._failed: BaseException | None = None
        # Set while pages are read back to find the last row held: the total before the change
        # and the pages read back so far.
        self._realign: tuple[int, int] | None = None
        self._in_flight: Task | None = None
        self._campaigns: dict[str, Campaign] = {}

    # ------------------------------------------------------------------ state
    @property
    def generation(self) -> int:
        return self._generation

    @property
    def total(self) -> int | None:
        """The number of matches the service reported (None before the first page)."""
        return self._total

    @property
    def reachable(self) -> int | None:
        if self._total is None or self._pager is None:
            return None
        return self._pager.reachable_of(self._total)

    @property
    def unreachable(self) -> int:
        reachable = self.reachable
        return 0 if reachable is None or self._total is None else self._total - reachable

    @property
    def loading(self) -> bool:
        return self._in_flight is not None

    @property
    def failed(self) -> BaseException | None:
        return self._failed

    @property
    def complete(self) -> bool:
        """Every reachable row is loaded (or the service ran out of rows early)."""
        reachable = self.reachable
        return reachable is not None and (self._exhausted or self._next_offset >= reachable)

    def entry(self, row: int) -> Entry:
        return self._rows[row]

    def entries(self) -> Sequence[Entry]:
        return tuple(self._rows)

    def set_campaigns(self, campaigns: Iterable[Campaign]) -> None:
        self._campaigns = {c.id: c for c in campaigns}
        if self._rows:
            self.dataChanged.emit(
                self.index(0, COL_SCOPE), self.index(len(self._rows) - 1, COL_SCOPE)
            )

    # ------------------------------------------------------------------ searching
    def start(self, pager: ListPager[Any] | None) -> None:
        """Show the results of ``pager``'s search (None: show nothing); loads the first page."""
        self._cancel_in_flight()
        self.beginResetModel()
        self._generation += 1
        self._rows = []
        self._held = {}
        self._pager = pager
        self._total = None
        self._exhausted = False
        self._next_offset = 0
        self._failed = None
        self._realign = None
        self.endResetModel()
        if pager is not None:
            self._fetch()

    def retry(self) -> None:
        """Fetch again the page that failed (or the first page if none arrived); after the list
        moved out of reach (:class:`ListMoved`), search again from the start."""
        if self._pager is None or self._in_flight is not None:
            return
        if isinstance(self._failed, ListMoved):
            self.start(self._pager)
            return
        self._failed = None
        self._fetch()

    def _cancel_in_flight(self) -> None:
        task = self._in_flight
        self._in_flight = None
        if task is not None:
            task.cancel()
            self.loading_changed.emit(False)

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        if parent.isValid() or self._pager is None or self._failed is not None:
            return False
        reachable = self.reachable
        return reachable is not None and not self._exhausted and self._next_offset < reachable

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        if self._in_flight is None and self.canFetchMore(parent):
            self._fetch()

    def _fetch(self) -> None:
        pager = self._pager
        if pager is None:
            return
        generation = self._generation
        offset = self._next_offset
        limit = pager.next_limit(offset) if self._total is not None else pager.page_size
        if self._realign is not None:
            limit = pager.page_size  # reading back: rows already held, then the next ones
        if limit <= 0:
            self._exhausted = True
            return
        self._in_flight = self._runner.submit(
            "load list page",
            lambda ctx: pager.fetch(offset, limit, ctx.cancel_event),
            on_done=lambda page: self._on_page(generation, offset, limit, page),
            on_error=lambda exc: self._on_error(generation, exc),
        )
        self.loading_changed.emit(True)

    def _on_page(self, generation: int, offset: int, limit: int, page: Page[Any]) -> None:
        if generation != self._generation:
            return  # a page of a search the user has since replaced
        items = list(page.items)
        following = next_offset(offset, limit, len(items), page.total, self._pager_max_offset())
        if self._realign is not None or self._moved(offset, page.total):
            aligned = self._realigned(offset, items, page.total)
            if aligned is None:
                return  # reading further back, or the list moved out of reach
            items = aligned
        elif page.total is not None:
            self._total = page.total
        if following is None:
            # Empty, or short and reaching the total: entries were removed meanwhile, or the
            # service gives no more than it did.
            self._exhausted = True
        else:
            self._next_offset = following
        # Rows read again (the page at the offset cap, a page read back) are shown once.
        items = [entry for entry in items if entry.id not in self._held]
        if items:
            # _in_flight stays set until the rows are in: views and testers call fetchMore from
            # the insert signals, and a fetch started then would ask for the same offset again.
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(items) - 1)
            self._rows.extend(items)
            self._held.update((entry.id, first + i) for i, entry in enumerate(items))
            self.endInsertRows()
        self._in_flight = None
        if not items and self.canFetchMore():
            # A page read back held only rows already shown: nothing new for the view to scroll
            # to, so nothing would ask for the next page.
            self._fetch()
            return
        self.loading_changed.emit(False)
        self.page_loaded.emit(len(self._rows), self._total if self._total is not None else 0)

    def _moved(self, offset: int, total: int | None) -> bool:
        """Whether the list changed since the page before: rows held, and another total."""
        return (
            offset > 0
            and bool(self._rows)
            and None not in (total, self._total)
            and (total != self._total)
        )

    def _realigned(self, offset: int, items: list[Any], total: int | None) -> list[Any] | None:
        """The page's rows after the last row held; or None when the page is read again further
        back (or the list moved out of reach, said by load_failed)."""
        before = self._total if self._realign is None else self._realign[0]
        steps = 0 if self._realign is None else self._realign[1]
        found = [i for i, entry in enumerate(items) if entry.id in self._held]
        if total is not None:
            self._total = total
        if found:
            self._realign = None
            last = max(found, key=lambda i: self._held[items[i].id])
            return items[last + 1 :]
        assert before is not None
        if steps >= REALIGN_STEPS or (steps > 0 and offset == 0):
            self._realign = None
            self._on_error(self._generation, ListMoved(before, total or 0))
            return None
        shrunk = max(0, before - (total or 0))
        back = shrunk + 1 if steps == 0 else self._page_size()
        self._realign = (before, steps + 1)
        self._next_offset = max(0, offset - back)
        self._in_flight = None
        self._fetch()
        return None

    def _page_size(self) -> int:
        return 0 if self._pager is None else self._pager.page_size

    def _pager_max_offset(self) -> int | None:
        return None if self._pager is None else self._pager.limits.max_offset

    def _on_error(self, generation: int, exc: BaseException) -> None:
        if generation != self._generation:
            return
        self._in_flight = None
        self._failed = exc
        self.loading_changed.emit(False)
        self.load_failed.emit(exc)

    # ------------------------------------------------------------------ Qt model
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(HEADERS):
            if role == Qt.ItemDataRole.DisplayRole:
                return HEADERS[section]
            if role == Qt.ItemDataRole.ToolTipRole and section == COL_INSERTED:
                return INSERTED_TIP
            return None
        if orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole:
            return section + 1
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        entry = self._rows[index.row()]
        column = index.column()
        if role == RAW_ROLE:
            return entry
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(entry, column)
        if role == COPY_ROLE:
            # Raw values: pasted into a sheet or an import they must read back unchanged.
            if column == COL_PHONE:
                return entry.phone_number
            if column == COL_CODE:
                return entry.phone_code
            return self._display(entry, column)
        if role == SORT_ROLE:
            return self._sort_key(entry, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = self._tooltip(entry, column)
            return literal(tip) if tip is not None else None  # a tooltip guesses rich text
        if role == Qt.ItemDataRole.ForegroundRole and column == COL_SCOPE:
            campaign = self._campaigns.get(entry.scope.campaign_id)
            if entry.scope.is_campaign and campaign is not None and not campaign.active:
                palette = QApplication.palette()
                return QBrush(palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (COL_CODE, COL_ID):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, entry: Entry, column: int) -> str:
        if column == COL_PHONE:
            return format_for_display(entry.phone_number, entry.phone_code)
        if column == COL_CODE:
            return f"+{entry.phone_code}" if entry.phone_code else ""
        if column == COL_SCOPE:
            return scope_label(entry, self._campaigns)
        if column == COL_REASON:
            return entry.reason
        if column == COL_PURPOSE:
            return entry.purpose
        if column == COL_INSERTED:
            return entry.insert_date
        if column == COL_ID:
            return entry.id
        return ""

    def _sort_key(self, entry: Entry, column: int) -> Any:
        if column == COL_PHONE:
            return f"{entry.phone_code:>4}|{entry.phone_number}"
        if column == COL_CODE:
            return int(entry.phone_code) if entry.phone_code.isdigit() else -1
        if column == COL_ID:
            return _id_key(entry.id)
        return self._display(entry, column).casefold()

    def _tooltip(self, entry: Entry, column: int) -> str | None:
        if column == COL_PHONE:
            return (
                f"Stored as {entry.phone_number} with country code {entry.phone_code} "
                f"(+{entry.phone_code}{entry.phone_number})"
            )
        if column == COL_SCOPE and entry.scope.is_campaign:
            campaign = self._campaigns.get(entry.scope.campaign_id)
            state = ""
            if campaign is not None:
                state = " — active" if campaign.active else " — inactive campaign"
            return f"Campaign {entry.scope.campaign_id}{state}"
        if column in (COL_REASON, COL_PURPOSE):
            text = self._display(entry, column)
            return text or "(blank)"
        return None


class EntrySortProxy(QSortFilterProxyModel):
    """Sorts the loaded rows by :data:`SORT_ROLE`; ``fetchMore`` passes through to the source."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)
