"""Peak memory of a dry-run import of a generated 1,000,000-row CSV (target: under 400 MB).

The import runs as ``python -m app import FILE --dry-run --json`` in a child process (the real
command: read, map, check every row, stage every row in the job file, write the report); its peak
RSS comes from ``getrusage(RUSAGE_CHILDREN)`` after it exits.

    .venv/bin/python benchmarks/import_memory.py [--rows N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


AREAS = ("201", "202", "212", "213", "305", "312", "415", "617", "713", "718")


def write_csv(path: Path, rows: int) -> None:
    """Distinct valid US numbers (10 area codes x 10 exchanges x 10,000 lines), one duplicate
    every 1,000 rows and a request date column."""
    with path.open("w", encoding="utf-8") as fh:
        fh.write("Phone,Reason,Request date\n")
        for i in range(rows):
            n = i - 1 if i % 1000 == 999 else i
            area = AREAS[(n // 100_000) % len(AREAS)]
            exchange = 200 + (n % 100_000) // 10_000
            fh.write(f"({area}) {exchange}-{n % 10_000:04d},opt-out,2026-11-0{1 + i % 9}\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        src = work / "big.csv"
        write_csv(src, args.rows)
        env = {
            **os.environ,
            "DNC_DESK_DATA_DIR": str(work / "data"),
            "DNC_DESK_CONFIG_DIR": str(work / "config"),
        }
        argv = [sys.executable, "-m", "app", "import", str(src), "--into", "dnc"]
        argv += ["--scope", "global", "--dry-run", "--json"]
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"import failed ({done.returncode}): {done.stderr.strip()}")
        result = json.loads(done.stdout)
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"rows in file:   {args.rows:,} ({src.name}, {result['rows']:,} data rows read)")
    print(
        f"verdicts:       valid {result['valid']:,}, invalid {result['invalid']:,}, "
        f"duplicates {result['duplicates_in_file']:,}, blank {result['blank']:,}"
    )
    print(f"time:           {elapsed:.1f} s ({args.rows / elapsed:,.0f} rows/s incl. report)")
    print(f"peak RSS:       {peak_mb:,.0f} MB (target < 400 MB)")


if __name__ == "__main__":
    main()
