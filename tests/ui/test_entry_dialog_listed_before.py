"""Black-box bb16 F10, in the Add dialog: a number listed as asked since 2023, added again
from the window with its answer lost, was reported as added by this add ("confirmed by a
look-up", or "that first attempt made it") and journaled so. The dialog now says the number was
already on the list since that date and this add did not make it, and stays open, as for any
add of a number already listed; the journal holds a ``.checked`` event, not ``.settled``.

Against the sandbox on loopback: the entry is seeded with its old insert date; the wire loses
the answer of the add's first insert (the sandbox refused it: already listed), or (unanswered)
never lets the add reach the service.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.api.client import ApiClient
from app.core.entry_validation import EntryKind
from app.core.evidence import LISTED_BEFORE_ADD, settle_writes
from app.ui.entry_dialog import EntryDialog
from app.ui.tasks import TaskRunner
from tests.core.write_drops import SandboxDropsWrites
from tests.ui import test_entry_dialog_lost_answer as lost_answer
from tests.ui.test_entry_dialog_lost_answer import TIMEOUT, DropFirstAnswer

lossy_session = lost_answer.lossy_session  # the fixture: a journaled session over a wire

OLD = "2023-06-10 23:25:58"


def _seed(sandbox: Any) -> None:
    sandbox.store.execute(
        "INSERT INTO dnc(phone_number, phone_code, campaign_id, reason, purpose, insert_date)"
        " VALUES ('3036193448', '1', 0, 'State DNC registry', '', ?)",
        (OLD,),
    )


def _press_add(qtbot: Any, dialog: EntryDialog) -> None:
    dialog.show()
    qtbot.keyClicks(dialog.phone_edit, "(303) 619-3448")
    qtbot.keyClicks(dialog.reason_edit, "State DNC registry")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)


def _events(session: Any) -> list[str]:
    return [e.operation for e in session.journal.query() if e.phase == "event"]


def test_retry_told_already_listed_by_an_old_entry_says_the_add_did_not_make_it(
    qtbot: Any, runner: TaskRunner, api: ApiClient, sandbox: Any, lossy_session: Any
) -> None:
    _seed(sandbox)
    wire = DropFirstAnswer("/dnc/insert")
    session = lossy_session(wire)
    dialog = EntryDialog(EntryKind.DNC, session, runner, api.campaigns())
    qtbot.addWidget(dialog)
    _press_add(qtbot, dialog)
    qtbot.waitUntil(lambda: bool(dialog.problem("phone_number")), timeout=TIMEOUT)
    assert wire.dropped == 1
    text = dialog.problem("phone_number")
    assert f"A look-up right after found it already on the DNC list since {OLD} (entry " in text
    assert "before this add began: this add did not make it" in text
    assert "made it" not in text.replace("did not make it", "")
    assert dialog.isVisible()
    assert _events(session) == ["dnc.insert.checked"]
    [write] = settle_writes(session.journal.query())
    assert write.result == LISTED_BEFORE_ADD


def test_unanswered_add_of_an_old_entry_is_not_saved_and_says_since_when(
    qtbot: Any, runner: TaskRunner, api: ApiClient, sandbox: Any, lossy_session: Any
) -> None:
    _seed(sandbox)
    session = lossy_session(SandboxDropsWrites(sandbox, "/dnc/insert", reach=False))
    dialog = EntryDialog(EntryKind.DNC, session, runner, api.campaigns())
    qtbot.addWidget(dialog)
    _press_add(qtbot, dialog)
    qtbot.waitUntil(lambda: dialog.general_error.text().startswith("Not"), timeout=TIMEOUT)
    text = dialog.general_error.text()
    assert text.startswith("Not saved: ")
    assert f"A look-up right after found the number already on the DNC list since {OLD}" in text
    assert "confirmed" not in text
    assert dialog.isVisible()
    assert _events(session) == ["dnc.insert.checked"]
