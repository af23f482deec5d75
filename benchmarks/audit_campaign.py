"""Benchmark: audit a campaign of 100,000 leads against 100,000 DNC entries in the sandbox.

The data is seeded in-process into a sandbox database file, then the sandbox is served by a
separate process (``python -m app sandbox``) so client and server do not share a GIL. Prints
the total audit time, the time of each stage (local matching's target is under 1 s), lead
pages per second, and the speed-up of the concurrent lead-page fetch over a sequential fetch
of the same pages, both measured in this run.

Usage: python benchmarks/audit_campaign.py [--leads N] [--entries N] [--concurrency N]
       [--latency-ms MS]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.api.client import ApiClient
from app.core.audit_gather import campaign_lists, gather_leads
from app.core.audit_run import AuditOptions, run_audit
from app.sandbox.runner import SandboxServer

TOKEN = "bench-token-4c1e9a"  # a throwaway token for a local sandbox


def seed(db: Path, leads: int, entries: int) -> tuple[str, int]:
    """Seed the database; return the campaign id and the number of planted conflicts."""
    server = SandboxServer(db_path=db, token=TOKEN, demo=False).start()
    try:
        camp = server.seed_campaign("Benchmark Campaign", active=False)
        other = server.seed_campaign("Another Campaign", active=True)
        with ApiClient(server.base_url, TOKEN) as api:
            list_ids = [
                api.insert_list("Bench list one", camp),
                api.insert_list("Bench list two", camp),
                api.insert_list("Bench list three (old)", camp, active=False),
            ]
        share = [leads * 2 // 5, leads * 2 // 5, leads - 2 * (leads * 2 // 5)]
        start = 0
        for list_id, count in zip(list_ids, share, strict=True):
            rows = []
            for i in range(start, start + count):
                phone = f"2127{i:06d}"
                if i % 10 == 0:  # people type numbers in every shape
                    phone = f"(212) 7{i // 10000:02d}-{i % 10000:04d}"
                alt1 = f"3105{i:06d}" if i % 4 == 0 else ""
                rows.append((phone, "1" if i % 3 else "", alt1, ""))
            server.bulk_seed_leads(list_id, rows)
            start += count
        overlap = max(1, leads // 100)
        half = entries // 2
        global_rows = [(f"2127{i * 97 % leads:06d}", "1", "0", "asked", "") for i in range(overlap)]
        global_rows += [(f"6465{i:06d}", "1", "0", "asked", "") for i in range(half - overlap)]
        camp_rows = [(f"3105{i * 4:06d}", "1", camp, "", "") for i in range(overlap // 4)]
        camp_rows += [
            (f"7185{i:06d}", "1", camp, "", "") for i in range(entries - half - overlap // 4)
        ]
        server.bulk_seed_dnc(global_rows)
        server.bulk_seed_dnc(camp_rows)
        server.bulk_seed_dnc((f"2127{i:06d}", "1", other, "", "") for i in range(0, 1000, 7))
        planted = len({r[0] for r in global_rows[:overlap]}) + overlap // 4
        return camp, planted
    finally:
        server.stop()


def serve(db: Path, latency_ms: float = 0.0) -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-m", "app", "sandbox", "--port", "0", "--empty"]
    cmd += ["--latency-ms", str(latency_ms)]
    proc = subprocess.Popen(
        [*cmd, "--db", str(db)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        env={**os.environ, "DNC_DESK_SANDBOX_TOKEN": TOKEN},  # never on a command line
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "serving" not in line:
        proc.kill()
        raise SystemExit(f"sandbox did not start: {line!r}")
    return proc, line.rsplit(" ", 1)[1].strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leads", type=int, default=100_000)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument(
        "--latency-ms",
        type=float,
        default=0.0,
        help="latency the sandbox adds per request, as a real network would (default 0)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dnc-bench-") as tmp:
        db = Path(tmp) / "sandbox.sqlite3"
        t0 = time.perf_counter()
        camp, planted = seed(db, args.leads, args.entries)
        print(
            f"seeded {args.leads:,} leads and {args.entries:,} DNC entries "
            f"in {time.perf_counter() - t0:.1f} s"
        )
        proc, url = serve(db, args.latency_ms)
        print(f"sandbox latency {args.latency_ms:g} ms per request, {os.cpu_count()} CPUs")
        try:
            with ApiClient(url, TOKEN) as api:
                t0 = time.perf_counter()
                result = run_audit(api, camp, options=AuditOptions(concurrency=args.concurrency))
                total = time.perf_counter() - t0
                t = result.timings
                print(f"audit total            {total:8.2f} s")
                print(
                    f"  lead pages ({result.lead_pages:>3})     {t['lead_fetch']:8.2f} s "
                    f"({result.lead_pages / t['lead_fetch']:.1f} pages/s, "
                    f"{result.leads / t['lead_fetch']:,.0f} leads/s)"
                )
                print(
                    f"  numbers after fetch  {t['normalize']:8.2f} s ({result.numbers:,} numbers, "
                    "most normalized while pages were arriving)"
                )
                print(f"  entries (download)   {t['entry_fetch']:8.2f} s")
                print(f"  local matching       {t['match']:8.3f} s (target < 1 s)")
                print(
                    f"leads {result.leads:,}, numbers {result.numbers:,}, "
                    f"conflicts {len(result.conflicts):,} (planted {planted:,}), "
                    f"unparseable {len(result.unparseable):,}"
                )
                for s in result.sources:
                    print(
                        f"  {s.kind.value:12} {s.scope!s:14} {s.strategy.value:8} "
                        f"{s.total:>7,} entries, {s.requests:>4} requests"
                    )
                lists = campaign_lists(api, camp)
                t0 = time.perf_counter()
                sequential = gather_leads(api, lists, concurrency=1)
                seq = time.perf_counter() - t0
                t0 = time.perf_counter()
                concurrent = gather_leads(api, lists, concurrency=args.concurrency)
                conc = time.perf_counter() - t0
                assert sequential.leads == concurrent.leads == result.leads
                print(f"lead fetch sequential  {seq:8.2f} s ({sequential.pages} pages)")
                print(
                    f"lead fetch concurrent  {conc:8.2f} s ({concurrent.pages} pages, "
                    f"{args.concurrency} in flight)"
                )
                print(
                    f"concurrent / sequential time ratio {conc / seq:.2f} "
                    f"(speed-up {seq / conc:.2f}x)"
                )
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
