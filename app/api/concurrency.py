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
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar, cast

T = TypeVar("T")
R = TypeVar("R")

MAX_CONCURRENCY = 32
# A run of writes left unanswered (see InFlightGate.waiting_writes) ends once no write has been
# on the wire for this many seconds: a removal's rows not on the list send look-ups only, and a
# delete that went unanswered before them does not make the next delete, sent minutes later,
# look as if the service had answered no write since.
WRITE_LULL = 60.0
# How often a worker waiting for resume (or for the caller) looks at stop and pause.
_POLL = 0.05


class Quiet(NamedTuple):
    """What :meth:`InFlightGate.waiting` finds: since when (monotonic) the service has answered
    nothing, and the request it waits on; and, while every request that ended since the last
    answer (or since one last reached it) failed without reaching the service, its connection
    refused or its host unknown, since when that has been so (``refused_since``, monotonic)
    and the URL last tried (``refused_url``): a service that cannot be reached is not one
    that leaves requests unanswered (black-box B4 #9)."""

    since: float
    url: str
    refused_since: float | None = None
    refused_url: str = ""

    @property
    def refused(self) -> bool:
        return self.refused_since is not None


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
    """At most ``size`` HTTP requests in flight among the threads that share it.

    A job's gate also knows the job's ``stop`` and ``pause`` events: while ``pause`` is set no
    request of its starts (a retry or a look-up waits for the resume), and once ``stop`` is
    set none starts at all, whatever it is (black-box L4 #8: a stopped job went on with its
    retries and look-ups against a service that never answered, for minutes).

    It also watches the requests on the wire (:meth:`sent`, :meth:`leave`), so the job can say
    when the service has stopped answering or cannot be reached (:meth:`waiting`), or answers
    its look-ups but none of its writes (:meth:`waiting_writes`), and can cut them off
    (:meth:`abandon`): the transport's connections register how to close themselves
    (:meth:`on_wire`) while they carry a request of a thread that holds the gate.
    """

    def __init__(
        self,
        size: int,
        *,
        stop: threading.Event | None = None,
        pause: threading.Event | None = None,
    ) -> None:
        self.size = size
        self.stop = stop
        self.pause = pause
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._in_flight = 0
        self.most_in_flight = 0  # the high-water mark, for tests and benchmarks
        # Requests on the wire: thread id -> (monotonic time sent, the URL).
        self._wire: dict[int, tuple[float, str]] = {}
        # How to close the connection each of those requests uses: thread id -> closer.
        self._closers: dict[int, Callable[[], None]] = {}
        self._abandoned = False
        # When the last answer came (monotonic), and when the oldest request that ended
        # without one since was sent (and its URL).
        self._answered_at: float | None = None
        self._unanswered: tuple[float, str] | None = None
        # Since when (the first one's sending) every request that ended without an answer
        # never reached the service, and the URL of the last: None once one is answered, or
        # ends unanswered after reaching it (a dropped connection, a timeout).
        self._refused: tuple[float, str] | None = None
        # The same for writes alone (requests to a path not a /search), how many of them are
        # on the wire, and when the last left it (see WRITE_LULL).
        self._write_answered_at: float | None = None
        self._write_unanswered: tuple[float, str] | None = None
        self._writes_on_wire = 0
        self._write_left_at = 0.0

    def enter(self, *stops: threading.Event | None) -> bool:
        """Take a slot, waiting as long as needed (and while the gate's ``pause`` is set);
        False (no slot taken) once any of ``stops`` or the gate's ``stop`` is set."""
        events = [e for e in (*stops, self.stop) if e is not None]
        watch = bool(events) or self.pause is not None
        while True:
            if any(e.is_set() for e in events):
                return False
            if self.pause is not None and self.pause.is_set():
                time.sleep(_POLL)
                continue
            if self._slots.acquire(timeout=_POLL if watch else None):
                break
        if any(e.is_set() for e in events):  # set while the slot was being taken
            self._slots.release()
            return False
        with self._lock:
            self._in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self._in_flight)
        return True

    def sent(self, url: str) -> None:
        """The calling thread's request to ``url`` goes on the wire now."""
        now = time.monotonic()
        with self._lock:
            self._wire[threading.get_ident()] = (now, url)
            if not is_read(url):
                if not self._writes_on_wire and now - self._write_left_at >= WRITE_LULL:
                    self._write_unanswered = None  # a run of look-ups only ended the last run
                self._writes_on_wire += 1

    def on_wire(self, close: Callable[[], None]) -> None:
        """The calling thread's request is being written to a connection that ``close``
        shuts: called at once if the gate's requests were abandoned already."""
        ident = threading.get_ident()
        if self._closers.get(ident) is not close:  # once per request, not per write
            with self._lock:
                self._closers[ident] = close
        if self._abandoned:
            close()

    def leave(self, answered: bool = False, reached: bool = True) -> None:
        """Give the slot back; ``answered``: the request got an answer (any HTTP status);
        ``reached``: unanswered, it may have reached the service (False: its connection was
        refused, or its host unknown, so nothing was sent)."""
        ident = threading.get_ident()
        with self._lock:
            self._closers.pop(ident, None)
            wire = self._wire.pop(ident, None)
            self._in_flight -= 1
            if wire is not None:
                now = time.monotonic()
                if answered:
                    self._answered_at = now
                    self._unanswered = None
                elif self._unanswered is None:
                    self._unanswered = wire
                if answered or reached:
                    self._refused = None
                else:
                    self._refused = (
                        wire[0] if self._refused is None else self._refused[0],
                        wire[1],
                    )
                if not is_read(wire[1]):
                    self._writes_on_wire -= 1
                    self._write_left_at = now
                    if answered:
                        self._write_answered_at = now
                        self._write_unanswered = None
                    elif self._write_unanswered is None:
                        self._write_unanswered = wire
        self._slots.release()

    def waiting(self, after: float) -> Quiet | None:
        """When the service last answered (or, after that, when the oldest request still
        unanswered was sent), as monotonic time, and that request's URL, once nothing has been
        answered for ``after`` seconds while requests are unanswered; else None. With them,
        while the requests ending meanwhile found no connection to make (see :class:`Quiet`),
        since when (no earlier than the last answer) and the URL last tried."""
        with self._lock:
            unanswered = list(self._wire.values())
            if self._unanswered is not None:
                unanswered.append(self._unanswered)
            oldest = min(unanswered, default=None)
            answered = self._answered_at
            refused = self._refused
        if oldest is None:
            return None
        since = oldest[0] if answered is None else max(oldest[0], answered)
        if time.monotonic() - since < after:
            return None
        if refused is None:
            return Quiet(since, oldest[1])
        return Quiet(since, oldest[1], max(refused[0], since), refused[1])

    def waiting_writes(self, after: float) -> tuple[float, str] | None:
        """As :meth:`waiting`, for writes alone: when a write was last answered (or, after
        that, when the oldest write still unanswered was sent), and that write's URL, once no
        write has been answered for ``after`` seconds while writes are unanswered, whatever
        the look-ups get (black-box R2 #2: a service whose inserts hung while its searches
        answered kept a 20-row import busy for 7.6 minutes, each answered search restarting
        the wait of :meth:`waiting`). None once no write has been on the wire for
        :data:`WRITE_LULL` seconds."""
        now = time.monotonic()
        with self._lock:
            if not self._writes_on_wire and now - self._write_left_at >= WRITE_LULL:
                return None
            unanswered = [w for w in self._wire.values() if not is_read(w[1])]
            if self._write_unanswered is not None:
                unanswered.append(self._write_unanswered)
            oldest = min(unanswered, default=None)
            answered = self._write_answered_at
        if oldest is None:
            return None
        since = oldest[0] if answered is None else max(oldest[0], answered)
        if now - since < after:
            return None
        return since, oldest[1]

    def abandon(self) -> None:
        """Close the connections of the requests on the wire now (each ends at once with a
        broken connection) and of any that goes on the wire after this."""
        with self._lock:
            self._abandoned = True
            closers = list(self._closers.values())
        for close in closers:
            close()

    @property
    def abandoned(self) -> bool:
        return self._abandoned


