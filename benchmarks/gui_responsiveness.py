"""GUI responsiveness while the import wizard uploads 10,000 rows to a sandbox at 50 ms latency.

The sandbox runs as a separate process (``--latency-ms 50``); the wizard (offscreen) is driven
through every page with a generated xlsx, and a 10 ms ``QTimer`` on the GUI thread records the
gaps between its ticks while the file is checked and while it is staged and sent. A blocked GUI
thread shows up as a long gap. Prints the median, the 99th percentile and the worst gap (target:
worst <= 100 ms) and the rows/s of the upload.

    .venv/bin/python benchmarks/gui_responsiveness.py [--rows N] [--concurrency N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import openpyxl  # noqa: E402
from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from benchmarks.sandbox_process import BENCH_TOKEN, sandbox_process  # noqa: E402

TICK_MS = 10


class GapRecorder:
    """A 10 ms timer on the GUI thread; each tick records the time since the previous one."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self._clock = QElapsedTimer()
        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self._clock.start()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _tick(self) -> None:
        self.gaps.append(self._clock.nsecsElapsed() / 1e6)
        self._clock.restart()


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    loop = QEventLoop()
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        QTimer.singleShot(5, loop.quit)
        loop.exec()


def report(name: str, gaps: list[float]) -> float:
    ordered = sorted(gaps)
    p99 = ordered[int(len(ordered) * 0.99) - 1] if ordered else 0.0
    worst = ordered[-1] if ordered else 0.0
    print(
        f"{name:<22} ticks {len(gaps):>6,}  median {statistics.median(gaps):6.1f} ms  "
        f"p99 {p99:6.1f} ms  worst {worst:6.1f} ms"
    )
    return worst


def write_file(path: Path, rows: int) -> None:
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Opt-outs")
    ws.append(["Phone", "Reason"])
    for i in range(rows):
        ws.append([f"({200 + i // 10000 + 2}) 555-{i % 10000:04d}", "Consumer request"])
    wb.save(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency-ms", type=int, default=50)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([sys.argv[0]])

    with tempfile.TemporaryDirectory(prefix="dnc-gui-bench-") as tmp:
        os.environ["DNC_DESK_CONFIG_DIR"] = str(Path(tmp) / "config")
        os.environ["DNC_DESK_DATA_DIR"] = str(Path(tmp) / "data")
        from app.api.client import ApiClient
        from app.core.connections import Connection
        from app.core.journal import ChangeJournal
        from app.core.paths import AppPaths
        from app.core.session import Session
        from app.ui.import_wizard import ImportWizard
        from app.ui.tasks import TaskRunner

        file = Path(tmp) / "opt-outs.xlsx"
        write_file(file, args.rows)
        extra = ["--latency-ms", str(args.latency_ms), "--empty"]
        with sandbox_process(extra) as base_url:
            paths = AppPaths.default()
            session = Session(
                Connection("bench", base_url),
                ApiClient(base_url, BENCH_TOKEN),
                ChangeJournal(paths.journal_db),
            )
            runner = TaskRunner()
            wizard = ImportWizard(session, runner, paths, file)
            wizard.show()
            wait_until(lambda: wizard.source_page.probe is not None, 60, "the file")
            wait_until(lambda: bool(wizard.campaign_lookup) or True, 5, "campaigns")
            wizard.next()
            wizard.next()
            wizard.target_page.note_edit.setText("GUI responsiveness benchmark")
            wizard.target_page.concurrency_spin.setValue(args.concurrency)

            check = GapRecorder()
            check.start()
            wizard.next()
            wait_until(lambda: wizard.check_page.result is not None, 120, "the check")
            check.stop()
            result = wizard.check_page.result
            assert result is not None and result.summary.valid == args.rows, result.summary

            finished: list[dict[str, object]] = []
            wizard.job_finished.connect(finished.append)
            run = GapRecorder()
            run.start()
            started = time.perf_counter()
            wizard.next()
            wait_until(lambda: bool(finished), 3600, "the upload")
            elapsed = time.perf_counter() - started
            run.stop()
            summary = finished[0]
            runner.wait()
            wizard.close()
            wizard.deleteLater()
            runner.deleteLater()
            app.processEvents()
            session.close()
            session.journal.close()

    sent = int(summary["inserted"]) + int(summary["already_present"])  # type: ignore[call-overload]
    print(
        f"rows: {args.rows:,}; sandbox latency {args.latency_ms} ms; concurrency {args.concurrency}"
    )
    report("check page", check.gaps)
    worst = report("staging + upload", run.gaps)
    print(
        f"upload: {sent:,} rows in {elapsed:.1f} s = {sent / elapsed:,.0f} rows/s "
        f"(ideal {args.concurrency / (args.latency_ms / 1000):,.0f}); failed {summary['failed']}"
    )
    print(f"worst gap {worst:.1f} ms: {'OK' if worst <= 100 else 'OVER'} (target <= 100 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
