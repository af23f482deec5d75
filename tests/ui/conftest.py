"""UI fixtures: a task runner, a journaled session on a fresh sandbox, a main window on
isolated dirs, and a list view that follows the ``EntryListView`` contract while running
real searches against the sandbox."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QLabel, QMessageBox, QVBoxLayout, QWidget

from app.api.client import ApiClient
from app.api.errors import AuthInvalidError, AuthMissingError
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.main_window import MainWindow
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def no_unexpected_message_box(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message box a test did not expect fails it instead of hanging it: offscreen, a modal
    box waits for a click that never comes, and the suite would stop there until CI's time
    limit (seen when the sandbox could not restart on a loaded machine). A test expecting one
    patches the function itself, as before."""

    def unexpected(kind: str) -> Callable[..., Any]:
        def show(_parent: Any, title: str, text: str, *_a: Any, **_k: Any) -> Any:
            raise AssertionError(f"unexpected {kind} message box: {title!r}: {text!r}")

        return show

    for kind in ("critical", "warning", "information", "question"):
        monkeypatch.setattr(QMessageBox, kind, unexpected(kind))


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    r.cancel_all()
    r.wait()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    """A journaled session on the test's fresh sandbox (two campaigns, one inactive)."""
    s = Session(
        Connection("Test", sandbox.base_url),
        ApiClient(sandbox.base_url, TOKEN),
        ChangeJournal(tmp_path / "journal.sqlite3"),
    )
    yield s
    s.close()
    s.journal.close()


class SearchingListView(QWidget):
    """Implements the list-view contract with one real ``/dnc/search`` (or ``/sms/search``)
    per refresh, so the window's wiring (signals, shortcuts, token retry) is exercised
    against the sandbox independently of the real list view's own tests."""

    status_message = Signal(str)
    auth_problem = Signal(object, object)
    busy_changed = Signal(bool)

    def __init__(self, kind: str, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self.runner = runner
        self.session: Session | None = None
        self.calls: list[str] = []
        self.total: int | None = None
        self.errors: list[BaseException] = []
        self.label = QLabel(f"{kind} view", self)
        QVBoxLayout(self).addWidget(self.label)

    def set_session(self, session: Session | None) -> None:
        self.calls.append("set_session")
        self.session = session
        if session is not None:
            self.refresh()

    def refresh(self) -> None:
        self.calls.append("refresh")
        session = self.session
        if session is None:
            return
        search = session.api.search_dnc if self.kind == "dnc" else session.api.search_sms
        self.busy_changed.emit(True)

        def done(page: Any) -> None:
            self.busy_changed.emit(False)
            self.total = page.total
            self.status_message.emit(f"{self.kind}: {page.total} matches")

        def failed(exc: BaseException) -> None:
            self.busy_changed.emit(False)
            self.errors.append(exc)
            if isinstance(exc, AuthMissingError | AuthInvalidError):
                self.auth_problem.emit(exc, self.refresh)

        self.runner.submit(f"search {self.kind}", lambda _ctx: search(), on_done=done,
                           on_error=failed)  # fmt: skip

    def status_text(self) -> str:
        return f"{self.kind}: {self.total} matches" if self.total is not None else ""

    def focus_filter(self) -> None:
        self.calls.append("focus_filter")

    def add_entry(self) -> None:
        self.calls.append("add_entry")

    def delete_selected(self) -> None:
        self.calls.append("delete_selected")

    def copy_selection(self) -> None:
        self.calls.append("copy_selection")

    def save_state(self, settings: QSettings) -> None:
        settings.setValue(f"test/{self.kind}", "saved")

    def restore_state(self, settings: QSettings) -> None:
        self.calls.append(f"restore:{settings.value(f'test/{self.kind}')}")


@pytest.fixture
def paths() -> AppPaths:
    return AppPaths.default()


@pytest.fixture
def make_window(qtbot: Any, paths: AppPaths) -> Iterator[Callable[..., MainWindow]]:
    """Build main windows with the searching test view; each is shut down afterwards."""
    windows: list[MainWindow] = []

    def factory(**kwargs: Any) -> MainWindow:
        kwargs.setdefault("view_factory", SearchingListView)
        kwargs.setdefault("sandbox_timeout", 20.0)
        window = MainWindow(paths, **kwargs)
        qtbot.addWidget(window)
        windows.append(window)
        return window

    yield factory
    for window in windows:
        window.close()
        window.shutdown()
