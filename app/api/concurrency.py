"""Keep N calls in flight over one client from a small pool of worker threads.

Used by bulk writes (imports, removals, re-status) and by benchmarks. Results come back
as they complete, each paired with its input, so the caller records every outcome.

A job's call does more than its request: it journals the intent before and the outcome
after, and marks its row in the job file. With one thread per request slot, those
milliseconds leave a slot empty; :func:`bounded_map` can therefore run more ``workers`` than
``concurrency`` and hand its threads an :class:`InFlightGate`, which
:class:`~app.api.transport.Transport` holds around each HTTP exchange: the service still
never sees more than ``concurrency`` requests at once.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

T = TypeVar("T")
R = TypeVar("R")

MAX_CONCURRENCY = 32
# How often a worker waiting for resume (or for the caller) looks at stop and pause.
_POLL = 0.05


@dataclass(frozen=True, slots=True)
class Done(Generic[T, R]):
    """One finished call: its input and either its result or the exception it raised."""

    item: T
    result: R | None
    error: BaseException | None


class _Window:
    """Calls started but not yet handed to the caller; bounds the work done ahead of it."""

    def __init__(self, size: int) -> None:
        self._free = size
        self._cond = threading.Condition(threading.Lock())

    def take(self, halted: Callable[[], bool]) -> bool:
        with self._cond:
            while self._free == 0:
                if halted():
                    return False
                self._cond.wait(_POLL)
            self._free -= 1
            return True

    def give(self) -> None:
        with self._cond:
            self._free += 1
            self._cond.notify()

    def wake_all(self) -> None:
        with self._cond:
            self._cond.notify_all()


class InFlightGate:
    """At most ``size`` HTTP requests in flight among the threads that share it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._in_flight = 0
        self.most_in_flight = 0  # the high-water mark, for tests and benchmarks

    def enter(self, *stops: threading.Event | None) -> bool:
        """Take a slot, waiting as long as needed; False (no slot taken) once any of
        ``stops`` is set while waiting."""
        events = [e for e in stops if e is not None]
        while not self._slots.acquire(timeout=_POLL if events else None):
            if any(e.is_set() for e in events):
                return False
        with self._lock:
            self._in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self._in_flight)
        return True

    def leave(self) -> None:
        with self._lock:
            self._in_flight -= 1
        self._slots.release()


_local = threading.local()


def in_flight_gate() -> InFlightGate | None:
    """The gate of the :func:`bounded_map` worker running on this thread, if it has one."""
    gate: InFlightGate | None = getattr(_local, "gate", None)
    return gate


_EXITED = object()
_NO_ITEM = object()


def bounded_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    *,
    concurrency: int,
    workers: int | None = None,
    stop: threading.Event | None = None,
    pause: threading.Event | None = None,
    gate: InFlightGate | None = None,
) -> Iterator[Done[T, R]]:
    """Run ``fn`` over ``items`` with at most ``concurrency`` calls in flight.

    With ``workers`` above ``concurrency``, that many calls run at once but their threads share
    an :class:`InFlightGate` of ``concurrency`` slots (``gate``, or a new one), which the
    transport holds around each HTTP exchange: at most ``concurrency`` requests are in flight,
    and a call's work before and after its request overlaps the requests of the others.

    ``items`` is consumed lazily (by the worker threads, one at a time), so a million-row job
    never queues a million calls. When ``stop`` is set no new call starts; calls already in
    flight finish and are yielded. While ``pause`` is set (a "paused" flag) no new call starts
    either. An exception raised by ``items`` itself is raised after the calls in flight have
    been yielded.

    Each worker takes its next item as soon as its call returns, without waiting for the
    caller: a hop through the calling thread per call (a wake-up, a queue hand-off, another
    wake-up) cost about 3 % of the throughput of a 16-wide import. The caller still bounds
    the work: at most ``concurrency`` results wait for it; beyond that the workers wait, and
    when the caller stops iterating (``break``, an exception, ``close()``) no new call starts
    and the generator returns once the calls in flight have finished.
    """
    if not 1 <= concurrency <= MAX_CONCURRENCY:
        raise ValueError(f"concurrency must be between 1 and {MAX_CONCURRENCY}")
    threads = max(concurrency, workers or concurrency)
    if threads > concurrency and gate is None:
        gate = InFlightGate(concurrency)
    source = iter(items)
    source_lock = threading.Lock()
    results: queue.SimpleQueue[object] = queue.SimpleQueue()
    window = _Window(2 * threads)
    halt = threading.Event()  # the source is exhausted or broken, or the caller left
    failure: list[BaseException] = []

    def halted() -> bool:
        return halt.is_set() or (stop is not None and stop.is_set())

    def next_item() -> object:
        while True:
            if halted():
                return _NO_ITEM
            if pause is not None and pause.is_set():
                if stop is not None:
                    stop.wait(_POLL)
                else:
                    halt.wait(_POLL)
                continue
            with source_lock:
                if halted():
                    return _NO_ITEM
                try:
                    return next(source)
                except StopIteration:
                    halt.set()
                    return _NO_ITEM
                except BaseException as exc:
                    failure.append(exc)
                    halt.set()
                    return _NO_ITEM

    def work() -> None:
        _local.gate = gate
        try:
            while window.take(halted):
                got = next_item()
                if got is _NO_ITEM:
                    window.give()
                    return
                item = cast(T, got)
                try:
                    done: Done[T, R] = Done(item, fn(item), None)
                except BaseException as exc:
                    done = Done(item, None, exc)
                results.put(done)
        finally:
            _local.gate = None
            results.put(_EXITED)

    started = [
        threading.Thread(target=work, name=f"dnc-bulk_{n}", daemon=True) for n in range(threads)
    ]
    for worker in started:
        worker.start()
    running = len(started)
    try:
        while running:
            got = results.get()
            if got is _EXITED:
                running -= 1
                continue
            window.give()
            yield cast(Done[T, R], got)
    finally:
        halt.set()
        window.wake_all()
        for worker in started:
            worker.join()
    if failure:
        raise failure[0]
