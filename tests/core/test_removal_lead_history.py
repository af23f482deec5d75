"""A removal that re-statuses leads keeps their old statuses: looked up before the delete, kept
in the delete's journal intent (``before["leads"]``) and listed in the row's message.

Against the sandbox over loopback HTTP; a forwarding transport counts the requests and, for the
look-up failure tests only, makes ``/leads/search`` fail.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import openpyxl
import pytest

from app.api.scope import Scope
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.lead_lookup import NO_LEADS
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.core import removal_session
from tests.core.lead_wire import LEADS_SEARCH, seed_leads
from tests.core.removal_session import Wire

wire = removal_session.wire
session = removal_session.session


def _csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone", "Scope"], *rows])
    return path


def _stage(session: Session, tmp_path: Path, rows: list[list[str]], lead_status: str) -> JobStore:
    settings = JobSettings(
        _csv(tmp_path / "remove.csv", rows),
        Scope.global_(),
        lead_status=lead_status,
        scope_from_rows=True,
        note="consumer asked",
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    return store


def _statuses(sandbox: Any) -> dict[str, tuple[str, str]]:
    rows = sandbox.store.all("SELECT id, list_id, status FROM leads")
    return {str(r["id"]): (str(r["list_id"]), str(r["status"])) for r in rows}


def _delete_intents(session: Session, job: str) -> dict[str, Any]:
    """The job's delete intents by phone (E.164)."""
    return {
        e.phone: e
        for e in session.journal.query(job=job)
        if e.phase == "intent" and e.operation == "dnc.delete"
    }


def _messages(store: JobStore) -> dict[str, str]:
    return {r.national: r.message for r in store.rows()}


