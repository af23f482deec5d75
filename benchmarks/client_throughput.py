"""Insert DNC entries one at a time vs. 16 in flight, against a sandbox with 50 ms latency.

Run: .venv/bin/python benchmarks/client_throughput.py [--sequential N] [--concurrent N]
Targets (issue 2): 16 in flight reaches >= 85 % of the ideal 16 / 0.050 s and >= 12x sequential.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.api.client import ApiClient
from app.api.concurrency import bounded_map
from app.api.scope import Scope
from benchmarks.sandbox_process import BENCH_TOKEN, sandbox_process

LATENCY_S = 0.050
IN_FLIGHT = 16


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sequential", type=int, default=150)
    parser.add_argument("--concurrent", type=int, default=3000)
    args = parser.parse_args()
    latency = ["--empty", "--latency-ms", str(int(LATENCY_S * 1000))]
    with sandbox_process(latency) as url, ApiClient(url, BENCH_TOKEN) as api:
        api.campaigns()  # warm the connection pool and the server
        numbers = (f"2025{n:06d}" for n in range(10**6))

        start = time.perf_counter()
        for _ in range(args.sequential):
            api.insert_dnc(next(numbers), "1", Scope.global_())
        seq_rate = args.sequential / (time.perf_counter() - start)

        batch = [next(numbers) for _ in range(args.concurrent)]
        start = time.perf_counter()
        failures = sum(
            1
            for done in bounded_map(
                lambda n: api.insert_dnc(n, "1", Scope.global_()),
                batch,
                concurrency=IN_FLIGHT,
            )
            if done.error is not None
        )
        conc_rate = args.concurrent / (time.perf_counter() - start)
        stored = api.search_dnc(limit=1).total
    ideal = IN_FLIGHT / LATENCY_S
    print(f"sequential:        {seq_rate:8.1f} req/s ({args.sequential} inserts)")
    print(
        f"{IN_FLIGHT} in flight:      {conc_rate:8.1f} req/s ({args.concurrent} inserts, "
        f"{failures} failed)"
    )
    print(f"ratio:             {conc_rate / seq_rate:8.1f}x   (target >= 12x)")
    print(f"of ideal {ideal:.0f}/s:  {conc_rate / ideal:8.1%}   (target >= 85 %)")
    expected = args.sequential + args.concurrent
    if stored != expected:
        print(f"MISMATCH: sandbox holds {stored} entries, expected {expected}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
