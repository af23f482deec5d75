"""A campaign the service refuses as invalid while an import runs is named in a warning on
either list: the SMS opt-out list's insert says so with code 6006 (its 6026 is a country code),
which a check of DNC's 6026 alone missed."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.core.sheet_check import Target
from tests.conftest import TOKEN
from tests.core.test_entry_dates_service_clock import FAST, NUMBERS


class _CampaignRemoved(httpx.BaseTransport):
    """Forwards to the sandbox; the campaign is deleted after ``after`` inserts to ``path``."""

    def __init__(self, server: Any, campaign: str, path: str, after: int) -> None:
        self._http = httpx.HTTPTransport()
        self.server, self.campaign, self.path, self.left = server, campaign, path, after

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith(self.path):
            if self.left == 0:
                self.server.store.execute("DELETE FROM campaigns WHERE id = ?", (self.campaign,))
            self.left -= 1
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


@pytest.mark.parametrize(
    ("target", "path", "code"),
    [(Target.DNC, "/dnc/insert", "6026"), (Target.SMS_OPT_OUT, "/sms-opt-out/insert", "6006")],
)
def test_a_campaign_refused_mid_run_is_named_on_either_list(
    make_sandbox: Any, tmp_path: Path, target: Target, path: str, code: str
) -> None:
    server = make_sandbox()
    campaign = server.seed_campaign("Spring Renewals")
    source = tmp_path / "in.csv"
    with source.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["phone"], *[[n] for n in NUMBERS[:5]]])
    settings = JobSettings(source, Scope.campaign(campaign), target=target)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    wire = _CampaignRemoved(server, campaign, path, after=2)
    api = ApiClient(server.base_url, TOKEN, retry=FAST, http_transport=wire)
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(Connection("Sandbox", server.base_url), api, journal)
    try:
        assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    finally:
        session.close()
        journal.close()

    s = job_summary(store)
    assert (s["inserted"], s["failed"]) == (2, 3)
    (warning,) = [w for w in store.meta().get("warnings") or [] if f"code {code}" in w]
    assert warning.startswith(
        f"The service refused campaign {campaign} (3 rows, after 2 inserted in it) as invalid "
        f"(code {code})"
    )
