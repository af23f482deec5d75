"""Outcomes of past campaign audits, kept locally (SQLite in the data dir).

One row per audit: campaign, connection, when, the counts, the report's path and SHA-256.
The campaign list shows "last audited when, with what result" from :meth:`AuditRecords.last`,
and the launch gate decides from it. Campaign ids are only unique per service, so every
question is asked per base URL.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from app.core.audit_types import AuditResult
from app.core.wording import counted

_SCHEMA = """
CREATE TABLE IF NOT EXISTS audits (
    id INTEGER PRIMARY KEY,
    connection TEXT NOT NULL,
    base_url TEXT NOT NULL,
    campaign_id TEXT NOT NULL,
    campaign_name TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    lists INTEGER NOT NULL,
    leads INTEGER NOT NULL,
    numbers INTEGER NOT NULL,
    conflicts INTEGER NOT NULL,
    unparseable INTEGER NOT NULL,
    clean INTEGER NOT NULL,
    report_path TEXT NOT NULL,
    report_sha256 TEXT NOT NULL,
    strategies TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audits_campaign ON audits(base_url, campaign_id, finished_at);
"""

_COLUMNS = (
    "id, connection, base_url, campaign_id, campaign_name, started_at, finished_at, lists, "
    "leads, numbers, conflicts, unparseable, clean, report_path, report_sha256, strategies"
)


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One stored audit outcome."""

    id: int
    connection: str
    base_url: str
    campaign_id: str
    campaign_name: str
    started_at: str
    finished_at: str  # UTC, ISO 8601 ``YYYY-MM-DDTHH:MM:SSZ``
    lists: int
    leads: int
    numbers: int
    conflicts: int
    unparseable: int
    clean: bool
    report_path: str
    report_sha256: str
    strategies: dict[str, str]

    @property
    def summary(self) -> str:
        """One line for the campaign list: "clean" or what was found."""
        if self.clean:
            return (
                f"clean ({counted(self.leads, 'lead', 'leads')}, "
                f"{counted(self.numbers, 'number', 'numbers')})"
            )
        parts = []
        if self.conflicts:
            parts.append(counted(self.conflicts, "conflict", "conflicts"))
        if self.unparseable:
            parts.append(counted(self.unparseable, "unparseable number", "unparseable numbers"))
        return ", ".join(parts)

    def report_intact(self) -> bool | None:
        """True when the report file still has the stored hash, False when it changed,
        None when it is gone."""
        path = Path(self.report_path)
        if not self.report_path or not path.is_file():
            return None
        return sha256_of(path) == self.report_sha256


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file, so a report handed on later can be shown to be unchanged."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class AuditRecords:
    """The local store of audit outcomes; thread-safe."""

    FILE_NAME = "audits.sqlite3"

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        new_file = not path.exists()
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA busy_timeout = 10000")
        self._db.executescript(_SCHEMA)
        if new_file:
            # Campaign names and counts are business data: owner-only like the journal.
            with contextlib.suppress(OSError):
                os.chmod(path, 0o600)

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> AuditRecords:
        return cls(data_dir / cls.FILE_NAME)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> AuditRecords:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, result: AuditResult, report_path: Path | None, report_sha256: str) -> int:
        strategies = {f"{s.kind.value} {s.scope}": s.strategy.value for s in result.sources}
        with self._lock:
            cursor = self._db.execute(
                "INSERT INTO audits(connection, base_url, campaign_id, campaign_name, started_at,"
                " finished_at, lists, leads, numbers, conflicts, unparseable, clean, report_path,"
                " report_sha256, strategies) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    result.connection,
                    result.base_url,
                    result.campaign_id,
                    result.campaign_name,
                    result.started_at,
                    result.finished_at,
                    len(result.lists),
                    result.leads,
                    result.numbers,
                    len(result.conflicts),
                    len(result.unparseable),
                    1 if result.clean else 0,
                    str(report_path) if report_path is not None else "",
                    report_sha256,
                    json.dumps(strategies, sort_keys=True),
                ),
            )
            return int(cursor.lastrowid or 0)

    def last(self, base_url: str, campaign_id: str) -> AuditRecord | None:
        """The most recent audit of the campaign on this service."""
        rows = self.history(base_url, campaign_id, limit=1)
        return rows[0] if rows else None

    def last_clean(self, base_url: str, campaign_id: str) -> AuditRecord | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {_COLUMNS} FROM audits WHERE base_url = ? AND campaign_id = ?"
                " AND clean = 1 ORDER BY finished_at DESC, id DESC LIMIT 1",
                (base_url, campaign_id),
            ).fetchone()
        return _record(row) if row is not None else None

    def history(self, base_url: str, campaign_id: str, limit: int = 100) -> list[AuditRecord]:
        """The campaign's audits, newest first."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM audits WHERE base_url = ? AND campaign_id = ?"
                " ORDER BY finished_at DESC, id DESC LIMIT ?",
                (base_url, campaign_id, limit),
            ).fetchall()
        return [_record(r) for r in rows]

    def latest_by_campaign(self, base_url: str) -> dict[str, AuditRecord]:
        """The last audit of every campaign on this service (for the campaign list)."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM audits WHERE base_url = ? ORDER BY finished_at, id",
                (base_url,),
            ).fetchall()
        return {r.campaign_id: r for r in (_record(x) for x in rows)}


def _record(row: tuple[object, ...]) -> AuditRecord:
    strategies = json.loads(str(row[15]) or "{}")
    return AuditRecord(
        id=int(str(row[0])),
        connection=str(row[1]),
        base_url=str(row[2]),
        campaign_id=str(row[3]),
        campaign_name=str(row[4]),
        started_at=str(row[5]),
        finished_at=str(row[6]),
        lists=int(str(row[7])),
        leads=int(str(row[8])),
        numbers=int(str(row[9])),
        conflicts=int(str(row[10])),
        unparseable=int(str(row[11])),
        clean=bool(row[12]),
        report_path=str(row[13]),
        report_sha256=str(row[14]),
        strategies={str(k): str(v) for k, v in strategies.items()},
    )
