"""A line on a terminal's stderr saying what a long step without a count of its own is doing.

Reading and checking a large file, and writing a dry run's report, run before any row is sent,
so the job's progress line has nothing to show yet: a 200,000-row file was a minute of silence
(black-box Q1), which reads as a hang. The line says the step and how long it has run, is
rewritten in place once a second, and is cleared when the step ends, so what the command prints
afterwards starts on a clean line. Nothing is written when stderr is no terminal or with
``--json``: scripts and logs get the outcome only.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Final, TextIO

# A step shorter than this says nothing: most files are read before a person would wonder.
FIRST_AFTER: Final = 1.0
EVERY: Final = 1.0


@contextlib.contextmanager
def working(
    text: str,
    stream: TextIO,
    *,
    shown: bool,
    first_after: float = FIRST_AFTER,
    every: float = EVERY,
) -> Iterator[None]:
    """Within this block, ``text`` and the seconds it has taken on ``stream`` (when ``shown``)
    from ``first_after`` seconds on, every ``every`` seconds; cleared at the end."""
    if not shown:
        yield
        return
    done = threading.Event()
    width = [0]
    lock = threading.Lock()
    start = time.monotonic()

    def tick() -> None:
        if done.wait(first_after):
            return
        while True:
            line = f"\r{text} {time.monotonic() - start:.0f} s"
            with lock:
                if done.is_set():
                    return
                width[0] = max(width[0], len(line) - 1)
                with contextlib.suppress(OSError, ValueError):
                    stream.write(line)
                    stream.flush()
            if done.wait(every):
                return

    thread = threading.Thread(target=tick, name="dnc-working-line", daemon=True)
    thread.start()
    try:
        yield
    finally:
        with lock:
            done.set()
            if width[0]:
                with contextlib.suppress(OSError, ValueError):
                    stream.write("\r" + " " * width[0] + "\r")
                    stream.flush()
        thread.join()
