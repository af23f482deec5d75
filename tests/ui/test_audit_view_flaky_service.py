"""The window's audit on a flaky service (black-box bb7 #1): a number whose look-up the service
fails in every round is named on the result page, which says the campaign is not proven clean
and to run the audit again; the report is still written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.audit_records import AuditRecords
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


class Html502OnLeads(httpx.BaseTransport):
    """Forwards to the sandbox; while ``broken``, every lead search is answered by a proxy's
    HTML 502 page (what the black-box pass saw when an audit's retries ran out)."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.broken = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self.broken and request.url.path.endswith("/leads/search"):
            return httpx.Response(
                502,
                headers={"Content-Type": "text/html"},
                content=b"<html><body><h1>502 Bad Gateway</h1></body></html>",
            )
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


def test_an_audit_whose_retries_run_out_says_nothing_was_recorded_and_to_run_it_again(
    qtbot: Any, runner: TaskRunner, sandbox: Any, tmp_path: Path
) -> None:
    # Black-box bb10 F1: it ended with only "Audit X: the service failed with HTTP 502 ...".
    quick = RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01)
    wire = Html502OnLeads()
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=quick)
    session = Session(
        Connection("Test", sandbox.base_url), api, ChangeJournal(tmp_path / "journal.sqlite3")
    )
    camp = sandbox.seed_campaign("Home Security Leads")
    api.insert_lead(api.insert_list("Home Security list", camp), "2025550150")
    api.insert_dnc("2025550150", "1", Scope.global_())
    view = AuditView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.set_session(session)
    view.options = AuditOptions(concurrency=4, max_download_pages=0)
    said: list[str] = []
    view.status_message.connect(said.append)
    try:
        with qtbot.waitSignal(view.audit_finished, timeout=TIMEOUT) as first:
            view.run(camp, "Home Security Leads")
        wire.broken = True
        view.run(camp, "Home Security Leads")
        qtbot.waitUntil(lambda: not view.running, timeout=TIMEOUT)
    finally:
        session.close()
        session.journal.close()
    text = said[-1]
    assert text.startswith(
        "Audit of Home Security Leads stopped: the service failed with HTTP 502"
    ), text
    assert text.endswith(
        "Nothing was recorded: the launch gate still goes by this "
        "campaign's last recorded audit, and asks before activating unless that one is clean "
        "and recent. Run the audit again."
    ), text
    assert "Nothing was recorded" in view.summary.text()
    # True to its word: the audit before is still the last one recorded.
    with AuditRecords.in_data_dir(AppPaths.default().data_dir) as records:
        last = records.last(sandbox.base_url, camp)
    assert last is not None and last.report_sha256 == first.args[0].sha256
