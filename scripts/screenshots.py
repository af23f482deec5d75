"""Regenerate the README's screenshots (docs/screenshots/*.png) from the real window.

Runs offscreen on its own temporary config and data folders with the sandbox's demo data, so
nothing of the user's (connections, journal, paths) can show up in a picture, and drives the
window to each state the README shows before grabbing it at the size the file has had::

    .venv/bin/python scripts/screenshots.py                 # all it knows, into docs/screenshots
    .venv/bin/python scripts/screenshots.py import-check --out /tmp/shots

Look at each PNG before committing it: the demo data's dates follow today's date.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "docs" / "screenshots"
WAIT_SECONDS = 60.0
# Rows of the import-check file: enough to look like a vendor's list, few enough to check fast.
FILLER_ROWS = 3000
WIZARD_SIZE = (1000, 700)
# The run page is grabbed once this many rows were sent, before the import ends.
RUN_SHOWN_AT = 600
# The rows of the DNC list's first page picked for the removal dialog.
DELETE_ROWS = (1, 2, 4)
HAND_ADDED = ("3125550199", "2025550143")
IMPORT_PAGES = (
    "import-file",
    "import-mapping",
    "import-target",
    "import-check",
    "import-run",
    "import-result",
)


def _isolate(folder: Path) -> None:
    """Point the app at empty folders before it is imported, so it reads nothing of the user's."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    for name in ("config", "data"):
        (folder / name).mkdir()
    os.environ["DNC_DESK_CONFIG_DIR"] = str(folder / "config")
    os.environ["DNC_DESK_DATA_DIR"] = str(folder / "data")
    # A token of the user's environment must not reach the sandbox window.
    os.environ.pop("DNC_DESK_TOKEN", None)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def _wait(what: str, ready: Callable[[], bool], seconds: float = WAIT_SECONDS) -> None:
    from PySide6.QtCore import QCoreApplication

    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise SystemExit(f"Gave up after {seconds:.0f} s waiting for {what}.")
        QCoreApplication.processEvents()
        time.sleep(0.02)


def _settle(seconds: float = 0.5) -> None:
    """Let late repaints and status messages land before a grab."""
    from PySide6.QtCore import QCoreApplication

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QCoreApplication.processEvents()
        time.sleep(0.02)


def _business_days_before(day: dt.date, count: int) -> dt.date:
    while count:
        day -= dt.timedelta(days=1)
        if day.weekday() < 5:
            count -= 1
    return day


def opt_out_requests(path: Path, today: dt.date) -> Path:
    """A vendor's opt-out requests: a title above the table, one late request, a number a
    spreadsheet turned into scientific notation, one too short, one repeated, a UK number with
    its country in a column of its own, one with a decimal written into it, then the bulk."""
    import openpyxl

    recent = _business_days_before(today, 1).isoformat()
    late = _business_days_before(today, 21).isoformat()
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Opt-out requests received by Acme Leads in November"])
    sheet.append([])
    sheet.append(["Mobile #", "Country", "Opt-out reason", "Date received"])
    sheet.append(["(202) 555-0143", 1, "Asked not to be called", late])  # 4: late
    sheet.append(["2.02555E+09", 1, "Vendor export", recent])  # 5: damaged, invalid
    sheet.append(["312-555-0199", 1, "STOP reply", recent])
    sheet.append(["12345", 1, "Typo in the vendor file", recent])  # 7: too short
    sheet.append(["020 7946 0958", 44, "Written complaint", recent])
    sheet.append(["(202) 555-0143", 1, "Asked again", recent])  # 9: duplicate of row 4
    sheet.append(["2025550123.0", 1, "Vendor export", recent])
    for i in range(FILLER_ROWS):
        sheet.append([f"(415) 550-{i:04d}", 1, "Bulk vendor list", recent])
    book.save(path)
    return path


