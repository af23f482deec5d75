"""Add/Edit dialog: a save whose last attempt itself got no answer (black-box bb10 F6: an SMS
opt-out edit the service made said "Not saved … (RemoteProtocolError)") looks the entry up:
made as asked closes the dialog as saved, saying it was confirmed by a look-up; not made
says "Not saved" with what the look-up found; a look-up that fails says not known. Real
widgets against the sandbox, whose drop fault cuts every answer of the write (or the
connection breaks before the service gets it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.api.client import ApiClient, DncQuery
from app.api.models import DncEntry, SmsOptOut
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.entry_settle import CONFIRMED
from app.core.entry_validation import EntryKind
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.ui.entry_dialog import EntryDialog
from app.ui.list_view import EntryListView, ListKind
from app.ui.tasks import TaskRunner
from tests.core.write_drops import SandboxDropsWrites, unavailable

TIMEOUT = 10_000
KINDS = [(EntryKind.DNC, "/dnc"), (EntryKind.SMS, "/sms-opt-out")]
IDS = ["dnc", "sms"]
BROKE = "broke before the answer came (RemoteProtocolError)"


@pytest.fixture
def make_session(
    wired_api: Any, sandbox: Any, tmp_path: Path
) -> Iterator[Callable[[SandboxDropsWrites], Session]]:
    journals: list[ChangeJournal] = []

    def make(wire: SandboxDropsWrites) -> Session:
        journals.append(ChangeJournal(tmp_path / f"journal{len(journals)}.sqlite3"))
        return Session(Connection("Test", sandbox.base_url), wired_api(wire), journals[-1])

    yield make
    for journal in journals:
        journal.close()


def _listed(api: ApiClient, kind: EntryKind) -> list[DncEntry | SmsOptOut]:
    if kind is EntryKind.DNC:
        return list(api.iter_dnc(DncQuery()))
    return list(api.iter_sms(DncQuery()))


def _one_entry(api: ApiClient, kind: EntryKind) -> DncEntry | SmsOptOut:
    insert = api.insert_dnc if kind is EntryKind.DNC else api.insert_sms
    insert("7185550250", "1", Scope.global_(), reason="was")
    [entry] = _listed(api, kind)
    return entry


def _save_fails(qtbot: Any, dialog: EntryDialog) -> str:
    """Press Save/Add; the dialog's sentence once the save (and its look-up) ended."""
    with qtbot.waitSignal(dialog.saving_changed, timeout=TIMEOUT, check_params_cb=lambda s: not s):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.ok_button.isEnabled()
    return dialog.general_error.text() if not dialog.general_error.isHidden() else ""


@pytest.mark.parametrize(("kind", "base"), KINDS, ids=IDS)
def test_edit_the_service_made_closes_as_saved(
    qtbot: Any,
    runner: TaskRunner,
    api: ApiClient,
    sandbox: Any,
    make_session: Any,
    kind: EntryKind,
    base: str,
) -> None:
    before = _one_entry(api, kind)
    wire = SandboxDropsWrites(sandbox, f"{base}/update")
    dialog = EntryDialog(kind, make_session(wire), runner, api.campaigns(), before)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.reason_edit.setText("bb10 edit 5")
    with qtbot.waitSignal(dialog.saved, timeout=TIMEOUT) as saved:
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert wire.dropped == 2  # the last attempt's answer was lost too
    assert not dialog.isVisible()
    [after] = _listed(api, kind)
    assert (after.id, after.reason) == (before.id, "bb10 edit 5")
    result = saved.args[0]
    assert result.earlier_attempt_lost and result.id == before.id
    assert result.message.startswith(f"saved {CONFIRMED}: entry {before.id} (reason “bb10 edit 5”")


