"""Keep N calls in flight over one client from a small pool of worker threads.

Used by bulk writes (imports, removals, re-status) and by benchmarks. Results come back
as they complete, each paired with its input, so the caller records every outcome.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MAX_CONCURRENCY = 32


@dataclass(frozen=True, slots=True)
class Done(Generic[T, R]):
    """One finished call: its input and either its result or the exception it raised."""

    item: T
    result: R | None
    error: BaseException | None


def bounded_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    *,
    concurrency: int,
    stop: threading.Event | None = None,
    pause: threading.Event | None = None,
) -> Iterator[Done[T, R]]:
    """Run ``fn`` over ``items`` with at most ``concurrency`` calls in flight.

    ``items`` is consumed lazily, so a million-row job never queues a million futures.
    When ``stop`` is set no new call starts; calls already in flight finish and are
    yielded. While ``pause`` is set (a "paused" flag) no new call starts either.
    """
    if not 1 <= concurrency <= MAX_CONCURRENCY:
        raise ValueError(f"concurrency must be between 1 and {MAX_CONCURRENCY}")
    source = iter(items)
    pending: dict[Future[R], T] = {}
    state = {"exhausted": False}

    def refill() -> None:
        while not state["exhausted"] and len(pending) < concurrency:
            if stop is not None and stop.is_set():
                state["exhausted"] = True
                return
            if pause is not None and pause.is_set():
                return
            try:
                item = next(source)
            except StopIteration:
                state["exhausted"] = True
                return
            pending[pool.submit(fn, item)] = item

    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="dnc-bulk") as pool:
        while True:
            refill()
            if not pending:
                if state["exhausted"]:
                    return
                # Paused with nothing in flight: wait for resume or stop.
                if stop is not None and stop.wait(0.05):
                    state["exhausted"] = True
                elif stop is None:
                    threading.Event().wait(0.05)
                continue
            finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            done = [(fut, pending.pop(fut)) for fut in finished]
            # Start the next calls before the caller handles these results: the caller's
            # bookkeeping (job files, progress) then overlaps requests instead of delaying them.
            refill()
            for fut, item in done:
                exc = fut.exception()
                yield Done(item, None if exc is not None else fut.result(), exc)
