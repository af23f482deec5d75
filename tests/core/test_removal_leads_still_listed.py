"""A removal whose delete re-statused leads that the number's other DNC entries still list says
so where an officer looks: the job's warnings (so the CLI's stderr and ``--json``), a count in
the job meta and the report's Summary, and an event in the change journal (black-box B9 #1).

B9 #1: ``remove … --scope global --lead-status CALLBK`` took 9497691638's global entry; the
service set the number's lead in a list of campaign 1006, whose own entry stays, to CALLBK, so a
number still on that campaign's DNC list looked callable there. Only the row's message in the
report's Rows sheet said so: the Summary, the warnings and the journal did not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from app.api.models import Lead
from app.api.scope import Scope
from app.core.job_exec import report_path
from app.core.job_report import (
    LEADS_STILL_LISTED,
    STILL_LISTED_LABEL,
    StillListed,
    write_report,
)
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.lead_lookup import LEADS_IN_MESSAGE, still_covered_sentence, still_listed_in
from app.core.removal_job import STILL_LISTED_EVENT, run_removal, stage_removal
from app.core.session import Session

COVERED_ONE = "2025550101"  # global (taken) and Old Winback's own entry (stays): 1 lead there
COVERED_TWO = "2025550103"  # the same, with 2 leads in Old Winback's list
GLOBAL_ONLY = "2025550102"  # global only: its lead is not covered once the entry goes


def _summary(path: Path) -> dict[str, object]:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        return {str(row[0]): row[1] for row in book["Summary"].iter_rows(values_only=True)}
    finally:
        book.close()


def _lead(lead_id: str, list_id: str) -> Lead:
    return Lead(lead_id, list_id, "NEW", "", "", "", "", "", "")


def test_the_message_read_back_counts_every_lead_named_and_more() -> None:
    """The report counts from the rows' messages: every lead, past the ten a message names."""
    many = [(_lead(str(100 + n), "7"), ["Campaign 1006", "Global"]) for n in range(12)]
    said = still_covered_sentence(many, "CALLBK")
    assert " and 2 more stay on the DNC list" in said
    message = f"re-statused 12 leads: …; {said}; answered after 2 attempts"
    found = still_listed_in(message)
    assert found.leads == 12
    assert len(found.named) == LEADS_IN_MESSAGE
    assert found.named[0] == "lead 100 (list 7)"
    assert found.scopes == ["Campaign 1006", "Global"]
    one = still_covered_sentence([(_lead("5", "9"), ["Purpose: Sales"])], "DNC")
    # Two deletes of one row (two written forms) each say it: both are counted.
    assert still_listed_in(f"{one}; {said}").leads == 13
    assert still_listed_in("re-statused 1 lead: lead 5 (list 9) NEW→DNC").leads == 0
    tally = StillListed()
    assert tally.sentence("DNC") == ""


