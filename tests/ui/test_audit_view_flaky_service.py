"""The window's audit on a flaky service (black-box bb7 #1): a number whose look-up the service
fails in every round is named on the result page, which says the campaign is not proven clean
and to run the audit again; the report is still written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.audit_run import AuditOptions
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from app.ui.audit_view import AuditRun, AuditView
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN
from tests.core.test_evidence_flaky_service import FOREVER, FailingWire, dnc_search_of

TIMEOUT = 20_000


def test_a_number_never_looked_up_is_named_on_the_result_page(
    qtbot: Any, runner: TaskRunner, sandbox: Any, tmp_path: Path
) -> None:
    quick = RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01)
    wire = FailingWire(dnc_search_of("2025550150"), times=FOREVER)
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=quick)
    session = Session(
        Connection("Test", sandbox.base_url), api, ChangeJournal(tmp_path / "journal.sqlite3")
    )
    camp = sandbox.seed_campaign("Clean campaign")
    list_id = api.insert_list("Clean list", camp)
    api.insert_lead(list_id, "2025550150")
    api.insert_lead(list_id, "2025550151")
    api.insert_dnc("2025550199", "1", Scope.global_())
    view = AuditView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.set_session(session)
    view.options = AuditOptions(concurrency=4, max_download_pages=0)
    said: list[str] = []
    view.status_message.connect(said.append)
    try:
        with qtbot.waitSignal(view.audit_finished, timeout=TIMEOUT) as blocker:
            view.run(camp, "Clean campaign")
    finally:
        session.close()
        session.journal.close()
    run = blocker.args[0]
    assert isinstance(run, AuditRun) and run.report.is_file()
    text = view.summary.text()
    assert "<b>NOT clean</b>" in text
    assert "1 number was not checked (+1 2025550150)" in text
    assert "run the audit again" in text
    assert any("NOT clean" in s and "1 number not checked" in s for s in said), said
