"""``dnc-desk --self-test``: prove an installation or frozen bundle works end to end.

Starts an in-memory sandbox on loopback, calls it through the API client, and loads Qt
offscreen. Used by the packaging script on the frozen binary.
"""

from __future__ import annotations

import os
import sys


def run_self_test() -> int:
    from app.api.client import ApiClient
    from app.sandbox.runner import SandboxServer

    checks: list[tuple[str, bool, str]] = []
    with SandboxServer(demo=True) as server, ApiClient(server.base_url, "sandbox-token") as api:
        try:
            campaigns = api.campaigns()
            page = api.search_dnc(limit=10)
            checks.append(
                ("sandbox API", True, f"{len(campaigns)} campaigns, {page.total} DNC entries")
            )
        except Exception as exc:
            checks.append(("sandbox API", False, str(exc)))
    checks.append(_spreadsheet_check())
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        from PySide6.QtGui import QGuiApplication
        from PySide6.QtWidgets import QApplication

        if QApplication.instance() is None:
            QApplication(sys.argv[:1])
        checks.append(("Qt", True, f"platform {QGuiApplication.platformName()}"))
    except Exception as exc:
        checks.append(("Qt", False, str(exc)))
    for name, ok, detail in checks:
        print(f"{'ok ' if ok else 'FAIL'} {name}: {detail}")
    return 0 if all(ok for _, ok, _ in checks) else 1


def _spreadsheet_check() -> tuple[str, bool, str]:
    """Write a small xlsx and read it back through the reader's child process (which a
    frozen bundle starts by re-running itself with the sheet-worker flag)."""
    import tempfile
    from pathlib import Path

    from openpyxl import Workbook

    from app.core.sheet_reader import open_sheet

    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "self-test.xlsx"
            book = Workbook()
            sheet = book.active
            assert sheet is not None
            sheet.append(["Phone"])
            sheet.append(["(202) 555-0143"])
            book.save(path)
            with open_sheet(path) as source:
                rows = list(source.iter_rows())
        ok = [cells[0] for _, cells in rows] == ["Phone", "(202) 555-0143"]
        return ("spreadsheet reader", ok, f"{len(rows)} rows read back")
    except Exception as exc:
        return ("spreadsheet reader", False, str(exc))
