"""The window's insert-date filter on a service whose DNC search matches ``insert_date`` as the
spec writes it, a moment (black-box B36 F2, the window's side): the list sent
``YYYY-MM-DD 00:00:00``, so a "moment" or "strict" service showed only the day's midnight
entries as if they were the day's. The list view now asks the service once a connection (the
export's ``ask_day_search``, on a worker) and refuses the filter, showing no list, with the
export's sentence; the export dialog says the same before writing anything."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QDate

from app.api.client import ApiClient
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.export_dialog import ExportDialog
from app.ui.list_view import EntryListView, ListKind
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN

TIMEOUT = 10_000
# Written out, not imported: the old code has no such text.
NOT_BY_DAY = "this service's DNC search matches an insert date as an exact moment, not a day"
DAY = "2026-11-20"


def _seeded(make_sandbox: Callable[..., Any], mode: str, moments: list[str]) -> Any:
    server = make_sandbox(dnc_insert_date=mode)
    server.bulk_seed_dnc((f"30355501{i:02d}", "1", "0", "", "") for i in range(len(moments)))
    for entry_id, moment in enumerate(moments, start=1):
        server.store.execute("UPDATE dnc SET insert_date = ? WHERE id = ?", (moment, entry_id))
    return server


@pytest.fixture
def sessions(tmp_path: Path) -> Iterator[Callable[[Any], Session]]:
    made: list[Session] = []

    def make(server: Any) -> Session:
        s = Session(
            Connection("Test", server.base_url),
            ApiClient(server.base_url, TOKEN),
            ChangeJournal(tmp_path / f"journal{len(made)}.sqlite3"),
        )
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()
        s.journal.close()


def _view(qtbot: Any, runner: TaskRunner, session: Session) -> EntryListView:
    view = EntryListView(ListKind.DNC, runner)
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    return view


def _filter_day(view: EntryListView) -> None:
    view.filter_bar.date_check.setChecked(True)
    view.filter_bar.date_edit.setDate(QDate.fromString(DAY, "yyyy-MM-dd"))


def _searched(qtbot: Any, view: EntryListView) -> None:
    """Search; done when the table loaded or the filter was refused."""
    before = view.model.generation
    view.filter_bar.request_search()

    def settled() -> bool:
        if view.busy:
            return False
        refused = view.count_label.text() == "Not searched"
        return refused or (view.model.generation != before and view.model.total is not None)

    qtbot.waitUntil(settled, timeout=TIMEOUT)


@pytest.mark.parametrize(
    ("mode", "outcome"),
    [
        ("moment", f"so a search of {DAY} would give only the entries inserted at {DAY} 00:00:00"),
        ("strict", "so it cannot search one day's entries"),
    ],
)
def test_a_day_filter_on_a_moment_service_is_refused_not_shown_as_midnight(
    qtbot: Any,
    runner: TaskRunner,
    make_sandbox: Callable[..., Any],
    sessions: Callable[[Any], Session],
    mode: str,
    outcome: str,
) -> None:
    server = _seeded(
        make_sandbox, mode, [f"{DAY} 00:00:00", f"{DAY} 10:30:00", "2026-11-19 09:00:00"]
    )
    view = _view(qtbot, runner, sessions(server))
    assert view.model.total == 3
    messages: list[str] = []
    view.status_message.connect(messages.append)
    _filter_day(view)
    _searched(qtbot, view)
    # No list at all: the midnight entry alone would pass for the day's entries.
    assert view.model.rowCount() == 0 and view.model.total is None
    assert view.count_label.text() == "Not searched"
    problem = view.filter_bar.date_problem
    assert problem.startswith(f"Inserted on: {NOT_BY_DAY}: ")
    assert outcome in problem
    assert problem.endswith(
        "Search without the Inserted on filter: the list's Inserted column gives each entry's day."
    )
    assert not view.filter_bar.date_error.isHidden()
    assert messages[-1].startswith(f"DNC list not searched: {NOT_BY_DAY}: ")
    # Asked once a connection: the next search refuses without asking again.
    asked = view.day_search
    assert asked is not None and not asked.by_day
    _searched(qtbot, view)
    assert view.day_search is asked and view.count_label.text() == "Not searched"
    # Without the filter the list is searched, and the refusal goes.
    view.filter_bar.date_check.setChecked(False)
    assert not view.filter_bar.date_problem
    _searched(qtbot, view)
    assert view.model.total == 3


def test_a_day_filter_on_a_day_service_shows_the_whole_day(
    qtbot: Any,
    runner: TaskRunner,
    make_sandbox: Callable[..., Any],
    sessions: Callable[[Any], Session],
) -> None:
    server = _seeded(
        make_sandbox, "day", [f"{DAY} 00:00:00", f"{DAY} 10:30:00", "2026-11-19 09:00:00"]
    )
    view = _view(qtbot, runner, sessions(server))
    _filter_day(view)
    _searched(qtbot, view)
    assert view.model.total == 2
    assert sorted(view.model.entry(r).id for r in range(2)) == ["1", "2"]
    assert view.day_search is not None and view.day_search.by_day
    assert not view.filter_bar.date_problem


def test_an_empty_strict_list_refuses_the_day_by_its_error(
    qtbot: Any,
    runner: TaskRunner,
    make_sandbox: Callable[..., Any],
    sessions: Callable[[Any], Session],
) -> None:
    server = make_sandbox(dnc_insert_date="strict")
    view = _view(qtbot, runner, sessions(server))
    _filter_day(view)
    _searched(qtbot, view)
    assert view.count_label.text() == "Not searched"
    problem = view.filter_bar.date_problem
    assert problem.startswith(
        f"Inserted on: {NOT_BY_DAY}: it refused a search with insert_date={DAY}"
    )
    assert "so it cannot search one day's entries" in problem


def test_the_export_dialog_refuses_the_day_filter_in_the_windows_words(
    qtbot: Any,
    runner: TaskRunner,
    make_sandbox: Callable[..., Any],
    sessions: Callable[[Any], Session],
    tmp_path: Path,
) -> None:
    server = _seeded(make_sandbox, "moment", [f"{DAY} 00:00:00", f"{DAY} 10:30:00"])
    session = sessions(server)
    view = _view(qtbot, runner, session)
    _filter_day(view)
    query = view.filter_bar.query()
    assert query is not None
    dialog = ExportDialog(
        session, runner, AppPaths.default(), "dnc", query, view.filter_bar.describe()
    )
    qtbot.addWidget(dialog)
    out = tmp_path / "out" / "day.xlsx"
    dialog.path_edit.setText(str(out))
    dialog.show()
    dialog.export_button.click()
    qtbot.waitUntil(lambda: dialog.task is not None and not dialog.task.running, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: dialog.status.text() != "Counting the rows…", timeout=TIMEOUT)
    text = dialog.status.text()
    assert text.startswith(f"Export not started: {NOT_BY_DAY}: entry 2, inserted {DAY} 10:30:00")
    assert text.endswith(
        "Export without the Inserted on filter: the file's insert_date column gives each "
        "entry's day."
    )
    assert "--insert-date" not in text and "Traceback" not in text
    assert dialog.export_result is None and not out.exists()
    assert dialog.bar.isHidden() and dialog.export_button.isEnabled()
