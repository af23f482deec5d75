"""Iterate every result of a paged search, and say how many the offset cap hid.

The service caps ``offset`` (100,000 on the DNC and SMS searches), so a search matching
more rows than the cap allows cannot be read to the end. :class:`PagedSearch` stops there
and reports ``unreachable`` instead of silently truncating.

A page with fewer rows than asked is not by itself the end of a result: a service may answer
fewer than ``limit`` (a cap of its own, one row short) while its total says more follow
(black-box pass R1: a page of 999 of 1,000 ended a 2,500-row export at 999 rows, blamed on
the paging cap). :func:`next_offset` is the one rule every reader of a DNC or SMS search
pages by.
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


def next_offset(
    offset: int, asked: int, got: int, total: int | None, max_offset: int | None
) -> int | None:
    """Where the page after one of ``got`` rows at ``offset`` (``asked`` asked for) starts, or
    None when nothing follows.

    The result has ended at an empty page, or at a page shorter than asked that reaches the
    ``total`` the service reported (or when the service reports none). Otherwise the next page
    starts right after the rows received, so none is skipped however few came; past
    ``max_offset`` it starts at the cap (if this page started before it): an overlap only reads
    rows again, which a reader keeping rows by id drops. Each page starts past the start of the
    one before, and never past the cap, so paging always ends.
    """
    if got <= 0:
        return None
    end = offset + got
    if got < asked and (total is None or end >= total):
        return None
    if max_offset is not None and end > max_offset:
        return max_offset if offset < max_offset else None
    return end


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
            if self.total is not None and self.fetched >= self.total:
                break
            # No cap here: its overlap would hand callers, who keep no ids, rows twice.
            following = next_offset(offset, self.page_size, len(page.items), page.total, None)
            cap = self.limits.max_offset
            if following is None or (cap is not None and following > cap):
                break
            offset = following
        if self.total is not None:
            self.unreachable = max(0, self.total - self.fetched)
        self.complete = self.unreachable == 0

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.items
