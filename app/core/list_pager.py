"""Random-access paging over one DNC or SMS opt-out search, for lazily filled tables.

A table asks for the rows it is about to show, not for the whole result: :class:`ListPager`
answers ``fetch(offset, limit)`` and remembers the total the service reported, and knows how
far the service lets a client page (``/dnc/search`` and ``/sms-opt-out/search`` refuse an
offset above 100,000), so the table can say how many matches it cannot show instead of
silently stopping. A page with fewer rows than asked ends the result only when it reaches the
service's total (:meth:`ListPager.ends`; black-box pass R1: a service answering 999 of 1,000).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from app.api.client import ApiClient, DncQuery
from app.api.limits import DNC_SEARCH, SMS_SEARCH, PageLimits
from app.api.models import DncEntry, Page, SmsOptOut
from app.api.paging import next_offset

T = TypeVar("T")

SearchFn = Callable[[int, int, "threading.Event | None"], Page[T]]


class ListPager(Generic[T]):
    """One search (its filters are fixed), read page by page at any offset.

    ``fetch`` is safe to call from a worker thread; ``total`` is the latest total the
    service reported (None before the first page arrived).
    """

    def __init__(self, search: SearchFn[T], limits: PageLimits, page_size: int | None = None):
        size = page_size if page_size is not None else limits.max_limit
        limits.check(0, size)
        self._search = search
        self.limits = limits
        self.page_size = size
        self._lock = threading.Lock()
        self._total: int | None = None

    @property
    def total(self) -> int | None:
        with self._lock:
            return self._total

    @property
    def count(self) -> int | None:
        """Alias of :attr:`total` (the number of matches the service reported)."""
        return self.total

    def reachable_of(self, total: int) -> int:
        """How many of ``total`` matches paging by ``page_size`` can reach under the offset cap."""
        return self.limits.reachable(total, self.page_size)

    @property
    def reachable(self) -> int | None:
        total = self.total
        return None if total is None else self.reachable_of(total)

    @property
    def unreachable(self) -> int:
        """Matches the offset cap hides (0 while the total is unknown)."""
        total = self.total
        return 0 if total is None else total - self.reachable_of(total)

    def next_limit(self, loaded: int) -> int:
        """The limit of the page that follows ``loaded`` rows, or 0 when nothing follows.

        The last reachable page is asked for only the rows still reachable, so a request
        never crosses the cap.
        """
        total = self.total
        if total is None:
            return self.page_size if loaded == 0 else 0
        if self.limits.max_offset is not None and loaded > self.limits.max_offset:
            return 0
        return max(0, min(self.page_size, self.reachable_of(total) - loaded))

    def ends(self, offset: int, limit: int, page: Page[T]) -> bool:
        """Whether ``page``, asked at ``offset`` for ``limit`` rows, is the last one to ask
        for: empty, or shorter than asked and reaching the total the service reported. A page
        short before that is followed by the one starting right after its rows."""
        following = next_offset(offset, limit, len(page.items), page.total, None)
        return following is None

    def fetch(
        self, offset: int, limit: int | None = None, cancel: threading.Event | None = None
    ) -> Page[T]:
        """One page at ``offset``; records the service's total. Blocks: call it off the GUI."""
        size = self.page_size if limit is None else limit
        self.limits.check(offset, size)
        page = self._search(offset, size, cancel)
        if page.total is not None:
            with self._lock:
                self._total = page.total
        return page


def dnc_pager(api: ApiClient, query: DncQuery, page_size: int | None = None) -> ListPager[DncEntry]:
    """A pager over ``/dnc/search`` with these filters."""

    def search(offset: int, limit: int, cancel: threading.Event | None) -> Page[DncEntry]:
        return api.search_dnc(query, offset=offset, limit=limit, cancel=cancel)

    return ListPager(search, DNC_SEARCH, page_size)


def sms_pager(
    api: ApiClient, query: DncQuery, page_size: int | None = None
) -> ListPager[SmsOptOut]:
    """A pager over ``/sms-opt-out/search`` with these filters."""

    def search(offset: int, limit: int, cancel: threading.Event | None) -> Page[SmsOptOut]:
        return api.search_sms(query, offset=offset, limit=limit, cancel=cancel)

    return ListPager(search, SMS_SEARCH, page_size)