def is_read(path: str) -> bool:
    """Whether a request to ``path`` (or its whole URL) only reads: every read endpoint of the
    API is a ``/search``. The transport asks it too."""
    return path.endswith("/search")


_local = threading.local()


def in_flight_gate() -> InFlightGate | None:
    """The gate of the :func:`bounded_map` worker running on this thread, if it has one."""
    gate: InFlightGate | None = getattr(_local, "gate", None)
    return gate


@contextmanager
def holding_gate(gate: InFlightGate) -> Iterator[None]:
    """This thread's requests pass ``gate`` while in the block, as a :func:`bounded_map`
    worker's do: for work on threads of its own (an export's counts and pages) that a stop
    must cut off on the wire (:meth:`InFlightGate.abandon`)."""
    held = getattr(_local, "gate", None)
    _local.gate = gate
    try:
        yield
    finally:
        _local.gate = held


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
    idle: Callable[[], None] | None = None,
    idle_every: float = 0.25,
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

    ``idle`` is called on the calling thread every ``idle_every`` seconds, results or none:
    while a service does not answer, the caller can say so, and cut off requests that
    a stop left hanging (:meth:`InFlightGate.abandon`).
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
    next_idle = time.monotonic() + idle_every
    try:
        while running:
            if idle is None:
                got = results.get()
            else:
                now = time.monotonic()
                if now >= next_idle:
                    idle()
                    next_idle = now + idle_every
                try:
                    got = results.get(timeout=max(next_idle - now, 0.001))
                except queue.Empty:
                    continue
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
