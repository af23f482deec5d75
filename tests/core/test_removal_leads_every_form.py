"""Q1 (black-box B3 #1, #2, #3): a removal with --lead-status sets every lead of the number, and
says "sent again" only of a row whose delete the journal has.

Since X4 a removal deletes every written form the list keeps a number in, but only the delete of
the app's form (or the first listed) carried the lead status, and the service re-statuses only
the leads holding the digits a delete sends. A number listed only as "13035550140" left its
"3035550140" and "(303) 555-0140" leads NEW while the row said "no lead found"; a UK number
listed without its trunk 0 left its "07911123456" lead, and one listed with it its "2079460002"
lead. Now every delete carries the status (each lead journaled and named once), and the
number's leads no delete re-statused are set by their own journaled /leads/update.

Against the sandbox over loopback HTTP, through the removal job as ``dnc-desk remove`` runs it;
the transport records every request and can fail ``/leads/update``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from app.api.scope import Scope
from app.core.evidence import gather_evidence
from app.core.job_runner import RESENT, RESUMED_SENT
from app.core.job_store import JobStatus, JobStore
from app.core.lead_lookup import NO_LEADS
from app.core.removal_job import REMOVED_BEFORE_INTERRUPTION, run_removal
from app.core.session import Session, journal_target
from tests.core import removal_session
from tests.core.lead_wire import seed_leads
from tests.core.removal_session import Wire, remove, stage

GLOBAL = Scope.global_()
UPDATE = "/v1/leads/update"
LEADS_SEARCH = "/v1/leads/search"


wire = removal_session.wire
session = removal_session.session


def _statuses(sandbox: Any) -> dict[str, str]:
    return {str(r["id"]): str(r["status"]) for r in sandbox.store.all("SELECT * FROM leads")}


def _journaled_leads(session: Session, job: str) -> list[tuple[str, str, str, str]]:
    """Every lead the job's journal says it changed: (phone, how, lead id, old status), from
    the deletes' intents (``before["leads"]``) and the lead updates' intents."""
    out = []
    for e in session.journal.query(job=job):
        if e.phase != "intent":
            continue
        before = e.before or {}
        if e.operation == "dnc.delete":
            out += [
                (e.phone or "", "delete", x["id"], x["status"]) for x in before.get("leads", [])
            ]
        elif e.operation == "lead.update":
            out.append((e.phone or "", "update", before["id"], before["status"]))
    return sorted(out)


def _new_list(session: Session, name: str) -> str:
    return session.api.insert_list(name, session.api.campaigns()[0].id)


def test_a_number_listed_only_with_its_country_code_sets_all_its_leads(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    # B3 #1: 3035550140 listed only as 13035550140, 3036150006 likewise with one lead.
    sandbox.bulk_seed_dnc(
        [("13035550140", "1", "0", "another tool", ""), ("13036150006", "1", "0", "", "")]
    )
    list_id = _new_list(session, "Denver leads")
    plain, code, spaced, other = seed_leads(
        sandbox,
        list_id,
        [
            ("3035550140", "1", "", "", "NEW"),
            ("13035550140", "1", "", "", "NEW"),
            ("(303) 555-0140", "1", "", "", "NEW"),
            ("3036150006", "1", "", "", "NEW"),
        ],
    )

    store = remove(session, tmp_path, ["3035550140", "3036150006"], lead_status="CALLBK")

    assert _statuses(sandbox) == {
        plain: "CALLBK",
        code: "CALLBK",
        spaced: "CALLBK",
        other: "CALLBK",
    }
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    messages = {r.national: (r.outcome, r.message) for r in store.rows()}
    assert messages["3035550140"] == (
        "removed",
        "on the list as 13035550140, its country code 1 written in the digits; deleted in that "
        f"form; re-statused 3 leads: lead {plain} (list {list_id}) NEW→CALLBK, lead {code} (list "
        f"{list_id}) NEW→CALLBK, lead {spaced} (list {list_id}) NEW→CALLBK",
    )
    # Never "no lead found" while a lead of the number exists.
    assert messages["3036150006"] == (
        "removed",
        "on the list as 13036150006, its country code 1 written in the digits; deleted in that "
        f"form; re-statused 1 lead: lead {other} (list {list_id}) NEW→CALLBK",
    )
    assert NO_LEADS.format(status="CALLBK") not in str(messages)
    # The delete re-statused the lead holding its digits; the others, by their own update,
    # each journaled once with its old status, filed under the row's number.
    job = str(store.meta()["job_id"])
    assert _journaled_leads(session, job) == sorted(
        [
            ("+13035550140", "delete", code, "NEW"),
            ("+13035550140", "update", plain, "NEW"),
            ("+13035550140", "update", spaced, "NEW"),
            ("+13036150006", "update", other, "NEW"),
        ]
    )
    updates = [p for path, p in wire.sent if path == UPDATE]
    assert sorted((p["lead_id"], p["status"]) for p in updates) == sorted(
        [(plain, "CALLBK"), (spaced, "CALLBK"), (other, "CALLBK")]
    )
    outcomes = [
        e.outcome
        for e in session.journal.query(job=job, operation="lead.update")
        if e.phase == "outcome"
    ]
    assert outcomes == ["ok"] * 3


def test_a_uk_number_sets_its_leads_with_and_without_the_trunk_zero_each_once(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    # B3 #2: listed in several forms with and without the 0, only with it, only without it.
    sandbox.bulk_seed_dnc(
        [
            ("7911123456", "44", "0", "", ""),
            ("07911123456", "44", "0", "", ""),
            ("447911123456", "1", "0", "by hand", ""),
            ("7911123460", "44", "0", "", ""),
            ("07911123460", "44", "0", "", ""),
            ("02079460002", "44", "0", "", ""),
        ]
    )
    list_id = _new_list(session, "UK leads list")
    leads = seed_leads(
        sandbox,
        list_id,
        [
            ("07911123456", "44", "", "", "NEW"),  # 0: re-statused by the 07911123456 delete
            ("7911123456", "", "07911123456", "", "NEW"),  # both forms: named once
            ("07911123460", "44", "", "", "NEW"),
            ("07911 123460", "44", "", "", "NEW"),
            ("7911123460", "44", "", "", "NEW"),
            ("2079460002", "44", "", "", "NEW"),  # no delete sends these digits
            ("02079460002", "44", "", "", "CALLBK"),  # already in the status
        ],
    )
    zero56, both56, zero60, spaced60, plain60, plain02, zero02 = leads

    numbers = ["+44 7911 123456", "+44 7911 123460", "+44 20 7946 0002"]
    store = remove(session, tmp_path, numbers, lead_status="CALLBK")

    assert set(_statuses(sandbox).values()) == {"CALLBK"}
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    job = str(store.meta()["job_id"])
    journaled = _journaled_leads(session, job)
    # Each lead changed is journaled once (the one holding both forms too); the lead already
    # CALLBK is not journaled as a change.
    assert sorted(x[2] for x in journaled) == sorted(
        [zero56, both56, zero60, spaced60, plain60, plain02]
    )
    assert ("+442079460002", "update", plain02, "NEW") in journaled
    # Every delete carried the status; one /leads/update only, for the lead no delete reached.
    assert {status for _, status in wire.deletes("lead_status")} == {"CALLBK"}
    assert [p["lead_id"] for path, p in wire.sent if path == UPDATE] == [plain02]
    messages = {r.national: r.message for r in store.rows()}
    assert (
        f"re-statused 2 leads: lead {zero56} (list {list_id}) NEW→CALLBK, lead {both56}"
        in (messages["7911123456"])
    )
    assert messages["7911123460"].endswith(
        f"re-statused 3 leads: lead {zero60} (list {list_id}) NEW→CALLBK, lead {spaced60} (list "
        f"{list_id}) NEW→CALLBK, lead {plain60} (list {list_id}) NEW→CALLBK"
    )
    assert messages["2079460002"].endswith(
        f"re-statused 1 lead: lead {plain02} (list {list_id}) NEW→CALLBK; 1 lead already CALLBK, "
        f"its status unchanged: lead {zero02} (list {list_id})"
    )
    # The leads evidence attributes to the number are the ones set.
    pack = gather_evidence(session.api, session.journal, None, "+44 7911 123460", "44")
    assert {hit.lead.id for hit in pack.leads} == {zero60, spaced60, plain60}


def test_without_a_lead_status_no_lead_is_looked_up_or_set(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([("13035550141", "1", "0", "", "")])
    (lead,) = seed_leads(
        sandbox, _new_list(session, "Removal leads"), [("3035550141", "1", "", "", "NEW")]
    )
    store = remove(session, tmp_path, ["3035550141"], lead_status="")
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert _statuses(sandbox) == {lead: "NEW"}
    assert not any("leads" in path for path in wire.paths)
    assert wire.deletes("lead_status") == [("13035550141", None)]


def _lead_not_found(request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        400, json={"success": False, "error": {"code": 6071, "message": "lead not found"}}
    )


def test_a_lead_update_refused_is_said_and_journaled(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([("13035550142", "1", "0", "", "")])
    list_id = _new_list(session, "Removal leads")
    (lead,) = seed_leads(sandbox, list_id, [("3035550142", "1", "", "", "NEW")])
    wire.fails, wire.fail = UPDATE, _lead_not_found

    store = remove(session, tmp_path, ["3035550142"], lead_status="CALLBK")

    (row,) = store.rows()
    # The number was taken off: the row is removed, and says the lead was not set.
    assert row.outcome == "removed"
    assert NO_LEADS.format(status="CALLBK") in row.message
    assert "not set to CALLBK (the change journal has each attempt), so each keeps its " in (
        row.message
    )
    assert f"lead {lead} (list {list_id}): " in row.message
    assert _statuses(sandbox) == {lead: "NEW"}
    job = str(store.meta()["job_id"])
    outcomes = [
        e.outcome
        for e in session.journal.query(job=job, operation="lead.update")
        if e.phase == "outcome"
    ]
    assert outcomes == ["failed"]


def _record_delete(session: Session, store: JobStore, national: str, outcome: str) -> None:
    """The journal of a delete of ``national`` (US) this job sent before it was killed."""
    job = str(store.meta()["job_id"])
    intent = session.journal.record_intent(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation="dnc.delete",
        target=journal_target("dnc", national, "1", GLOBAL),
        phone=f"+1{national}",
        before={
            "phone_number": national,
            "phone_code": "1",
            "campaign_id": "0",
            "entries": [{"id": "999", "phone_number": national, "phone_code": "1"}],
            "leads": [],
        },
        after={"lead_status": "CALLBK", "update_lead_status": "true"},
        job=job,
        note="consumer asked",
    )
    if outcome:
        session.journal.record_outcome(intent, outcome=outcome)


def test_a_row_says_sent_again_only_when_the_journal_has_its_delete(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # B3 #3: the job file marks a row "sending" before its look-ups; a kill while they ran
    # left rows that said "sent again" with no delete ever sent.
    numbers = ["3036180020", "3036180021", "3036180022", "3036180023"]
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in numbers])
    store = stage(session, tmp_path, numbers, lead_status="CALLBK")
    rows = {r.national: r for r in store.rows()}
    for row in rows.values():
        store.mark_sending(row.seq)  # each in flight when the job was killed
    store.flush()
    store.set_meta({"started": True})
    _record_delete(session, store, "3036180021", "")  # killed before its answer came
    _record_delete(session, store, "3036180022", "unknown")  # sent, its answer lost
    _record_delete(session, store, "3036180023", "not_attempted")  # stopped before it was sent

    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED

    said = {r.national: (r.outcome, r.message) for r in store.rows()}
    assert {outcome for outcome, _ in said.values()} == {"removed"}
    for never_sent in ("3036180020", "3036180023"):
        assert RESENT not in said[never_sent][1]
        assert RESUMED_SENT not in said[never_sent][1]
    # Killed before its answer came: its request may never have left (S21 K2).
    assert said["3036180021"][1].endswith(RESUMED_SENT)
    # An outcome its own process recorded: that request went out.
    assert said["3036180022"][1].endswith(RESENT)


def test_a_row_found_removed_by_its_earlier_delete_sets_the_leads_left(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    # Killed after its delete and before the lead update its send was to make: the resume
    # finds the number gone, names what the journal has and sets the lead still NEW.
    list_id = _new_list(session, "Removal leads")
    (lead,) = seed_leads(sandbox, list_id, [("(303) 618-0024", "1", "", "", "NEW")])
    store = stage(session, tmp_path, ["3036180024"], lead_status="CALLBK")
    (row,) = store.rows()
    store.mark_sending(row.seq)
    store.flush()
    store.set_meta({"started": True})
    _record_delete(session, store, "3036180024", "ok")

    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED

    (row,) = store.rows()
    assert row.outcome == "removed"
    assert row.message == (
        f"{REMOVED_BEFORE_INTERRUPTION}; re-statused 1 lead: lead {lead} (list {list_id}) "
        "NEW→CALLBK"
    )
    assert _statuses(sandbox) == {lead: "CALLBK"}
    job = str(store.meta()["job_id"])
    assert ("+13036180024", "update", lead, "NEW") in _journaled_leads(session, job)
