"""Black-box findings on ``dnc-desk remove FILE --scope … --lead-status CODE --note …``: a lead
already in the status was reported and journaled as re-statused ("CALLBK→CALLBK").

The app sends no request per lead: the delete itself (``update_lead_status``) sets every lead
on the number. So such a lead is named apart as already in the status, its status unchanged;
it is not counted as re-statused, not journaled as a change and not named as one the service
set while the number's other entries still cover it.

Against the sandbox over loopback HTTP; a forwarding transport records the requests.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.models import Lead
from app.api.scope import Scope
from app.cli.main import main
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.lead_lookup import restatus_text
from app.core.paths import AppPaths
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.lead_wire import Forwarding, seed_leads, wired_session


@pytest.fixture
def wire() -> Forwarding:
    return Forwarding()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Forwarding) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, wire)


def _statuses(sandbox: Any) -> dict[str, str]:
    return {str(r["id"]): str(r["status"]) for r in sandbox.store.all("SELECT * FROM leads")}


def _remove(session: Session, tmp_path: Path, numbers: list[str], lead_status: str) -> JobStore:
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n" + "".join(f"{n}\n" for n in numbers))
    settings = JobSettings(path, Scope.global_(), lead_status=lead_status, note="asked again")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    return store


def _leads_journaled(session: Session, job: str) -> dict[str, list[dict[str, str]]]:
    """Each delete intent's ``before["leads"]`` by phone (E.164)."""
    return {
        e.phone: e.before["leads"]
        for e in session.journal.query(job=job)
        if e.phase == "intent" and e.operation == "dnc.delete"
    }


