"""SQLite persistence: schema, the shared connection, and lookups several endpoints need.

One connection serves the whole sandbox. Handlers run on uvicorn's event-loop thread while the
``SandboxServer`` helpers (seeding, reset) run on the caller's thread, so every access goes through
one re-entrant lock; queries are sub-millisecond, so holding it briefly on the loop is cheaper than
a thread hop per request.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from typing import Any

SCHEMA_VERSION = 1

# A fixed namespace makes campaign uids stable across resets and restarts.
_CAMPAIGN_UID_NAMESPACE = uuid.UUID("6f1d3f43-2a57-4a8e-9a55-0c1f4b3f7d20")

_NON_DIGITS = re.compile(r"[^0-9]+")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS campaigns (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('Y', 'N')),
    last_call_date TEXT NOT NULL,
    timezone TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS lists (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    campaign_id INTEGER NOT NULL,
    status INTEGER NOT NULL CHECK (status IN (0, 1)),
    description TEXT NOT NULL DEFAULT '',
    last_called_at TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS leads (
    id INTEGER PRIMARY KEY,
    list_id INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    modified_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'NEW',
    phone_number TEXT NOT NULL,
    phone_code TEXT NOT NULL DEFAULT '',
    alt_phone_1 TEXT NOT NULL DEFAULT '',
    alt_phone_2 TEXT NOT NULL DEFAULT '',
    first_name TEXT NOT NULL DEFAULT '',
    last_name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    owner_id TEXT NOT NULL DEFAULT '',
    source_id TEXT NOT NULL DEFAULT '',
    address1 TEXT NOT NULL DEFAULT '',
    address2 TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT '',
    province TEXT NOT NULL DEFAULT '',
    postal_code TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    gender TEXT NOT NULL DEFAULT '',
    date_of_birth TEXT NOT NULL DEFAULT '',
    carrier_name TEXT NOT NULL DEFAULT '',
    carrier_type TEXT NOT NULL DEFAULT '',
    created_by TEXT NOT NULL DEFAULT '',
    last_modified_by TEXT NOT NULL DEFAULT '',
    std_company_name TEXT NOT NULL DEFAULT '',
    std_consumer_number TEXT NOT NULL DEFAULT '',
    std_account_number TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '',
    monthly_revenue TEXT NOT NULL DEFAULT '',
    annual_revenue TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    business_name TEXT NOT NULL DEFAULT '',
    dba TEXT NOT NULL DEFAULT '',
    industry TEXT NOT NULL DEFAULT '',
    start_date TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS leads_list ON leads(list_id);
CREATE INDEX IF NOT EXISTS leads_phone ON leads(phone_number);
CREATE TABLE IF NOT EXISTS lead_statuses (
    status TEXT PRIMARY KEY COLLATE NOCASE,
    name TEXT NOT NULL,
    final TEXT NOT NULL,
    reached TEXT NOT NULL,
    success TEXT NOT NULL,
    dnc TEXT NOT NULL,
    callback TEXT NOT NULL,
    contact TEXT NOT NULL,
    voicemail TEXT NOT NULL,
    workflow_disposition_event_option TEXT NOT NULL DEFAULT 'none',
    custom_status INTEGER NOT NULL,
    hex_color TEXT NOT NULL
);
"""

# DNC entries and SMS opt-outs share one shape. Uniqueness is per number, code and scope; in the
# purpose scope (-1) the purpose is part of the key, elsewhere it is just an annotation.
# AUTOINCREMENT: a deleted entry's id is never given to a new one, as on the real service (the
# change journal keeps deleted entries' ids; a reused id would name two numbers). A database
# file made before this keeps its old table (CREATE TABLE IF NOT EXISTS), which may still reuse
# the last id after a deletion; a reset or a new file gets the new table.
_OPT_OUT_TABLE = """
CREATE TABLE IF NOT EXISTS {table} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    phone_number TEXT NOT NULL,
    phone_code TEXT NOT NULL,
    campaign_id INTEGER NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    purpose TEXT NOT NULL DEFAULT '',
    insert_date TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS {table}_unique ON {table}(
    phone_number, phone_code, campaign_id, (CASE WHEN campaign_id = -1 THEN purpose ELSE '' END)
);
"""