def test_old_statuses_of_0_1_and_several_leads_are_journaled_and_reported(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    api = session.api
    spring = api.campaigns()[0].id
    autumn = sandbox.seed_campaign("Autumn Calls", active=True)
    spring_a = api.insert_list("Spring list A", spring)
    spring_b = api.insert_list("Spring list B", spring)
    autumn_a = api.insert_list("Autumn list A", autumn)
    sandbox.bulk_seed_dnc(
        [
            ("2025550100", "1", "0", "", ""),  # no leads
            ("2025550101", "1", "0", "", ""),  # one lead
            ("2025550103", "1", "0", "", ""),  # several leads, in three lists
            ("2025550104", "1", spring, "", ""),  # a campaign entry: that campaign's leads only
        ]
    )
    (one,) = seed_leads(sandbox, spring_a, [("2025550101", "1", "", "", "NEW")])
    typed, blank_code, *_ = seed_leads(
        sandbox,
        spring_a,
        [
            ("(202) 555-0103", "1", "", "", "CALLBK"),  # as typed: found by its written form
            ("2025550199", "", "202-555-0103", "", "SALE"),  # an alternate phone, no code
            ("2025550103", "44", "", "", "NEW"),  # another country's number: not re-statused
            ("12025550103", "1", "", "", "NEW"),  # its digits are not the number's: untouched
        ],
    )
    (in_b,) = seed_leads(sandbox, spring_b, [("2025550177", "1", "2025550166", "2025550103", "NI")])
    (autumn_lead,) = seed_leads(sandbox, autumn_a, [("2025550103", "1", "", "", "A")])
    (campaign_lead,) = seed_leads(sandbox, spring_b, [("2025550104", "1", "", "", "B")])
    seed_leads(sandbox, autumn_a, [("2025550104", "1", "", "", "NEW")])  # another campaign's
    before = _statuses(sandbox)

    rows = [["2025550100", ""], ["2025550101", ""], ["2025550103", ""]]
    rows.append(["2025550104", f"campaign:{spring}"])
    store = _stage(session, tmp_path, rows, "DNC")
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    s = job_summary(store)
    assert (s["removed"], s["failed"], s["not_found"]) == (4, 0, 0)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0

    after = _statuses(sandbox)
    changed = {i: before[i] for i in before if after[i][1] != before[i][1]}
    assert all(after[i][1] == "DNC" for i in changed)
    several = {
        typed: (spring_a, "CALLBK"),
        blank_code: (spring_a, "SALE"),
        in_b: (spring_b, "NI"),
        autumn_lead: (autumn_a, "A"),
    }
    expected = {
        "+12025550100": {},
        "+12025550101": {one: (spring_a, "NEW")},
        "+12025550103": several,
        "+12025550104": {campaign_lead: (spring_b, "B")},
    }
    # The journal holds exactly the leads the service re-statused, each with its old status.
    assert changed == {k: v for leads in expected.values() for k, v in leads.items()}
    intents = _delete_intents(session, s["job"])
    assert set(intents) == set(expected)
    for phone, leads in expected.items():
        journaled = intents[phone].before["leads"]
        assert journaled == [
            {"id": i, "list_id": list_id, "status": old}
            for i, (list_id, old) in sorted(leads.items(), key=lambda kv: int(kv[0]))
        ], phone
        # The DNC entry it took off is still kept beside them.
        assert len(intents[phone].before["entries"]) == 1
        assert intents[phone].after["lead_status"] == "DNC"

    messages = _messages(store)
    assert messages["2025550100"] == NO_LEADS.format(status="DNC")
    assert messages["2025550101"] == f"re-statused 1 lead: lead {one} (list {spring_a}) NEW→DNC"
    assert messages["2025550103"].startswith("re-statused 4 leads: ")
    for lead_id, (list_id, old) in several.items():
        assert f"lead {lead_id} (list {list_id}) {old}→DNC" in messages["2025550103"]
    # (After the staged note that the campaign id was not checked: no campaign lookup here.)
    assert messages["2025550104"].endswith(
        f"; re-statused 1 lead: lead {campaign_lead} (list {spring_b}) B→DNC"
    )
    wb = openpyxl.load_workbook(s["report"], read_only=True)
    sheet = list(wb["Rows"].iter_rows(values_only=True))
    wb.close()
    column = sheet[0].index("Message")
    reported = {str(r[sheet[0].index("Normalized number")]): r[column] for r in sheet[1:]}
    assert reported == messages


def test_the_message_names_ten_leads_and_the_journal_keeps_them_all(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    list_id = session.api.insert_list("Many leads list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("2025550120", "1", "0", "", "")])
    ids = seed_leads(sandbox, list_id, [("2025550120", "1", "", "", "NEW")] * 12)
    store = _stage(session, tmp_path, [["2025550120", ""]], "DNC")
    assert run_removal(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert row.message.startswith("re-statused 12 leads: ")
    assert row.message.count("NEW→DNC") == 10
    assert row.message.endswith(", and 2 more (all in the change journal)")
    (intent,) = _delete_intents(session, job_summary(store)["job"]).values()
    assert [lead["id"] for lead in intent.before["leads"]] == ids
    assert {s for _, s in _statuses(sandbox).values()} == {"DNC"}


def test_a_resent_row_looks_its_leads_up_too(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    list_id = session.api.insert_list("Resent row list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("2025550130", "1", "0", "", "")])
    (lead,) = seed_leads(sandbox, list_id, [("2025550130", "1", "", "", "CALLBK")])
    store = _stage(session, tmp_path, [["2025550130", ""]], "DNC")
    (row,) = store.rows()
    store.mark_sending(row.seq)  # in flight when the job last stopped
    store.flush()
    assert run_removal(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    assert row.outcome == "removed"
    # Not "sent again": the journal has no delete of it, so it stopped in its look-ups (B3 #3).
    assert row.message == f"re-statused 1 lead: lead {lead} (list {list_id}) CALLBK→DNC"
    (intent,) = _delete_intents(session, job_summary(store)["job"]).values()
    assert intent.before["leads"] == [{"id": lead, "list_id": list_id, "status": "CALLBK"}]


def _refused(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"success": False, "code": 7258, "message": "Invalid limit"})


def _unanswered(request: httpx.Request) -> httpx.Response:
    # Sent and its answer lost: a refused connection reaches nothing, so its row is sent again
    # until the job stops for a resume (black-box L2 #1, test_request_refused_connection_resent).
    raise httpx.ReadTimeout("timed out", request=request)


@pytest.mark.parametrize(
    ("fail", "words"),
    [
        (
            _refused,
            [
                "not removed: the leads this removal would set to DNC could not be looked up "
                "first, so no delete was sent",
                "/leads/search: code 7258 (invalid limit)",
            ],
        ),
        (
            _unanswered,
            [
                "no answer from the service: /leads/search: looking up the leads to set to DNC "
                "(nothing was deleted)",
            ],
        ),
    ],
    ids=["refused", "unanswered"],
)
def test_a_failed_look_up_fails_the_row_and_deletes_nothing(
    sandbox: Any,
    session: Session,
    wire: Wire,
    tmp_path: Path,
    fail: Callable[[httpx.Request], httpx.Response],
    words: list[str],
) -> None:
    list_id = session.api.insert_list("Look-up fails list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("2025550140", "1", "0", "", "")])
    seed_leads(sandbox, list_id, [("2025550140", "1", "", "", "NEW")])
    store = _stage(session, tmp_path, [["2025550140", ""]], "DNC")
    wire.fail = fail
    assert run_removal(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    assert row.outcome == "failed"
    for text in words:
        assert text in row.message, row.message
    assert "may have done it" not in row.message
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 1
    assert sandbox.store.one("SELECT status FROM leads")["status"] == "NEW"
    assert "/v1/dnc/delete" not in wire.paths
    assert [e for e in session.journal.query() if e.operation == "dnc.delete"] == []


def test_no_lead_is_looked_up_without_a_lead_status(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    campaign = session.api.campaigns()[0].id
    list_id = session.api.insert_list("No look-up list", campaign)
    numbers = ["2025550150", "2025550151"]
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in numbers])
    seed_leads(sandbox, list_id, [(n, "1", "", "", "NEW") for n in numbers])
    store = _stage(session, tmp_path, [[n, ""] for n in numbers], "")
    wire.paths.clear()
    assert run_removal(store, session) is JobStatus.FINISHED
    assert job_summary(store)["removed"] == 2
    # Four DNC look-ups (the number as written, with its country code in the digits, after 00
    # and after 011: every written form, since X4) and one delete a row, and nothing else.
    assert Counter(wire.paths) == {"/v1/dnc/search": 8, "/v1/dnc/delete": 2}
    assert {r.message for r in store.rows()} == {""}
    (intent, _) = _delete_intents(session, job_summary(store)["job"]).values()
    assert "leads" not in intent.before
    assert {s for _, s in _statuses(sandbox).values()} == {"NEW"}

    # The same with a lead status: the leads are looked up (18 searches a row: each phone
    # field, as digits and five written forms for a NANP number).
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in numbers])
    wire.paths.clear()
    (tmp_path / "again").mkdir()
    store = _stage(session, tmp_path / "again", [[n, ""] for n in numbers], "DNC")
    assert run_removal(store, session) is JobStatus.FINISHED
    assert Counter(wire.paths)[LEADS_SEARCH] == 2 * 3 * 6
