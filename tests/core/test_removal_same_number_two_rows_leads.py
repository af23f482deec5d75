"""Two rows removing one number (from the global list and from a campaign, with per-row
scopes) each say what they found of its leads: the second finds the lead the first delete
re-statused already in the status (black-box N3 #7b: both rows said "lead 103025 NEW→CALLBK").

Against the sandbox over loopback HTTP. The transport holds each delete until both rows have
searched the number's leads (or a few seconds have passed): sent at once, both rows would have
looked them up before either delete, as in N3's run.
"""

from __future__ import annotations

import csv
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.scope import Scope
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.core.lead_wire import LEADS_SEARCH, Forwarding, seed_leads, wired_session

NUMBER = "7205551301"
# The lead searches a row of a ten-digit US number makes (3 phone fields, 6 written forms).
SEARCHES_A_ROW = 18


class HeldDeletes(Forwarding):
    """Holds each ``/dnc/delete`` until two rows' lead searches were made, at most 3 s."""

    def __init__(self) -> None:
        super().__init__()
        self._searched = threading.Event()
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == LEADS_SEARCH:
            with self._lock:
                self.paths.append(request.url.path)
                if self.paths.count(LEADS_SEARCH) >= 2 * SEARCHES_A_ROW:
                    self._searched.set()
            return self._http.handle_request(request)
        if request.url.path.endswith("/dnc/delete"):
            self._searched.wait(3)
        return super().handle_request(request)


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, HeldDeletes())


def test_the_second_row_of_a_number_says_the_lead_was_already_in_the_status(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaign = session.api.campaigns()[0].id
    list_id = session.api.insert_list("Spring list", campaign)
    sandbox.bulk_seed_dnc([(NUMBER, "1", "0", "", ""), (NUMBER, "1", campaign, "", "")])
    (lead,) = seed_leads(sandbox, list_id, [(NUMBER, "1", "", "", "NEW")])
    path = tmp_path / "rm_f.csv"
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone", "Campaign ID"], [NUMBER, "0"], [NUMBER, campaign]])
    settings = JobSettings(
        path,
        Scope.global_(),
        lead_status="CALLBK",
        scope_from_rows=True,
        note="test F",
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=8) is JobStatus.FINISHED
    assert job_summary(store)["removed"] == 2

    changed = f"re-statused 1 lead: lead {lead} (list {list_id}) NEW→CALLBK"
    unchanged = f"1 lead already CALLBK, its status unchanged: lead {lead} (list {list_id})"
    messages = sorted(r.message for r in store.rows())
    assert sorted(changed in m for m in messages) == [False, True], messages
    assert sorted(unchanged in m for m in messages) == [False, True], messages
    # The journal keeps one change of the lead, by the delete that made it.
    intents = [
        e
        for e in session.journal.query(job=store.meta()["job_id"])
        if e.phase == "intent" and e.operation == "dnc.delete"
    ]
    leads = sorted(len((e.before or {}).get("leads") or []) for e in intents)
    assert leads == [0, 1], [e.before for e in intents]
    status = sandbox.store.scalar("SELECT status FROM leads WHERE id = ?", (int(lead),))
    assert status == "CALLBK"
