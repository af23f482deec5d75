"""Export 100,000 DNC rows to xlsx, against bare openpyxl write-only writing the same rows.

Both sides write the same 100,000 rows of text in the same run: the baseline straight from a
list with ``Workbook(write_only=True)``, the export through :class:`ExportJob` from a sandbox
running in its own process, as a real service would (paging, model decoding, neutralising, the
About sheet). Prints both times and the
ratio (target <= 1.3x). The fetch-only time is printed too, to show where the rest goes.

    .venv/bin/python benchmarks/export_xlsx.py [--rows N]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from openpyxl import Workbook  # noqa: E402

from app.api.client import ApiClient, DncQuery  # noqa: E402
from app.core.export_job import COLUMNS, ExportJob, ListKind  # noqa: E402
from app.sandbox.runner import SandboxServer  # noqa: E402

TOKEN = "bench-token-77c1"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        db = work / "sandbox.sqlite3"
        seeder = SandboxServer(db_path=db, token=TOKEN, demo=False)
        seeder.bulk_seed_dnc(
            (f"2{i:09d}", "1", "0", "asked" if i % 3 else "", "") for i in range(args.rows)
        )
        seeder.stop()
        argv = [sys.executable, "-m", "app", "sandbox", "--port", "0", "--empty"]
        proc = subprocess.Popen(
            [*argv, "--db", str(db)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "DNC_DESK_SANDBOX_TOKEN": TOKEN},  # never on a command line
        )
        assert proc.stdout is not None
        base_url = ""
        for line in proc.stdout:
            match = re.search(r"DNC Desk sandbox serving (http://\S+)", line)
            if match:
                base_url = match.group(1)
                break
        try:
            result, rows, fetch, bare, export = _measure(base_url, work)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    _print(args.rows, result.rows, len(rows), fetch, bare, export)


def _measure(base_url: str, work: Path) -> tuple[Any, list[list[str]], float, float, float]:
    with ApiClient(base_url, TOKEN) as api:
        started = time.perf_counter()
        rows = [
            [
                e.phone_number,
                e.phone_code,
                str(e.scope),
                e.scope.api_campaign_id,
                e.campaign_name,
                e.insert_date,
                e.reason,
                e.purpose,
                e.id,
                e.campaign_uid,
            ]
            for e in api.iter_dnc(DncQuery())
        ]
        fetch = time.perf_counter() - started

        started = time.perf_counter()
        wb = Workbook(write_only=True)
        ws = wb.create_sheet("Entries")
        ws.append(list(COLUMNS))
        for row in rows:
            ws.append(row)
        wb.save(work / "bare.xlsx")
        bare = time.perf_counter() - started

        started = time.perf_counter()
        result = ExportJob(api, ListKind.DNC, DncQuery(), work / "export.xlsx").run()
        export = time.perf_counter() - started
    return result, rows, fetch, bare, export


def _print(n: int, exported: int, fetched: int, fetch: float, bare: float, export: float) -> None:
    assert exported == fetched == n, (exported, fetched)
    print(f"rows:                      {n:,}")
    print(f"fetch all pages only:      {fetch:.2f} s")
    print(f"bare openpyxl write-only:  {bare:.2f} s ({n / bare:,.0f} rows/s)")
    print(f"export (fetch + write):    {export:.2f} s ({n / export:,.0f} rows/s)")
    print(f"export write part (est.):  {export - fetch:.2f} s")
    print(f"ratio export / bare:       {export / bare:.2f}x (target <= 1.3x)")
    print(f"ratio write part / bare:   {(export - fetch) / bare:.2f}x")


if __name__ == "__main__":
    main()