@pytest.mark.parametrize(("kind", "base"), KINDS, ids=IDS)
def test_edit_that_never_reached_the_service_says_not_saved_and_why(
    qtbot: Any,
    runner: TaskRunner,
    api: ApiClient,
    sandbox: Any,
    make_session: Any,
    kind: EntryKind,
    base: str,
) -> None:
    before = _one_entry(api, kind)
    wire = SandboxDropsWrites(sandbox, f"{base}/update", reach=False)
    dialog = EntryDialog(kind, make_session(wire), runner, api.campaigns(), before)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.reason_edit.setText("never arrives")
    text = _save_fails(qtbot, dialog)
    assert text.startswith("Not saved: ") and BROKE in text
    assert text.endswith(
        f"A look-up right after found entry {before.id} (reason “was”, inserted "
        f"{before.insert_date}) unchanged: the edit was not made; save it again."
    )
    assert [e.reason for e in _listed(api, kind)] == ["was"]


def test_edit_whose_look_up_fails_says_not_known(
    qtbot: Any, runner: TaskRunner, api: ApiClient, sandbox: Any, make_session: Any
) -> None:
    before = _one_entry(api, EntryKind.SMS)
    wire = SandboxDropsWrites(sandbox, "/sms-opt-out/update", after_drop=unavailable)
    dialog = EntryDialog(EntryKind.SMS, make_session(wire), runner, api.campaigns(), before)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.reason_edit.setText("look-up fails")
    text = _save_fails(qtbot, dialog)
    assert text.startswith("Not known whether saved: ") and BROKE in text
    assert "A look-up right after found nothing, as it failed too (" in text
    assert text.endswith("search the list for the number before you save again.")


@pytest.mark.parametrize("reach", [True, False], ids=["made", "never-reached"])
@pytest.mark.parametrize(("kind", "base"), KINDS, ids=IDS)
def test_add_whose_last_answer_was_lost(
    qtbot: Any,
    runner: TaskRunner,
    api: ApiClient,
    sandbox: Any,
    make_session: Any,
    kind: EntryKind,
    base: str,
    reach: bool,
) -> None:
    wire = SandboxDropsWrites(sandbox, f"{base}/insert", reach=reach)
    dialog = EntryDialog(kind, make_session(wire), runner, api.campaigns())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.phone_edit, "(718) 555-0251")
    qtbot.keyClicks(dialog.reason_edit, "answer lost")
    listed = "DNC list" if kind is EntryKind.DNC else "SMS opt-out list"
    if not reach:
        text = _save_fails(qtbot, dialog)
        assert text.startswith("Not saved: ") and BROKE in text
        assert text.endswith(
            f"A look-up right after found the number not on the {listed} in that scope: the "
            "add was not made; add it again."
        )
        assert _listed(api, kind) == []
        return
    with qtbot.waitSignal(dialog.saved, timeout=TIMEOUT) as saved:
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    [entry] = _listed(api, kind)
    assert saved.args[0].id == entry.id and not dialog.isVisible()
    assert saved.args[0].message.startswith(f"added {CONFIRMED}: entry {entry.id} (reason “answer")
    assert saved.args[0].message.endswith(f"is on the {listed} as asked")


def test_sms_tab_edit_says_saved_confirmed_by_a_look_up_and_refreshes(
    qtbot: Any, runner: TaskRunner, api: ApiClient, sandbox: Any, make_session: Any
) -> None:
    """bb10 F6 as the officer met it: SMS opt-outs tab, Edit, a new reason, Save."""
    before = _one_entry(api, EntryKind.SMS)
    session = make_session(SandboxDropsWrites(sandbox, "/sms-opt-out/update"))
    view = EntryListView(ListKind.SMS, runner)
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        view.set_session(session)
    said: list[str] = []
    view.status_message.connect(said.append)
    view.table.selectRow(0)
    view.edit_selected()
    dialog = view.dialog
    assert isinstance(dialog, EntryDialog)
    dialog.reason_edit.setText("bb10 edit 5")
    with qtbot.waitSignal(view.model.page_loaded, timeout=TIMEOUT):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    [text] = [t for t in said if "journaled" in t]
    assert text.startswith(
        f"SMS opt-out list: 7185550250 saved {CONFIRMED}: entry {before.id} (reason “bb10 edit 5”"
    )
    assert text.endswith("holds what this edit asked; journaled.")
    # The list was searched again and shows the new reason.
    assert view.model.entry(0).reason == "bb10 edit 5"
