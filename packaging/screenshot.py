"""Save screenshots of DNC Desk on a fresh sandbox with demo data (offscreen).

    python packaging/screenshot.py [OUTPUT_DIR]      (default: docs/screenshots/)

Writes first-run.png, dnc-view.png, delete-dialog.png, sms-view.png, connections.png,
journal-view.png, audit-result.png, the import wizard (import-*.png) and jobs-tab.png.
Config and data go to a temporary folder, so the user's own connections are not touched.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QItemSelectionModel, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QDialog, QTableView, QWidget  # noqa: E402

WIDTH, HEIGHT = 1280, 800


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Run the event loop until ``condition`` holds (the window keeps working meanwhile)."""
    deadline = time.monotonic() + timeout
    loop = QEventLoop()
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"screenshot: timed out waiting for {what}")
        QTimer.singleShot(25, loop.quit)
        loop.exec()


def settle(ms: int = 300) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def save(widget: QWidget, folder: Path, name: str) -> Path:
    path = folder / name
    if not widget.grab().save(str(path)):
        raise SystemExit(f"screenshot: could not write {path}")
    print(f"wrote {path}")
    return path


def table_of(view: QWidget) -> QTableView:
    table = view.findChild(QTableView)
    if table is None:
        raise SystemExit("screenshot: the view has no table")
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", default=str(ROOT / "docs" / "screenshots"))
    args = parser.parse_args(argv)
    out = Path(args.output).resolve()
    out.mkdir(parents=True, exist_ok=True)

    with tempfile.TemporaryDirectory(prefix="dnc-desk-shot-") as tmp:
        os.environ["DNC_DESK_CONFIG_DIR"] = str(Path(tmp) / "config")
        os.environ["DNC_DESK_DATA_DIR"] = str(Path(tmp) / "data")
        # Deferred: the paths above must be set before the app reads them.
        from app.core.paths import AppPaths
        from app.ui.application import create_application
        from app.ui.main_window import MainWindow

        app = create_application([sys.argv[0]])
        window = MainWindow(AppPaths.default())
        window.resize(WIDTH, HEIGHT)
        window.show()
        try:
            window.start(sandbox=False)
            wait_until(lambda: window.state.backend is not None, 20, "the stores to open")
            wait_until(
                lambda: window.stack.currentIndex() == window.PAGE_FIRST_RUN, 10, "first run"
            )
            settle()
            save(window, out, "first-run.png")

            window.first_run.sandbox_button.click()
            wait_until(lambda: window.state.session is not None, 60, "the sandbox")
            dnc = window.list_views["dnc"]
            window.tabs.setCurrentWidget(dnc)
            dnc_table = table_of(dnc)
            wait_until(lambda: dnc_table.model().rowCount() > 0, 30, "the DNC table to fill")
            settle(500)
            save(window, out, "dnc-view.png")

            selection = dnc_table.selectionModel()
            for row in (1, 2, 4):
                selection.select(
                    dnc_table.model().index(row, 0),
                    QItemSelectionModel.SelectionFlag.Select
                    | QItemSelectionModel.SelectionFlag.Rows,
                )
            dnc.delete_selected()  # type: ignore[attr-defined]

            def open_dialog() -> QDialog | None:
                for widget in QApplication.topLevelWidgets():
                    if isinstance(widget, QDialog) and widget.isVisible():
                        return widget
                return None

            wait_until(lambda: open_dialog() is not None, 10, "the delete dialog")
            settle(800)
            dialog = open_dialog()
            assert dialog is not None
            save(dialog, out, "delete-dialog.png")
            dialog.reject()
            settle()

            sms = window.list_views["sms"]
            window.tabs.setCurrentWidget(sms)
            sms_table = table_of(sms)
            wait_until(lambda: sms_table.model().rowCount() > 0, 30, "the SMS table to fill")
            settle(500)
            save(window, out, "sms-view.png")

            # A few journaled writes, so the journal screenshot shows what it records.
            session = window.state.session
            assert session is not None
            from app.api.scope import Scope

            writes: list[object] = []

            def write(_ctx: object) -> None:
                session.insert_dnc("2025550143", "1", Scope.global_(), reason="Customer request")
                session.insert_dnc(
                    "3125550199", "1", Scope.global_(), reason="Verbal request on call"
                )

            window.runner.submit(
                "Screenshot writes", write, on_done=writes.append, on_error=writes.append
            )
            wait_until(lambda: bool(writes), 20, "the sample writes")
            window.show_connections()
            connections = window.connections_dialog
            assert connections is not None
            wait_until(lambda: "keyring" in connections.token_state.text(), 10, "token state")
            settle(300)
            save(connections, out, "connections.png")
            connections.reject()
            settle()

            window.tabs.setCurrentWidget(window.journal_view)
            window.journal_view.refresh()
            wait_until(lambda: window.journal_view.model.rowCount() >= 4, 10, "the journal to load")
            settle(500)
            save(window, out, "journal-view.png")
            audit_result_screenshot(window, out)
            import_screenshots(window, out)
        finally:
            window.close()
            window.shutdown()
        del app
    return 0


