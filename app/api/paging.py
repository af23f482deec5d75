"""Iterate every result of a paged search, and say how many the offset cap hid.

The service caps ``offset`` (100,000 on the DNC and SMS searches), so a search matching
more rows than the cap allows cannot be read to the end. :class:`PagedSearch` stops there
and reports ``unreachable`` instead of silently truncating.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from app.api.limits import PageLimits
from app.api.models import Page

T = TypeVar("T")


class Cancelled(Exception):
    """The caller asked the work to stop.

    A write stopped between its attempts says what the attempts before did:
    ``maybe_done`` when one of them was sent and its answer lost (it may have been done),
    ``refused`` how many were sent and refused for the service's rate limit (HTTP 429; not
    done). Both are unset when nothing was sent.
    """

    maybe_done: bool = False
    refused: int = 0


class PagedSearch(Generic[T]):
    """All pages of one search, fetched in order.

    After iteration ``total`` is what the service reported (None when the endpoint
    reports no total), ``fetched`` how many rows came, and ``unreachable`` how many rows
    the offset cap left out.
    """

    def __init__(
        self,
        fetch: Callable[[int, int], Page[T]],
        limits: PageLimits,
        page_size: int | None = None,
        cancel: threading.Event | None = None,
    ) -> None:
        self._fetch = fetch
        self.limits = limits
        self.page_size = page_size or limits.max_limit
        limits.check(0, self.page_size)
        self._cancel = cancel
        self.total: int | None = None
        self.fetched = 0
        self.unreachable = 0
        self.complete = False

    def pages(self) -> Iterator[Page[T]]:
        offset = 0
        while True:
            if self._cancel is not None and self._cancel.is_set():
                raise Cancelled
            page = self._fetch(offset, self.page_size)
            if page.total is not None:
                self.total = page.total
            self.fetched += len(page.items)
            yield page
            if len(page.items) < self.page_size:
                break
            if self.total is not None and self.fetched >= self.total:
                break
            next_offset = offset + self.page_size
            if self.limits.max_offset is not None and next_offset > self.limits.max_offset:
                break
            offset = next_offset
        if self.total is not None:
            self.unreachable = max(0, self.total - self.fetched)
        self.complete = self.unreachable == 0

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.items