def test_a_lead_already_in_the_status_is_named_apart_and_not_journaled(
    sandbox: Any, session: Session, wire: Forwarding, tmp_path: Path
) -> None:
    list_id = session.api.insert_list("Already in status list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in ("2025557001", "2025557002")])
    new, already, blank = seed_leads(
        sandbox,
        list_id,
        [
            ("2025557001", "1", "", "", "NEW"),
            ("(202) 555-7001", "1", "", "", "CALLBK"),
            ("2025557001", "", "", "", ""),
        ],
    )
    (only,) = seed_leads(sandbox, list_id, [("2025557002", "1", "", "", "CALLBK")])
    wire.paths.clear()

    store = _remove(session, tmp_path, ["2025557001", "2025557002"], "CALLBK")

    assert job_summary(store)["removed"] == 2
    assert set(_statuses(sandbox).values()) == {"CALLBK"}
    # No request per lead: the deletes set the statuses.
    assert "/v1/leads/update" not in wire.paths
    assert Counter(wire.paths)["/v1/dnc/delete"] == 2
    messages = {r.national: r.message for r in store.rows()}
    assert messages["2025557001"] == (
        f"re-statused 2 leads: lead {new} (list {list_id}) NEW→CALLBK, "
        f"lead {blank} (list {list_id}) (no status)→CALLBK; "
        f"1 lead already CALLBK, its status unchanged: lead {already} (list {list_id})"
    )
    assert messages["2025557002"] == (
        f"1 lead already CALLBK, its status unchanged: lead {only} (list {list_id})"
    )
    assert "CALLBK→CALLBK" not in " ".join(messages.values())
    # The journal keeps the changes only: undoing them leaves the unchanged leads alone.
    assert _leads_journaled(session, job_summary(store)["job"]) == {
        "+12025557001": [
            {"id": new, "list_id": list_id, "status": "NEW"},
            {"id": blank, "list_id": list_id, "status": ""},
        ],
        "+12025557002": [],
    }


def test_a_lead_already_in_the_status_is_not_named_as_set_while_still_covered(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaigns = {c.name: c.id for c in session.api.campaigns()}
    winback = campaigns["Old Winback"]
    sandbox.bulk_seed_dnc([("2025557010", "1", "0", "", ""), ("2025557010", "1", winback, "", "")])
    winback_list = session.api.insert_list("Old Winback list A", winback)
    changed, already = seed_leads(
        sandbox,
        winback_list,
        [("2025557010", "1", "", "", "NEW"), ("2025557010", "1", "", "", "NI")],
    )

    store = _remove(session, tmp_path, ["2025557010"], "NI")

    (row,) = store.rows()
    assert row.outcome == "removed"
    assert f"1 lead already NI, its status unchanged: lead {already}" in row.message
    # The warning names the lead the service changed, not the one it left as it was.
    assert (
        f"lead {changed} (list {winback_list}) stays on the DNC list through the number's "
        "other entry"
    ) in row.message
    assert "yet the service set it to NI too" in row.message
    assert f"lead {already} (list {winback_list}) stays" not in row.message


def test_the_message_names_ten_leads_already_in_the_status() -> None:
    def lead(n: int, status: str) -> Lead:
        return Lead(str(n), "7", status, "2025557020", "1", "", "", "", "")

    leads = [lead(n, "DNC") for n in range(1, 13)] + [lead(13, "NEW")]
    text = restatus_text(leads, "DNC")
    assert text.startswith("re-statused 1 lead: lead 13 (list 7) NEW→DNC; 12 leads already DNC")
    assert text.endswith(", lead 10 (list 7), and 2 more")
    assert "lead 11" not in text


@pytest.fixture
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.mark.usefixtures("token_env")
def test_the_cli_report_and_journal_do_not_list_a_change_that_changed_nothing(
    sandbox: Any, api: ApiClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The tester's command: dnc-desk remove FILE --scope global --lead-status CALLBK --note …
    list_id = api.insert_list("CLI status list", api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("2025557030", "1", "0", "", "")])
    moved, kept = seed_leads(
        sandbox,
        list_id,
        [("2025557030", "1", "", "", "NEW"), ("2025557030", "1", "", "", "CALLBK")],
    )
    src = tmp_path / "rm.csv"
    src.write_text("Phone\n2025557030\n")
    argv = ["remove", str(src), "--scope", "global", "--lead-status", "CALLBK"]
    argv += ["--note", "consent given again", "--base-url", sandbox.base_url, "--json"]

    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["removed"] == 1
    book = openpyxl.load_workbook(data["report"], read_only=True)
    try:
        sheet = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    (message,) = [r[sheet[0].index("Message")] for r in sheet[1:]]
    assert message == (
        f"re-statused 1 lead: lead {moved} (list {list_id}) NEW→CALLBK; "
        f"1 lead already CALLBK, its status unchanged: lead {kept} (list {list_id})"
    )
    journal = ChangeJournal(AppPaths.default().journal_db)
    try:
        (intent,) = [e for e in journal.query(job=data["job"]) if e.phase == "intent"]
    finally:
        journal.close()
    assert intent.before is not None
    assert intent.before["leads"] == [{"id": moved, "list_id": list_id, "status": "NEW"}]


def test_leads_typed_in_the_usual_ten_digit_forms_are_journaled(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # Black-box finding (pass E): the service re-statused the leads typed "312.555.0009",
    # "312 555 0009" and "(312)555-0009" too, and the journal kept only the plain one's
    # previous status. Forms with the country code are not re-statused (their digits differ).
    list_id = session.api.insert_list("Typed forms list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("3125550009", "1", "0", "", "")])
    forms = ["312.555.0009", "312 555 0009", "(312)555-0009", "3125550009", "312-555-0009"]
    ids = seed_leads(sandbox, list_id, [(form, "1", "", "", "NEW") for form in forms])
    (plus,) = seed_leads(sandbox, list_id, [("+1 312-555-0009", "1", "", "", "NEW")])
    store = _remove(session, tmp_path, ["3125550009"], "CALLBK")
    statuses = _statuses(sandbox)
    changed = {lead for lead, status in statuses.items() if status == "CALLBK"}
    assert changed == set(ids) and statuses[plus] == "NEW"
    journaled = _leads_journaled(session, job_summary(store)["job"])["+13125550009"]
    assert {lead["id"] for lead in journaled} == changed
    assert all(lead["status"] == "NEW" for lead in journaled)
