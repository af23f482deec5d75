"""``dnc-desk --self-test``: prove an installation or a frozen bundle works end to end.

What it does, each step through the application's own code:

1. isolates itself: config and data go to a fresh temporary folder (``DNC_DESK_CONFIG_DIR`` /
   ``DNC_DESK_DATA_DIR``) and tokens to an in-memory keyring, so the user's settings, change
   journal and keyring are never read or written;
2. checks that keyring's backends for this platform can be found and loaded (a bundle must
   carry keyring's entry-point metadata and its dynamically imported backend modules);
3. opens the main window offscreen and starts the sandbox from it, as *Sandbox ▸ Open the
   sandbox* does (a child process: the frozen app re-runs itself with ``sandbox``);
4. waits for the DNC tab's first search, then types the first listed number into its filter
   bar and presses *Search*;
5. switches to the SMS opt-out tab and presses *Refresh*;
6. exports the DNC tab's filtered search to xlsx through the Export dialog, into a temporary
   folder, and reads the file back with :func:`app.core.sheet_reader.open_sheet` (a child
   process: the frozen app re-runs itself with ``--sheet-worker``);
7. checks the phone-number metadata and the US holiday calendar the spreadsheet checks use;
8. closes the window, which stops the sandbox.

It prints one line and exits 0, or prints one line naming the step that failed (and why) on
standard error and exits 1. Waiting is done in a Qt event loop with a per-step time limit
(``DNC_DESK_SELF_TEST_TIMEOUT`` seconds, default 60); a message box or any other dialog that
opens unexpectedly fails the step with its text.

Test hook: ``DNC_DESK_SELF_TEST_EXPORT_DIR`` names the folder the export is written to
(default: inside the temporary folder). Pointing it somewhere unwritable makes the *export*
step fail for real, which is how the tests check that a failure is reported.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from app.core.paths import CONFIG_ENV, DATA_ENV

EXPORT_DIR_ENV = "DNC_DESK_SELF_TEST_EXPORT_DIR"
TIMEOUT_ENV = "DNC_DESK_SELF_TEST_TIMEOUT"
DEFAULT_STEP_TIMEOUT = 60.0
PASSED_PREFIX = "dnc-desk self-test passed"
FAILED_PREFIX = "dnc-desk self-test FAILED at"

# keyring's entry-point names of the backends each platform uses (keyring.backends.<name>).
_PLATFORM_BACKENDS = {
    "win32": ("Windows",),
    "darwin": ("macOS",),
}
_DEFAULT_BACKENDS = ("SecretService", "libsecret", "KWallet")


class StepFailed(Exception):
    """A step of the self-test did not do what it should; ``step`` names it."""

    def __init__(self, step: str, reason: str) -> None:
        super().__init__(f"{step}: {reason}")
        self.step = step
        self.reason = reason


def run_self_test() -> int:
    """Run every step; print one line; return the process exit code."""
    started = time.monotonic()
    step = "start"
    try:
        with (
            tempfile.TemporaryDirectory(
                prefix="dnc-desk-self-test-", ignore_cleanup_errors=True
            ) as tmp,
            _isolated(Path(tmp)),
            _quiet_qt(),
        ):
            results = _SelfTest(Path(tmp), _step_timeout()).run()
    except StepFailed as exc:
        step, reason = exc.step, exc.reason
    except Exception as exc:  # an unexpected error still names where it happened
        reason = f"{type(exc).__name__}: {exc}"
    else:
        elapsed = time.monotonic() - started
        print(f"{PASSED_PREFIX} in {elapsed:.1f} s: " + "; ".join(results), flush=True)
        return 0
    print(f"{FAILED_PREFIX} {step}: {_one_line(reason)}", file=sys.stderr, flush=True)
    return 1


def _step_timeout() -> float:
    try:
        return max(1.0, float(os.environ.get(TIMEOUT_ENV, DEFAULT_STEP_TIMEOUT)))
    except ValueError:
        return DEFAULT_STEP_TIMEOUT


def _one_line(text: str) -> str:
    return " ".join(str(text).split()) or "(no reason given)"


@contextlib.contextmanager
def _isolated(tmp: Path) -> Iterator[None]:
    """Temporary config/data dirs and an in-memory keyring for the duration of the test."""
    import keyring
    import keyring.core

    saved_env = {name: os.environ.get(name) for name in (CONFIG_ENV, DATA_ENV)}
    # Read without keyring.get_keyring(), which would initialise (probe) the user's keyring.
    saved_keyring = getattr(keyring.core, "_keyring_backend", None)
    os.environ[CONFIG_ENV] = str(tmp / "config")
    os.environ[DATA_ENV] = str(tmp / "data")
    keyring.set_keyring(_memory_keyring())
    try:
        yield
    finally:
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        with contextlib.suppress(AttributeError):
            keyring.core._keyring_backend = saved_keyring


@contextlib.contextmanager
def _quiet_qt() -> Iterator[None]:
    """Keep Qt's chatter (the offscreen platform warns about window hints it ignores) off the
    output, which is the one result line; fatal messages still reach standard error."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, _context: object, message: str) -> None:
        if kind == QtMsgType.QtFatalMsg:
            print(message, file=sys.stderr, flush=True)

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)


