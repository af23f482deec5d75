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
    exhausted = False
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="dnc-bulk") as pool:
        while True:
            while not exhausted and len(pending) < concurrency:
                if stop is not None and stop.is_set():
                    exhausted = True
                    break
                if pause is not None and pause.is_set():
                    break
                try:
                    item = next(source)
                except StopIteration:
                    exhausted = True
                    break
                pending[pool.submit(fn, item)] = item
            if not pending:
                if exhausted:
                    return
                # Paused with nothing in flight: wait for resume or stop.
                if stop is not None and stop.wait(0.05):
                    exhausted = True
                elif stop is None:
                    threading.Event().wait(0.05)
                continue
            finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for fut in finished:
                item = pending.pop(fut)
                exc = fut.exception()
                yield Done(item, None if exc is not None else fut.result(), exc)
