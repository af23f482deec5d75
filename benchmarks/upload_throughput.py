"""Upload 10,000 rows through the real import job to a sandbox answering in 50 ms.

The sandbox runs as a separate process (as the real service would be), started with
``--latency-ms 50``; the import runs at concurrency 16, so the ideal is 16 / 0.05 s = 320 rows/s.
Prints rows/s and the fraction of that ideal (target: at least 85 %).

    .venv/bin/python benchmarks/upload_throughput.py [--rows N] [--concurrency N]
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.api.client import ApiClient  # noqa: E402
from app.api.scope import Scope  # noqa: E402
from app.core.connections import Connection  # noqa: E402
from app.core.import_job import run_import, stage_import  # noqa: E402
from app.core.job_exec import job_summary  # noqa: E402
from app.core.job_runner import JobProgress  # noqa: E402
from app.core.job_staging import JobSettings  # noqa: E402
from app.core.journal import ChangeJournal  # noqa: E402
from app.core.session import Session  # noqa: E402
from app.sandbox.cli import TOKEN_ENV  # noqa: E402

TOKEN = "bench-token-4d2a"
LATENCY_MS = 50


def start_sandbox(latency_ms: int) -> tuple[subprocess.Popen[str], str]:
    argv = [sys.executable, "-m", "app", "sandbox", "--port", "0", "--empty"]
    argv += ["--latency-ms", str(latency_ms)]
    # The token goes in the environment, never on a command line (the process list shows it).
    env = {**os.environ, TOKEN_ENV: TOKEN}
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        match = re.search(r"DNC Desk sandbox serving (http://\S+)", line)
        if match:
            return proc, match.group(1)
    raise SystemExit("the sandbox did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process (Linux), or NaN where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency-ms", type=int, default=LATENCY_MS)
    args = parser.parse_args()
    proc, base_url = start_sandbox(args.latency_ms)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            src = work / "numbers.csv"
            with src.open("w", newline="") as fh:
                writer = csv.writer(fh)
                writer.writerow(["phone"])
                writer.writerows(
                    [f"2{i // 10000 + 2:02d}555{i % 10000:04d}"] for i in range(args.rows)
                )
            journal = ChangeJournal(work / "journal.sqlite3")
            session = Session(Connection("bench", base_url), ApiClient(base_url, TOKEN), journal)
            store, summary = stage_import(
                JobSettings(src, Scope.global_()), work / "jobs", connection=session.connection
            )
            assert summary.valid == args.rows, summary
            sandbox_cpu = cpu_seconds(proc.pid)
            own = os.times()
            last_row: list[float] = []

            def progress(p: JobProgress) -> None:
                if p.done >= p.total and not last_row:
                    last_row.append(time.perf_counter())

            started = time.perf_counter()
            run_import(store, session, concurrency=args.concurrency, progress=progress)
            elapsed = time.perf_counter() - started
            # The job then writes its xlsx report (about 1 s for 10,000 rows, all openpyxl).
            uploading = (last_row[0] if last_row else time.perf_counter()) - started
            after = os.times()
            client_cpu = after.user + after.system - own.user - own.system
            sandbox_cpu = cpu_seconds(proc.pid) - sandbox_cpu
            result = job_summary(store)
            session.close()
            journal.close()
            store.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    done = result["inserted"] + result["already_present"]
    ideal = args.concurrency / (max(args.latency_ms, 1) / 1000)
    rate = done / elapsed
    print(f"rows sent:        {done:,} (failed {result['failed']}) in {elapsed:.1f} s")
    print(f"throughput:       {rate:,.0f} rows/s at concurrency {args.concurrency}")
    print(f"ideal:            {ideal:,.0f} rows/s ({args.concurrency} / {args.latency_ms} ms)")
    print(f"fraction of ideal: {rate / ideal:.1%} (target >= 85 %), whole job with its report")
    print(
        f"upload phase:     {done / uploading:,.0f} rows/s = {done / uploading / ideal:.1%} "
        f"of ideal (first request to last outcome, {uploading:.1f} s; the rest is the report)"
    )
    print(f"cpu during run:   import {client_cpu:.1f} s, sandbox {sandbox_cpu:.1f} s")
    print(f"cpu count: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