class Shots:
    """One window on the sandbox, driven from state to state."""

    def __init__(self, out: Path, work: Path) -> None:
        from app.core.paths import AppPaths
        from app.ui.application import create_application
        from app.ui.main_window import MainWindow

        self.out = out
        self.work = work
        self.app = create_application()
        self.window = MainWindow(AppPaths.default())
        self.window.resize(1280, 800)
        self.window.show()
        # Fresh folders: the window opens on its welcome page, as on a first start.
        self.window.start(sandbox=False)
        first_run = self.window.PAGE_FIRST_RUN
        _wait("the welcome page", lambda: self.window.stack.currentIndex() == first_run)
        _settle(1.0)  # the journal's check lands in the status bar

    def first_run(self) -> Path:
        return self.save("first-run", self.window, (1280, 800))

    def connect(self) -> None:
        """Try the sandbox, as the welcome page's button does."""
        self.window.start_sandbox()
        _wait("the sandbox", lambda: self.window.state.session is not None)
        _settle()

    def close(self) -> None:
        self.window.close()
        self.window.shutdown()

    def save(self, name: str, widget: object, size: tuple[int, int]) -> Path:
        from PySide6.QtWidgets import QWidget

        assert isinstance(widget, QWidget)
        widget.resize(*size)
        _settle()
        path = self.out / f"{name}.png"
        if not widget.grab().save(str(path), "PNG"):
            raise SystemExit(f"Could not write {path}; check that the folder can be written.")
        return path

    # ----------------------------------------------------------------- the states
    def list_view(self, kind: str) -> Path:
        """A list's first page as the window opens it, unfiltered."""
        from app.ui.list_view import EntryListView

        view = self.window.list_views[kind]
        assert isinstance(view, EntryListView)
        self.window.tabs.setCurrentWidget(view)
        view.refresh()
        _wait(f"the {kind} list", lambda: bool(view.status_text()) and not view.busy)
        return self.save(f"{kind}-view", self.window, (1280, 800))

    def connections(self) -> Path:
        self.window.show_connections()
        dialog = self.window.connections_dialog
        assert dialog is not None
        try:
            return self.save("connections", dialog, (820, 480))
        finally:
            dialog.close()

    def delete_dialog(self) -> Path:
        """Three DNC entries picked for removal (ids 2, 3 and 5: two US, one UK)."""
        from PySide6.QtCore import QItemSelectionModel

        from app.ui.list_view import EntryListView

        view = self.window.list_views["dnc"]
        assert isinstance(view, EntryListView)
        self.window.tabs.setCurrentWidget(view)
        _wait("the DNC list", lambda: bool(view.status_text()) and not view.busy)
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        selection = view.table.selectionModel()
        selection.clearSelection()
        for row in DELETE_ROWS:
            selection.select(view.table.model().index(row, 0), flags)
        view.delete_selected()
        dialog = view.dialog
        assert dialog is not None
        _settle(1.5)  # the dialog looks up the entries' ages and the lead statuses
        try:
            return self.save("delete-dialog", dialog, (620, 533))
        finally:
            dialog.reject()

    def add_by_hand(self) -> None:
        """Two numbers added one at a time, as an officer does before a file: the change
        journal then has their entries, and the import finds them already on the list."""
        from app.api.scope import Scope

        session = self.window.state.session
        assert session is not None
        for number in HAND_ADDED:
            session.insert_dnc(number, "1", Scope.global_())

    def journal(self) -> Path:
        view = self.window.journal_view
        self.window.tabs.setCurrentWidget(view)
        view.verify()
        _wait("the journal's check", lambda: not view._verifying)
        view.refresh()
        _wait("the journal", lambda: view.model.rowCount() >= 2 * len(HAND_ADDED))
        return self.save("journal-view", self.window, (1280, 800))

    def jobs(self) -> Path:
        view = self.window.job_features.jobs_view
        self.window.tabs.setCurrentWidget(view)
        view.refresh()
        _wait("the jobs", lambda: view.model.rowCount() > 0)
        return self.save("jobs-tab", self.window, (1280, 800))

    def import_walk(self, wanted: set[str]) -> list[Path]:
        """One import of the vendor's file, saving the wizard's pages named in ``wanted`` on
        the way (run and result send it, so the walk stops at the last page wanted)."""
        if not wanted:
            return []
        file = opt_out_requests(self.work / "vendor-opt-outs-november.xlsx", dt.date.today())
        wizard = self.window.job_features.import_file(file)
        assert wizard is not None
        wizard.resize(*WIZARD_SIZE)
        last = max(IMPORT_PAGES.index(name) for name in wanted)
        saved: list[Path] = []

        def page(name: str) -> bool:
            if name in wanted:
                saved.append(self.save(name, wizard, WIZARD_SIZE))
            return IMPORT_PAGES.index(name) < last

        try:
            _wait("the file's preview", lambda: wizard.source_page.probe is not None)
            _wait("the campaigns", lambda: bool(wizard.campaign_lookup))
            if not page("import-file"):
                return saved
            wizard.next()
            if not page("import-mapping"):
                return saved
            wizard.next()
            wizard.target_page.note_edit.setText("Acme Leads file of 7 Nov, ticket 4411")
            if not page("import-target"):
                return saved
            wizard.next()
            _wait("the check", lambda: wizard.check_page.result is not None)
            if not page("import-check"):
                return saved
            wizard.next()  # Start import
            _wait("the import to start", lambda: wizard.currentId() == wizard.PAGE_RUN)
            run = wizard.run_page
            _wait("the first rows sent", lambda: _done(run.handle) >= RUN_SHOWN_AT)
            if not page("import-run"):
                return saved
            _wait("the import to end", lambda: wizard.currentId() == wizard.PAGE_RESULT)
            page("import-result")
            return saved
        finally:
            wizard.close()

    def audit_result(self) -> Path:
        features = self.window.audit_features
        view = features.campaigns_view
        self.window.tabs.setCurrentWidget(view)
        _wait("the campaigns", lambda: view.select_campaign("1003"))
        view.audit_selected()
        _wait("the audit", lambda: view.audit_view.result is not None)
        self.window.resize(1280, 800)
        _settle()
        _fit_last_column(view.audit_view.conflict_table, narrow="List")
        return self.save("audit-result", self.window, (1280, 800))


