"""A removal's "leads still listed" check is never missed (black-box B29 F1, F3) and names the
number's own country code when no lead was found (F6).

F1: with ``--lead-status``, when the look-up of the number's entries left after the delete
failed (answers dropped), the lead the delete re-statused while the number stays listed for its
campaign was counted as 0 in ``leads_still_listed``, the warning and the journal; only the row
said the look-up failed. It is now tried again, and still failing its leads are counted and
warned of as not checked.

F3: a lead holding the number with its country code (13125550195) re-statused by the delete of
that form was checked against that form's entries alone, so the plain form's global entry left
on the list did not count as covering it, while it did for the plain form's lead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.job_report import LEADS_STILL_LISTED
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.lead_lookup import NOT_CHECKED, restatus_text, still_listed_in
from app.core.removal_job import STILL_LISTED_EVENT, run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN

NUMBER = "3125557001"


class _DropSearchesAfterDelete(httpx.HTTPTransport):
    """Real HTTP to the sandbox; once a ``/dnc/delete`` was answered, the sandbox drops every
    answer (its own fault, a connection broken before the answer), as B29 saw at drop 0.5."""

    def __init__(self, sandbox: Any) -> None:
        super().__init__()
        self.sandbox = sandbox

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.url.path.endswith("/dnc/delete"):
            response.read()
            self.sandbox.set_faults(drop_rate=1.0)
        return response


def _lead_ids(sandbox: Any, list_id: str) -> list[str]:
    rows = sandbox.store.all("SELECT id FROM leads WHERE list_id = ? ORDER BY id", (int(list_id),))
    return [str(r["id"]) for r in rows]


def test_leads_whose_cover_cannot_be_looked_up_are_counted_as_not_checked(
    sandbox: Any, tmp_path: Path
) -> None:
    api = ApiClient(sandbox.base_url, TOKEN)
    spring = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    sandbox.bulk_seed_dnc([(NUMBER, "1", "0", "", ""), (NUMBER, "1", spring, "", "")])
    spring_list = api.insert_list("Spring leads", spring)
    sandbox.bulk_seed_leads(spring_list, [(NUMBER, "1", "", "")])
    (lead,) = _lead_ids(sandbox, spring_list)
    api.close()
    quick = RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01)
    client = ApiClient(
        sandbox.base_url, TOKEN, retry=quick, http_transport=_DropSearchesAfterDelete(sandbox)
    )
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(Connection("Sandbox", sandbox.base_url), client, journal)
    try:
        path = tmp_path / "f1.csv"
        path.write_text(f"Phone\n{NUMBER}\n")
        settings = JobSettings(path, Scope.global_(), note="f1", lead_status="NI")
        store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
        assert run_removal(store, session) is JobStatus.FINISHED
        (row,) = store.rows()
        assert row.outcome == "removed", row.message
        assert "could not be looked up" in row.message
        found = still_listed_in(row.message)
        assert (found.leads, found.scopes) == (1, [NOT_CHECKED]), row.message
        meta = store.meta()
        assert meta[LEADS_STILL_LISTED] == 1
        said = [w for w in meta.get("warnings") or [] if "look callable" in w]
        assert len(said) == 1 and "could not be checked" in said[0], meta.get("warnings")
        assert f"lead {lead} (list {spring_list})" in said[0]
        (event,) = journal.query(operation=STILL_LISTED_EVENT, job=str(meta["job_id"]))
        details = event.after or {}
        assert details["not_checked"]
        assert [(x["id"], x["still_listed_by"]) for x in details["leads"]] == [
            (lead, [NOT_CHECKED])
        ]
    finally:
        session.close()
        journal.close()


def test_a_lead_holding_the_country_code_form_is_covered_by_the_plain_forms_entry(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    spring = {c.name: c.id for c in session.api.campaigns()}["Spring Renewals"]
    plain, coded = "3125550195", "13125550195"
    sandbox.bulk_seed_dnc(
        [(plain, "1", spring, "c", ""), (coded, "1", spring, "c cc", ""), (plain, "1", "0", "", "")]
    )
    spring_list = session.api.insert_list("Spring leads", spring)
    sandbox.bulk_seed_leads(spring_list, [(plain, "1", "", ""), (coded, "1", "", "")])
    leads = _lead_ids(sandbox, spring_list)
    path = tmp_path / "cforms.csv"
    path.write_text("Phone\n+1 312 555 0195\n")
    settings = JobSettings(path, Scope.campaign(spring), note="f3", lead_status="NI")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    assert row.outcome == "removed", row.message
    found = still_listed_in(row.message)
    assert sorted(found.named) == sorted(f"lead {x} (list {spring_list})" for x in leads), (
        row.message
    )
    assert found.scopes == ["Global"]
    assert store.meta()[LEADS_STILL_LISTED] == 2
    events = session.journal.query(operation=STILL_LISTED_EVENT)
    assert sorted(x["id"] for e in events for x in (e.after or {})["leads"]) == sorted(leads)


def test_no_lead_found_names_the_numbers_own_country_code() -> None:
    for code in ("44", "61", "91"):
        said = restatus_text([], "DNC", None, (), code)
        assert f"(as +{code} or a leading {code})" in said
        assert "+1 or a leading 1" not in said
        campaign = restatus_text([], "DNC", Scope.campaign("7"), (), code)
        assert f"(as +{code} or a leading {code})" in campaign
    assert "(as +1 or a leading 1)" in restatus_text([], "DNC", None, (), "1")


def _per_row_job(session: Session, tmp_path: Path, lines: list[str], name: str = "rows.csv") -> Any:
    path = tmp_path / name
    path.write_text("Phone,Scope\n" + "\n".join(lines) + "\n")
    settings = JobSettings(path, Scope.global_(), note="f2", lead_status="NI", scope_from_rows=True)
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    return store


def test_an_entry_a_later_row_of_the_job_removes_no_longer_counts_as_covering(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    """B29 F2: a global row, then the number's campaign row: once the job ended, the lead the
    global row re-statused is on no list entry, so nothing says it stays listed."""
    spring = {c.name: c.id for c in session.api.campaigns()}["Spring Renewals"]
    number = "3125550170"
    sandbox.bulk_seed_dnc([(number, "1", "0", "g", ""), (number, "1", spring, "c", "")])
    spring_list = session.api.insert_list("Spring leads", spring)
    sandbox.bulk_seed_leads(spring_list, [(number, "1", "", "")])
    store = _per_row_job(session, tmp_path, [f"{number},global", f"{number},campaign:{spring}"])
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    rows = list(store.rows())
    assert [r.outcome for r in rows] == ["removed", "removed"], [r.message for r in rows]
    assert all(still_listed_in(r.message).leads == 0 for r in rows), [r.message for r in rows]
    assert "re-statused 1 lead" in rows[0].message
    meta = store.meta()
    assert meta[LEADS_STILL_LISTED] == 0
    assert not [w for w in meta.get("warnings") or [] if "looks callable" in w]
    assert session.journal.query(operation=STILL_LISTED_EVENT) == []


def test_an_entry_the_job_leaves_still_counts_once_its_rows_of_the_number_ended(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    """The same job whose campaign row names another campaign (the number not listed there):
    the lead still stays listed through its campaign's entry, said, counted and journaled once."""
    campaigns = {c.name: c.id for c in session.api.campaigns()}
    spring, winback = campaigns["Spring Renewals"], campaigns["Old Winback"]
    number = "3125550171"
    sandbox.bulk_seed_dnc([(number, "1", "0", "g", ""), (number, "1", spring, "c", "")])
    spring_list = session.api.insert_list("Spring leads", spring)
    sandbox.bulk_seed_leads(spring_list, [(number, "1", "", "")])
    (lead,) = _lead_ids(sandbox, spring_list)
    store = _per_row_job(session, tmp_path, [f"{number},global", f"{number},campaign:{winback}"])
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    rows = list(store.rows())
    assert [r.outcome for r in rows] == ["removed", "not_found"], [r.message for r in rows]
    found = still_listed_in(rows[0].message)
    assert (found.leads, found.scopes) == (1, [f"Campaign {spring}"]), rows[0].message
    assert store.meta()[LEADS_STILL_LISTED] == 1
    (event,) = session.journal.query(operation=STILL_LISTED_EVENT)
    details = event.after or {}
    assert details["row"] == rows[0].row_number
    assert [(x["id"], x["status_before"]) for x in details["leads"]] == [(lead, "NEW")]
    assert details["deleted"] == [{"phone_number": number, "phone_code": "1"}]


