"""The Change journal tab's phone filter reads a number as ``journal export --number`` does
(black-box bb11 F4, left in the window after the CLI's fix): ``+44 (0)20 7946 0402``, the 0044
and 011 exit codes, and a national number under the default country code 1 each find the
number's entries, and text that is no phone number (``202-555``, ``hello``) is refused in words
naming the filter and what to write, with nothing listed or exported as its matches (it was
searched as ``+202555`` and showed "0 journal entries match the filter"). The entries are
written by a real session against the sandbox over loopback HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from python_calamine import CalamineWorkbook

from app.api.scope import Scope
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.journal_view import JournalView
from app.ui.tasks import TaskRunner

UK_FORMS = ["+44 (0)20 7946 0402", "0044 20 7946 0402", "011 44 20 7946 0402", "+442079460402"]
US_FORMS = ["(303) 555-0121", "303.555.0121", "+1 303 555 0121", "011 1 303 555 0121"]


@pytest.fixture
def runner(qtbot: Any) -> Any:
    task_runner = TaskRunner()
    yield task_runner
    task_runner.wait(10_000)


@pytest.fixture
def journal(paths: AppPaths) -> Any:
    with ChangeJournal(paths.journal_db) as opened:
        yield opened


@pytest.fixture
def view(qtbot: Any, runner: TaskRunner, journal: ChangeJournal, api: Any, sandbox: Any) -> Any:
    session = Session(Connection("Staging", sandbox.base_url), api, journal)
    session.insert_dnc("2079460402", "44", Scope.global_(), reason="Asked by letter")
    session.insert_dnc("3035550121", "1", Scope.global_(), reason="Asked on a call")
    shown = JournalView(runner)
    qtbot.addWidget(shown)
    with qtbot.waitSignal(shown.model.total_changed, timeout=10_000):
        shown.set_journal(journal)
    assert shown.model.total == 4
    return shown


def _type_and_search(qtbot: Any, view: JournalView, typed: str) -> None:
    view.phone_edit.clear()
    qtbot.keyClicks(view.phone_edit, typed)
    qtbot.keyClick(view.phone_edit, Qt.Key.Key_Return)


def _phones_found(qtbot: Any, view: JournalView, typed: str) -> set[str]:
    with qtbot.waitSignal(view.model.total_changed, timeout=10_000) as blocker:
        _type_and_search(qtbot, view, typed)
    assert blocker.args[0] == view.model.rowCount() == 2, typed
    return {view.model.entry(r).phone for r in range(view.model.rowCount())}


@pytest.mark.parametrize(
    ("forms", "stored"), [(UK_FORMS, "+442079460402"), (US_FORMS, "+13035550121")]
)
def test_each_written_form_finds_the_numbers_entries(
    qtbot: Any, view: JournalView, forms: list[str], stored: str
) -> None:
    for typed in forms:
        assert _phones_found(qtbot, view, typed) == {stored}, typed
        assert "2 journal entries match the filter" in view.count_label.text()


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("202-555", "too short for a US number"),
        ("hello", "'hello' is not a phone number"),
        ("020 7946 0402", "too long for a US number"),
    ],
)
def test_text_that_is_no_number_is_said_and_lists_nothing(
    qtbot: Any,
    view: JournalView,
    monkeypatch: pytest.MonkeyPatch,
    typed: str,
    reason: str,
) -> None:
    _phones_found(qtbot, view, "+442079460402")
    said: list[str] = []
    view.status_message.connect(said.append)
    with qtbot.assertNotEmitted(view.model.loading):
        _type_and_search(qtbot, view, typed)
    shown = view.count_label.text()
    assert shown.startswith(f"The phone filter {typed!r} is no phone number"), shown
    assert reason in shown and "Write it with its country code" in shown
    assert shown.endswith("Nothing was searched.") and said[-1] == shown
    # The last search's rows are not this filter's matches.
    assert view.model.rowCount() == 0 and view.model.total is None

    asked: list[object] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: asked.append(a) or ("", ""))
    view.export_button.click()
    assert asked == [], "the export asked for a file for a filter it cannot apply"
    assert reason in said[-1] and said[-1].endswith("Nothing was exported.")


def test_export_applies_the_number_as_read(
    qtbot: Any, view: JournalView, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _phones_found(qtbot, view, "011 44 20 7946 0402")
    target = tmp_path / "uk.xlsx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    with qtbot.waitSignal(view.busy_changed, timeout=10_000, check_params_cb=lambda b: not b):
        view.export_button.click()
    rows = CalamineWorkbook.from_path(str(target)).get_sheet_by_index(0).to_python()
    header = [str(c) for c in rows[0]]
    phones = {str(r[header.index("Phone")]) for r in rows[1:]}
    assert phones == {"+442079460402"} and len(rows) == 3
