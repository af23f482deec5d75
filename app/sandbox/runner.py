"""Runs the sandbox in a background thread: for tests, benchmarks and the ``sandbox`` command."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterable
from types import TracebackType

import uvicorn

from app.sandbox.app import create_app
from app.sandbox.auth import Role, TokenRegistry
from app.sandbox.demo_data import seed_demo_data, seed_system_statuses
from app.sandbox.faults import FaultSettings, quiet_intentional_drops
from app.sandbox.opt_out_queries import DAY, INSERT_DATE_MODES
from app.sandbox.params import now_timestamp
from app.sandbox.store import Store
from app.sandbox.validation import ANY_PHONE, PHONE_FORMATS

_START_TIMEOUT = 10.0


class SandboxServer:
    """A local instance of the contact-center API on ``host:port`` backed by SQLite.

    ``db_path`` None keeps the data in memory. An existing database file keeps its data unless
    ``reset`` is true; a new one gets the demo data set when ``demo`` is true. ``token`` has full
    permissions, ``read_only_token`` may only search, ``limited_token`` may do everything except
    change campaign status. ``dnc_insert_date`` is how /dnc/search matches ``insert_date``:
    ``day`` (the day of a date or a moment), ``moment`` (the exact moment, a bare date being
    midnight) or ``strict`` (a bare date refused, code 6008), as services following the spec's
    ``YYYY-MM-DD hh:mm:ss`` may do; /sms-opt-out/search always matches a day.
    ``dnc_phone_format`` ``strict`` makes /dnc/search refuse a phone_number starting with 0
    (code 6006), as a service reading it as E.164's national number may.
    """

    def __init__(
        self,
        *,
        db_path: str | os.PathLike[str] | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        token: str = "sandbox-token",  # noqa: S107  (sandbox-only demo token)
        read_only_token: str | None = None,
        limited_token: str | None = None,
        demo: bool = True,
        seed: int = 1,
        latency_ms: float = 0,
        error_rate: float = 0.0,
        drop_rate: float = 0.0,
        rate_limit: int = 0,
        reset: bool = False,
        dnc_insert_date: str = DAY,
        dnc_phone_format: str = ANY_PHONE,
    ) -> None:
        if dnc_insert_date not in INSERT_DATE_MODES:
            raise ValueError(
                f"dnc_insert_date must be one of {', '.join(INSERT_DATE_MODES)}, "
                f"not {dnc_insert_date!r}"
            )
        self.dnc_insert_date = dnc_insert_date
        if dnc_phone_format not in PHONE_FORMATS:
            raise ValueError(
                f"dnc_phone_format must be one of {', '.join(PHONE_FORMATS)}, "
                f"not {dnc_phone_format!r}"
            )
        self.dnc_phone_format = dnc_phone_format
        self.host = host
        self.port = port
        self.demo = demo
        self.seed = seed
        self.tokens = TokenRegistry()
        self.tokens.grant(token, Role.FULL)
        if read_only_token:
            self.tokens.grant(read_only_token, Role.READ_ONLY)
        if limited_token:
            self.tokens.grant(limited_token, Role.LIMITED)
        self.faults = FaultSettings()
        self.set_faults(
            latency_ms=latency_ms, error_rate=error_rate, drop_rate=drop_rate, rate_limit=rate_limit
        )
        self.store = Store(db_path)
        if reset or not self.store.is_initialized():
            self.reset_demo_data()
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def __repr__(self) -> str:
        return f"SandboxServer(host={self.host!r}, port={self.port})"

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def start(self) -> SandboxServer:
        """Bind, serve on a daemon thread, and return once the server accepts connections."""
        if self._thread is not None:
            raise RuntimeError("sandbox already started")
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        # proto must be IPPROTO_TCP: asyncio only sets TCP_NODELAY on accepted sockets that say
        # so, and without it every response waits ~40 ms on Nagle plus delayed ACKs.
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError:
            sock.close()
            raise
        self.port = sock.getsockname()[1]
        quiet_intentional_drops()
        config = uvicorn.Config(
            create_app(
                self.store,
                self.tokens,
                self.faults,
                self.seed,
                self.dnc_insert_date,
                self.dnc_phone_format,
            ),
            access_log=False,
            log_config=None,  # leave the host process's logging configuration alone
            log_level="warning",
            lifespan="off",
            server_header=False,
            # uvicorn's 5 s default races clients that reuse a pooled connection after a pause
            # (the request meets a closing socket); nginx's 75 s makes that rare, as in production.
            timeout_keep_alive=75,
            timeout_graceful_shutdown=5,  # bounds stop() even with slow requests in flight
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(
            target=server.run, kwargs={"sockets": [sock]}, name="dnc-desk-sandbox", daemon=True
        )
        thread.start()
        deadline = time.monotonic() + _START_TIMEOUT
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                server.should_exit = True
                sock.close()
                raise RuntimeError("sandbox server failed to start")
            time.sleep(0.01)
        self._server, self._thread = server, thread
        self._socket = sock
        return self

    def stop(self) -> None:
        """Stop serving and close the database; safe to call more than once. A stopped server
        cannot be started again: make a new one on the same ``db_path``."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=_START_TIMEOUT)
            self._socket.close()
            self._server = self._thread = None
        self.store.close()

    def __enter__(self) -> SandboxServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def set_faults(
        self,
        *,
        latency_ms: float | None = None,
        error_rate: float | None = None,
        drop_rate: float | None = None,
        rate_limit: int | None = None,
    ) -> None:
        """Change fault levels at runtime; None leaves a level as it is."""
        for name, rate in (("error_rate", error_rate), ("drop_rate", drop_rate)):
            if rate is not None and not 0.0 <= rate <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1")
        if latency_ms is not None:
            self.faults.latency_ms = max(0.0, float(latency_ms))
        if error_rate is not None:
            self.faults.error_rate = error_rate
        if drop_rate is not None:
            self.faults.drop_rate = drop_rate
        if rate_limit is not None:
            self.faults.rate_limit = max(0, int(rate_limit))

    def seed_campaign(self, name: str, active: bool = True) -> str:
        """Create a campaign (the API has no endpoint for it) and return its id."""
        return str(self.store.add_campaign(name, active))

    def revoke_token(self, token: str) -> None:
        self.tokens.revoke(token)

    def reset_demo_data(self) -> None:
        """Wipe everything and reseed: demo data, or only the system lead statuses if not demo."""
        # Holding the lock throughout keeps concurrent requests from seeing missing tables.
        with self.store.lock:
            self.store.drop_all()
            self.store.create_schema()
            if self.demo:
                seed_demo_data(self.store, self.seed)
            else:
                seed_system_statuses(self.store)
            self.store.set_meta("initialized", "1")

    def bulk_seed_dnc(self, rows: Iterable[tuple[str, str, str, str, str]]) -> int:
        """Insert (phone_number, phone_code, campaign_id, reason, purpose) rows without the API's
        validation; rows colliding with existing entries are skipped. Returns rows inserted."""
        stamp = now_timestamp()
        return self.store.executemany(
            "INSERT OR IGNORE INTO dnc(phone_number, phone_code, campaign_id, reason, purpose,"
            " insert_date) VALUES (?, ?, ?, ?, ?, ?)",
            (
                (num, code, int(cid), reason, purpose, stamp)
                for num, code, cid, reason, purpose in rows
            ),
        )

    def bulk_seed_leads(self, list_id: str, rows: Iterable[tuple[str, str, str, str]]) -> int:
        """Insert (phone_number, phone_code, alt_phone_1, alt_phone_2) leads into a list."""
        stamp = now_timestamp()
        target = int(list_id)
        if self.store.one("SELECT 1 FROM lists WHERE id = ?", (target,)) is None:
            raise ValueError(f"no list {list_id}")
        return self.store.executemany(
            "INSERT INTO leads(list_id, created_at, modified_at, phone_number, phone_code,"
            " alt_phone_1, alt_phone_2) VALUES (?, ?, ?, ?, ?, ?, ?)",
            ((target, stamp, stamp, num, code, alt1, alt2) for num, code, alt1, alt2 in rows),
        )
