"""HTTP for the API: form POSTs, envelope decoding, timeouts, retries, pacing.

One :class:`Transport` owns a few httpx connection pools (thread-safe; each thread is dealt one),
so bulk work keeps many requests in flight from worker threads without queueing on one pool's
lock. Threads were measured faster here than ``httpx.AsyncClient`` at the same concurrency (see
design notes).

The token lives only in a :class:`Secret`, whose ``repr``/``str`` hide it; it is sent as
a form field (never in the URL, so httpx's request log lines cannot show it) and no error
text is built from the request body.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import email.utils
import html
import json
import logging
import random
import re
import socket
import ssl
import threading
import time
import urllib.request
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol
from urllib.parse import quote, quote_plus, unquote_plus, urlencode, urlsplit

import httpcore
import httpx

from app.api.concurrency import in_flight_gate, is_read
from app.api.errors import (
    ApiError,
    AuthError,
    ClientClosed,
    RateLimitedError,
    ServerError,
    TransportError,
    UnconfirmedError,
    error_from_failure,
)
from app.api.paging import Cancelled

log = logging.getLogger(__name__)

ParamValue = str | int | float | bool | None
Params = Mapping[str, ParamValue]

USER_AGENT = "DNC-Desk/0.1"
_HEADERS = {
    "User-Agent": USER_AGENT,
    "Accept": "application/json",
    "Accept-Encoding": "gzip, deflate",
    "Content-Type": "application/x-www-form-urlencoded",
}
# Connection pools per Transport; a thread keeps using the one it was dealt.
POOL_SHARDS = 16


class Secret:
    """A string that never shows itself in ``repr``, ``str`` or f-strings."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return "***"

    def __bool__(self) -> bool:
        return bool(self._value)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Exponential backoff with full jitter, capped; ``attempts`` includes the first try.

    A 429 without ``Retry-After`` is waited out differently: the service's rate limits are per
    minute (and per day), so its holds (:class:`RateLimitHold`) grow from ``rate_limit_base``
    to ``rate_limit_max`` seconds, and a call refused so goes on trying, past ``attempts``,
    until the service has refused every request for ``rate_limit_patience`` seconds (black-box
    R1 #6: a job paused after 7 s, its every retry inside the same minute).

    ``resend_unanswered`` False: a request the service took and left unanswered (a timeout, a
    connection broken after sending) is raised at once, not sent again, whatever else is
    retried: the CLI's checks before a start count those themselves and give up on a silent
    service sooner (see ``app.cli.connection_args.CliClient``)."""

    attempts: int = 4
    base_delay: float = 0.25
    max_delay: float = 8.0
    rate_limit_base: float = 1.0
    rate_limit_max: float = 60.0
    rate_limit_patience: float = 120.0
    resend_unanswered: bool = True

    def delay(self, retry_number: int, rng: random.Random) -> float:
        ceiling: float = min(self.max_delay, self.base_delay * 2.0 ** (retry_number - 1))
        return ceiling / 2 + rng.random() * ceiling / 2

    def rate_limit_delay(self, hold_number: int, rng: random.Random) -> float:
        """The ``hold_number``-th hold (1 for the first) of a run of 429s without
        ``Retry-After``: doubling from ``rate_limit_base`` to ``rate_limit_max``, jittered down
        by at most a quarter (threads of many clients of one account then spread out)."""
        ceiling = min(self.rate_limit_max, self.rate_limit_base * 2.0 ** (hold_number - 1))
        return ceiling * (0.75 + rng.random() * 0.25)


NO_RETRY = RetryPolicy(attempts=1)
DEFAULT_RETRY = RetryPolicy()


# Seconds added to a pacer's interval (see RequestPacer).
_PACE_MARGIN = 0.001


class RequestPacer:
    """Spaces requests evenly to stay under a requests-per-minute cap (shared by threads)."""

    def __init__(self, per_minute: int) -> None:
        if per_minute < 1:
            raise ValueError("requests per minute must be at least 1")
        # A hair over 60/N: N+1 requests exactly 60/N apart span exactly 60 s, so a window of
        # 60 s that includes both ends (a service counting a sliding minute) would hold N+1.
        self.interval = 60.0 / per_minute + _PACE_MARGIN
        self._next = 0.0
        self._lock = threading.Lock()

    def wait(
        self, cancel: threading.Event | None = None, stop: threading.Event | None = None
    ) -> None:
        """Wait for the next free slot; raises Cancelled once ``cancel`` or ``stop`` is set."""
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._next)
            self._next = slot + self.interval
        _wait_until(slot, cancel, stop)


class RateLimitHold:
    """What the service's HTTP 429 answers ask of every request of one transport (its threads
    share it), so a job slows down to what the service accepts instead of hammering it.

    * The hold: no attempt (a first attempt or a retry, of any thread) is sent before the
      latest 429's ``Retry-After`` (or, without one, the retry backoff) has passed.
    * The pace: from the second hold on, requests are spaced to the rate that got through
      since the hold before (answers other than 429 over the time since then, the hold
      included), and at least one request every other hold. Each answer that gets through
      while paced raises that rate by 2 %; once it is above :attr:`FAST_AGAIN` per second
      the pacing ends. Waits between requests are not held in the :class:`InFlightGate`'s
      count of requests sent but are taken inside its slot, like the pacer's.
    * After a hold that nothing got through before (a storm of 429s, the pace only the
      spacing of the requests that asked whether it had ended), that pace measured nothing
      the service accepts: each answer that gets through then halves the interval, until a
      429 measures the pace again or the pacing ends (re-test U1 #8: after a 2½-minute storm
      the job sent a row every 28 s, then every 54 s, 2 % faster per row).
    * A request waiting for its turn is not given a slot far ahead (with 8 threads waiting,
      the last one's would be 8 intervals away, kept however fast the pace then grew): it
      looks again at least every :data:`_PACE_RECHECK` seconds and goes once the interval
      since the last paced request has passed.

    Until the first 429 :attr:`active` is False and a request's only cost is reading it.
    """

    RAISE = 1.02  # the pace's rise per answer that got through
    FAST_AGAIN = 500.0  # requests/s beyond which the pacing stops (the service keeps up)
    # Answers in a row that get through after one hold, before a pace was measured, that end
    # the hold's watch (one 429 in a long job must not keep it watched).
    FORGET_AFTER = 100

    def __init__(self) -> None:
        # Read without the lock on every attempt: set by the first 429, cleared when the
        # service keeps up again.
        self.active = False
        self._lock = threading.Lock()
        self._until = 0.0  # monotonic time before which nothing is sent
        self._interval = 0.0  # seconds between requests; 0 while no pace was measured
        self._last = 0.0  # when the last paced request was let go
        # The pace came from a hold that nothing got through before: it measured no rate the
        # service accepts, so answers that get through raise it fast (see answered).
        self._probing = False
        self._since = 0.0  # when the current measuring window started (a hold's start)
        self._accepted = 0  # answers that got through since then
        self.refusals = 0  # 429 answers seen (for tests and logs)
        # Holds of 429s without Retry-After since an answer last got through (each longer:
        # see refused).
        self._unsaid_holds = 0

    @property
    def per_second(self) -> float | None:
        """The pace in requests per second, or None when requests are not paced."""
        with self._lock:
            return 1.0 / self._interval if self.active and self._interval else None

    def refused(self, pause: float | None, backoff: Callable[[int], float] | None = None) -> None:
        """A 429 came back: hold every request for ``pause`` seconds and measure the pace.

        ``pause`` None (the 429 said no ``Retry-After``): a new hold lasts ``backoff(n)``, n
        counting such holds since an answer last got through, so the holds grow until a
        per-minute window has passed; a 429 within the current hold does not lengthen it."""
        now = time.monotonic()
        with self._lock:
            self.refusals += 1
            if pause is None:
                pause = 0.0
                if now >= self._until and backoff is not None:
                    self._unsaid_holds += 1
                    pause = backoff(self._unsaid_holds)
            if now >= self._until:
                # A new hold, not one more 429 among the requests sent before the current one.
                if self.active:
                    # What got through since the hold before; at least one request every
                    # other hold, so a service refusing everything is still asked.
                    elapsed = max(now - self._since, 1e-3)
                    self._interval = min(elapsed / max(self._accepted, 1), 2 * max(pause, 1e-3))
                    self._probing = self._accepted == 0
                self.active = True
                self._since = now
                self._accepted = 0
            self._until = max(self._until, now + pause)

    def answered(self) -> None:
        """An answer other than a 429 came back while :attr:`active`."""
        with self._lock:
            self._unsaid_holds = 0
            if not self.active:
                return
            self._accepted += 1
            if self._interval:
                self._interval /= 2.0 if self._probing else self.RAISE
                if self._interval * self.FAST_AGAIN < 1.0:
                    self._forget()
            elif self._accepted >= self.FORGET_AFTER and time.monotonic() >= self._until:
                self._forget()

    def _forget(self) -> None:
        self.active = False
        self._interval = 0.0
        self._accepted = 0
        self._probing = False

    def wait(
        self, cancel: threading.Event | None = None, stop: threading.Event | None = None
    ) -> None:
        """Wait for the end of the hold and for this request's turn in the pace; raises
        Cancelled once ``cancel`` or ``stop`` is set. A hold begun while waiting is waited
        for too, and a pace grown faster while waiting is taken up within
        :data:`_PACE_RECHECK` seconds."""
        while True:
            with self._lock:
                if not self.active:
                    return
                now = time.monotonic()
                due = max(self._until, self._last + self._interval if self._interval else 0.0)
                if now >= due:
                    if self._interval:
                        self._last = now
                    return
            _wait_until(min(due, now + _PACE_RECHECK), cancel, stop)


# How long a request waiting for its turn in a RateLimitHold's pace waits before it looks again
# (the pace may have grown faster meanwhile).
_PACE_RECHECK = 0.5


def _wait_until(when: float, cancel: threading.Event | None, stop: threading.Event | None) -> None:
    """Sleep until the monotonic time ``when``; raises Cancelled once either event is set."""
    pause = when - time.monotonic()
    if pause > 0:
        if cancel is not None and stop is not None:
            _sleep_either(pause, cancel, stop)
        else:
            _sleep(pause, cancel or stop)


def _sleep(seconds: float, cancel: threading.Event | None) -> None:
    if cancel is None:
        time.sleep(seconds)
    elif cancel.wait(seconds):
        raise Cancelled


# How often a wait watching two events looks at the second.
_POLL = 0.02


def _sleep_either(seconds: float, first: threading.Event, second: threading.Event) -> None:
    """Sleep ``seconds``; raises Cancelled as soon as either event is set."""
    end = time.monotonic() + seconds
    while not (first.is_set() or second.is_set()):
        left = end - time.monotonic()
        if left <= 0:
            return
        first.wait(min(left, _POLL))
    raise Cancelled


def _sleep_any(seconds: float, *events: threading.Event | None) -> None:
    """Sleep ``seconds``; raises Cancelled as soon as any of ``events`` is set."""
    watched = list(dict.fromkeys(e for e in events if e is not None))
    if len(watched) < 2:
        _sleep(seconds, watched[0] if watched else None)
        return
    end = time.monotonic() + seconds
    while not any(e.is_set() for e in watched):
        left = end - time.monotonic()
        if left <= 0:
            return
        watched[0].wait(min(left, _POLL))
    raise Cancelled


def encode_params(params: Params) -> dict[str, str]:
    """Form values as the API expects them: booleans ``true``/``false``, None omitted."""
    out: dict[str, str] = {}
    for key, value in params.items():
        if value is None:
            continue
        if isinstance(value, bool):
            out[key] = "true" if value else "false"
        else:
            out[key] = str(value)
    return out


class _Stream(httpcore.NetworkStream):
    """A connection of the transport's own pools that a job can cut off: while it carries a
    request of a job's worker thread, that job's :class:`InFlightGate` can shut it
    (:meth:`InFlightGate.abandon`), and the request waiting for its answer ends at once with
    a broken connection instead of at its timeout."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner
        self._shut = self.shut  # one object, so the gate knows it again (on_wire)

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, timeout)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        gate = in_flight_gate()
        if gate is not None:
            gate.on_wire(self._shut)
        self._inner.write(buffer, timeout)

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)

    def shut(self) -> None:
        """Shut the connection down for reading and writing: a thread blocked reading its
        answer wakes at once. (Closing the socket from another thread would not wake it.)"""
        sock = self._inner.get_extra_info("socket")
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):
                # The plain socket's shutdown, also for a TLS socket: ssl's own would drop the
                # TLS state under the thread still reading it.
                socket.socket.shutdown(sock, socket.SHUT_RDWR)