def test_leads_still_listed_are_counted_warned_of_and_journaled(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaigns = {c.name: c.id for c in session.api.campaigns()}
    spring, winback = campaigns["Spring Renewals"], campaigns["Old Winback"]
    sandbox.bulk_seed_dnc(
        [
            (COVERED_ONE, "1", "0", "", ""),
            (COVERED_ONE, "1", winback, "", ""),
            (COVERED_TWO, "1", "0", "", ""),
            (COVERED_TWO, "1", winback, "", ""),
            (GLOBAL_ONLY, "1", "0", "", ""),
        ]
    )
    spring_list = session.api.insert_list("Spring Renewals leads", spring)
    winback_list = session.api.insert_list("Old Winback leads", winback)
    sandbox.bulk_seed_leads(spring_list, [(COVERED_ONE, "1", "", ""), (GLOBAL_ONLY, "1", "", "")])
    sandbox.bulk_seed_leads(
        winback_list,
        [(COVERED_ONE, "1", "", ""), (COVERED_TWO, "1", "", ""), (COVERED_TWO, "1", "", "")],
    )
    leads: dict[tuple[int, str], list[str]] = {}
    for r in sandbox.store.all("SELECT id, list_id, phone_number FROM leads ORDER BY id"):
        leads.setdefault((int(r["list_id"]), str(r["phone_number"])), []).append(str(r["id"]))
    covered = {
        COVERED_ONE: leads[(int(winback_list), COVERED_ONE)],
        COVERED_TWO: leads[(int(winback_list), COVERED_TWO)],
    }
    was = {
        str(r["id"]): str(r["status"] or "")
        for r in sandbox.store.all("SELECT id, status FROM leads")
    }
    path = tmp_path / "remove.csv"
    path.write_text(f"Phone\n{COVERED_ONE}\n{GLOBAL_ONLY}\n{COVERED_TWO}\n")
    settings = JobSettings(path, Scope.global_(), note="consent given again", lead_status="NI")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    rows = {r.national: r for r in store.rows()}
    assert {r.outcome for r in rows.values()} == {"removed"}
    # The row's message keeps its words.
    assert (
        f"lead {covered[COVERED_ONE][0]} (list {winback_list}) stays on the DNC list through "
        "the number's other entry (Campaign "
    ) in rows[COVERED_ONE].message

    # The job's count and its warning, which the CLI prints and --json lists.
    meta = store.meta()
    assert meta[LEADS_STILL_LISTED] == 3
    said = [w for w in meta.get("warnings") or [] if "looks callable" in w]
    assert len(said) == 1, meta.get("warnings")
    sentence = said[0]
    assert sentence.startswith("3 leads on 2 removed numbers were set to NI by the service ")
    assert f"(Campaign {winback})" in sentence
    one, two = covered[COVERED_ONE][0], covered[COVERED_TWO]
    assert f"row 2 (lead {one} (list {winback_list}))" in sentence
    assert (
        f"row 4 (lead {two[0]} (list {winback_list}), lead {two[1]} (list {winback_list}))"
    ) in sentence
    assert f"row {rows[GLOBAL_ONLY].row_number} " not in sentence

    # The report's Summary counts them and carries the warning.
    summary = _summary(report_path(store))
    assert summary[STILL_LISTED_LABEL] == 3
    assert sentence in summary.values()

    # The change journal has an event for each number, every lead and the scopes listing it.
    events = session.journal.query(operation=STILL_LISTED_EVENT, job=str(meta["job_id"]))
    by_phone = {e.phone: e for e in events}
    assert set(by_phone) == {f"+1{COVERED_ONE}", f"+1{COVERED_TWO}"}
    details = by_phone[f"+1{COVERED_TWO}"].after or {}
    assert [x["id"] for x in details["leads"]] == two
    assert all(x["still_listed_by"] == [f"Campaign {winback}"] for x in details["leads"])
    assert [x["status_before"] for x in details["leads"]] == [was[x] for x in two]
    assert details["lead_status"] == "NI"
    assert details["row"] == rows[COVERED_TWO].row_number
    assert by_phone[f"+1{COVERED_ONE}"].note == "consent given again"

    # A report written again (a resume, the window's job list) replaces its sentence.
    write_report(store, tmp_path / "again.xlsx")
    again = [w for w in store.meta().get("warnings") or [] if "looks callable" in w]
    assert again == [sentence]
    assert _summary(tmp_path / "again.xlsx")[STILL_LISTED_LABEL] == 3


def test_a_removal_whose_leads_no_entry_still_lists_says_none(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaigns = {c.name: c.id for c in session.api.campaigns()}
    sandbox.bulk_seed_dnc([(GLOBAL_ONLY, "1", "0", "", "")])
    spring_list = session.api.insert_list("Spring leads", campaigns["Spring Renewals"])
    sandbox.bulk_seed_leads(spring_list, [(GLOBAL_ONLY, "1", "", "")])
    path = tmp_path / "remove.csv"
    path.write_text(f"Phone\n{GLOBAL_ONLY}\n")
    settings = JobSettings(path, Scope.global_(), note="consent given again", lead_status="NI")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session) is JobStatus.FINISHED
    meta = store.meta()
    assert meta[LEADS_STILL_LISTED] == 0
    assert not [w for w in meta.get("warnings") or [] if "looks callable" in w]
    assert _summary(report_path(store))[STILL_LISTED_LABEL] == 0
    assert session.journal.query(operation=STILL_LISTED_EVENT) == []
    # A dry run looks nothing up, so its Summary has no such count.
    dry, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    with dry:
        dry.set_status(JobStatus.DRY_RUN)
        assert STILL_LISTED_LABEL not in _summary(write_report(dry, tmp_path / "dry.xlsx"))
