"""The job files on this machine, listed with what each job is and how far it got.

Read-only: each file is opened with SQLite's ``mode=ro`` so listing never competes with a job
that is writing its file. A job whose file says ``running`` but that no process is running is
*interrupted* (the app or the machine stopped under it); the caller knows which jobs it runs.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.job_store import SUFFIX, JobStatus, Outcome


@dataclass(frozen=True)
class JobInfo:
    """One job file: its meta (name, note, file, target…), status and rows per outcome."""

    path: Path
    meta: dict[str, Any]
    counts: dict[str, int]
    error: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def job_id(self) -> str:
        return str(self.meta.get("job_id") or self.path.stem)

    @property
    def status(self) -> str:
        return str(self.meta.get("status", ""))

    @property
    def kind(self) -> str:
        return str(self.meta.get("kind", ""))

    @property
    def rows(self) -> int:
        return sum(self.counts.values())

    @property
    def pending(self) -> int:
        return self.counts.get("pending", 0)

    @property
    def done(self) -> int:
        return self.rows - self.pending

    @property
    def resumable(self) -> bool:
        """Rows are left to send and the job was neither cancelled nor a dry run."""
        return self.pending > 0 and self.status in (
            JobStatus.READY.value,
            JobStatus.RUNNING.value,
            JobStatus.PAUSED.value,
        )

    @property
    def report(self) -> Path:
        return Path(self.meta.get("report") or self.path.with_suffix(".xlsx"))


def read_job(path: Path) -> JobInfo:
    """Meta and counts of one job file; a file that cannot be read gets ``error`` set."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as exc:
        return JobInfo(path, {}, {}, error=f"cannot be read: {exc}")
    try:
        meta = {k: json.loads(v) for k, v in db.execute("SELECT key, value FROM meta")}
        found = db.execute(
            "SELECT CASE WHEN state = 'done' THEN outcome ELSE 'pending' END, count(*)"
            " FROM rows GROUP BY 1"
        ).fetchall()
    except (sqlite3.Error, ValueError) as exc:
        return JobInfo(path, {}, {}, error=f"cannot be read: {exc}")
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.close()
    counts = {o.value: 0 for o in Outcome}
    counts["pending"] = 0
    for key, n in found:
        counts[str(key)] = int(n)
    return JobInfo(path, meta, counts)


def list_jobs(jobs_dir: Path) -> list[JobInfo]:
    """Every job file in ``jobs_dir``, newest first."""
    if not jobs_dir.is_dir():
        return []
    files: Iterable[Path] = sorted(jobs_dir.glob(f"*{SUFFIX}"), reverse=True)
    jobs = [read_job(p) for p in files]
    jobs.sort(key=lambda j: str(j.meta.get("created", "")), reverse=True)
    return jobs