class _Backend(httpcore.NetworkBackend):
    """httpcore's own network backend, its connections made :class:`_Stream`."""

    def __init__(self) -> None:
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        return _Stream(self._inner.connect_tcp(host, port, timeout, local_address, socket_options))

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        return _Stream(self._inner.connect_unix_socket(path, timeout, socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class AttemptWatcher(Protocol):
    """Watches a transport's attempts (see :attr:`Transport.watcher`)."""

    def sent(self, url: str) -> None:
        """An attempt to ``url`` goes on the wire now (after any pacing or hold)."""

    def ended(self, error: ApiError | None) -> None:
        """That attempt ended: answered (``error`` None), or with ``error`` (a
        :class:`TransportError` when no answer came)."""


# The calling thread's hook for its next write's first send (see before_first_write).
_first_write = threading.local()


@contextlib.contextmanager
def before_first_write(hook: Callable[[], object]) -> Iterator[None]:
    """Call ``hook`` once, on this thread, when the first write request of the block has its
    connection claimed from a transport that is still open, just before it goes on the wire.

    A journaled write records its intent there: a transport closed before (a token replaced
    while the write waited for a paused job's gate) refuses the write with
    :class:`ClientClosed` before the hook, so nothing is journaled of a write never sent, and
    once the hook has run, :meth:`Transport.close` no longer refuses that request, so a write
    journaled is a write sent. A hook that raises stops the request unsent."""
    _first_write.hook = hook
    try:
        yield
    finally:
        _first_write.hook = None


def _run_first_write_hook() -> None:
    hook: Callable[[], object] | None = getattr(_first_write, "hook", None)
    if hook is not None:
        _first_write.hook = None
        hook()


class Transport:
    """Sends one API call with retries and returns the decoded JSON body."""

    def __init__(
        self,
        base_url: str,
        token: str | Secret,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy = DEFAULT_RETRY,
        requests_per_minute: int | None = None,
        max_connections: int = 64,
        http_transport: httpx.BaseTransport | None = None,
        seed: int | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        if self.base_url.endswith("/v1"):
            self.base_url = self.base_url[: -len("/v1")]
        self.api_url = self.base_url + "/v1"
        self._token = token if isinstance(token, Secret) else Secret(token)
        self.retry = retry
        self.timeout = timeout
        self.max_connections = max_connections
        self.pacer = RequestPacer(requests_per_minute) if requests_per_minute else None
        # The service's 429s slow down every request of this transport (see RateLimitHold).
        self.hold = RateLimitHold()
        self._rng = random.Random(seed)
        self._extensions = {"timeout": httpx.Timeout(timeout, connect=min(timeout, 10.0)).as_dict()}
        self._urls: dict[str, httpx.URL] = {}
        # Shards of the connection pool (see _pool); each takes an equal part of the limit.
        self._given = http_transport
        self._proxy = _environment_proxy(self.api_url)
        self._ssl: ssl.SSLContext | None = None
        self._shards: list[httpx.BaseTransport | None] = [None] * (
            1 if http_transport is not None else max(1, min(POOL_SHARDS, max_connections))
        )
        self._per_shard = max(1, max_connections // len(self._shards))
        self._shard_lock = threading.Lock()
        self._next_shard = 0
        self._local = threading.local()
        self._closed = False
        # Requests inside each pool (under _shard_lock); close() leaves a busy pool to the
        # last request that leaves it (see close).
        self._in_flight: dict[httpx.BaseTransport, int] = {}
        self.requests_sent = 0
        # Told of each attempt on the wire and how it ended, a retry's included (the CLI's
        # checks before a start say from it when the service is silent or refusing them).
        self.watcher: AttemptWatcher | None = None

    def paced(self, requests_per_minute: int) -> Transport:
        """A transport to the same service with the same token and settings, its own
        connections, and its requests kept under ``requests_per_minute``."""
        return Transport(
            self.base_url,
            self._token,
            timeout=self.timeout,
            retry=self.retry,
            requests_per_minute=requests_per_minute,
            max_connections=self.max_connections,
            http_transport=self._given,
        )

    def _pool(self) -> httpx.BaseTransport:
        """The connection pool of the calling thread.

        httpcore's pool takes one lock around every request's checkout and release, and
        polls each of its idle connections while holding it: 16 bulk threads on one pool
        queued on that lock for a fifth of their time. Threads are dealt pools in turn, so
        bulk workers do not share one.
        """
        pool: httpx.BaseTransport | None = getattr(self._local, "pool", None)
        if pool is not None:
            if self._closed:
                # httpcore reopens connections on a closed pool; they would never be closed.
                raise ClientClosed
            return pool
        with self._shard_lock:
            if self._closed:
                raise ClientClosed
            index = self._next_shard % len(self._shards)
            self._next_shard += 1
            pool = self._shards[index]
            if pool is None:
                pool = self._shards[index] = self._given or self._new_pool()
        self._local.pool = pool
        return pool

    def _new_pool(self) -> httpx.BaseTransport:
        if self._ssl is None:
            # Loading the certificate bundle takes ~30 ms; the pools share one context.
            self._ssl = httpx.create_ssl_context()
        transport = httpx.HTTPTransport(
            verify=self._ssl,
            limits=httpx.Limits(
                max_connections=self._per_shard, max_keepalive_connections=self._per_shard
            ),
            proxy=self._proxy,
        )
        # Connections a stopped job can cut off (see _Stream). httpx takes no network backend
        # of its own: set on its httpcore pool, when this httpcore version has the place.
        pool: Any = getattr(transport, "_pool", None)
        if isinstance(getattr(pool, "_network_backend", None), httpcore.SyncBackend):
            pool._network_backend = _Backend()
        return transport

    def __repr__(self) -> str:
        return f"Transport({self.api_url!r})"

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called: new requests are refused."""
        return self._closed

    def close(self) -> None:
        """Close the idle pools now and each busy one when its last request has ended.

        A pool is never closed under a request: httpcore's ``close()`` forgets a connection
        whose socket is still being opened (it has nothing to close yet), and the socket it
        then opens was never closed (the ResourceWarning of the UI tests, whose fixtures close
        the session while a dialog's first request is connecting). Requests in flight end
        normally, so no write is torn off mid-way with an unknown outcome; new ones are
        refused.
        """
        with self._shard_lock:
            self._closed = True
            idle = [
                pool for pool in self._shards if pool is not None and not self._in_flight.get(pool)
            ]
        for pool in idle:
            pool.close()

    def _enter(self) -> httpx.BaseTransport:
        """The calling thread's pool, counted as busy until :meth:`_leave`."""
        pool = self._pool()
        with self._shard_lock:
            if self._closed:
                raise ClientClosed
            self._in_flight[pool] = self._in_flight.get(pool, 0) + 1
            self.requests_sent += 1
        return pool

    def _leave(self, pool: httpx.BaseTransport) -> None:
        with self._shard_lock:
            left = self._in_flight[pool] = self._in_flight[pool] - 1
            last_out = self._closed and left == 0
        if last_out:
            # close() left this pool to its last request: every connection it holds,
            # including one opened while close() ran, is in the pool now.
            pool.close()

    def call(
        self,
        path: str,
        params: Params | None = None,
        *,
        idempotent: bool,
        cancel: threading.Event | None = None,
        stop_before_send: threading.Event | None = None,
    ) -> tuple[Any, int]:
        """POST ``path`` and return (decoded body, attempts used).

        ``cancel`` raises :class:`Cancelled` before any attempt and during any wait (the
        pacer's, the rate-limit hold's, the backoff before a retry). ``stop_before_send`` does
        so only before the first attempt is sent (including while it waits for its pacing
        slot or for the hold): once a request may have reached the service its retries are
        not cut short by it. The one exception is a request every attempt of which was
        refused with HTTP 429 (refused before processing, so not done): ``stop_before_send``
        cuts its wait for a retry too, and the last 429 is raised.

        On a job's worker thread (one holding an :class:`InFlightGate` with a ``stop``), the
        job's stop ends the call before any attempt or wait, a retry's included (black-box
        L4 #8: a stopped job's retries and look-ups went on for minutes against a service
        that never answered): a write stopped after an attempt whose answer was lost raises
        :class:`Cancelled` with ``maybe_done`` (its row is left open for the resume to
        settle); one stopped after a 5xx raises that error, as after its last attempt; a read
        raises :class:`Cancelled`. The gate may also cut an attempt on the wire short
        (:meth:`InFlightGate.abandon`): it ends as a broken connection.

        Reads and idempotent writes are retried on timeouts, dropped connections, 429 and
        5xx; other writes only when the request provably never reached the service.

        A 429 also holds every other request of this transport until its ``Retry-After``
        has passed, and then paces them to what the service accepts (see
        :class:`RateLimitHold`), so many threads do not keep hammering a throttled service.

        A 429 without ``Retry-After`` is retried, past the policy's attempts, until the
        service has refused every request for ``rate_limit_patience`` seconds, the holds
        growing meanwhile (see :class:`RetryPolicy`); the 429 then raised has
        ``patience_spent`` set.

        A write's error raised after an earlier attempt got no answer saying whether it was
        done (none came, a 5xx, an answer that is not the API's JSON) has
        ``earlier_attempt_lost`` set: that attempt may have done the write.
        """
        body = encode_params(params or {})
        body["auth_token"] = self._token.reveal()
        hold = self.hold
        # This thread's slot among a job's requests in flight (see InFlightGate), and the
        # job's stop: once it is set no request of the job starts, a retry or a look-up
        # included (black-box L4 #8).
        gate = in_flight_gate()
        job_stop = gate.stop if gate is not None else None
        attempt = 0
        # An attempt of this call was sent and got no answer (it may have been done).
        answer_lost = False
        # An attempt of this call got no answer saying whether it was done: none, or a 5xx or
        # an answer that is not the API's JSON (it may have been done).
        fate_open = False
        # 429s without Retry-After this call got, and when the first came.
        unsaid = 0
        refused_since: float | None = None
        # The last 429, while every attempt so far was refused with one.
        refused: RateLimitedError | None = None
        # The last attempt's error.
        last: ApiError | None = None
        while True:
            attempt += 1
            stop = (stop_before_send if attempt == 1 or refused is not None else None) or job_stop
            try:
                if (cancel is not None and cancel.is_set()) or (stop is not None and stop.is_set()):
                    raise Cancelled
                # Taken before the pacing waits, so their spacing is also the order of sending.
                if gate is not None and not gate.enter(cancel, stop):
                    raise Cancelled
                answered = False
                # Whether the attempt, unanswered, may have reached the service: not when its
                # connection was refused (the gate says so apart: black-box B4 #9).
                reached = True
                try:
                    if hold.active:
                        hold.wait(cancel, stop)
                    if self.pacer is not None:
                        self.pacer.wait(cancel, stop)
                    if gate is not None:
                        gate.sent(self.api_url + path)
                    watcher = self.watcher
                    if watcher is not None:
                        watcher.sent(self.api_url + path)
                    try:
                        result = self._send(path, body)
                    except ClientClosed as closed:
                        # This attempt was never sent; an earlier one may have been.
                        closed.attempted = attempt > 1
                        raise
                    except ApiError as caught:
                        if watcher is not None:
                            watcher.ended(caught)
                        exc = last = caught
                        answered = not isinstance(exc, TransportError)
                        reached = not (isinstance(exc, TransportError) and not exc.sent)
                        exc.attempts = attempt
                        if fate_open and not is_read(path):
                            exc.earlier_attempt_lost = True
                        if isinstance(exc, TransportError | UnconfirmedError):
                            # No answer, or one not saying whether it was done: it may be.
                            if not isinstance(exc, TransportError) or exc.sent:
                                answer_lost = fate_open = True
                        elif isinstance(exc, ServerError):
                            # A 5xx, or an answer that is not the API's JSON (an HTML page, an
                            # empty body, "OK"): none says whether the write was done, and a
                            # service can fail after it (a 500 while writing its answer), so
                            # a retry's "already present" or "not found" may be that attempt's
                            # doing (black-box R1 #2, #3). A gateway's 502 or 504 says the
                            # service's answer did not reach it: lost, as no answer is.
                            fate_open = True
                            if exc.http_status in _GATEWAY_LOST:
                                answer_lost = True
                        elif isinstance(exc, RateLimitedError):
                            if exc.retry_after is not None:
                                hold.refused(self._hold_for(exc))
                            else:
                                hold.refused(None, self._rate_limit_delay)
                        elif hold.active:
                            hold.answered()  # an answer of the service's own (4xx)
                        if isinstance(exc, RateLimitedError) and (
                            attempt == 1 or refused is not None
                        ):
                            refused = exc
                        else:
                            refused = None
                        if isinstance(exc, RateLimitedError) and exc.retry_after is None:
                            # Waited out, its waits growing, for as long as the service refuses
                            # it (see RetryPolicy): a per-minute window passes within it. The
                            # call's own time, as another endpoint's answers (a per-endpoint
                            # quota) say nothing of this one's.
                            unsaid += 1
                            now = time.monotonic()
                            if refused_since is None:
                                refused_since = now
                            if now - refused_since >= self.retry.rate_limit_patience:
                                exc.patience_spent = True
                                raise
                        elif attempt >= self.retry.attempts or not _retriable(
                            exc, idempotent, self.retry.resend_unanswered
                        ):
                            raise
                    else:
                        if watcher is not None:
                            watcher.ended(None)
                        answered = True
                        if hold.active:
                            hold.answered()
                        return result, attempt
                finally:
                    # Not held through the backoff: a request waiting for its retry is not in
                    # flight.
                    if gate is not None:
                        gate.leave(answered, reached)
                delay = self.retry.delay(attempt, self._rng)
                if isinstance(exc, RateLimitedError) and exc.retry_after is not None:
                    delay = max(delay, self._hold_for(exc))
                elif isinstance(exc, RateLimitedError):
                    delay = max(delay, self._rate_limit_delay(unsaid))
                log.info(
                    "%s failed (%s); retry %d in %.2f s", path, type(exc).__name__, attempt, delay
                )
                # The wait before a retry ends with the job's stop too: no retry is sent then.
                _sleep_any(
                    delay, cancel, job_stop, stop_before_send if refused is not None else None
                )
            except Cancelled as stopped:
                if refused is not None and not (cancel is not None and cancel.is_set()):
                    # Stopped while waiting to retry a refused request: it was not done.
                    raise refused from None
                # Cancelled after attempts were sent: say what they did, so the journal does
                # not call a write that may have been done "not attempted".
                if answer_lost and not is_read(path):
                    stopped.maybe_done = True
                elif refused is not None:
                    stopped.refused = refused.attempts
                elif (
                    last is not None
                    and not is_read(path)
                    and not (cancel is not None and cancel.is_set())
                ):
                    # The job stopped a write's retries after an answer (a 5xx): it ends with
                    # that answer, as after its last attempt, and the caller's look-up (which
                    # the stop cuts too) is what would have settled it.
                    raise last from None
                raise

    def _rate_limit_delay(self, hold_number: int) -> float:
        return self.retry.rate_limit_delay(hold_number, self._rng)

    def _hold_for(self, exc: RateLimitedError) -> float:
        """How long a 429 holds requests: its ``Retry-After`` (capped, as a retry's wait is),
        else the first retry's backoff."""
        if exc.retry_after is not None:
            return min(exc.retry_after, self.retry.max_delay * 4)
        return self.retry.delay(1, self._rng)

    def _send(self, path: str, body: dict[str, str]) -> Any:
        url = self._urls.get(path)
        if url is None:
            url = self._urls[path] = httpx.URL(self.api_url + path)
        # The request goes straight to the pool's transport: httpx.Client's layers (URL and
        # header merging, cookie jar, auth and redirect hooks, none used here) cost about as
        # much CPU again as the HTTP exchange itself, and bulk work is CPU-bound on the GIL.
        request = httpx.Request(
            "POST",
            url,
            content=urlencode(body).encode("utf-8"),
            headers=_HEADERS,
            extensions=self._extensions,
        )
        started = time.perf_counter()
        pool = self._enter()
        try:
            try:
                if not is_read(path):
                    _run_first_write_hook()
                response = pool.handle_request(request)
                try:
                    response.read()
                finally:
                    response.close()
            finally:
                self._leave(pool)
        except httpx.TimeoutException as exc:
            sent = not isinstance(exc, httpx.ConnectTimeout | httpx.PoolTimeout)
            raise TransportError(
                path,
                f"no answer from {self.base_url} within the timeout ({type(exc).__name__})",
                timeout=True,
                sent=sent,
            ) from None
        except httpx.ConnectError as exc:
            raise TransportError(
                path, f"cannot connect to {self.base_url} ({_short(exc)})", sent=False
            ) from None
        except httpx.TransportError as exc:
            raise TransportError(
                path,
                f"the connection to {self.base_url} broke before the answer came "
                f"({type(exc).__name__})",
            ) from None
        elapsed_ms = (time.perf_counter() - started) * 1000
        log.debug("POST %s -> %d in %.0f ms", path, response.status_code, elapsed_ms)
        try:
            return decode_response(path, response)
        except ApiError as exc:
            # A service (or a proxy before it) that quotes the request in its error would put
            # the token into the row's message, hence into job files and reports (black-box
            # pass I3): the server's words lose it before anything sees them.
            exc.message = scrub_token(exc.message, self._token.reveal())
            exc.args = (exc.describe(),)
            raise


# A gateway or proxy before the service answers these when the service's own answer did not
# come back to it (bad gateway, gateway timeout): the answer was lost on the way. (Any 5xx
# leaves a write's fate open: see Transport.call.)
_GATEWAY_LOST: Final = frozenset({502, 504})
# What follows "auth_token=" in a quoted request body, whatever the token's encoding there.
_TOKEN_FIELD: Final = re.compile(r"(auth_token[\"']?\s*[=:]\s*[\"']?)[^&\s\"'<>,;}]+")


# A run of this many characters of the token (or the whole of a shorter one) in a server's
# words is a piece of the token: a message cut short ("token f3a9…c4d... rejected") shows most
# of it (re-test J2).
_TOKEN_PIECE: Final = 8
# Said instead of a server's words that hold a piece of the token in a form not replaceable
# in place (encoded twice, escaped otherwise).
TOKEN_WITHHELD: Final = "the service's message quoted the token, so it is not shown"  # noqa: S105


def scrub_token(text: str, token: str) -> str:
    """``text`` (a server's message) with the token replaced by ``***``: as it is and in the
    forms a quoted request shows it (URL-encoded, JSON- or HTML-escaped), any run of it of
    :data:`_TOKEN_PIECE` characters or more (a quote cut short), and whatever follows an
    ``auth_token`` field name. Words that still hold a piece of it once decoded (encoded
    twice, escaped some other way) are withheld whole (:data:`TOKEN_WITHHELD`)."""
    if not text:
        return text
    if token:
        forms = {
            token,
            quote(token, safe=""),
            quote_plus(token, safe=""),
            json.dumps(token)[1:-1],
            html.escape(token),
        }
        for form in sorted(forms, key=len, reverse=True):
            if form:
                text = text.replace(form, "***")
        text = _without_pieces(text, token)
    text = _TOKEN_FIELD.sub(r"\1***", text)
    if token and any(_piece_at(v, token) >= 0 for v in _decoded(text)):
        return TOKEN_WITHHELD
    return text


def _folded(text: str) -> str:
    """``text`` with its ASCII letters in lower case, each character kept in its place (so
    positions found in it are positions in ``text``): a service quoting the token in upper
    case ("token ZQ-9F8E7D6C5B4A rejected") gives it back to anyone who lowers it again
    (black-box B23 F2: such a quote went whole into a report, a job file and the journal)."""
    return (
        text.lower() if text.isascii() else "".join(c.lower() if c.isascii() else c for c in text)
    )


def _piece_at(text: str, token: str) -> int:
    """Where the first run of :data:`_TOKEN_PIECE` characters of the token, in any case of
    its letters, starts, or -1."""
    size = min(_TOKEN_PIECE, len(token))
    text, token = _folded(text), _folded(token)
    for at in range(len(text) - size + 1):
        if text[at : at + size] in token:
            return at
    return -1


def _without_pieces(text: str, token: str) -> str:
    """``text`` with every longest run that is a piece of the token (in any case of its
    letters) replaced by ``***``."""
    out: list[str] = []
    key = _folded(token)
    while (at := _piece_at(text, token)) >= 0:
        folded = _folded(text)
        end = at + min(_TOKEN_PIECE, len(token))
        while end < len(text) and folded[at : end + 1] in key:
            end += 1
        out.append(text[:at] + "***")
        text = text[end:]
    return "".join(out) + text


def _decoded(text: str) -> list[str]:
    """``text`` as a reader might decode it: URL-decoded once and twice, HTML-unescaped,
    with JSON's and Python's backslash escapes read."""
    once = unquote_plus(text)
    found = [once, unquote_plus(once), html.unescape(text), html.unescape(once)]
    if text.isascii() and "\\" in text:
        with contextlib.suppress(UnicodeDecodeError, ValueError):
            found.append(text.encode("ascii").decode("unicode_escape"))
    return found


def _environment_proxy(url: str) -> str | None:
    """The proxy the environment sets for ``url`` (``HTTPS_PROXY``, ``ALL_PROXY``, ``NO_PROXY``
    and their lower-case forms), as ``httpx.Client`` would pick it."""
    proxies = urllib.request.getproxies_environment()
    parts = urlsplit(url)
    if not proxies or urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    return proxies.get(parts.scheme) or proxies.get("all")


def _short(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text[:200]


def _retriable(exc: ApiError, idempotent: bool, resend_unanswered: bool = True) -> bool:
    if isinstance(exc, RateLimitedError):
        return True  # refused before processing
    if isinstance(exc, TransportError):
        return not exc.sent or (idempotent and resend_unanswered)
    if isinstance(exc, ServerError):
        return idempotent
    return False


def _retry_after(response: httpx.Response) -> float | None:
    """The seconds a ``Retry-After`` header asks to wait: a number of seconds, or an HTTP
    date (RFC 9110; re-test U1 #7: a date was ignored and the service retried at once)."""
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return max(0.0, (when - dt.datetime.now(dt.UTC)).total_seconds())


def decode_response(path: str, response: httpx.Response) -> Any:
    """The JSON body of a successful call, or the matching :class:`ApiError`."""
    status = response.status_code
    raw = response.content
    try:
        data = json.loads(raw) if raw.strip() else None
    except (ValueError, UnicodeDecodeError):
        data = None
        decoded = False
    else:
        decoded = data is not None
    if status == 429:
        message = _failure_message(data) or "too many requests; the service's rate limit was hit"
        raise RateLimitedError(path, message, retry_after=_retry_after(response))
    if not decoded:
        kind = _describe_body(response)
        if status >= 500:
            raise ServerError(
                path,
                f"the service failed with HTTP {status} {response.reason_phrase} and {kind}",
                http_status=status,
            )
        raise ServerError(
            path,
            f"the answer was {kind} instead of the API's JSON (HTTP {status})",
            http_status=status,
        )
    success = _success_flag(data.get("success")) if isinstance(data, dict) else None
    if isinstance(data, dict) and (success is False or (success is not True and "error" in data)):
        code = _int_or_none(data.get("code", data.get("error_code")))
        failure = error_from_failure(path, _failure_message(data) or "failed", code, status)
        if status >= 500 and not isinstance(failure, AuthError):
            # The service failed, whatever its body says: a write may have been done before
            # it failed (re-test U1 #4: an insert done, then HTTP 500 {"code": 6056}, ended
            # failed with no look-up), so it is a server error, with the body's code kept.
            raise ServerError(
                path,
                f"the service failed with HTTP {status}: {failure.message}",
                code=failure.code,
                meaning=failure.meaning,
                http_status=status,
            )
        raise failure
    if status >= 400:
        if status >= 500:
            raise ServerError(path, f"the service failed with HTTP {status}", http_status=status)
        raise error_from_failure(path, f"HTTP {status} {response.reason_phrase}", None, status)
    if success is not True and path in CONFIRMED_WRITES:
        # Never counted as done: the body is not quoted, as a service echoing the request
        # would put the token in the message.
        raise UnconfirmedError(
            path,
            'the answer did not say the write was done (no "success": true in it), so whether '
            "it was done is not known",
            http_status=status,
        )
    return data


# Writes the API answers with ``success: true`` (see the spec): any other answer is not taken
# for done.
CONFIRMED_WRITES: Final = frozenset(
    {
        "/dnc/insert",
        "/dnc/update",
        "/dnc/delete",
        "/sms-opt-out/insert",
        "/sms-opt-out/update",
        "/leads/update",
        "/leads/delete",
        "/campaigns/status",
        "/status/insert",
        "/status/update",
    }
)


def _success_flag(value: Any) -> bool | None:
    """What a ``success`` field says: the API's boolean, or the Y/N, "true"/"false" and 1/0
    some services send; None when it is missing or says neither."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return {1: True, 0: False}.get(value)
    if isinstance(value, str):
        text = value.strip().casefold()
        if text in ("true", "y", "yes", "1"):
            return True
        if text in ("false", "n", "no", "0"):
            return False
    return None


def _describe_body(response: httpx.Response) -> str:
    if not response.content.strip():
        return "an empty body"
    ctype = response.headers.get("content-type", "").split(";")[0].strip()
    if "html" in ctype or response.content.lstrip()[:1] == b"<":
        return "an HTML page"
    return f"a body that is not JSON ({ctype or 'no content type'})"


def _failure_message(data: Any) -> str:
    if isinstance(data, dict):
        err = data.get("error") or data.get("message") or data.get("error_description")
        if err is not None:
            return str(err)
    return ""


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value) if value is not None and value != "" else None
    except (TypeError, ValueError):
        return None