def audit_result_screenshot(window: QWidget, out: Path) -> Path:
    """Audit the first demo campaign in the Campaigns & audit tab and save its result."""
    features = window.audit_features  # type: ignore[attr-defined]
    view = features.campaigns_view
    window.tabs.setCurrentWidget(view)  # type: ignore[attr-defined]
    wait_until(lambda: view.model.rowCount() > 0, 30, "the campaign list")
    campaign = view.model.row_object(0).campaign
    view.select_campaign(campaign.id)
    finished: list[object] = []
    view.audit_view.audit_finished.connect(finished.append)
    view.audit_selected()
    wait_until(lambda: bool(finished), 120, "the campaign audit")
    wait_until(lambda: not view.audit_view.running, 10, "the audit to settle")
    settle(500)
    fit_last_column(view.audit_view.conflict_table, narrow="List")
    return save(window, out, "audit-result.png")


def fit_last_column(table: QTableView, narrow: str) -> None:
    """Narrow the column headed ``narrow`` as a user would drag it, so the last column and its
    heading fit the view: the README shows the conflicts' date column and what its clock is,
    and the list names stay whole on the summary line above."""
    from PySide6.QtCore import Qt

    header = table.horizontalHeader()
    model = table.model()
    columns = model.columnCount()
    names = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(columns)]
    last = columns - 1
    header.resizeSection(
        last, max(header.sectionSizeFromContents(last).width(), table.sizeHintForColumn(last))
    )
    overflow = header.length() - table.viewport().width()
    if overflow > 0:
        column = names.index(narrow)
        header.resizeSection(column, header.sectionSize(column) - overflow)
        settle(200)


def import_screenshots(window: QWidget, out: Path) -> list[Path]:
    """Drive the import wizard on a sample file: the mapping, check (invalid rows), run and
    result pages, then the Jobs tab."""
    import datetime as dt

    import openpyxl

    features = window.job_features  # type: ignore[attr-defined]
    sample = Path(os.environ["DNC_DESK_DATA_DIR"]) / "vendor-opt-outs-november.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Opt-out requests received by Acme Leads, November"])
    sheet.append([])
    sheet.append(["Mobile #", "Country", "Opt-out reason", "Date received"])
    today = dt.date.today()

    def received(days_ago: int) -> str:
        return (today - dt.timedelta(days=days_ago)).isoformat()

    sheet.append(["(202) 555-0143", 1, "Asked not to be called", received(30)])
    sheet.append(["2.02555E+09", 1, "Vendor export", received(2)])
    sheet.append(["312-555-0199", 1, "STOP reply", received(2)])
    sheet.append(["12345", 1, "Typo in the vendor file", received(2)])
    sheet.append(["020 7946 0958", 44, "Written complaint", received(2)])
    sheet.append(["(202) 555-0143", 1, "Asked again", received(2)])
    sheet.append(["2025550123.0", 1, "Vendor export", received(2)])
    for i in range(3000):
        sheet.append([f"(415) 55{i // 1000}-{i % 1000:04d}", 1, "Bulk vendor list", received(2)])
    book.save(sample)

    wizard = features.import_file(sample)
    wizard.resize(1000, 700)
    saved: list[Path] = []
    wait_until(lambda: wizard.source_page.probe is not None, 30, "the sample file")
    settle(300)
    saved.append(save(wizard, out, "import-file.png"))
    wizard.next()
    settle(300)
    saved.append(save(wizard, out, "import-mapping.png"))
    wizard.next()
    wizard.target_page.note_edit.setText("Acme Leads file of 7 Nov, ticket 4411")
    settle(200)
    saved.append(save(wizard, out, "import-target.png"))
    wizard.next()
    wait_until(lambda: wizard.check_page.result is not None, 60, "the check")
    settle(300)
    saved.append(save(wizard, out, "import-check.png"))
    wizard.next()
    run = wizard.run_page
    wait_until(
        lambda: (
            run.handle is not None
            and run.handle.last_progress is not None
            and run.handle.last_progress.done > 600
        ),
        120,
        "the upload to get going",
    )
    settle(100)
    saved.append(save(wizard, out, "import-run.png"))
    wait_until(lambda: wizard.currentId() == wizard.PAGE_RESULT, 300, "the import to finish")
    settle(300)
    saved.append(save(wizard, out, "import-result.png"))
    wizard.close()
    window.tabs.setCurrentWidget(features.jobs_view)  # type: ignore[attr-defined]
    features.jobs_view.refresh()
    wait_until(lambda: features.jobs_view.model.rowCount() > 0, 10, "the job list")
    settle(500)
    saved.append(save(window, out, "jobs-tab.png"))
    return saved


if __name__ == "__main__":
    raise SystemExit(main())