def _memory_keyring() -> Any:
    import keyring.backend

    passwords: dict[tuple[str, str], str] = {}

    class SelfTestKeyring(keyring.backend.KeyringBackend):
        """Holds secrets in this process only; the self-test never touches the real keyring."""

        priority = 1

        def get_password(self, service: str, username: str) -> str | None:
            return passwords.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            passwords[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            passwords.pop((service, username), None)

    return SelfTestKeyring()  # type: ignore[no-untyped-call]


class _SelfTest:
    """The steps; each raises :class:`StepFailed` naming itself."""

    def __init__(self, tmp: Path, timeout: float) -> None:
        self.tmp = tmp
        self.timeout = timeout
        self.window: Any = None
        self.allowed_dialogs: list[Any] = []
        self.results: list[str] = []

    def run(self) -> list[str]:
        self.check_keyring()
        try:
            self.open_window()
            self.start_sandbox()
            phone, rows = self.search_dnc()
            self.search_sms()
            path = self.export(rows)
            self.read_back(path, phone, rows)
            self.check_phone_and_calendar_data()
        except BaseException:
            # The step that failed is what gets reported, not a complaint from closing.
            with contextlib.suppress(Exception):
                self.close_window()
            raise
        self.close_window()
        return self.results

    # ------------------------------------------------------------------ waiting
    def wait(
        self,
        step: str,
        done: Callable[[], bool],
        problem: Callable[[], str | None] = lambda: None,
        timeout: float | None = None,
    ) -> None:
        """Run the Qt event loop until ``done()``; fail ``step`` on ``problem()`` (a reason),
        on an unexpected dialog, or after the time limit."""
        from PySide6.QtCore import QEventLoop, QTimer

        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        outcome: list[str | None] = []
        loop = QEventLoop()

        def poll() -> None:
            if outcome:
                return
            dialog = self._unexpected_dialog()  # closed in any case: it would block the loop
            reason = problem() or dialog
            if reason is None and not done() and time.monotonic() > deadline:
                reason = f"no result within {limit:g} s"
            if reason is not None or done():
                outcome.append(reason)
                loop.quit()

        timer = QTimer()
        timer.setInterval(20)
        timer.timeout.connect(poll)
        timer.start()
        QTimer.singleShot(0, poll)
        loop.exec()
        timer.stop()
        if outcome and outcome[0] is not None:
            raise StepFailed(step, outcome[0])

    def _unexpected_dialog(self) -> str | None:
        """Close the first visible dialog the test did not open and return what it said."""
        from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

        for widget in QApplication.topLevelWidgets():
            if not isinstance(widget, QDialog) or not widget.isVisible():
                continue
            if any(widget is allowed for allowed in self.allowed_dialogs):
                continue
            text = widget.windowTitle()
            if isinstance(widget, QMessageBox):
                text = f"{text}: {widget.text()}"
            widget.done(0)
            return f"a dialog opened: {text or type(widget).__name__}"
        return None

    # ------------------------------------------------------------------ steps
    def check_keyring(self) -> None:
        from importlib.metadata import entry_points

        step = "keyring backends"
        names = _PLATFORM_BACKENDS.get(sys.platform, _DEFAULT_BACKENDS)
        found = {ep.name: ep for ep in entry_points(group="keyring.backends")}
        missing = [name for name in names if name not in found]
        if missing:
            raise StepFailed(step, f"keyring's entry points lack {', '.join(missing)}")
        for name in names:
            try:
                found[name].load()
            except Exception as exc:
                raise StepFailed(step, f"{name} does not load ({exc})") from None
        self.results.append(f"keyring backends {'+'.join(names)} load")

    def open_window(self) -> None:
        step = "window"
        if os.environ.get("QT_QPA_PLATFORM") != "offscreen":
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        try:
            from app.core.paths import AppPaths
            from app.ui.application import create_application
            from app.ui.main_window import MainWindow

            app = create_application(sys.argv[:1])
            paths = AppPaths.default()
            if not str(paths.data_dir).startswith(str(self.tmp)):
                raise StepFailed(step, f"data dir {paths.data_dir} is not the temporary one")
            self.window = MainWindow(paths, sandbox_timeout=self.timeout)
            self.window.show()
            self.window.start(sandbox=True)
        except StepFailed:
            raise
        except Exception as exc:
            raise StepFailed(step, f"{type(exc).__name__}: {exc}") from None
        window = self.window
        self.wait(step, lambda: window.state.backend is not None)
        self.check_svg_icon(step)
        self.results.append(f"main window on Qt platform {app.platformName()}")

    def check_svg_icon(self, step: str) -> None:
        """The window icon is the SVG from resources/: it must be found (resources resolve in
        a bundle too) and drawn, which needs Qt's SVG icon engine plugin."""
        from PySide6.QtGui import QIcon

        from app.core.resources import resource_path

        svg = resource_path("dnc-desk.svg")
        if not svg.is_file():
            raise StepFailed(step, f"the application icon is missing ({svg})")
        if QIcon(str(svg)).pixmap(64, 64).isNull():
            raise StepFailed(step, f"the application icon {svg.name} does not render")

    def start_sandbox(self) -> None:
        window = self.window
        failures: list[str] = []
        window.sandbox_failed.connect(failures.append)

        def ready() -> bool:
            backend = window.state.backend
            return (
                backend is not None
                and backend.sandbox is not None
                and window.state.session is not None
            )

        self.wait(
            "sandbox",
            ready,
            lambda: failures[0] if failures else None,
            timeout=self.timeout + 10,
        )
        self.results.append(f"sandbox at {window.state.session.connection.base_url}")

    def _wait_for_search(self, step: str, view: Any) -> None:
        model = view.model

        def problem() -> str | None:
            failed = model.failed
            return None if failed is None else f"{type(failed).__name__}: {failed}"

        self.wait(step, lambda: model.total is not None and not model.loading, problem)

    def search_dnc(self) -> tuple[str, list[Any]]:
        """The view's own first search, then a search by one listed number typed into the
        filter bar. Returns the number and the rows of the second search."""
        from app.core.phones import normalize

        step = "DNC search"
        view = self.window.list_views["dnc"]
        self.window.tabs.setCurrentWidget(view)
        self._wait_for_search(step, view)
        total = view.model.total
        if not total or view.model.rowCount() == 0:
            raise StepFailed(step, f"the DNC list shows no entries (service total {total})")
        typed = ""
        for entry in view.model.entries():
            candidate = f"+{entry.phone_code} {entry.phone_number}"
            if normalize(candidate, None).ok:
                typed = candidate
                break
        if not typed:
            raise StepFailed(step, "no listed DNC number is a valid phone number")
        view.filter_bar.phone_edit.setText(typed)
        view.filter_bar.search_button.click()
        self._wait_for_search(step, view)
        rows = list(view.model.entries())
        number = typed.split(" ", 1)[1]
        if not rows or any(row.phone_number != number for row in rows):
            found = sorted({row.phone_number for row in rows})
            raise StepFailed(step, f"searching {typed} showed {found or 'nothing'}")
        self.results.append(f"DNC search {total:,} entries, {len(rows)} for {typed}")
        return number, rows

    def search_sms(self) -> None:
        step = "SMS opt-out search"
        view = self.window.list_views["sms"]
        self.window.tabs.setCurrentWidget(view)
        self._wait_for_search(step, view)  # the search the view ran on connecting
        self.window.act_refresh.trigger()  # F5: reload the campaigns, search again
        self._wait_for_search(step, view)
        total = view.model.total
        if not total or view.model.rowCount() == 0:
            raise StepFailed(step, f"the SMS opt-out list shows no entries (total {total})")
        self.results.append(f"SMS opt-out search {total:,} entries")

    def export(self, rows: list[Any]) -> Path:
        step = "export"
        window = self.window
        window.tabs.setCurrentWidget(window.list_views["dnc"])
        folder = Path(os.environ.get(EXPORT_DIR_ENV) or self.tmp / "export")
        window.job_features.act_export.trigger()
        dialog = window.job_features.dialog
        if dialog is None or not hasattr(dialog, "export_button"):
            raise StepFailed(step, "the Export dialog did not open")
        self.allowed_dialogs.append(dialog)
        try:
            out = folder / "self-test-export.xlsx"
            dialog.path_edit.setText(str(out))
            dialog.export_button.click()

            def problem() -> str | None:
                task = dialog.task
                if task is not None and not task.running and dialog.export_result is None:
                    return dialog.status.text() or "the export stopped without a file"
                return None

            self.wait(step, lambda: dialog.export_result is not None, problem)
            result = dialog.export_result
        finally:
            dialog.reject()
        if result.rows != len(rows) or not out.is_file():
            raise StepFailed(step, f"wrote {result.rows} rows, the search showed {len(rows)}")
        self.results.append(f"xlsx export of {result.rows} row{'s' if result.rows != 1 else ''}")
        return out

    def read_back(self, path: Path, phone: str, rows: list[Any]) -> None:
        from app.core.export_job import COLUMNS
        from app.core.sheet_reader import open_sheet

        step = "read back"
        try:
            with open_sheet(path) as source:
                read = [cells for _, cells in source.iter_rows()]
        except Exception as exc:
            raise StepFailed(step, f"{type(exc).__name__}: {exc}") from None
        header = tuple(str(cell) for cell in read[0]) if read else ()
        if header[: len(COLUMNS)] != COLUMNS:
            raise StepFailed(step, f"{path.name} has the header {list(header)}")
        ids = sorted(str(cells[COLUMNS.index("id")]) for cells in read[1:])
        phones = {str(cells[0]) for cells in read[1:]}
        if ids != sorted(row.id for row in rows) or phones != {phone}:
            raise StepFailed(step, f"{path.name} holds other rows than the search: {read[1:]}")
        count = len(read) - 1
        self.results.append(
            f"read back {count} row{'s' if count != 1 else ''} with the sheet reader"
        )

    def check_phone_and_calendar_data(self) -> None:
        from app.core.phones import normalize, region_name
        from app.core.sheet_dates import is_business_day

        step = "phone and holiday data"
        uk = normalize("+44 20 7946 0958", None)
        if not uk.ok or uk.phone_code != "44":
            raise StepFailed(step, f"a London number is not recognised ({uk.reason})")
        name = region_name("351")  # not in the app's own table: read from phonenumbers' data
        if name != "Portugal":
            raise StepFailed(step, f"country code 351 is named {name!r}")
        if is_business_day(dt.date(2025, 7, 4)) or not is_business_day(dt.date(2025, 7, 7)):
            raise StepFailed(step, "the US federal holiday calendar is wrong for July 2025")
        self.results.append("phone metadata and US holidays ok")

    def close_window(self) -> None:
        window, self.window = self.window, None
        if window is None:
            return
        backend = window.state.backend
        sandbox = backend.sandbox if backend is not None else None
        window.close()
        window.shutdown()
        window.deleteLater()
        from PySide6.QtCore import QCoreApplication, QEvent

        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        if sandbox is not None and sandbox.running:
            raise StepFailed("shutdown", "the sandbox process still runs after the window closed")