class _PauseAfterListsRead(httpx.HTTPTransport):
    """Real HTTP to the sandbox; pauses the job once the first row's check of its leads'
    cover has read the lists (its last request), so the job's next row is left to a resume."""

    def __init__(self) -> None:
        super().__init__()
        self.control: Any = None
        self.lists_read = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.url.path.endswith("/lists/search"):
            self.lists_read += 1
            if self.lists_read == 2 and self.control is not None:
                response.read()
                self.control.suspend()
        return response


def test_a_resumed_job_decides_when_the_numbers_rows_have_all_ended(
    sandbox: Any, tmp_path: Path
) -> None:
    """Paused between a number's global row and its campaign row: the pause says the lead
    stays listed (true then); the resume removes the campaign's entry and the row no longer
    says so, nor is it journaled."""
    from app.core.job_runner import JobControl

    wire = _PauseAfterListsRead()
    client = ApiClient(sandbox.base_url, TOKEN, http_transport=wire)
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(Connection("Sandbox", sandbox.base_url), client, journal)
    try:
        spring = {c.name: c.id for c in client.campaigns()}["Spring Renewals"]
        number = "3125550172"
        sandbox.bulk_seed_dnc([(number, "1", "0", "g", ""), (number, "1", spring, "c", "")])
        spring_list = client.insert_list("Spring leads", spring)
        sandbox.bulk_seed_leads(spring_list, [(number, "1", "", "")])
        lines = [f"{number},global", f"{number},campaign:{spring}"]
        store = _per_row_job(session, tmp_path, lines)
        wire.control = control = JobControl()
        assert run_removal(store, session, concurrency=1, control=control) is JobStatus.PAUSED
        first = list(store.rows())
        assert still_listed_in(first[0].message).leads == 1, first[0].message
        assert first[1].state != "done"
        assert journal.query(operation=STILL_LISTED_EVENT) == []
        wire.control = None
        assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
        rows = list(store.rows())
        assert [r.outcome for r in rows] == ["removed", "removed"], [r.message for r in rows]
        assert still_listed_in(rows[0].message).leads == 0, rows[0].message
        assert "re-statused 1 lead" in rows[0].message
        assert store.meta()[LEADS_STILL_LISTED] == 0
        assert journal.query(operation=STILL_LISTED_EVENT) == []
    finally:
        session.close()
        journal.close()
