"""bounded_map: the limit on calls in flight, lazy items, stop, pause, a caller that leaves early,
and items that fail."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from app.api.concurrency import bounded_map


def test_every_item_comes_back_once_with_its_result_or_error() -> None:
    def work(n: int) -> int:
        if n % 7 == 3:
            raise KeyError(n)
        return n * 2

    done = list(bounded_map(work, range(200), concurrency=8))
    assert sorted(d.item for d in done) == list(range(200))
    for d in done:
        if d.item % 7 == 3:
            assert isinstance(d.error, KeyError) and d.result is None
        else:
            assert d.error is None and d.result == d.item * 2


def test_never_more_than_concurrency_in_flight_and_items_read_lazily() -> None:
    lock = threading.Lock()
    running = peak = 0
    taken: list[int] = []

    def items() -> Iterator[int]:
        for n in range(60):
            taken.append(n)
            yield n

    def work(n: int) -> int:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        time.sleep(0.005)
        with lock:
            running -= 1
        return n

    seen = 0
    for done in bounded_map(work, items(), concurrency=4):
        seen += 1
        # Items are taken when a worker is free, not all at once.
        assert len(taken) <= seen + 2 * 4
        assert done.error is None
    assert peak == 4 and seen == 60


def test_a_caller_that_stops_iterating_stops_new_calls() -> None:
    started: list[int] = []
    lock = threading.Lock()

    def work(n: int) -> int:
        with lock:
            started.append(n)
        time.sleep(0.002)
        return n

    results = bounded_map(work, range(10_000), concurrency=4)
    first = [next(results) for _ in range(3)]
    assert len(first) == 3
    results.close()  # joins the workers: the calls in flight have finished
    count = len(started)
    time.sleep(0.05)
    assert len(started) == count
    # Work done ahead of the caller is bounded: in flight plus results waiting for it.
    assert count <= 3 + 2 * 4


def test_an_exception_in_the_caller_stops_the_workers() -> None:
    started: list[int] = []

    def work(n: int) -> int:
        started.append(n)
        time.sleep(0.002)
        return n

    with pytest.raises(RuntimeError):
        for done in bounded_map(work, range(10_000), concurrency=4):
            if done.item >= 5:
                raise RuntimeError("the caller's bookkeeping failed")
    count = len(started)
    time.sleep(0.05)
    assert len(started) == count < 40


def test_items_that_fail_raise_after_the_calls_in_flight_are_yielded() -> None:
    def items() -> Iterator[int]:
        yield from range(10)
        raise OSError("the job file cannot be read")

    got: list[int] = []
    with pytest.raises(OSError, match="job file"):
        for done in bounded_map(lambda n: n, items(), concurrency=3):
            got.append(done.item)
    assert sorted(got) == list(range(10))


def test_pause_starts_nothing_until_resumed_and_stop_ends_a_pause() -> None:
    pause = threading.Event()
    stop = threading.Event()
    started: list[int] = []

    def work(n: int) -> int:
        started.append(n)
        if n == 9:
            pause.set()
        if n >= 10:
            time.sleep(0.05)  # so at most one call starts before the test pauses again
        return n

    results = bounded_map(work, range(100), concurrency=1, stop=stop, pause=pause)
    seen = [next(results).item for _ in range(10)]
    assert seen == list(range(10))
    time.sleep(0.2)
    assert len(started) == 10  # paused: nothing new started
    pause.clear()
    assert next(results).item == 10
    pause.set()
    time.sleep(0.1)
    stop.set()
    rest = list(results)  # stop ends the pause without starting more
    assert len(started) == 11 + len(rest)
    assert len(rest) <= 1


def test_concurrency_outside_the_limits_is_refused() -> None:
    with pytest.raises(ValueError):
        list(bounded_map(lambda n: n, range(3), concurrency=0))
    with pytest.raises(ValueError):
        list(bounded_map(lambda n: n, range(3), concurrency=33))