OPT_OUT_TABLES = ("dnc", "sms_opt_out")
_ALL_TABLES = ("campaigns", "lists", "leads", "lead_statuses", *OPT_OUT_TABLES)


def campaign_uid(campaign_id: int) -> str:
    return str(uuid.uuid5(_CAMPAIGN_UID_NAMESPACE, f"campaign-{campaign_id}"))


def digits_only(value: str | None) -> str:
    return _NON_DIGITS.sub("", value or "")


class Store:
    """The sandbox database. ``path`` None keeps everything in memory."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = None if path is None else os.fspath(path)
        self.lock = threading.RLock()
        self.conn = sqlite3.connect(
            ":memory:" if self.path is None else self.path, check_same_thread=False
        )
        self.conn.row_factory = sqlite3.Row
        self.conn.create_function("digits_only", 1, digits_only, deterministic=True)
        if self.path is not None:
            # WAL without per-commit fsync: the sandbox favours throughput over crash durability.
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
        self.create_schema()

    def close(self) -> None:
        with self.lock:
            self.conn.close()

    def create_schema(self) -> None:
        with self.lock, self.conn:
            self.conn.executescript(_SCHEMA)
            for table in OPT_OUT_TABLES:
                self.conn.executescript(_OPT_OUT_TABLE.format(table=table))
            self.conn.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)",
                (str(SCHEMA_VERSION),),
            )

    def drop_all(self) -> None:
        with self.lock, self.conn:
            for table in _ALL_TABLES:
                self.conn.execute(f"DROP TABLE IF EXISTS {table}")
            self.conn.execute("DELETE FROM meta WHERE key <> 'schema_version'")

    def is_initialized(self) -> bool:
        """True once data was seeded (or deliberately left empty) in this database."""
        return self.get_meta("initialized") == "1"

    def get_meta(self, key: str) -> str | None:
        row = self.one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    def set_meta(self, key: str, value: str) -> None:
        self.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    # Generic access, always under the lock.

    def all(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self.lock:
            return list(self.conn.execute(sql, args))

    def one(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Row | None:
        with self.lock:
            row: sqlite3.Row | None = self.conn.execute(sql, args).fetchone()
            return row

    def scalar(self, sql: str, args: Sequence[Any] = ()) -> Any:
        row = self.one(sql, args)
        return None if row is None else row[0]

    def execute(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        with self.lock, self.conn:
            return self.conn.execute(sql, args)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        with self.lock, self.conn:
            return self.conn.executemany(sql, rows).rowcount

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Several statements that commit together or not at all."""
        with self.lock, self.conn:
            yield self.conn

    # Campaigns are referenced by almost every endpoint.

    def campaign_exists(self, campaign_id: int) -> bool:
        return self.one("SELECT 1 FROM campaigns WHERE id = ?", (campaign_id,)) is not None

    def add_campaign(self, name: str, active: bool, last_call_date: date | None = None) -> int:
        when = (last_call_date or date.today()).isoformat()
        with self.transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO campaigns(uid, name, status, last_call_date, timezone) "
                "VALUES ('', ?, ?, ?, 'America/New_York')",
                (name, "Y" if active else "N", when),
            )
            new_id = int(cursor.lastrowid or 0)
            conn.execute(
                "UPDATE campaigns SET uid = ? WHERE id = ?", (campaign_uid(new_id), new_id)
            )
        return new_id

    def status_exists(self, code: str) -> bool:
        return self.one("SELECT 1 FROM lead_statuses WHERE status = ?", (code,)) is not None
