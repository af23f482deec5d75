"""Disk writes, commits and CPU per row of a real import (black-box B17 F1).

Imports N rows through the real job (stage_import, run_import) into a sandbox run as a separate
process (its own writes are not counted), and prints, for the upload and its report:

- bytes written by this process (``write_bytes`` of /proc/self/io: pages sent to the disk);
- commits per row in the job file and in the change journal (a commit writes each page it
  changed to the WAL, 4 KiB each: a journal entry alone changes about 7 pages, its table's and
  chain head's and one in each of its 4 indexes);
- CPU (user + system) per row.

    .venv/bin/python benchmarks/disk_writes.py [--rows N] [--concurrency N] [--latency-ms N]

Each run is made twice in the same process: first with SQLite's default 4 KiB pages (the
baseline, as before B17 F1), then with the page size the app uses; the ratio of bytes is printed.
Linux only (/proc/self/io). Measured before any change (2 CPUs, 10,000 rows, 0 ms): about 55 KB
and 1 ms of CPU per row at concurrency 8; the job file commits once a row, the journal 1.4
times (1.6 at 50 ms latency).
"""

from __future__ import annotations

import argparse
import csv
import os
import sqlite3
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.api.client import ApiClient  # noqa: E402
from app.api.scope import Scope  # noqa: E402
from app.core import job_store  # noqa: E402
from app.core import journal as journal_module  # noqa: E402
from app.core.connections import Connection  # noqa: E402
from app.core.import_job import run_import, stage_import  # noqa: E402
from app.core.job_exec import job_summary  # noqa: E402
from app.core.job_staging import JobSettings  # noqa: E402
from app.core.journal import ChangeJournal  # noqa: E402
from app.core.session import Session  # noqa: E402
from benchmarks.upload_throughput import TOKEN, start_sandbox  # noqa: E402

_WRITES = ("UPDATE", "INSERT", "DELETE", "REPLACE", "WITH")


def count_commits(db: sqlite3.Connection, counts: Counter[str], name: str) -> None:
    """Count ``db``'s commits under ``name``: each COMMIT, and each write made outside a
    transaction (committed on its own)."""

    def traced(sql: str) -> None:
        text = sql.lstrip().upper()
        if text.startswith("COMMIT") or (not db.in_transaction and text.startswith(_WRITES)):
            counts[name] += 1

    db.set_trace_callback(traced)


def written_bytes() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        key, _, value = line.partition(": ")
        if key == "write_bytes":
            return int(value)
    raise SystemExit("no write_bytes in /proc/self/io")


def measure(
    base_url: str, rows: int, concurrency: int, first: int, page_size: int
) -> tuple[int, Counter[str], float, dict[str, object]]:
    """One real import of ``rows`` numbers from the ``first``-th on, its job file and journal
    made with ``page_size``: (bytes written, commits, CPU seconds, the job's summary)."""
    job_store.PAGE_SIZE = journal_module.PAGE_SIZE = page_size
    commits: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        src = work / "numbers.csv"
        with src.open("w", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(["phone"])
            writer.writerows(
                [f"2{i // 10000 + 2:02d}555{i % 10000:04d}"] for i in range(first, first + rows)
            )
        journal = ChangeJournal(work / "journal.sqlite3")
        session = Session(Connection("bench", base_url), ApiClient(base_url, TOKEN), journal)
        store, summary = stage_import(
            JobSettings(src, Scope.global_()), work / "jobs", connection=session.connection
        )
        assert summary.valid == rows, summary
        # Private connections, read only to count their commits.
        count_commits(store._db, commits, "job file")
        count_commits(journal._db, commits, "journal")
        bytes_before = written_bytes()
        own = os.times()
        run_import(store, session, concurrency=concurrency)
        after = os.times()
        written = written_bytes() - bytes_before
        result = job_summary(store)
        session.close()
        journal.close()
        store.close()
    cpu = after.user + after.system - own.user - own.system
    return written, commits, cpu, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--latency-ms", type=int, default=0)
    args = parser.parse_args()
    rows = args.rows
    current = job_store.PAGE_SIZE
    proc, base_url = start_sandbox(args.latency_ms)
    try:
        # The baseline: the same import with the job file and journal in SQLite's default
        # 4 KiB pages, as before black-box B17 F1 (and as a journal made before keeps them).
        runs = [
            (size, *measure(base_url, rows, args.concurrency, n * rows, size))
            for n, size in enumerate((4096, current))
        ]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print(f"rows: {rows:,} per run, concurrency {args.concurrency}, latency {args.latency_ms} ms")
    for size, written, commits, cpu, result in runs:
        print(
            f"page size {size:,} B (inserted {result['inserted']:,}, failed {result['failed']:,})"
        )
        print(f"  written:   {written / 1e6:,.1f} MB = {written / rows / 1000:,.1f} KB per row")
        for name in ("job file", "journal"):
            print(f"  commits:   {name}: {commits[name]:,} = {commits[name] / rows:.2f} per row")
        print(f"  cpu:       {cpu:.1f} s = {cpu / rows * 1000:.2f} ms per row")
    base, now = runs[0][1], runs[1][1]
    print(f"bytes written vs 4 KiB pages: {now / base:.2f}x" if base else "nothing written")


if __name__ == "__main__":
    main()
