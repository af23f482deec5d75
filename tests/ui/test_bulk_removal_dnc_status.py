"""Black-box bb15, in the window: a bulk removal whose picked lead status is a DNC status
(``/status/search``'s ``dnc``) keeps the status's flag in its job file, so its warning on leads
re-statused while their number stays on the DNC list does not say the number looks callable."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.job_report import LEAD_STATUS_DNC, STILL_LISTED_NOTE
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.bulk_removal_dialog import BulkRemovalDialog
from app.ui.job_progress import job_registry
from app.ui.tasks import TaskRunner

TIMEOUT = 20_000
NUMBER = "9497691638"  # global (taken off) and the campaign's own entry (stays)


@pytest.fixture
def runner(qtbot: Any) -> Iterator[TaskRunner]:
    r = TaskRunner()
    yield r
    for handle in job_registry().handles:
        handle.cancel()
    r.cancel_all()
    r.wait()


def test_a_picked_dnc_status_is_not_said_to_look_callable(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    winback = {c.name: c.id for c in session.api.campaigns()}["Old Winback"]
    sandbox.bulk_seed_dnc([(NUMBER, "1", "0", "", ""), (NUMBER, "1", winback, "", "")])
    listed = session.api.insert_list("Old Winback leads", winback)
    sandbox.bulk_seed_leads(listed, [(NUMBER, "1", "", "")])
    dialog = BulkRemovalDialog(session, runner, AppPaths.default())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.source_page.paste_radio.setChecked(True)
    dialog.source_page.paste_edit.setPlainText(f"{NUMBER}\n")
    dialog.next()
    options = dialog.options_page
    options.reason_edit.setText("Consent re-obtained")
    options.restatus_check.setChecked(True)
    options.picker.search_edit.setText("DNC")
    qtbot.waitUntil(lambda: "DNC" in [s.status for s in options.picker.statuses()], timeout=TIMEOUT)
    assert options.picker.select("DNC")
    with qtbot.waitSignal(dialog.job_finished, timeout=TIMEOUT) as finished:
        dialog.next()  # "Remove numbers"
    summary = finished.args[0]
    assert summary["removed"] == 1
    store = JobStore(Path(summary["job_file"]))
    try:
        meta = store.meta()
    finally:
        store.close()
    assert meta[LEAD_STATUS_DNC] is True
    said = str(meta[STILL_LISTED_NOTE])
    assert said.startswith("1 lead on 1 removed number was set to DNC by the service although ")
    assert "; DNC is a do-not-call status on the service, so it does not look callable" in said
    assert "looks callable" not in said