def _fit_last_column(table: object, narrow: str) -> None:
    """Narrow the column headed ``narrow`` as a user would drag it, so the last column and its
    heading fit the view: the README shows the conflicts' date column and what its clock is,
    and the list names stay whole on the summary line above."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QTableView

    assert isinstance(table, QTableView)
    header = table.horizontalHeader()
    model = table.model()
    columns = model.columnCount()
    names = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(columns)]
    last = columns - 1
    header.resizeSection(last, max(header.sectionSizeFromContents(last).width(),
                                   table.sizeHintForColumn(last)))  # fmt: skip
    overflow = header.length() - table.viewport().width()
    if overflow > 0:
        column = names.index(narrow)
        header.resizeSection(column, header.sectionSize(column) - overflow)


def _done(handle: object) -> int:
    progress = getattr(handle, "last_progress", None)
    return int(getattr(progress, "done", 0))


SHOTS: dict[str, Callable[[Shots], Path]] = {
    "dnc-view": lambda shots: shots.list_view("dnc"),
    "delete-dialog": Shots.delete_dialog,
    "sms-view": lambda shots: shots.list_view("sms"),
    "connections": Shots.connections,
    "audit-result": Shots.audit_result,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="screenshots to make (default all), named as their files")  # fmt: skip
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for the PNGs")
    args = parser.parse_args(argv)
    known = ["first-run", *SHOTS, "journal-view", *IMPORT_PAGES, "jobs-tab"]
    names = args.names or known
    unknown = [name for name in names if name not in known]
    if unknown:
        parser.error(f"no screenshot named {', '.join(unknown)}; choose from {', '.join(known)}")
    with tempfile.TemporaryDirectory(prefix="dnc-desk-shot-") as work:
        _isolate(Path(work))
        shots = Shots(args.out, Path(work))
        try:
            if "first-run" in names:
                print(shots.first_run())
            shots.connect()
            for name in names:
                if name in SHOTS:
                    print(SHOTS[name](shots))
            # The states below follow one another: entries added by hand, then the import.
            shots.add_by_hand()
            if "journal-view" in names:
                print(shots.journal())
            for path in shots.import_walk({n for n in names if n in IMPORT_PAGES}):
                print(path)
            if "jobs-tab" in names:
                print(shots.jobs())
        finally:
            shots.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
